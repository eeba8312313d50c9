// A stand-in for the Firefox Profiler's app, served on 127.0.0.1: the real
// app cannot be reached from test machines. Its from-post-message page plays
// the app's side of the exchange as the profiler's source does it
// (src/actions/receive-profile.ts, case 'from-post-message'): only once it
// has loaded (here after a delay, as the app loads itself first) does it
// listen; it answers {name: 'ready:request'} with {name: 'ready:response'}
// to the sender, whatever its origin, and takes {name: 'inject-profile',
// profile}. What it took it posts back to its own server, for the test.
import { createServer } from 'node:http';

const LOAD_DELAY_MS = 1000;

const PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>profiler stand-in</title></head><body>
<script>
setTimeout(() => {
  window.addEventListener('message', (event) => {
    const { data } = event;
    if (!data || typeof data !== 'object') return;
    if (data.name === 'ready:request') {
      (event.source ?? window).postMessage({ name: 'ready:response' }, '*');
    } else if (data.name === 'inject-profile') {
      // The app takes an ArrayBuffer (gzipped or not), a string or an object.
      const type = Object.prototype.toString.call(data.profile);
      fetch('/received?type=' + encodeURIComponent(type), { method: 'POST', body: data.profile })
        .then(() => { document.title = 'profile received'; });
    }
  });
}, ${LOAD_DELAY_MS});
</script></body></html>`;

/** Starts the stand-in: {origin, url, nextProfile(): Promise<{type, bytes}>, close()}. */
export async function startProfilerStandIn() {
  const received = [];
  const waiting = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/from-post-message/') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
      return;
    }
    if (request.method === 'POST' && url.pathname === '/received') {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        const profile = { type: url.searchParams.get('type'), bytes: Buffer.concat(chunks) };
        if (waiting.length) waiting.shift()(profile);
        else received.push(profile);
        response.writeHead(204).end();
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    url: `${origin}/from-post-message/`,
    nextProfile(timeout = 60_000) {
      if (received.length) return Promise.resolve(received.shift());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the stand-in took no profile in ${timeout} ms`)), timeout);
        waiting.push((profile) => {
          clearTimeout(timer);
          resolve(profile);
        });
      });
    },
    close() {
      server.closeAllConnections();  // the tab keeps its own open
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
