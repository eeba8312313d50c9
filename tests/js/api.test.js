// The public API: accepted inputs, progress, cancellation, options, errors.
import assert from 'node:assert/strict';
import { createReadStream, openAsBlob, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';

import { ImportError, demangle, importTrace, importTraceWithSummary } from 'instrumentscope';

import { CORPUS_SKIP, JMH, ROOT, UNIPROF_EXPORT, corpusFile, folderFiles, packageVersion } from './support.js';

const CONTROL = join(ROOT, 'tests/malformed/valid-control.xml');

test('every input kind gives the same profile, and the caller\'s bytes stay intact', async () => {
  const bytes = readFileSync(CONTROL);
  const copy = Uint8Array.from(bytes);
  const expected = await importTrace(bytes);
  const inputs = {
    Uint8Array: bytes,
    ArrayBuffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    DataView: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    Blob: new Blob([bytes]),
    'fs.openAsBlob': await openAsBlob(CONTROL),
    ReadableStream: Readable.toWeb(createReadStream(CONTROL, { highWaterMark: 7 })),
    'Node stream': createReadStream(CONTROL, { highWaterMark: 5 }),
  };
  for (const [kind, input] of Object.entries(inputs)) {
    assert.deepEqual(await importTrace(input), expected, kind);
  }
  assert.equal(bytes.byteLength, copy.byteLength, 'not detached');
  assert.deepEqual(new Uint8Array(bytes), copy, 'not modified');
  // Text is read as UTF-8 (a pasted Deep Copy); this text is no format.
  await assert.rejects(importTrace('a string'), { code: 'UNKNOWN_FORMAT' });
  await assert.rejects(importTrace(null), TypeError);
});

test('the output names its input and its exporter', async () => {
  const bytes = readFileSync(CONTROL);
  const file = await importTrace(bytes, { name: 'control.xml' });
  assert.equal(file.name, 'control.xml');
  assert.equal(file.exporter, `instrumentscope@${packageVersion}`);
  assert.equal(file.$schema, 'https://www.speedscope.app/file-format-schema.json');
  const named = await importTrace(new File([bytes], 'from-a-file.xml'));
  assert.equal(named.name, 'from-a-file.xml');
});

test('gzip is recognized by content, not by name', { skip: CORPUS_SKIP }, async () => {
  const compressed = readFileSync(corpusFile(UNIPROF_EXPORT));
  const file = await importTrace(new File([compressed], 'no-extension'));
  assert.equal(file.profiles[0].name, 'Main Thread 0x2b73e56 — test-simple (pid 49230)');
});

test('progress is reported from reading to done, bytes and samples never going back', async () => {
  const bytes = readFileSync(corpusFile(`${JMH}/cpu-profile.xml`));
  const events = [];
  await importTrace(new Blob([bytes]), { onProgress: (event) => events.push(event) });
  assert.equal(events[0].stage, 'reading');
  assert.equal(events.at(-1).stage, 'done');
  assert.ok(events.some((event) => event.stage === 'building'));
  for (let i = 1; i < events.length; i++) {
    assert.ok(events[i].bytesRead >= events[i - 1].bytesRead);
    assert.ok(events[i].samples >= events[i - 1].samples);
  }
  assert.equal(events.at(-1).bytesRead, bytes.byteLength);
  assert.equal(events.at(-1).bytesTotal, bytes.byteLength);
  assert.equal(events.at(-1).samples, 584);
});

test('an AbortSignal cancels before and during an import', async () => {
  const bytes = readFileSync(CONTROL);
  const before = new AbortController();
  before.abort();
  await assert.rejects(importTrace(bytes, { signal: before.signal }), { name: 'AbortError' });

  const during = new AbortController();
  await assert.rejects(
    importTrace(bytes, { signal: during.signal, onProgress: () => during.abort() }),
    { name: 'AbortError' },
  );

  // Aborted while the core loads, with a source that never yields.
  const early = new AbortController();
  // eslint-disable-next-line require-yield -- the point: it never yields
  const never = (async function* () { await new Promise(() => {}); })();
  const pending = importTrace(never, { signal: early.signal });
  early.abort();
  await assert.rejects(pending, { name: 'AbortError' });

  // A source that stalls after its first chunk: the abort still ends the import.
  const stalled = new AbortController();
  const reason = new Error('user cancelled');
  let cancelled = false;
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, 100));
    },
    pull() {
      setTimeout(() => stalled.abort(reason), 10);
      return new Promise(() => {});
    },
    cancel() {
      cancelled = true;
    },
  });
  await assert.rejects(importTrace(stream, { signal: stalled.signal }), (error) => error === reason);
  // The caller's stream is cancelled and unlocked, though a read was pending.
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(cancelled, true);
  assert.equal(stream.locked, false);
  // The core is left in a usable state.
  assert.equal((await importTrace(bytes)).profiles.length, 1);
});

test('an abort while a dropped folder is being listed ends the import', async () => {
  // A FileSystemDirectoryEntry's shape: each file handed out a while after it is asked for.
  const controller = new AbortController();
  let filesAsked = 0;
  const file = (name) => ({
    isDirectory: false,
    fullPath: `/x.trace/${name}`,
    file(resolve) {
      filesAsked++;
      if (filesAsked === 2) controller.abort();
      setTimeout(() => resolve(new Blob(['x'])), 5);
    },
  });
  let listed = false;
  const folder = {
    isDirectory: true,
    fullPath: '/x.trace',
    createReader: () => ({
      readEntries(resolve) {
        resolve(listed ? [] : ['a', 'b', 'c', 'd'].map(file));
        listed = true;
      },
    }),
  };
  await assert.rejects(importTrace(folder, { signal: controller.signal }), { name: 'AbortError' });
  assert.equal(filesAsked, 2);
});

test('options are checked, and run selects a run', { skip: CORPUS_SKIP }, async () => {
  const bytes = readFileSync(CONTROL);
  for (const run of [0, -1, 1.5, '1']) {
    await assert.rejects(importTrace(bytes, { run }), { name: 'ImportError', code: 'INVALID_ARGUMENT' });
  }
  await assert.rejects(importTrace(bytes, { onProgress: 5 }), { code: 'INVALID_ARGUMENT' });
  for (const threads of [0, -2, 1.5, '2', 1025]) {
    await assert.rejects(importTrace(bytes, { threads }), { code: 'INVALID_ARGUMENT', message: /options\.threads/ });
  }
  await assert.rejects(importTrace(bytes, { run: 4 }), {
    code: 'RUN_NOT_FOUND',
    message: 'this export has no run 4; it has run 1',
  });
  assert.equal((await importTrace(bytes, { run: 1 })).profiles.length, 1);
  await assert.rejects(importTrace(bytes, { limits: { maxFramesPerStack: 0 } }), { code: 'INVALID_ARGUMENT' });
});

test('limits can be tightened and say which one was reached', { skip: CORPUS_SKIP }, async () => {
  const bytes = readFileSync(corpusFile(`${JMH}/time-profile.xml`));
  await assert.rejects(importTrace(bytes, { limits: { maxFramesPerStack: 8 } }), (error) => {
    assert.equal(error.code, 'LIMIT_EXCEEDED');
    assert.match(error.message, /maxFramesPerStack/);
    assert.match(error.path, /^trace-query-result\/node\[1\]\/row\[\d+\]\/backtrace$/);
    return true;
  });
  const compressed = readFileSync(corpusFile(UNIPROF_EXPORT));
  await assert.rejects(importTrace(compressed, { limits: { maxDecompressedBytes: 10000 } }), {
    code: 'LIMIT_EXCEEDED',
  });
});

test('errors carry code, message and location', async () => {
  const bytes = readFileSync(join(ROOT, 'tests/malformed/dangling-ref.xml'));
  const error = await importTrace(bytes).catch((e) => e);
  assert.ok(error instanceof ImportError);
  assert.equal(error.name, 'ImportError');
  assert.equal(error.code, 'XML_DANGLING_REF');
  assert.equal(error.location, `trace-query-result/node[1]/row[2]/backtrace/frame, line 5, byte ${error.offset}`);
  assert.ok(error.offset > 0);
});

test('the summary lists tables, threads and sample counts', { skip: CORPUS_SKIP }, async () => {
  const bytes = readFileSync(corpusFile(`${JMH}/time-profile.xml`));
  const { file, summary } = await importTraceWithSummary(bytes);
  assert.deepEqual(summary.tables,
    [{ run: 1, schema: 'time-profile', rows: 105, cpuSamples: true, intervals: false, allocations: false }]);
  assert.equal(summary.profiles.length, file.profiles.length);
  const threads = summary.profiles.filter((profile) => profile.kind === 'thread');
  assert.equal(threads.reduce((sum, profile) => sum + profile.sampleCount, 0), 105);
  const all = summary.profiles.filter((profile) => profile.kind === 'all-threads');
  assert.deepEqual(all.map(({ sampleCount, threads }) => [sampleCount, threads]), [[105, threads.length]]);
  const busiest = summary.profiles[summary.activeProfileIndex];
  assert.equal(busiest.threadName, 'ThreadJavaMain 0xe787e');
  assert.equal(busiest.sampleCount, 55);
  assert.equal(busiest.pid, 23369);
  assert.equal(busiest.processName, 'java');
  assert.equal(file.activeProfileIndex, summary.activeProfileIndex);
  assert.equal(summary.frames, undefined, 'frames live in file.shared only');
});

test('a core that stops (out of wasm memory) gives an ImportError, not a raw RuntimeError', async () => {
  const { runImport } = await import('../../web/src/core.js');
  const stopped = {
    HEAPU8: new Uint8Array(1024),
    beginImport: () => ({ session: 1 }),
    importProgress: () => ({ stage: 'parsing', bytesRead: 0, samples: 0 }),
    _malloc: () => 8,
    _free: () => {},
    cancelImport: () => {},
    feedImport: () => {
      throw new WebAssembly.RuntimeError('Aborted()');
    },
  };
  const chunks = (async function* () { yield new Uint8Array(16); })();
  await assert.rejects(runImport(stopped, { chunks }, {}), (error) => {
    assert.ok(error instanceof ImportError);
    assert.equal(error.code, 'LIMIT_EXCEEDED');
    assert.match(error.message, /Aborted\(\).*4 GB/);
    return true;
  });
});

test('a .trace folder as a list of files: only the files the importer needs are read', { skip: CORPUS_SKIP }, async () => {
  const folder = corpusFile('axe-org__TraceUtility/TestBlock/Instruments.trace');
  const files = await folderFiles(folder);
  let unread = 0;
  // As dropped on a page: under the folder's name. Files the importer has no
  // use for (UI state, per-instrument archives, scratch copies) must stay unread.
  const guarded = files.map(({ path, data }) => {
    if (!/corespace\/run\d+\/core\/(stores|uniquing)\/|form\.template$/.test(path)) {
      unread += 1;
      data = new Blob([]);
      data.arrayBuffer = () => Promise.reject(new Error(`${path} was read`));
    }
    return { path: `Instruments.trace/${path}`, data };
  });
  assert.ok(unread > 10);
  const events = [];
  const file = await importTrace(guarded, { onProgress: (event) => events.push(event) });
  assert.equal(file.name, 'Instruments.trace');
  assert.equal(file.profiles[file.activeProfileIndex].name, 'Main Thread 0x298692 — TestBlock.app (pid 7946)');
  assert.equal(events.at(-1).bytesRead, events.at(-1).bytesTotal);

  const zipped = readFileSync(corpusFile('jlfwong__speedscope/sample/profiles/Instruments/10.0/simple-time-profile.trace.zip'));
  // Its six threads, without the views and intervals.
  const fromBytes = await importTrace(zipped, { name: 'x', intervals: false });
  assert.equal(fromBytes.profiles.length, 6);
});

test('a folder\'s files as {size, read}: read once each, only if needed, with the Blobs\' result', { skip: CORPUS_SKIP }, async () => {
  const folder = corpusFile('axe-org__TraceUtility/TestBlock/Instruments.trace');
  const files = await folderFiles(folder);
  const reads = new Map();
  const deferred = files.map(({ path, data }) => ({
    path,
    data: {
      size: data.size,
      // Bytes from one call, a promise from the next: both are taken.
      read() {
        reads.set(path, (reads.get(path) ?? 0) + 1);
        const bytes = readFileSync(join(folder, path));
        return reads.size % 2 ? bytes : Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      },
    },
  }));
  const events = [];
  const viaRead = await importTraceWithSummary(deferred, { name: 'TestBlock', onProgress: (event) => events.push(event) });
  const viaBlobs = await importTraceWithSummary(files, { name: 'TestBlock' });
  assert.deepEqual(viaRead, viaBlobs);
  assert.ok(reads.size > 0 && reads.size < files.length, `${reads.size} of ${files.length} files read`);
  assert.ok([...reads.values()].every((count) => count === 1), 'each file read once');
  assert.ok([...reads.keys()].every((path) => /corespace\/run\d+\/core\/(stores|uniquing)\/|form\.template$/.test(path)));
  const wantedBytes = files.filter(({ path }) => reads.has(path)).reduce((sum, { data }) => sum + data.size, 0);
  assert.equal(events.at(-1).bytesTotal, wantedBytes);

  // What read() gives must be bytes; a read that fails fails the import with its error.
  const giving = (value) => deferred.map((file) => ({ ...file, data: { size: 1, read: () => value } }));
  await assert.rejects(importTrace(giving('text')), /read\(\) must give a Uint8Array or ArrayBuffer/);
  const unreadable = deferred.map((file) => ({
    ...file, data: { size: 1, read: () => Promise.reject(new Error(`cannot read ${file.path}`)) },
  }));
  await assert.rejects(importTrace(unreadable), /cannot read /);
  // Neither a size nor a read(): no data at all.
  await assert.rejects(importTrace([{ path: 'x.trace/form.template', data: { read: () => new Uint8Array(1) } }]),
    /must be a Uint8Array, ArrayBuffer, Blob or \{size, read\}/);
});

test('demangle() names Swift, Rust and C++ symbols in either style, and leaves other names', async () => {
  const swift = '$s15perftestexample13CPUStressWorkO13expensiveLoop14iterationCountySi_tFZ';
  assert.equal(await demangle(swift), 'static CPUStressWork.expensiveLoop(iterationCount:)');
  assert.equal(await demangle(swift, { style: 'full' }),
    'static perftestexample.CPUStressWork.expensiveLoop(iterationCount: Swift.Int) -> ()');
  assert.deepEqual(
    await demangle(['__ZN10AAREncoder6encodeER10ByteStream', 'std::rt::lang_start_internal::hc453db0ee48af82e',
      '-[UIApplication _run]', 'main', '']),
    ['AAREncoder::encode(ByteStream&)', 'std::rt::lang_start_internal', '-[UIApplication _run]', 'main', ''],
  );
  await assert.rejects(demangle(swift, { style: 'simplified' }), /options\.style must be/);
  await assert.rejects(demangle(42), /takes a string or an array of strings/);
});

test('demangle() in WebAssembly: hostile names come back unchanged, and the core keeps working', async () => {
  // 10,000 deep in each scheme, and a megabyte: the wasm stack and memory are what matter here.
  const deep = 10_000;
  const hostile = [
    `$s${'Say'.repeat(deep)}Si${'G'.repeat(deep)}D`,
    `_RINvC1a1b${'R'.repeat(deep)}pE`,
    `_Z1f${'I1a'.repeat(deep)}${'E'.repeat(deep)}v`,
    `_TtGSq${'GSq'.repeat(deep)}Si${'_'.repeat(deep)}_`,
    `_Z${'P'.repeat(1 << 20)}i`,
  ];
  assert.deepEqual(await demangle(hostile), hostile);
  assert.equal(await demangle('_ZN3foo3barEv'), 'foo::bar()');
});

test('the core is chosen by the input: exports and large bundles get threads, small bundles and text not', async () => {
  const { coreChoice, inputKind, THREADED_BUNDLE_BYTES } = await import('../../web/src/core.js');
  const bytes = (text) => new TextEncoder().encode(text);
  assert.equal(inputKind(bytes('<?xml version="1.0"?>')), 'export');
  assert.equal(inputKind(new Uint8Array([0x1f, 0x8b, 8, 0])), 'export');
  assert.equal(inputKind(new Uint8Array([0x50, 0x4b, 3, 4])), 'bundle');
  assert.equal(inputKind(undefined, true), 'bundle');
  assert.equal(inputKind(bytes('Weight\tSelf Weight\tSymbol Name\n')), 'text');
  // A large bundle gets what an export gets (threads, on a machine of more than one core).
  assert.deepEqual(coreChoice({}, 'bundle', THREADED_BUNDLE_BYTES), coreChoice({}, 'export'));
  assert.deepEqual(coreChoice({}, 'bundle', THREADED_BUNDLE_BYTES - 1),
    { threads: 1, why: 'a bundle under 16 MB is imported on one thread' });
  assert.deepEqual(coreChoice({}, 'bundle', undefined),
    { threads: 1, why: 'a bundle under 16 MB is imported on one thread' });
  assert.deepEqual(coreChoice({ threads: 3 }, 'bundle', 1), { threads: 3 });
  assert.deepEqual(coreChoice({ threads: 3 }, 'text'),
    { threads: 1, why: 'Deep Copy text is imported on one thread' });
  assert.deepEqual(coreChoice({ threads: false }, 'bundle', THREADED_BUNDLE_BYTES),
    { threads: 1, why: 'threads are turned off' });
});
