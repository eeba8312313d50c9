// The page's way in (web/src/kept.js over core.js): a result the core keeps is
// written by the core's own writer, whole as the CLI writes it, or a few
// profiles at a time as planned for the viewer, and freed when the page is
// done with it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import '../../web/src/node.js';  // the .wasm read from the package's files
import { importHere, keptJson, releaseKept, viewerJson } from '../../web/src/core.js';

import { CORPUS_SKIP, ROOT, assertSpeedscopeSchema, corpusFile, folderFiles, withRunsMerged } from './support.js';

const BUNDLE = 'axe-org__TraceUtility/TestBlock/Instruments.trace';
const GOLDEN = 'tests/golden/trace_bundle/axe-org-10.1-testblock.speedscope.json';

/** A speedscope file's profiles with each frame id made its frame, so that files of other frame lists compare. */
function byName(file) {
  const { frames } = file.shared;
  return file.profiles.map((profile) => (profile.type === 'sampled'
    ? { ...profile, samples: profile.samples.map((stack) => stack.map((frame) => frames[frame])) }
    : { ...profile, events: profile.events.map((event) => ({ ...event, frame: frames[event.frame] })) }));
}

test('a kept result is written by the core: whole, as the CLI writes it, or as the viewer is to get it',
  { skip: CORPUS_SKIP }, async () => {
    const golden = readFileSync(join(ROOT, GOLDEN), 'utf8');
    const kept = await importHere(await folderFiles(corpusFile(BUNDLE)), { keep: true }, 'Instruments.trace');
    const summary = JSON.parse(kept.summary);
    assert.equal(summary.profiles.length, JSON.parse(golden).profiles.length);
    try {
      assert.equal(await keptJson(kept.group).text(), golden);

      // Within the viewer's budget, the profiles asked for, in that order, left open for the
      // caller to say which shows first.
      const { blob, plan } = viewerJson(kept.group, [5, 0], 0, -1);
      assert.deepEqual(plan.profiles, [5, 0]);
      assert.equal(plan.alone, false);
      assert.equal(plan.note, '');
      const open = await blob.text();
      assert.doesNotMatch(open, /activeProfileIndex/);
      const selection = JSON.parse(`${open},"activeProfileIndex":1}`);
      assertSpeedscopeSchema(selection);
      const whole = JSON.parse(golden);
      // Consecutive samples of one stack come as one, weighing what they did together; the
      // frames are those the two reach, numbered anew.
      const merged = [whole.profiles[5], whole.profiles[0]].map(withRunsMerged);
      assert.deepEqual(byName(selection), byName({ ...whole, profiles: merged }));
      // All threads: 3,036 samples, of which 1,966 repeat the stack before them.
      assert.equal(selection.profiles[0].samples.length, 3036 - 1966);
      assert.ok(selection.shared.frames.length < whole.shared.frames.length);
      assert.equal(selection.name, whole.name);

      // Past a budget, the thread picked alone with the intervals, condensed into windows.
      const intervals = summary.profiles.flatMap((profile, index) => (profile.kind === 'intervals' ? [index] : []));
      assert.ok(intervals.length > 0);
      // Between what the thread costs whole and in one window, the least it can.
      const whole1 = viewerJson(kept.group, [1, ...intervals], 1, -1).plan.cost;
      const least = viewerJson(kept.group, [1, ...intervals], 1, 0).plan.cost;
      assert.ok(least < whole1);
      const budget = Math.round((least + whole1) / 2);
      const small = viewerJson(kept.group, [0, 1, 2, ...intervals], 1, budget);
      assert.deepEqual(small.plan.profiles, [1, ...intervals]);
      assert.equal(small.plan.alone, true);
      assert.ok(small.plan.cost <= budget, `cost ${small.plan.cost}, budget ${budget}`);
      assert.match(small.plan.note, /^This process's threads and the profile picked are more than speedscope's viewer reads/);
      assert.match(small.plan.note, new RegExp(`\\(${summary.profiles[1].name.replace(/[()]/g, '\\$&')}: [\\d,]+ windows? of [\\d.]+ m?s\\)`));
      const condensed = JSON.parse(`${await small.blob.text()},"activeProfileIndex":0}`);
      assertSpeedscopeSchema(condensed);
      // The flame graph is the thread's own: each stack weighs what it did.
      const totals = (profile) => {
        const byStack = new Map();
        profile.samples.forEach((stack, i) => {
          const key = stack.map((frame) => frame.name).join(';');
          byStack.set(key, (byStack.get(key) ?? 0) + profile.weights[i]);
        });
        return byStack;
      };
      const [condensedThread, ...condensedIntervals] = byName(condensed);
      assert.deepEqual(totals(condensedThread), totals(byName(whole)[1]));
      assert.ok(condensedThread.samples.length < withRunsMerged(whole.profiles[1]).samples.length);
      assert.deepEqual(condensedIntervals, intervals.map((index) => byName(whole)[index]));
    } finally {
      releaseKept(kept.group);
    }
    assert.throws(() => keptJson(kept.group), { name: 'ImportError', code: 'INVALID_ARGUMENT' });
  });

test('profiles that a kept result does not have are refused, naming the index', { skip: CORPUS_SKIP }, async () => {
  // Its five threads alone.
  const kept = await importHere(await folderFiles(corpusFile(BUNDLE)), { keep: true, intervals: false },
    'Instruments.trace');
  try {
    assert.throws(() => viewerJson(kept.group, [0, 5], 0, -1),
      { name: 'ImportError', code: 'INVALID_ARGUMENT', message: 'no profile 5 in the kept result (it has 5)' });
    assert.throws(() => viewerJson(kept.group, [-1], 0, -1), { message: 'no profile -1 in the kept result (it has 5)' });
    assert.throws(() => viewerJson(kept.group, [1.5], 0, -1), { message: 'no profile 1.5 in the kept result (it has 5)' });
    assert.throws(() => viewerJson(kept.group, [], 0, -1), { message: 'no profiles chosen to write' });
    assert.throws(() => viewerJson(kept.group, [0, 1], 2, -1),
      { message: 'the profile picked is not among those chosen to write' });
  } finally {
    releaseKept(kept.group);
  }
});
