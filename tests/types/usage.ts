// Compiled (never run) by tests/js/types.test.js: the package's types must
// accept the ways the README and index.d.ts show it being used.
import {
  ImportError,
  demangle,
  importTrace,
  importTraceAsFirefoxProfile,
  importTraceWithSummary,
  serializeSpeedscope,
  type FirefoxProfile,
  type ImportErrorCode,
  type ImportProgress,
  type SpeedscopeFile,
  type TraceFile,
} from 'instrumentscope';

async function convert(bytes: Uint8Array, file: Blob, stream: ReadableStream<Uint8Array>) {
  const controller = new AbortController();
  const a: SpeedscopeFile = await importTrace(bytes, {
    run: 1,
    signal: controller.signal,
    onProgress: (progress: ImportProgress) => console.log(progress.stage, progress.bytesRead),
    limits: { maxFramesPerStack: 1024 },
  });
  const b = await importTrace(file, { wasmURL: new URL('https://example.invalid/x.wasm') });
  const { file: c, summary } = await importTraceWithSummary(stream);
  const busiest = summary.profiles[summary.activeProfileIndex];
  const samples: number = busiest.sampleCount + (busiest.pid ?? 0);
  const text: string = [...serializeSpeedscope(a)].join('');
  const frames: string[] = b.shared.frames.map((frame) => `${frame.name}:${frame.line ?? ''}`);
  return { c, samples, text, frames };
}

// A folder, dropped (a FileSystemDirectoryEntry) or picked (<input webkitdirectory>).
async function openFolder(event: DragEvent, picked: FileList) {
  const entry = event.dataTransfer?.items[0]?.webkitGetAsEntry();
  if (entry instanceof FileSystemDirectoryEntry) {
    await importTrace(entry, { worker: true, workerURL: '/assets/worker.js' });
  }
  const files = [...picked].map((file) => ({ path: file.webkitRelativePath, data: file }));
  return importTrace(files, { worker: false });
}

// A folder on disk in Node, each file read only if the importer needs it.
async function fromDisk(listing: Array<{ path: string; size: number }>, readFile: (path: string) => Uint8Array) {
  const files: TraceFile[] = listing.map(({ path, size }) => ({ path, data: { size, read: () => readFile(path) } }));
  const symbols = [{ path: 'App', data: { size: 4, read: async () => new ArrayBuffer(4) } }];
  return importTrace(files, { symbols });
}

// A Deep Copy pasted on a page: text in; an Allocations copy weighs bytes.
async function paste(event: ClipboardEvent) {
  const file = await importTrace(event.clipboardData?.getData('text/plain') ?? '', {
    limits: { maxTextLineBytes: 1 << 20 },
  });
  return file.profiles[0]?.unit === 'bytes';
}

// A recording of addresses named from the app's dSYM (picked) or binary (bytes, with its load address).
async function symbolicate(export_: Blob, dsym: File[], binary: Uint8Array) {
  const { summary } = await importTraceWithSummary(export_, {
    symbols: [...dsym, { path: 'App', data: binary, loadAddress: 0x104a8c000n }, { path: 'Lib', data: binary, loadAddress: '0x1000' }],
  });
  const named: number = summary.symbolication?.namedFrames ?? 0;
  return `${named} of ${summary.symbolication?.unnamedFrames}: ${summary.symbolication?.filesUsed.join(', ')}`;
}

// Names as the recording spells them, then the demangler on its own.
async function names(bytes: Uint8Array) {
  const { file, summary } = await importTraceWithSummary(bytes, { demangle: false });
  const unnamed: number = summary.naming.unnamedFrames / summary.naming.sampledFrames;
  const worst: string | null = summary.naming.images[0]?.image ?? null;
  const folded: string[] = summary.naming.folded.map(
    (body) => `${body.samples} samples in ${body.image}: ${body.functions.join(' | ')}`);
  const one: string = await demangle(file.shared.frames[0].name);
  const many: string[] = await demangle(['_ZN3foo3barEv', 'main'], { style: 'full' });
  return { unnamed, worst, folded, one, many };
}

// Threads: up to four, or none; which core ran, and why not the threaded one.
async function threads(bytes: Uint8Array) {
  const { summary } = await importTraceWithSummary(bytes, { threads: 4 });
  const used: number = summary.importThreads;
  const said: string = summary.core.threaded ? `${used} of ${summary.core.threads}` : summary.core.why;
  const single = await importTraceWithSummary(bytes, { threads: false });
  return { said, threaded: single.summary.core.threaded };
}

// Intervals beside the threads: sources, lanes, samples during them; or CPU samples only.
async function intervals(bytes: Uint8Array) {
  const { file, summary } = await importTraceWithSummary(bytes);
  const during: string[] = summary.profiles
    .filter((profile) => profile.kind === 'during')
    .map((profile) => `${profile.intervalName} in ${summary.intervalSources[profile.intervalSource ?? 0]?.name}`);
  const lanes: number = summary.intervalSources.reduce((sum, source) => sum + source.lanes, 0);
  const read: string[] = summary.tables.filter((table) => table.intervals).map((table) => table.schema);
  const opened: number = file.profiles.reduce((sum, profile) =>
    sum + (profile.type === 'evented' ? profile.events.filter((event) => event.type === 'O').length : profile.samples.length), 0);
  const cpuOnly = await importTrace(bytes, { intervals: false });
  return { during, lanes, read, opened, threads: cpuOnly.profiles.length };
}

function explain(error: unknown): string {
  if (error instanceof ImportError) {
    const code: ImportErrorCode = error.code;
    return `${code}: ${error.message} (${error.location}) ${error.offset ?? ''} ${error.line ?? ''}`;
  }
  return String(error);
}

export { convert, explain, fromDisk, intervals, names, openFolder, paste, symbolicate, threads };

// The Firefox Profiler's file, gzipped, and read back: its threads and markers.
async function firefox(bytes: Uint8Array) {
  const { blob, summary } = await importTraceAsFirefoxProfile(bytes, { gzip: true, run: 1 });
  const plain = await importTraceAsFirefoxProfile(bytes);
  const profile: FirefoxProfile = JSON.parse(await plain.blob.text());
  const threads: string[] = profile.threads.map((thread) => `${thread.name} (pid ${thread.pid}, tid ${thread.tid})`);
  const markers: number = profile.threads.reduce((sum, thread) => sum + thread.markers.length, 0);
  const label: string = profile.shared.stringArray[profile.threads[0]?.markers.data[0]?.label ?? 0];
  return { size: blob.size, instruments: summary.instruments, threads, markers, label };
}
