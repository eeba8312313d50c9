// Every damaged or hostile input of tests/malformed ends in its expected
// ImportError through the wasm build, exactly as in the native one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { ImportError, importTrace } from 'instrumentscope';

import { ROOT, readJson } from './support.js';

const manifest = readJson(join(ROOT, 'tests/malformed/manifest.json'));

for (const entry of manifest.cases) {
  test(`malformed: ${entry.file} → ${entry.code}`, async () => {
    const bytes = readFileSync(join(ROOT, 'tests/malformed', entry.file));
    await assert.rejects(importTrace(bytes, entry.options), (error) => {
      assert.ok(error instanceof ImportError, `${error}`);
      assert.ok(error instanceof Error);
      assert.equal(error.code, entry.code, error.message);
      if ('path' in entry) assert.equal(error.path, entry.path);
      if ('line' in entry) assert.equal(error.line, entry.line);
      if ('offset' in entry) assert.equal(error.offset, entry.offset);
      if ('message' in entry) assert.ok(error.message.includes(entry.message), error.message);
      return true;
    });
  });
}

test('the control document of the malformed set imports', async () => {
  const file = await importTrace(readFileSync(join(ROOT, 'tests/malformed/valid-control.xml')));
  assert.equal(file.profiles.length, 1);
});
