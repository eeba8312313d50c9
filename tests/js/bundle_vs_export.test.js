// One recording in two forms: uniprof's test-simple.trace.zip (Instruments
// 16.0) and its `xctrace export`. The bundle, read from its bytes alone, must
// give every sample the export has, in the same order, on the same thread,
// with the same frames: the export's function names, demangled alike, and,
// for the frames the export leaves unnamed, their addresses.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { importTraceWithSummary } from 'instrumentscope';

import { CORPUS_SKIP, UNIPROF_EXPORT, corpusFile } from './support.js';

const UNIPROF_BUNDLE = 'shadi-gamal__uniprof/tests/fixtures/test-simple.trace.zip';

/**
 * time → leaf-first frame names (null: a row without a backtrace), from the
 * export's rows. An unnamed frame (its name an address) is given by its
 * recorded address, which is how the bundle names it.
 */
function exportSamples(xml) {
  const frames = new Map();  // frame id → name
  const backtraces = new Map();  // backtrace id → names
  const samples = new Map();
  const unescape = (text) => text.replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"').replaceAll('&apos;', "'");
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
    const names = [];
    const framePattern = /<frame (?:id="(\d+)" name="([^"]*)" addr="(0x[0-9a-f]+)"|ref="(\d+)")/g;
    for (const [, id, name, address, ref] of backtrace[2].matchAll(framePattern)) {
      if (id) frames.set(id, name.startsWith('0x') ? address : unescape(name));
      names.push(frames.get(id ?? ref));
    }
    backtraces.set(backtrace[1], names);
    samples.set(time, names);
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

  // Its one thread; the bundle's intervals and the views come after it.
  const threads = summary.profiles.filter((profile) => profile.kind === 'thread');
  assert.deepEqual(threads.map((profile) => [profile.name, profile.sampleCount]),
    [['Main Thread 0x2b73e56 — test-simple (pid 49230)', expected.size]]);
  assert.deepEqual(summary.instruments, ['Time Profiler', 'Points of Interest', 'Thermal State']);
  assert.deepEqual(summary.warnings, []);
  // The export's rows with a backtrace, in time order, are the bundle's
  // samples with frames; its one row without a backtrace is an empty sample.
  const rows = [...expected].sort(([a], [b]) => a - b);
  const withFrames = rows.filter(([, names]) => names !== null).map(([, names]) => names);
  assert.equal(withFrames.length, 517);
  assert.deepEqual(profileSamples(file, file.profiles[0]), withFrames);
  // The first sample's time is the first row's, on the run's clock.
  assert.equal(file.profiles[0].weights[0], rows[0][0]);
});
