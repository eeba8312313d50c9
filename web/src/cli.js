#!/usr/bin/env node
// instrumentscope INPUT [-o OUT.json[.gz]] [--format speedscope|firefox] [--run N] [--list]
//                 [--limit NAME=N] [--symbols PATH] [--no-intervals] [--merge-consecutive]
//                 [--threads N | --no-threads]
// instrumentscope demangle [--full] [NAME...]
// Converts an Instruments recording (a .trace folder or zip, an xctrace export,
// or a Deep Copy) to a speedscope or Firefox Profiler file, running the same
// WebAssembly core as the browser; or demangles symbol names, like c++filt.

import { closeSync, fstatSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { open, readFile, readdir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';

import { demangleHere, importHere } from './core.js';
import { CHUNK_BYTES } from './input.js';
import { formatList } from './listing.js';
import { ImportError } from './node.js';
import { summaryOf } from './summary.js';

const USAGE = `usage: instrumentscope INPUT [-o OUT.json[.gz]] [--format speedscope|firefox] [--run N]
                      [--symbols PATH...] [--limit NAME=N...] [--no-intervals] [--merge-consecutive]
                      [--threads N | --no-threads]
       instrumentscope INPUT --list [--run N]
       instrumentscope demangle [--full] [NAME...]

Converts an Instruments recording to a speedscope profile
(https://www.speedscope.app) or a Firefox Profiler profile
(https://profiler.firefox.com). INPUT is a .trace bundle (a folder, or a zip
of one; Instruments 4.5 to 26), an \`xctrace export\` (XML, plain or
gzipped), or the text of an Instruments Deep Copy of a call tree; - reads
standard input (pbpaste | instrumentscope - -o tree.json).

  -o, --output FILE  write the profile to FILE instead of standard output; a
                     FILE ending .gz is compressed with gzip
  -f, --format NAME  speedscope (the default): every thread, view and
                     interval lane a profile of its own; firefox: the Firefox
                     Profiler's processed format, every thread a track on one
                     timeline and intervals as markers (load the file at
                     https://profiler.firefox.com)
      --run N        import only run N of the recording
      --list         list runs, tables, processes, threads, thread pools and
                     intervals, with their counts; a System Trace's threads
                     with their time in each state, and where each process's
                     threads waited (time off CPU, in system calls), main
                     thread first
      --no-intervals CPU samples only, one profile per thread: no intervals
                     (signposts, hangs, thermal states, thread states), no
                     events of other tables (system calls, time off CPU, page
                     faults), no profiles of threads together or of samples
                     during intervals
      --merge-consecutive
                     write each run of consecutive samples of one stack as one
                     sample of their summed weight: the same flame graphs and
                     time order in a smaller file (what the page shows), but
                     no longer one sample per sample recorded (speedscope
                     only)
  -s, --symbols PATH name the frames the recording left as addresses from your
                     own binary or dSYM: a Mach-O file, a .dSYM folder or a zip
                     of them, as often as needed. PATH@0x104a8c000 says where
                     the image was loaded, for exports of bare addresses
                     (Xcode 14.0 and older)
      --symbol-lines one frame per source line of the named frames (the line
                     sampled, callers' call sites) instead of one per function
      --limit NAME=N change one of the importer's limits (maxSamples=100000000;
                     the README's "Limits" lists them), as often as needed
      --full-names   show mangled names (Swift, Rust, C++) in full, as
                     swift-demangle, rustc-demangle and llvm-cxxfilt print
                     them, not as Instruments shows them; code the linker
                     folded (<deduplicated_symbol>) lists the functions it
                     may be
      --no-demangle  keep frame names exactly as the recording spells them
      --threads N    import on up to N threads (the default: one per core, up
                     to 4, for exports and for bundles of 16 MB or more;
                     smaller bundles and Deep Copy text run on one)
      --no-threads   import on one thread, with the single-threaded core
  -h, --help         show this help
  -v, --version      show the version

demangle prints each NAME (or each line of standard input when no NAME is
given) made readable, one per line, as Instruments shows it or, with --full,
in full; a name that is no Swift, Rust or C++ mangling prints unchanged. (A
recording in a file named demangle: ./demangle.)`;

function fail(message, exitCode = 1) {
  process.stderr.write(`instrumentscope: ${message}\n`);
  process.exit(exitCode);
}

function parseCommandLine() {
  try {
    const { values, positionals } = parseArgs({
      allowPositionals: true,
      options: {
        output: { type: 'string', short: 'o' },
        format: { type: 'string', short: 'f' },
        run: { type: 'string' },
        list: { type: 'boolean' },
        symbols: { type: 'string', short: 's', multiple: true },
        'symbol-lines': { type: 'boolean' },
        'full-names': { type: 'boolean' },
        'no-demangle': { type: 'boolean' },
        'no-intervals': { type: 'boolean' },
        'merge-consecutive': { type: 'boolean' },
        threads: { type: 'string' },
        'no-threads': { type: 'boolean' },
        full: { type: 'boolean' },
        limit: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
    return { values, positionals };
  } catch (error) {
    fail(`${error.message}\n${USAGE}`, 2);
  }
}

// "maxSamples=1e8" → { maxSamples: 100000000 }; the core checks the names.
function parseLimits(settings = []) {
  const limits = {};
  for (const setting of settings) {
    const match = /^(\w+)=(.+)$/.exec(setting);
    const value = match ? Number(match[2]) : NaN;
    if (!Number.isSafeInteger(value) || value < 1) {
      fail(`--limit expects NAME=N with N a positive integer, not "${setting}"`, 2);
    }
    limits[match[1]] = value;
  }
  return limits;
}

// --threads N, or --no-threads (false); undefined: the default.
function parseThreads(values) {
  if (values['no-threads']) return false;
  if (values.threads === undefined) return undefined;
  const threads = Number(values.threads);
  if (!Number.isSafeInteger(threads) || threads < 1 || threads > 1024) {
    fail(`--threads expects a number of threads from 1 to 1024, not "${values.threads}"`, 2);
  }
  return threads;
}

function limitHint(error) {
  return error.limit ? `; to allow more, run again with --limit ${error.limit}=N` : '';
}

function progressPrinter(inputSize) {
  if (!process.stderr.isTTY) return undefined;
  let last = 0;
  return ({ stage, bytesRead, samples }) => {
    const now = Date.now();
    if (now - last < 200 && stage !== 'done') return;
    last = now;
    const percent = inputSize ? ` ${Math.floor((bytesRead / inputSize) * 100)}%` : '';
    process.stderr.write(`\r${stage}${percent}, ${samples.toLocaleString('en')} samples\x1b[K`);
    if (stage === 'done') process.stderr.write('\r\x1b[K');
  };
}

// `instrumentscope demangle`: each name, or each line of standard input, readable.
async function demangleCommand(names, full) {
  const style = full ? 'full' : 'instruments';
  if (names.length) {
    process.stdout.write((await demangleHere(names, style)).map((name) => `${name}\n`).join(''));
    return;
  }
  // A batch of lines at a time: one call into the core per batch, output as it comes.
  let batch = [];
  const flush = async () => {
    if (!batch.length) return;
    const readable = await demangleHere(batch, style);
    batch = [];
    process.stdout.write(readable.map((name) => `${name}\n`).join(''));
  };
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    batch.push(line);
    if (batch.length >= 1024) await flush();
  }
  await flush();
}

// A reader that stops early (`instrumentscope x.xml | head`) is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  fail(`cannot write the output: ${error.message}`);
});

// V8 compiles the core twice: at once with its baseline compiler, then
// optimized in background threads while it runs, and the process cannot exit
// before those finish: about 0.5 s and 40 MB on every run. Work of up to 32 MB
// ends sooner on baseline code alone (a 0.2 MB bundle: 0.85 → 0.34 s; the
// 18.5 MB bundle and a 50 MB export: the same within noise); more needs the
// optimized code (a 200 MB export: 2.3 s with it, 3.8 s without). Must be
// chosen before the core is first compiled; `bytes` undefined: unknown.
const BASELINE_ONLY_MAX_BYTES = 32 << 20;

function chooseCompiler(bytes) {
  if (bytes !== undefined && bytes <= BASELINE_ONLY_MAX_BYTES) setFlagsFromString('--liftoff-only');
}

// A file on disk, read whole only if the importer asks for it. Read at once:
// a bundle's 461 files (19 MB) read in 8 ms so, in 60 ms as Blobs of
// fs.openAsBlob, and in 65 ms through fs.promises.readFile, a file at a time.
function fileOnDisk(path, size) {
  return { size, read: () => readFileSync(path) };
}

// A folder's files, each read only if the importer asks for it.
async function folderFiles(folder) {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath ?? entry.path, entry.name);
    files.push({ path: relative(folder, full).split(sep).join('/'), data: fileOnDisk(full, statSync(full).size) });
  }
  return files;
}

// --symbols PATH[@LOADADDR] → [{path, data, loadAddress}], a folder (a .dSYM)
// as its files; the core picks the Mach-O files out of it.
async function symbolFiles(settings = []) {
  const files = [];
  for (const setting of settings) {
    let path = setting;
    let loadAddress;
    const at = /^(.+)@(0x[0-9a-fA-F]+|\d+)$/.exec(setting);
    if (at && !(await stat(setting).catch(() => null))) [, path, loadAddress] = at;
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      fail(`--symbols ${path}: ${error.code === 'ENOENT' ? 'no such file or folder' : error.message}`, 2);
    }
    const name = basename(path.replace(/\/+$/, ''));
    if (info.isDirectory()) {
      for (const file of await folderFiles(path)) files.push({ ...file, path: `${name}/${file.path}`, loadAddress });
    } else {
      files.push({ path: name, data: fileOnDisk(path, info.size), loadAddress });
    }
  }
  return files;
}

// A file's bytes a chunk at a time, in two buffers taken in turn: the next
// chunk is read while the core takes this one (waiting for each read left the
// thread idle 10% of a threaded import), and the core has copied a chunk
// before it asks for the one after.
async function* fileChunks(path) {
  const file = await open(path, 'r');
  const buffers = [new Uint8Array(CHUNK_BYTES), new Uint8Array(CHUNK_BYTES)];
  let reading;
  const readInto = (buffer) => {
    reading = file.read(buffer, 0, buffer.length, null);
    reading.catch(() => {});  // its error is met when it is awaited, not before
  };
  try {
    readInto(buffers[0]);
    for (let turn = 0; ; turn ^= 1) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) return;
      readInto(buffers[turn ^ 1]);
      yield buffers[turn].subarray(0, bytesRead);
    }
  } finally {
    await reading.catch(() => {});  // a read in flight ends before the file closes
    await file.close();
  }
}

async function writeText(text, path) {
  if (!path) {
    process.stdout.write(text);
    return;
  }
  const file = await open(path, 'w');
  try {
    await file.write(text);
  } finally {
    await file.close();
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

// Takes the core's JSON pieces as the core writes them: synchronously, since
// each is a view of the core's memory that is valid only during the call. The
// output file is created by the first piece, so a failed import leaves none,
// and a file left half-written by a failed write is removed (never a device
// or a pipe).
function jsonWriter(path) {
  let fd = path ? null : 1;
  let regularFile = false;
  return {
    write(bytes) {
      if (fd === null) {
        fd = openSync(path, 'w');
        regularFile = fstatSync(fd).isFile();
      }
      for (let offset = 0; offset < bytes.length;) {
        try {
          offset += writeSync(fd, bytes, offset);
        } catch (error) {
          if (error.code !== 'EAGAIN') throw error;
          Atomics.wait(pause, 0, 0, 1);  // a full non-blocking pipe: wait for the reader
        }
      }
    },
    // Closes the file; after a failure, removes what was written of it.
    close(failed) {
      if (!path || fd === null) return;
      closeSync(fd);
      if (failed && regularFile) unlinkSync(path);
    },
  };
}

async function main() {
  const { values, positionals } = parseCommandLine();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values.version) {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`instrumentscope ${pkg.version}\n`);
    return;
  }
  if (positionals[0] === 'demangle') {
    const names = positionals.slice(1);
    chooseCompiler(names.length ? names.reduce((total, name) => total + name.length, 0) : undefined);
    await demangleCommand(names, values.full);
    return;
  }
  if (values.full) fail(`--full is an option of demangle; for a recording, --full-names\n${USAGE}`, 2);
  if (positionals.length !== 1) fail(`expected one INPUT file\n${USAGE}`, 2);
  const [inputPath] = positionals;
  let run;
  if (values.run !== undefined) {
    run = Number(values.run);
    if (!Number.isInteger(run) || run < 1) fail(`--run expects a positive integer, not "${values.run}"`, 2);
  }
  const format = values.format ?? 'speedscope';
  if (format !== 'speedscope' && format !== 'firefox') {
    fail(`--format expects speedscope or firefox, not "${values.format}"`, 2);
  }
  if (format === 'firefox' && values['merge-consecutive']) {
    fail('--merge-consecutive is for speedscope files; the Firefox Profiler keeps every sample', 2);
  }
  const limits = parseLimits(values.limit);
  const symbols = await symbolFiles(values.symbols);

  const fromStdin = inputPath === '-';
  let info;
  try {
    info = fromStdin ? null : await stat(inputPath);
  } catch (error) {
    fail(`${inputPath}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  }

  // The core writes the file straight to the output: no
  // JavaScript objects for the profile, no copy of the JSON in memory.
  const output = values.list ? null : jsonWriter(values.output);
  let summary;
  try {
    const input = fromStdin ? process.stdin
      : info.isDirectory() ? await folderFiles(inputPath) : fileChunks(inputPath);
    const size = info && !info.isDirectory() ? info.size : undefined;
    const bytesOf = (files) => files.reduce((total, file) => total + file.data.size, 0);
    const inputBytes = fromStdin ? undefined : size ?? bytesOf(input);
    chooseCompiler(inputBytes === undefined ? undefined : inputBytes + bytesOf(symbols));
    const demangle = values['no-demangle'] ? false : values['full-names'] ? 'full' : 'instruments';
    const options = {
      run, limits, symbols, demangle, symbolLines: values['symbol-lines'] ? 'line' : undefined,
      intervals: values['no-intervals'] ? false : undefined,
      threads: parseThreads(values),
      onProgress: progressPrinter(size),
    };
    const name = fromStdin ? 'standard input' : basename(inputPath.replace(/\/+$/, ''));
    const json = {
      write: output?.write ?? null, mergeConsecutive: values['merge-consecutive'], format,
      gzip: Boolean(values.output?.endsWith('.gz')),
    };
    const result = await importHere(input, options, name, json);
    summary = summaryOf(result);
    output?.close(false);
  } catch (error) {
    output?.close(true);
    if (error.code === 'EPIPE') process.exit(0);
    if (!(error instanceof ImportError)) throw error;
    const where = error.location ? ` (at ${error.location})` : '';
    // A symbol file's error names that file (its path is in the location).
    const symbolFile = symbols.some((file) => error.path === file.path || error.path?.startsWith(`${file.path}!`));
    if (symbolFile) fail(`--symbols: ${error.code}: ${error.message.replace(/\n\s*/g, ' ')}${where}`);
    fail(`${inputPath}: ${error.code}: ${error.message.replace(/\n\s*/g, ' ')}${where}${limitHint(error)}`);
  }

  if (summary.symbolication) {
    process.stderr.write(`instrumentscope: ${summary.symbolication.text}\n`);
  }
  if (values.list) {
    await writeText(formatList(summary), values.output);
  } else {
    for (const warning of summary.warnings) {
      process.stderr.write(`instrumentscope: warning: ${warning.message}\n`);
    }
  }
}

// System errors (a file that cannot be read) get one line; anything else is a bug: its stack.
main().catch((error) => fail(error?.code ? error.message : (error?.stack ?? String(error))));
