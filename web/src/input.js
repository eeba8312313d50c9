// Turns every accepted input into a sequence of byte chunks, without copying
// the caller's memory and without ever transferring (detaching) it.

import { abortError } from './errors.js';

/** Bytes handed to the core per call: bounded, so progress and abort stay responsive. */
export const CHUNK_BYTES = 4 << 20;

/**
 * A folder's files: [{path, data}], with data a Uint8Array, ArrayBuffer, Blob
 * or {size, read} (those two read only when the importer needs that file).
 */
export function isFileList(input) {
  return Array.isArray(input) &&
    input.every((file) => file && typeof file.path === 'string' && 'data' in file);
}

/** A dropped folder: a FileSystemDirectoryEntry (from webkitGetAsEntry). */
export function isDirectoryEntry(input) {
  return Boolean(input?.isDirectory) && typeof input.createReader === 'function';
}

/**
 * The files below a FileSystemDirectoryEntry, as [{path, data: File}].
 * Listing a bundle takes a while (a call per file): an abort stops it.
 */
export async function filesOfDirectory(directory, signal) {
  const files = [];
  const pending = [directory];
  const throwIfAborted = () => {
    if (signal?.aborted) throw abortError(signal);
  };
  while (pending.length) {
    const reader = pending.pop().createReader();
    // readEntries hands out a batch at a time, until an empty one.
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      throwIfAborted();
      if (!batch.length) break;
      for (const entry of batch) {
        if (entry.isDirectory) {
          pending.push(entry);
        } else {
          const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
          throwIfAborted();
          files.push({ path: entry.fullPath.replace(/^\//, ''), data: file });
        }
      }
    }
  }
  return files;
}

/**
 * A Blob or File, also one from another realm (a file dropped on an iframe
 * is a File of the iframe's window, not of this one).
 */
export function isBlob(value) {
  if (typeof Blob === 'undefined' || value === null || typeof value !== 'object') return false;
  return value instanceof Blob || ['[object Blob]', '[object File]'].includes(Object.prototype.toString.call(value));
}

/**
 * A file's data as {size, read}: its size known, its bytes read by `read()`
 * only if the importer needs them (a file on disk in Node, where fs.readFileSync
 * reads a bundle's files several times faster than a Blob of fs.openAsBlob).
 */
export function isDeferredData(data) {
  return data !== null && typeof data === 'object' && !isBlob(data) && typeof data.read === 'function' &&
    Number.isSafeInteger(data.size) && data.size >= 0;
}

/** The size of a file's data, without reading it. */
export function dataSize(data) {
  if (isBlob(data) || isDeferredData(data)) return data.size;
  return data?.byteLength ?? 0;
}

/** Throws unless a folder file's data is bytes, a Blob or {size, read}. */
export function checkFileData(data) {
  if (!isBlob(data) && !isDeferredData(data) && !isBytes(data)) {
    throw new TypeError('importTrace: a file\'s data must be a Uint8Array, ArrayBuffer, Blob or {size, read}');
  }
}

function isBytes(data) {
  return data instanceof ArrayBuffer || ArrayBuffer.isView(data);
}

/** A file's bytes; Blobs and {size, read} are read here, once. */
export async function readData(data) {
  checkFileData(data);
  if (isBlob(data)) return new Uint8Array(await data.arrayBuffer());
  if (!isDeferredData(data)) return asBytes(data);
  const bytes = await data.read();
  if (!isBytes(bytes)) throw new TypeError('importTrace: a file\'s read() must give a Uint8Array or ArrayBuffer');
  return asBytes(bytes);
}

/** The folder every path starts in ("x.trace" of "x.trace/form.template"), if one. */
export function commonFolder(files) {
  const first = files[0]?.path.replace(/^\.?\//, '').split('/')[0];
  const shared = first && files.every((file) => file.path.replace(/^\.?\//, '').startsWith(`${first}/`));
  return shared ? first : undefined;
}

/**
 * @returns {{chunks: AsyncIterable<Uint8Array>, size: number|undefined, name: string|undefined}}
 */
export function toChunks(input) {
  if (typeof input === 'string') return fromBytes(new TextEncoder().encode(input));
  if (input instanceof Uint8Array) return fromBytes(input);
  if (input instanceof ArrayBuffer) return fromBytes(new Uint8Array(input));
  if (ArrayBuffer.isView(input)) {
    return fromBytes(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  }
  if (isBlob(input)) {
    return { chunks: blobChunks(input), size: input.size, name: input.name };
  }
  if (typeof ReadableStream !== 'undefined' && input instanceof ReadableStream) {
    return { chunks: streamChunks(input), size: undefined, name: undefined };
  }
  if (input && typeof input[Symbol.asyncIterator] === 'function') {
    return { chunks: iterableChunks(input), size: undefined, name: undefined };
  }
  throw new TypeError(
    'importTrace: input must be a Uint8Array, ArrayBuffer, Blob, ReadableStream, async iterable of ' +
      'bytes, a list of {path, data} files, a FileSystemDirectoryEntry, or text',
  );
}

/**
 * The first chunk of `chunks` that holds any bytes (or none at the end), and
 * an async iterator of the same chunks from the start again, whose return()
 * reaches the source at once, even while a read is pending.
 */
export async function peekChunks(chunks) {
  const iterator = chunks[Symbol.asyncIterator]();
  const seen = [];
  let first;
  let ended = false;
  while (!first) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    seen.push(next.value);
    if (next.value.byteLength > 0) first = next.value;
  }
  const again = {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (seen.length) return Promise.resolve({ done: false, value: seen.shift() });
      return ended ? Promise.resolve({ done: true, value: undefined }) : iterator.next();
    },
    return(value) {
      seen.length = 0;
      return iterator.return ? iterator.return(value) : Promise.resolve({ done: true, value });
    },
  };
  return { first, chunks: again };
}

function fromBytes(bytes) {
  return {
    size: bytes.byteLength,
    name: undefined,
    chunks: (async function* () {
      for (let offset = 0; offset < bytes.byteLength; offset += CHUNK_BYTES) {
        yield bytes.subarray(offset, offset + CHUNK_BYTES);
      }
    })(),
  };
}

// Large Files are read a slice at a time, never whole; the next slice is
// read while the core parses this one.
async function* blobChunks(blob) {
  const read = (offset) => {
    const slice = blob.slice(offset, offset + CHUNK_BYTES).arrayBuffer();
    slice.catch(() => {});  // a read left behind by an early return is no unhandled error
    return slice;
  };
  let next = read(0);
  for (let offset = 0; offset < blob.size; offset += CHUNK_BYTES) {
    const current = await next;
    if (offset + CHUNK_BYTES < blob.size) next = read(offset + CHUNK_BYTES);
    yield new Uint8Array(current);
  }
}

// A ReadableStream's chunks. Ending early (an abort, an error) cancels the
// stream and unlocks it, even while a read is pending, which an async
// generator could not do: its return() would wait behind the read.
function streamChunks(stream) {
  let reader = null;
  let split = [][Symbol.iterator]();
  const release = () => {
    reader?.releaseLock();
    reader = null;
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      for (;;) {
        const piece = split.next();
        if (!piece.done) return piece;
        reader ??= stream.getReader();
        const { done, value } = await reader.read();
        if (done) {
          release();
          return { done: true, value: undefined };
        }
        split = splitChunk(asBytes(value));
      }
    },
    async return() {
      if (reader) {
        const cancelled = reader.cancel();
        release();
        await cancelled.catch(() => {});
      }
      return { done: true, value: undefined };
    },
  };
}

async function* iterableChunks(iterable) {
  for await (const value of iterable) yield* splitChunk(asBytes(value));
}

function* splitChunk(bytes) {
  for (let offset = 0; offset < bytes.byteLength; offset += CHUNK_BYTES) {
    yield bytes.subarray(offset, offset + CHUNK_BYTES);
  }
}

function asBytes(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === 'string') return new TextEncoder().encode(value);
  throw new TypeError('importTrace: a stream chunk is not bytes');
}
