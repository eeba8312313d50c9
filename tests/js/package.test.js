// The published package as a user gets it: `npm pack`, install the tarball
// into an empty project (offline: the package has no dependencies), then
// import a trace through the package name, type-check against its types, and
// run its command line.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';

import { CORPUS_SKIP, ROOT, UNIPROF_EXPORT, corpusFile, packageVersion, readJson } from './support.js';

const run = promisify(execFile);
const NPM_FLAGS = ['--offline', '--no-audit', '--no-fund', '--loglevel=error'];

let project;
let packed;

before(async () => {
  project = mkdtempSync(join(tmpdir(), 'instrumentscope-package-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project, ...NPM_FLAGS], { cwd: ROOT });
  [packed] = JSON.parse(stdout);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
  await run('npm', ['install', join(project, packed.filename), ...NPM_FLAGS], { cwd: project });
});

after(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

test('the tarball holds the modules, the worker, the types and the core, and nothing else', () => {
  const files = packed.files.map((file) => file.path).sort();
  for (const expected of ['package.json', 'README.md', 'web/src/index.js', 'web/src/index.d.ts',
    'web/src/node.js', 'web/src/worker.js', 'web/src/worker-client.js', 'web/src/cli.js',
    'web/dist/instrumentscope-core.js', 'web/dist/instrumentscope-core.wasm',
    'web/dist/threads/instrumentscope-core-mt.mjs', 'web/dist/threads/instrumentscope-core-mt.wasm',
    'web/dist/threads/instrumentscope-core-mt.worker.js', 'web/dist/threads/package.json']) {
    assert.ok(files.includes(expected), `${expected} is packed`);
  }
  assert.deepEqual(files.filter((path) => !/^(web\/src\/|web\/dist\/|package\.json$|README\.md$|LICENSE$)/.test(path)), []);
});

test('an installed package imports a trace by its name', { skip: CORPUS_SKIP }, async () => {
  writeFileSync(join(project, 'convert.js'), `
    import { readFileSync } from 'node:fs';
    import { importTraceWithSummary, serializeSpeedscope } from 'instrumentscope';
    const { file, summary } = await importTraceWithSummary(readFileSync(process.argv[2]), { name: 'test-simple-export.xml.gz' });
    process.stdout.write([...serializeSpeedscope(file)].join(''));
  `);
  const { stdout } = await run('node', ['convert.js', corpusFile(UNIPROF_EXPORT)], { cwd: project, maxBuffer: 1 << 26 });
  assert.equal(stdout, readFileSync(join(ROOT, 'tests/golden/xctrace_xml/uniprof-test-simple-export.speedscope.json'), 'utf8'));
});

test('the README\'s Node example runs as it is', { skip: CORPUS_SKIP }, async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const example = readme.slice(readme.indexOf('In Node (this runs as it is')).match(/```js\n([\s\S]*?)```/)[1];
  writeFileSync(join(project, 'readme-example.js'), example);
  copyFileSync(corpusFile(UNIPROF_EXPORT), join(project, 'profile.xml.gz'));
  const size = readFileSync(corpusFile(UNIPROF_EXPORT)).length;
  const { stdout } = await run('node', ['readme-example.js'], { cwd: project });
  assert.match(stdout, new RegExp(`^reading 0 ${size} 0$`, 'm'));
  assert.match(stdout, new RegExp(`^done ${size} ${size} 518$`, 'm'));
  assert.match(stdout, /^1 threads; busiest: Main Thread 0x2b73e56 — test-simple \(pid 49230\)$/m);
});

test('an installed package type-checks through its exports map', async () => {
  writeFileSync(join(project, 'use.ts'), `
    import { importTrace, ImportError, type SpeedscopeFile } from 'instrumentscope';
    export async function open(bytes: Uint8Array): Promise<SpeedscopeFile | string> {
      try {
        return await importTrace(bytes, { onProgress: ({ stage }) => console.log(stage) });
      } catch (error) {
        return error instanceof ImportError ? error.code : String(error);
      }
    }
  `);
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const result = await run('node', [tsc, '--noEmit', '--strict', '--module', 'nodenext',
    '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', 'use.ts'], { cwd: project })
    .catch((error) => error);
  assert.equal(result.code ?? 0, 0, `${result.stdout}${result.stderr}`);
});

test('an installed package runs its command line', async () => {
  const { stdout } = await run(join(project, 'node_modules/.bin/instrumentscope'), ['--version'], { cwd: project });
  assert.equal(stdout.trim(), `instrumentscope ${packageVersion}`);
  assert.equal(readJson(join(project, 'node_modules/instrumentscope/package.json')).version, packageVersion);
});
