// The Node entry: the same API as ./index.js, with the .wasm read from the
// package's own files (Node's fetch cannot load file: URLs).

import { readFile } from 'node:fs/promises';

import { setDefaultWasmBinary } from './core.js';

setDefaultWasmBinary(() => readFile(new URL('../dist/instrumentscope-core.wasm', import.meta.url)));

export * from './index.js';
