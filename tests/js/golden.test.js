// The wasm cores behind the JS facade give exactly the golden outputs that the
// native build gives (tests/golden), and every one is a valid speedscope file:
// the threaded core on two threads and the single-threaded one (threads: false).
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';

import { importTraceWithSummary, serializeSpeedscope } from 'instrumentscope';

import { CORPUS_SKIP, ROOT, assertSpeedscopeSchema, corpusFile, folderFiles, readJson } from './support.js';

const manifest = readJson(join(ROOT, 'tests/golden/manifest.json'));
const SUMMARY_PROFILES = 20;  // as in tests/cpp/whole/golden_test.cc
const SUMMARY_IMAGES = 10;  // likewise

async function importCorpus(entry, threads) {
  const path = corpusFile(entry.input);
  const input = statSync(path).isDirectory() ? await folderFiles(path) : readFileSync(path);
  return importTraceWithSummary(input, { name: basename(path), ...entry.options, threads });
}

function summaryGolden(file, summary, json) {
  const busiest = [...summary.profiles].sort((a, b) => b.sampleCount - a.sampleCount);
  return {
    name: summary.name,
    activeProfile: summary.profiles[summary.activeProfileIndex].name,
    profileCount: summary.profiles.length,
    sampleCount: summary.profiles.reduce((sum, profile) => sum + profile.sampleCount, 0),
    busiestProfiles: busiest.slice(0, SUMMARY_PROFILES),
    tables: summary.tables,
    warnings: summary.warnings,
    naming: { ...summary.naming, images: summary.naming.images.slice(0, SUMMARY_IMAGES) },
    speedscopeJson: { bytes: Buffer.byteLength(json), crc32: crc32(json) },
  };
}

for (const [entry, threads] of manifest.cases.flatMap((entry) => [[entry, 2], [entry, false]])) {
  const core = threads === false ? ' (single-threaded core)' : '';
  test(`golden: ${entry.name}${core}`, { skip: CORPUS_SKIP }, async () => {
    const { file, summary } = await importCorpus(entry, threads);
    // Asked for two threads, exports and bundles run on the threaded core, Deep Copy text not.
    assert.equal(summary.core.threaded, threads !== false && entry.format !== 'deep_copy');
    const json = [...serializeSpeedscope(file)].join('');
    const base = join(ROOT, 'tests/golden', entry.format, entry.name);
    if (entry.golden === 'summary') {
      assert.deepEqual(summaryGolden(file, summary, json), readJson(`${base}.summary.json`));
    } else {
      const golden = readFileSync(`${base}.speedscope.json`, 'utf8');
      assert.deepEqual(file, JSON.parse(golden));
      assert.equal(json, golden);
    }
    assertSpeedscopeSchema(file);
    for (const profile of file.profiles) {
      if (profile.type === 'evented') {
        const times = profile.events.map((event) => event.at);
        assert.deepEqual(times, [...times].sort((a, b) => a - b), profile.name);
        assert.ok(profile.startValue <= times[0] && times.at(-1) <= profile.endValue, profile.name);
        continue;
      }
      assert.equal(profile.samples.length, profile.weights.length);
      const total = profile.weights.reduce((sum, weight) => sum + weight, 0);
      assert.equal(total, profile.endValue - profile.startValue, profile.name);
    }
  });
}
