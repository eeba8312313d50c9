// The page's way in (web/src/kept.js over core.js): a result the core keeps is
// written by the core's own writer, whole as the CLI writes it, or a few
// profiles at a time for the viewer, and freed when the page is done with it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import '../../web/src/node.js';  // the .wasm read from the package's files
import { importHere, keptJson, releaseKept } from '../../web/src/core.js';

import { CORPUS_SKIP, ROOT, assertSpeedscopeSchema, corpusFile, folderFiles, withRunsMerged } from './support.js';

const BUNDLE = 'axe-org__TraceUtility/TestBlock/Instruments.trace';
const GOLDEN = 'tests/golden/trace_bundle/axe-org-10.1-testblock.speedscope.json';

test('a kept result is written by the core: whole, as the CLI writes it, or as chosen profiles',
  { skip: CORPUS_SKIP }, async () => {
    const golden = readFileSync(join(ROOT, GOLDEN), 'utf8');
    const kept = await importHere(await folderFiles(corpusFile(BUNDLE)), { keep: true }, 'Instruments.trace');
    const summary = JSON.parse(kept.summary);
    assert.equal(summary.profiles.length, JSON.parse(golden).profiles.length);
    try {
      assert.equal(await keptJson(kept.group, null).text(), golden);

      // A selection is left open for the caller to say which profile shows first.
      const open = await keptJson(kept.group, [5, 0]).text();
      assert.doesNotMatch(open, /activeProfileIndex/);
      const selection = JSON.parse(`${open},"activeProfileIndex":1}`);
      assertSpeedscopeSchema(selection);
      const whole = JSON.parse(golden);
      // For a viewer, consecutive samples of one stack come as one, weighing what they did together.
      const merged = [whole.profiles[5], whole.profiles[0]].map(withRunsMerged);
      assert.deepEqual(selection.profiles, merged);
      // All threads: 3,036 samples, of which 1,966 repeat the stack before them.
      assert.equal(merged[0].samples.length, 3036 - 1966);
      assert.deepEqual(selection.shared, whole.shared);
      assert.equal(selection.name, whole.name);
      assert.equal(selection.activeProfileIndex, 1);
    } finally {
      releaseKept(kept.group);
    }
    assert.throws(() => keptJson(kept.group, null), { name: 'ImportError', code: 'INVALID_ARGUMENT' });
  });

test('profiles that a kept result does not have are refused, naming the index', { skip: CORPUS_SKIP }, async () => {
  // Its five threads alone.
  const kept = await importHere(await folderFiles(corpusFile(BUNDLE)), { keep: true, intervals: false },
    'Instruments.trace');
  try {
    assert.throws(() => keptJson(kept.group, [0, 5]),
      { name: 'ImportError', code: 'INVALID_ARGUMENT', message: 'no profile 5 in the kept result (it has 5)' });
    assert.throws(() => keptJson(kept.group, [-1]), { message: 'no profile -1 in the kept result (it has 5)' });
    assert.throws(() => keptJson(kept.group, [1.5]), { message: 'no profile 1.5 in the kept result (it has 5)' });
    assert.throws(() => keptJson(kept.group, []), { message: 'no profiles chosen to write' });
  } finally {
    releaseKept(kept.group);
  }
});
