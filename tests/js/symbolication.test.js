// Symbolication from the user's own files, through the CLI and the API: a
// program built for this test (tests/support/symbolication-fixture.js), two
// exports of samples at its instructions that carry only addresses, and its
// dSYM. Every sample's stack must come out as llvm-symbolizer reads the same
// addresses: names, inlined calls, each function's file and first line.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { ImportError, importTraceWithSummary } from 'instrumentscope';

import { LOAD_ADDRESS, buildSymbolicationFixture, missingTool } from '../support/symbolication-fixture.js';
import { ROOT, folderFiles } from './support.js';

const missing = missingTool();
const SKIP = missing ? `${missing} is not installed (npm test's bootstrap installs it)` : false;
const dir = mkdtempSync(join(tmpdir(), 'instrumentscope-symbols-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const fixtures = {};
function fixture(arch) {
  fixtures[arch] ??= buildSymbolicationFixture(join(dir, arch), arch);
  return fixtures[arch];
}

function cli(args) {
  return new Promise((resolve, reject) => {
    execFile('node', [join(ROOT, 'web/src/cli.js'), ...args], { maxBuffer: 1 << 26 },
      (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve({ stdout, stderr })));
  });
}

// Each sample's stack, root first, as {name, file, line} (file and line only when known).
function stacks(file) {
  const frame = (index) => {
    const { name, file: source, line } = file.shared.frames[index];
    return line === undefined ? { name } : { name, file: source, line };
  };
  return file.profiles[0].samples.map((stack) => stack.map(frame));
}

// By default a frame is a function at its first line; with symbolLines "line", at the line executing.
function assertStacks(actual, expected, lines = false) {
  const strip = (frames) => frames.map(({ name, file, line, sourceFile, sourceLine }) => {
    if (lines && sourceLine) return { name, file: sourceFile, line: sourceLine };
    return line === undefined ? { name } : { name, file, line };
  });
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++) assert.deepEqual(actual[i], strip(expected[i]), `sample ${i}`);
}

for (const arch of ['arm64', 'x86_64']) {
  test(`CLI: an export of unsymbolicated frames (${arch}) named from the dSYM as llvm-symbolizer names them`, { skip: SKIP }, async () => {
    const built = fixture(arch);
    const output = join(dir, `${arch}-frames.json`);
    const { stderr } = await cli([built.framesExport, '--symbols', built.dsym, '-o', output]);
    const file = JSON.parse(readFileSync(output, 'utf8'));
    assertStacks(stacks(file), built.expected);
    // Inlined calls come out as frames of their own, in the header they live in.
    assert.ok(stacks(file).flat().some((frame) => frame.name === 'square' && frame.file.endsWith('/util.h')));
    assert.match(stderr, new RegExp(`named (\\d+) of \\1 unnamed frames from program\\.dSYM/Contents/Resources/DWARF/program \\(${arch}\\)`));
  });

  test(`CLI: --symbol-lines names each address's file and line as llvm-symbolizer does (${arch})`, { skip: SKIP }, async () => {
    const built = fixture(arch);
    const output = join(dir, `${arch}-lines.json`);
    await cli([built.framesExport, '--symbols', built.dsym, '--symbol-lines', '-o', output]);
    const file = JSON.parse(readFileSync(output, 'utf8'));
    assertStacks(stacks(file), built.expected, true);
    // A function sampled at several lines is several frames.
    const leafLines = new Set(stacks(file).flat().filter((frame) => frame.name === 'leaf').map((frame) => frame.line));
    assert.ok(leafLines.size > 1, [...leafLines].join());
  });

  test(`CLI: an export of bare addresses (${arch}) named once the load address is given`, { skip: SKIP }, async () => {
    const built = fixture(arch);
    const output = join(dir, `${arch}-bare.json`);
    await cli([built.bareExport, '--symbols', `${built.dsym}@0x${LOAD_ADDRESS.toString(16)}`, '-o', output]);
    assertStacks(stacks(JSON.parse(readFileSync(output, 'utf8'))), built.expected);

    // Without it, bare addresses cannot be placed: nothing is named, and the warning says why.
    const { stderr } = await cli([built.bareExport, '--symbols', built.dsym, '-o', output]);
    assert.match(stderr, /named 0 of \d+ unnamed frames/);
    assert.match(stderr, /warning: unnamed frames make up 100% of the flame graph of Main Thread 0x10 — program \(pid 7\): \d+ frames in \d+ samples at bare addresses, no symbol file was given the address it was loaded at\n/);

    // A wrong load address places the file where no sample lies: said so too.
    const wrong = await cli([built.bareExport, '--symbols', `${built.dsym}@0x200000000`, '-o', output]);
    assert.match(wrong.stderr, /named 0 of \d+ unnamed frames/);
    assert.match(wrong.stderr, /\d+ frames in \d+ samples at bare addresses, they lie outside the symbol files as placed \(check their load addresses\)/);
    assert.match(stderr, /warning: program\.dSYM\/Contents\/Resources\/DWARF\/program \(\w+ UUID [0-9A-F-]{36}\) names no frame/);
  });
}

test('API: options.symbols takes the dSYM folder\'s files and the binary; names alone need no file', { skip: SKIP }, async () => {
  const built = fixture('arm64');
  const symbols = (await folderFiles(built.dsym)).map((file) => ({ ...file, path: `program.dSYM/${file.path}` }));
  const { file, summary } = await importTraceWithSummary(new Uint8Array(readFileSync(built.framesExport)), { symbols });
  assertStacks(stacks(file), built.expected);
  assert.deepEqual(summary.symbolication.filesUsed, ['program.dSYM/Contents/Resources/DWARF/program (arm64)']);
  assert.equal(summary.symbolication.namedFrames, summary.symbolication.unnamedFrames);

  // The binary alone (a Blob named by its file name) has a symbol table: names, no lines.
  const binary = new File([readFileSync(built.binary)], 'program');
  const named = await importTraceWithSummary(new Uint8Array(readFileSync(built.framesExport)), { symbols: [binary] });
  const leafNames = new Set(stacks(named.file).map((stack) => stack[stack.length - 1].name));
  assert.ok(['leaf', 'top', 'middle', 'main'].every((name) => leafNames.has(name)), [...leafNames].join());
  assert.deepEqual(named.summary.symbolication.filesUsed, ['program (arm64)']);

  // The bare export with the load address as a bigint.
  const bare = await importTraceWithSummary(new Uint8Array(readFileSync(built.bareExport)),
    { symbols: [{ path: 'program', data: readFileSync(built.dwarfFile), loadAddress: LOAD_ADDRESS }] });
  assertStacks(stacks(bare.file), built.expected);
});

test('API: another build\'s dSYM matched by name only, with a warning; junk is refused with its name', { skip: SKIP }, async () => {
  const built = fixture('arm64');
  // A UUID no file has: the image falls back to the file named "program".
  const xml = readFileSync(built.framesExport, 'utf8').replace(/UUID="[^"]+"/, 'UUID="00000000-1111-2222-3333-444444444444"');
  const { summary } = await importTraceWithSummary(xml, { symbols: [{ path: 'program', data: readFileSync(built.dwarfFile) }] });
  const codes = summary.warnings.map((warning) => warning.code);
  assert.ok(codes.includes('SYMBOLS_MATCHED_BY_NAME'), codes.join());
  assert.match(summary.warnings.find((w) => w.code === 'SYMBOLS_MATCHED_BY_NAME').message,
    /program \(UUID 00000000-1111-2222-3333-444444444444\) was named from the symbol file of the same name/);

  await assert.rejects(importTraceWithSummary(xml, { symbols: [{ path: 'notes.txt', data: new TextEncoder().encode('hello') }] }),
    (error) => error instanceof ImportError && error.code === 'UNKNOWN_FORMAT' && error.path === 'notes.txt');
  const cut = readFileSync(built.dwarfFile).subarray(0, 100);
  await assert.rejects(importTraceWithSummary(xml, { symbols: [{ path: 'program', data: cut }] }),
    (error) => error instanceof ImportError && ['MACHO_CORRUPT', 'TRUNCATED'].includes(error.code) && error.path === 'program');
  // Files of a folder that are not Mach-O are passed over; a folder with none at all is refused.
  await assert.rejects(importTraceWithSummary(xml, { symbols: [{ path: 'App.app/Info.plist', data: new TextEncoder().encode('<plist/>') }] }),
    (error) => error instanceof ImportError && error.code === 'UNKNOWN_FORMAT' && /none of the symbol files holds a Mach-O image/.test(error.message));
  const invalid = [
    { symbols: 'program.dSYM' },
    { symbols: [{ path: 'program', data: 'not bytes' }] },
    { symbols: [{ path: 'program', data: readFileSync(built.dwarfFile), loadAddress: 2 ** 60 }] },
    { symbolLines: 'address' },
  ];
  for (const options of invalid) {
    await assert.rejects(importTraceWithSummary(xml, options),
      (error) => error instanceof ImportError && error.code === 'INVALID_ARGUMENT', JSON.stringify(Object.keys(options)));
  }
});
