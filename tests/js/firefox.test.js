// The Firefox Profiler output of every golden case: a file that keeps the
// format's rules, whose threads hold exactly the samples, weights and stacks
// of the speedscope output's thread profiles and whose markers are its
// intervals; the golden files of the cases that name one; the CLI's
// --format firefox and .gz output.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { crc32, gunzipSync } from 'node:zlib';

import { importTraceAsFirefoxProfile, importTraceWithSummary } from 'instrumentscope';

import { assertFirefoxFormat, sampleTimes, stackFrames } from './firefox_format.js';
import { CORPUS_SKIP, ROOT, corpusFile, folderFiles, readJson } from './support.js';

const run = promisify(execFile);
const CLI = join(ROOT, 'web/src/cli.js');
const manifest = readJson(join(ROOT, 'tests/golden/manifest.json'));
const VIEWS = new Set(['all-threads', 'thread-pool', 'during']);
const HEAP_KINDS = new Set(['allocations', 'vm-regions']);
const FIREFOX_THREADS = 30;  // as in tests/cpp/whole/golden_test.cc

async function inputOf(entry) {
  const path = corpusFile(entry.input);
  const input = statSync(path).isDirectory() ? await folderFiles(path) : readFileSync(path);
  return { input, options: { name: basename(path), ...entry.options } };
}

async function firefoxOf(entry, options = {}) {
  const { input, options: base } = await inputOf(entry);
  const { blob, summary } = await importTraceAsFirefoxProfile(input, { ...base, ...options });
  return { bytes: Buffer.from(await blob.arrayBuffer()), summary };
}

// A speedscope profile's samples as times (ms after its first), frames and weights.
function speedscopeSamples(profile) {
  let at = 0;
  return profile.samples.map((frames, i) => {
    const sample = { at: at / 1e6, frames, weight: profile.weights[i] };
    at += profile.weights[i];
    return sample;
  });
}

function assertSameSamples(thread, profile, shared) {
  const where = `${thread.name}: ${profile.name}`;
  const expected = speedscopeSamples(profile);
  const { samples } = thread;
  assert.equal(samples.length, expected.length, where);
  const times = sampleTimes(samples);
  const timed = profile.unit === 'nanoseconds';
  assert.equal(samples.weightType, timed ? 'tracing-ms' : profile.unit === 'bytes' ? 'bytes' : 'samples', where);
  for (let i = 0; i < expected.length; i++) {
    assert.deepEqual(stackFrames(shared, samples.stack[i]), expected[i].frames, `${where}: sample ${i}`);
    const weight = timed ? Math.round(samples.weight[i] * 1e6) : samples.weight[i];
    assert.equal(weight, expected[i].weight, `${where}: weight ${i}`);
    if (timed) {
      const after = times[i] - times[0];
      assert.ok(Math.abs(after - expected[i].at) <= 1e-6 * Math.max(1, after), `${where}: time ${i}`);
    }
  }
}

// What each thread of the file holds, in order: a profile's samples, or one
// process's heap events, where the first of the allocation profiles made of
// them is ({heap: [their indices]}).
function expectedThreads(summary) {
  const threads = [];
  const heaps = new Map();
  summary.profiles.forEach((profile, index) => {
    if (VIEWS.has(profile.kind) || profile.kind === 'intervals') return;
    if (!HEAP_KINDS.has(profile.kind)) {
      threads.push({ profile: index });
      return;
    }
    const key = `${profile.run} ${profile.pid} ${profile.kind}`;
    if (!heaps.has(key)) {
      heaps.set(key, []);
      threads.push({ heap: heaps.get(key) });
    }
    heaps.get(key).push(index);
  });
  return threads;
}

// The heap events' allocations, in order, are the "all … (bytes)" profile's
// samples; those the profiler finds retained (no later free of their
// address), the "still … at the end (bytes)" profile's.
function assertSameHeap(thread, profiles, shared) {
  const where = thread.name;
  const heap = thread.nativeAllocations;
  assert.equal(thread.samples.length, 0, where);
  assert.equal(heap.weightType, 'bytes');
  const sampled = (events) => events.map((i) => ({ frames: stackFrames(shared, heap.stack[i]), weight: heap.weight[i] }));
  const allocations = [];
  const live = new Map();  // address → its allocation, until freed
  for (let i = 0; i < heap.length; i++) {
    if (i) assert.ok(heap.time[i] >= heap.time[i - 1], `${where}: time order at ${i}`);
    if (heap.weight[i] > 0) {
      allocations.push(i);
      live.set(heap.memoryAddress[i], i);
      continue;
    }
    const freed = live.get(heap.memoryAddress[i]);
    assert.ok(freed !== undefined, `${where}: event ${i} frees no block`);
    assert.equal(heap.weight[i], -heap.weight[freed], `${where}: event ${i} frees its block's bytes`);
    live.delete(heap.memoryAddress[i]);
  }
  const retained = allocations.filter((i) => live.get(heap.memoryAddress[i]) === i);
  const expected = (pattern) => {
    const found = profiles.find((profile) => pattern.test(profile.name));
    return found && found.samples.map((frames, i) => ({ frames, weight: found.weights[i] }));
  };
  assert.deepEqual(sampled(allocations), expected(/(all allocations|VM regions mapped) \(bytes\)$/), where);
  assert.deepEqual(sampled(retained), expected(/still (alive|mapped) at the end \(bytes\)$/), where);
  const counted = expected(/all allocations \(count\)$/);
  if (counted) assert.equal(allocations.length, counted.length, where);
}

for (const entry of manifest.cases) {
  test(`firefox: ${entry.name} keeps the format's rules and the speedscope output's samples`,
    { skip: CORPUS_SKIP }, async () => {
      const { bytes, summary } = await firefoxOf(entry);
      const profile = JSON.parse(bytes);
      assertFirefoxFormat(profile);
      const { input, options } = await inputOf(entry);
      const { file } = await importTraceWithSummary(input, options);

      // The threads are the profiles that are neither views nor intervals, in
      // order, an Allocations recording's as their heap events; threads of
      // markers alone come after them.
      const expected = expectedThreads(summary);
      assert.ok(profile.threads.length >= expected.length);
      expected.forEach(({ profile: index, heap }, i) => {
        if (heap) {
          assertSameHeap(profile.threads[i], heap.map((h) => file.profiles[h]), profile.shared);
        } else {
          assertSameSamples(profile.threads[i], file.profiles[index], profile.shared);
        }
      });
      for (const thread of profile.threads.slice(expected.length)) {
        assert.equal(thread.samples.length, 0, `${thread.name} holds markers alone`);
        assert.equal(thread.name, 'Intervals');
      }

      // Every interval is a marker, with its label.
      const intervals = summary.intervalSources.reduce((sum, source) => sum + source.intervals, 0);
      const markers = profile.threads.reduce((sum, thread) => sum + thread.markers.length, 0);
      assert.equal(markers, intervals);
      const labels = new Set();
      for (const evented of file.profiles.filter((p) => p.type === 'evented')) {
        for (const event of evented.events) labels.add(file.shared.frames[event.frame].name);
      }
      const { stringArray } = profile.shared;
      for (const thread of profile.threads) {
        for (const data of thread.markers.data) assert.ok(labels.has(stringArray[data.label]));
      }
    });
}

// As FirefoxSummaryGolden in tests/cpp/whole/golden_test.cc.
function firefoxSummaryGolden(bytes) {
  const profile = JSON.parse(bytes);
  const strings = profile.shared.stringArray;
  return {
    threadCount: profile.threads.length,
    threads: profile.threads.slice(0, FIREFOX_THREADS).map((thread) => {
      const markers = {};
      for (const name of thread.markers.name) markers[strings[name]] = (markers[strings[name]] ?? 0) + 1;
      return {
        name: thread.name, pid: thread.pid, tid: thread.tid, isMainThread: thread.isMainThread,
        samples: thread.samples.length, weightType: thread.samples.weightType, markers,
      };
    }),
    libs: profile.libs.length,
    frames: profile.shared.frameTable.length,
    stacks: profile.shared.stackTable.length,
    strings: strings.length,
    markerSchema: profile.meta.markerSchema,
    firefoxJson: { bytes: bytes.length, crc32: crc32(bytes) },
  };
}

for (const entry of manifest.cases.filter((c) => c.firefox)) {
  test(`firefox golden: ${entry.name}, from the WebAssembly core`, { skip: CORPUS_SKIP }, async () => {
    const { bytes } = await firefoxOf(entry);
    const base = join(ROOT, 'tests/golden', entry.format, entry.name);
    if (entry.firefox === 'file') {
      assert.ok(bytes.equals(readFileSync(`${base}.firefox.json`)));
    } else {
      assert.deepEqual(firefoxSummaryGolden(bytes), readJson(`${base}.firefox.summary.json`));
    }
  });
}

test('firefox: gzip: true gives the same file gzipped', { skip: CORPUS_SKIP }, async () => {
  const entry = manifest.cases.find((c) => c.name === 'speedscope-8.3.3-simple-allocations');
  const { bytes } = await firefoxOf(entry, { gzip: true });
  assert.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b]);
  const golden = readFileSync(join(ROOT, 'tests/golden', entry.format, `${entry.name}.firefox.json`));
  assert.ok(gunzipSync(bytes).equals(golden));
});

test('firefox: options.gzip must be a boolean', async () => {
  await assert.rejects(importTraceAsFirefoxProfile(new Uint8Array(4), { gzip: 'yes' }),
    { code: 'INVALID_ARGUMENT', message: /options\.gzip/ });
});

test('CLI: --format firefox -o x.json.gz writes the golden file gzipped', { skip: CORPUS_SKIP }, async () => {
  const entry = manifest.cases.find((c) => c.name === 'speedscope-8.3.3-simple-allocations');
  const dir = mkdtempSync(join(tmpdir(), 'instrumentscope-firefox-'));
  try {
    const output = join(dir, 'profile.json.gz');
    await run(process.execPath, [CLI, corpusFile(entry.input), '--format', 'firefox', '-o', output]);
    const golden = readFileSync(join(ROOT, 'tests/golden', entry.format, `${entry.name}.firefox.json`));
    assert.ok(gunzipSync(readFileSync(output)).equals(golden));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CLI: --format takes speedscope or firefox, and firefox keeps every sample', async () => {
  await assert.rejects(run(process.execPath, [CLI, 'x.trace', '--format', 'pprof']),
    (error) => error.code === 2 && /--format expects speedscope or firefox, not "pprof"/.test(error.stderr));
  await assert.rejects(run(process.execPath, [CLI, 'x.trace', '--format', 'firefox', '--merge-consecutive']),
    (error) => error.code === 2 && /--merge-consecutive is for speedscope files/.test(error.stderr));
});
