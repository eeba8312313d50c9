// Drives the page (web/page, served by web/serve.js) in Debian's Chromium with
// playwright-core. Every request the page makes is recorded; any that would
// leave the server's origin is refused and reported.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

import { serve } from '../../web/serve.js';
import { ROOT } from '../js/support.js';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_SKIP = existsSync(CHROMIUM)
  ? false
  : `Chromium is not installed at ${CHROMIUM} (build-scripts/bootstrap.sh installs Debian's; CHROMIUM names another)`;
const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');

// Headless and self-contained: no GPU (speedscope's WebGL runs on SwiftShader),
// no sandbox (CI runs as root), and none of Chromium's own network traffic.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The server and the browser, shared by a test file. */
export async function startSession() {
  const server = await serve({ port: 0 });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return {
    origin,
    browser,
    contexts: [],
    async close() {
      await browser.close();
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
  for (const previous of session.contexts.splice(0)) await previous.close();
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  session.contexts.push(context);
  const foreignRequests = [];
  const problems = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (isSameOrigin(url, session.origin)) return route.continue();
    foreignRequests.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  // speedscope's own import of a large profile takes seconds on a loaded 2-core machine.
  page.setDefaultTimeout(90_000);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  await page.goto(`${session.origin}/`);
  await page.waitForFunction(() => document.body.dataset.state === 'idle');
  return Object.assign(page, { foreignRequests, problems });
}

function isSameOrigin(url, origin) {
  if (url.startsWith('blob:')) return url.startsWith(`blob:${origin}/`);
  if (url.startsWith('data:')) return true;  // inline, fetches nothing
  return new URL(url).origin === origin;
}

/** Waits for the import to end; returns the state it ended in. */
export async function settledState(page) {
  await page.waitForFunction(() => !['idle', 'loading'].includes(document.body.dataset.state), null,
    { timeout: 120_000 });
  return page.evaluate(() => document.body.dataset.state);
}

export async function saveScreenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

/** Nothing left the origin, nothing failed on the page. */
export function assertCleanPage(page) {
  assert.deepEqual(page.foreignRequests, [], 'requests that would leave the origin');
  assert.deepEqual(page.problems, [], 'errors on the page');
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
  const viewer = page.frameLocator('#viewer iframe');
  await viewer.getByText('Left Heavy').waitFor();
  const box = await page.locator('#viewer iframe').boundingBox();
  const idle = await viewer.locator('body').innerText();
  for (let y = 20; y < box.height; y += 10) {
    await page.mouse.move(box.x + 8, box.y + y);
    const text = await viewer.locator('body').innerText();
    if (text !== idle) {
      const tooltip = text.replace(idle, '').trim();
      // "4.64s (>99%) start", then the frame's file.
      const [heading] = tooltip.split('\n');
      assert.ok(heading.endsWith(` ${expectedRoot}`), `the hovered root frame: ${JSON.stringify(tooltip)}`);
      await page.mouse.move(box.x + box.width - 1, box.y + box.height - 1);
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
  const viewer = page.frameLocator('#viewer iframe');
  await viewer.getByText('Left Heavy').waitFor();
  const box = await page.locator('#viewer iframe').boundingBox();
  await page.mouse.move(box.x + box.width - 1, box.y + box.height - 1);
  const idle = await viewer.locator('body').innerText();
  const names = [];
  for (let y = 20; y < box.height; y += 4) {
    await page.mouse.move(box.x + 8, box.y + y);
    const text = await viewer.locator('body').innerText();
    if (text === idle) continue;
    // "4.64s (>99%) start", then the frame's file.
    const [heading] = text.replace(idle, '').trim().split('\n');
    const name = heading.replace(/^\S+ \([^)]*\) /, '');
    if (names.at(-1) !== name) names.push(name);
  }
  await page.mouse.move(box.x + box.width - 1, box.y + box.height - 1);
  return names;
}

/** The JSON "Download .speedscope.json" saves, and the file name it offers. */
export async function downloadedJson(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const stream = await download.createReadStream();
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
}

/** Drops files or folders from disk (a path or several) on an element, as a person would (through Chromium's drag and drop). */
export async function dropPath(page, path, selector = '#drop-zone') {
  const cdp = await page.context().newCDPSession(page);
  const box = await page.locator(selector).boundingBox();
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const data = { items: [], files: [path].flat(), dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop']) {
    await cdp.send('Input.dispatchDragEvent', { type, ...point, data });
  }
  await cdp.detach();
}
