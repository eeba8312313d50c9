// bench/grow-export.js writes exports the importer reads in full: the seed's
// samples first, then more of the same threads, with fresh stacks among them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { importTraceWithSummary } from 'instrumentscope';

import { CORPUS_SKIP, JMH, ROOT, corpusFile } from './support.js';

test('a grown export imports whole, with the seed\'s threads', { skip: CORPUS_SKIP }, async () => {
  const folder = mkdtempSync(join(tmpdir(), 'instrumentscope-bench-'));
  try {
    const seed = corpusFile(`${JMH}/time-profile.xml`);
    const grown = join(folder, 'grown.xml');
    await promisify(execFile)('node', [join(ROOT, 'bench/grow-export.js'), seed, grown, '2']);
    assert.ok(statSync(grown).size >= 2 * 1048576);
    const before = await importTraceWithSummary(readFileSync(seed));
    const after = await importTraceWithSummary(readFileSync(grown));
    const threads = (summary) => summary.profiles.map((profile) => profile.name).sort();
    assert.deepEqual(threads(after.summary), threads(before.summary));
    const samples = (summary) => summary.profiles.reduce((sum, profile) => sum + profile.sampleCount, 0);
    // Rows of about 100 bytes once they are refs: thousands of samples.
    assert.ok(samples(after.summary) > 50 * samples(before.summary), `${samples(after.summary)} samples`);
    // Fresh stacks: more distinct frames sequences than the seed has.
    const stacks = (file) => new Set(file.profiles.flatMap((profile) => profile.samples.map((stack) => stack.join()))).size;
    assert.ok(stacks(after.file) > stacks(before.file));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
