// The page's ways out for the recording on show ({result, name}): its whole
// file saved, speedscope's or the Firefox Profiler's (the bytes the command
// line writes), or handed to the Firefox Profiler's app in a tab of its own
// (firefox.js), with a note under the toolbar saying how that goes.

import { wholeFirefoxJson, wholeJson } from './src/kept.js';

import { openInProfiler, profilerURL } from './firefox.js';

const note = () => document.getElementById('firefox-note');

// "x" of "x.trace.zip", "x.xml.gz", "x.txt".
function baseName(name) {
  return name.replace(/(\.gz|\.zip)$/i, '').replace(/\.(trace|xml|txt)$/i, '') || 'profile';
}

/** Offers `blob` for saving as `fileName`. */
function save(blob, fileName) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** Saves the whole recording: the core's own JSON, as the command line writes it. */
export async function download({ result, name }) {
  save(await wholeJson(result), `${baseName(name)}.speedscope.json`);
}

/** Saves the whole recording as a Firefox Profiler file, as `--format firefox` writes it. */
export async function downloadFirefox({ result, name }) {
  save(await wholeFirefoxJson(result), `${baseName(name)}.firefox.json`);
}

function showFirefoxNote(text, failed = false) {
  note().textContent = text;
  note().classList.toggle('failed', failed);
  note().hidden = false;
}

export function hideFirefoxNote() {
  note().hidden = true;
}

/** Hands the recording to the Firefox Profiler's app in a tab of its own; from a click. */
export function openFirefox({ result }) {
  openInProfiler(profilerURL(location.search), wholeFirefoxJson(result), showFirefoxNote);
}
