// The package's browser side, in Chromium (its driver serves test inputs and reaches into workers): the facade runs the core in its own
// module Worker, reports progress, reads Blobs in slices, leaves the caller's
// buffers attached and unchanged, takes streams, and cancels on an
// AbortSignal without losing the worker for the next import.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { CORPUS_SKIP, UNIPROF_EXPORT, corpusFile } from '../js/support.js';
import { assertCleanPage, engineSkip, openPage, startSession } from './support.js';

const SKIP = engineSkip('chromium') || CORPUS_SKIP;
// The export's one thread: 518 rows (the last without a backtrace) and the gaps between them.
const EXPORT_SAMPLES = 530;

describe('the package in a browser page', { skip: SKIP }, () => {
  let session;
  let page;
  let native;
  const workers = [];
  before(async () => {
    session = await startSession('chromium');
    page = await openPage(session);
    // Playwright's own page: its workers, and test inputs served from the page's own origin.
    native = page.driverPage.native;
    native.on('worker', (worker) => workers.push(new URL(worker.url()).pathname));
    const exportBytes = readFileSync(corpusFile(UNIPROF_EXPORT));
    await native.route('**/fixtures/export.xml.gz', (route) => route.fulfill({ body: exportBytes }));
  });
  after(async () => {
    try {
      if (page) await assertCleanPage(page);
    } finally {
      await session?.close();
    }
  });

  test('imports bytes in a module Worker, with progress, leaving the bytes attached', async () => {
    const outcome = await page.evaluate(async () => {
      const { importTrace } = await import('/src/index.js');
      const bytes = new Uint8Array(await (await fetch('/fixtures/export.xml.gz')).arrayBuffer());
      const before = Array.from(bytes.subarray(0, 16));
      const progress = [];
      const file = await importTrace(bytes, { onProgress: (event) => progress.push(event) });
      return {
        profiles: file.profiles.map((profile) => [profile.name, profile.samples.length]),
        byteLength: bytes.byteLength,
        unchanged: Array.from(bytes.subarray(0, 16)).every((byte, index) => byte === before[index]),
        progress,
      };
    });
    assert.deepEqual(workers, ['/src/worker.js']);
    assert.deepEqual(outcome.profiles, [['Main Thread 0x2b73e56 — test-simple (pid 49230)', EXPORT_SAMPLES]]);
    assert.equal(outcome.byteLength, readFileSync(corpusFile(UNIPROF_EXPORT)).length);
    assert.ok(outcome.unchanged);
    const stages = [...new Set(outcome.progress.map((event) => event.stage))];
    assert.deepEqual(stages.slice(0, 1), ['reading']);
    assert.deepEqual(stages.slice(-2), ['building', 'done']);
    const last = outcome.progress.at(-1);
    assert.equal(last.bytesRead, outcome.byteLength);
    assert.equal(last.bytesTotal, outcome.byteLength);
    assert.equal(last.samples, 518);
  });

  test('reads a large Blob in slices, never whole', async () => {
    // The export, with 12 MiB of XML comments after its prolog: three slices' worth.
    const xml = gunzipSync(readFileSync(corpusFile(UNIPROF_EXPORT))).toString('utf8');
    const prolog = xml.indexOf('?>') + 2;
    const padded = `${xml.slice(0, prolog)}${`<!--${' '.repeat(4089)}-->\n`.repeat(3072)}${xml.slice(prolog)}`;
    await native.route('**/fixtures/padded.xml', (route) => route.fulfill({ body: padded }));
    // Every read of a Blob in the worker, by size.
    const [worker] = native.workers();
    await worker.evaluate(() => {
      const read = Blob.prototype.arrayBuffer;
      self.blobReads = [];
      Blob.prototype.arrayBuffer = function arrayBuffer() {
        self.blobReads.push(this.size);
        return read.call(this);
      };
    });
    const outcome = await page.evaluate(async () => {
      const { importTrace } = await import('/src/index.js');
      const blob = await (await fetch('/fixtures/padded.xml')).blob();
      const file = await importTrace(blob);
      return { size: blob.size, samples: file.profiles[0].samples.length };
    });
    const reads = await worker.evaluate(() => self.blobReads);
    assert.equal(outcome.samples, EXPORT_SAMPLES);
    assert.equal(reads.reduce((sum, size) => sum + size, 0), outcome.size);
    assert.ok(reads.length >= 3, `slices read: ${reads}`);
    assert.ok(reads.every((size) => size <= 4 << 20), `slices read: ${reads}`);
  });

  test('imports a ReadableStream', async () => {
    const samples = await page.evaluate(async () => {
      const { importTrace } = await import('/src/index.js');
      const response = await fetch('/fixtures/export.xml.gz');
      const file = await importTrace(response.body);
      return file.profiles[0].samples.length;
    });
    assert.equal(samples, EXPORT_SAMPLES);
  });

  test('a file\'s data as {size, read} is refused for the worker, unread, with what to give instead', async () => {
    const outcome = await page.evaluate(async () => {
      const { importTrace } = await import('/src/index.js');
      let reads = 0;
      const read = () => {
        reads += 1;
        return new Uint8Array(8);
      };
      const files = [{ path: 'x.trace/form.template', data: { size: 8, read } }];
      const error = await importTrace(files).then(() => null, (reason) => reason);
      const symbolError = await importTrace(new Uint8Array(8), { symbols: [{ path: 'App', data: { size: 8, read } }] })
        .then(() => null, (reason) => reason);
      return { code: error?.code, message: error?.message, symbolCode: symbolError?.code, symbolMessage: symbolError?.message, reads };
    });
    assert.equal(outcome.code, 'INVALID_ARGUMENT');
    assert.match(outcome.message, /^x\.trace\/form\.template: data given as \{size, read\} is read in the calling thread; in a page, give a Blob or bytes, or import with options\.worker false$/);
    assert.equal(outcome.symbolCode, 'INVALID_ARGUMENT');
    assert.match(outcome.symbolMessage, /^App: data given as \{size, read\}/);
    assert.equal(outcome.reads, 0);
  });

  test('an AbortSignal cancels an import, and the worker takes the next one', async () => {
    const outcome = await page.evaluate(async () => {
      const { importTrace } = await import('/src/index.js');
      const bytes = new Uint8Array(await (await fetch('/fixtures/export.xml.gz')).arrayBuffer());
      // A stream that gives half the file, then waits for ever.
      const stalled = new ReadableStream({
        start(controller) {
          controller.enqueue(bytes.slice(0, bytes.length >> 1));
        },
      });
      const controller = new AbortController();
      const pending = importTrace(stalled, {
        signal: controller.signal,
        onProgress: ({ bytesRead }) => bytesRead > 0 && controller.abort(),
      });
      const error = await pending.then(() => null, (reason) => reason);
      const next = await importTrace(bytes);
      return { errorName: error?.name, nextSamples: next.profiles[0].samples.length };
    });
    assert.equal(outcome.errorName, 'AbortError');
    assert.equal(outcome.nextSamples, EXPORT_SAMPLES);
    assert.equal(workers.length, 1, 'one worker, kept across imports');
  });

  test('an abort during a pending read cancels the caller\'s stream and unlocks it', async () => {
    const outcome = await page.evaluate(async () => {
      const { importTrace } = await import('/src/index.js');
      let cancelled = false;
      const stalled = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('<?xml version="1.0"?>\n<trace-query-result>'));
        },
        cancel() {
          cancelled = true;
        },
      });
      const controller = new AbortController();
      const pending = importTrace(stalled, { signal: controller.signal });
      // The first chunk is in; the next read waits for ever.
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.abort();
      const error = await pending.then(() => null, (reason) => reason);
      await new Promise((resolve) => setTimeout(resolve, 0));
      return { errorName: error?.name, cancelled, locked: stalled.locked };
    });
    assert.deepEqual(outcome, { errorName: 'AbortError', cancelled: true, locked: false });
  });

  test('errors cross the worker as ImportErrors with their code and place', async () => {
    const error = await page.evaluate(async () => {
      const { ImportError, importTrace } = await import('/src/index.js');
      try {
        await importTrace(new TextEncoder().encode('<?xml version="1.0"?>\n<trace-query-result>\n<node></row>'));
        return null;
      } catch (caught) {
        return { isImportError: caught instanceof ImportError, code: caught.code, line: caught.line };
      }
    });
    assert.deepEqual(error, { isImportError: true, code: 'XML_SYNTAX', line: 3 });
  });
});
