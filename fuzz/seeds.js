#!/usr/bin/env node
// Collects seed inputs for every fuzz target from the Instruments corpus
// (../shared/corpus) and tests/malformed into DIR/<target>/: small files only,
// since libFuzzer mutates small inputs many times faster.
//   node fuzz/seeds.js DIR

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync, inflateRawSync, inflateSync } from 'node:zlib';

import { writeZip } from '../tests/support/zip-writer.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = process.env.INSTRUMENTSCOPE_CORPUS ?? join(ROOT, '..', 'shared', 'corpus');
const MALFORMED = join(ROOT, 'tests', 'malformed');
const MAX_SEED = 1 << 20;

function files(folder) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

const isZlib = (bytes) => bytes.length > 2 && bytes[0] === 0x78 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
const startsWith = (bytes, text) => bytes.subarray(0, text.length).toString('latin1') === text;

// A bundle file as the importer sees it: inflated when it is a zlib stream.
function expanded(bytes) {
  if (!isZlib(bytes)) return bytes;
  try {
    return inflateSync(bytes);
  } catch {
    return bytes;
  }
}

// The files of a zip, by its central directory (stored or deflated; no zip64).
function zipMembers(bytes) {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + 22 > bytes.length) return [];
  const members = [];
  let at = bytes.readUInt32LE(end + 16);
  for (let entry = bytes.readUInt16LE(end + 10); entry > 0 && at + 46 <= end; entry--) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) break;
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const local = bytes.readUInt32LE(at + 42);
    at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    if (local + 30 > bytes.length) continue;
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + size);
    try {
      members.push(method === 8 ? inflateRawSync(data) : data);
    } catch {
      // a damaged member is no seed
    }
  }
  return members;
}

// Mach-O programs for arm64 and x86_64, built as tests/cpp/symbolication/macho_test.cc
// builds them, and the DWARF files of their dSYMs (DWARF 4 and 5); none when
// clang-14, ld64.lld-14 or dsymutil-14 is missing.
function machOSeeds() {
  const dir = mkdtempSync(join(tmpdir(), 'instrumentscope-seeds-'));
  const binaries = [];
  try {
    writeFileSync(join(dir, 'p.c'), 'static inline __attribute__((always_inline)) int f(int x) { return x + 1; }\n' +
      'int g(int x) { int s = 0; for (int i = 0; i < x; i++) s += f(i); return s; }\n' +
      'int main(int c, char **v) { return g(c); }\n');
    for (const arch of ['arm64', 'x86_64']) {
      for (const dwarf of ['-gdwarf-4', '-gdwarf-5']) {
        const name = `${arch}${dwarf}`;
        execFileSync('clang-14', ['-target', `${arch}-apple-macos11`, dwarf, '-O1', '-c', join(dir, 'p.c'), '-o', join(dir, `${name}.o`)]);
        execFileSync('ld64.lld-14', ['-arch', arch, '-platform_version', 'macos', '11.0', '11.0', '-undefined',
          'dynamic_lookup', '-o', join(dir, name), join(dir, `${name}.o`)]);
        execFileSync('dsymutil-14', [join(dir, name), '-o', join(dir, `${name}.dSYM`)]);
        binaries.push(readFileSync(join(dir, name)));
        binaries.push(readFileSync(join(dir, `${name}.dSYM`, 'Contents', 'Resources', 'DWARF', name)));
      }
    }
  } catch {
    // no toolchain: no Mach-O seeds
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return binaries;
}

// Uniquer data files are zero-filled ahead of their arrays, megabytes of them.
function withoutZeroTail(bytes) {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return bytes.subarray(0, end);
}

// Bundles cut down to one run's tables of intervals (signposts, thermal
// states, life cycle…), of a System Trace's scheduling, system calls and
// narratives, or of CPU Counters' samples, and its uniquing files (no
// form.template, which holds megabytes of symbols); the longest tables cut to
// their first rows (`cut`): small enough for the import target, they reach
// the bundle's row decoder and every consumer.
const INTERVALS = 'os-signpost|life-cycle-period|device-thermal-state-intervals|app-spin|region-of-interest|' +
  'potential-hangs|runloop-events';
const SEED_BUNDLES = [
  { bundle: 'Ricks__Strux/Instruments.trace', run: 1, tables: INTERVALS },
  { bundle: 'modplug__loops/profile.trace', run: 1, tables: INTERVALS },
  {
    bundle: 'BA-Partners__Documents/Untitled.trace', run: 1,
    tables: 'thread-state|cpu-state|virtual-memory|syscall|thread-narrative|thread-info|process-info',
    cut: { syscall: 3000, 'thread-narrative': 3000 },
  },
  { bundle: 'nealsid__emacs-module-wrapper-template/Instruments.trace', run: 19, tables: 'counters-profile' },
];

// A bulkstore (zlib) with only its first `rows` rows, zlib again.
function cutRows(bytes, rows) {
  const plain = inflateSync(bytes);
  const rowSize = plain.readUInt32LE(16);
  return deflateSync(plain.subarray(0, Math.min(plain.length, 0x1000 + rows * rowSize)));
}

function bundleSeeds() {
  const seeds = [];
  for (const { bundle, run, tables, cut = {} } of SEED_BUNDLES) {
    const root = join(CORPUS, bundle);
    if (!existsSync(root)) continue;
    const named = new RegExp(`<schema name="(${tables})"`);
    const core = join(root, 'corespace', `run${run}`, 'core');
    const kept = files(join(core, 'uniquing')).map((path) => [path, null]);
    for (const store of existsSync(join(core, 'stores')) ? readdirSync(join(core, 'stores')) : []) {
      const schema = join(core, 'stores', store, 'schema.xml');
      const match = existsSync(schema) && named.exec(expanded(readFileSync(schema)).toString('utf8'));
      if (!match) continue;
      // No spindex: the importer reads rows, not the index.
      for (const path of files(join(core, 'stores', store)).filter((file) => !basename(file).startsWith('spindex'))) {
        kept.push([path, basename(path) === 'bulkstore' ? cut[match[1]] : null]);
      }
    }
    const members = kept.map(([path, rows]) => {
      const bytes = readFileSync(path);
      const data = rows ? cutRows(bytes, rows) : isZlib(bytes) ? bytes : withoutZeroTail(bytes);
      return [`Instruments.trace/${path.slice(root.length + 1)}`, data];
    });
    seeds.push(writeZip(members.map(([name, data]) => ({ name, data, method: 0, crc: crc32(data), size: data.length }))));
  }
  return seeds;
}

function main() {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node fuzz/seeds.js DIR');
    process.exit(2);
  }
  const seeds = new Map();  // target → Map(hash → bytes)
  const add = (target, bytes) => {
    if (bytes.length === 0 || bytes.length > MAX_SEED) return;
    if (!seeds.has(target)) seeds.set(target, new Map());
    seeds.get(target).set(createHash('sha1').update(bytes).digest('hex'), bytes);
  };

  const corpus = files(CORPUS).filter((path) => statSync(path).size <= 8 * MAX_SEED || path.endsWith('.oa'));
  for (const path of [...corpus, ...files(MALFORMED)]) {
    const name = basename(path);
    const raw = readFileSync(path);
    if (name.endsWith('.zip')) add('zip', raw);
    if (name.endsWith('.gz')) add('gzip', raw);
    if (/\.(zip|gz|xml|txt)$/.test(name)) add('import', raw);
    if (name.endsWith('.xml') && name !== 'schema.xml') add('xml', raw);
    if (name.endsWith('.txt') && /Symbol Names?\r?$/m.test(raw.subarray(0, 4096).toString('utf8').split('\n')[0])) {
      add('deep_copy', raw);
    }
    if (name.endsWith('.symbolsarchive')) add('symbol_archive', raw);
    // Legacy run archives and symbols: typedstreams inside small zips.
    if (name.endsWith('.zip') && /\/(run_data|shared_data)\//.test(path)) {
      for (const member of zipMembers(raw)) {
        if (startsWith(member.subarray(2), 'streamtyped')) add('typedstream', member);
      }
    }
    // Allocations events, in a .trace folder or a zipped recording: their
    // header and first thousand records.
    const firstEvents = (events) => events.subarray(0, 4096 + 1000 * 56);
    if (name.endsWith('.oa')) add('allocation_events', firstEvents(raw));
    if (name.endsWith('.zip') && name.includes('allocations')) {
      // The run's shared data is a zip inside the recording's.
      const members = zipMembers(raw).flatMap((member) => (startsWith(member, 'PK') ? [member, ...zipMembers(member)] : [member]));
      for (const member of members) {
        if (member.length >= 4 && member.readUInt32LE(0) === 0x12340a0a) add('allocation_events', firstEvents(member));
        if (startsWith(member.subarray(2), 'streamtyped')) add('typedstream', member);
      }
    }
    if (name === 'form.template') add('form_template', raw);
    if (isZlib(raw)) add('inflate', raw);
    const bytes = expanded(raw);
    if (startsWith(bytes, 'bplist00')) {
      add('bplist', bytes);
      add('keyed_archive', bytes);
    }
    if (name === 'bulkstore') add('bulkstore', bytes);
    // A uniquer seed: the index's length (4 bytes, little-endian), the index, the data.
    if (name === 'integeruniquer.data') {
      const indexPath = join(dirname(path), 'integeruniquer.index');
      const index = existsSync(indexPath) ? expanded(readFileSync(indexPath)) : Buffer.alloc(0);
      const length = Buffer.alloc(4);
      length.writeUInt32LE(index.length);
      add('uniquer', Buffer.concat([length, index, withoutZeroTail(bytes)]).subarray(0, MAX_SEED));
    }
  }
  // Demangler vectors: one mangled name a seed.
  for (const path of files(join(CORPUS, 'demangle')).filter((file) => file.endsWith('.tsv'))) {
    for (const line of readFileSync(path, 'utf8').split('\n').slice(1)) {
      const mangled = line.split('\t')[0];
      if (mangled) add('demangle', Buffer.from(mangled));
    }
  }
  for (const bundle of bundleSeeds()) add('import', bundle);
  for (const binary of machOSeeds()) {
    add('macho', binary);
    add('symbolication', binary);
  }
  for (const [target, bytesByHash] of seeds) {
    mkdirSync(join(out, target), { recursive: true });
    for (const [hash, bytes] of bytesByHash) writeFileSync(join(out, target, hash), bytes);
    console.log(`${target}: ${bytesByHash.size} seeds`);
  }
}

main();
