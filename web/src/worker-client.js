// The browser side of worker.js: one module Worker per facade, created on the
// first import and shared by every import after; one promise per request.
// The caller's buffers are never transferred: bytes are copied (into a Blob)
// and only the facade's own copies of stream chunks cross the boundary.

import { ImportError, abortError } from './errors.js';
import { isFileList } from './input.js';

let worker = null;
let nextId = 1;
const requests = new Map();

function ownWorker(workerURL) {
  if (worker) return worker;
  // Spelled out in full so that bundlers see the worker and ship it.
  worker = workerURL
    ? new Worker(workerURL, { type: 'module' })
    : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => requests.get(data.id)?.receive(data);
  worker.onerror = (event) => {
    event.preventDefault?.();
    const error = new ImportError({
      code: 'INVALID_ARGUMENT',
      message: `the import worker failed to start: ${event.message ?? 'unknown error'}`,
    });
    for (const request of requests.values()) request.fail(error);
    worker.terminate();
    worker = null;
  };
  return worker;
}

function rebuild(error) {
  if (error.code) return new ImportError(error);
  const rebuilt = error.name === 'TypeError' ? new TypeError(error.message) : new Error(error.message);
  if (error.name !== 'TypeError') rebuilt.name = error.name;
  return rebuilt;
}

function copyOf(bytes) {
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes.slice(0));
  return new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

// What the worker is sent for an input, and for streams, where chunks come from.
function describeInput(input) {
  if (isFileList(input)) {
    const files = input.map(({ path, data }) => ({
      path,
      data: data instanceof Blob ? data : new Blob([copyOf(data)]),
    }));
    return { message: { kind: 'files', files } };
  }
  if (input instanceof Blob) return { message: { kind: 'blob', blob: input } };
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) {
    return { message: { kind: 'blob', blob: new Blob([input]) } };
  }
  if (input instanceof ReadableStream) return { message: { kind: 'stream' }, iterator: streamIterator(input) };
  if (input && typeof input[Symbol.asyncIterator] === 'function') {
    return { message: { kind: 'stream' }, iterator: input[Symbol.asyncIterator]() };
  }
  throw new TypeError(
    'importTrace: input must be a Uint8Array, ArrayBuffer, Blob, ReadableStream, async iterable of ' +
      'bytes, a list of {path, data} files, or a FileSystemDirectoryEntry',
  );
}

async function* streamIterator(stream) {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Runs one import in the worker; resolves with the core's result. */
export function importInWorker(input, options, name) {
  const described = describeInput(input);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    const target = ownWorker(options.workerURL);
    const { signal } = options;
    const finish = () => {
      requests.delete(id);
      signal?.removeEventListener('abort', onAbort);
      described.iterator?.return?.()?.catch?.(() => {});
    };
    const onAbort = () => {
      target.postMessage({ type: 'cancel', id });
      finish();
      reject(abortError(signal));
    };
    const pull = async () => {
      try {
        const { done, value } = await described.iterator.next();
        if (!requests.has(id)) return;
        if (done) {
          target.postMessage({ type: 'end', id });
          return;
        }
        const bytes = copyOf(value instanceof Uint8Array || value instanceof ArrayBuffer || ArrayBuffer.isView(value)
          ? value : new TextEncoder().encode(String(value)));
        target.postMessage({ type: 'chunk', id, bytes }, [bytes.buffer]);
      } catch (error) {
        target.postMessage({ type: 'cancel', id });
        finish();
        reject(error);
      }
    };
    requests.set(id, {
      receive(message) {
        if (message.type === 'progress') {
          try {
            options.onProgress?.(message.progress);
          } catch (error) {
            target.postMessage({ type: 'cancel', id });
            finish();
            reject(error);
          }
        } else if (message.type === 'pull') {
          pull();
        } else if (message.type === 'done') {
          finish();
          resolve(message.result);
        } else if (message.type === 'error') {
          finish();
          reject(message.error.name === 'AbortError' && signal ? abortError(signal) : rebuild(message.error));
        }
      },
      fail(error) {
        finish();
        reject(error);
      },
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    target.postMessage({
      type: 'import',
      id,
      input: described.message,
      options: {
        name,
        run: options.run,
        limits: options.limits,
        wasmURL: options.wasmURL ? String(options.wasmURL) : undefined,
        wasmBinary: options.wasmBinary,  // copied by postMessage, not transferred
      },
    });
  });
}
