// The drag-and-drop page end to end, in each engine (Debian's Chromium,
// Firefox ESR and WebKitGTK; see support.js for what each driver can do):
// each way in (file picker, folder drop, folder picker, paste) reaches
// `loaded` with speedscope drawing the profile's flame graph; its download is
// the golden output byte for byte; bad input reaches `error` with a readable
// explanation; and no request ever leaves the page's origin. Screenshots land
// in test-artifacts/e2e/ENGINE.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';

import { CORPUS_SKIP, ROOT, UNIPROF_EXPORT, corpusFile } from '../js/support.js';
import { buildSymbolicationFixture, missingTool } from '../support/symbolication-fixture.js';
import {
  ENGINES,
  assertCleanPage,
  beforePageScripts,
  clickViewerText,
  assertFlameGraphShows,
  downloadedJson,
  dropPath,
  engineSkip,
  heaviestRoot,
  initScriptSkip,
  leftEdgeNames,
  openPage,
  saveScreenshot,
  settledState,
  pasteText,
  startSession,
  waitForViewerText,
} from './support.js';

const ZIPPED_BUNDLE = 'jlfwong__speedscope/sample/profiles/Instruments/9.3.1/simple-time-profile.trace.zip';
const BUNDLE_FOLDER = 'axe-org__TraceUtility/TestBlock/Instruments.trace';
const FOUR_RUNS_FOLDER = 'IvanCaldwell__ios-astronomy-performance/Instruments.trace';
const LEGACY_FOLDER = 'jlfwong__speedscope/sample/cpp/timeprofile.trace';
const DEEP_COPY = 'jlfwong__speedscope/sample/profiles/Instruments/16.0/simple-time-profile-deep-copy.txt';
const STRUX_FOLDER = 'Ricks__Strux/Instruments.trace';
const THOUSAND_THREADS_FOLDER = 'MulliganKyle__Thesis-EvaluationTool/Instruments3.trace';
const SWIFTUI_26 = 'benjaminRomano__mperf/src/test/resources/example.trace.zip';
const SYSTEM_TRACE_FOLDER = 'BA-Partners__Documents/Untitled.trace';
const ALLOCATIONS = 'jlfwong__speedscope/sample/profiles/Instruments/8.3.3/simple-allocations.trace.zip';
const BARE_ADDRESSES = 'openjdk__jmh/jmh-core/src/test/resources/org.openjdk.jmh.profile.xctrace/time-profile.xcode12.5.xml';

function golden(path) {
  return readFileSync(`${ROOT}/tests/golden/${path}.speedscope.json`, 'utf8');
}

for (const engine of ENGINES) describe(`the page in ${engine}`, { skip: engineSkip(engine) }, () => {
  const SKIP = CORPUS_SKIP;
  const FOLDER_PICK_SKIP = SKIP || (engine === 'chromium' ? false
    : `${engine}'s driver picks files alone in a file input, not a folder (its folder drops are made as zips: see support.js)`);
  let session;
  before(async () => {
    session = await startSession(engine);
  });
  after(async () => {
    await session?.close();
  });

  /** Checks a loaded page against the golden output of its input. */
  async function assertShowsGolden(page, goldenPath, downloadName) {
    const expected = golden(goldenPath);
    const file = JSON.parse(expected);
    await assertFlameGraphShows(page, heaviestRoot(file));
    const download = await downloadedJson(page);
    assert.equal(download.name, downloadName);
    assert.equal(download.text, expected);
  }

  test('the idle page offers a drop zone, a file picker and a folder picker', async () => {
    const page = await openPage(session);
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'idle');
    assert.match(await page.getAttribute('#file-input', 'accept'), /\.zip.*\.xml.*\.gz/);
    assert.equal(await page.evaluate(() => document.getElementById('folder-input').webkitdirectory), true);
    assert.ok(await page.isVisible('#drop-zone'));
    await saveScreenshot(page, 'idle');
    await assertCleanPage(page);
  });

  test('a browser without WebGL, folder drops or a folder picker is told what it loses',
    { skip: SKIP || initScriptSkip(engine) }, async () => {
      const page = await openPage(session);
      assert.equal(await page.isVisible('#capability-note'), false);  // this engine has them all
      await beforePageScripts(page, () => {
        const getContext = HTMLCanvasElement.prototype.getContext;
        HTMLCanvasElement.prototype.getContext = function withoutWebGL(kind, ...rest) {
          return /^(webgl|webgl2|experimental-webgl)$/.test(kind) ? null : getContext.call(this, kind, ...rest);
        };
        delete DataTransferItem.prototype.webkitGetAsEntry;
        delete HTMLInputElement.prototype.webkitdirectory;
      });
      await page.goto(`${session.origin}/`);
      const note = await page.textContent('#capability-note');
      assert.match(note, /^This browser gives the page no WebGL .* speedscope's viewer cannot draw flame graphs here: recordings still open/);
      assert.match(note, /This browser cannot read a dropped folder: zip the \.trace folder and drop the zip\./);
      assert.match(note, /This browser cannot pick a folder: zip the \.trace folder and choose the zip\.$/);
      assert.equal(await page.$eval('#folder-input', (input) => input.closest('label').hidden), true);
      // A recording still opens, and its download is whole.
      await page.setInputFiles('#file-input', corpusFile(ZIPPED_BUNDLE));
      assert.equal(await settledState(page), 'loaded');
      assert.equal((await downloadedJson(page)).text, golden('trace_bundle/speedscope-9.3.1-simple-time-profile'));
      assert.equal(await page.isVisible('#capability-note'), true);  // still said, over the blank viewer
      await saveScreenshot(page, 'missing-features');
    });

  test('a zipped .trace from the file picker shows its flame graph', { skip: SKIP }, async () => {
    const page = await openPage(session);
    await page.setInputFiles('#file-input', corpusFile(ZIPPED_BUNDLE));
    assert.equal(await settledState(page), 'loaded');
    await assertShowsGolden(page, 'trace_bundle/speedscope-9.3.1-simple-time-profile',
      'simple-time-profile.speedscope.json');
    assert.match(await page.textContent('#status'), /4,646 samples in 1 thread\b/);
    await saveScreenshot(page, 'zipped-trace');
    await assertCleanPage(page);
  });

  test('an Instruments 26 recording of a Swift app shows Swift and system names, not addresses', { skip: SKIP }, async () => {
    const page = await openPage(session);
    await dropPath(page, corpusFile(SWIFTUI_26));
    assert.equal(await settledState(page), 'loaded');
    await assertShowsGolden(page, 'trace_bundle/mperf-26.0-swiftui-simulator', 'example.speedscope.json');
    // The heaviest path, as speedscope draws it: from the process's start
    // through the run loop to the app's own work, every row a name.
    const names = await leftEdgeNames(page);
    const expected = ['start', 'static perftestexampleApp.$main()', 'UIApplicationMain', 'GSEventRunModal',
      '__CFRunLoopRun', 'closure #1 in CPUStressView.startWork()', 'static CPUStressWork.expensiveLoop(iterationCount:)'];
    let at = -1;
    for (const name of expected) {
      const next = names.indexOf(name, at + 1);
      assert.ok(next > at, `${name} after ${names[at]} in ${JSON.stringify(names)}`);
      at = next;
    }
    // One frame of the simulator's loader lies in no image the recording lists.
    assert.deepEqual(names.filter((name) => /^(\$s|_\$s|0x)/.test(name)), ['0x100df53d0']);
    // The status line counts the names, and the bodies the linker folded from
    // several functions; the few left unnamed are no SYMBOLS_MISSING.
    const status = await page.textContent('#status');
    assert.match(status, /883 of 993 sampled frames named \(88\.9%\); 34 are code the linker folded from several functions \(<deduplicated_symbol>, as Instruments shows it\)/);
    assert.doesNotMatch(status, /SYMBOLS_MISSING/);
    await saveScreenshot(page, 'instruments-26-swiftui');
    await assertCleanPage(page);
  });

  test('an export of bare addresses says in the status line that symbols are missing', { skip: SKIP }, async () => {
    const page = await openPage(session);
    await page.setInputFiles('#file-input', corpusFile(BARE_ADDRESSES));
    assert.equal(await settledState(page), 'loaded');
    const status = await page.textContent('#status');
    assert.match(status, /5 of 50 sampled frames named \(10%\)/);
    assert.match(status, /SYMBOLS_MISSING: unnamed frames make up 87% of the flame graph of find 0xe9f21 — find \(pid 23759\): 45 frames in 98 samples at bare addresses\. Give the app's binary or dSYM with the address it was loaded at/);
    await saveScreenshot(page, 'symbols-missing');
    await assertCleanPage(page);
  });

  test('a .trace folder dropped on the page shows its flame graph', { skip: SKIP }, async () => {
    const page = await openPage(session);
    await dropPath(page, corpusFile(BUNDLE_FOLDER));
    assert.equal(await settledState(page), 'loaded');
    await assertShowsGolden(page, 'trace_bundle/axe-org-10.1-testblock', 'Instruments.speedscope.json');
    // CPU profiles first: the main thread (the busiest, on show), the pool,
    // all threads, then the other threads busiest first; then the intervals
    // and the threads' samples during them.
    const groups = await page.$$eval('#thread-select optgroup', (elements) => elements.map((group) =>
      [group.label, [...group.querySelectorAll('option')].map((option) => option.textContent)]));
    assert.deepEqual(groups.map(([label]) => label), ['CPU (7)', 'Intervals (1)', 'During intervals (8)']);
    const cpu = groups[0][1];
    assert.match(cpu[0], /^Main Thread 0x[0-9a-f]+ — 2,947 samples$/);
    assert.equal(cpu[1], '_dispatch_worker_thread2 ×2 — 19 samples');
    assert.equal(cpu[2], 'All threads — 3,036 samples, 5 threads');
    const counts = cpu.slice(3).map((label) => Number(label.match(/— ([\d,]+) samples?$/)[1].replaceAll(',', '')));
    assert.deepEqual(counts, [...counts].sort((a, b) => b - a));
    assert.deepEqual(groups[1][1], ['Life cycle — 3 intervals']);
    assert.equal(await page.inputValue('#thread-select'), '0');
    await saveScreenshot(page, 'trace-folder-dropped');

    // Picking another thread shows it, among the process's threads and the
    // run's intervals, which speedscope lists in profile order.
    const other = cpu[3].split(' — ')[0];
    await page.selectOption('#thread-select', { label: cpu[3] });
    await waitForViewerText(page,
      new RegExp(`^${other.replace(/[[\]()]/g, '\\$&')} — TestBlock\\.app \\(pid 7946\\) \\(\\d+/\\d+\\)$`));
    assert.equal(await page.isHidden('#viewer-note'), true);
    await assertCleanPage(page);
  });

  test('past the viewer\'s budget speedscope gets the thread picked alone, condensed, and the page says so',
    { skip: SKIP }, async () => {
      const page = await openPage(session);
      await page.goto(`${session.origin}/?viewer-budget=3000`);
      await page.waitForFunction(() => document.body.dataset.state === 'idle');
      await dropPath(page, corpusFile(BUNDLE_FOLDER));
      assert.equal(await settledState(page), 'loaded');
      // The process's five threads cost the viewer more than 3,000: the main thread and the
      // intervals go, the thread's samples summed by stack within windows of its time.
      await page.waitForSelector('#viewer-note:not([hidden])');
      const note = await page.textContent('#viewer-note');
      assert.match(note, /^This process's threads and the profile picked are more than speedscope's viewer reads in good time/);
      assert.match(note, /\(Main Thread 0x[0-9a-f]+ — TestBlock\.app \(pid 7946\): [\d,]+ windows? of [\d.]+ [mµ]?s\): Left Heavy and Sandwich are exact, Time Order only to a window\. The download keeps every sample\.$/);
      await waitForViewerText(page, /^Main Thread 0x[0-9a-f]+ — TestBlock\.app \(pid 7946\) \(1\/2\)$/);
      // Another thread picked is the one the viewer gets.
      const option = await page.$eval('#thread-select optgroup option:nth-child(4)', (element) => element.textContent);
      await page.selectOption('#thread-select', { label: option });
      const name = option.split(' — ')[0].replace(/[[\]()]/g, '\\$&');
      await waitForViewerText(page, new RegExp(`^${name} — TestBlock\\.app \\(pid 7946\\) \\(1/2\\)$`));
      assert.equal(await page.isHidden('#viewer-note'), false);
      await assertCleanPage(page);
    });

  test('intervals open on the time axis of the CPU samples, in Time Order', { skip: SKIP }, async () => {
    const page = await openPage(session);
    await dropPath(page, corpusFile(STRUX_FOLDER));
    assert.equal(await settledState(page), 'loaded');
    const intervals = await page.$$eval('#thread-select optgroup[label^="Intervals"] option',
      (options) => options.map((option) => option.textContent));
    assert.deepEqual(intervals, ['Thermal state — 3 intervals', 'Life cycle — 12 intervals', 'App spins — 1 interval']);
    await page.selectOption('#thread-select', { label: 'Life cycle — 12 intervals' });
    await waitForViewerText(page, /^Life cycle — StruxMacApp\.app \(pid 18689\) \(\d+\/\d+\)$/);
    // The longest period, named as Instruments names it, is the heaviest root.
    await assertFlameGraphShows(page, 'Background');
    await clickViewerText(page, 'Time Order');
    await page.waitForTimeout(500);  // for the screenshot: speedscope redraws on its next frame
    await saveScreenshot(page, 'intervals-time-order');
    await assertCleanPage(page);
  });

  test('a System Trace opens where a process\'s main thread waited, its thread states a lane away',
    { skip: SKIP }, async () => {
      const page = await openPage(session);
      await dropPath(page, corpusFile(SYSTEM_TRACE_FOLDER));
      assert.equal(await settledState(page), 'loaded');
      const safari = await page.$$eval('#process-select option', (options) =>
        options.find((option) => option.textContent.startsWith('Safari (pid 93499)'))?.value);
      assert.ok(safari, 'Safari among the processes');
      await page.selectOption('#process-select', safari);
      // Where threads waited comes first, each group its main thread first.
      const groups = await page.$$eval('#thread-select optgroup', (elements) =>
        elements.map((group) => [group.label, group.querySelector('option').textContent]));
      assert.deepEqual(groups.slice(0, 3), [
        ['Time off CPU (7)', 'Main Thread 0x20dfe6 — time off CPU — 141 ms'],
        ['Wait in system calls (6)', 'Main Thread 0x20dfe6 — wait in system calls — 134 ms'],
        ['Time in system calls (7)', 'Main Thread 0x20dfe6 — time in system calls — 135 ms'],
      ]);
      assert.equal(await page.$eval('#thread-select', (select) => select.selectedOptions[0].textContent),
        'Main Thread 0x20dfe6 — time off CPU — 141 ms');
      // Its waits in system calls: the run loop waiting in mach_msg2_trap, the leaf.
      const waits = await page.$$eval('#thread-select optgroup[label^="Wait in system calls"] option',
        (options) => options[0].value);
      await page.selectOption('#thread-select', waits);
      await waitForViewerText(page, /^Main Thread 0x20dfe6 — Safari \(pid 93499\) — wait in system calls \(\d+\/\d+\)$/);
      const names = await leftEdgeNames(page);
      assert.equal(names.at(-1), 'mach_msg2_trap', JSON.stringify(names));
      await saveScreenshot(page, 'system-trace-main-thread-waits');
      // Its thread states, a lane of intervals: blocked nearly all the run.
      const lane = await page.$$eval('#thread-select optgroup[label^="Intervals"] option', (options) =>
        options.find((option) => option.textContent.startsWith('Thread states — Main Thread 0x20dfe6'))?.value);
      assert.ok(lane, 'the main thread\'s thread-state lane');
      await page.selectOption('#thread-select', lane);
      await waitForViewerText(page, /^Thread states — Main Thread 0x20dfe6 — Safari \(pid 93499\) \(\d+\/\d+\)$/);
      await assertFlameGraphShows(page, 'Blocked');
      await clickViewerText(page, 'Time Order');
      await page.waitForTimeout(500);  // for the screenshot: speedscope redraws on its next frame
      await saveScreenshot(page, 'system-trace-thread-states');
      await assertCleanPage(page);
    });

  test('a process of a thousand threads lists its main thread, its pool and all threads first',
    { skip: SKIP }, async () => {
      const page = await openPage(session);
      await dropPath(page, corpusFile(THOUSAND_THREADS_FOLDER));
      assert.equal(await settledState(page), 'loaded');
      const options = await page.$$eval('#thread-select option', (elements) =>
        elements.slice(0, 3).map((option) => [option.textContent, option.title]));
      assert.equal(options[0][0], 'Main Thread 0x34ef96 — 6,383 samples');
      // The std::thread workers, their 200-character name shortened, whole in the tooltip.
      assert.match(options[1][0], /^void\* std::__1::__thread_proxy<.+….+ ×1121 — 3,834 samples$/);
      assert.ok(options[1][1].startsWith('void* std::__1::__thread_proxy<std::__1::tuple<std::__1::unique_ptr<'));
      assert.equal(options[2][0], 'All threads — 10,263 samples, 1,145 threads');
      await assertCleanPage(page);
    });

  test('an Allocations recording opens as bytes, with its memory profiles grouped', { skip: SKIP }, async () => {
    const page = await openPage(session);
    await page.setInputFiles('#file-input', corpusFile(ALLOCATIONS));
    assert.equal(await settledState(page), 'loaded');
    await assertShowsGolden(page, 'trace_bundle/speedscope-8.3.3-simple-allocations',
      'simple-allocations.speedscope.json');
    const memory = await page.$$eval('#thread-select optgroup[label^="Memory"] option',
      (options) => options.map((option) => option.textContent));
    assert.deepEqual(memory, [
      'All threads — all allocations (bytes) — 423 allocations, 435.00 KiB',
      'All threads — still alive at the end (bytes) — 422 allocations, 422.00 KiB',
      'All threads — all allocations (count) — 423 allocations',
      'All threads — still alive at the end (count) — 422 allocations',
      'All threads — VM regions mapped (bytes) — 1 region, 8.00 MiB',
      'All threads — VM regions still mapped at the end (bytes) — 1 region, 8.00 MiB',
    ]);
    assert.equal(await page.textContent('#thread-select option:checked'), memory[0]);
    const status = await page.textContent('#status');
    assert.match(status, /423 allocations, recorded with Allocations, VM Tracker/);
    assert.match(status, /INSTRUMENT_NOT_READ: the VM Tracker instrument's recording is not read/);

    await page.selectOption('#thread-select', { label: memory[1] });
    await waitForViewerText(page, /All threads — simple \(pid 26616\) — still alive at the end \(bytes\)/);
    // speedscope weighs the frames in bytes: the 422 blocks of 1 KiB still alive.
    const tooltip = await assertFlameGraphShows(page, 'start');
    assert.match(tooltip, /^422\.00 KB \(100%\) start/);
    await saveScreenshot(page, 'allocations-bytes');
    await assertCleanPage(page);
  });

  test('a .trace folder from the folder picker shows its flame graph', { skip: FOLDER_PICK_SKIP }, async () => {
    const page = await openPage(session);
    await page.setInputFiles('#folder-input', corpusFile(BUNDLE_FOLDER));
    assert.equal(await settledState(page), 'loaded');
    await assertShowsGolden(page, 'trace_bundle/axe-org-10.1-testblock', 'Instruments.speedscope.json');
    await assertCleanPage(page);
  });

  test('a recording of several runs offers a run picker', { skip: SKIP }, async () => {
    const page = await openPage(session);
    if (engine === 'chromium') {
      await page.setInputFiles('#folder-input', corpusFile(FOUR_RUNS_FOLDER));
    } else {
      await dropPath(page, corpusFile(FOUR_RUNS_FOLDER));
    }
    assert.equal(await settledState(page), 'loaded');
    assert.ok(await page.isVisible('#run-select'));
    const runs = await page.$$eval('#run-select option', (options) => options.map((option) => option.textContent));
    assert.deepEqual(runs.map((label) => label.split(' — ')[0]), ['Run 1', 'Run 2', 'Run 3', 'Run 4']);
    const total = runs.reduce((sum, label) => sum + Number(label.match(/([\d,]+) samples$/)[1].replaceAll(',', '')), 0);
    assert.equal(total, 571174);  // tests/golden/trace_bundle/ivancaldwell-10.1-four-runs.summary.json
    // The run Instruments had on show opens first, at its busiest thread.
    assert.equal(await page.inputValue('#run-select'), '1');
    assert.equal(await page.textContent('#thread-select option:checked'), 'Main Thread 0x1b40f8 — 48,067 samples');

    await page.selectOption('#run-select', '2');
    assert.equal(await page.textContent('#process-select option:checked'), 'pid 56770 — ' +
      (await page.textContent('#run-select option:checked')).split(' — ')[1]);
    assert.equal(await page.textContent('#thread-select option:checked'), 'Main Thread 0x1c0d78 — 52,184 samples');
    // Its 40 threads cost the viewer more than it reads in good time: the thread picked goes alone.
    await waitForViewerText(page, /^Main Thread 0x1c0d78 — pid 56770 — run 2$/);
    assert.match(await page.textContent('#viewer-note'), /^This process's threads and the profile picked are more than/);
    await saveScreenshot(page, 'four-runs');
    await assertCleanPage(page);
  });

  test('an xctrace export (.xml.gz) from the file picker shows its flame graph', { skip: SKIP }, async () => {
    const page = await openPage(session);
    await page.setInputFiles('#file-input', corpusFile(UNIPROF_EXPORT));
    assert.equal(await settledState(page), 'loaded');
    await assertShowsGolden(page, 'xctrace_xml/uniprof-test-simple-export', 'test-simple-export.speedscope.json');
    assert.equal(await page.textContent('#process-select option'), 'test-simple (pid 49230) — 518 samples');
    await saveScreenshot(page, 'xctrace-export');
    await assertCleanPage(page);
  });

  test('a long import shows its progress and stops on Cancel', { skip: SKIP }, async () => {
    const page = await openPage(session);
    // An export with 48 MiB of comments ahead of its rows, a dozen slices to
    // read, made in the page and picked through the input's own FileList.
    // Cancel is clicked from the page at the first progress, so as not to race the import.
    const xml = gunzipSync(readFileSync(corpusFile(UNIPROF_EXPORT))).toString('utf8');
    const seen = await page.evaluate((text) => new Promise((resolve) => {
      const detail = document.getElementById('progress-detail');
      const observer = new MutationObserver(() => {
        if (!/MiB of 48\.\d\d MiB/.test(detail.textContent)) return;
        observer.disconnect();
        resolve({
          state: document.body.dataset.state,
          stage: document.getElementById('progress-stage').textContent,
          bar: document.getElementById('progress-bar').value,
        });
        document.getElementById('cancel').click();
      });
      observer.observe(detail, { childList: true, characterData: true, subtree: true });
      const prolog = text.indexOf('?>') + 2;
      const comments = `<!--${' '.repeat(4089)}-->\n`.repeat(12288);
      const picked = new DataTransfer();
      picked.items.add(new File([text.slice(0, prolog), comments, text.slice(prolog)], 'long.xml'));
      const input = document.getElementById('file-input');
      input.files = picked.files;
      input.dispatchEvent(new Event('change'));
    }), xml);
    assert.equal(seen.state, 'loading');
    assert.match(seen.stage, /^(Reading|Parsing)$/);
    assert.ok(seen.bar > 0);
    await page.waitForFunction(() => document.body.dataset.state === 'idle');
    assert.equal(await page.textContent('#status'), 'Stopped reading long.xml.');
    await assertCleanPage(page);
  });

  test('a recording dropped on the viewer replaces the one on show', { skip: SKIP }, async () => {
    const page = await openPage(session);
    await page.setInputFiles('#file-input', corpusFile(UNIPROF_EXPORT));
    assert.equal(await settledState(page), 'loaded');
    await waitForViewerText(page, 'Left Heavy');
    await dropPath(page, corpusFile(ZIPPED_BUNDLE), '#viewer');
    await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('simple-time-profile'));
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'loaded');
    await assertFlameGraphShows(page, heaviestRoot(JSON.parse(golden('trace_bundle/speedscope-9.3.1-simple-time-profile'))));
    await assertCleanPage(page);  // no "Unrecognized format!" from speedscope's own importer
  });

  test('a damaged zip reaches the error panel, saying what and where', async () => {
    const page = await openPage(session);
    // A zip's first local header, then nothing a zip needs: no central directory.
    const bytes = Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00damaged on its way here', 'latin1');
    await page.setInputFiles('#file-input', { name: 'damaged.trace.zip', mimeType: 'application/zip', buffer: bytes });
    assert.equal(await settledState(page), 'error');
    assert.equal(await page.textContent('#error-title'), 'Could not open damaged.trace.zip');
    assert.equal(await page.textContent('#error-code'), 'ZIP_CORRUPT');
    assert.match(await page.textContent('#error-message'), /no end of central directory record/);
    assert.equal(await page.textContent('#error-where'), `byte ${bytes.length}`);
    assert.match(await page.textContent('#error-hint'), /zip the whole \.trace folder again/);
    await saveScreenshot(page, 'damaged-zip');

    // And the page recovers: another file opens.
    await page.click('#error-dismiss');
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'idle');
    await assertCleanPage(page);
  });

  test('a hostile input ends in a named limit, with no stack trace on the page', async () => {
    const page = await openPage(session);
    const levels = 200_000;
    const xml = `<?xml version="1.0"?>\n<trace-query-result>${'<a>'.repeat(levels)}${'</a>'.repeat(levels)}` +
      '</trace-query-result>\n';
    await page.setInputFiles('#file-input', { name: 'deep.xml', mimeType: 'text/xml', buffer: Buffer.from(xml) });
    assert.equal(await settledState(page), 'error');
    assert.equal(await page.textContent('#error-code'), 'LIMIT_EXCEEDED');
    assert.match(await page.textContent('#error-message'), /nest deeper than 256 levels \(limits\.maxXmlDepth\)/);
    assert.match(await page.textContent('#error-where'), /^trace-query-result\/a\/.*line 2, byte \d+$/);
    assert.match(await page.textContent('#error-hint'), /--limit maxXmlDepth=N/);
    const shown = await Promise.all(['title', 'message', 'where', 'code', 'hint'].map((part) =>
      page.textContent(`#error-${part}`)));
    assert.doesNotMatch(shown.join('\n'), /\bat .*:\d+:\d+|\.js:\d+|\.wasm/);
    await assertCleanPage(page);
  });

  test('text that is no recording says which formats it reads', async () => {
    const page = await openPage(session);
    await page.setInputFiles('#file-input', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\n') });
    assert.equal(await settledState(page), 'error');
    assert.equal(await page.textContent('#error-code'), 'UNKNOWN_FORMAT');
    assert.match(await page.textContent('#error-hint'), /zipped \.trace.*\.trace folder.*xctrace export/);
    await assertCleanPage(page);
  });

  test('a pasted export opens like a picked one', { skip: SKIP }, async () => {
    const page = await openPage(session);
    const xml = readFileSync(corpusFile('openjdk__jmh/jmh-core/src/test/resources/org.openjdk.jmh.profile.xctrace/time-profile.xml'), 'utf8');
    await pasteText(page, xml);
    assert.equal(await settledState(page), 'loaded');
    const expected = JSON.parse(golden('xctrace_xml/jmh-time-profile-xcode14.3'));
    await assertFlameGraphShows(page, heaviestRoot(expected));
    const download = await downloadedJson(page);
    assert.equal(download.name, 'pasted text.speedscope.json');
    assert.deepEqual(JSON.parse(download.text).profiles, expected.profiles);
    await assertCleanPage(page);
  });

  test('a legacy .trace folder (Instruments 7) dropped on the page shows its flame graph', { skip: SKIP }, async () => {
    const page = await openPage(session);
    await dropPath(page, corpusFile(LEGACY_FOLDER));
    assert.equal(await settledState(page), 'loaded');
    await assertShowsGolden(page, 'trace_bundle/speedscope-7.x-cpp-timeprofile', 'timeprofile.speedscope.json');
    assert.match(await page.textContent('#status'), /513 samples in 1 thread, recorded with Time Profiler/);
    await assertCleanPage(page);
  });

  test('a pasted Deep Copy shows its call tree, and a damaged one its line', { skip: SKIP }, async () => {
    const page = await openPage(session);
    const paste = (text) => pasteText(page, text);
    const copy = readFileSync(corpusFile(DEEP_COPY), 'utf8');
    await paste(copy);
    assert.equal(await settledState(page), 'loaded');
    const expected = JSON.parse(golden('deep_copy/deep-copy-time-16.0'));
    await assertFlameGraphShows(page, heaviestRoot(expected));
    const download = await downloadedJson(page);
    assert.deepEqual(JSON.parse(download.text).shared, expected.shared);
    assert.deepEqual(JSON.parse(download.text).profiles.map((p) => p.weights), expected.profiles.map((p) => p.weights));
    await saveScreenshot(page, 'deep-copy');

    const damaged = copy.split('\n');
    damaged[4] = damaged[4].replace('ms', 'furlongs');
    await paste(damaged.join('\n'));
    assert.equal(await settledState(page), 'error');
    assert.equal(await page.textContent('#error-code'), 'DEEP_COPY_BAD_ROW');
    assert.match(await page.textContent('#error-message'), /"furlongs"/);
    assert.match(await page.textContent('#error-where'), /line 5/);
    assert.match(await page.textContent('#error-hint'), /Deep Copy/);
    await assertCleanPage(page);
  });

  const symbolsSkip = missingTool() ? `${missingTool()} is not installed` : false;
  test('a dSYM dropped with an export of addresses, or after it, names its frames as llvm-symbolizer does', { skip: symbolsSkip }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'instrumentscope-page-symbols-'));
    try {
      const built = buildSymbolicationFixture(dir, 'arm64');
      const expected = built.expected.map((stack) => stack.map(({ name, file, line }) => (line === undefined ? { name } : { name, file, line })));
      const stacksOf = (text) => {
        const file = JSON.parse(text);
        return file.profiles[0].samples.map((stack) => stack.map((index) => {
          const { name, file: source, line } = file.shared.frames[index];
          return line === undefined ? { name } : { name, file: source, line };
        }));
      };
      const page = await openPage(session);
      await dropPath(page, [built.framesExport, built.dsym]);
      assert.equal(await settledState(page), 'loaded');
      assert.deepEqual(stacksOf((await downloadedJson(page)).text), expected);
      // (A dSYM folder is dropped as a zip of it but in Chromium: see support.js.)
      assert.match(await page.textContent('#status'), /Named \d+ of \d+ unnamed frames from program\.dSYM(\.zip!program\.dSYM)?\/Contents\/Resources\/DWARF\/program \(arm64\)/);
      await saveScreenshot(page, 'symbolicated');

      // "By line": each address's own file and line, as llvm-symbolizer gives them.
      const byLine = built.expected.map((stack) => stack.map(({ name, file, line, sourceFile, sourceLine }) => {
        if (sourceLine) return { name, file: sourceFile, line: sourceLine };
        return line === undefined ? { name } : { name, file, line };
      }));
      await page.check('#symbol-lines');  // the recording is read again
      assert.equal(await settledState(page), 'loaded');
      assert.deepEqual(stacksOf((await downloadedJson(page)).text), byLine);
      await page.uncheck('#symbol-lines');
      assert.equal(await settledState(page), 'loaded');

      // The export alone shows addresses; the dSYM dropped on the viewer names them.
      const later = await openPage(session);
      await dropPath(later, built.framesExport);
      assert.equal(await settledState(later), 'loaded');
      assert.ok(stacksOf((await downloadedJson(later)).text).flat().every((frame) => frame.name.startsWith('0x')));
      await later.setInputFiles('#viewer-symbols-input', join(built.dsym, 'Contents/Resources/DWARF/program'));
      await later.waitForFunction(() => /Named/.test(document.getElementById('status').textContent));
      assert.equal(await settledState(later), 'loaded');
      assert.deepEqual(stacksOf((await downloadedJson(later)).text), expected);

      // A damaged symbol file stops the import with its name, and is then set aside.
      const damaged = await openPage(session);
      const cut = readFileSync(join(built.dsym, 'Contents/Resources/DWARF/program')).subarray(0, 600);
      await damaged.setInputFiles('#symbols-input', { name: 'program', mimeType: 'application/octet-stream', buffer: cut });
      await damaged.waitForFunction(() => /Symbols ready/.test(document.getElementById('status').textContent));
      await dropPath(damaged, built.framesExport);
      assert.equal(await settledState(damaged), 'error');
      assert.match(await damaged.textContent('#error-title'), /Could not read the symbol file program/);
      assert.match(await damaged.textContent('#error-code'), /^(MACHO_CORRUPT|TRUNCATED)$/);
      assert.match(await damaged.textContent('#error-hint'), /set aside/);
      await damaged.click('#error-dismiss');
      assert.equal(await damaged.isVisible('#symbols-status'), false);  // the bad file is gone
      await dropPath(damaged, built.framesExport);
      assert.equal(await settledState(damaged), 'loaded');

      // An export of bare addresses is named once the load address is typed.
      await damaged.click('#open-another');
      await damaged.setInputFiles('#symbols-input', join(built.dsym, 'Contents/Resources/DWARF/program'));
      await damaged.fill('#load-address', '0x104a8c000');
      await dropPath(damaged, built.bareExport);
      assert.equal(await settledState(damaged), 'loaded');
      assert.deepEqual(stacksOf((await downloadedJson(damaged)).text), expected);
      await damaged.click('#open-another');
      await damaged.fill('#load-address', '');
      await damaged.click('#forget-symbols');

      // Symbols kept for the next recording are listed, and can be forgotten.
      await damaged.setInputFiles('#symbols-input', join(built.dsym, 'Contents/Resources/DWARF/program'));
      await damaged.waitForSelector('#symbols-status:not([hidden])');
      assert.match(await damaged.textContent('#symbols-names'), /^program$/);
      await saveScreenshot(damaged, 'symbols-ready');
      await damaged.click('#forget-symbols');
      assert.equal(await damaged.isVisible('#symbols-status'), false);
      await dropPath(damaged, built.framesExport);
      assert.equal(await settledState(damaged), 'loaded');
      assert.ok(stacksOf((await downloadedJson(damaged)).text).flat().every((frame) => frame.name.startsWith('0x')));

      // A 32-bit binary dropped beside the export is a symbol file, as the core
      // tells by its first bytes, not a second recording: refused as one.
      const thin32 = join(dir, 'program32');
      const header = Buffer.alloc(4096);
      header.writeUInt32LE(0xfeedface, 0);  // MH_MAGIC: 32-bit
      header.writeUInt32LE(12, 4);  // CPU_TYPE_ARM
      writeFileSync(thin32, header);
      const old = await openPage(session);
      await dropPath(old, [thin32, built.framesExport]);
      assert.equal(await settledState(old), 'error');
      assert.match(await old.textContent('#error-title'), /Could not read the symbol file program32/);
      assert.equal(await old.textContent('#error-code'), 'MACHO_UNSUPPORTED');
      await assertCleanPage(page);
      await assertCleanPage(later);
      await assertCleanPage(damaged);
      await assertCleanPage(old);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the page\'s Content-Security-Policy refuses other origins', async () => {
    const page = await openPage(session);
    const response = await fetch(`${session.origin}/`);
    assert.match(response.headers.get('content-security-policy'), /default-src 'self'/);
    const outcome = await page.evaluate(() => fetch('https://example.com/').then(() => 'fetched', (error) => error.name));
    assert.equal(outcome, 'TypeError');
    if (engine === 'chromium') {
      // The refusal is the policy's, before any request: the route never saw one.
      assert.deepEqual(page.foreignRequests, []);
    } else {
      // The policy's refusal is reported to the page (Firefox reports it twice).
      const reported = await page.evaluate(() => window.e2eProblems.splice(0));
      assert.ok(reported.length > 0 && reported.every((problem) => problem === 'foreign request: https://example.com/'),
        JSON.stringify(reported));
    }
  });
});
