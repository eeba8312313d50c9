// Intervals and the views made from threads (thread pools, all threads,
// samples during intervals), through the real core: the CLI's --list and
// --no-intervals, and options.intervals on the way to the core.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import '../../web/src/node.js';  // the .wasm read from the package's files
import { importHere } from '../../web/src/core.js';

import { CORPUS_SKIP, ROOT, assertSpeedscopeSchema, corpusFile, folderFiles } from './support.js';

const CLI = join(ROOT, 'web/src/cli.js');
// Time Profiler, Points of Interest and Thermal State (Instruments 11.4.1).
const STRUX = 'Ricks__Strux/Instruments.trace';

async function run(...args) {
  const { stdout } = await promisify(execFile)('node', [CLI, ...args], { maxBuffer: 1 << 28 });
  return stdout;
}

async function summaryOf(options) {
  const result = await importHere(await folderFiles(corpusFile(STRUX)), options, 'Instruments.trace', { write: null });
  return JSON.parse(result.summary);
}

test('--no-intervals lists CPU samples alone, one profile per thread, as before intervals were read',
  { skip: CORPUS_SKIP }, async () => {
    assert.equal(await run(corpusFile(STRUX), '--list', '--no-intervals', '--no-threads'), `\
Instruments: Time Profiler, Points of Interest, Thermal State
Run 1
  table time-profile: 8,338 rows of CPU samples
    process StruxMacApp.app (pid 18689): 8,338 samples, 10 threads
      _dispatch_worker_thread2 0x461f64: 7,293 samples  [busiest]
      Main Thread 0x461dcb: 956 samples
      _NSEventThread 0x461f71: 52 samples
      _dispatch_worker_thread2 0x461f63: 15 samples
      _dispatch_worker_thread2 0x461f68: 12 samples
      _dispatch_workloop_worker_thread 0x461f6e: 3 samples
      _dispatch_worker_thread2 0x461f72: 3 samples
      _dispatch_kevent_worker_thread 0x461f74: 2 samples
      _dispatch_worker_thread2 0x461f69: 1 sample
      +[NSSpellChecker _startLoadOfScanner:] 0x461f80: 1 sample
  other tables (not read): kdebug (11,660 rows), os-signpost (186 rows), gcd-perf-event (30 rows), os-log (0 rows), kdebug-signpost (0 rows), os-log-arg (0 rows), os-signpost-arg (558 rows), time-sample (8,351 rows), tick (17,318 rows), life-cycle-period (12 rows), device-thermal-state-intervals (3 rows), global-roi-layout (0 rows), region-of-interest (186 rows), global-poi-layout (186 rows), thread-name (10 rows), roi-metadata (558 rows), app-spin (1 row)
Names: 3,237 of 3,280 sampled frames named (98.6%)
Imported on 1 thread (the single-threaded core: threads are turned off)
`);
    const file = JSON.parse(await run(corpusFile(STRUX), '--no-intervals'));
    assert.deepEqual(file.profiles.map((profile) => profile.type), Array(10).fill('sampled'));
  });

const LIFE_CYCLE = '    Life cycle — StruxMacApp.app (pid 18689), life-cycle-period: 12 intervals, 289 s in all, ' +
  '1 lane: Launching - AppKit Scene Creation ×2, Background ×1, Spinning ×1, Foreground ×1, ' +
  'Initializing - Static Runtime Initialization ×1, …';

test('--list shows thread pools and all threads with the process, and the intervals read',
  { skip: CORPUS_SKIP }, async () => {
    const lines = (await run(corpusFile(STRUX), '--list')).trimEnd().split('\n');
    assert.deepEqual(lines.slice(2, 8), [
      '  table time-profile: 8,338 rows of CPU samples',
      '    process StruxMacApp.app (pid 18689): 8,338 samples, 10 threads',
      '      _dispatch_worker_thread2 0x461f64: 7,293 samples  [busiest]',
      '      Main Thread 0x461dcb: 956 samples',
      '      _dispatch_worker_thread2 ×5: 7,324 samples',
      '      All threads: 8,338 samples, 10 threads',
    ]);
    const intervals = lines.indexOf('  intervals:');
    assert.ok(intervals > 0, lines.join('\n'));
    // The Points of Interest are another process's: a virus scanner's, single events.
    assert.deepEqual(lines.slice(intervals + 1, intervals + 6), [
      '    Points of Interest — Protection.RuleMonitor — RTProtectionDaemon (pid 202), os-signpost: 93 intervals, 0 ns in all, 1 lane: SubmitRtpScan ×93',
      '    Points of Interest — Protection.ScanConveyor — RTProtectionDaemon (pid 202), os-signpost: 93 intervals, 0 ns in all, 1 lane: SubmitScan ×93',
      '    Thermal state, device-thermal-state-intervals: 3 intervals, 171 s in all, 1 lane: Nominal ×2, Fair ×1',
      LIFE_CYCLE,
      '    App spins — StruxMacApp.app (pid 18689), app-spin: 1 interval, 0 ns in all, 1 lane: spin-start ×1',
    ]);
    assert.equal(lines[intervals + 6], '  during intervals:');
    const others = lines.find((line) => line.startsWith('  other tables (not read): '));
    assert.doesNotMatch(others, /\bos-signpost \(/);
  });

test('the summary describes intervals and views; options.intervals false leaves them out',
  { skip: CORPUS_SKIP }, async () => {
    const summary = await summaryOf({});
    const kinds = new Set(summary.profiles.map((profile) => profile.kind));
    for (const kind of ['thread', 'all-threads', 'thread-pool', 'intervals']) assert.ok(kinds.has(kind), kind);
    // Strux has two os-signpost stores; the one with rows is read.
    assert.ok(summary.tables.some((table) => table.schema === 'os-signpost' && table.intervals));
    assert.equal(summary.tables.find((table) => table.schema === 'kdebug').intervals, false);
    summary.intervalSources.forEach((source, index) => {
      const lanes = summary.profiles.filter((profile) => profile.kind === 'intervals' && profile.intervalSource === index);
      assert.deepEqual(lanes.map((profile) => profile.lane), Array.from({ length: source.lanes }, (_, i) => i + 1));
      assert.equal(lanes.reduce((sum, profile) => sum + profile.sampleCount, 0), source.intervals, source.name);
      assert.equal(lanes.reduce((sum, profile) => sum + profile.sampleWeight, 0), source.totalDuration, source.name);
    });
    for (const profile of summary.profiles) {
      assert.equal(profile.lane > 0, profile.kind === 'intervals', profile.name);
      assert.equal(profile.intervalName !== '', profile.kind === 'during', profile.name);
      if (profile.kind === 'thread') assert.equal(profile.threads, 1);
    }
    const pool = summary.profiles.find((profile) => profile.kind === 'thread-pool');
    assert.equal(pool.threads, 5);
    assert.equal(summary.profiles[summary.activeProfileIndex].kind, 'thread');

    const cpuOnly = await summaryOf({ intervals: false });
    assert.deepEqual(new Set(cpuOnly.profiles.map((profile) => profile.kind)), new Set(['thread']));
    assert.equal(cpuOnly.profiles.length, 10);
    assert.deepEqual(cpuOnly.intervalSources, []);
    assert.ok(cpuOnly.tables.every((table) => !table.intervals));
    await assert.rejects(summaryOf({ intervals: 'no' }), { code: 'INVALID_ARGUMENT', message: /options\.intervals/ });
  });

test('the file the CLI writes holds the intervals as evented profiles that speedscope reads',
  { skip: CORPUS_SKIP }, async () => {
    const file = JSON.parse(await run(corpusFile(STRUX)));
    assertSpeedscopeSchema(file);
    const evented = file.profiles.filter((profile) => profile.type === 'evented');
    assert.ok(evented.length > 0);
    for (const profile of evented) {
      const opens = profile.events.filter((event) => event.type === 'O').length;
      assert.equal(opens, profile.events.length / 2, profile.name);
    }
  });
