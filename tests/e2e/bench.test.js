// bench/page.js, the page benchmark, runs end to end on a small grown export:
// its numbers are the benchmark's business; here it must work and report the
// API, the page's import and speedscope's drawing.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { CORPUS_SKIP, ROOT } from '../js/support.js';
import { CHROMIUM_SKIP } from './support.js';

test('the page benchmark imports a grown export through the API and the page', { skip: CORPUS_SKIP || CHROMIUM_SKIP }, async () => {
  const { stdout } = await promisify(execFile)('node', [join(ROOT, 'bench/page.js'), '--size', '3']);
  const report = readFileSync(join(ROOT, 'build/bench/page.md'), 'utf8');
  const rows = report.split('\n').filter((line) => /^\| .* \| 3 \| [\d.]+ \| \d+ \| \d+ \| \d+ \|$/.test(line));
  assert.equal(rows.length, 3, report);
  assert.match(rows[0], /importTraceWithSummary\(file\)/);
  assert.match(rows[1], /the page: picker to import done/);
  // Drawn within the wait: no "stopped waiting", no "> " bound.
  assert.match(rows[2], /^\| the page: picker to flame graph drawn by speedscope \| 3 \| [\d.]+ \|/);
  assert.match(stdout, /Written to .*page\.md/);
});
