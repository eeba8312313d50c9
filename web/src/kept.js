// The page's own way in: an import whose result the worker keeps, so that
// speedscope is handed the JSON the core writes, one process at a time, and
// no profile is ever rebuilt as JavaScript objects. Not part of the package's
// public API (index.js is).

import { prepareImport } from './prepare.js';
import { fileRoleInWorker, importInWorker, keptJsonInWorker, releaseInWorker } from './worker-client.js';

/**
 * Imports `input` (anything importTrace takes) in the worker and keeps the
 * result there: {summary (as importTraceWithSummary's), result}, where result
 * names the kept result for the calls below.
 */
export async function importKept(input, options = {}) {
  const prepared = await prepareImport(input, options);
  const { summary, group } = await importInWorker(prepared.input, { ...prepared.options, keep: true },
    prepared.name);
  return { summary: JSON.parse(summary), result: group };
}

/** The whole recording as a speedscope file: the bytes the CLI writes. */
export function wholeJson(result) {
  return keptJsonInWorker(result, null);
}

/**
 * The profiles at `indices` as a speedscope file, opened at `active` (an
 * index into `indices`). The core writes each selection once: files that
 * differ only in the profile opened first share its bytes.
 */
export class Selections {
  // Selections kept written: a few, as a process's JSON can run to hundreds of MB.
  static KEPT = 4;

  constructor(result) {
    this.result = result;
    this.bodies = new Map();  // indices joined → Promise of the open JSON, oldest first
  }

  async file(indices, active) {
    const key = indices.join(',');
    if (!this.bodies.has(key)) {
      if (this.bodies.size === Selections.KEPT) this.bodies.delete(this.bodies.keys().next().value);
      const body = keptJsonInWorker(this.result, indices);
      body.catch(() => this.bodies.delete(key));  // a failed write is tried again next time
      this.bodies.set(key, body);
    }
    const body = await this.bodies.get(key);
    return new Blob([body, `,"activeProfileIndex":${active}}\n`], { type: 'application/json' });
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
