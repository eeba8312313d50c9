// Turns every accepted input into a sequence of byte chunks, without copying
// the caller's memory and without ever transferring (detaching) it.

/** Bytes handed to the core per call: bounded, so progress and abort stay responsive. */
export const CHUNK_BYTES = 4 << 20;

/**
 * @returns {{chunks: AsyncIterable<Uint8Array>, size: number|undefined, name: string|undefined}}
 */
export function toChunks(input) {
  if (input instanceof Uint8Array) return fromBytes(input);
  if (input instanceof ArrayBuffer) return fromBytes(new Uint8Array(input));
  if (ArrayBuffer.isView(input)) {
    return fromBytes(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  }
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    return { chunks: blobChunks(input), size: input.size, name: input.name };
  }
  if (typeof ReadableStream !== 'undefined' && input instanceof ReadableStream) {
    return { chunks: streamChunks(input), size: undefined, name: undefined };
  }
  if (input && typeof input[Symbol.asyncIterator] === 'function') {
    return { chunks: iterableChunks(input), size: undefined, name: undefined };
  }
  throw new TypeError(
    'importTrace: input must be a Uint8Array, ArrayBuffer, Blob, ReadableStream or async iterable of bytes',
  );
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

// Large Files are read a slice at a time, never whole.
async function* blobChunks(blob) {
  for (let offset = 0; offset < blob.size; offset += CHUNK_BYTES) {
    yield new Uint8Array(await blob.slice(offset, offset + CHUNK_BYTES).arrayBuffer());
  }
}

async function* streamChunks(stream) {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield* splitChunk(asBytes(value));
    }
  } finally {
    reader.releaseLock();
  }
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
