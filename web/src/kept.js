// The page's own way in: an import whose result the worker keeps, so that
// speedscope is handed the JSON the core writes, one process at a time, and
// no profile is ever rebuilt as JavaScript objects. Not part of the package's
// public API (index.js is).

import { prepareImport } from './prepare.js';
import { summaryOf } from './summary.js';
import {
  fileRoleInWorker, importInWorker, keptFirefoxJsonInWorker, keptJsonInWorker, releaseInWorker,
  viewerJsonInWorker,
} from './worker-client.js';

/**
 * Imports `input` (anything importTrace takes) in the worker and keeps the
 * result there: {summary (as importTraceWithSummary's), result}, where result
 * names the kept result for the calls below.
 */
export async function importKept(input, options = {}) {
  const prepared = await prepareImport(input, options);
  const result = await importInWorker(prepared.input, { ...prepared.options, keep: true }, prepared.name);
  return { summary: summaryOf(result), result: result.group };
}

/** The whole recording as a speedscope file: the bytes the CLI writes. */
export function wholeJson(result) {
  return keptJsonInWorker(result);
}

/** The whole recording as a Firefox Profiler file: the bytes `--format firefox` writes. */
export function wholeFirefoxJson(result) {
  return keptFirefoxJsonInWorker(result);
}

/**
 * What speedscope's viewer is handed of the profiles at `indices`, opened at
 * `picked`: {file, plan}, as the core plans it within `budget` of the
 * viewer's cost (undefined: the core's own; see cpp/speedscope/viewer_plan.h).
 * plan.profiles are those the file holds; plan.note, what the viewer does not
 * show as the recording holds it. A file that holds every profile chosen
 * serves every pick among them; one that left some out serves its own pick.
 */
export class Selections {
  // Files kept written: a few, as a process's JSON can run to tens of MB.
  static KEPT = 4;

  constructor(result, budget) {
    this.result = result;
    this.budget = budget ?? -1;
    this.written = new Map();  // key → Promise of {blob, plan}, oldest first
  }

  async file(indices, picked) {
    const key = indices.join(',');
    let written = await this.write(key, indices, picked);
    if (written.plan.alone && !written.plan.profiles.includes(picked)) {
      written = await this.write(`${key}/${picked}`, indices, picked);
    }
    const { blob, plan } = written;
    const active = plan.profiles.indexOf(picked);
    return { file: new Blob([blob, `,"activeProfileIndex":${active}}\n`], { type: 'application/json' }), plan };
  }

  write(key, indices, picked) {
    if (!this.written.has(key)) {
      if (this.written.size === Selections.KEPT) this.written.delete(this.written.keys().next().value);
      const written = viewerJsonInWorker(this.result, indices, picked, this.budget);
      written.catch(() => this.written.delete(key));  // a failed write is tried again next time
      this.written.set(key, written);
    }
    return this.written.get(key);
  }
}

/** The bytes the core needs to tell what a file is. */
const ROLE_BYTES = 4096;

/**
 * What a dropped or picked file is, as the core sniffs its first bytes:
 * 'recording', 'symbols' (a Mach-O binary or dSYM) or 'unknown'.
 */
export async function fileRole(file) {
  return fileRoleInWorker(new Uint8Array(await file.slice(0, ROLE_BYTES).arrayBuffer()));
}

/** Frees the kept result. */
export function release(result) {
  releaseInWorker(result);
}
