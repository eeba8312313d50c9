// The browser side of worker.js: one module Worker per worker URL, created on
// the first import and shared by every import after; one promise per request.
// The caller's buffers are never transferred: bytes are copied (into a Blob)
// and only the facade's own copies of stream chunks cross the boundary.

import { ImportError, abortError } from './errors.js';
import { checkFileData, isBlob, isDeferredData, isFileList, toChunks } from './input.js';

let nextId = 1;
const workers = new Map();  // workerURL ('' for the default) → Worker
const requests = new Map();  // request id → {worker, receive, fail}

function ownWorker(workerURL) {
  const key = workerURL ? String(workerURL) : '';
  let worker = workers.get(key);
  if (worker) return worker;
  // Spelled out in full so that bundlers see the worker and ship it.
  worker = workerURL
    ? new Worker(workerURL, { type: 'module' })
    : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => requests.get(data.id)?.receive(data);
  worker.onerror = (event) => {
    event.preventDefault?.();
    // Not an ImportError: nothing is wrong with the input.
    const error = new Error(`the import worker (${workerURL ?? 'worker.js beside index.js'}) failed to start: ` +
      `${event.message ?? 'it could not be loaded'}`);
    for (const request of [...requests.values()]) {
      if (request.worker === worker) request.fail(error);
    }
    worker.terminate();
    workers.delete(key);
  };
  workers.set(key, worker);
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

// A file's data as the worker is sent it: a Blob, which holds a copy of bytes.
// A read() cannot cross to the worker, nor is it called on the page's thread.
function blobOf(path, data) {
  checkFileData(data);
  if (isBlob(data)) return data;
  if (isDeferredData(data)) {
    throw new ImportError({
      code: 'INVALID_ARGUMENT',
      message: `${path}: data given as {size, read} is read in the calling thread; in a page, give a Blob ` +
        'or bytes, or import with options.worker false',
    });
  }
  return new Blob([data]);
}

// What the worker is sent for an input, and for streams, where chunks come from.
function describeInput(input) {
  if (isFileList(input)) {
    const files = input.map(({ path, data }) => ({ path, data: blobOf(path, data) }));
    return { message: { kind: 'files', files } };
  }
  if (isBlob(input)) return { message: { kind: 'blob', blob: input } };
  if (typeof input === 'string') return { message: { kind: 'blob', blob: new Blob([input]) } };  // UTF-8
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) {
    return { message: { kind: 'blob', blob: new Blob([input]) } };  // a copy of the view's bytes
  }
  return { message: { kind: 'stream' }, iterator: toChunks(input).chunks[Symbol.asyncIterator]() };
}

/** Runs one import in the worker; resolves with the core's result. */
export function importInWorker(input, options, name) {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  // Symbols first: a refused one must not leave the input's stream opened.
  const symbols = options.symbols?.map(({ path, data, loadAddress }) => ({ path, data: blobOf(path, data), loadAddress }));
  const described = describeInput(input);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    const target = ownWorker(options.workerURL);
    const finish = () => {
      requests.delete(id);
      signal?.removeEventListener('abort', onAbort);
      described.iterator?.return?.()?.catch?.(() => {});
    };
    const fail = (error) => {
      finish();
      reject(error);
    };
    const cancel = (error) => {
      target.postMessage({ type: 'cancel', id });
      fail(error);
    };
    const onAbort = () => cancel(abortError(signal));
    const pull = async () => {
      try {
        const { done, value } = await described.iterator.next();
        if (!requests.has(id)) return;
        if (done) {
          target.postMessage({ type: 'end', id });
        } else {
          const bytes = copyOf(value);
          target.postMessage({ type: 'chunk', id, bytes }, [bytes.buffer]);
        }
      } catch (error) {
        if (requests.has(id)) cancel(error);
      }
    };
    requests.set(id, {
      worker: target,
      receive(message) {
        if (message.type === 'progress') {
          try {
            options.onProgress?.(message.progress);
          } catch (error) {
            cancel(error);
          }
        } else if (message.type === 'pull') {
          pull();
        } else if (message.type === 'done') {
          finish();
          resolve(message.result);
        } else if (message.type === 'error') {
          fail(message.error.name === 'AbortError' && signal ? abortError(signal) : rebuild(message.error));
        }
      },
      fail,
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      target.postMessage({
        type: 'import',
        id,
        input: described.message,
        options: {
          name,
          run: options.run,
          limits: options.limits,
          symbolLines: options.symbolLines,
          demangle: options.demangle,
          intervals: options.intervals,
          threads: options.threads,
          keep: options.keep,
          output: options.output,
          symbols,
          wasmURL: options.wasmURL ? String(options.wasmURL) : undefined,
          wasmBinary: options.wasmBinary,  // copied by postMessage, not transferred
        },
      });
    } catch (error) {
      // Options that cannot be cloned (a function in limits, say).
      fail(new ImportError({ code: 'INVALID_ARGUMENT', message: `importTrace: ${error.message}` }));
    }
  });
}

/** Sends the worker one request (`message` and its id); resolves with its result. */
function request(message, workerURL) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    const target = ownWorker(workerURL);
    const fail = (error) => {
      requests.delete(id);
      reject(error);
    };
    requests.set(id, {
      worker: target,
      receive(answer) {
        if (answer.type === 'done') {
          requests.delete(id);
          resolve(answer.result);
        } else if (answer.type === 'error') {
          fail(rebuild(answer.error));
        }
      },
      fail,
    });
    target.postMessage({ ...message, id });
  });
}

/** A result kept by an import with options.keep, as speedscope JSON (see keptJson in core.js). */
export async function keptJsonInWorker(group, workerURL) {
  return (await request({ type: 'json', group }, workerURL)).blob;
}

/** A result kept by an import with options.keep, as a Firefox Profiler file (see keptFirefoxJson in core.js). */
export async function keptFirefoxJsonInWorker(group, workerURL) {
  return (await request({ type: 'firefox', group }, workerURL)).blob;
}

/** What speedscope's viewer is handed of a kept result: {blob, plan} (see viewerJson in core.js). */
export function viewerJsonInWorker(group, profiles, picked, budget, workerURL) {
  return request({ type: 'viewer', group, profiles, picked, budget }, workerURL);
}

/** What a file is, by its first bytes (see fileRoleHere in core.js). */
export function fileRoleInWorker(prefix, workerURL) {
  return request({ type: 'role', prefix }, workerURL);
}

/** Frees a kept result in the worker. */
export function releaseInWorker(group, workerURL) {
  ownWorker(workerURL).postMessage({ type: 'release', group });
}
