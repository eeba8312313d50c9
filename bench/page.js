#!/usr/bin/env node
// The page benchmark, in Debian's Chromium, on an export grown to SIZE MB
// (bench/grow-export.js), given as a File (read in 1 MiB slices, never whole):
//   - the package's API in the page: importTraceWithSummary(file), whose
//     worker runs the core, up to the speedscope objects;
//   - the page itself: the file chosen in its picker, up to the import done
//     (its status shown), and on to speedscope's viewer having read what the
//     page handed it and drawn the flame graph.
// Reports seconds and the peak resident memory of Chromium's renderer, which
// runs the page and its worker.
//   node bench/page.js [--size 1000] [--viewer-seconds 300]
// (how long to wait for speedscope's drawing before reporting "more than").
// Writes the result to stdout and build/bench/page.md.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { chromium } from 'playwright-core';

import { serve } from '../web/serve.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = process.env.INSTRUMENTSCOPE_CORPUS ?? join(ROOT, '..', 'shared', 'corpus');
const SEED = join(CORPUS, 'openjdk__jmh/jmh-core/src/test/resources/org.openjdk.jmh.profile.xctrace/time-profile.xml');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const OUT = join(ROOT, 'build', 'bench');

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

/** Resident memory (bytes) of each Chromium renderer process. */
function rendererMemory() {
  const listing = execFileSync('ps', ['-eo', 'rss=,args='], { encoding: 'utf8' });
  return listing.split('\n')
    .filter((line) => line.includes('--type=renderer'))
    .map((line) => Number(line.trim().split(/\s+/)[0]) * 1024);
}

async function main() {
  const { values } = parseArgs({
    options: { size: { type: 'string', default: '1000' }, 'viewer-seconds': { type: 'string', default: '300' } },
  });
  const size = Number(values.size);
  const viewerSeconds = Number(values['viewer-seconds']);
  if (!existsSync(CHROMIUM)) fail(`Chromium is missing at ${CHROMIUM}`);
  if (!existsSync(join(ROOT, 'web', 'dist', 'instrumentscope-core.wasm'))) fail('the wasm build is missing: npm run build');
  if (!existsSync(SEED)) fail(`the corpus is missing (${CORPUS})`);
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `export-${size}.xml`);
  if (!existsSync(file)) execFileSync('node', [join(ROOT, 'bench', 'grow-export.js'), SEED, file, String(size)], { stdio: 'ignore' });
  const bytes = statSync(file).size;

  const server = await serve({ port: 0 });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  let peak = 0;
  const poll = setInterval(() => {
    peak = Math.max(peak, ...rendererMemory());
  }, 100);
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(30 * 60_000);
    const mb = (value) => (value / 1048576).toFixed(0);
    const rows = [];
    const row = (what, seconds, idle, bound = '') => {
      const line = `| ${what} | ${mb(bytes)} | ${bound}${seconds.toFixed(1)} | ${bound ? '< ' : ''}${(bytes / 1048576 / seconds).toFixed(0)} | ` +
        `${mb(idle)} | ${mb(peak)} |`;
      rows.push(line);
      console.log(line);
    };
    const origin = `http://127.0.0.1:${server.address().port}`;

    await page.goto(`${origin}/`);
    await page.waitForFunction(() => document.body.dataset.state === 'idle');
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<input type="file" id="bench-input">'));
    await page.setInputFiles('#bench-input', file);
    let idle = Math.max(...rendererMemory());
    peak = idle;
    const apiSeconds = await page.evaluate(async () => {
      const { importTraceWithSummary } = await import('/src/index.js');
      const start = performance.now();
      const { file: profile } = await importTraceWithSummary(document.getElementById('bench-input').files[0]);
      if (!profile.profiles.length) throw new Error('no profiles');
      return (performance.now() - start) / 1000;
    });
    row('`importTraceWithSummary(file)` in the page', apiSeconds, idle);

    await page.reload();
    await page.waitForFunction(() => document.body.dataset.state === 'idle');
    idle = Math.max(...rendererMemory());
    peak = idle;
    const start = Date.now();
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state), null, { polling: 200 });
    if (await page.evaluate(() => document.body.dataset.state) !== 'loaded') {
      fail(`the page says: ${await page.textContent('#error')}`);
    }
    row('the page: picker to import done', (Date.now() - start) / 1000, idle);
    // speedscope's toolbar shows its views once it has read the profile and drawn it.
    const drawn = await page.frameLocator('#viewer iframe').getByText('Left Heavy')
      .waitFor({ timeout: viewerSeconds * 1000 }).then(() => true, () => false);
    if (drawn) {
      row('the page: picker to flame graph drawn by speedscope', (Date.now() - start) / 1000, idle);
    } else {
      row(`the page: picker to flame graph drawn by speedscope (stopped waiting)`, (Date.now() - start) / 1000, idle, '> ');
    }

    const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU';
    const chromiumVersion = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const report = '| in Chromium | MB | seconds | MB/s | renderer idle MB | renderer peak MB |\n|---|---|---|---|---|---|\n' +
      `${rows.join('\n')}\n\nMachine: ${cpu}; ${chromiumVersion}.\n`;
    writeFileSync(join(OUT, 'page.md'), report);
    console.log(`\nWritten to ${join(OUT, 'page.md')}`);
  } finally {
    clearInterval(poll);
    await browser.close();
    server.close();
  }
}

main();
