// Which Firefox Profiler the page hands a recording to: the public app, or
// one on this machine that ?firefox-profiler= names; never another site.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { profilerURL } from '../../web/page/firefox.js';

const PUBLIC = 'https://profiler.firefox.com/from-post-message/';

test('the page hands recordings to the public Firefox Profiler unless told of a local one', () => {
  assert.equal(profilerURL(''), PUBLIC);
  assert.equal(profilerURL('?firefox-profiler=http%3A%2F%2F127.0.0.1%3A4242%2Ffrom-post-message%2F'),
    'http://127.0.0.1:4242/from-post-message/');
  assert.equal(profilerURL('?firefox-profiler=http://localhost:4242/from-post-message/'),
    'http://localhost:4242/from-post-message/');
});

test('a link cannot send a recording to a site of its choosing', () => {
  for (const url of ['https://example.com/from-post-message/', 'http://127.0.0.1.example.com/',
    'javascript:alert(1)', 'file:///etc/passwd', 'not a url', 'http://localhost@evil.example/']) {
    assert.equal(profilerURL(`?firefox-profiler=${encodeURIComponent(url)}`), PUBLIC, url);
  }
});
