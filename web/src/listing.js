// The text of `instrumentscope INPUT --list`: per run, the CPU tables with
// their processes and threads (thread pools and all threads together among
// them), the Allocations tables with their processes' profiles, the interval
// sources, and the profiles of samples during intervals and of weighted
// events; then how much is named, and the warnings.

import {
  allocationCount, busiestFirst, cpuOrder, plural, profileAmount, profileLabel, shortenName,
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
// first, then its profiles in listing order (cpuOrder).
function processLines(summary, indices) {
  const { profiles, activeProfileIndex } = summary;
  const threads = indices.filter((index) => profiles[index].kind === 'thread');
  const total = threads.reduce((sum, index) => sum + profiles[index].sampleCount, 0);
  const lead = busiestFirst(profiles, threads).slice(0, 1);
  const order = [...lead, ...cpuOrder(profiles, indices).filter((index) => !lead.includes(index))];
  return [
    `    process ${profiles[indices[0]].processLabel}: ${plural(total, 'sample')}, ${plural(threads.length, 'thread')}`,
    ...order.map((index) => profileLine(profiles[index], index === activeProfileIndex ? '  [busiest]' : '')),
  ];
}

function intervalSourceLines(sources) {
  if (!sources.length) return [];
  return ['  intervals:', ...sources.map((source) => {
    const process = source.processLabel ? ` — ${source.processLabel}` : '';
    // The most frequent names, with their counts: "SubmitScan ×93".
    const names = source.names.map(({ name, intervals }) => `${shortenName(name)} ×${intervals.toLocaleString('en')}`);
    return `    ${source.name}${process}, ${source.table}: ${plural(source.intervals, 'interval')}, ` +
      `${source.totalDurationText} in all, ${plural(source.lanes, 'lane')}` +
      (names.length ? `: ${names.join(', ')}${source.names.length < source.nameCount ? ', …' : ''}` : '');
  })];
}

// Profiles of one kind outside the CPU tables' listing, by process, busiest first.
function sectionLines(title, profiles, indices) {
  if (!indices.length) return [];
  const lines = [`  ${title}:`];
  for (const members of groupByProcess(profiles, indices)) {
    lines.push(`    process ${profiles[members[0]].processLabel}`);
    lines.push(...busiestFirst(profiles, members).map((index) => profileLine(profiles[index])));
  }
  return lines;
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
    const cpu = inRun.filter((index) => profiles[index].table === table.schema && CPU_KINDS.includes(profiles[index].kind));
    for (const members of groupByProcess(profiles, cpu)) lines.push(...processLines(summary, members));
  }
  for (const table of tables.filter((t) => t.allocations)) {
    const memory = inRun.filter((index) => profiles[index].table === table.schema &&
      ['allocations', 'vm-regions'].includes(profiles[index].kind));
    lines.push(...allocationLines(summary, table, memory));
  }
  lines.push(...intervalSourceLines(summary.intervalSources.filter((source) => source.run === run)));
  lines.push(...sectionLines('during intervals', profiles, ofKind('during')));
  lines.push(...sectionLines('weighted events', profiles, ofKind('weighted')));
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
  for (const warning of summary.warnings) lines.push(`warning: ${warning.message}`);
  return lines.join('\n') + '\n';
}

// The core's sentence, and where the CLI lists what folded code may be.
function namingNote({ text, folded }) {
  return `Names: ${text}${folded.length ? ' (--full-names lists the functions)' : ''}`;
}
