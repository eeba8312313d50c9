#!/usr/bin/env node
// The page benchmark, in each engine (tests/e2e/engines.js: Debian's
// Chromium, Firefox ESR and WebKitGTK): exports grown to each SIZE MB
// (bench/grow-export.js) and the largest corpus bundle (zipped here once),
// each chosen in the page's file picker, timed from the file chosen to the
// import done (its status shown) and to speedscope having drawn the flame
// graph of the thread the page opens on; then, for the exports, the Main
// Thread (195 k samples at 200 MB) picked, timed to its flame graph. Reports
// the peak resident memory of the engine's content processes (the page and
// its worker), and what the page said of what the viewer got. Each input is
// timed with threads off (the page served as `npm start` serves it: the
// single-threaded core) and on (served cross-origin isolated, as
// `npm start -- --isolated`: the threaded core where the engine has shared
// memory); the threads column is what the page's status said it ran on.
//   node bench/page.js [--sizes 50,200,1000] [--engines chromium,firefox,webkit]
//                      [--bundle PATH|none] [--threads off,on] [--viewer-seconds 300]
// Writes the result to stdout and build/bench/page.md.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { serve } from '../web/serve.js';
import { ENGINES, contentProcessMemory, engineSkip, launchEngine } from '../tests/e2e/engines.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = process.env.INSTRUMENTSCOPE_CORPUS ?? join(ROOT, '..', 'shared', 'corpus');
const SEED = join(CORPUS, 'openjdk__jmh/jmh-core/src/test/resources/org.openjdk.jmh.profile.xctrace/time-profile.xml');
const BUNDLE = join(CORPUS, 'IvanCaldwell__ios-astronomy-performance/Instruments.trace');
const OUT = join(ROOT, 'build', 'bench');

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

/** The inputs: [{label, path}], made when missing. */
function inputs(sizes, bundle) {
  mkdirSync(OUT, { recursive: true });
  const list = sizes.map((size) => {
    const path = join(OUT, `export-${size}.xml`);
    if (!existsSync(path)) {
      execFileSync('node', [join(ROOT, 'bench', 'grow-export.js'), SEED, path, String(size)], { stdio: 'ignore' });
    }
    return { label: `export, ${size} MB`, path, export: true };
  });
  if (bundle === 'none') return list;
  const zipped = join(OUT, `${basename(dirname(bundle))}.trace.zip`);
  if (!existsSync(zipped)) {
    execFileSync('python3', ['-c', `
import os, sys, zipfile
source, target = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(target, 'w', zipfile.ZIP_DEFLATED) as archive:
    for folder, _, files in os.walk(source):
        for name in sorted(files):
            path = os.path.join(folder, name)
            archive.write(path, os.path.join('Instruments.trace', os.path.relpath(path, source)))
`, bundle, zipped]);
  }
  list.push({ label: `${basename(dirname(bundle))} ${basename(bundle)} (zipped)`, path: zipped });
  return list;
}

const viewerDrawn = () => document.querySelector('#viewer iframe:not([data-bench-old])')
  ?.contentDocument?.body?.innerText.includes('Left Heavy');

/** Times one input in one engine: {imported, drawn, picked?, note, thread, threads, peak}. */
async function measure(engine, origin, input, viewerSeconds) {
  const page = await engine.newPage();
  let peak = 0;
  const poll = setInterval(() => {
    peak = Math.max(peak, ...contentProcessMemory(engine.name));
  }, 100);
  try {
    await page.goto(`${origin}/`);
    await page.waitFor(() => document.body.dataset.state === 'idle');
    peak = Math.max(...contentProcessMemory(engine.name));
    const start = Date.now();
    await page.setFiles('#file-input', input.path);
    const state = await page.waitFor(() => ['loaded', 'error'].includes(document.body.dataset.state) &&
      document.body.dataset.state, null, { timeout: 30 * 60_000, interval: 50 });
    if (state !== 'loaded') fail(`${engine.name}: the page says ${await page.evaluate(() => document.getElementById('error').textContent)}`);
    const imported = (Date.now() - start) / 1000;
    const drawn = await page.waitFor(viewerDrawn, null, { timeout: viewerSeconds * 1000, interval: 50 })
      .then(() => (Date.now() - start) / 1000, () => null);
    const shown = await page.evaluate(() => ({
      thread: document.getElementById('thread-select').selectedOptions[0]?.textContent,
      note: document.getElementById('viewer-note').textContent,
      threads: document.getElementById('status').textContent.match(/Threads: ([^.\n]+)/)?.[1] ?? 'not said',
    }));
    let picked = null;
    if (input.export && drawn !== null) {
      const pickStart = Date.now();
      const thread = await page.evaluate(() => {
        document.querySelector('#viewer iframe')?.setAttribute('data-bench-old', '');
        const select = document.getElementById('thread-select');
        const option = [...select.options].find((candidate) => candidate.textContent.startsWith('Main Thread'));
        select.value = option.value;
        select.dispatchEvent(new Event('change'));
        return option.textContent;
      });
      const seconds = await page.waitFor(viewerDrawn, null, { timeout: viewerSeconds * 1000, interval: 50 })
        .then(() => (Date.now() - pickStart) / 1000, () => null);
      picked = { thread, seconds, note: await page.evaluate(() => document.getElementById('viewer-note').textContent) };
    }
    return { imported, drawn, picked, ...shown, peak };
  } finally {
    clearInterval(poll);
    await page.close();
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '50,200,1000' },
      engines: { type: 'string', default: ENGINES.join(',') },
      bundle: { type: 'string', default: BUNDLE },
      'viewer-seconds': { type: 'string', default: '300' },
      threads: { type: 'string', default: 'off,on' },
    },
  });
  const modes = values.threads.split(',').filter(Boolean);
  for (const mode of modes) {
    if (!['off', 'on'].includes(mode)) fail(`--threads takes off, on or both (off,on), not ${mode}`);
  }
  const sizes = values.sizes.split(',').filter(Boolean).map(Number);
  const engines = values.engines.split(',');
  const viewerSeconds = Number(values['viewer-seconds']);
  for (const engine of engines) {
    if (!ENGINES.includes(engine)) fail(`no engine ${engine} (${ENGINES.join(', ')})`);
    const skip = engineSkip(engine);
    if (skip) fail(skip);
  }
  if (!existsSync(join(ROOT, 'web', 'dist', 'instrumentscope-core.wasm'))) fail('the wasm build is missing: npm run build');
  if (!existsSync(SEED)) fail(`the corpus is missing (${CORPUS})`);
  if (values.bundle !== 'none' && !existsSync(values.bundle)) fail(`no bundle at ${values.bundle}`);
  const list = inputs(sizes, values.bundle);

  // Threads on: the page cross-origin isolated, as `npm start -- --isolated` serves it.
  const servers = {};
  for (const mode of modes) servers[mode] = await serve({ port: 0, isolated: mode === 'on' });
  const origin = (mode) => `http://127.0.0.1:${servers[mode].address().port}`;
  const mb = (bytes) => (bytes / 1048576).toFixed(0);
  const seconds = (value) => (value === null ? `> ${viewerSeconds}` : value.toFixed(1));
  const rows = [];
  const notes = [];
  const versions = [];
  try {
    for (const name of engines) {
      const engine = await launchEngine(name);
      versions.push(engine.version);
      try {
        for (const input of list) {
          for (const mode of modes) {
            const result = await measure(engine, origin(mode), input, viewerSeconds);
            const after = (value) => (value === null ? `> ${viewerSeconds}` : (value - result.imported).toFixed(1));
            const row = `| ${engine.version} | ${input.label} | ${mb(statSync(input.path).size)} | ${mode}: ${result.threads} | ` +
              `${seconds(result.imported)} | ${seconds(result.drawn)} (+${after(result.drawn)}) | ${result.thread} | ` +
              `${result.picked ? `${result.picked.thread}: ${seconds(result.picked.seconds)}` : '—'} | ${mb(result.peak)} |`;
            rows.push(row);
            console.log(row);
            for (const note of [result.note, result.picked?.note]) {
              if (note && !notes.includes(note)) notes.push(note);
            }
          }
        }
      } finally {
        await engine.close();
      }
    }
  } finally {
    for (const server of Object.values(servers)) server.close();
  }
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU';
  const report = '| engine | input | MB | threads | seconds to import done | to flame graph drawn (after import) | ' +
    'thread opened | Main Thread picked: seconds to drawn | peak MB |\n|---|---|---|---|---|---|---|---|---|\n' +
    `${rows.join('\n')}\n\nWhat the page said of what the viewer got:\n${notes.map((note) => `- ${note}`).join('\n')}\n\n` +
    `Machine: ${cpu}; ${versions.join(', ')}.\n`;
  writeFileSync(join(OUT, 'page.md'), report);
  console.log(`\nWritten to ${join(OUT, 'page.md')}`);
}

main().then(() => process.exit(0), (error) => fail(error.stack ?? String(error)));
