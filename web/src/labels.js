// How listings name, count and order a summary's profiles (see TraceSummary
// in index.d.ts), so that the CLI's --list and the page's pickers say the same
// things in the same order. Pure functions: no DOM, no Node.

/** Display names longer than this are shortened in the middle. */
export const NAME_LENGTH = 60;

/** "1,234 samples", "1 sample". */
export function plural(count, noun) {
  return `${count.toLocaleString('en')} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * `name` in at most `max` characters: its start and end with "…" between.
 * A trailing thread id (" 0x1a2b") or pool size (" ×5") stays whole, since
 * it is what tells apart threads of one name.
 */
export function shortenName(name, max = NAME_LENGTH) {
  const chars = [...name];  // code points: an emoji is never cut in two
  if (chars.length <= max) return name;
  const suffix = / (0x[0-9a-f]+|×[\d,]+)$/i.exec(name)?.[0] ?? '';
  const body = chars.slice(0, chars.length - suffix.length);
  const room = max - suffix.length - 1;
  const head = Math.ceil((room * 2) / 3);
  const start = body.slice(0, head).join('').trimEnd();
  const end = body.slice(body.length - (room - head)).join('').trimStart();
  return `${start}…${end}${suffix}`;
}

const BYTE_UNITS = [[2 ** 30, 'GiB'], [2 ** 20, 'MiB'], [2 ** 10, 'KiB']];

/** Bytes as Instruments counts them (1 KiB = 1024 bytes): "429.93 MiB", "512 bytes". */
export function formatBytes(bytes) {
  for (const [size, unit] of BYTE_UNITS) {
    if (bytes >= size) return `${(bytes / size).toFixed(2)} ${unit}`;
  }
  return plural(bytes, 'byte');
}

/**
 * Allocations of processes, each counted once: every process has profiles of
 * all its allocations and of those still alive, weighed and counted, and
 * the largest count is all of them.
 */
export function allocationCount(profiles) {
  const byProcess = new Map();
  for (const profile of profiles.filter((candidate) => candidate.kind === 'allocations')) {
    const key = `${profile.run}/${profile.processLabel}`;
    byProcess.set(key, Math.max(byProcess.get(key) ?? 0, profile.sampleCount));
  }
  return [...byProcess.values()].reduce((sum, count) => sum + count, 0);
}

/**
 * A profile as listed under its process: a thread by its label, any other
 * profile by the parts of its name the core lists under its process and run
 * (`listedName`: "All threads", "_dispatch_worker_thread2 ×5", "Main Thread
 * 0x1a — during hangs (4, 2.3 s)", "Points of Interest — com.example.app /
 * Networking — lane 2"), its first part shortened.
 */
export function profileLabel(profile) {
  if (profile.kind === 'thread') return shortenName(profile.threadLabel);
  const [first, ...rest] = profile.listedName;
  return [shortenName(first), ...rest].join(' — ');
}

/**
 * What a profile holds: "3,880 samples", "10,263 samples, 1,145 threads", "93
 * intervals", "84,671 allocations, 429.93 MiB".
 */
export function profileAmount(profile) {
  if (profile.kind === 'intervals') return plural(profile.sampleCount, 'interval');
  if (isWeighted(profile) || (profile.kind === 'during' && profile.weighs !== '')) {
    // Consecutive events of one stack are one sample: what they weigh is told, not their count.
    const weight = profile.unit === 'nanoseconds' ? profile.weightText : plural(profile.sampleWeight, 'event');
    return profile.kind === 'all-threads' ? `${weight}, ${plural(profile.threads, 'thread')}` : weight;
  }
  if (profile.kind === 'allocations' || profile.kind === 'vm-regions') {
    const count = plural(profile.sampleCount, profile.kind === 'allocations' ? 'allocation' : 'region');
    return profile.unit === 'bytes' ? `${count}, ${formatBytes(profile.sampleWeight)}` : count;
  }
  const samples = plural(profile.sampleCount, 'sample');
  return profile.kind === 'all-threads' ? `${samples}, ${plural(profile.threads, 'thread')}` : samples;
}

// How busy a profile is: its samples, or what its events weigh (consecutive
// events of one stack are one sample).
const busyness = (profile) => (isWeighted(profile) ? profile.sampleWeight : profile.sampleCount);

/** Indices (into `profiles`) of the busiest profile first, ties in profile order. */
export function busiestFirst(profiles, indices) {
  return [...indices].sort((a, b) => busyness(profiles[b]) - busyness(profiles[a]));
}

/**
 * Whether a profile weighs events of a table other than CPU samples (system
 * calls, time off the CPU, page faults, a counter's counts), or is a view of
 * such profiles: the core says what they weigh.
 */
export function isWeighted(profile) {
  return profile.kind === 'weighted' ||
    (['all-threads', 'thread-pool'].includes(profile.kind) && profile.weighs !== '');
}

// One thread's own profile: its CPU samples, or its events of another table.
const isOneThread = (profile) => profile.kind === 'thread' || profile.kind === 'weighted';
const isMainThread = (profile) => isOneThread(profile) && /^Main Thread\b/.test(profile.threadName);

/**
 * A process's profiles of threads (indices into `profiles`: CPU samples, or
 * events of one kind) in listing order: what one looks for first in a
 * process of a thousand threads — its main thread, its busiest thread pool,
 * all its threads together — then its other pools and threads, busiest first.
 */
export function threadOrder(profiles, indices) {
  const ordered = busiestFirst(profiles, indices);
  const of = (test) => ordered.filter((index) => test(profiles[index]));
  const [busiestPool, ...pools] = of((profile) => profile.kind === 'thread-pool');
  return [
    ...of(isMainThread),
    ...(busiestPool === undefined ? [] : [busiestPool]),
    ...of((profile) => profile.kind === 'all-threads'),
    ...pools,
    ...of((profile) => isOneThread(profile) && !isMainThread(profile)),
  ];
}

// What is looked at first when an app hung: where its threads waited.
const WAITING = ['time off CPU', 'wait in system calls'];

/**
 * The kinds of weighted events among `profiles` (their `weighs`): where
 * threads waited first, then the others as they come.
 */
export function weightedKinds(profiles) {
  const kinds = [...new Set(profiles.filter(isWeighted).map((profile) => profile.weighs))];
  return [...WAITING.filter((kind) => kinds.includes(kind)), ...kinds.filter((kind) => !WAITING.includes(kind))];
}

/** How many threads an import ran on, on which core, and why not the threaded one (--list, the page's tooltip). */
export function threadsNote({ importThreads, core }) {
  return core.threaded ? `Imported on ${importThreads} of ${plural(core.threads, 'thread')} (the threaded core)`
    : `Imported on 1 thread (the single-threaded core: ${core.why})`;
}

/** The same in a few words, for the page's status line. */
export function threadsShort({ importThreads, core }) {
  return core.threaded ? `Threads: ${importThreads} of ${core.threads}` : 'Threads: 1 (single-threaded core)';
}
