// web/serve.js: the page's server serves its four folders with the right
// types and Content-Security-Policies, and nothing outside them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { after, before, test } from 'node:test';

import { serve } from '../../web/serve.js';
import { ROOT } from './support.js';

let server;
let origin;

before(async () => {
  server = await serve({ port: 0 });
  origin = `http://127.0.0.1:${server.address().port}`;
});

after(() => new Promise((resolve) => server.close(resolve)));

// node:http rather than fetch, which would normalize "/src/../x" before sending it.
function get(path, method = 'GET') {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${origin}${path}`, { method, path }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({
        status: response.statusCode,
        headers: response.headers,
        body: Buffer.concat(chunks),
      }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

test('serves the page, the package, the core and speedscope, each with its type', async () => {
  const cases = [
    ['/', 'text/html; charset=utf-8', /<title>instrumentscope<\/title>/],
    ['/page.js', 'text/javascript; charset=utf-8', /importKept/],
    ['/src/index.js', 'text/javascript; charset=utf-8', /export async function importTrace/],
    ['/dist/instrumentscope-core.wasm', 'application/wasm', /^\0asm/],
    ['/speedscope/', 'text/html; charset=utf-8', /<title>speedscope<\/title>/],
  ];
  for (const [path, type, content] of cases) {
    const response = await get(path);
    assert.equal(response.status, 200, path);
    assert.equal(response.headers['content-type'], type, path);
    assert.match(response.body.toString('latin1'), content, path);
  }
});

test('every response carries a policy that keeps requests on the origin', async () => {
  const page = (await get('/')).headers['content-security-policy'];
  assert.match(page, /default-src 'self'/);
  assert.match(page, /connect-src 'self' blob:/);
  assert.doesNotMatch(page, /unsafe-eval/);
  for (const path of ['/src/worker.js', '/src//worker.js', '/src/./worker.js']) {
    const worker = (await get(path)).headers['content-security-policy'];
    assert.match(worker, /default-src 'self'/, path);
    assert.match(worker, /script-src 'self' 'wasm-unsafe-eval'/, path);
    assert.doesNotMatch(worker, / 'unsafe-eval'/, path);
  }
  const viewer = (await get('/speedscope/index.html')).headers['content-security-policy'];
  assert.match(viewer, /default-src 'self'/);
  assert.doesNotMatch(viewer, / 'unsafe-eval'/);
});

test('nothing outside the site is served', async () => {
  for (const path of ['/../package.json', '/src/../../package.json', '/src/..%2f..%2fpackage.json',
    '/%2e%2e/%2e%2e/package.json', '/dist/..%5c..%5cpackage.json', '/page.js%00.html', '/missing.html',
    '/speedscope/../../../package.json']) {
    const response = await get(path);
    assert.equal(response.status, 404, path);
    assert.doesNotMatch(response.body.toString(), /"name": "instrumentscope"/, path);
  }
  assert.equal((await get('/%zz')).status, 400);
  assert.equal((await get('/', 'POST')).status, 405);
  const head = await get('/', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
});

test("the core's glue runs under a policy without 'unsafe-eval': no eval, no new Function", () => {
  const glue = readFileSync(`${ROOT}/web/dist/instrumentscope-core.js`, 'utf8');
  assert.doesNotMatch(glue, /new Function\b/);
  assert.doesNotMatch(glue, /\beval\(/);
});
