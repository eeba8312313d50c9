// bench/page.js, the page benchmark, runs end to end on a small grown export
// in every engine, with threads off and on: its numbers are the benchmark's
// business; here it must work and report the import, speedscope's drawing, a
// thread picked and the core each import ran on.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { CORPUS_SKIP, ROOT } from '../js/support.js';
import { ENGINES, engineSkip } from './engines.js';

const ENGINES_SKIP = ENGINES.map(engineSkip).find(Boolean) ?? false;

test('the page benchmark imports a grown export in every engine, with threads off and on', { skip: CORPUS_SKIP || ENGINES_SKIP }, async () => {
  const { stdout } = await promisify(execFile)('node',
    [join(ROOT, 'bench/page.js'), '--sizes', '3', '--bundle', 'none', '--engines', ENGINES.join(',')]);
  const report = readFileSync(join(ROOT, 'build/bench/page.md'), 'utf8');
  // Drawn within the wait: no "> " bound.
  const rows = report.split('\n').filter((line) => new RegExp(
    '^\\| (Chromium|Firefox ESR|WebKitGTK) [\\d.]+ \\| export, 3 MB \\| 3 \\| (off|on): [^|]+ \\| [\\d.]+ \\| [\\d.]+ \\(\\+[\\d.]+\\) \\| ' +
    '.+ — [\\d,]+ samples \\| Main Thread 0x[0-9a-f]+ — [\\d,]+ samples: [\\d.]+ \\| \\d+ \\|$').test(line));
  const modes = rows.map((row) => `${row.split(' ')[1]} ${row.split(' | ')[3].replace(/^on: \d+ of \d+$/, 'on: N of N')}`);
  assert.deepEqual(modes, [
    'Chromium off: 1 (single-threaded core)', 'Chromium on: N of N',
    'Firefox off: 1 (single-threaded core)', 'Firefox on: N of N',
    // WebKitGTK has no SharedArrayBuffer, isolated or not.
    'WebKitGTK off: 1 (single-threaded core)', 'WebKitGTK on: 1 (single-threaded core)',
  ], report);
  assert.match(stdout, /Written to .*page\.md/);
});
