// Allocations recordings (Instruments 6 to 9) through the real core: the
// CLI's --list, the summary's kinds and units, the file speedscope reads,
// and how listings count and show allocations (web/src/labels.js).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import '../../web/src/node.js';  // the .wasm read from the package's files
import { importHere } from '../../web/src/core.js';
import { allocationCount, formatBytes, profileAmount } from '../../web/src/labels.js';

import { CORPUS_SKIP, ROOT, assertSpeedscopeSchema, corpusFile } from './support.js';

const CLI = join(ROOT, 'web/src/cli.js');
const SIMPLE = 'jlfwong__speedscope/sample/profiles/Instruments/8.3.3/simple-allocations.trace.zip';

async function run(...args) {
  const { stdout } = await promisify(execFile)('node', [CLI, ...args], { maxBuffer: 1 << 28 });
  return stdout;
}

test('--list shows an Allocations table with its profiles, all allocations first', { skip: CORPUS_SKIP }, async () => {
  assert.equal(await run(corpusFile(SIMPLE), '--list', '--threads', '2'), `\
Instruments: Allocations, VM Tracker
Run 1
  table allocations: 425 events
    process simple (pid 26616): 423 allocations by 1 thread
      All threads — all allocations (bytes): 423 allocations, 435.00 KiB  [opens first]
      All threads — still alive at the end (bytes): 422 allocations, 422.00 KiB
      All threads — all allocations (count): 423 allocations
      All threads — still alive at the end (count): 422 allocations
      All threads — VM regions mapped (bytes): 1 region, 8.00 MiB
      All threads — VM regions still mapped at the end (bytes): 1 region, 8.00 MiB
Names: 24 of 24 sampled frames named (100%)
Imported on 1 of 2 threads (the threaded core)
warning: the VM Tracker instrument's recording is not read: its snapshots of the process's VM regions are in no profile
`);
});

test('the file holds bytes and counts, valid for speedscope', { skip: CORPUS_SKIP }, async () => {
  const bytes = new Uint8Array(readFileSync(corpusFile(SIMPLE)));
  const chunks = [];
  const result = await importHere(bytes, {}, 'simple-allocations.trace.zip',
    { write: (piece) => chunks.push(Buffer.from(piece)) });
  const summary = JSON.parse(result.summary);
  const file = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  assertSpeedscopeSchema(file);
  assert.deepEqual(summary.profiles.map((profile) => [profile.kind, profile.unit]), [
    ['allocations', 'bytes'], ['allocations', 'bytes'], ['allocations', 'none'], ['allocations', 'none'],
    ['vm-regions', 'bytes'], ['vm-regions', 'bytes'],
  ]);
  assert.deepEqual(summary.tables.filter((table) => table.allocations).map((table) => table.rows), [425]);
  // Every profile's weights add up to what the summary says.
  file.profiles.forEach((profile, index) => {
    assert.equal(profile.weights.reduce((sum, weight) => sum + weight, 0), summary.profiles[index].sampleWeight);
  });
  assert.equal(file.profiles[summary.activeProfileIndex].name,
    'All threads — simple (pid 26616) — all allocations (bytes)');
});

test('listings count each allocation once and show bytes as Instruments does', () => {
  assert.equal(formatBytes(512), '512 bytes');
  assert.equal(formatBytes(1), '1 byte');
  assert.equal(formatBytes(450815312), '429.93 MiB');
  assert.equal(formatBytes(2 ** 30 * 7.5), '7.50 GiB');
  const process = (processLabel, unit, sampleCount, sampleWeight) => ({
    kind: 'allocations', unit, sampleCount, sampleWeight, run: 1, processLabel, threadLabel: 'All threads',
  });
  const profiles = [
    process('app (pid 1)', 'bytes', 10, 4096), process('app (pid 1)', 'bytes', 7, 1024),
    process('app (pid 1)', 'none', 10, 10), process('app (pid 1)', 'none', 7, 7),
    process('helper (pid 2)', 'bytes', 5, 100), process('helper (pid 2)', 'none', 5, 5),
    { kind: 'vm-regions', unit: 'bytes', sampleCount: 3, sampleWeight: 3 << 20, run: 1, processLabel: 'app (pid 1)' },
  ];
  assert.equal(allocationCount(profiles), 15);
  assert.equal(profileAmount(profiles[1]), '7 allocations, 1.00 KiB');
  assert.equal(profileAmount(profiles[3]), '7 allocations');
  assert.equal(profileAmount(profiles[6]), '3 regions, 3.00 MiB');
});
