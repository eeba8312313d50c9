// Drives the page (web/page, served by web/serve.js) in any of the three
// engines (engines.js), through one small page API that the tests use
// whatever the engine: everything is done as a person's script in the page
// would, but picking files, moving the pointer, taking screenshots and
// dropping files from disk, which go through the engine's driver.
//
// What only Chromium's driver does: dropping folders from disk (elsewhere a
// folder is dropped as a zip of it, made here, which the page opens the same
// way), picking a folder in a file input, real downloads (elsewhere the page's download link is caught as it is
// clicked and its blob read), and refusing every request that would leave the
// origin at the network (elsewhere the page's own Content-Security-Policy
// refuses them, and its violation reports are what the tests count).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import { serve } from '../../web/serve.js';
import { ROOT } from '../js/support.js';
import { ENGINES, engineSkip, launchEngine } from './engines.js';

export { ENGINES, engineSkip };

const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');
const SCRATCH = mkdtempSync(join(tmpdir(), 'instrumentscope-e2e-'));

/**
 * The server and one engine's browser, shared by a test file's tests in that
 * engine; with `isolated`, the page is served cross-origin isolated.
 */
export async function startSession(engineName = 'chromium', { isolated = false } = {}) {
  const server = await serve({ port: 0, isolated });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const engine = await launchEngine(engineName);
  return {
    engine: engineName,
    version: engine.version,
    origin,
    browser: engine,
    pages: [],
    async close() {
      for (const page of this.pages.splice(0)) await page.retire();
      await engine.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A fresh page on the served site. `page.foreignRequests` lists requests that
 * tried to leave the origin; `page.problems` lists page errors and console
 * errors (Content-Security-Policy violations among them).
 */
export async function openPage(session) {
  // One page at a time: the previous test's page, viewer and worker go.
  for (const previous of session.pages.splice(0)) await previous.retire();
  const page = new TestPage(await session.browser.newPage(), session);
  session.pages.push(page);
  if (session.engine === 'chromium') watchChromium(page);
  await page.goto(`${session.origin}/`);
  return page;
}

// Chromium's driver sees every request and every error as it happens.
function watchChromium(page) {
  const native = page.driverPage.native;
  native.context().route('**/*', (route) => {
    const url = route.request().url();
    if (isSameOrigin(url, page.session.origin) || page.allowedOrigins.has(new URL(url).origin)) {
      return route.continue();
    }
    page.foreignRequests.push(url);
    return route.abort('blockedbyclient');
  });
  // speedscope's own import of a large profile takes seconds on a loaded 2-core machine.
  native.setDefaultTimeout(90_000);
  native.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
  native.on('dialog', (dialog) => {
    page.problems.push(`dialog: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  native.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console error: ${message.text()}`);
  });
}

function isSameOrigin(url, origin) {
  if (url.startsWith('blob:')) return url.startsWith(`blob:${origin}/`);
  if (url.startsWith('data:')) return true;  // inline, fetches nothing
  return new URL(url).origin === origin;
}

// Elsewhere the page reports into a list of its own, read back by the test:
// errors, rejections, console errors and policy violations of the page and
// of the viewer's frame, from the moment the recorder is installed.
function installRecorder() {
  if (window.e2eProblems) return;
  window.e2eProblems = [];
  const record = (target, owner) => {
    target.addEventListener('error', (event) => owner.e2eProblems.push(`page error: ${event.message}`));
    target.addEventListener('unhandledrejection', (event) =>
      owner.e2eProblems.push(`page error: ${event.reason?.message ?? event.reason}`));
    target.document.addEventListener('securitypolicyviolation', (event) => {
      const refused = /^(eval|inline|wasm-eval)$/.test(event.blockedURI);
      // speedscope's bundle tries eval (and a synchronous WebAssembly
      // compile) inside try/catch as it starts, and carries on without; only
      // WebKit reports the policy's refusals of them.
      if (refused && new URL(event.sourceFile, location.href).pathname.startsWith('/speedscope/')) return;
      owner.e2eProblems.push(refused
        ? `policy refused ${event.blockedURI} (${event.effectiveDirective}) in ${event.sourceFile}:${event.lineNumber}`
        : `foreign request: ${event.blockedURI}`);
    });
    const error = target.console.error;
    target.console.error = (...args) => {
      owner.e2eProblems.push(`console error: ${args.join(' ')}`);
      error.apply(target.console, args);
    };
  };
  record(window, window);
  new MutationObserver(() => {
    const frame = document.querySelector('#viewer iframe');
    if (frame && !frame.dataset.e2eWatched) {
      frame.dataset.e2eWatched = 'yes';
      frame.addEventListener('load', () => record(frame.contentWindow, window));
    }
  }).observe(document.body, { childList: true, subtree: true });
}

/** The page API the tests use, the same in every engine. */
class TestPage {
  constructor(driverPage, session) {
    this.driverPage = driverPage;
    this.session = session;
    this.engine = session.engine;
    this.foreignRequests = [];
    this.problems = [];
    // Origins besides the page's that a test lets it reach (a stand-in for another site).
    this.allowedOrigins = new Set();
  }

  /** Closes the page, keeping what it reported for assertCleanPage. */
  async retire() {
    if (this.closed) return;
    await this.collectReports().catch(() => {});
    this.closed = true;
    await this.driverPage.close().catch(() => {});
  }

  // Moves what the page's recorder holds (see installRecorder) to the lists.
  async collectReports() {
    if (this.engine === 'chromium' || this.closed) return;
    const reported = await this.evaluate(() => {
      const taken = window.e2eProblems ?? [];
      window.e2eProblems = [];
      return taken;
    });
    this.foreignRequests.push(...reported.filter((problem) => problem.startsWith('foreign request: ')));
    this.problems.push(...reported.filter((problem) => !problem.startsWith('foreign request: ')));
  }

  async goto(url) {
    await this.collectReports();
    await this.driverPage.goto(url);
    if (this.engine !== 'chromium') await this.evaluate(installRecorder);
    await this.waitForFunction(() => document.body.dataset.state === 'idle');
  }

  evaluate(fn, arg) {
    return this.driverPage.evaluate(fn, arg);
  }

  waitForFunction(fn, arg, options = {}) {
    return this.driverPage.waitFor(fn, arg, { timeout: 90_000, ...options });
  }

  waitForTimeout(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** fn(element) in the page, of the first element `selector` names. */
  $eval(selector, fn) {
    return this.driverPage.evaluateSource(`(${fn})(document.querySelector(${JSON.stringify(selector)}))`);
  }

  /** fn([elements]) in the page, of every element `selector` names. */
  $$eval(selector, fn) {
    return this.driverPage.evaluateSource(`(${fn})([...document.querySelectorAll(${JSON.stringify(selector)})])`);
  }

  textContent(selector) {
    return this.$eval(selector, (element) => element?.textContent ?? null);
  }

  getAttribute(selector, name) {
    return this.evaluate(({ selector: s, name: n }) => document.querySelector(s).getAttribute(n), { selector, name });
  }

  inputValue(selector) {
    return this.$eval(selector, (element) => element.value);
  }

  /** Shown: laid out, with no hidden ancestor. */
  isVisible(selector) {
    return this.$eval(selector, (element) => Boolean(element && element.getClientRects().length &&
      getComputedStyle(element).visibility !== 'hidden'));
  }

  async isHidden(selector) {
    return !(await this.isVisible(selector));
  }

  waitForSelector(selector) {
    return this.waitForFunction((s) => {
      const element = document.querySelector(s);
      return Boolean(element && element.getClientRects().length);
    }, selector, { what: selector });
  }

  click(selector) {
    return this.$eval(selector, (element) => element.click());
  }

  /** A person's click, through the driver (see Page.press in engines.js). */
  press(selector) {
    return this.driverPage.press(selector);
  }

  check(selector) {
    return this.$eval(selector, (element) => element.checked || element.click());
  }

  uncheck(selector) {
    return this.$eval(selector, (element) => !element.checked || element.click());
  }

  fill(selector, value) {
    return this.evaluate(({ selector: s, value: v }) => {
      const element = document.querySelector(s);
      element.value = v;
      element.dispatchEvent(new Event('input', { bubbles: true }));
      element.dispatchEvent(new Event('change', { bubbles: true }));
    }, { selector, value });
  }

  /** Picks an option by its value, or by its label ({label}), as a person would. */
  selectOption(selector, option) {
    return this.evaluate(({ selector: s, option: o }) => {
      const select = document.querySelector(s);
      const chosen = [...select.options].find((candidate) =>
        (typeof o === 'string' ? candidate.value === o : candidate.textContent === o.label));
      if (!chosen) throw new Error(`no option ${JSON.stringify(o)} in ${s}`);
      select.value = chosen.value;
      select.dispatchEvent(new Event('input', { bubbles: true }));
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }, { selector, option });
  }

  /**
   * Picks files in a file input through the engine's driver: paths on disk,
   * or {name, buffer} written to a scratch file of that name first.
   */
  setInputFiles(selector, files) {
    const paths = [files].flat().map((file) => {
      if (typeof file === 'string') return file;
      const folder = mkdtempSync(join(SCRATCH, 'file-'));
      const path = join(folder, file.name);
      writeFileSync(path, file.buffer);
      return path;
    });
    return this.driverPage.setFiles(selector, paths);
  }

  screenshot(path) {
    return this.driverPage.screenshot(path);
  }

  hover(x, y) {
    return this.driverPage.hover(x, y);
  }
}

/** Why `engine`'s driver cannot run a script before the page's own, or false. */
export function initScriptSkip(engine) {
  return engine === 'webkit' ? 'WebKitWebDriver (classic WebDriver) runs no script before the page\'s own' : false;
}

/** Has fn() run in every document the page loads from now on, before the document's own scripts. */
export async function beforePageScripts(page, fn) {
  const native = page.driverPage.native;
  if (page.engine === 'chromium') await native.addInitScript(fn);
  else if (page.engine === 'firefox') await native.evaluateOnNewDocument(fn);
  else throw new Error(initScriptSkip(page.engine));
}

/** Waits for the import to end; returns the state it ended in. */
export async function settledState(page) {
  await page.waitForFunction(() => !['idle', 'loading'].includes(document.body.dataset.state), null,
    { timeout: 120_000, what: 'the import to end' });
  return page.evaluate(() => document.body.dataset.state);
}

/** A screenshot in test-artifacts/e2e/ENGINE/NAME.png. */
export async function saveScreenshot(page, name) {
  const folder = join(ARTIFACTS, page.engine);
  mkdirSync(folder, { recursive: true });
  await page.screenshot(join(folder, `${name}.png`));
}

/** Nothing left the origin, nothing failed on the page. */
export async function assertCleanPage(page) {
  await page.collectReports();
  assert.deepEqual(page.foreignRequests, [], 'requests that would leave the origin');
  assert.deepEqual(page.problems, [], 'errors on the page');
}

// speedscope's viewer, in the page's iframe (same origin, so the page's own
// scripts can read it).

function viewerMatches({ source, flags, text }) {
  const body = document.querySelector('#viewer iframe')?.contentDocument?.body;
  if (!body) return null;
  const pattern = source === undefined ? null : new RegExp(source, flags);
  const shows = (shown) => {
    const normalized = shown.replace(/\s+/g, ' ').trim();
    return pattern ? pattern.test(normalized) : normalized.includes(text);
  };
  // An element's whole text, or one of its own runs of text (speedscope puts
  // a lone profile's name beside its buttons, in their element).
  const matches = (element) => shows(element.textContent) ||
    [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && shows(node.textContent));
  // The innermost element that shows it.
  return [...body.querySelectorAll('*')].find((element) =>
    matches(element) && ![...element.children].some(matches)) ?? null;
}

function patternOf(text) {
  return text instanceof RegExp ? { source: text.source, flags: text.flags } : { text };
}

/** Waits until the viewer shows `text` (a string it contains, or a pattern of an element's whole text). */
export function waitForViewerText(page, text) {
  return page.waitForFunction(`(pattern) => Boolean((${viewerMatches})(pattern))`, patternOf(text),
    { what: `the viewer to show ${text}` }).then(() => undefined);
}

/** Clicks what in the viewer shows `text`. */
export async function clickViewerText(page, text) {
  await waitForViewerText(page, text);
  await page.evaluate(`(pattern) => (${viewerMatches})(pattern).click()`, patternOf(text));
}

async function viewerBox(page) {
  await waitForViewerText(page, 'Left Heavy');
  return page.evaluate(() => {
    const { x, y, width, height } = document.querySelector('#viewer iframe').getBoundingClientRect();
    return { x, y, width, height };
  });
}

const viewerBodyText = () => document.querySelector('#viewer iframe').contentDocument.body.innerText;

/** What hovering added to the viewer's text: its tooltip, "4.64s (>99%) start" then the frame's file. */
function tooltipOf(text, idle) {
  const before = new Set(idle.split('\n'));
  return text.split('\n').filter((line) => !before.has(line)).join('\n').trim();
}

/** The root frame speedscope's left-heavy flame graph draws leftmost: the heaviest. */
export function heaviestRoot(file) {
  const profile = file.profiles[file.activeProfileIndex ?? 0];
  const weights = new Map();
  profile.samples.forEach((stack, index) => {
    if (stack.length) weights.set(stack[0], (weights.get(stack[0]) ?? 0) + profile.weights[index]);
  });
  const [root] = [...weights].sort((a, b) => b[1] - a[1])[0];
  return file.shared.frames[root].name;
}

/**
 * Proves the viewer draws a flame graph of the profile: hovering down the
 * left edge of speedscope's flame graph, the first frame it names is the
 * profile's heaviest root. Returns speedscope's tooltip text.
 */
export async function assertFlameGraphShows(page, expectedRoot) {
  const box = await viewerBox(page);
  await page.hover(box.x + box.width - 1, box.y + box.height - 1);
  const idle = await page.evaluate(viewerBodyText);
  for (let y = 20; y < box.height; y += 10) {
    await page.hover(box.x + 8, box.y + y);
    const text = await page.evaluate(viewerBodyText);
    const tooltip = tooltipOf(text, idle);
    if (tooltip) {
      // "4.64s (>99%) start", then the frame's file.
      const [heading] = tooltip.split('\n');
      assert.ok(heading.endsWith(` ${expectedRoot}`), `the hovered root frame: ${JSON.stringify(tooltip)}`);
      await page.hover(box.x + box.width - 1, box.y + box.height - 1);
      return tooltip;
    }
  }
  assert.fail('no frame of the flame graph answered the hover');
}

/**
 * The frame names down the left edge of speedscope's left-heavy flame graph,
 * root first: the heaviest path, as speedscope's tooltips name each row.
 */
export async function leftEdgeNames(page) {
  const box = await viewerBox(page);
  await page.hover(box.x + box.width - 1, box.y + box.height - 1);
  const idle = await page.evaluate(viewerBodyText);
  const names = [];
  for (let y = 20; y < box.height; y += 4) {
    await page.hover(box.x + 8, box.y + y);
    const tooltip = tooltipOf(await page.evaluate(viewerBodyText), idle);
    if (!tooltip) continue;
    // "4.64s (>99%) start", then the frame's file.
    const [heading] = tooltip.split('\n');
    const name = heading.replace(/^\S+ \([^)]*\) /, '');
    if (names.at(-1) !== name) names.push(name);
  }
  await page.hover(box.x + box.width - 1, box.y + box.height - 1);
  return names;
}

/** The file a download button (by default "Download .speedscope.json") saves, and the name it offers. */
export async function downloadedJson(page, button = '#download') {
  if (page.engine === 'chromium') {
    const native = page.driverPage.native;
    const [download] = await Promise.all([native.waitForEvent('download'), native.click(button)]);
    const stream = await download.createReadStream();
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
  }
  // The link the page clicks to save is caught, and what it links to read.
  return page.evaluate((selector) => new Promise((resolve, reject) => {
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function caught() {
      HTMLAnchorElement.prototype.click = click;
      fetch(this.href).then((response) => response.text())
        .then((text) => resolve({ name: this.download, text }), reject);
    };
    document.querySelector(selector).click();
  }), button);
}

/**
 * Pastes `text` on the page, as the clipboard would: a paste event carrying
 * it. Firefox keeps a script's paste events empty, so there the text goes
 * through the real clipboard and the keyboard.
 */
export async function pasteText(page, text) {
  if (page.engine !== 'firefox') {
    const taken = await page.evaluate((pasted) => {
      const clipboardData = new DataTransfer();
      clipboardData.setData('text/plain', pasted);
      const event = new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true });
      document.dispatchEvent(event);
      return { taken: event.defaultPrevented, length: event.clipboardData?.getData('text/plain').length };
    }, text);
    // The page takes a paste it can open; one it left is the test's to explain.
    assert.ok(taken.taken, `the page did not take the paste of ${text.length} characters: ${JSON.stringify(taken)}`);
    return;
  }
  const native = page.driverPage.native;
  await native.mouse.click(5, 5);  // a person's click: the page may then write the clipboard
  await native.evaluate((pasted) => navigator.clipboard.writeText(pasted), text);
  await native.keyboard.down('Control');
  await native.keyboard.press('v');
  await native.keyboard.up('Control');
}

/**
 * A zip of `folder` (its top folder kept), made once per test run. A .trace
 * folder's zip takes the folder's own name, which the page reads by its
 * content all the same, so that what it makes of it is named as the
 * folder's; any other's is NAME.zip, as a zipped dSYM is.
 */
function zipOfFolder(folder) {
  const name = folder.endsWith('.trace') ? basename(folder) : `${basename(folder)}.zip`;
  const zip = join(SCRATCH, createHash('sha1').update(folder).digest('hex'), name);
  if (!existsSync(zip)) {
    mkdirSync(join(zip, '..'), { recursive: true });
    execFileSync('python3', ['-c', `
import os, sys, zipfile
source, target = sys.argv[1], sys.argv[2]
top = os.path.basename(source.rstrip('/'))
with zipfile.ZipFile(target, 'w', zipfile.ZIP_DEFLATED) as archive:
    for folder, _, files in os.walk(source):
        for name in sorted(files):
            path = os.path.join(folder, name)
            archive.write(path, os.path.join(top, os.path.relpath(path, source)))
`, folder, zip]);
  }
  return zip;
}

/**
 * Drops files or folders from disk (a path or several) on an element, as a
 * person would: through Chromium's drag and drop; elsewhere as a drop the
 * page's script makes of the files picked in a scratch input, each folder
 * as a zip of it (no other driver drops folders).
 */
export async function dropPath(page, path, selector = '#drop-zone') {
  if (page.engine === 'chromium') {
    const native = page.driverPage.native;
    const cdp = await native.context().newCDPSession(native);
    const box = await native.locator(selector).boundingBox();
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const data = { items: [], files: [path].flat(), dragOperationsMask: 1 };
    for (const type of ['dragEnter', 'dragOver', 'drop']) {
      await cdp.send('Input.dispatchDragEvent', { type, ...point, data });
    }
    await cdp.detach();
    return;
  }
  const files = [path].flat().map((each) => (statSync(each).isDirectory() ? zipOfFolder(each) : each));
  await page.evaluate(() => {
    document.getElementById('e2e-drop-source')?.remove();
    const input = Object.assign(document.createElement('input'), { type: 'file', multiple: true, id: 'e2e-drop-source' });
    input.hidden = true;
    document.body.append(input);
  });
  await page.setInputFiles('#e2e-drop-source', files);
  await page.evaluate((target) => {
    const input = document.getElementById('e2e-drop-source');
    const dataTransfer = new DataTransfer();
    for (const file of input.files) dataTransfer.items.add(file);
    input.remove();
    const element = document.querySelector(target);
    for (const type of ['dragenter', 'dragover', 'drop']) {
      element.dispatchEvent(new DragEvent(type, { dataTransfer, bubbles: true, cancelable: true }));
    }
  }, selector);
}
