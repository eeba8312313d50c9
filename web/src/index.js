// instrumentscope: Apple Instruments recordings in, speedscope (and Firefox
// Profiler) profiles out.
// In a browser page the WebAssembly core runs in a module Worker the facade
// owns (worker.js), so the page never blocks; in Node (through ./node.js), in
// workers, or with options.worker === false, it runs in the calling thread.
// The .wasm is fetched from beside these files, or from options.wasmURL.

import { ImportError } from './errors.js';
import { prepareImport } from './prepare.js';
import { speedscopeJsonPieces, toSpeedscope } from './speedscope.js';
import { summaryOf } from './summary.js';
import { importInWorker } from './worker-client.js';

export { ImportError };

function inPageWithWorkers(options) {
  return options.worker !== false && typeof window !== 'undefined' && typeof Worker !== 'undefined';
}

/** See index.d.ts. */
export async function importTraceWithSummary(input, options = {}) {
  const prepared = await prepareImport(input, options);
  const result = inPageWithWorkers(options)
    ? await importInWorker(prepared.input, prepared.options, prepared.name)
    : await (await import('./core.js')).importHere(prepared.input, prepared.options, prepared.name);
  return toSpeedscope(result);
}

/** See index.d.ts. */
export async function importTrace(input, options = {}) {
  return (await importTraceWithSummary(input, options)).file;
}

/** See index.d.ts. */
export async function importTraceAsFirefoxProfile(input, options = {}) {
  const { gzip = false } = options;
  if (typeof gzip !== 'boolean') {
    throw new ImportError({ code: 'INVALID_ARGUMENT', message: 'options.gzip must be true or false' });
  }
  const prepared = await prepareImport(input, options);
  const output = { format: 'firefox', gzip };
  const result = inPageWithWorkers(options)
    ? await importInWorker(prepared.input, { ...prepared.options, output }, prepared.name)
    : await (await import('./core.js')).importFileHere(prepared.input, prepared.options, prepared.name, output);
  return { blob: result.blob, summary: summaryOf(result) };
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
