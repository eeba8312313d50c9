// The text of `instrumentscope INPUT --list`: per run, the CPU tables with
// their processes and threads (thread pools and all threads together among
// them), the Allocations tables with their processes' profiles, the interval
// sources, and the profiles of samples during intervals and of weighted
// events; then how much is named, and the warnings.

import {
  allocationCount, busiestFirst, isWeighted, plural, profileAmount, profileLabel, shortenName,
  threadOrder, threadsNote, weightedKinds,
} from './labels.js';

const CPU_KINDS = ['thread', 'thread-pool', 'all-threads'];

function groupByProcess(profiles, indices) {
  const processes = new Map();
  for (const index of indices) {
    const key = profiles[index].processLabel;
    if (!processes.has(key)) processes.set(key, []);
    processes.get(key).push(index);
  }
  return [...processes.values()];
}

function profileLine(profile, suffix = '') {
  return `      ${profileLabel(profile)}: ${profileAmount(profile)}${suffix}`;
}

// A process of a CPU table: its busiest thread first, as the one opened
// first, then its profiles in listing order (threadOrder).
function processLines(summary, indices) {
  const { profiles, activeProfileIndex } = summary;
  const threads = indices.filter((index) => profiles[index].kind === 'thread');
  const total = threads.reduce((sum, index) => sum + profiles[index].sampleCount, 0);
  const lead = busiestFirst(profiles, threads).slice(0, 1);
  const order = [...lead, ...threadOrder(profiles, indices).filter((index) => !lead.includes(index))];
  return [
    `    process ${profiles[indices[0]].processLabel}: ${plural(total, 'sample')}, ${plural(threads.length, 'thread')}`,
    ...order.map((index) => profileLine(profiles[index], index === activeProfileIndex ? '  [busiest]' : '')),
  ];
}

// "96%", "0.4%", "<0.1%": a part of a whole.
function share(part, whole) {
  const percent = whole > 0 ? (100 * part) / whole : 0;
  if (percent > 0 && percent < 0.1) return '<0.1%';
  return `${percent >= 10 ? Math.round(percent) : percent.toFixed(1)}%`;
}

function intervalSourceLines(sources) {
  if (!sources.length) return [];
  return ['  intervals:', ...sources.map((source) => {
    const process = source.processLabel ? ` — ${source.processLabel}` : '';
    // The most frequent names, with their counts: "SubmitScan ×93"; a
    // thread's states, longest first, with their time and share: "Blocked 141 ms (96%)".
    const names = source.states
      ? [...source.names].sort((a, b) => b.totalDuration - a.totalDuration).map(({ name, totalDuration, totalDurationText }) =>
        `${name} ${totalDurationText} (${share(totalDuration, source.totalDuration)})`)
      : source.names.map(({ name, intervals }) => `${shortenName(name)} ×${intervals.toLocaleString('en')}`);
    return `    ${source.name}${process}, ${source.table}: ${plural(source.intervals, 'interval')}, ` +
      `${source.totalDurationText} in all, ${plural(source.lanes, 'lane')}` +
      (names.length ? `: ${names.join(', ')}${source.names.length < source.nameCount ? ', …' : ''}` : '');
  })];
}

// Profiles of one kind outside the CPU tables' listing, by process, in
// `order` (busiest first).
function sectionLines(title, profiles, indices, order = busiestFirst) {
  if (!indices.length) return [];
  const lines = [`  ${title}:`];
  for (const members of groupByProcess(profiles, indices)) {
    lines.push(`    process ${profiles[members[0]].processLabel}`);
    lines.push(...order(profiles, members).map((index) => profileLine(profiles[index])));
  }
  return lines;
}

// Events of other tables, a section per kind, where threads waited first:
// each process's main thread, then its threads together, then the others.
function weightedLines(profiles, indices) {
  return weightedKinds(indices.map((index) => profiles[index])).flatMap((weighs) => sectionLines(
    `weighted events, ${weighs}`, profiles,
    indices.filter((index) => isWeighted(profiles[index]) && profiles[index].weighs === weighs), threadOrder));
}

// An Allocations table: per process, its profiles in their own order (all
// allocations, those still alive, by bytes then counted; VM regions).
function allocationLines(summary, table, indices) {
  const { profiles, activeProfileIndex } = summary;
  const lines = [`  table ${table.schema}: ${plural(table.rows, 'event')}`];
  for (const members of groupByProcess(profiles, indices)) {
    const allocations = allocationCount(members.map((index) => profiles[index]));
    const { processLabel, threads } = profiles[members[0]];
    lines.push(`    process ${processLabel}: ${plural(allocations, 'allocation')} by ${plural(threads, 'thread')}`);
    lines.push(...members.map((index) => profileLine(profiles[index], index === activeProfileIndex ? '  [opens first]' : '')));
  }
  return lines;
}

function runLines(summary, run) {
  const { profiles } = summary;
  const lines = [`Run ${run}`];
  const tables = summary.tables.filter((table) => table.run === run);
  const inRun = [...profiles.keys()].filter((index) => profiles[index].run === run);
  const ofKind = (kind) => inRun.filter((index) => profiles[index].kind === kind);
  for (const table of tables.filter((t) => t.cpuSamples)) {
    // A Deep Copy's rows are the nodes of its call tree, not samples.
    const rows = table.schema === 'Deep Copy' ? 'call-tree row' : 'row';
    lines.push(`  table ${table.schema}: ${plural(table.rows, rows)}${rows === 'row' ? ' of CPU samples' : ''}`);
    const cpu = inRun.filter((index) => profiles[index].table === table.schema &&
      CPU_KINDS.includes(profiles[index].kind) && !isWeighted(profiles[index]));
    for (const members of groupByProcess(profiles, cpu)) lines.push(...processLines(summary, members));
  }
  for (const table of tables.filter((t) => t.allocations)) {
    const memory = inRun.filter((index) => profiles[index].table === table.schema &&
      ['allocations', 'vm-regions'].includes(profiles[index].kind));
    lines.push(...allocationLines(summary, table, memory));
  }
  lines.push(...intervalSourceLines(summary.intervalSources.filter((source) => source.run === run)));
  lines.push(...sectionLines('during intervals', profiles, ofKind('during')));
  lines.push(...weightedLines(profiles, inRun));
  // Tables read neither as CPU samples nor as intervals or events: named, not
  // read. (A run can hold two stores of one table, one of them empty.)
  const read = new Set(tables.filter((t) => t.cpuSamples || t.intervals || t.allocations).map((t) => t.schema));
  const others = new Map();
  for (const table of tables.filter((t) => !read.has(t.schema))) {
    others.set(table.schema, (others.get(table.schema) ?? 0) + table.rows);
  }
  if (others.size) {
    const names = [...others].map(([schema, rows]) => `${schema} (${plural(rows, 'row')})`);
    lines.push(`  other tables (not read): ${names.join(', ')}`);
  }
  return lines;
}

/** The --list text of an import's summary (see TraceSummary in index.d.ts). */
export function formatList(summary) {
  const lines = [];
  if (summary.instruments.length) lines.push(`Instruments: ${summary.instruments.join(', ')}`);
  const runs = [...new Set(summary.tables.map((table) => table.run))].sort((a, b) => a - b);
  for (const run of runs) lines.push(...runLines(summary, run));
  // A recording of intervals alone has no frames to name.
  if (summary.naming.text) lines.push(namingNote(summary.naming));
  if (summary.core) lines.push(threadsNote(summary));
  for (const warning of summary.warnings) lines.push(`warning: ${warning.message}`);
  return lines.join('\n') + '\n';
}

// The core's sentence, and where the CLI lists what folded code may be.
function namingNote({ text, folded }) {
  return `Names: ${text}${folded.length ? ' (--full-names lists the functions)' : ''}`;
}
