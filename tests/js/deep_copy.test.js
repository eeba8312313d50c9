// Deep Copy text through the JS facade, against speedscope's own snapshot of
// the same four files: the same call trees, the same stacks in the same
// order, but with the weights the text gives rather than truncated ones.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { ImportError, importTrace, importTraceWithSummary } from 'instrumentscope';

import { CORPUS_SKIP, ROOT, assertSpeedscopeSchema, corpusFile } from './support.js';

const INSTRUMENTS = 'jlfwong__speedscope/sample/profiles/Instruments';
const SNAPSHOT = 'jlfwong__speedscope/src/import/__snapshots__/instruments.test.ts.snap';

// speedscope's "stacks" of one snapshot entry: ["a;b;c", "73.00 MB"] pairs.
function snapshotStacks(key) {
  const text = readFileSync(corpusFile(SNAPSHOT), 'utf8');
  const entry = text.indexOf(`exports[\`${key}\`]`);
  assert.notEqual(entry, -1, key);
  const start = text.indexOf('"stacks": [', entry);
  const end = text.indexOf('\n  ],', start);
  return text.slice(start, end).split('\n').slice(1).map((line) => {
    const [, stack, weight] = /^\s*"(.*) ([\d.:]+ ?(?:[A-Za-z]+)?)",$/.exec(line);
    return [stack, weight];
  });
}

// Our profile's stacks in sample order, as "root;…;leaf" with weights.
function ourStacks(file, profileIndex = 0) {
  const profile = file.profiles[profileIndex];
  return profile.samples.map((stack, i) => [
    stack.map((frame) => file.shared.frames[frame].name).join(';'),
    profile.weights[i],
  ]);
}

// Every call-tree node ("a", "a;b", …) in the order it first appears.
function callTree(stacks) {
  const nodes = new Set();
  for (const stack of stacks) {
    const frames = stack.split(';');
    for (let depth = 1; depth <= frames.length; depth++) nodes.add(frames.slice(0, depth).join(';'));
  }
  return [...nodes];
}

// The CLI's standard output, with `stdin` (if any) as its input.
function cli(args, stdin) {
  return new Promise((resolve, reject) => {
    const child = execFile('node', [join(ROOT, 'web/src/cli.js'), ...args], { maxBuffer: 1 << 24 },
      (error, out, err) => (error ? reject(new Error(err || error.message)) : resolve(out)));
    if (stdin) child.stdin.end(stdin);
  });
}

const RUST_MAIN =
  'start;main;std::rt::lang_start::hdba6f1ebfd1bdcf8;std::rt::lang_start_internal::hc453db0ee48af82e;' +
  'std::rt::lang_start::_$u7b$$u7b$closure$u7d$$u7d$::hd856f2663871206c;' +
  'std::sys_common::backtrace::__rust_begin_short_backtrace::h4869fd82068bc1dc;' +
  'core::ops::function::FnOnce::call_once::h06e0c27ee740c6a8;example_app::main::hddab13ae8d8b6a6e';

const CASES = [
  {
    file: '7.3.1/simple-time-profile-deep-copy.txt',
    key: 'importFromInstrumentsDeepCopy time profile 1',
    onlyInSpeedscope: [],
  },
  {
    file: '7.3.1/random-allocations-deep-copy.txt',
    key: 'importFromInstrumentsDeepCopy allocations profile 1',
    // speedscope reads "217.09 MB" as 217 MB and the 73.35 + 72.36 + 71.38 MB
    // below it as 216 MB, and so gives delta() 1 MB of its own; main likewise.
    // The copy's rows add up exactly: neither has any.
    onlyInSpeedscope: ['start;main;delta()', 'start;main'],
  },
  {
    file: '13.4/cycles-example-deep-copy.txt',
    key: 'importFromInstrumentsDeepCopy allocations profile 2',
    // The process row is a profile here, not a frame.
    process: 'example_app (40414)',
    // Both rows have "-" (nothing) of their own; speedscope's truncation of
    // 47.82 Gc to 47 Gc (and of 96.08 Gc to 96 Gc) makes up a weight for them.
    onlyInSpeedscope: [`${RUST_MAIN};example_app::example_a::h622d6879b734496d`, RUST_MAIN],
  },
  {
    file: '16.0/simple-time-profile-deep-copy.txt',
    key: 'importFromInstrumentsDeepCopy time profile, version 16 1',
    onlyInSpeedscope: [],
  },
];

for (const { file, key, process, onlyInSpeedscope } of CASES) {
  test(`Deep Copy ${file}: speedscope's call tree and stacks`, { skip: CORPUS_SKIP }, async () => {
    const speedscope = snapshotStacks(key).map(([stack, weight]) => [
      process ? stack.slice(process.length + 1) : stack,
      weight,
    ]);
    // speedscope shows names as the copy spells them: so do we, for the comparison.
    const { file: ours, summary } = await importTraceWithSummary(
      readFileSync(corpusFile(`${INSTRUMENTS}/${file}`)), { demangle: false });
    assertSpeedscopeSchema(ours);
    assert.equal(ours.profiles.length, 1);
    if (process) assert.equal(`${summary.profiles[0].processName} (${summary.profiles[0].pid})`, process);
    const stacks = ourStacks(ours);
    assert.deepEqual(callTree(stacks.map(([stack]) => stack)), callTree(speedscope.map(([stack]) => stack)));
    assert.deepEqual(
      stacks.map(([stack]) => stack),
      speedscope.map(([stack]) => stack).filter((stack) => !onlyInSpeedscope.includes(stack)),
    );
  });
}

test('Deep Copy 13.4: Rust names as Rust tools print them, or in full, or as the copy spells them', { skip: CORPUS_SKIP }, async () => {
  const input = readFileSync(corpusFile(`${INSTRUMENTS}/13.4/cycles-example-deep-copy.txt`));
  const names = async (demangle) => (await importTrace(input, { demangle })).shared.frames.map((frame) => frame.name);
  const readable = await names(undefined);
  assert.ok(readable.includes('<&std::io::stdio::Stdout as std::io::Write>::write_fmt'));
  assert.ok(readable.includes('std::rt::lang_start::{{closure}}'));
  assert.ok(!readable.some((name) => /::h[0-9a-f]{16}$|\$LT\$|\$u20\$/.test(name)), readable.join('\n'));
  const full = await names('full');
  assert.ok(full.includes('<&std::io::stdio::Stdout as std::io::Write>::write_fmt::h2cb06dcd2b172844'));
  const asSpelled = await names(false);
  assert.ok(asSpelled.includes('_$LT$$RF$std..io..stdio..Stdout$u20$as$u20$std..io..Write$GT$::write_fmt::h2cb06dcd2b172844'));
  await assert.rejects(importTrace(input, { demangle: 'swift' }), /options\.demangle must be/);
});

test('Deep Copy 7.3.1: whole milliseconds, so the weights are speedscope\'s too', { skip: CORPUS_SKIP }, async () => {
  const ours = await importTrace(readFileSync(corpusFile(`${INSTRUMENTS}/7.3.1/simple-time-profile-deep-copy.txt`)));
  const speedscope = snapshotStacks('importFromInstrumentsDeepCopy time profile 1');
  assert.deepEqual(
    ourStacks(ours).map(([stack, weight]) => [stack, `${(weight / 1e6).toFixed(2)}ms`]),
    speedscope,
  );
  assert.equal(ours.profiles[0].unit, 'nanoseconds');
});

test('Deep Copy 16.0 and 7.3.1 Allocations: weights speedscope truncates are whole', { skip: CORPUS_SKIP }, async () => {
  const time = ourStacks(await importTrace(readFileSync(corpusFile(`${INSTRUMENTS}/16.0/simple-time-profile-deep-copy.txt`))));
  const timeWeights = new Map(time);
  // "2.45 s" in all with "846.00 ms" of its own: speedscope shows 395 ms.
  assert.equal(timeWeights.get('start;main;delta()'), 846_000_000);
  assert.equal(time.reduce((sum, [, weight]) => sum + weight, 0), 4_930_000_000);

  const bytes = await importTrace(readFileSync(corpusFile(`${INSTRUMENTS}/7.3.1/random-allocations-deep-copy.txt`)));
  assert.equal(bytes.profiles[0].unit, 'bytes');
  // 73.35 MB (76 913 049.6 bytes); speedscope shows 73.00 MB.
  assert.equal(new Map(ourStacks(bytes)).get('start;main;delta();alpha();leakMemory();malloc;malloc_zone_malloc'), 76_913_050);
});

test('Deep Copy pasted as a string imports, and a damaged one names its line', async () => {
  const text = 'Weight\tSelf Weight\tSymbol Names\n' +
    '3.00 ms  100.0%\t1.00 ms\t main\n' +
    '2.00 ms  66.6%\t2.00 ms\t  work\n';
  const file = await importTrace(text, { name: 'pasted text' });
  assert.deepEqual(ourStacks(file), [['main;work', 2_000_000], ['main', 1_000_000]]);
  assert.equal(file.profiles[0].name, 'pasted text');

  await assert.rejects(importTrace(`${text}1.00 ms\t1.00 ms\t    deeper\n`), (error) => {
    assert.ok(error instanceof ImportError);
    assert.equal(error.code, 'DEEP_COPY_BAD_ROW');
    assert.equal(error.line, 4);
    assert.match(error.message, /indented 2 levels below the row above it/);
    return true;
  });
});

test('the CLI reads a Deep Copy from standard input', { skip: CORPUS_SKIP }, async () => {
  const input = readFileSync(corpusFile(`${INSTRUMENTS}/16.0/simple-time-profile-deep-copy.txt`));
  const stdout = await cli(['-'], input);
  const golden = JSON.parse(readFileSync(join(ROOT, 'tests/golden/deep_copy/deep-copy-time-16.0.speedscope.json'), 'utf8'));
  const fromStdin = JSON.parse(stdout);
  assert.equal(fromStdin.name, 'standard input');
  assert.deepEqual(fromStdin.profiles.map((p) => [p.samples, p.weights]), golden.profiles.map((p) => [p.samples, p.weights]));
  assert.deepEqual(fromStdin.shared, golden.shared);
});

test('the CLI lists a Deep Copy\'s process row and its call-tree rows', { skip: CORPUS_SKIP }, async () => {
  const stdout = await cli([corpusFile(`${INSTRUMENTS}/13.4/cycles-example-deep-copy.txt`), '--list']);
  assert.deepEqual(stdout.split('\n').slice(0, 4), [
    'Run 1',
    '  table Deep Copy: 45 call-tree rows',
    '    process example_app (pid 40414): 18 samples, 1 thread',
    '      unnamed thread: 18 samples  [busiest]',
  ]);
  assert.match(stdout, /warning: 1 row\(s\) weigh more .* line 44, by 808 cycles/);
});
