// A recording that needs symbolication, built from scratch: a C program
// compiled by clang for arm64 or x86_64 macOS, linked by ld64.lld, its dSYM
// made by dsymutil; two xctrace-shaped exports of samples at its instructions
// slid to a load address, one with unsymbolicated <frame>s naming the binary
// (UUID, load address; Xcode 14.3+), one with bare <text-addresses> (Xcode
// 14.0 and older); and what llvm-symbolizer says each sample's stack is.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TOOLS = ['clang-14', 'ld64.lld-14', 'dsymutil-14', 'llvm-objdump-14', 'llvm-symbolizer-14', 'llvm-dwarfdump-14'];

const UTIL_H = `static inline __attribute__((always_inline)) int square(int x) {
  return x * x;
}
`;

const PROGRAM_C = `#include "util.h"
int leaf(int x) {
  int sum = 0;
  for (int i = 0; i < x; i++) sum += square(i);
  return sum;
}
__attribute__((noinline)) int middle(int x) {
  return leaf(x) + leaf(x + 1) * 2;
}
__attribute__((noinline)) int top(int x) {
  int total = 0;
  for (int i = 0; i < x; i++) total += middle(i) ^ square(total);
  return total;
}
int main(int argc, char** argv) {
  return top(argc) + middle(argc);
}
`;

const LINKED_TEXT = 0x100000000n;
export const LOAD_ADDRESS = 0x104a8c000n;

/** The tool the fixture cannot be built without, or null when all are there. */
export function missingTool() {
  for (const tool of TOOLS) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return tool;
    }
  }
  return null;
}

function run(tool, args, input) {
  return execFileSync(tool, args, { encoding: 'utf8', input, maxBuffer: 1 << 28 });
}

// Instruction addresses of __text, and those that follow a call (return addresses).
function instructions(binary) {
  const all = [];
  const returns = [];
  let afterCall = false;
  for (const line of run('llvm-objdump-14', ['-d', '--no-show-raw-insn', binary]).split('\n')) {
    const match = /^\s*([0-9a-f]+):\s+(\S+)/.exec(line);
    if (!match) continue;
    const address = BigInt(`0x${match[1]}`);
    if (afterCall) returns.push(address);
    all.push(address);
    afterCall = /^(bl|blr|call|callq)$/.test(match[2]);
  }
  return { all, returns };
}

// llvm-symbolizer --inlining --verbose for each address: its frames, innermost first.
function symbolize(dwarfFile, addresses) {
  const input = addresses.map((address) => `0x${address.toString(16)}`).join('\n') + '\n';
  const output = run('llvm-symbolizer-14', [`--obj=${dwarfFile}`, '--inlining', '--verbose'], input);
  return output.trim().split(/\n\s*\n/).map((block) => {
    const frames = [];
    for (const line of block.split('\n')) {
      if (!line.startsWith(' ')) {
        frames.push({ name: line });
        continue;
      }
      const [key, value] = line.trim().split(/: (.*)/);
      const frame = frames[frames.length - 1];
      if (key === 'Function start filename') frame.file = value;
      if (key === 'Function start line') frame.line = Number(value);
      if (key === 'Filename') frame.sourceFile = value;
      if (key === 'Line') frame.sourceLine = Number(value);
    }
    return frames;
  });
}

const hex = (address) => `0x${address.toString(16)}`;

const SCHEMA = '<schema name="time-profile"><col><mnemonic>time</mnemonic><name>Sample Time</name>' +
  '<engineering-type>sample-time</engineering-type></col><col><mnemonic>thread</mnemonic><name>Thread</name>' +
  '<engineering-type>thread</engineering-type></col><col><mnemonic>weight</mnemonic><name>Weight</name>' +
  '<engineering-type>weight</engineering-type></col><col><mnemonic>stack</mnemonic><name>Backtrace</name>' +
  '<engineering-type>backtrace</engineering-type></col></schema>';

function exportXml(samples, backtrace) {
  const rows = samples.map((stack, i) => {
    const thread = i === 0
      ? '<thread id="1" fmt="Main Thread 0x10 (program, pid: 7)"><tid id="2" fmt="0x10">16</tid>' +
        '<process id="3" fmt="program (7)"><pid id="4" fmt="7">7</pid></process></thread>'
      : '<thread ref="1"/>';
    const weight = i === 0 ? '<weight id="5" fmt="1.00 ms">1000000</weight>' : '<weight ref="5"/>';
    return `<row><sample-time fmt="x">${i * 1000000}</sample-time>${thread}${weight}${backtrace(stack, i)}</row>`;
  });
  return '<?xml version="1.0"?>\n<trace-query-result>\n' +
    `<node xpath='//trace-toc[1]/run[1]/data[1]/table[1]'>${SCHEMA}\n${rows.join('\n')}\n</node>\n</trace-query-result>\n`;
}

/**
 * Builds everything in `dir` for `arch` ("arm64" or "x86_64"). Returns the
 * paths, the UUID, and `expected`: for each sample (row order), its stack
 * root first as {name, file, line, sourceFile, sourceLine}: what
 * llvm-symbolizer gives at each address of the linked program (callers at
 * their return address − 1): the function, where it starts ("Function start
 * filename" and "line"), and the line executing ("Filename", "Line").
 */
export function buildSymbolicationFixture(dir, arch) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'util.h'), UTIL_H);
  writeFileSync(join(dir, 'program.c'), PROGRAM_C);
  const object = join(dir, 'program.o');
  const binary = join(dir, 'program');
  run('clang-14', ['-target', `${arch}-apple-macos11`, '-g', '-O2', '-c', join(dir, 'program.c'), '-o', object]);
  run('ld64.lld-14', ['-arch', arch, '-platform_version', 'macos', '11.0', '11.0', '-undefined', 'dynamic_lookup',
    '-o', binary, object]);
  const dsym = `${binary}.dSYM`;
  run('dsymutil-14', [binary, '-o', dsym]);
  const dwarfFile = join(dsym, 'Contents/Resources/DWARF/program');
  const uuid = /UUID: (\S+)/.exec(run('llvm-dwarfdump-14', ['--uuid', dwarfFile]))[1];

  // Every instruction is a leaf once, under two callers that are real return addresses.
  const { all, returns } = instructions(binary);
  const samples = all.map((leaf, i) => [leaf, returns[i % returns.length], returns[(i * 7 + 3) % returns.length]]);
  const slid = (address) => address - LINKED_TEXT + LOAD_ADDRESS;

  const lookups = samples.flatMap(([leaf, ...callers]) => [leaf, ...callers.map((address) => address - 1n)]);
  const symbolized = symbolize(dwarfFile, lookups);
  const expected = samples.map((stack, i) => {
    const frames = stack.flatMap((address, depth) => {
      const found = symbolized[i * 3 + depth];
      return found[0].name === '??' ? [{ name: hex(slid(address)) }] : found;
    });
    return frames.reverse();
  });

  const withImages = exportXml(samples, (stack, i) => {
    const frames = stack.map((address, depth) => {
      const binaryElement = i === 0 && depth === 0
        ? `<binary id="9" name="program" UUID="${uuid}" arch="${arch}" load-addr="${hex(LOAD_ADDRESS)}" ` +
          'path="/Users/someone/program"/>'
        : '<binary ref="9"/>';
      return `<frame id="${100 + i * 3 + depth}" name="${hex(slid(address))}" addr="${hex(slid(address))}">` +
        `${binaryElement}</frame>`;
    });
    return `<backtrace id="${1000000 + i}">${frames.join('')}</backtrace>`;
  });
  const bare = exportXml(samples, (stack, i) => {
    const decimal = stack.map((address) => slid(address).toString()).join(' ');
    return `<backtrace id="${1000000 + i}" fmt="${hex(slid(stack[0]))} ← (2 other frames)">` +
      `<text-addresses id="${2000000 + i}" fmt="frag ${i}">${decimal}</text-addresses></backtrace>`;
  });
  const framesExport = join(dir, 'frames-export.xml');
  const bareExport = join(dir, 'bare-export.xml');
  writeFileSync(framesExport, withImages);
  writeFileSync(bareExport, bare);
  return { binary, dsym, dwarfFile, uuid, framesExport, bareExport, expected, samples: samples.length };
}
