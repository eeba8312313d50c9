// Loads the WebAssembly core and runs one import session over a sequence of
// byte chunks. Bytes go in through one malloc + set per chunk; results come
// out as typed-array copies, or as speedscope JSON streamed to a writer (see
// cpp/bindings/embind.cc).
// Two cores are shipped: the single-threaded one, and the threaded one
// (dist/threads/), which needs shared memory: Node, or a cross-origin isolated
// page in an engine that has SharedArrayBuffer. It is loaded only when it
// runs, and chosen unless options.threads is false or 1, the caller names a
// .wasm of its own, shared memory is missing, or the input gains nothing from
// threads (coreChoice).

import createInstrumentscopeCore from '../dist/instrumentscope-core.js';
import { ImportError, abortError } from './errors.js';
import { dataSize, isFileList, peekChunks, readData, toChunks } from './input.js';

const DEFAULT_WASM_URL = new URL('../dist/instrumentscope-core.wasm', import.meta.url);

// The threads an import gets unless options.threads says: one per core, up
// to this many (the threaded core starts one worker fewer, each a copy of the
// core's JavaScript and stack in memory).
const DEFAULT_MOST_THREADS = 4;

let defaultWasmBinary = null;
let environment = {
  cores: globalThis.navigator?.hardwareConcurrency ?? 1,
  // Before the threaded glue is imported (Node's needs CommonJS's globals):
  // the options its module is created with beside helperThreads.
  prepareThreaded: async () => ({}),
};
const cores = new Map();  // wasm location or threads → Promise of the module
const coreKeys = new WeakMap();  // module → its key, to forget a broken one

/** Lets an environment (Node) supply the .wasm bytes when no option names them. */
export function setDefaultWasmBinary(loader) {
  defaultWasmBinary = loader;
}

/** Lets an environment (Node) say how many cores it has and prepare the threaded glue. */
export function setThreadsEnvironment(settings) {
  environment = { ...environment, ...settings };
}

// A bundle this large (a folder's files together, or its zip) holds enough to
// inflate for the threaded core to pay for starting its workers: its members
// are inflated on a helper thread while others are decoded. Smaller bundles
// take the single-threaded core unless options.threads names a number.
export const THREADED_BUNDLE_BYTES = 16 << 20;

/**
 * What an input is, for the choice of core: 'export' (plain or gzipped), 'bundle'
 * (a folder of files, or a zip) or 'text' (Deep Copy), told from its first bytes.
 */
export function inputKind(first, isFolder = false) {
  if (isFolder) return 'bundle';
  if (!first?.byteLength) return 'text';
  if (first[0] === 0x1f && first[1] === 0x8b) return 'export';  // gzip: an export, if anything
  if (first[0] === 0x50 && first[1] === 0x4b) return 'bundle';  // "PK": a zip
  const start = new TextDecoder().decode(first.subarray(0, 64)).replace(/^\uFEFF/, '').trimStart();
  return start.startsWith('<') ? 'export' : 'text';
}

/**
 * Which core `options` get for an input of `kind` (inputKind) and `size`
 * bytes (undefined when not known), and why: {threads, why}, threads 1 for the
 * single-threaded core; why says what kept threads off, when something did.
 * Exports are imported on several threads; bundles when they are large
 * (THREADED_BUNDLE_BYTES) or options.threads is a number; Deep Copy text never.
 * @param {{threads?: boolean|number, wasmURL?: string|URL, wasmBinary?: object}} options
 */
export function coreChoice(options = {}, kind = 'export', size = undefined) {
  const { threads } = options;
  if (threads === false || threads === 1) return { threads: 1, why: 'threads are turned off' };
  if (options.wasmURL || options.wasmBinary) {
    return { threads: 1, why: 'a .wasm was named (wasmURL or wasmBinary): that is the single-threaded core' };
  }
  if (kind === 'text') return { threads: 1, why: 'Deep Copy text is imported on one thread' };
  if (kind === 'bundle' && typeof threads !== 'number' && !(size >= THREADED_BUNDLE_BYTES)) {
    return { threads: 1, why: `a bundle under ${THREADED_BUNDLE_BYTES >> 20} MB is imported on one thread` };
  }
  if (typeof SharedArrayBuffer !== 'function' || globalThis.crossOriginIsolated === false) {
    return {
      threads: 1,
      why: globalThis.crossOriginIsolated === false ? 'the page is not cross-origin isolated'
        : 'this engine has no SharedArrayBuffer',
    };
  }
  const wanted = typeof threads === 'number' ? threads : Math.min(environment.cores, DEFAULT_MOST_THREADS);
  return wanted > 1 ? { threads: wanted } : { threads: 1, why: 'this machine has one core' };
}

/**
 * The core module: the single-threaded one, created once per wasm location,
 * or the threaded one, once per thread count.
 * @param {{wasmURL?: string|URL, wasmBinary?: ArrayBuffer|Uint8Array, threads?: boolean|number}} options
 */
export function loadCore(options = {}) {
  if (options.wasmBinary) {
    return createInstrumentscopeCore({ wasmBinary: options.wasmBinary });
  }
  const { threads } = coreChoice(options);
  const key = threads > 1 ? `threads:${threads}` : options.wasmURL ? String(options.wasmURL) : '';
  if (!cores.has(key)) {
    const promise = (async () => {
      let core;
      if (threads > 1) {
        core = await createThreadedCore(threads - 1);
      } else if (!options.wasmURL && defaultWasmBinary) {
        core = await createInstrumentscopeCore({ wasmBinary: await defaultWasmBinary() });
      } else {
        const url = String(options.wasmURL ?? DEFAULT_WASM_URL);
        core = await createInstrumentscopeCore({ locateFile: () => url });
      }
      coreKeys.set(core, key);
      return core;
    })();
    promise.catch(() => cores.delete(key));  // a failed load may be retried
    cores.set(key, promise);
  }
  return cores.get(key);
}

/** The threaded core, its `helpers` workers started (and ready) before it resolves. */
async function createThreadedCore(helpers) {
  const glue = new URL('../dist/threads/instrumentscope-core-mt.mjs', import.meta.url);
  const settings = await environment.prepareThreaded(glue);
  const { default: create } = await import(glue);
  const core = await create({ ...settings, helperThreads: helpers });
  // Idle workers must not keep Node's process alive.
  for (const worker of core.PThread.unusedWorkers) worker.unref?.();
  core.setWorkerCount(helpers);
  return core;
}

function throwIfError(result) {
  if (result && result.error) throw new ImportError(result.error);
  return result;
}

// A call into the core. The core reports every input problem as a value; it
// throws only when WebAssembly itself gives up, in practice by running out of
// its 4 GB. Such a module is forgotten, so the next import starts afresh.
function call(core, method, ...args) {
  try {
    return throwIfError(core[method](...args));
  } catch (error) {
    if (error instanceof ImportError) throw error;
    if (coreKeys.has(core)) cores.delete(coreKeys.get(core));
    throw new ImportError({
      code: 'LIMIT_EXCEEDED',
      message: `the WebAssembly core stopped (${error?.message ?? error}), most likely out of ` +
        'memory: WebAssembly has at most 4 GB; try options.run or options.limits.maxSamples',
    });
  }
}

/**
 * Feeds an input to a new session and returns the core's result. The input is
 * either a stream of bytes ({chunks}) or a folder's files ({files}: [{path,
 * data}]), of which only those the core wants are read.
 * With options.json the core writes the speedscope file itself, piece by
 * piece, to json.write(bytes) (a view valid only during the call; a null
 * writer gives the summary only), and the result holds no typed arrays; with
 * json.mergeConsecutive, each run of consecutive samples of one stack is
 * written as one sample of their summed weight; with json.format 'firefox',
 * the file is the Firefox Profiler's instead; with json.gzip, it is
 * compressed (as the core writes it).
 * @param core the loaded module
 * @param {{chunks?: AsyncIterable<Uint8Array>, files?: Array<{path: string, data: any}>,
 *          wanted?: boolean[]}} input (wanted: for each file, whether the core reads it)
 * With options.symbols ([{path, data, loadAddress}]) the user's binaries and
 * dSYMs are added before the input, to name the frames it leaves unnamed.
 * With options.keep the core keeps the result, which keptJson() then
 * writes a part at a time; the result is {progress, summary, group}.
 * @param {{name?: string, run?: number, limits?: object, symbols?: object[], symbolLines?: string,
 *          demangle?: boolean|string, intervals?: boolean, keep?: boolean, signal?: AbortSignal,
 *          onProgress?: Function, bytesTotal?: number,
 *          json?: {write: ((bytes: Uint8Array) => void) | null, mergeConsecutive?: boolean,
 *                  format?: 'speedscope'|'firefox', gzip?: boolean}}} options
 */
export async function runImport(core, input, options) {
  const { signal, onProgress } = options;
  const request = {
    name: options.name ?? '', run: options.run ?? null, symbolLines: options.symbolLines ?? null,
    demangle: options.demangle ?? null, intervals: options.intervals ?? null,
    threads: options.threads ?? null,
  };
  if (options.limits) request.limits = options.limits;
  const { session } = call(core, 'beginImport', JSON.stringify(request));
  const iterator = input.files
    ? readFiles(input.files, input.wanted)[Symbol.asyncIterator]()
    : input.chunks[Symbol.asyncIterator]();
  // Rejects on abort, so that a stalled input cannot hold the import open.
  let onAbort;
  const aborted = signal && new Promise((_, reject) => {
    onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();  // aborted while the core was loading
  });
  aborted?.catch(() => {});
  let buffer = 0;
  let capacity = 0;
  try {
    const report = (stage, progress = call(core, 'importProgress', session)) => {
      if (!onProgress) return;
      onProgress({
        stage: stage ?? progress.stage,
        bytesRead: progress.bytesRead,
        bytesTotal: options.bytesTotal,
        samples: progress.samples,
      });
    };
    const copyIn = (bytes) => {
      if (bytes.byteLength > capacity) {
        core._free(buffer);
        capacity = 0;
        buffer = call(core, '_malloc', bytes.byteLength);
        if (!buffer) {
          throw new ImportError({ code: 'LIMIT_EXCEEDED', message: 'out of WebAssembly memory (4 GB at most)' });
        }
        capacity = bytes.byteLength;
      }
      // HEAPU8 is re-read after every call: memory growth replaces it.
      core.HEAPU8.set(bytes, buffer);
    };
    if (options.symbols?.length) report('symbols');
    for (const symbol of options.symbols ?? []) {
      const bytes = await readData(symbol.data);
      if (signal?.aborted) throw abortError(signal);
      copyIn(bytes);
      call(core, 'addSymbolFile', session, symbol.path, buffer, bytes.byteLength, symbol.loadAddress ?? '');
    }
    // The core holds its own copies: a large dSYM's buffer is not kept for the recording.
    core._free(buffer);
    buffer = 0;
    capacity = 0;
    report('reading');
    for (;;) {
      const { done, value } = await nextChunk(iterator, aborted);
      if (done) break;
      if (signal?.aborted) throw abortError(signal);
      // A stream gives chunks; a folder gives {path, bytes} files.
      const chunk = input.files ? value.bytes : value;
      if (chunk.byteLength === 0 && !input.files) continue;
      copyIn(chunk);
      if (input.files) {
        call(core, 'addImportFile', session, value.path, buffer, chunk.byteLength);
      } else {
        call(core, 'feedImport', session, buffer, chunk.byteLength);
      }
      report();
    }
    if (signal?.aborted) throw abortError(signal);
    report('building');
    const result = options.json ? finishToJson(core, session, options.json)
      : options.keep ? keep(core, call(core, 'finishImportToGroup', session))
        : call(core, 'finishImport', session);
    report('done', result.progress);
    return result;
  } finally {
    try {
      core._free(buffer);
      core.cancelImport(session);  // no-op once finished
    } catch {
      // A stopped core cannot free; it has been forgotten already.
    }
    if (onAbort) signal.removeEventListener('abort', onAbort);
    // Not awaited: a stalled source finishes its cleanup when it resumes.
    iterator.return?.()?.catch?.(() => {});
  }
}

// Results the core keeps, by a handle of this module's (a core's own numbers
// would clash between cores): each with the core that holds it.
const kept = new Map();
let nextKept = 1;

function keep(core, result) {
  const handle = nextKept++;
  kept.set(handle, { core, group: result.group });
  return { ...result, group: handle };
}

function keptEntry(handle) {
  const entry = kept.get(handle);
  if (!entry) throw new ImportError({ code: 'INVALID_ARGUMENT', message: `no kept result ${handle}` });
  return entry;
}

/** Calls the core's `method` with `args` and a writer that gathers its output into a Blob. */
function writeBlob(entry, method, ...args) {
  const pieces = blobPieces();
  const result = call(entry.core, method, entry.group, ...args, (bytes) => {
    pieces.write(bytes);
    return true;
  });
  return { blob: pieces.blob('application/json'), result };
}

/** Gathers the core's pieces, each a view valid only during its call, into a Blob. */
function blobPieces() {
  const parts = [];
  return {
    write: (bytes) => parts.push(bytes.slice()),
    blob: (type) => new Blob(parts, { type }),
  };
}

/** A kept result as one speedscope file, in a Blob: the bytes the CLI writes. */
export function keptJson(handle) {
  return writeBlob(keptEntry(handle), 'writeGroupJson').blob;
}

/** A kept result as one Firefox Profiler file, in a Blob: the bytes `--format firefox` writes. */
export function keptFirefoxJson(handle) {
  return writeBlob(keptEntry(handle), 'writeGroupFirefoxJson').blob;
}

/**
 * What speedscope's viewer is handed of a kept result's `profiles` (indices)
 * opened at `picked`, within `budget` of its cost (see PlanViewer in
 * cpp/speedscope/viewer_plan.h): {blob, plan: {profiles, alone, note, cost}},
 * the blob to be ended with `,"activeProfileIndex":N}`, N a position in
 * plan.profiles.
 */
export function viewerJson(handle, profiles, picked, budget) {
  const { blob, result } = writeBlob(keptEntry(handle), 'writeViewerJson', profiles, picked, budget);
  return { blob, plan: result };
}

/** Frees a kept result. */
export function releaseKept(handle) {
  const entry = kept.get(handle);
  kept.delete(handle);
  try {
    entry?.core.releaseGroup(entry.group);
  } catch {
    // A stopped core has nothing left to free.
  }
}

// A writer's error cannot cross the core (it has no exceptions): it is caught
// here, stops the core's writer, and is thrown once the core has returned.
function finishToJson(core, session, { write: writeJson, mergeConsecutive, format, gzip }) {
  let writeError = null;
  const write = writeJson ? (bytes) => {
    try {
      writeJson(bytes);
      return true;
    } catch (error) {
      writeError = error;
      return false;
    }
  } : null;
  const result = call(core, 'finishImportToJson', session, write, {
    format: format ?? 'speedscope', mergeConsecutive: Boolean(mergeConsecutive), gzip: Boolean(gzip),
  });
  if (writeError) throw writeError;
  return result;
}

/**
 * Imports in the calling thread: `input` is anything the facade accepts once
 * directory entries are listed (bytes, Blob, stream, files). Returns the core's
 * result: typed arrays, or with `json` as for runImport, the JSON written.
 * Its summary says which core ran it: core {threaded, why} (why: what kept
 * threads off), beside the core's own importThreads.
 */
export async function importHere(input, options, name, json = undefined) {
  const files = isFileList(input) ? input : undefined;
  const stream = files ? undefined : toChunks(input);
  const peeked = stream && await peekUnlessAborted(stream.chunks, options.signal);
  const size = files ? files.reduce((sum, file) => sum + dataSize(file.data), 0) : stream.size;
  const choice = coreChoice(options, inputKind(peeked?.first, Boolean(files)), size);
  const core = await loadCore({ ...options, threads: choice.threads > 1 ? choice.threads : false });
  const wanted = files && core.wantedFiles(files.map((file) => file.path));
  const result = await runImport(core, files ? { files, wanted } : { chunks: peeked.chunks }, {
    name: name ?? stream?.name ?? '',
    run: options.run,
    limits: options.limits,
    symbols: options.symbols,
    symbolLines: options.symbolLines,
    demangle: options.demangle,
    intervals: options.intervals,
    threads: choice.threads,
    keep: options.keep,
    signal: options.signal,
    onProgress: options.onProgress,
    bytesTotal: files
      ? files.reduce((sum, file, i) => sum + (wanted[i] ? dataSize(file.data) : 0), 0)
      : stream.size,
    json,
  });
  result.core = choice.threads > 1 ? { threaded: true, threads: choice.threads }
    : { threaded: false, why: choice.why };
  return result;
}

/** peekChunks, ended by `signal`: a source may stall before its first byte. */
async function peekUnlessAborted(chunks, signal) {
  if (!signal) return peekChunks(chunks);
  if (signal.aborted) throw abortError(signal);
  let onAbort;
  const aborted = new Promise((_, reject) => {
    onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {});
  try {
    return await Promise.race([peekChunks(chunks), aborted]);
  } catch (error) {
    // Not awaited: a stalled source finishes its cleanup when it resumes.
    chunks.return?.()?.catch?.(() => {});
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Imports in the calling thread and returns the result with the file the core
 * writes (`output`: {format: 'speedscope'|'firefox', gzip}) as a Blob of
 * pieces: no one string holds it.
 */
export async function importFileHere(input, options, name, output) {
  const pieces = blobPieces();
  const result = await importHere(input, options, name, { ...output, write: pieces.write });
  return { ...result, blob: pieces.blob(output.gzip ? 'application/gzip' : 'application/json') };
}

/**
 * The readable forms of `names` (strings) in `style` ('instruments' or
 * 'full'), computed in the calling thread; names that are no mangling come
 * back as they are.
 */
export async function demangleHere(names, style, options = {}) {
  const core = await loadCore({ ...options, threads: false });
  return core.demangleNames(names, style);
}

/**
 * What a file is, by its first bytes (a Uint8Array; 4 KiB suffice):
 * 'recording', 'symbols' (a Mach-O binary or dSYM) or 'unknown', as the core
 * sniffs it.
 */
export async function fileRoleHere(prefix, options = {}) {
  const core = await loadCore({ ...options, threads: false });
  const buffer = call(core, '_malloc', Math.max(prefix.byteLength, 1));
  try {
    core.HEAPU8.set(prefix, buffer);
    return core.fileRole(buffer, prefix.byteLength);
  } finally {
    core._free(buffer);
  }
}

/** The bytes of the files the core reads (others come empty), one by one. */
async function* readFiles(files, wanted) {
  const empty = new Uint8Array(0);
  for (const [i, file] of files.entries()) {
    yield { path: file.path, bytes: wanted[i] ? await readData(file.data) : empty };
  }
}

function nextChunk(iterator, aborted) {
  const next = iterator.next();
  return aborted ? Promise.race([next, aborted]) : next;
}
