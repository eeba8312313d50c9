// The Node entry: the same API as ./index.js, with the .wasm read from the
// package's own files (Node's fetch cannot load file: URLs).

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { setDefaultWasmBinary, setThreadsEnvironment } from './core.js';

setDefaultWasmBinary(() => readFile(new URL('../dist/instrumentscope-core.wasm', import.meta.url)));
setThreadsEnvironment({
  cores: availableParallelism(),
  // The threaded glue is built for Node too, where it starts worker_threads;
  // as an ES module it still reaches for CommonJS's require and __dirname
  // (its folder, where it finds its .wasm and worker script).
  prepareThreaded: async (glue) => {
    globalThis.require ??= createRequire(glue);
    globalThis.__dirname ??= dirname(fileURLToPath(glue));
    return { wasmBinary: await readFile(new URL('instrumentscope-core-mt.wasm', glue)) };
  },
});

export * from './index.js';
