// How listings name, count and order profiles (web/src/labels.js), and the
// CLI's --list text made from a summary (web/src/listing.js): pure functions,
// tested on summaries written here.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  plural, profileAmount, profileLabel, shortenName, threadOrder, weightedKinds,
} from '../../web/src/labels.js';
import { formatList } from '../../web/src/listing.js';

const PROCESS = 'StruxMacApp.app (pid 18689)';

// A summary's profile entry, as cpp/report/summary.cc writes one: unless
// given, its listed name is its name's parts other than the process and run.
function profile(fields) {
  const threadName = fields.threadName ?? '';
  const name = fields.name ?? `${threadName} — ${PROCESS}`;
  const listedName = name.split(' — ').filter((part) => part !== PROCESS && !/^run \d+$/.test(part));
  return {
    kind: 'thread', unit: 'nanoseconds', startValue: 0, endValue: 1e9, threadName,
    threadLabel: threadName || 'unnamed thread', tid: 0, processName: 'StruxMacApp.app', pid: 18689,
    processLabel: PROCESS, run: 1, table: 'time-profile', sampleCount: 0, sampleWeight: 0, threads: 1,
    intervalSource: null, lane: 0, intervalName: '', name, listedName, weighs: '', weightText: '', ...fields,
  };
}

const thread = (threadName, sampleCount) => profile({ threadName, sampleCount });

test('shortenName keeps short names, and the start, end and thread id of long ones', () => {
  assert.equal(shortenName('Main Thread 0x461dcb'), 'Main Thread 0x461dcb');
  const long = 'void* std::__1::__thread_proxy<std::__1::tuple<std::__1::unique_ptr<std::__1::__thread_struct>, ' +
    'void (*)(void*), void*>>(void*) 0x1a2b3c';
  const short = shortenName(long);
  assert.equal([...short].length, 60);
  assert.ok(short.startsWith('void* std::__1::__thread_proxy<'), short);
  assert.ok(short.endsWith('>>(void*) 0x1a2b3c'), short);
  assert.match(short, /[^ ]…[^ ]/);
  // A pool's size stays whole too; without a suffix, the name's own end shows.
  assert.match(shortenName(`${'x'.repeat(100)} ×1,140`), /^x+…x+ ×1,140$/);
  assert.equal(shortenName('a'.repeat(100), 10), 'aaaaaa…aaa');
  // Code points, not UTF-16 units: an emoji is never cut in two.
  const emoji = shortenName('🔥'.repeat(80));
  assert.equal([...emoji].length, 60);
  assert.match(emoji, /^🔥+…🔥+$/u);
});

test('counts read as a person writes them', () => {
  assert.equal(plural(1, 'sample'), '1 sample');
  assert.equal(plural(10263, 'sample'), '10,263 samples');
});

test('profiles are labelled without the process and run their listing shows', () => {
  assert.equal(profileLabel(thread('Main Thread 0x461dcb', 956)), 'Main Thread 0x461dcb');
  const all = profile({
    kind: 'all-threads', name: `All threads — ${PROCESS} — run 2`, listedName: ['All threads'], run: 2, threads: 1145,
    sampleCount: 10263,
  });
  assert.equal(profileLabel(all), 'All threads');
  assert.equal(profileAmount(all), '10,263 samples, 1,145 threads');
  const during = profile({
    kind: 'during', name: `Main Thread 0x461dcb — during hangs (4, 2.3 s) — ${PROCESS}`,
    listedName: ['Main Thread 0x461dcb', 'during hangs (4, 2.3 s)'], sampleCount: 120,
  });
  assert.equal(profileLabel(during), 'Main Thread 0x461dcb — during hangs (4, 2.3 s)');
  const lane = profile({
    kind: 'intervals', name: `Points of Interest — com.example.app / Networking — ${PROCESS} — run 2 — lane 2`,
    listedName: ['Points of Interest — com.example.app / Networking', 'lane 2'], run: 2, sampleCount: 12, lane: 2,
  });
  assert.equal(profileLabel(lane), 'Points of Interest — com.example.app / Networking — lane 2');
  assert.equal(profileAmount(lane), '12 intervals');
  // Events of other tables: what they weigh, not their samples (runs of one stack are one).
  const waits = profile({ kind: 'weighted', sampleCount: 1, sampleWeight: 134_454_711, weighs: 'wait in system calls',
    weightText: '134 ms' });
  assert.equal(profileAmount(waits), '134 ms');
  assert.equal(profileAmount({ ...waits, kind: 'all-threads', threads: 3 }), '134 ms, 3 threads');
  assert.equal(profileAmount({ ...waits, unit: 'none', sampleWeight: 9_115_110, weighs: 'counter 1' }),
    '9,115,110 events');
  // Those during hangs too; a CPU thread's samples during them are counted.
  assert.equal(profileAmount({ ...waits, kind: 'during' }), '134 ms');
  assert.equal(profileAmount(profile({ kind: 'during', sampleCount: 120 })), '120 samples');
});

test('a process lists its main thread, busiest pool and all threads first, then pools and threads', () => {
  const profiles = [
    thread('_dispatch_worker_thread2 0x461f64', 7293),
    thread('Main Thread 0x461dcb', 956),
    thread('_NSEventThread 0x461f71', 52),
    thread('_dispatch_worker_thread2 0x461f63', 15),
    profile({ kind: 'all-threads', name: `All threads — ${PROCESS}`, threads: 4, sampleCount: 8316 }),
    profile({ kind: 'thread-pool', name: `_dispatch_worker_thread2 ×2 — ${PROCESS}`, threads: 2, sampleCount: 7308 }),
    profile({ kind: 'thread-pool', name: `_NSEventThread ×2 — ${PROCESS}`, threads: 2, sampleCount: 60 }),
  ];
  assert.deepEqual(threadOrder(profiles, [...profiles.keys()]), [1, 5, 4, 6, 0, 2, 3]);
  assert.deepEqual(threadOrder(profiles, [0, 2, 3]), [0, 2, 3]);
});

test('a System Trace: where threads waited comes first, its main thread first', () => {
  const weighted = (threadName, weighs, sampleWeight) => profile({
    kind: 'weighted', threadName, weighs, sampleWeight, sampleCount: 3, table: 'syscall',
    name: `${threadName} — ${PROCESS} — ${weighs}`,
  });
  const profiles = [
    weighted('Thread 0x71a7be', 'time in system calls', 900),
    weighted('Main Thread 0x20dfe6', 'time in system calls', 100),
    weighted('Thread 0x71a7be', 'wait in system calls', 800),
    weighted('Main Thread 0x20dfe6', 'wait in system calls', 90),
    weighted('Main Thread 0x20dfe6', 'time off CPU', 140),
    profile({ kind: 'all-threads', weighs: 'time off CPU', threads: 2, sampleCount: 9,
      name: `All threads — ${PROCESS} — time off CPU` }),
    thread('Main Thread 0x20dfe6', 5),  // CPU samples: no kind of weighted events
  ];
  assert.deepEqual(weightedKinds(profiles), ['time off CPU', 'wait in system calls', 'time in system calls']);
  // The main thread first, whatever it weighs, then all threads together, then the others.
  assert.deepEqual(threadOrder(profiles, [0, 1]), [1, 0]);
  assert.deepEqual(threadOrder(profiles, [4, 5]), [4, 5]);
});

test('--list: CPU tables with pools and all threads, then intervals, samples during them and weighted events', () => {
  const summary = {
    instruments: ['Time Profiler', 'Points of Interest'],
    activeProfileIndex: 0,
    profiles: [
      thread('_dispatch_worker_thread2 0x461f64', 7293),
      thread('Main Thread 0x461dcb', 956),
      thread('_NSEventThread 0x461f71', 52),
      thread('_dispatch_worker_thread2 0x461f63', 15),
      profile({ kind: 'weighted', threadName: 'Main Thread 0x461dcb', table: 'virtual-memory', sampleCount: 40,
        sampleWeight: 402_337, weighs: 'time in page faults', weightText: '402 µs',
        name: `Main Thread 0x461dcb — ${PROCESS} — time in page faults` }),
      profile({ kind: 'all-threads', name: `All threads — ${PROCESS}`, threads: 4, sampleCount: 8316 }),
      profile({ kind: 'thread-pool', name: `_dispatch_worker_thread2 ×2 — ${PROCESS}`, threads: 2, sampleCount: 7308 }),
      ...[1, 2].map((lane) => profile({
        kind: 'intervals', table: 'os-signpost', intervalSource: 0, lane, sampleCount: 90 / lane,
        name: `Points of Interest — com.apple.Strux / default — ${PROCESS}${lane > 1 ? ` — lane ${lane}` : ''}`,
      })),
      profile({ kind: 'during', threadName: 'Main Thread 0x461dcb', intervalSource: 0, intervalName: 'Load feed',
        sampleCount: 120, name: `Main Thread 0x461dcb — during "Load feed" (12, 0.8 s) — ${PROCESS}` }),
    ],
    intervalSources: [{
      run: 1, table: 'os-signpost', name: 'Points of Interest — com.apple.Strux / default',
      processLabel: PROCESS, pid: 18689, intervals: 135, totalDuration: 12_345_678_901, totalDurationText: '12.3 s', lanes: 2,
      names: [{ name: 'Load feed', intervals: 12, totalDuration: 8e8 }, { name: 'Tap', intervals: 9, totalDuration: 0 }],
      nameCount: 7,
    }, {
      run: 1, table: 'device-thermal-state-intervals', name: 'Thermal State',
      processLabel: '', pid: null, intervals: 1, totalDuration: 90e9, totalDurationText: '90 s', lanes: 1,
      names: [{ name: 'Nominal', intervals: 1, totalDuration: 90e9 }], nameCount: 1,
    }],
    tables: [
      { run: 1, schema: 'time-profile', rows: 8338, cpuSamples: true, intervals: false },
      { run: 1, schema: 'os-signpost', rows: 186, cpuSamples: false, intervals: true },
      { run: 1, schema: 'virtual-memory', rows: 40, cpuSamples: false, intervals: true },
      { run: 1, schema: 'kdebug', rows: 11660, cpuSamples: false, intervals: false },
    ],
    naming: {
      sampledFrames: 3280, unnamedFrames: 43, images: [], folded: [], text: '3,237 of 3,280 sampled frames named (98.6%)',
    },
    warnings: [],
  };
  assert.equal(formatList(summary), `Instruments: Time Profiler, Points of Interest
Run 1
  table time-profile: 8,338 rows of CPU samples
    process ${PROCESS}: 8,316 samples, 4 threads
      _dispatch_worker_thread2 0x461f64: 7,293 samples  [busiest]
      Main Thread 0x461dcb: 956 samples
      _dispatch_worker_thread2 ×2: 7,308 samples
      All threads: 8,316 samples, 4 threads
      _NSEventThread 0x461f71: 52 samples
      _dispatch_worker_thread2 0x461f63: 15 samples
  intervals:
    Points of Interest — com.apple.Strux / default — StruxMacApp.app (pid 18689), os-signpost: 135 intervals, 12.3 s in all, 2 lanes: Load feed ×12, Tap ×9, …
    Thermal State, device-thermal-state-intervals: 1 interval, 90 s in all, 1 lane: Nominal ×1
  during intervals:
    process ${PROCESS}
      Main Thread 0x461dcb — during "Load feed" (12, 0.8 s): 120 samples
  weighted events, time in page faults:
    process ${PROCESS}
      Main Thread 0x461dcb — time in page faults: 402 µs
  other tables (not read): kdebug (11,660 rows)
Names: 3,237 of 3,280 sampled frames named (98.6%)
`);
});

test('--list shortens long thread names and lists a run of intervals alone', () => {
  const name = `com.apple.root.default-qos.overcommit ${'worker '.repeat(12)}0x1f2e3d`;
  const summary = {
    instruments: [],
    activeProfileIndex: 0,
    profiles: [
      profile({ threadName: name, sampleCount: 3, name: `${name} — ${PROCESS}` }),
      profile({ kind: 'intervals', run: 2, table: 'potential-hangs', intervalSource: 0, lane: 1, sampleCount: 4,
        name: `Hangs — ${PROCESS} — run 2` }),
    ],
    intervalSources: [{
      run: 2, table: 'potential-hangs', name: 'Hangs', processLabel: PROCESS, pid: 18689, intervals: 4,
      totalDuration: 2_300_000_000, totalDurationText: '2.3 s', lanes: 1, names: [], nameCount: 0,
    }],
    tables: [
      { run: 1, schema: 'time-profile', rows: 3, cpuSamples: true, intervals: false },
      { run: 2, schema: 'potential-hangs', rows: 4, cpuSamples: false, intervals: true },
    ],
    naming: { sampledFrames: 0, unnamedFrames: 0, images: [], folded: [], text: '' },
    warnings: [{ code: 'W', message: 'a warning' }],
  };
  const lines = formatList(summary).trimEnd().split('\n');
  assert.equal(lines[3], '      com.apple.root.default-qos.overcom…er worker worker 0x1f2e3d: 3 samples  [busiest]');
  assert.deepEqual(lines.slice(4), [
    'Run 2',
    '  intervals:',
    '    Hangs — StruxMacApp.app (pid 18689), potential-hangs: 4 intervals, 2.3 s in all, 1 lane',
    'warning: a warning',
  ]);
});
