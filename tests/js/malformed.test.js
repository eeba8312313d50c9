// Every damaged or hostile input of tests/malformed ends in its expected
// outcome through the wasm build, exactly as in the native one; then the
// hostile inputs too large to keep, built here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { constants, deflateRawSync } from 'node:zlib';

import { ImportError, importTrace, importTraceWithSummary } from 'instrumentscope';

import { writeZip } from '../support/zip-writer.js';
import { ROOT, readJson } from './support.js';

const manifest = readJson(join(ROOT, 'tests/malformed/manifest.json'));

for (const entry of manifest.cases.filter((c) => c.imports)) {
  test(`damaged but readable: ${entry.file} imports`, async () => {
    const bytes = readFileSync(join(ROOT, 'tests/malformed', entry.file));
    const { file, summary } = await importTraceWithSummary(bytes, entry.options);
    const expected = entry.imports;
    assert.equal(file.profiles.length, expected.profiles);
    if (expected.warning) {
      const warning = summary.warnings.find((w) => w.code === expected.warning);
      assert.ok(warning, JSON.stringify(summary.warnings));
      assert.ok(warning.message.includes(expected.message), warning.message);
    }
    if (expected.weights) assert.deepEqual([...file.profiles[0].weights], expected.weights);
  });
}

for (const entry of manifest.cases.filter((c) => !c.imports)) {
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

// The local headers' names and bytes of a zip whose members are all stored.
function storedMembers(zip) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const members = [];
  for (let at = 0; view.getUint32(at, true) === 0x04034b50;) {
    const size = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const start = at + 30 + nameLength + view.getUint16(at + 28, true);
    members.push({
      name: zip.subarray(at + 30, at + 30 + nameLength).toString(),
      crc: view.getUint32(at + 14, true),
      data: zip.subarray(start, start + size),
      method: 0,
      size,
    });
    at = start + size;
  }
  return members;
}


// 4 000 000 000 zero bytes as raw deflate, about 4 MB: a million zeros flushed
// with Z_FULL_FLUSH (byte-aligned, its window forgotten), repeated, then an
// empty final block.
function fourGigabytesOfZeros() {
  const block = deflateRawSync(Buffer.alloc(1_000_000), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array(4000).fill(block), Buffer.from([0x03, 0x00])]);
}

const BULKSTORE = 'x.trace/corespace/run1/core/stores/indexed-store-0/bulkstore';

test('a 4 GB zero-filled member is refused by its size, never inflated', async () => {
  const zeros = fourGigabytesOfZeros();
  const control = readFileSync(join(ROOT, 'tests/malformed/bundle-valid-control.zip'));
  // The checksum is never reached: the size stops both before it.
  const bundle = (size) => writeZip(storedMembers(control).map((member) =>
    member.name === BULKSTORE ? { ...member, data: zeros, method: 8, crc: 0, size } : member));

  await assert.rejects(importTrace(bundle(4_000_000_000)), (error) => {
    assert.equal(error.code, 'LIMIT_EXCEEDED', error.message);
    assert.equal(error.path, BULKSTORE);
    assert.match(error.message, /inflates to 4000000000 bytes.*\(limits\.maxMemberBytes\)/);
    return true;
  });
  await assert.rejects(importTrace(bundle(4129)), (error) => {
    assert.equal(error.code, 'ZIP_CORRUPT', error.message);
    assert.equal(error.path, BULKSTORE);
    assert.match(error.message, /inflates to more than the 4129 bytes/);
    return true;
  });
});

test('200 000 levels of XML nesting end at limits.maxXmlDepth, or parse when allowed', async () => {
  const levels = 200_000;
  const xml = Buffer.from(`<?xml version="1.0"?>\n<trace-query-result>${'<a>'.repeat(levels)}` +
    `${'</a>'.repeat(levels)}</trace-query-result>\n`);
  await assert.rejects(importTrace(xml), (error) => {
    assert.equal(error.code, 'LIMIT_EXCEEDED', error.message);
    assert.equal(error.line, 2);
    assert.match(error.message, /\(limits\.maxXmlDepth\)/);
    return true;
  });
  // Allowed, the whole depth is walked without exhausting WebAssembly's stack.
  await assert.rejects(importTrace(xml, { limits: { maxXmlDepth: levels + 2 } }), {
    code: 'XML_NO_SAMPLE_TABLE',
  });
});

test('a limit that does not exist is refused by name', async () => {
  const bytes = readFileSync(join(ROOT, 'tests/malformed/valid-control.xml'));
  await assert.rejects(importTrace(bytes, { limits: { maxSample: 10 } }), (error) => {
    assert.equal(error.code, 'INVALID_ARGUMENT');
    assert.match(error.message, /options\.limits\.maxSample is not a limit; the limits are maxDecompressedBytes, .*maxSamples/);
    return true;
  });
});
