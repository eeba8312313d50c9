// The page's import on the threaded core, in each engine: served cross-origin
// isolated (COOP same-origin, COEP require-corp on every response), Chromium
// and Firefox run the threaded core and the page says so, with the same
// bytes out and speedscope's viewer drawing under the embedder policy;
// WebKitGTK, which reports isolation but has no SharedArrayBuffer, falls back
// to the single-threaded core and says why. Served without the headers
// (npm start's default), every engine runs the single-threaded core, saying
// why. An isolated page cannot hand a file to another site's tab: its "Open
// in Firefox Profiler" says so rather than opening a tab that never answers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { CORPUS_SKIP, JMH, ROOT, corpusFile } from '../js/support.js';
import {
  ENGINES, assertCleanPage, assertFlameGraphShows, downloadedJson, engineSkip, heaviestRoot, openPage,
  saveScreenshot, settledState, startSession,
} from './support.js';

const GOLDEN = readFileSync(`${ROOT}/tests/golden/xctrace_xml/jmh-time-profile-xcode14.3.speedscope.json`, 'utf8');
// WebKitGTK 2.50 has no SharedArrayBuffer, isolated or not.
const THREADED_ENGINES = new Set(['chromium', 'firefox']);

/** The status line after importing the export, and its tooltip: the core, and why not the threaded one. */
async function importExport(page) {
  await page.setInputFiles('#file-input', corpusFile(`${JMH}/time-profile.xml`));
  assert.equal(await settledState(page), 'loaded');
  return `${await page.textContent('#status')}\n${await page.getAttribute('#status', 'title')}`;
}

for (const engine of ENGINES) describe(`threads in the page in ${engine}`, { skip: engineSkip(engine) }, () => {
  let isolated;
  let plain;
  before(async () => {
    isolated = await startSession(engine, { isolated: true });
    plain = await startSession(engine);
  });
  after(async () => {
    await isolated?.close();
    await plain?.close();
  });

  test('cross-origin isolated: the threaded core where the engine has shared memory, the same bytes out',
    { skip: CORPUS_SKIP }, async () => {
      const page = await openPage(isolated);
      assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), true);
      const status = await importExport(page);
      if (THREADED_ENGINES.has(engine)) {
        assert.match(status, /\. Threads: (\d+) of \1\n/);
        assert.match(status, /\nImported on \d+ of \d+ threads \(the threaded core\)$/);
      } else {
        assert.match(status, /\. Threads: 1 \(single-threaded core\)\n/);
        assert.match(status, /\nImported on 1 thread \(the single-threaded core: this engine has no SharedArrayBuffer\)$/);
      }
      await assertFlameGraphShows(page, heaviestRoot(JSON.parse(GOLDEN)));
      assert.equal((await downloadedJson(page)).text, GOLDEN);
      await saveScreenshot(page, 'threads-isolated');
      await assertCleanPage(page);
    });

  test('cross-origin isolated: "Open in Firefox Profiler" says why it cannot, and opens no tab',
    { skip: CORPUS_SKIP }, async () => {
      const page = await openPage(isolated);
      await importExport(page);
      await page.press('#open-firefox');
      await page.waitForFunction(() => /cross-origin isolated/.test(document.getElementById('firefox-note').textContent));
      assert.match(await page.textContent('#firefox-note'), /Download for Firefox Profiler/);
      await assertCleanPage(page);
    });

  test('not isolated: the single-threaded core, and the page says why', { skip: CORPUS_SKIP }, async () => {
    const page = await openPage(plain);
    assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), false);
    const status = await importExport(page);
    assert.match(status, /\. Threads: 1 \(single-threaded core\)\n/);
    assert.match(status, /\nImported on 1 thread \(the single-threaded core: the page is not cross-origin isolated\)$/);
    assert.equal((await downloadedJson(page)).text, GOLDEN);
    await assertCleanPage(page);
  });
});
