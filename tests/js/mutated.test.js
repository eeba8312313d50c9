// Mutated copies of tests/malformed and of every golden corpus file (cut
// short, bits flipped, bytes overwritten) through the wasm build: each ends in a valid speedscope file or
// an ImportError, never a trap, an abort or another kind of error. The native
// tests run the same kind of mutants under the sanitizers.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { ImportError, importTrace } from 'instrumentscope';

import { CORPUS_PRESENT, ROOT, assertSpeedscopeSchema, corpusFile, readJson } from './support.js';

const MALFORMED = join(ROOT, 'tests/malformed');
const inputs = readdirSync(MALFORMED)
  .filter((name) => !/\.(json|py)$/.test(name))
  .map((name) => join(MALFORMED, name));
if (CORPUS_PRESENT) {
  // Every corpus file of the golden tests; their .trace folders are mutated natively.
  for (const { input } of readJson(join(ROOT, 'tests/golden/manifest.json')).cases) {
    if (statSync(corpusFile(input)).isFile()) inputs.push(corpusFile(input));
  }
}

// A small deterministic generator (mulberry32), so a failure repeats.
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Cut short at 31 places, a bit flipped at 32, four bytes of 0xFF at 16.
function* mutants(bytes, seed) {
  const random = generator(seed);
  const at = () => Math.floor(random() * bytes.length);
  for (let k = 1; k < 32; k++) yield { how: `cut at ${Math.floor((bytes.length * k) / 32)}`, bytes: bytes.subarray(0, Math.floor((bytes.length * k) / 32)) };
  for (let i = 0; i < 32; i++) {
    const copy = bytes.slice();
    const offset = at();
    const bit = Math.floor(random() * 8);
    copy[offset] ^= 1 << bit;
    yield { how: `bit ${bit} of byte ${offset} flipped`, bytes: copy };
  }
  for (let i = 0; i < 16; i++) {
    const copy = bytes.slice();
    const offset = at();
    copy.fill(0xff, offset, offset + 4);
    yield { how: `0xFF × 4 at ${offset}`, bytes: copy };
  }
}

test(`mutants of ${inputs.length} inputs end in a profile or an ImportError`, async () => {
  let imported = 0;
  let refused = 0;
  for (const [index, path] of inputs.entries()) {
    const bytes = new Uint8Array(readFileSync(path));
    if (bytes.length === 0) continue;
    for (const mutant of mutants(bytes, index + 1)) {
      const where = `${path}, ${mutant.how}`;
      try {
        const file = await importTrace(mutant.bytes, { name: path.split('/').pop() });
        assertSpeedscopeSchema(file);
        imported++;
      } catch (error) {
        assert.ok(error instanceof ImportError, `${where}: ${error?.stack ?? error}`);
        assert.match(error.code, /^[A-Z_]+$/, where);
        assert.ok(error.message.length > 0, where);
        refused++;
      }
    }
  }
  assert.ok(imported + refused >= (CORPUS_PRESENT ? 5000 : 4000), `${imported + refused} mutants`);
  assert.ok(imported > (CORPUS_PRESENT ? 50 : 10), `only ${imported} mutants imported`);
  assert.ok(refused > 1000, `only ${refused} mutants refused`);
});
