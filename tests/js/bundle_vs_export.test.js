// One recording in two forms: uniprof's test-simple.trace.zip (Instruments
// 16.0) and its `xctrace export`. The bundle, read from its bytes alone, must
// give every sample the export has, in the same order, on the same thread, with
// the same backtrace (the export's frame addresses, which the bundle's frames
// are named by until symbolication reads the bundle's symbol archives).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { importTraceWithSummary } from 'instrumentscope';

import { CORPUS_SKIP, UNIPROF_EXPORT, corpusFile } from './support.js';

const UNIPROF_BUNDLE = 'shadi-gamal__uniprof/tests/fixtures/test-simple.trace.zip';

/** time → leaf-first frame addresses (null: a row without a backtrace), from the export's rows. */
function exportSamples(xml) {
  const frames = new Map();  // frame id → address
  const backtraces = new Map();  // backtrace id → addresses
  const samples = new Map();
  for (const [row] of xml.matchAll(/<row>.*?<\/row>/gs)) {
    const time = Number(row.match(/<sample-time (?:id="\d+"[^>]*>(\d+)<\/sample-time>|ref="(\d+)")/)[1]);
    const reference = row.match(/<backtrace ref="(\d+)"\/>/);
    if (reference) {
      samples.set(time, backtraces.get(reference[1]));
      continue;
    }
    const backtrace = row.match(/<backtrace id="(\d+)">(.*?)<\/backtrace>/s);
    if (!backtrace) {
      samples.set(time, null);
      continue;
    }
    const addresses = [];
    for (const [, id, address, ref] of backtrace[2].matchAll(/<frame (?:id="(\d+)"[^>]*? addr="(0x[0-9a-f]+)"|ref="(\d+)")/g)) {
      if (id) frames.set(id, address);
      addresses.push(id ? address : frames.get(ref));
    }
    backtraces.set(backtrace[1], addresses);
    samples.set(time, addresses);
  }
  return samples;
}

/** Leaf-first frame names of a speedscope profile's samples, in time order (gaps left out). */
function profileSamples(file, profile) {
  return profile.samples.filter((stack) => stack.length)
    .map((stack) => stack.map((frame) => file.shared.frames[frame].name).reverse());
}

test('the Instruments 16 bundle gives the samples of its own export', { skip: CORPUS_SKIP }, async () => {
  const xml = gunzipSync(readFileSync(corpusFile(UNIPROF_EXPORT))).toString('utf8');
  const expected = exportSamples(xml);
  const { file, summary } = await importTraceWithSummary(readFileSync(corpusFile(UNIPROF_BUNDLE)));

  assert.deepEqual(summary.profiles.map((profile) => [profile.name, profile.sampleCount]),
    [['Main Thread 0x2b73e56 — test-simple (pid 49230)', expected.size]]);
  assert.deepEqual(summary.instruments, ['Time Profiler', 'Points of Interest', 'Thermal State']);
  // The export's rows with a backtrace, in time order, are the bundle's
  // samples with frames; its one row without a backtrace is an empty sample.
  const rows = [...expected].sort(([a], [b]) => a - b);
  const withFrames = rows.filter(([, addresses]) => addresses !== null).map(([, addresses]) => addresses);
  assert.equal(withFrames.length, 517);
  assert.deepEqual(profileSamples(file, file.profiles[0]), withFrames);
  // The first sample's time is the first row's, on the run's clock.
  assert.equal(file.profiles[0].weights[0], rows[0][0]);
});
