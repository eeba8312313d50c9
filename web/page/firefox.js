// The page's way to the Firefox Profiler: the recording saved as a Firefox
// Profiler file, or handed to the profiler's app in a tab of its own through
// its from-post-message entry. The file goes from this tab to that one; it
// is not uploaded. Only the profiler's app itself loads from the web.

const PUBLIC_PROFILER = 'https://profiler.firefox.com/from-post-message/';
const READY_POLL_MS = 100;  // the app listens only once it has loaded: it is asked until it answers
const READY_TIMEOUT_MS = 60_000;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The profiler's from-post-message address: the public app, or with
 * ?firefox-profiler=URL one served from this machine (a copy of the app run
 * locally). No other site may be named: a link must not send a recording to
 * a site of its choosing.
 */
export function profilerURL(search) {
  const asked = new URLSearchParams(search).get('firefox-profiler');
  if (!asked) return PUBLIC_PROFILER;
  let url;
  try {
    url = new URL(asked);
  } catch {
    return PUBLIC_PROFILER;
  }
  const local = LOCAL_HOSTS.has(url.hostname) && (url.protocol === 'http:' || url.protocol === 'https:');
  return local ? url.href : PUBLIC_PROFILER;
}

/**
 * Opens the profiler at `url` in a new tab and, once its app says it is
 * ready, hands it the file `file` resolves to (a Blob of the profile's JSON).
 * Must be called from a click: browsers let only a person's action open a
 * tab. `onStatus(text, failed)` tells the person how it goes.
 */
export function openInProfiler(url, file, onStatus) {
  const { origin } = new URL(url);
  // The opener policy that isolates the page also cuts it off from a tab of
  // another site it opens: a message could not reach the profiler.
  if (globalThis.crossOriginIsolated) {
    onStatus('This page is cross-origin isolated (served for threads), which keeps it from handing a ' +
      'file to another site\'s tab: use "Download for Firefox Profiler" and load the file in the ' +
      'profiler, or serve the page without isolation.', true);
    return;
  }
  const target = window.open(url, '_blank');
  if (!target) {
    onStatus('The browser blocked the Firefox Profiler\'s tab. Allow pop-ups for this page, or use ' +
      '"Download for Firefox Profiler" and load the file there.', true);
    return;
  }
  onStatus(`Waiting for the Firefox Profiler (${origin}) to load in its tab…`);
  const bytes = file.then((blob) => blob.arrayBuffer());
  bytes.catch(() => {});  // said when the app asks for them
  const started = Date.now();
  const stop = () => {
    clearInterval(poll);
    window.removeEventListener('message', onMessage);
  };
  const poll = setInterval(() => {
    if (target.closed) {
      stop();
      onStatus('The Firefox Profiler\'s tab was closed before it took the profile.', true);
    } else if (Date.now() - started > READY_TIMEOUT_MS) {
      stop();
      onStatus(`The Firefox Profiler (${origin}) did not answer within a minute: is it reachable ` +
        'from this machine? "Download for Firefox Profiler" saves the file to load there instead.', true);
    } else {
      target.postMessage({ name: 'ready:request' }, origin);
    }
  }, READY_POLL_MS);
  const onMessage = async (event) => {
    if (event.source !== target || event.origin !== origin || event.data?.name !== 'ready:response') return;
    stop();
    let buffer;
    try {
      buffer = await bytes;
    } catch (error) {
      onStatus(`The Firefox Profiler file could not be written: ${error.message}`, true);
      return;
    }
    target.postMessage({ name: 'inject-profile', profile: buffer }, origin, [buffer]);
    onStatus(`Handed to the Firefox Profiler in its own tab (${origin}).`);
  };
  window.addEventListener('message', onMessage);
}
