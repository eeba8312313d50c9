#!/usr/bin/env node
// Where an import's time goes, phase by phase: inflating, libxml2's
// tokenizer, the importer's own reading of rows and ids, the profile builder,
// the JSON writer, memory management, and Node around the core.
// - WebAssembly: a V8 CPU profile (node --cpu-prof) of the CLI's path
//   through the core built with its functions' names
//   (instrumentscope-core-named, the shipped link plus --profiling-funcs),
//   with V8's optimizing tier, as the CLI runs inputs over 32 MB.
// - Native: perf's cpu-clock samples of build/native/instrumentscope-native.
// Each function's own time is counted to the phase its name belongs to.
//   node bench/phases.js [INPUT] [--top N]
// INPUT defaults to the 200 MB export bench/run.js grows. Writes the table to
// stdout and build/bench/phases.md.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openAsBlob, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = process.env.INSTRUMENTSCOPE_CORPUS ?? join(ROOT, '..', 'shared', 'corpus');
const OUT = join(ROOT, 'build', 'bench');
const WASM_BUILD = join(ROOT, 'build', 'wasm');
const NAMED = join(WASM_BUILD, 'instrumentscope-core-named');
const NATIVE = join(ROOT, 'build', 'native', 'instrumentscope-native');
const SEED = join(CORPUS, 'openjdk__jmh/jmh-core/src/test/resources/org.openjdk.jmh.profile.xctrace/time-profile.xml');
const DEFAULT_INPUT = join(OUT, 'export-200.xml');

// A function's phase, from its name: the first pattern that matches.
const PHASES = [
  ['inflate (zlib)', /^(inflate|updatewindow|adler32|crc32|zcalloc|zcfree)|instrumentscope::Inflate/],
  ['XML tokenizer (libxml2)', /^(xml|__xml|html|nodePush|nodePop|namePush|namePop|spacePush|spacePop|areBlanks)/],
  ['demangling', /demangle|Demangl/],
  ['JSON writer', /speedscope::|PieceWriter|StackWriter|WeightWriter/],
  ['profile builder and views', /ProfileBuilder|profile_builder|model::|StackTable|PagedVector|MergeThreads|Views?\b/],
  ['importer: rows, ids, samples', /xctrace|Xml|Sax|RowAssembler|IdTable|Schema|import::|ImportSession|instrumentscope::/],
  ['memory (malloc, memcpy)', /^(dlmalloc|dlfree|dlrealloc|malloc|free|realloc|calloc|memcpy|memmove|memset|memcmp|sbrk|emscripten_builtin|operator new|operator delete|std::__2::basic_string|std::__2::vector|strlen)/],
];

function fail(message) {
  console.error(`phases: ${message}`);
  process.exit(1);
}

function phaseOf(name) {
  for (const [phase, pattern] of PHASES) if (pattern.test(name)) return phase;
  return 'other code in the core';
}

// ---- the child: one import through the named core, JSON to /dev/null ----

/** A folder's files as [{path, data}], each read only if the core asks for it. */
async function folderFiles(folder) {
  return Promise.all(regularFiles(folder).map(async (full) => ({
    path: relative(folder, full).split(sep).join('/'), data: await openAsBlob(full),
  })));
}

function regularFiles(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

function sizeOf(path) {
  if (!statSync(path).isDirectory()) return statSync(path).size;
  return regularFiles(path).reduce((total, file) => total + statSync(file).size, 0);
}

async function child(input) {
  const { runImport } = await import(pathToFileURL(join(ROOT, 'web', 'src', 'core.js')));
  const { toChunks } = await import(pathToFileURL(join(ROOT, 'web', 'src', 'input.js')));
  const { default: create } = await import(pathToFileURL(`${NAMED}.js`));
  const core = await create({ wasmBinary: readFileSync(`${NAMED}.wasm`) });
  const sink = openSync('/dev/null', 'w');
  let source;
  if (statSync(input).isDirectory()) {
    const files = await folderFiles(input);
    source = { files, wanted: core.wantedFiles(files.map((file) => file.path)) };
  } else {
    source = { chunks: toChunks(await openAsBlob(input)).chunks };
  }
  await runImport(core, source, {
    name: basename(input), json: { write: (bytes) => writeSync(sink, bytes) },
  });
}

// ---- the parent: profile, then count ----

/** {name → seconds} of self time in a V8 .cpuprofile. */
function cpuProfileSelfTimes(path) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const times = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const node = nodes.get(profile.samples[i]);
    const delta = (profile.timeDeltas[i + 1] ?? 0) / 1e6;
    const { functionName, url } = node.callFrame;
    const wasm = url.startsWith('wasm://');
    const name = wasm ? functionName || '(unnamed wasm)' : `JS ${functionName || '(anonymous)'}`;
    times.set(name, (times.get(name) ?? 0) + delta);
  }
  return { times };
}

function wasmPhase(name) {
  if (!name.startsWith('JS ')) return phaseOf(name);
  if (name === 'JS (garbage collector)') return 'Node: garbage collection';
  if (name === 'JS (program)' || name === 'JS (idle)') return 'Node: V8 itself, compiling, idle';
  if (/writeSync|write\b/.test(name)) return 'Node: writing the output';
  return 'Node: JavaScript (facade, reading the input)';
}

function profileWasm(input) {
  if (!existsSync(`${NAMED}.wasm`) || !existsSync(`${NAMED}.js`)) {
    if (!existsSync(WASM_BUILD)) fail('the wasm build is missing: npm run build');
    console.error('building the core with its functions\' names (once)');
    // em++ needs acorn, which Debian ships outside node's default path.
    const env = { ...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':') };
    execFileSync('cmake', ['--build', WASM_BUILD, '--target', 'instrumentscope-core-named'], { stdio: 'inherit', env });
  }
  const dir = mkdtempSync(join(tmpdir(), 'instrumentscope-phases-'));
  try {
    const result = spawnSync('node', ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '250',
      fileURLToPath(import.meta.url), '--child', input], { stdio: 'inherit' });
    if (result.status !== 0) fail('the profiled import failed');
    const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
    return cpuProfileSelfTimes(join(dir, file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** {"dso symbol" → seconds} of perf's cpu-clock samples of the native CLI; null without perf. */
function profileNative(input) {
  const dir = mkdtempSync(join(tmpdir(), 'instrumentscope-phases-'));
  try {
    const data = join(dir, 'perf.data');
    const record = spawnSync('perf', ['record', '-e', 'cpu-clock', '-F', '4000', '-o', data, '--',
      NATIVE, input, '-o', '/dev/null'], { encoding: 'utf8' });
    if (record.status !== 0) return null;
    const report = spawnSync('perf', ['report', '-i', data, '--stdio', '--no-children', '--sort', 'dso,symbol',
      '--percent-limit', '0', '-F', 'period,dso,symbol'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const times = new Map();
    for (const line of report.stdout.split('\n')) {
      // "  86250000  libc.so.6  [.] __memcmp_evex_movbe"; cpu-clock periods are nanoseconds.
      const match = /^\s*(\d+)\s+(\S+)\s+\[.\]\s+(.*?)(\s+-\s+-)?\s*$/.exec(line);
      if (!match) continue;
      const key = `${match[2]} ${match[3]}`;
      times.set(key, (times.get(key) ?? 0) + Number(match[1]) / 1e9);
    }
    return times.size ? { times } : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function nativePhase(key) {
  const [dso, ...rest] = key.split(' ');
  const name = rest.join(' ');
  if (dso.startsWith('libxml2')) return PHASES[1][0];
  if (dso.startsWith('libz')) return PHASES[0][0];
  if (dso.startsWith('[kernel')) return 'kernel (page faults, reading the input)';
  if (dso.startsWith('libc') || dso.startsWith('libstdc++')) return PHASES.at(-1)[0];
  return phaseOf(name);
}

function sumByPhase(times, phase) {
  const phases = new Map();
  for (const [name, seconds] of times) {
    const key = phase(name);
    phases.set(key, (phases.get(key) ?? 0) + seconds);
  }
  return phases;
}

function topFunctions(times, count) {
  return [...times].sort((a, b) => b[1] - a[1]).slice(0, count);
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { child: { type: 'boolean' }, top: { type: 'string', default: '12' } },
  });
  if (values.child) {
    await child(positionals[0]);
    return;
  }
  let input = positionals[0];
  if (!input) {
    input = DEFAULT_INPUT;
    if (!existsSync(input)) {
      if (!existsSync(SEED)) fail(`the corpus is missing (${CORPUS})`);
      mkdirSync(OUT, { recursive: true });
      execFileSync('node', [join(ROOT, 'bench', 'grow-export.js'), SEED, input, '200'], { stdio: 'ignore' });
    }
  }
  const wasm = profileWasm(input);
  const native = existsSync(NATIVE) ? profileNative(input) : null;
  const wasmPhases = sumByPhase(wasm.times, wasmPhase);
  const nativePhases = native ? sumByPhase(native.times, nativePhase) : new Map();
  const names = [...new Set([...wasmPhases.keys(), ...nativePhases.keys()])]
    .sort((a, b) => (wasmPhases.get(b) ?? 0) - (wasmPhases.get(a) ?? 0));
  const wasmTotal = [...wasmPhases.values()].reduce((sum, t) => sum + t, 0);
  const nativeTotal = [...nativePhases.values()].reduce((sum, t) => sum + t, 0);
  const cell = (seconds, total) => (seconds === undefined ? '—' : `${seconds.toFixed(2)} s (${((seconds / total) * 100).toFixed(0)}%)`);
  const lines = [
    `Phases of one import of ${basename(input.replace(/\/+$/, ''))} (${(sizeOf(input) / 1048576).toFixed(1)} MB)`,
    '',
    '| phase | wasm (CLI path, V8 profile) | native (perf) |',
    '|---|---|---|',
    ...names.map((name) => `| ${name} | ${cell(wasmPhases.get(name), wasmTotal)} | ${native ? cell(nativePhases.get(name), nativeTotal) : '—'} |`),
    `| total sampled | ${wasmTotal.toFixed(2)} s | ${native ? `${nativeTotal.toFixed(2)} s` : '—'} |`,
    '',
    `Most time of their own, wasm: ${topFunctions(wasm.times, Number(values.top)).map(([name, s]) => `${name} ${s.toFixed(2)} s`).join('; ')}`,
  ];
  if (native) {
    lines.push('', `Most time of their own, native: ${topFunctions(native.times, Number(values.top)).map(([name, s]) => `${name} ${s.toFixed(2)} s`).join('; ')}`);
  }
  const report = `${lines.join('\n')}\n`;
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'phases.md'), report);
  process.stdout.write(report);
}

await main();
