// The Firefox Profiler's processed format (version 69) as rules a file must
// keep for the profiler to read it: the shapes of src/types/profile.ts in the
// profiler's sources, and what its loader and selectors rely on (every index
// in range, columns as long as their table, strings interned, samples in time
// order, a grey category for stacks without one).
import assert from 'node:assert/strict';

const VERSION = 69;
const CATEGORY_COLORS = new Set(['transparent', 'purple', 'green', 'orange', 'yellow', 'lightblue',
  'blue', 'brown', 'magenta', 'red', 'lightred', 'darkgrey', 'grey']);
const WEIGHT_TYPES = new Set(['samples', 'tracing-ms', 'bytes']);
const MARKER_DISPLAYS = new Set(['marker-chart', 'marker-table', 'timeline-overview', 'timeline-memory',
  'timeline-ipc', 'timeline-fileio', 'stack-chart']);
const FIELD_FORMATS = new Set(['url', 'file-path', 'sanitized-string', 'string', 'unique-string',
  'flow-id', 'terminating-flow-id', 'duration', 'time', 'seconds', 'milliseconds', 'microseconds',
  'nanoseconds', 'bytes', 'percentage', 'integer', 'decimal', 'hexadecimal', 'pid', 'tid', 'list']);
// Names the profiler's own schemas take over.
const RESERVED_SCHEMAS = new Set(['Jank', 'IPC', 'Network']);

// What each table must have: its columns, each checked value by value.
const index = (limit, nullable = false) => (value) =>
  (nullable && value === null) || (Number.isInteger(value) && value >= 0 && value < limit);
const integer = (value) => Number.isInteger(value);
const optionalInteger = (value) => value === null || Number.isInteger(value);

function checkTable(table, columns, where) {
  assert.ok(table && typeof table === 'object', `${where}: a table`);
  assert.ok(Number.isInteger(table.length) && table.length >= 0, `${where}.length`);
  for (const [column, valid] of Object.entries(columns)) {
    const values = table[column];
    assert.ok(Array.isArray(values), `${where}.${column}: a column`);
    assert.equal(values.length, table.length, `${where}.${column}: as long as the table`);
    for (let i = 0; i < values.length; i++) {
      if (!valid(values[i], i)) assert.fail(`${where}.${column}[${i}] = ${JSON.stringify(values[i])}`);
    }
  }
}

function checkMeta(meta, threadCount) {
  for (const key of ['interval', 'startTime', 'processType', 'version', 'stackwalk']) {
    assert.equal(typeof meta[key], 'number', `meta.${key}`);
  }
  assert.ok(meta.interval > 0, 'meta.interval');
  assert.equal(meta.preprocessedProfileVersion, VERSION);
  assert.equal(typeof meta.product, 'string');
  assert.equal(typeof meta.symbolicated, 'boolean');
  assert.ok(meta.profilingStartTime <= meta.profilingEndTime, 'meta.profiling…Time');
  assert.ok(meta.categories.length > 0 && meta.categories.length <= 256, 'meta.categories');
  for (const category of meta.categories) {
    assert.equal(typeof category.name, 'string');
    assert.ok(CATEGORY_COLORS.has(category.color), `category color ${category.color}`);
    assert.ok(category.subcategories.length >= 1, 'subcategories[0] is the category itself');
  }
  assert.ok(meta.categories.some((category) => category.color === 'grey'), 'a grey category');
  const schemaNames = new Set();
  for (const schema of meta.markerSchema) {
    assert.ok(!schemaNames.has(schema.name), `marker schema ${schema.name} once`);
    assert.ok(!RESERVED_SCHEMAS.has(schema.name), `marker schema ${schema.name} is the profiler's`);
    schemaNames.add(schema.name);
    assert.ok(schema.display.every((display) => MARKER_DISPLAYS.has(display)), schema.name);
    for (const field of schema.fields) {
      assert.equal(typeof field.key, 'string');
      assert.ok(FIELD_FORMATS.has(field.format), `${schema.name}.${field.key}: format ${field.format}`);
    }
    for (const label of ['chartLabel', 'tooltipLabel', 'tableLabel']) {
      // Templates name only the marker's own fields.
      for (const [, key] of (schema[label] ?? '').matchAll(/\{marker\.data\.(\w+)\}/g)) {
        assert.ok(schema.fields.some((field) => field.key === key), `${schema.name}.${label}: ${key}`);
      }
    }
  }
  for (const list of ['initialVisibleThreads', 'initialSelectedThreads']) {
    for (const thread of meta[list] ?? []) assert.ok(index(threadCount)(thread), `meta.${list}: ${thread}`);
  }
  return schemaNames;
}

function checkShared(profile) {
  const { shared, libs } = profile;
  const strings = shared.stringArray;
  assert.ok(Array.isArray(strings) && strings.every((text) => typeof text === 'string'), 'stringArray');
  assert.equal(new Set(strings).size, strings.length, 'strings are interned: each once');
  const string = index(strings.length);
  const categories = profile.meta.categories.length;
  checkTable(shared.stackTable, {
    frame: index(shared.frameTable.length),
    // 0: a root; else the parent, which comes before it.
    prefixOffset: (offset, i) => Number.isInteger(offset) && offset >= 0 && offset <= i,
  }, 'stackTable');
  checkTable(shared.frameTable, {
    address: (address) => Number.isInteger(address) && address >= -1 && address < 2 ** 31,
    inlineDepth: (depth) => Number.isInteger(depth) && depth >= 0,
    category: index(categories, true),
    subcategory: optionalInteger,
    func: index(shared.funcTable.length),
    nativeSymbol: index(shared.nativeSymbols.length, true),
    innerWindowID: optionalInteger,
    line: optionalInteger,
    column: optionalInteger,
    originalLocation: index(shared.sourceLocationTable.length, true),
  }, 'frameTable');
  checkTable(shared.funcTable, {
    name: string,
    isJS: (value) => typeof value === 'boolean',
    relevantForJS: (value) => typeof value === 'boolean',
    resource: (resource) => resource === -1 || index(shared.resourceTable.length)(resource),
    source: index(shared.sources.length, true),
    lineNumber: optionalInteger,
    columnNumber: optionalInteger,
    originalLocation: index(shared.sourceLocationTable.length, true),
  }, 'funcTable');
  checkTable(shared.resourceTable, {
    lib: index(libs.length, true), name: string, host: (host) => host === null || string(host), type: integer,
  }, 'resourceTable');
  checkTable(shared.nativeSymbols, {
    libIndex: index(libs.length), address: integer, name: string, functionSize: optionalInteger,
  }, 'nativeSymbols');
  checkTable(shared.sources, {
    id: (id) => id === null || typeof id === 'string', filename: string, startLine: integer,
    startColumn: integer, sourceMapURL: (url) => url === null || string(url),
    content: (content) => content === null || typeof content === 'string',
  }, 'sources');
  checkTable(shared.sourceLocationTable, {
    source: index(shared.sources.length), line: integer, column: integer,
  }, 'sourceLocationTable');
  for (const lib of libs) {
    for (const key of ['arch', 'name', 'path', 'debugName', 'debugPath', 'breakpadId']) {
      assert.equal(typeof lib[key], 'string', `lib.${key}`);
    }
    assert.ok(lib.breakpadId === '' || /^[0-9A-F]{33}$/.test(lib.breakpadId), lib.breakpadId);
  }
}

function checkThread(thread, profile, schemaNames, where) {
  const strings = profile.shared.stringArray;
  const schemaFields = new Map(profile.meta.markerSchema.map((schema) =>
    [schema.name, new Set(schema.fields.map((field) => field.key))]));
  for (const key of ['processStartupTime', 'registerTime']) assert.equal(typeof thread[key], 'number', key);
  assert.equal(thread.processType, 'default');
  assert.ok(Array.isArray(thread.pausedRanges));
  assert.equal(typeof thread.name, 'string');
  assert.equal(typeof thread.isMainThread, 'boolean');
  assert.equal(typeof thread.pid, 'string', `${where}.pid is a string`);
  assert.ok(['number', 'string'].includes(typeof thread.tid), `${where}.tid`);
  const { samples, markers } = thread;
  assert.ok(WEIGHT_TYPES.has(samples.weightType), `${where}: weightType ${samples.weightType}`);
  assert.ok(!('time' in samples), 'timeDeltas, not time');
  checkTable(samples, {
    stack: index(profile.shared.stackTable.length, true),
    // After the first (the time of the first sample), never back in time.
    timeDeltas: (delta, i) => typeof delta === 'number' && Number.isFinite(delta) && (i === 0 || delta >= 0),
    ...(samples.weight === null ? {} : { weight: (weight) => typeof weight === 'number' && weight >= 0 }),
  }, `${where}.samples`);
  checkTable(markers, {
    // Every key a marker's data has is a field of its schema; unique strings are indices.
    data: (data) => data === null || (schemaNames.has(data.type) &&
      Object.keys(data).every((key) => key === 'type' || schemaFields.get(data.type).has(key)) &&
      ['label', 'source', 'detail'].every((key) => !(key in data) ||
        (Number.isInteger(data[key]) && data[key] < strings.length))),
    name: index(strings.length),
    startTime: (time) => typeof time === 'number',
    endTime: (time, i) => typeof time === 'number' && time >= markers.startTime[i],
    phase: (phase) => phase === 1,  // intervals
    category: index(profile.meta.categories.length),
  }, `${where}.markers`);
  if ('nativeAllocations' in thread) {
    const heap = thread.nativeAllocations;
    assert.ok(heap.length > 0, 'no empty allocation tables: the profiler reads their first time');
    assert.equal(heap.weightType, 'bytes');
    checkTable(heap, {
      time: (time, i) => typeof time === 'number' && (i === 0 || time >= heap.time[i - 1]),
      weight: integer,
      stack: index(profile.shared.stackTable.length, true),
      // Exact in a JavaScript number.
      memoryAddress: (address) => Number.isSafeInteger(address) && address >= 0,
      threadId: integer,
    }, `${where}.nativeAllocations`);
  }
}

/** Throws unless `profile` keeps the format's rules. */
export function assertFirefoxFormat(profile) {
  assert.ok(profile.threads.length > 0, 'a thread at least: the profiler refuses a file of none');
  const schemaNames = checkMeta(profile.meta, profile.threads.length);
  checkShared(profile);
  const tids = new Set();
  profile.threads.forEach((thread, i) => {
    const where = `threads[${i}] (${thread.name})`;
    checkThread(thread, profile, schemaNames, where);
    assert.ok(!tids.has(thread.tid), `${where}: tid ${thread.tid} is another thread's`);
    tids.add(thread.tid);
  });
}

/** A thread's sample times in ms: the running sums of its timeDeltas. */
export function sampleTimes(samples) {
  let time = 0;
  return samples.timeDeltas.map((delta) => (time += delta));
}

/** A stack's frames, root first, as frame indices. */
export function stackFrames(shared, stack) {
  if (stack === null) return [];
  const frames = [];
  for (let node = stack; ; node -= shared.stackTable.prefixOffset[node]) {
    frames.push(shared.stackTable.frame[node]);
    if (shared.stackTable.prefixOffset[node] === 0) break;
  }
  return frames.reverse();
}
