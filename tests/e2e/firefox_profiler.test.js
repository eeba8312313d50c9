// The page's way to the Firefox Profiler, in each engine: its download is
// the CLI's --format firefox output byte for byte, and "Open in Firefox
// Profiler" hands the same bytes to the profiler's app in a tab of its own
// by postMessage, here to a stand-in on 127.0.0.1 that plays the app's side
// of the exchange (profiler_stand_in.js).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';

import { CORPUS_SKIP, ROOT, corpusFile } from '../js/support.js';
import { startProfilerStandIn } from './profiler_stand_in.js';
import {
  ENGINES, assertCleanPage, downloadedJson, engineSkip, openPage, saveScreenshot, settledState, startSession,
} from './support.js';

const ALLOCATIONS = 'jlfwong__speedscope/sample/profiles/Instruments/8.3.3/simple-allocations.trace.zip';
const SWIFTUI_26 = 'benjaminRomano__mperf/src/test/resources/example.trace.zip';

async function cliOutput(input) {
  const dir = mkdtempSync(join(tmpdir(), 'instrumentscope-firefox-'));
  try {
    const output = join(dir, 'profile.json');
    await promisify(execFile)(process.execPath,
      [join(ROOT, 'web/src/cli.js'), corpusFile(input), '--format', 'firefox', '-o', output]);
    return readFileSync(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const engine of ENGINES) describe(`the Firefox Profiler from the page in ${engine}`, { skip: engineSkip(engine) }, () => {
  let session;
  let standIn;
  before(async () => {
    session = await startSession(engine);
    standIn = await startProfilerStandIn();
  });
  after(async () => {
    await session?.close();
    await standIn?.close();
  });

  test('"Download for Firefox Profiler" saves the CLI\'s --format firefox output', { skip: CORPUS_SKIP }, async () => {
    const page = await openPage(session);
    await page.setInputFiles('#file-input', corpusFile(ALLOCATIONS));
    assert.equal(await settledState(page), 'loaded');
    const download = await downloadedJson(page, '#download-firefox');
    assert.equal(download.name, 'simple-allocations.firefox.json');
    const golden = readFileSync(join(ROOT, 'tests/golden/trace_bundle/speedscope-8.3.3-simple-allocations.firefox.json'), 'utf8');
    assert.equal(download.text, golden);
    assert.equal(download.text, (await cliOutput(ALLOCATIONS)).toString('utf8'));
    await assertCleanPage(page);
  });

  test('"Open in Firefox Profiler" hands the profiler\'s app the same bytes by postMessage', { skip: CORPUS_SKIP }, async () => {
    const expected = await cliOutput(SWIFTUI_26);
    const page = await openPage(session);
    page.allowedOrigins.add(standIn.origin);
    await page.goto(`${session.origin}/?firefox-profiler=${encodeURIComponent(standIn.url)}`);
    await page.setInputFiles('#file-input', corpusFile(SWIFTUI_26));
    assert.equal(await settledState(page), 'loaded');
    const taken = standIn.nextProfile();
    await page.press('#open-firefox');
    const profile = await taken;
    assert.equal(profile.type, '[object ArrayBuffer]');
    assert.ok(profile.bytes.equals(expected), `${profile.bytes.length} bytes handed, ${expected.length} expected`);
    await page.waitForFunction(() => /^Handed to the Firefox Profiler/.test(document.getElementById('firefox-note').textContent));
    assert.match(await page.textContent('#firefox-note'), new RegExp(`\\(${standIn.origin.replace(/\./g, '\\.')}\\)\\.$`));
    await saveScreenshot(page, 'firefox-profiler-handed');
    await assertCleanPage(page);
  });
});
