// Assembles a speedscope file (https://www.speedscope.app/file-format-schema.json)
// from the core's result: frames from the summary, samples expanded from the
// stack table. Samples with the same stack share one array: treat them as
// read-only.

import { summaryOf } from './summary.js';

export const SCHEMA_URL = 'https://www.speedscope.app/file-format-schema.json';
const EMPTY_STACK = 0xffffffff;

/** @returns {{file: import('./index.js').SpeedscopeFile, summary: object}} */
export function toSpeedscope(result) {
  const summary = summaryOf(result);
  const { stackParents, stackFrames } = result;
  const stacks = [];  // stack id → its frames, made once
  const expand = (id) => {
    if (id === EMPTY_STACK) return [];
    let frames = stacks[id];
    if (!frames) {
      let depth = 0;
      for (let stack = id; stack !== EMPTY_STACK; stack = stackParents[stack]) depth++;
      frames = new Array(depth);
      for (let stack = id; stack !== EMPTY_STACK; stack = stackParents[stack]) {
        frames[--depth] = stackFrames[stack];  // root first
      }
      stacks[id] = frames;
    }
    return frames;
  };

  const profiles = summary.profiles.map((profile, index) => {
    const header = {
      name: profile.name,
      unit: profile.unit,
      startValue: profile.startValue,
      endValue: profile.endValue,
    };
    const events = result.events[index];
    if (events) return { type: 'evented', ...header, events: toEvents(events) };
    const ids = result.samples[index];
    const samples = new Array(ids.length);
    for (let i = 0; i < ids.length; i++) samples[i] = expand(ids[i]);
    return { type: 'sampled', ...header, samples, weights: toArray(result.weights[index]) };
  });

  const file = {
    $schema: SCHEMA_URL,
    exporter: summary.exporter,
    name: summary.name,
    activeProfileIndex: summary.activeProfileIndex,
    shared: { frames: summary.frames },
    profiles,
  };
  delete summary.frames;  // they live in file.shared
  return { file, summary };
}

// An evented profile's events as speedscope writes them.
function toEvents({ at, frames, open }) {
  const events = new Array(at.length);
  for (let i = 0; i < at.length; i++) {
    events[i] = { type: open[i] ? 'O' : 'C', frame: frames[i], at: at[i] };
  }
  return events;
}

// A typed array's numbers as a plain array: a loop is three times faster
// than Array.from on a million numbers.
function toArray(typed) {
  const array = new Array(typed.length);
  for (let i = 0; i < typed.length; i++) array[i] = typed[i];
  return array;
}

/**
 * Serializes a speedscope file as a sequence of strings, so that files larger
 * than a JS string can hold are written piece by piece.
 * @returns {Generator<string>}
 */
export function* speedscopeJsonPieces(file) {
  const PIECE = 1 << 16;
  yield `{"$schema":${JSON.stringify(file.$schema)},"exporter":${JSON.stringify(file.exporter)},` +
    `"name":${JSON.stringify(file.name)},"activeProfileIndex":${file.activeProfileIndex},\n"shared":{"frames":[`;
  let piece = '';
  for (let i = 0; i < file.shared.frames.length; i++) {
    piece += (i ? ',\n' : '\n') + JSON.stringify(file.shared.frames[i]);
    if (piece.length > PIECE) {
      yield piece;
      piece = '';
    }
  }
  yield piece;
  yield '\n]},\n"profiles":[';
  for (let p = 0; p < file.profiles.length; p++) {
    const { endValue, name, startValue, type, unit } = file.profiles[p];
    // The same bytes as the native writer: header keys in alphabetical order.
    const header = JSON.stringify({ endValue, name, startValue, type, unit });
    yield (p ? ',\n' : '\n') + header.slice(0, -1);
    if (type === 'evented') {
      yield* eventPieces(file.profiles[p].events, PIECE);
    } else {
      yield* samplePieces(file.profiles[p], PIECE);
    }
  }
  yield '\n]}\n';
}

function* eventPieces(events, PIECE) {
  let piece = ',\n"events":[';
  for (let i = 0; i < events.length; i++) {
    const { type, frame, at } = events[i];
    piece += `${i ? ',' : ''}\n{"type":"${type}","frame":${frame},"at":${at}}`;
    if (piece.length > PIECE) {
      yield piece;
      piece = '';
    }
  }
  yield piece + ']}';
}

function* samplePieces({ samples, weights }, PIECE) {
  let piece = ',\n"samples":[';
  for (let i = 0; i < samples.length; i++) {
    piece += (i ? ',[' : '[') + samples[i].join(',') + ']';
    if (piece.length > PIECE) {
      yield piece;
      piece = '';
    }
  }
  yield piece + '],\n"weights":[';
  piece = '';
  for (let i = 0; i < weights.length; i++) {
    piece += (i ? ',' : '') + weights[i];
    if (piece.length > PIECE) {
      yield piece;
      piece = '';
    }
  }
  yield piece + ']}';
}
