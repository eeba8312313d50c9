// The hand-written index.d.ts compiles, accepts documented usage, and lists
// exactly the error codes the core can produce.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { ROOT } from './support.js';

test('index.d.ts type-checks against tests/types/usage.ts', async () => {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext',
    '--moduleResolution', 'nodenext', '--lib', 'es2022,dom,dom.iterable', join(ROOT, 'tests/types/usage.ts')];
  const result = await promisify(execFile)('node', [tsc, ...args], { cwd: ROOT }).catch((error) => error);
  assert.equal(result.code ?? 0, 0, `${result.stdout}${result.stderr}`);
});

test('ImportErrorCode lists every code the core defines, and no other', () => {
  const core = readFileSync(join(ROOT, 'cpp/base/status.cc'), 'utf8');
  const coreCodes = [...core.matchAll(/return "([A-Z_]+)";/g)].map((match) => match[1])
    .filter((code) => code !== 'OK' && code !== 'UNKNOWN');
  const types = readFileSync(join(ROOT, 'web/src/index.d.ts'), 'utf8');
  const union = types.slice(types.indexOf('export type ImportErrorCode'), types.indexOf(';', types.indexOf('export type ImportErrorCode')));
  const typeCodes = [...union.matchAll(/'([A-Z_]+)'/g)].map((match) => match[1]);
  assert.deepEqual([...typeCodes].sort(), [...coreCodes].sort());
});
