// instrumentscope: Apple Instruments recordings in, speedscope profiles out.
// In a browser page the WebAssembly core runs in a module Worker the facade
// owns (worker.js), so the page never blocks; in Node (through ./node.js), in
// workers, or with options.worker === false, it runs in the calling thread.
// The .wasm is fetched from beside these files, or from options.wasmURL.

import { ImportError, abortError } from './errors.js';
import { checkFileData, commonFolder, filesOfDirectory, isBlob, isDirectoryEntry, isFileList } from './input.js';
import { speedscopeJsonPieces, toSpeedscope } from './speedscope.js';
import { importInWorker } from './worker-client.js';

export { ImportError };

// options.symbols as [{path, data, loadAddress}], loadAddress a string or undefined.
function symbolFiles(symbols) {
  if (symbols === undefined || symbols === null) return undefined;
  const invalid = (message) => new ImportError({ code: 'INVALID_ARGUMENT', message: `options.symbols: ${message}` });
  if (!Array.isArray(symbols)) throw invalid('must be an array of files');
  return symbols.map((symbol, index) => {
    const file = isBlob(symbol) ? { path: symbol.name ?? `symbols ${index + 1}`, data: symbol } : symbol;
    if (!file || typeof file.path !== 'string' || !('data' in file)) {
      throw invalid(`entry ${index} is neither a File nor {path, data}`);
    }
    try {
      checkFileData(file.data);
    } catch (error) {
      throw invalid(`entry ${index} (${file.path}): ${error.message}`);
    }
    let { loadAddress } = file;
    if (typeof loadAddress === 'bigint' && loadAddress >= 0n) {
      loadAddress = `0x${loadAddress.toString(16)}`;
    } else if (typeof loadAddress === 'number' && Number.isSafeInteger(loadAddress) && loadAddress >= 0) {
      loadAddress = String(loadAddress);
    } else if (loadAddress !== undefined && typeof loadAddress !== 'string') {
      throw invalid(`entry ${index} (${file.path}): loadAddress must be a string, a bigint, or a ` +
        'number up to 2^53 (larger addresses as a bigint or "0x…")');
    }
    return { path: file.path, data: file.data, loadAddress };
  });
}

function validate(options) {
  if (options.run !== undefined && options.run !== null &&
      !(Number.isInteger(options.run) && options.run > 0)) {
    throw new ImportError({ code: 'INVALID_ARGUMENT', message: 'options.run must be a positive integer' });
  }
  if (![undefined, null, 'function', 'line'].includes(options.symbolLines)) {
    throw new ImportError({ code: 'INVALID_ARGUMENT', message: 'options.symbolLines must be "function" or "line"' });
  }
  if (![undefined, null, true, false, 'instruments', 'full'].includes(options.demangle)) {
    throw new ImportError({
      code: 'INVALID_ARGUMENT', message: 'options.demangle must be true, false, "instruments" or "full"',
    });
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new ImportError({ code: 'INVALID_ARGUMENT', message: 'options.onProgress must be a function' });
  }
}

function inPageWithWorkers(options) {
  return options.worker !== false && typeof window !== 'undefined' && typeof Worker !== 'undefined';
}

/** See index.d.ts. */
export async function importTraceWithSummary(input, options = {}) {
  validate(options);
  options = { ...options, symbols: symbolFiles(options.symbols) };
  if (options.signal?.aborted) throw abortError(options.signal);
  if (isDirectoryEntry(input)) input = await filesOfDirectory(input, options.signal);
  const name = options.name ?? (isFileList(input) ? commonFolder(input) : input?.name);
  const result = inPageWithWorkers(options)
    ? await importInWorker(input, options, name)
    : await (await import('./core.js')).importHere(input, options, name);
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

/** See index.d.ts. */
export async function demangle(names, options = {}) {
  const style = options.style ?? 'instruments';
  if (style !== 'instruments' && style !== 'full') {
    throw new ImportError({ code: 'INVALID_ARGUMENT', message: 'options.style must be "instruments" or "full"' });
  }
  const list = typeof names === 'string' ? [names] : names;
  if (!Array.isArray(list) || !list.every((name) => typeof name === 'string')) {
    throw new ImportError({ code: 'INVALID_ARGUMENT', message: 'demangle() takes a string or an array of strings' });
  }
  const readable = await (await import('./core.js')).demangleHere(list, style, options);
  return typeof names === 'string' ? readable[0] : readable;
}
