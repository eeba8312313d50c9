// The module Worker the browser facade owns: it runs the WebAssembly core off
// the page's thread. Messages (see worker-client.js for the other side):
//   in:  {type: 'import', id, options, input} (options.output: the file the
//        core writes, see importFileHere in core.js), {type: 'cancel', id},
//        {type: 'chunk', id, bytes}, {type: 'end', id}   (stream inputs),
//        {type: 'json', id, group}, {type: 'firefox', id, group},
//        {type: 'viewer', id, group, profiles, picked, budget},
//        {type: 'release', group}   (results kept
//        with options.keep, see core.js), {type: 'role', id, prefix} (what a file is)
//   out: {type: 'progress', id, progress}, {type: 'pull', id} (stream inputs),
//        {type: 'done', id, result} (typed arrays transferred; with
//        options.output, {summary, progress, blob}; for 'json' and 'firefox', {blob};
//        for 'viewer', {blob, plan};
//        for 'role', the role),
//        {type: 'error', id, error}

import {
  fileRoleHere, importFileHere, importHere, keptFirefoxJson, keptJson, releaseKept, viewerJson,
} from './core.js';
import { ImportError } from './errors.js';

const controllers = new Map();
const streams = new Map();

self.onmessage = ({ data }) => {
  if (data.type === 'import') run(data);
  else if (data.type === 'cancel') controllers.get(data.id)?.abort();
  else if (data.type === 'chunk' || data.type === 'end') streams.get(data.id)?.deliver(data);
  else if (data.type === 'json') answer(data.id, () => ({ blob: keptJson(data.group) }));
  else if (data.type === 'firefox') answer(data.id, () => ({ blob: keptFirefoxJson(data.group) }));
  else if (data.type === 'viewer') {
    answer(data.id, () => viewerJson(data.group, data.profiles, data.picked, data.budget));
  }
  else if (data.type === 'release') releaseKept(data.group);
  else if (data.type === 'role') fileRole(data);
};

async function fileRole({ id, prefix }) {
  try {
    self.postMessage({ type: 'done', id, result: await fileRoleHere(prefix) });
  } catch (error) {
    self.postMessage({ type: 'error', id, error: describe(error) });
  }
}

function answer(id, work) {
  try {
    self.postMessage({ type: 'done', id, result: work() });
  } catch (error) {
    self.postMessage({ type: 'error', id, error: describe(error) });
  }
}

// A stream the page reads: each chunk is asked for, so that no more than one
// is ever in flight.
class PulledStream {
  constructor(id) {
    this.id = id;
    this.waiting = null;
  }

  deliver(message) {
    const resolve = this.waiting;
    this.waiting = null;
    resolve?.(message.type === 'end' ? { done: true, value: undefined } : { done: false, value: message.bytes });
  }

  [Symbol.asyncIterator]() {
    return {
      next: () => new Promise((resolve) => {
        this.waiting = resolve;
        self.postMessage({ type: 'pull', id: this.id });
      }),
    };
  }
}

function describe(error) {
  if (error instanceof ImportError) {
    const { code, message, path, offset, line } = error;
    return { code, message, path, offset, line };
  }
  return { name: error?.name ?? 'Error', message: error?.message ?? String(error) };
}

async function run({ id, options, input }) {
  const controller = new AbortController();
  controllers.set(id, controller);
  try {
    let source = input.kind === 'files' ? input.files : input.blob;
    if (input.kind === 'stream') {
      source = new PulledStream(id);
      streams.set(id, source);
    }
    const settings = {
      ...options,
      signal: controller.signal,
      onProgress: (progress) => self.postMessage({ type: 'progress', id, progress }),
    };
    const result = options.output
      ? await importFileHere(source, settings, options.name, options.output)
      : await importHere(source, settings, options.name);
    const arrays = result.samples
      ? [result.stackParents, result.stackFrames, ...result.samples, ...result.weights] : [];
    self.postMessage({ type: 'done', id, result }, arrays.map((array) => array.buffer));
  } catch (error) {
    self.postMessage({ type: 'error', id, error: describe(error) });
  } finally {
    controllers.delete(id);
    streams.delete(id);
  }
}
