// What every way into an import does first: options checked, symbol files
// put in one shape, a dropped folder listed, the input's name found. Used by
// the public facade (index.js) and by the page's own imports (kept.js).

import { ImportError, abortError } from './errors.js';
import { checkFileData, commonFolder, filesOfDirectory, isBlob, isDirectoryEntry, isFileList } from './input.js';

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
  const { threads } = options;
  if (threads !== undefined && threads !== null && typeof threads !== 'boolean' &&
      !(Number.isInteger(threads) && threads >= 1 && threads <= 1024)) {
    throw new ImportError({
      code: 'INVALID_ARGUMENT', message: 'options.threads must be true, false or a number of threads from 1 to 1024',
    });
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new ImportError({ code: 'INVALID_ARGUMENT', message: 'options.onProgress must be a function' });
  }
}

/**
 * Checks `options` and readies `input`: {input, options, name}, with a
 * directory entry listed as its files and options.symbols as
 * [{path, data, loadAddress}].
 */
export async function prepareImport(input, options) {
  validate(options);
  const prepared = { ...options, symbols: symbolFiles(options.symbols) };
  if (prepared.signal?.aborted) throw abortError(prepared.signal);
  if (isDirectoryEntry(input)) input = await filesOfDirectory(input, prepared.signal);
  const name = prepared.name ?? (isFileList(input) ? commonFolder(input) : input?.name);
  return { input, options: prepared, name };
}
