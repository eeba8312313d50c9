// The instrumentscope CLI (package.json bin), run as people run it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { CORPUS_SKIP, JMH, ROOT, corpusFile, packageVersion, withRunsMerged } from './support.js';

const CLI = join(ROOT, 'web/src/cli.js');

async function run(...args) {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [CLI, ...args], { maxBuffer: 1 << 28 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

test('converts to a file, and to standard output, byte for byte like the golden', { skip: CORPUS_SKIP }, async () => {
  const golden = readFileSync(join(ROOT, 'tests/golden/xctrace_xml/jmh-cpu-profile-xcode14.3.speedscope.json'), 'utf8');
  const out = join(mkdtempSync(join(tmpdir(), 'instrumentscope-')), 'out.json');
  const toFile = await run(corpusFile(`${JMH}/cpu-profile.xml`), '-o', out);
  assert.equal(toFile.code, 0, toFile.stderr);
  assert.equal(readFileSync(out, 'utf8'), golden);
  const toStdout = await run(corpusFile(`${JMH}/cpu-profile.xml`));
  assert.equal(toStdout.stdout, golden);
});

test('--merge-consecutive writes each run of samples of one stack as one sample; without it every sample stays',
  { skip: CORPUS_SKIP }, async () => {
    const bundle = corpusFile('axe-org__TraceUtility/TestBlock/Instruments.trace');
    const golden = JSON.parse(readFileSync(join(ROOT, 'tests/golden/trace_bundle/axe-org-10.1-testblock.speedscope.json'), 'utf8'));
    const merged = await run(bundle, '--merge-consecutive');
    assert.equal(merged.code, 0, merged.stderr);
    const file = JSON.parse(merged.stdout);
    assert.deepEqual(file, { ...golden, profiles: golden.profiles.map(withRunsMerged) });
    const count = (profiles) => profiles.reduce((total, profile) => total + (profile.samples?.length ?? 0), 0);
    // 12,069 samples in all profiles, 3,979 of them the stack before them again.
    assert.equal(count(golden.profiles), 12069);
    assert.equal(count(file.profiles), 12069 - 3979);
  });

test('--list shows runs, tables, processes and threads with sample counts, and the threads it ran on',
  { skip: CORPUS_SKIP }, async () => {
  const { code, stdout } = await run(corpusFile(`${JMH}/time-profile.xml`), '--list', '--threads', '2');
  assert.equal(code, 0);
  const lines = stdout.trimEnd().split('\n');
  assert.deepEqual(lines.slice(0, 4), [
    'Run 1',
    '  table time-profile: 105 rows of CPU samples',
    '    process java (pid 23369): 105 samples, 10 threads',
    '      ThreadJavaMain 0xe787e: 55 samples  [busiest]',
  ]);
  assert.equal(lines.length, 16);  // its 10 threads and All threads
  assert.ok(lines.includes('      All threads: 105 samples, 10 threads'));
  assert.equal(lines.at(-2), 'Names: 365 of 380 sampled frames named (96%)');
  // An export: libxml2 on one thread, the importer on the other.
  assert.equal(lines.at(-1), 'Imported on 2 of 2 threads (the threaded core)');
  const single = await run(corpusFile(`${JMH}/time-profile.xml`), '--list', '--no-threads');
  assert.equal(single.stdout.trimEnd().split('\n').at(-1),
    'Imported on 1 thread (the single-threaded core: threads are turned off)');
  assert.equal(single.stdout.split('\n').slice(0, -2).join('\n'), stdout.split('\n').slice(0, -2).join('\n'));
});

test('a bundle of 16 MB or more runs on the threaded core by default, a smaller one on one thread',
  { skip: CORPUS_SKIP }, async () => {
  const lastLine = async (...args) => {
    const { code, stdout } = await run(...args, '--list');
    assert.equal(code, 0);
    return stdout.trimEnd().split('\n').filter((line) => !line.startsWith('warning:')).at(-1);
  };
  // 18.5 MB: its members inflated on a helper thread while others are decoded.
  const large = corpusFile('IvanCaldwell__ios-astronomy-performance/Instruments.trace');
  assert.match(await lastLine(large), /^Imported on 2 of [2-4] threads \(the threaded core\)$/);
  assert.equal(await lastLine(corpusFile('Ricks__Strux/Instruments.trace')),
    'Imported on 1 thread (the single-threaded core: a bundle under 16 MB is imported on one thread)');
  // Asked for threads, a smaller one gets them too.
  assert.equal(await lastLine(corpusFile('Ricks__Strux/Instruments.trace'), '--threads', '2'),
    'Imported on 2 of 2 threads (the threaded core)');
});

test('demangle: names from the command line or a line at a time from standard input', async () => {
  const swift = '$s15perftestexample0A3AppV5$mainyyFZ';
  const args = await run('demangle', swift, '_ZN3foo3barEv', 'not-mangled');
  assert.equal(args.code, 0, args.stderr);
  assert.equal(args.stdout, 'static perftestexampleApp.$main()\nfoo::bar()\nnot-mangled\n');
  const full = await run('demangle', '--full', swift);
  assert.equal(full.stdout, 'static perftestexample.perftestexampleApp.$main() -> ()\n');
  const child = execFile('node', [CLI, 'demangle']);
  let stdout = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stdin.end('_$s7SwiftUI3AppPAAE4mainyyFZ\n__ZN3std2rt19lang_start_internal17hc453db0ee48af82eE\n\n');
  await new Promise((resolve) => child.on('close', resolve));
  assert.equal(stdout, 'static App.main()\nstd::rt::lang_start_internal\n\n');
});

test('--no-demangle keeps names as the recording spells them; --full-names prints them whole', { skip: CORPUS_SKIP }, async () => {
  const copy = corpusFile('jlfwong__speedscope/sample/profiles/Instruments/13.4/cycles-example-deep-copy.txt');
  const names = async (...flags) => JSON.parse((await run(copy, ...flags)).stdout).shared.frames.map((frame) => frame.name);
  assert.ok((await names()).includes('std::rt::lang_start_internal'));
  assert.ok((await names('--full-names')).includes('std::rt::lang_start_internal::hc453db0ee48af82e'));
  assert.ok((await names('--no-demangle')).includes('std::rt::lang_start_internal::hc453db0ee48af82e'));
  assert.ok((await names('--no-demangle')).includes('std::rt::lang_start::_$u7b$$u7b$closure$u7d$$u7d$::hd856f2663871206c'));
  assert.equal((await run(copy, '--full')).code, 2);
});

test('Instruments 26: folded code is <deduplicated_symbol>, counted by --list and listed by --full-names',
  { skip: CORPUS_SKIP }, async () => {
    const bundle = corpusFile('benjaminRomano__mperf/src/test/resources/example.trace.zip');
    const list = await run(bundle, '--list');
    assert.equal(list.code, 0, list.stderr);
    assert.ok(list.stdout.includes('\nNames: 883 of 993 sampled frames named (88.9%); 34 are code the linker folded ' +
      'from several functions (<deduplicated_symbol>, as Instruments shows it) (--full-names lists the functions)\n'));
    // One warning for the run loop iterations of both threads still open at the end.
    assert.equal(list.stdout.split('\n').filter((line) => line.startsWith('warning: ')).length, 1);
    const names = async (...flags) => JSON.parse((await run(bundle, ...flags)).stdout).shared.frames.map((frame) => frame.name);
    const instruments = await names();
    assert.ok(instruments.includes('<deduplicated_symbol>'));
    assert.ok(!instruments.includes('argb32_image_mark_image'));
    assert.ok(instruments.includes('DYLD-STUB$$memcpy'));
    assert.ok(!instruments.some((name) => name.includes('> >')));
    const full = await names('--full-names');
    assert.ok(full.includes('<deduplicated_symbol> (one of 2: rgba32_image_mark_image | argb32_image_mark_image)'));
    assert.ok(!full.includes('<deduplicated_symbol>'));
    assert.ok((await names('--no-demangle')).includes('<deduplicated_symbol>'));
  });

test('bad input: a non-zero exit and a one-line reason', async () => {
  const result = await run(join(ROOT, 'tests/malformed/plain-text.txt'));
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^instrumentscope: .*plain-text\.txt: UNKNOWN_FORMAT: .* \(at byte 0\)\n$/);

  const toc = await run(join(ROOT, 'tests/malformed/table-of-contents.xml'));
  assert.equal(toc.code, 1);
  assert.equal(toc.stderr.split('\n').length, 2, 'one line');
  assert.match(toc.stderr, /XML_TABLE_OF_CONTENTS: .*xctrace export --input YOUR\.trace/);

  const missing = await run(join(ROOT, 'no-such-file.xml'));
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no-such-file\.xml: no such file\n$/);
});

test('a file of several chunks reads as standard input does; cut short, it fails at its line', { skip: CORPUS_SKIP }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'instrumentscope-'));
  try {
    // 10 MB: the CLI reads a file 4 MiB at a time, the next chunk while the core takes one.
    const grown = join(dir, 'grown.xml');
    await promisify(execFile)('node', [join(ROOT, 'bench/grow-export.js'), corpusFile(`${JMH}/time-profile.xml`), grown, '10']);
    const fromFile = await run(grown, '--list');
    assert.equal(fromFile.code, 0, fromFile.stderr);
    const { stdout: fromStdin } = await promisify(execFile)('bash', ['-c', `node ${CLI} - --list < ${grown}`],
      { maxBuffer: 1 << 24 });
    assert.equal(fromFile.stdout, fromStdin);
    assert.match(fromFile.stdout, /samples/);

    // Cut inside its second chunk: the import fails there, and the reading stops cleanly.
    const cut = join(dir, 'cut.xml');
    writeFileSync(cut, readFileSync(grown).subarray(0, 6 << 20));
    const failed = await run(cut, '-o', join(dir, 'out.json'));
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /cut\.xml: XML_SYNTAX: .*, line \d+, byte 6291456\)\n$/);
    assert.equal(existsSync(join(dir, 'out.json')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a reader that stops early is no error', { skip: CORPUS_SKIP }, async () => {
  // The output (77 kB) is more than a pipe holds, so the CLI meets the closed pipe.
  const { stdout, stderr } = await promisify(execFile)('bash', ['-c',
    `set -o pipefail; node ${CLI} ${corpusFile(`${JMH}/counters-time-profile.xml`)} | head -c 10; echo " exit=$?"`]);
  assert.equal(stdout, '{"$schema" exit=0\n');
  assert.equal(stderr, '');
});

test('a failed import leaves no output file; an unwritable output is a one-line error', { skip: CORPUS_SKIP }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'instrumentscope-'));
  const out = join(dir, 'out.json');
  const failed = await run(join(ROOT, 'tests/malformed/table-of-contents.xml'), '-o', out);
  assert.equal(failed.code, 1);
  assert.equal(existsSync(out), false);

  const unwritable = await run(corpusFile(`${JMH}/cpu-profile.xml`), '-o', join(dir, 'missing', 'out.json'));
  assert.equal(unwritable.code, 1);
  assert.match(unwritable.stderr, /^instrumentscope: ENOENT: no such file or directory, open '.*out\.json'\n$/);

  const full = await run(corpusFile(`${JMH}/cpu-profile.xml`), '-o', '/dev/full');
  assert.equal(full.code, 1);
  assert.match(full.stderr, /^instrumentscope: ENOSPC: no space left on device, write\n$/);
  assert.equal(existsSync('/dev/full'), true, 'a device is never removed');
});

test('usage errors exit with 2; --help and --version answer', async () => {
  assert.equal((await run()).code, 2);
  assert.equal((await run('--frobnicate', 'x')).code, 2);
  assert.equal((await run('--run', 'zero', 'x.xml')).code, 2);
  const help = await run('--help');
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^usage: instrumentscope INPUT/);
  assert.equal((await run('--version')).stdout, `instrumentscope ${packageVersion}\n`);
});

test('--limit changes a limit; a limit reached names the option that raises it', async () => {
  const control = join(ROOT, 'tests/malformed/valid-control.xml');
  const tight = await run(control, '--limit', 'maxXmlElements=20');
  assert.equal(tight.code, 1);
  assert.match(tight.stderr,
    /LIMIT_EXCEEDED: more than 20 XML elements \(limits\.maxXmlElements\) \(at .*line 4.*\); to allow more, run again with --limit maxXmlElements=N\n$/);
  const enough = await run(control, '--limit', 'maxXmlElements=40', '--limit', 'maxSamples=2');
  assert.equal(enough.code, 0, enough.stderr);
  assert.equal(JSON.parse(enough.stdout).profiles.length, 1);
  const misspelt = await run(control, '--limit', 'maxSample=2');
  assert.equal(misspelt.code, 1);
  assert.match(misspelt.stderr, /INVALID_ARGUMENT: options\.limits\.maxSample is not a limit; the limits are .*maxSamples/);
  for (const bad of ['maxSamples', 'maxSamples=0', 'maxSamples=ten', 'maxSamples=1.5']) {
    const result = await run(control, '--limit', bad);
    assert.equal(result.code, 2, bad);
    assert.match(result.stderr, /--limit expects NAME=N with N a positive integer/);
  }
});

test('--run picks a run or names the ones there are', async () => {
  const control = join(ROOT, 'tests/malformed/valid-control.xml');
  assert.equal((await run(control, '--run', '1')).code, 0);
  const missing = await run(control, '--run', '2');
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /RUN_NOT_FOUND: this export has no run 2; it has run 1/);
});

test('a .trace folder and a zipped bundle, with --list and --run', { skip: CORPUS_SKIP }, async () => {
  const folder = corpusFile('IvanCaldwell__ios-astronomy-performance/Instruments.trace/');
  const list = await run(folder, '--list', '--run', '2');
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^Run 2\n {2}table time-profile: 253,393 rows of CPU samples\n {4}process pid 56770: 253,393 samples, 36 threads\n/);
  assert.doesNotMatch(list.stdout, /Run 1/);
  assert.match(list.stdout, /warning: the bundle has no form\.template/);

  // The same folder named from its parent, as "./Instruments.trace".
  const { stdout } = await promisify(execFile)('node', [CLI, './Instruments.trace', '--list', '--run', '2'],
    { cwd: dirname(folder), maxBuffer: 1 << 24 });
  assert.equal(stdout, list.stdout);

  const zipped = corpusFile('jlfwong__speedscope/sample/profiles/Instruments/9.3.1/simple-time-profile.trace.zip');
  const golden = readFileSync(join(ROOT, 'tests/golden/trace_bundle/speedscope-9.3.1-simple-time-profile.speedscope.json'), 'utf8');
  assert.equal((await run(zipped)).stdout, golden);

  const lost = await run(corpusFile('nishadchenicheri__MemoryIssues/Instruments1.trace'));
  assert.equal(lost.code, 1);
  assert.match(lost.stderr, /BUNDLE_NO_SAMPLES: this recording's Allocations events .* are not in this copy of it/);
});
