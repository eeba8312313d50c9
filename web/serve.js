#!/usr/bin/env node
// Serves the drag-and-drop page on 127.0.0.1 (npm start). Everything the page
// needs comes from this one origin: the page, the package's modules and .wasm,
// and speedscope's viewer from the speedscope npm package. Recordings are read
// in the browser and never sent here.
//   node web/serve.js [--port N] [--isolated]   (port: $PORT, else 8080; 0 picks a free one)
// --isolated serves every file with the headers that make the page
// cross-origin isolated, so that its import runs the threaded core (README,
// "Threads"); its "Open in Firefox Profiler" then cannot reach the profiler's
// tab, and says so.

import { createReadStream, promises as fs, realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { fileURLToPath } from 'node:url';

const WEB_DIR = fileURLToPath(new URL('.', import.meta.url));
const ROOT_DIR = join(WEB_DIR, '..');

const VIEWER_DIR = join(ROOT_DIR, 'node_modules', 'speedscope', 'dist', 'release');
const WORKER_FILE = join(WEB_DIR, 'src', 'worker.js');
// The threaded core's pthreads start from this script, each in a Worker of its own.
const THREAD_WORKER_FILE = join(WEB_DIR, 'dist', 'threads', 'instrumentscope-core-mt.worker.js');

/** URL prefix → folder; the first that matches wins. */
export const SITE_LAYOUT = [
  ['/speedscope/', VIEWER_DIR],
  ['/src/', join(WEB_DIR, 'src')],
  ['/dist/', join(WEB_DIR, 'dist')],
  ['/', join(WEB_DIR, 'page')],
];

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

// Nothing may be fetched from, or sent to, another origin. The page's own
// policy is also in its <meta> tag, for static hosts that set no headers.
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self' blob:",
  "worker-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
// speedscope styles its elements inline, compiles a WebAssembly decoder (for
// Java Flight Recorder files) as it starts, and fetches the profile from a blob: URL.
const VIEWER_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
// The worker compiles the core's WebAssembly; its glue is built without eval
// or new Function (-sDYNAMIC_EXECUTION=0), so 'unsafe-eval' is not needed.
const WORKER_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";

// Shared memory for the threaded core: every response, frames' and workers' too.
const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

function policyFor(file) {
  if (file === WORKER_FILE || file === THREAD_WORKER_FILE) return WORKER_POLICY;
  if (file.startsWith(VIEWER_DIR + sep)) return VIEWER_POLICY;
  return PAGE_POLICY;
}

/** The file a URL path names, or null when it is outside the site. */
export function resolvePath(urlPath) {
  const [prefix, folder] = SITE_LAYOUT.find(([candidate]) => urlPath.startsWith(candidate));
  let rest = urlPath.slice(prefix.length);
  if (rest === '' || rest.endsWith('/')) rest += 'index.html';
  const file = normalize(join(folder, rest));
  return file.startsWith(folder + sep) ? file : null;
}

async function respond(request, response, isolated) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  let urlPath;
  try {
    urlPath = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
  } catch {
    response.writeHead(400).end('bad request\n');
    return;
  }
  if (urlPath === '/speedscope') {
    response.writeHead(301, { Location: '/speedscope/' }).end();
    return;
  }
  const file = urlPath.includes('\0') ? null : resolvePath(urlPath);
  const stats = file && await fs.stat(file).catch(() => null);
  if (!stats?.isFile()) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`not found: ${urlPath}\n`);
    return;
  }
  response.writeHead(200, {
    'Content-Type': MIME_TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': stats.size,
    'Content-Security-Policy': policyFor(file),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
    ...(isolated ? ISOLATION_HEADERS : {}),
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  // pipeline, not pipe: a client that goes away must not leave the file open.
  pipeline(createReadStream(file), response, () => {});
}

/** Starts the server (with `isolated`, the page cross-origin isolated); resolves with it once it listens. */
export function serve({ port = 8080, host = '127.0.0.1', isolated = false } = {}) {
  const server = createServer((request, response) => {
    respond(request, response, isolated).catch(() => response.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

async function main() {
  const index = process.argv.indexOf('--port');
  const port = Number(index > 0 ? process.argv[index + 1] : process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: not a port: ${index > 0 ? process.argv[index + 1] : process.env.PORT}`);
    process.exit(2);
  }
  for (const [, folder] of SITE_LAYOUT) {
    if (!(await fs.stat(folder).catch(() => null))) {
      console.error(`serve: ${folder} is missing; run npm start, which builds it`);
      process.exit(1);
    }
  }
  let server;
  try {
    server = await serve({ port, isolated: process.argv.includes('--isolated') });
  } catch (error) {
    console.error(`serve: cannot listen on 127.0.0.1:${port}: ${error.message}` +
      (error.code === 'EADDRINUSE' ? ' (set PORT to use another port)' : ''));
    process.exit(1);
  }
  const isolation = process.argv.includes('--isolated') ? ', cross-origin isolated: threads on' : '';
  console.log(`instrumentscope: serving on http://127.0.0.1:${server.address().port}/${isolation} (Ctrl-C stops)`);
}

// Run as a program (also through a symlinked checkout), not imported by the tests.
if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) main();
