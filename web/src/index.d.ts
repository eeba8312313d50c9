// Types of the instrumentscope package. Hand-written, and kept in step with
// cpp/speedscope/file_format.h and cpp/firefox/processed_format.h (the
// outputs) and cpp/base/status.h (the codes).

/** speedscope's file format, as instrumentscope writes it
 * (https://www.speedscope.app/file-format-schema.json). */
export interface SpeedscopeFile {
  $schema: 'https://www.speedscope.app/file-format-schema.json';
  shared: { frames: SpeedscopeFrame[] };
  /** Sampled profiles (threads, and the views made from them), and evented
   * ones for the lanes of interval sources (see ProfileSummary.kind). */
  profiles: Array<SampledProfile | EventedProfile>;
  /** The input's file name. */
  name?: string;
  /** The busiest thread: the profile a viewer should open first. */
  activeProfileIndex?: number;
  /** "instrumentscope@<version>" */
  exporter?: string;
}

export interface SpeedscopeFrame {
  name: string;
  /** The source file, else the binary's path. */
  file?: string;
  /** The lowest source line seen for the function. */
  line?: number;
  col?: number;
}

export type ValueUnit = 'none' | 'nanoseconds' | 'microseconds' | 'milliseconds' | 'seconds' | 'bytes';

/** One thread of one run. Samples are in time order; an empty sample `[]` is
 * time without a sample, so each sample sits at the sum of the weights before
 * it, from startValue (the start of the run). Samples with the same stack
 * share one array: treat them as read-only. */
export interface SampledProfile {
  type: 'sampled';
  /** "Main Thread 0x9db2dc — proc (pid 83138)", plus " — run N" when the
   * input holds several runs. */
  name: string;
  /** "nanoseconds" for time profiles, "bytes" for a Deep Copy of Allocations, "none" for
   * cycle, event and sample counts. */
  unit: ValueUnit;
  startValue: number;
  endValue: number;
  /** Frame indices into shared.frames, root first. */
  samples: number[][];
  weights: number[];
}

/** One lane of an interval source (os_signpost Points of Interest, hangs,
 * thermal states, display vsyncs): each interval a frame opened and closed,
 * properly nested, in time order, on the run's time axis. */
export interface EventedProfile {
  type: 'evented';
  /** "Points of Interest — com.example.app / Networking — app (pid 42) — lane 2" */
  name: string;
  unit: ValueUnit;
  startValue: number;
  endValue: number;
  /** `frame` indexes shared.frames: the interval's label. */
  events: Array<{ type: 'O' | 'C'; frame: number; at: number }>;
}

/** A file's bytes, read only if the importer needs that file: its `size`
 * known beforehand, `read()` called at most once, in the calling thread.
 * For files on disk in Node, where `{size: stat.size, read: () =>
 * fs.readFileSync(path)}` reads a bundle's files several times faster than a
 * Blob of `fs.openAsBlob`. A page's imports run in a Worker, which a function
 * cannot reach: there they fail with INVALID_ARGUMENT unless `worker: false`. */
export interface DeferredData {
  size: number;
  read(): Uint8Array | ArrayBuffer | Promise<Uint8Array | ArrayBuffer>;
}

/** One file of a `.trace` folder. Only the files the importer needs are read. */
export interface TraceFile {
  /** The path inside the folder, '/'-separated: "x.trace/form.template". */
  path: string;
  data: Uint8Array | ArrayBuffer | Blob | DeferredData;
}

/** A dropped folder: what `DataTransferItem.webkitGetAsEntry()` gives for a
 * folder (a `FileSystemDirectoryEntry`), described by the members the
 * importer uses so that code without the DOM types can name it too. */
export interface TraceDirectoryEntry {
  readonly isDirectory: boolean;
  readonly fullPath: string;
  createReader(): {
    readEntries(success: (entries: any[]) => void, failure?: (error: DOMException) => void): void;
  };
}

/** A `.trace` bundle (zipped, or as its folder's files), an `xctrace export`
 * (XML, or gzip-compressed XML), or the text of an Instruments Deep Copy (as
 * bytes, or as a string, such as one pasted). Byte arrays are read, never
 * detached or changed; Blobs and Files are read in slices of 4 MiB. */
export type TraceInput =
  | string
  | Uint8Array
  | ArrayBuffer
  | ArrayBufferView
  | Blob
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>
  | TraceFile[]
  | TraceDirectoryEntry;

export interface ImportProgress {
  stage: 'symbols' | 'reading' | 'detecting' | 'parsing' | 'building' | 'symbolicating' | 'done';
  bytesRead: number;
  /** Known for byte arrays and Blobs, not for streams. */
  bytesTotal?: number;
  /** Samples decoded so far. */
  samples: number;
}

/** Upper bounds on what one import may consume; each defaults generously. */
export interface ImportLimits {
  /** Bytes of decompressed data in one import: a gzip stream, or a bundle's files together (default 4 GiB). */
  maxDecompressedBytes?: number;
  /** Bytes one file of a bundle may expand to (default 1 GiB). */
  maxMemberBytes?: number;
  /** Zips inside zips (default 4). */
  maxZipNesting?: number;
  /** Entries in one zip (default 1 000 000). */
  maxZipEntries?: number;
  /** Objects in one binary plist (default 10 000 000). */
  maxPlistObjects?: number;
  /** Arrays and dictionaries nested in one binary plist (default 512). */
  maxPlistDepth?: number;
  /** Nesting depth of XML elements (default 256). */
  maxXmlDepth?: number;
  /** Elements in one XML document (default 1 000 000 000). */
  maxXmlElements?: number;
  /** Distinct id="N" values in one XML <node> (default 100 000 000). */
  maxXmlIds?: number;
  /** Bytes of text in one XML element (default 64 MiB). */
  maxXmlTextBytes?: number;
  /** Bytes in one line of Deep Copy text (default 16 MiB). */
  maxTextLineBytes?: number;
  /** Frames in one backtrace (default 16 384). */
  maxFramesPerStack?: number;
  /** Samples in one import (default 50 000 000). */
  maxSamples?: number;
  /** Distinct stack prefixes (default 10 000 000). */
  maxStackNodes?: number;
}

/** One of the user's own binaries or dSYMs, for naming the frames a trace
 * left as addresses: a Mach-O file (thin or universal: an app's executable, a
 * framework's binary, the DWARF file inside a `.dSYM`), any file of a
 * `.dSYM`, `.app` or `.xcarchive` folder (its other files are passed over:
 * give paths with their folder, "App.dSYM/Contents/…"), or a zip of such
 * files. A File or Blob alone is named by its `name`. */
export interface SymbolFile {
  /** "App.app.dSYM/Contents/Resources/DWARF/App": the last component names the binary. */
  path: string;
  data: Uint8Array | ArrayBuffer | Blob | DeferredData;
  /** Where the image's __TEXT was loaded, for traces that record bare
   * addresses (Xcode 14.0 and older exports) and so say nothing of images:
   * "0x104a8c000", a bigint or a number up to 2^53. Without it, bare
   * addresses are not named from this file (a guess would name slid code
   * wrongly). Traces that name images (with UUID and load address) need none. */
  loadAddress?: string | bigint | number;
}

export interface ImportOptions {
  /** Import only this run (1-based, as in the export's xpath). */
  run?: number;
  onProgress?: (progress: ImportProgress) => void;
  /** Aborting rejects the import with the signal's reason (an AbortError by default). */
  signal?: AbortSignal;
  /** The name written to the output; defaults to a File's name, or a folder's. */
  name?: string;
  limits?: ImportLimits;
  /** The user's binaries and dSYMs: frames the trace left unnamed get the
   * names, files and lines these give (matched by UUID, else by name). */
  symbols?: Array<SymbolFile | File | Blob>;
  /** How frames named from `symbols` are told apart: one per function, at
   * its first line ("function", the default: the flame graph adds up per
   * function), or one per source line executing ("line": the sampled line,
   * each caller's call site, as llvm-symbolizer names each address). */
  symbolLines?: 'function' | 'line';
  /** How mangled frame names (Swift, Rust, C++) are shown: as Instruments
   * shows them (true or "instruments", the default: Swift without modules,
   * return types or argument types, Rust without hashes), in full as
   * swift-demangle, rustc-demangle and llvm-cxxfilt print them ("full"), or
   * exactly as the input spells them (false). */
  demangle?: boolean | 'instruments' | 'full';
  /** Whether intervals are read and the views made (true, the default):
   * evented profiles of interval sources (os_signpost Points of Interest,
   * hangs, thermal states, display vsyncs), events of other tables weighted
   * by duration (page faults), and beside the threads, each process's
   * threads together and its thread pools, and threads' samples during
   * intervals. false gives CPU samples only, one profile per thread. A
   * recording of intervals without CPU samples imports only with true. */
  intervals?: boolean;
  /** Threads the import may run on. true or absent (the default): the
   * threaded core on one thread per core, up to 4, where shared memory works
   * (Node; a cross-origin isolated page in an engine with
   * SharedArrayBuffer), else the single-threaded core. A number: up to that
   * many. false (or 1): the single-threaded core. An export is cut into
   * slices at its rows, parsed on every thread; a bundle's runs' tables of
   * samples are read on helper threads (its members inflated ahead when it
   * has one such table). By default a bundle under 16 MB, which gains less
   * than the threaded core costs to start, runs on the single-threaded core
   * (a number here gives it threads too); Deep Copy text always does. The summary's `core` says which core ran, and why
   * not the threaded one; `importThreads`, how many threads it used. */
  threads?: boolean | number;
  /** Where the .wasm is served; defaults to beside the package's JS files.
   * Naming it picks the single-threaded core (dist/instrumentscope-core.wasm);
   * the threaded one is loaded from dist/threads/ beside the package's JS. */
  wasmURL?: string | URL;
  /** The .wasm's bytes, when they are at hand already: the single-threaded core's. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** In a browser page the core runs in a module Worker the package owns;
   * false runs it in the page's thread instead. Workers and Node always run
   * it in their own thread. */
  worker?: boolean;
  /** Where the package's worker.js is served, for bundlers that move it;
   * defaults to beside index.js. Under a Content-Security-Policy its response
   * needs 'wasm-unsafe-eval' (see the README). */
  workerURL?: string | URL;
}

export type ImportErrorCode =
  | 'INVALID_ARGUMENT'
  | 'EMPTY_INPUT'
  | 'UNKNOWN_FORMAT'
  | 'TRUNCATED'
  | 'LIMIT_EXCEEDED'
  | 'BAD_SAMPLE'
  | 'GZIP_CORRUPT'
  | 'GZIP_TRUNCATED'
  | 'ZIP_CORRUPT'
  | 'ZIP_UNSUPPORTED'
  | 'INFLATE_CORRUPT'
  | 'PLIST_CORRUPT'
  | 'KEYED_ARCHIVE_CORRUPT'
  | 'TYPEDSTREAM_CORRUPT'
  | 'BUNDLE_CORRUPT'
  | 'BUNDLE_NO_SAMPLES'
  | 'BUNDLE_UNSUPPORTED'
  | 'XML_SYNTAX'
  | 'XML_FORBIDDEN'
  | 'XML_NOT_XCTRACE'
  | 'XML_TABLE_OF_CONTENTS'
  | 'XML_NO_SAMPLE_TABLE'
  | 'XML_NO_SAMPLES'
  | 'XML_DANGLING_REF'
  | 'XML_DUPLICATE_ID'
  | 'XML_REF_MISMATCH'
  | 'XML_BAD_VALUE'
  | 'XML_BAD_STRUCTURE'
  | 'MACHO_CORRUPT'
  | 'MACHO_UNSUPPORTED'
  | 'DEEP_COPY_BAD_ROW'
  | 'DEEP_COPY_NO_SAMPLES'
  | 'RUN_NOT_FOUND';

/**
 * Why an import failed, and where.
 * @example
 * try {
 *   await importTrace(bytes);
 * } catch (error) {
 *   if (error instanceof ImportError) console.error(`${error.code}: ${error.message} (${error.location})`);
 * }
 */
export declare class ImportError extends Error {
  readonly name: 'ImportError';
  readonly code: ImportErrorCode;
  /** Where inside the input, e.g. "trace-query-result/node[1]/row[15]/backtrace"; "" if unknown. */
  readonly path: string;
  /** Byte offset in the (decompressed) input, or null. */
  readonly offset: number | null;
  /** XML line, or null. */
  readonly line: number | null;
  /** path, line and offset as one readable string ("" when none is known). */
  readonly location: string;
  /** For LIMIT_EXCEEDED, the name of the limit reached, as in ImportLimits ("maxXmlDepth"); else null. */
  readonly limit: keyof ImportLimits | null;
}

/** What a profile shows:
 * - "thread": one thread's CPU samples;
 * - "weighted": one thread's events of a table other than CPU samples,
 *   weighted by their durations ("… — time in page faults");
 * - "all-threads": every thread of a process, samples in time order
 *   ("All threads — proc (pid 42)");
 * - "thread-pool": the threads of a process that share a name
 *   ("_dispatch_worker_thread2 ×5 — proc (pid 42)");
 * - "intervals": one lane of an interval source, an evented profile;
 * - "during": one thread's CPU samples inside intervals of one name
 *   ("Main Thread 0x1a — during hangs (4, 2.3 s) — proc (pid 42)");
 * - "allocations": one process's heap allocations of an Allocations
 *   recording, its threads together, all or those still alive at its end,
 *   weighted by their bytes ("bytes") or counted ("none"): "All threads — app
 *   (pid 42) — still alive at the end (bytes)";
 * - "vm-regions": one process's VM regions mapped, weighted by their bytes. */
export type ProfileKind =
  'thread' | 'weighted' | 'all-threads' | 'thread-pool' | 'intervals' | 'during' | 'allocations' | 'vm-regions';

export interface ProfileSummary {
  name: string;
  kind: ProfileKind;
  unit: ValueUnit;
  startValue: number;
  endValue: number;
  /** "Main Thread 0x9db2dc"; empty when the input names no thread. */
  threadName: string;
  /** The thread as listings show it: its name, or "unnamed thread"; "All
   * threads" and "_dispatch_worker_thread2 ×5" for those views, the source's
   * name for "intervals". */
  threadLabel: string;
  tid: number;
  processName: string;
  /** null when the input names no process. */
  pid: number | null;
  /** The process as listings show it: "proc (pid 83138)", "pid 83138", "proc" or "unnamed process". */
  processLabel: string;
  run: number;
  /** The table the samples came from, e.g. "time-profile". */
  table: string;
  /** Samples recorded (idle gaps excluded); events for "weighted";
   * allocations for "allocations", regions for "vm-regions"; for
   * "intervals", the intervals in the lane. */
  sampleCount: number;
  /** Their total weight (bytes, for allocations so weighed); for
   * "intervals", the intervals' total duration (ns). */
  sampleWeight: number;
  /** Threads merged: all of a process's for "all-threads", a pool's for
   * "thread-pool"; 1 otherwise. */
  threads: number;
  /** For "intervals" and "during", the index of the source in
   * TraceSummary.intervalSources; else null. */
  intervalSource: number | null;
  /** For "intervals", the lane within the source, from 1; else 0. */
  lane: number;
  /** For "during", the intervals' name ("Load feed"), or "hangs" for
   * intervals taken all together; else "". */
  intervalName: string;
  /** The parts of `name` a listing shows under the profile's process and run:
   * ["Main Thread 0x1a", "during hangs (4, 2.3 s)"], ["Points of Interest —
   * com.example.app", "lane 2"]. Joined with " — ", they name the profile
   * within its process. */
  listedName: string[];
  /** What the weights are when they are no CPU samples, as the name ends:
   * "time in system calls", "wait in system calls", "time off CPU", "time in
   * page faults", "counter 1" ("weighted", and the "all-threads" and
   * "thread-pool" views of such profiles), "all allocations, bytes"…
   * ("allocations"); "" for CPU samples and intervals. */
  weighs: string;
  /** `sampleWeight` as a person reads a time ("134.8 ms") when the unit is
   * nanoseconds; else "". */
  weightText: string;
}

/** One kind of interval of one table and process: the Points of Interest of
 * one subsystem and category, hangs, thermal states… */
export interface IntervalSourceSummary {
  run: number;
  /** The table read, e.g. "os-signpost". */
  table: string;
  /** "Points of Interest — com.example.app / Networking" */
  name: string;
  /** "proc (pid 42)", as ProfileSummary.processLabel; empty for sources of
   * no process (thermal states, display vsyncs). */
  processLabel: string;
  pid: number | null;
  /** Intervals, single events (zero-length) included. */
  intervals: number;
  /** Their durations together, in ns. */
  totalDuration: number;
  /** The same as a person reads it: "289 s", "812 ms", "15 ns". */
  totalDurationText: string;
  /** Evented profiles ("intervals") drawing them: overlaps that do not nest
   * need lanes of their own. */
  lanes: number;
  /** The most frequent interval names (at most 5, but every one of `states`), with their
   * counts and total durations (ns, and as a person reads them: "6.0 ms"). */
  names: Array<{ name: string; intervals: number; totalDuration: number; totalDurationText: string }>;
  /** How many distinct interval names the source has. */
  nameCount: number;
  /** Whether its names are states whose time counts, every one listed: a
   * thread's states in a System Trace ("Running", "Blocked"…). */
  states: boolean;
}

export interface TableSummary {
  run: number;
  schema: string;
  rows: number;
  /** Whether the table holds CPU samples (and was imported). */
  cpuSamples: boolean;
  /** Whether intervals or weighted events were read from the table (not when it is empty, or
   * repeats the signposts of a table read). */
  intervals: boolean;
  /** Whether the table was read as allocations (an Allocations recording's "allocations"). */
  allocations: boolean;
}

/**
 * A warning's code: what kind of loss it reports (the README's "Warnings" table says what
 * each means and what the user can do).
 */
export type WarningCode =
  | 'BUNDLE_PART_UNREADABLE'
  | 'TABLE_UNREADABLE'
  | 'THREAD_NAMES_UNREADABLE'
  | 'MESSAGES_UNREADABLE'
  | 'LEGACY_RUN_UNREADABLE'
  | 'NO_FORM_TEMPLATE'
  | 'FORM_TEMPLATE_UNREADABLE'
  | 'FORM_TEMPLATE_DAMAGED'
  | 'INSTRUMENT_NOT_READ'
  | 'ALLOCATION_EVENTS_NOT_READ'
  | 'INTERVALS_WITHOUT_END'
  | 'INTERVALS_WITHOUT_BEGIN'
  | 'ROWS_WITHOUT_WEIGHT'
  | 'ROWS_WITHOUT_THREAD'
  | 'UNKNOWN_VALUES'
  | 'DURING_VIEWS_APPROXIMATE'
  | 'COUNTERS_UNNAMED'
  | 'DEEP_COPY_HIDDEN_WEIGHT'
  | 'SYMBOLS_UNREADABLE'
  | 'SYMBOLS_NOT_READ'
  | 'SYMBOLS_MISSING'
  | 'SYMBOLS_MATCHED_BY_NAME'
  | 'SYMBOLS_UNUSED';

export interface TraceSummary {
  name: string;
  exporter: string;
  activeProfileIndex: number;
  /** One per profile of the file, in the same order. */
  profiles: ProfileSummary[];
  /** Every table in the input, imported or not. */
  tables: TableSummary[];
  /** The interval sources read (none with options.intervals false). */
  intervalSources: IntervalSourceSummary[];
  /** The instruments a .trace bundle recorded with ("Time Profiler", …); empty for exports. */
  instruments: string[];
  /** The most threads the import ran on at once. */
  importThreads: number;
  /** Which core ran the import: the threaded one and the threads it had
   * (importThreads of them used), or the single-threaded one and why
   * (threads turned off, no shared memory, one core). */
  core: { threaded: true; threads: number } | { threaded: false; why: string };
  /** One per kind: what the profile lacks that the input holds, and why. */
  warnings: { code: WarningCode; message: string }[];
  /** Present when options.symbols were given. */
  symbolication?: {
    /** Frames the trace left unnamed (addresses) that samples reach. */
    unnamedFrames: number;
    /** Of those, the frames the symbol files named. */
    namedFrames: number;
    /** "App.dSYM/Contents/Resources/DWARF/App (arm64)": the files (and architectures) that named some. */
    filesUsed: string[];
    /** The same as the CLI and the page say it: "named 40 of 52 unnamed frames from App.dSYM/…". */
    text: string;
  };
  /** How much of what samples reach has names (after `symbols`). A
   * SYMBOLS_MISSING warning says which images to add symbols for when
   * unnamed frames make up more than 5% of a profile's flame graph (each
   * sample's weight shared among the frames of its stack). */
  naming: NamingSummary;
}

export interface NamingSummary {
  /** Distinct frames the samples reach. */
  sampledFrames: number;
  /** Of those, the frames left unnamed: an address, or "image+0x…". */
  unnamedFrames: number;
  /** The images unnamed frames lie in, most samples first. */
  images: Array<{
    /** The image's path; null for frames in no image the input names. */
    image: string | null;
    uuid: string | null;
    /** Its unnamed frames. */
    frames: number;
    /** Samples whose stacks pass through one of them. */
    samples: number;
  }>;
  /** Of the frames samples reach, code the linker folded: identical
   * functions made one body, which Instruments names `<deduplicated_symbol>`
   * and so does the frame (with `demangle: 'full'`, its name lists the first
   * functions: `<deduplicated_symbol> (one of 2: A | B)`). Not counted as
   * unnamed: no symbol file names them better. Most samples first. */
  folded: Array<{
    /** The image's path. */
    image: string;
    /** Samples whose stacks pass through it. */
    samples: number;
    /** The functions the body is, demangled as the frames are, in the
     * order the recording lists them. */
    functions: string[];
  }>;
  /** The same as the CLI and the page say it: "883 of 993 sampled frames named (88.9%); 34 are
   * code the linker folded from several functions (<deduplicated_symbol>, as Instruments shows
   * it)"; empty when the samples reach no frame. */
  text: string;
}

export interface DemangleOptions {
  /** "instruments" (the default) as Instruments shows frame names, or
   * "full" as swift-demangle, rustc-demangle and llvm-cxxfilt print them. */
  style?: 'instruments' | 'full';
  /** As for importTrace: where the .wasm is served, or its bytes. */
  wasmURL?: string | URL;
  wasmBinary?: ArrayBuffer | Uint8Array;
}

/**
 * Converts an Instruments recording to a speedscope file.
 * @example
 * import { importTrace } from 'instrumentscope';
 * const file = await importTrace(await fetch('/profile.xml.gz').then((r) => r.blob()), {
 *   onProgress: ({ stage, bytesRead }) => console.log(stage, bytesRead),
 * });
 * console.log(file.profiles[file.activeProfileIndex ?? 0].name);
 */
export function importTrace(input: TraceInput, options?: ImportOptions): Promise<SpeedscopeFile>;

/**
 * Like importTrace, with a summary of what the input holds: tables, runs,
 * processes and threads with their sample counts.
 * @example
 * const { file, summary } = await importTraceWithSummary(bytes);
 * for (const profile of summary.profiles) console.log(profile.threadName, profile.sampleCount);
 */
export function importTraceWithSummary(
  input: TraceInput,
  options?: ImportOptions,
): Promise<{ file: SpeedscopeFile; summary: TraceSummary }>;

/** Options of importTraceAsFirefoxProfile: those of every import, and gzip. */
export interface FirefoxProfileOptions extends ImportOptions {
  /** The file gzipped, as the Firefox Profiler also reads it (default false). */
  gzip?: boolean;
}

/**
 * The recording as a Firefox Profiler file (https://profiler.firefox.com):
 * its processed format, version 69 (FirefoxProfile), written by the core in
 * pieces into a Blob, so that no one string has to hold it. Every thread of
 * every process is a track on one timeline (several runs one after another);
 * intervals are markers on their process's main thread; frames keep their
 * binaries as libraries. Views of threads are left out: the profiler makes
 * them. Open the file in the profiler with "Load a profile from file", or
 * hand it over with `postMessage` (see the README).
 * @example
 * const { blob, summary } = await importTraceAsFirefoxProfile(bytes, { gzip: true });
 * await writeFile('profile.json.gz', Buffer.from(await blob.arrayBuffer()));
 */
export function importTraceAsFirefoxProfile(
  input: TraceInput,
  options?: FirefoxProfileOptions,
): Promise<{ blob: Blob; summary: TraceSummary }>;

/**
 * The parts of the Firefox Profiler's processed format (version 69) that
 * instrumentscope writes; the profiler's src/types/profile.ts defines the
 * whole. Tables are columns of equal `length`; strings are indices into
 * shared.stringArray; times are milliseconds from meta.startTime.
 */
export interface FirefoxProfile {
  meta: {
    interval: number;
    /** When the first run started, in ms since 1970 (a bundle's); 0 when the input does not say. */
    startTime: number;
    processType: 0;
    product: string;
    stackwalk: 1;
    version: number;
    preprocessedProfileVersion: 69;
    symbolicated: true;
    importedFrom: string;
    usesOnlyOneStackType: true;
    sourceCodeIsNotOnSearchfox: true;
    profilingStartTime: number;
    profilingEndTime: number;
    categories: Array<{ name: string; color: string; subcategories: string[] }>;
    markerSchema: FirefoxMarkerSchema[];
    /** The recording, its warnings ("Warning SYMBOLS_MISSING"), and each run's own
     * lines ("Run 1": "Target Model", "Instruments", …). */
    extra: Array<{ label: string; entries: Array<{ label: string; format: 'string'; value: string }> }>;
    /** The thread of the busiest profile, when it is a thread. */
    initialSelectedThreads?: number[];
    /** The threads with markers or heap events, and those with a twentieth of the busiest one's samples. */
    initialVisibleThreads?: number[];
  };
  libs: Array<{
    arch: string; name: string; path: string; debugName: string; debugPath: string;
    /** The image's UUID, 32 hex digits and "0"; empty when unknown. */
    breakpadId: string;
    codeId: null;
  }>;
  threads: FirefoxThread[];
  pages: [];
  counters: [];
  shared: {
    stringArray: string[];
    /** prefixOffset 0: a root; else the parent is `index - prefixOffset`. */
    stackTable: { frame: number[]; prefixOffset: number[]; length: number };
    frameTable: {
      /** From the library's load address, for frames left unnamed; else -1. */
      address: number[]; inlineDepth: number[]; category: number[]; subcategory: number[];
      func: number[]; nativeSymbol: null[]; innerWindowID: null[]; line: Array<number | null>;
      column: null[]; originalLocation: null[]; length: number;
    };
    funcTable: {
      name: number[]; isJS: false[]; relevantForJS: false[];
      /** A resource per library; -1 for frames in none. */
      resource: number[];
      source: Array<number | null>; lineNumber: Array<number | null>; columnNumber: null[];
      originalLocation: null[]; length: number;
    };
    resourceTable: { lib: number[]; name: number[]; host: null[]; type: 1[]; length: number };
    nativeSymbols: { libIndex: []; address: []; name: []; functionSize: []; length: 0 };
    sources: {
      id: null[]; filename: number[]; startLine: number[]; startColumn: number[];
      sourceMapURL: null[]; content: null[]; length: number;
    };
    sourceLocationTable: { source: []; line: []; column: []; length: 0 };
  };
}

export interface FirefoxThread {
  processType: 'default';
  processStartupTime: number;
  processShutdownTime: null;
  registerTime: number;
  unregisterTime: null;
  pausedRanges: [];
  /** "Main Thread 0x9db2dc", or with what its samples weigh when not CPU
   * samples: "Main Thread 0x9db2dc — time in system calls". A thread of
   * markers alone is "Intervals". */
  name: string;
  isMainThread: boolean;
  /** "83138"; "83138 (run 2)" in a recording of several runs; "unknown". */
  pid: string;
  /** A number, unless another thread has it: then a string that tells them apart. */
  tid: number | string;
  processName: string;
  showMarkersInTimeline: true;
  samples: {
    /** null: time without a sample. */
    stack: Array<number | null>;
    timeDeltas: number[];
    /** CPU time and durations in milliseconds ("tracing-ms"); bytes
     * ("bytes"); counts, cycles and events ("samples"). */
    weight: number[] | null;
    weightType: 'samples' | 'tracing-ms' | 'bytes';
    length: number;
  };
  /** An Allocations recording's events of one process, in time order, on a
   * thread of their own ("All threads — heap allocations", "… — VM regions"):
   * an allocation weighs its bytes; a free, minus those of the block at
   * memoryAddress it frees. */
  nativeAllocations?: {
    time: number[];
    weight: number[];
    weightType: 'bytes';
    stack: Array<number | null>;
    memoryAddress: number[];
    threadId: number[];
    length: number;
  };
  markers: {
    /** label: the interval as the speedscope file names it; source: its
     * lane's source; detail, when it has one: what the label adds to its
     * name (a signpost's message, a thread state's note). */
    data: Array<{ type: string; label: number; source: number; detail?: number }>;
    name: number[];
    startTime: number[];
    endTime: number[];
    /** 1: an interval. */
    phase: 1[];
    category: number[];
    length: number;
  };
}

/** A marker schema: one per Instruments table whose intervals the file holds,
 * named as the table ("os-signpost", "potential-hangs"). */
export interface FirefoxMarkerSchema {
  name: string;
  display: Array<'marker-chart' | 'marker-table' | 'timeline-overview'>;
  chartLabel: string;
  tooltipLabel: string;
  tableLabel: string;
  description: string;
  fields: Array<{ key: 'label' | 'source' | 'detail'; label: string; format: 'unique-string' }>;
}

/**
 * The speedscope file as JSON text, in pieces, so that files larger than one
 * string can hold can still be written.
 * @example
 * const blob = new Blob([...serializeSpeedscope(file)], { type: 'application/json' });
 */
export function serializeSpeedscope(file: SpeedscopeFile): Iterable<string>;

/**
 * Mangled symbol names made readable: Swift (every scheme, `$s…`, `_T0…`,
 * `_T…`), Rust (legacy and v0) and C++, with or without Mach-O's extra
 * underscore. A name that is no mangling comes back unchanged. Runs the
 * core in the calling thread.
 * @example
 * import { demangle } from 'instrumentscope';
 * await demangle('$s15perftestexample13CPUStressWorkO13expensiveLoop14iterationCountySi_tFZ');
 * // → 'static CPUStressWork.expensiveLoop(iterationCount:)'
 * await demangle(['_ZN3foo3barEv', 'main'], { style: 'full' });
 * // → ['foo::bar()', 'main']
 */
export function demangle(name: string, options?: DemangleOptions): Promise<string>;
export function demangle(names: readonly string[], options?: DemangleOptions): Promise<string[]>;
