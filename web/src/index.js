// instrumentscope: Apple Instruments recordings in, speedscope profiles out.
// This entry runs the WebAssembly core in the calling thread; it works in
// browsers (the .wasm is fetched from beside this file, or from
// options.wasmURL) and, through ./node.js, in Node.

import { loadCore, runImport, wantedBytes } from './core.js';
import { ImportError, abortError } from './errors.js';
import { commonFolder, isFileList, toChunks } from './input.js';
import { speedscopeJsonPieces, toSpeedscope } from './speedscope.js';

export { ImportError };

function validate(options) {
  if (options.run !== undefined && options.run !== null &&
      !(Number.isInteger(options.run) && options.run > 0)) {
    throw new ImportError({ code: 'INVALID_ARGUMENT', message: 'options.run must be a positive integer' });
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new ImportError({ code: 'INVALID_ARGUMENT', message: 'options.onProgress must be a function' });
  }
}

/** See index.d.ts. */
export async function importTraceWithSummary(input, options = {}) {
  validate(options);
  if (options.signal?.aborted) throw abortError(options.signal);
  const files = isFileList(input) ? input : undefined;
  const stream = files ? undefined : toChunks(input);
  const core = await loadCore(options);
  const result = await runImport(core, files ? { files } : { chunks: stream.chunks }, {
    name: options.name ?? (files ? commonFolder(files) : stream.name) ?? '',
    run: options.run,
    limits: options.limits,
    signal: options.signal,
    onProgress: options.onProgress,
    bytesTotal: files ? wantedBytes(core, files) : stream.size,
  });
  return toSpeedscope(result);
}

/** See index.d.ts. */
export async function importTrace(input, options = {}) {
  return (await importTraceWithSummary(input, options)).file;
}

/** See index.d.ts. */
export function serializeSpeedscope(file) {
  return speedscopeJsonPieces(file);
}
