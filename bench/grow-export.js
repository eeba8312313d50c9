#!/usr/bin/env node
// Grows a real `xctrace export` into a long one, the way a long recording
// grows: the seed's rows first (they define every id), then the seed's rows
// again and again at later times, each column a ref= to what the seed defined,
// and every FRESH_EVERY-th row a backtrace not seen before (the seed's frames,
// one dropped or repeated), as new code paths turn up.
//   node bench/grow-export.js SEED.xml OUT.xml SIZE_MB

import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';

const FRESH_EVERY = 20;

/** The children of a <row>, as {name, id, text}. */
function rowChildren(row) {
  const inner = row.slice('<row>'.length, -'</row>'.length);
  const children = [];
  let depth = 0;
  let start = 0;
  for (const tag of inner.matchAll(/<(\/?)[\w-]+[^>]*?(\/?)>/g)) {
    const [text, closing, selfClosing] = tag;
    if (!closing && depth === 0) start = tag.index;
    if (closing) depth--;
    else if (!selfClosing) depth++;
    if (depth === 0) {
      const element = inner.slice(start, tag.index + text.length);
      const [, name, attributes] = element.match(/^<([\w-]+)([^>]*?)\/?>/);
      children.push({ name, id: attributes.match(/\bid="(\d+)"/)?.[1], text: element });
    }
  }
  return children;
}

/** A column as a reference to what the seed defined. */
function asReference(child) {
  return child.id ? `<${child.name} ref="${child.id}"/>` : child.text;
}

/** "00:00.648.438" for 648438208 ns. */
function formatTime(ns) {
  const micros = Math.floor(ns / 1000);
  const minutes = Math.floor(micros / 60e6);
  const seconds = Math.floor(micros / 1e6) % 60;
  const millis = Math.floor(micros / 1000) % 1000;
  const pad = (value, width) => String(value).padStart(width, '0');
  return `${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(millis, 3)}.${pad(micros % 1000, 3)}`;
}

/** backtrace id → the ids of its frames, for every backtrace the seed defines. */
function backtraceFrames(seed) {
  const frames = new Map();
  for (const [, id, body] of seed.matchAll(/<backtrace id="(\d+)"[^>]*>(.*?)<\/backtrace>/gs)) {
    frames.set(id, [...body.matchAll(/<frame (?:id|ref)="(\d+)"/g)].map((match) => match[1]));
  }
  return frames;
}

async function main() {
  const [seedPath, outPath, sizeArgument] = process.argv.slice(2);
  const targetBytes = Number(sizeArgument) * 1024 * 1024;
  if (!seedPath || !outPath || !(targetBytes > 0)) {
    console.error('usage: node bench/grow-export.js SEED.xml OUT.xml SIZE_MB');
    process.exit(2);
  }
  const seed = readFileSync(seedPath, 'utf8');
  const firstRow = seed.indexOf('<row>');
  const lastRow = seed.lastIndexOf('</row>') + '</row>'.length;
  if (firstRow < 0) throw new Error(`${seedPath}: no <row> in it`);
  const prefix = seed.slice(0, firstRow);
  const suffix = seed.slice(lastRow);
  const rows = [...seed.slice(firstRow, lastRow).matchAll(/<row>.*?<\/row>/gs)].map(([row]) => rowChildren(row));
  const framesOf = backtraceFrames(seed);
  let nextId = Math.max(...[...seed.matchAll(/\bid="(\d+)"/g)].map((match) => Number(match[1]))) + 1;
  const times = rows.map((children) => Number(children[0].text.match(/>(\d+)</)[1]));
  const span = Math.max(...times) - Math.min(...times) + 1_000_000;

  const out = createWriteStream(outPath);
  let written = 0;
  const write = async (text) => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(prefix);
  await write(seed.slice(firstRow, lastRow));
  let generated = 0;
  for (let round = 1; written < targetBytes; round++) {
    for (let i = 0; i < rows.length && written < targetBytes; i++) {
      const columns = rows[i].slice(1);  // after the sample time
      const ns = times[i] + round * span;
      let text = `<row><sample-time id="${nextId++}" fmt="${formatTime(ns)}">${ns}</sample-time>`;
      for (const column of columns) {
        if (column.name === 'backtrace' && ++generated % FRESH_EVERY === 0) {
          // A new call path: the seed's frames with the leaf dropped or repeated.
          const frames = framesOf.get(column.id ?? column.text.match(/ref="(\d+)"/)[1]);
          const fresh = generated % (2 * FRESH_EVERY) === 0 && frames.length > 1
            ? frames.slice(1) : [frames[0], ...frames];
          text += `<backtrace id="${nextId++}">${fresh.map((id) => `<frame ref="${id}"/>`).join('')}</backtrace>`;
        } else {
          text += asReference(column);
        }
      }
      await write(`${text}</row>\n`);
    }
  }
  await write(suffix);
  out.end();
  await once(out, 'finish');
  console.log(`${outPath}: ${(written / 1048576).toFixed(1)} MB`);
}

await main();
