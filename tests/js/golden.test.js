// The wasm core behind the JS facade gives exactly the golden outputs that the
// native build gives (tests/golden), and every one is a valid speedscope file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';

import { importTrace, serializeSpeedscope } from 'instrumentscope';

import { CORPUS_SKIP, ROOT, assertSpeedscopeSchema, corpusFile, readJson } from './support.js';

const manifest = readJson(join(ROOT, 'tests/golden/manifest.json'));

for (const entry of manifest.cases) {
  test(`golden: ${entry.name}`, { skip: CORPUS_SKIP }, async () => {
    const bytes = readFileSync(corpusFile(entry.input));
    const file = await importTrace(bytes, { name: basename(entry.input), ...entry.options });
    const goldenPath = join(ROOT, 'tests/golden', entry.format, `${entry.name}.speedscope.json`);
    const goldenText = readFileSync(goldenPath, 'utf8');
    assert.deepEqual(file, JSON.parse(goldenText));
    assert.equal([...serializeSpeedscope(file)].join(''), goldenText);
    assertSpeedscopeSchema(file);

    for (const profile of file.profiles) {
      assert.equal(profile.samples.length, profile.weights.length);
      const total = profile.weights.reduce((sum, weight) => sum + weight, 0);
      assert.equal(total, profile.endValue - profile.startValue, profile.name);
    }
  });
}
