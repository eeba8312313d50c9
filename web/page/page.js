// The drag-and-drop page: takes a recording from a drop, a picker or the
// clipboard, imports it with the package's facade (whose Worker keeps this
// page responsive), and shows the result in speedscope's own viewer, served
// from this origin. document.body.dataset.state is idle, loading, loaded or
// error, for people's CSS and for automation alike.

import { ImportError } from './src/index.js';
import { filesOfDirectory } from './src/input.js';
import { Selections, importKept, release, wholeJson } from './src/kept.js';

const element = (id) => document.getElementById(id);

// 'detecting' is the core buffering input until it knows the format: reading, to a person.
const STAGE_NAMES = {
  symbols: 'Reading symbol files',
  reading: 'Reading',
  detecting: 'Reading',
  parsing: 'Parsing',
  building: 'Building profiles',
  symbolicating: 'Naming frames from the symbol files',
  done: 'Done',
};

const EXPORT_COMMAND = 'xctrace export --input x.trace --xpath ' +
  '\'/trace-toc/run[1]/data/table[@schema="time-profile"]\' --output x.xml';

const DAMAGED = 'The file is damaged. Copy it again from where it was recorded; ' +
  'if you zipped it yourself, zip the whole .trace folder again.';
const CUT_OFF = 'The file ends early: it was probably cut off while copying or downloading. Copy it again.';
const BAD_EXPORT = 'The export is malformed at the place shown. Export the table again with xctrace export.';
const REEXPORT = `On a Mac, export the Time Profiler table and open the XML here: ${EXPORT_COMMAND}`;

const SYMBOLS_HINT = 'The symbol file was set aside. Add the app\'s .dSYM folder as Xcode made it ' +
  '(or the app\'s binary), then open the recording again.';

/** What to try, per error code (see ImportErrorCode in src/index.d.ts). */
const HINTS = {
  INVALID_ARGUMENT: 'Open a recording with the pickers above.',
  EMPTY_INPUT: 'The file is empty. Copy it again from where it was recorded.',
  UNKNOWN_FORMAT: 'Open a zipped .trace, a .trace folder (with "Choose a .trace folder…", or by dropping it), ' +
    'an xctrace export (.xml or .xml.gz), or paste a Deep Copy of an Instruments call tree.',
  TRUNCATED: CUT_OFF,
  GZIP_TRUNCATED: CUT_OFF,
  GZIP_CORRUPT: DAMAGED,
  ZIP_CORRUPT: DAMAGED,
  INFLATE_CORRUPT: DAMAGED,
  ZIP_UNSUPPORTED: 'Zip the .trace folder again with plain zip (zip -r x.trace.zip x.trace), or open the folder itself.',
  PLIST_CORRUPT: `A file inside the .trace is damaged. ${REEXPORT}`,
  KEYED_ARCHIVE_CORRUPT: `A file inside the .trace is damaged. ${REEXPORT}`,
  TYPEDSTREAM_CORRUPT: `A file inside the .trace is damaged. ${REEXPORT}`,
  BUNDLE_CORRUPT: `A file inside the .trace is damaged. ${REEXPORT}`,
  BUNDLE_NO_SAMPLES: 'This recording holds no CPU samples. Record with the Time Profiler instrument.',
  BUNDLE_UNSUPPORTED: REEXPORT,
  XML_SYNTAX: BAD_EXPORT,
  XML_FORBIDDEN: 'The XML declares a DTD or entities, which xctrace never writes. Export the table again.',
  XML_NOT_XCTRACE: `This XML is not an xctrace export. ${REEXPORT}`,
  XML_TABLE_OF_CONTENTS: `This is an export's table of contents, not a table. Export the samples: ${EXPORT_COMMAND}`,
  XML_NO_SAMPLE_TABLE: `The export holds no CPU samples. Export the time-profile (or time-sample, cpu-profile) table: ${EXPORT_COMMAND}`,
  XML_NO_SAMPLES: 'The table has no samples: the recording may have been stopped at once. Record longer.',
  XML_DANGLING_REF: BAD_EXPORT,
  XML_DUPLICATE_ID: BAD_EXPORT,
  XML_REF_MISMATCH: BAD_EXPORT,
  XML_BAD_VALUE: BAD_EXPORT,
  XML_BAD_STRUCTURE: BAD_EXPORT,
  BAD_SAMPLE: BAD_EXPORT,
  DEEP_COPY_BAD_ROW: 'Copy the call tree again in Instruments (select its rows, Edit > Deep Copy) and paste it unchanged.',
  DEEP_COPY_NO_SAMPLES: 'Expand the call tree in Instruments (Option-click the disclosure triangles), select its rows, then Edit > Deep Copy.',
  // NAME becomes the limit the message names.
  LIMIT_EXCEEDED: 'The recording reaches one of the importer\'s limits. The command line can raise it ' +
    '(npx instrumentscope x.trace.zip --limit NAME=N), or open one run at a time (--list, then --run N); ' +
    'a browser tab holds at most 4 GB.',
  RUN_NOT_FOUND: 'Choose one of the runs the recording holds.',
  MACHO_CORRUPT: SYMBOLS_HINT,
  MACHO_UNSUPPORTED: SYMBOLS_HINT,
};

// The recording on show: {summary, name, result (kept in the worker), selections}.
let current = null;
// The user's binaries and dSYMs ([{path, data}]), kept for every recording
// opened after them; and the recording open, to name its frames again when
// more arrive.
let symbols = [];
let openedInput = null;
let importController = null;
let viewerURL = null;  // the blob: URL speedscope reads the profile from
let viewerTicket = 0;  // the latest viewer asked for; earlier ones, once written, are dropped

function setState(state) {
  document.body.dataset.state = state;
  element('drop-zone').hidden = state !== 'idle';
  element('progress').hidden = state !== 'loading';
  element('error').hidden = state !== 'error';
  element('viewer').hidden = state !== 'loaded';
  element('toolbar').hidden = state !== 'loaded';
}

function setStatus(text) {
  element('status').textContent = text;
}

function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function formatCount(count) {
  return count.toLocaleString('en');
}

function plural(count, noun) {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

function showProgress({ stage, bytesRead, bytesTotal, samples }) {
  element('progress-stage').textContent = STAGE_NAMES[stage] ?? stage;
  const bar = element('progress-bar');
  const parts = [];
  if (bytesTotal) {
    bar.max = bytesTotal;
    bar.value = Math.min(bytesRead, bytesTotal);
    parts.push(`${formatBytes(bytesRead)} of ${formatBytes(bytesTotal)}`);
  } else {
    bar.removeAttribute('value');  // indeterminate: a stream of unknown size
    parts.push(formatBytes(bytesRead));
  }
  if (samples) parts.push(plural(samples, 'sample'));
  element('progress-detail').textContent = `· ${parts.join(' · ')}`;
}

function showError(error, name) {
  const isImportError = error instanceof ImportError;
  // A symbol file that cannot be read is dropped, so that the next try can succeed.
  const badSymbols = isImportError && error.path
    ? symbols.filter((file) => error.path === file.path || error.path.startsWith(`${file.path}!`))
    : [];
  symbols = symbols.filter((file) => !badSymbols.includes(file));
  showSymbols();
  element('error-title').textContent = badSymbols.length
    ? `Could not read the symbol file ${badSymbols[0].path}` : `Could not open ${name}`;
  element('error-message').textContent = error?.message ?? String(error);
  element('error-where').textContent = (isImportError && error.location) || 'the input as a whole';
  element('error-code').textContent = isImportError ? error.code : (error?.name ?? 'Error');
  element('error-hint').textContent = (badSymbols.length && SYMBOLS_HINT) ||
    (isImportError && HINTS[error.code]?.replace('NAME', error.limit ?? 'NAME')) ||
    'Reload the page and try again. If it happens again, report the code and message above.';
  setState('error');
}

function closeViewer() {
  element('viewer').querySelector('iframe')?.remove();
  if (viewerURL) URL.revokeObjectURL(viewerURL);
  viewerURL = null;
}

/** A name for the input as the user knows it. */
function nameOf(input) {
  if (Array.isArray(input)) return input[0]?.path.split('/')[0] || 'the folder';
  return input?.name || 'the recording';
}

/** "x" of "x.trace.zip", "x.xml.gz", "x.trace", "x.txt". */
function baseName(name) {
  return name.replace(/(\.gz|\.zip)$/i, '').replace(/\.(trace|xml|txt)$/i, '') || 'profile';
}

async function open(input) {
  importController?.abort();
  const controller = new AbortController();
  importController = controller;
  const name = nameOf(input);
  forget();
  closeViewer();
  setStatus('');
  element('progress-name').textContent = name;
  showProgress({ stage: 'reading', bytesRead: 0, samples: 0 });
  setState('loading');
  openedInput = input;
  try {
    const { summary, result } = await importKept(input, {
      symbols: symbols.length ? withLoadAddress(symbols) : undefined,
      symbolLines: element('symbol-lines').checked ? 'line' : 'function',
      signal: controller.signal,
      onProgress: (progress) => {
        if (importController === controller) showProgress(progress);
      },
    });
    if (importController !== controller) {
      release(result);
      return;
    }
    current = { summary, name, result, selections: new Selections(result) };
    element('symbol-lines-label').hidden = !summary.symbolication?.namedFrames;
    fillRuns();
    showSelection();
    setState('loaded');
    const samples = summary.profiles.reduce((sum, profile) => sum + profile.sampleCount, 0);
    setStatus(`${name}: ${plural(samples, 'sample')} in ${plural(summary.profiles.length, 'thread')}` +
      (summary.instruments.length ? `, recorded with ${summary.instruments.join(', ')}` : '') +
      (summary.symbolication ? `. ${symbolicationText(summary.symbolication)}` : '') +
      `. ${namingText(summary.naming)}` +
      summary.warnings.map((warning) => `. ${warning.code}: ${warning.message}`).join(''));
  } catch (error) {
    if (importController !== controller) return;
    if (error?.name === 'AbortError') {
      setState('idle');
      setStatus(`Stopped reading ${name}.`);
    } else {
      showError(error, name);
    }
  } finally {
    if (importController === controller) importController = null;
  }
}

/** The symbol files, placed at the load address typed for bare-address exports, if any. */
function withLoadAddress(files) {
  const loadAddress = element('load-address').value.trim();
  return loadAddress ? files.map((file) => ({ ...file, loadAddress })) : files;
}

/** Lists the symbol files kept for the next recordings, by their top folder or name. */
function showSymbols() {
  const names = [...new Set(symbols.map((file) => file.path.split('/')[0]))];
  element('symbols-names').textContent = names.join(', ');
  element('symbols-status').hidden = names.length === 0;
}

function namingText({ sampledFrames, unnamedFrames }) {
  const named = sampledFrames - unnamedFrames;
  const share = sampledFrames ? ` (${Math.floor((named / sampledFrames) * 1000) / 10}%)` : '';
  return `${formatCount(named)} of ${plural(sampledFrames, 'frame')} named${share}`;
}

function symbolicationText({ unnamedFrames, namedFrames, filesUsed }) {
  return `Named ${formatCount(namedFrames)} of ${plural(unnamedFrames, 'unnamed frame')}` +
    (filesUsed.length ? ` from ${filesUsed.join(', ')}` : '');
}

// Run, process and thread pickers. Processes and threads are listed busiest
// first with their sample counts; the busiest thread is shown first.

function sum(indices) {
  return indices.reduce((total, index) => total + current.summary.profiles[index].sampleCount, 0);
}

function fillSelect(select, options, selected) {
  select.replaceChildren(...options.map(({ value, label }) => new Option(label, value, false, value === selected)));
  select.disabled = options.length < 2;
}

function groupBy(indices, keyOf) {
  const groups = new Map();
  for (const index of indices) {
    const key = keyOf(current.summary.profiles[index]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(index);
  }
  return groups;
}

function busiestFirst(groups) {
  return [...groups].sort(([, a], [, b]) => sum(b) - sum(a));
}

function processKey(profile) {
  return `${profile.pid ?? ''}:${profile.processName}`;
}

function fillRuns() {
  const { profiles, activeProfileIndex } = current.summary;
  const runs = groupBy(profiles.keys(), (profile) => String(profile.run));
  const options = [...runs]
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([run, indices]) => ({ value: run, label: `Run ${run} — ${plural(sum(indices), 'sample')}` }));
  element('run-label').hidden = runs.size < 2;
  fillSelect(element('run-select'), options, String(profiles[activeProfileIndex]?.run ?? options[0]?.value));
  fillProcesses(activeProfileIndex);
}

function fillProcesses(preferredIndex) {
  const { profiles } = current.summary;
  const run = element('run-select').value;
  const inRun = [...profiles.keys()].filter((index) => String(profiles[index].run) === run);
  const processes = busiestFirst(groupBy(inRun, processKey));
  const preferred = profiles[preferredIndex];
  const selected = preferred && String(preferred.run) === run ? processKey(preferred) : processes[0]?.[0];
  fillSelect(element('process-select'), processes.map(([key, indices]) => ({
    value: key,
    label: `${profiles[indices[0]].processLabel} — ${plural(sum(indices), 'sample')}`,
  })), selected);
  fillThreads(preferredIndex);
}

function threadsOfSelection() {
  const { profiles } = current.summary;
  const run = element('run-select').value;
  const process = element('process-select').value;
  return [...profiles.keys()]
    .filter((index) => String(profiles[index].run) === run && processKey(profiles[index]) === process)
    .sort((a, b) => profiles[b].sampleCount - profiles[a].sampleCount);
}

function fillThreads(preferredIndex) {
  const { profiles } = current.summary;
  const threads = threadsOfSelection();
  const selected = threads.includes(preferredIndex) ? preferredIndex : threads[0];
  fillSelect(element('thread-select'), threads.map((index) => ({
    value: String(index),
    label: `${profiles[index].threadLabel} — ${plural(profiles[index].sampleCount, 'sample')}`,
  })), String(selected));
}

/** Shows the selected process's threads in speedscope, opened at the selected thread. */
async function showSelection() {
  const threads = threadsOfSelection();
  // speedscope's own thread switcher then goes through this process's threads in profile order.
  const indices = [...threads].sort((a, b) => a - b);
  const selected = Number(element('thread-select').value);
  const ticket = ++viewerTicket;
  const shown = current;
  let file;
  try {
    file = await shown.selections.file(indices, Math.max(0, indices.indexOf(selected)));
  } catch (error) {
    if (ticket === viewerTicket && shown === current) showError(error, shown.name);
    return;
  }
  if (ticket !== viewerTicket || shown !== current) return;
  closeViewer();
  viewerURL = URL.createObjectURL(file);
  const frame = document.createElement('iframe');
  frame.title = 'speedscope flame graph viewer';
  // No &title=: speedscope would give it to every thread in its switcher.
  frame.src = `speedscope/index.html#profileURL=${encodeURIComponent(viewerURL)}&view=left-heavy`;
  frame.addEventListener('load', () => listenInViewer(frame.contentDocument));
  element('viewer').append(frame);
}

/** Saves the whole recording: the core's own JSON, as the command line writes it. */
async function download() {
  const { result, name } = current;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await wholeJson(result));
  link.download = `${baseName(name)}.speedscope.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** Lets the worker free the recording on show. */
function forget() {
  if (current) release(current.result);
  current = null;
}

function reset() {
  importController?.abort();
  forget();
  openedInput = null;
  closeViewer();
  setStatus('');
  setState('idle');
}

// Inputs: pickers, drops (files, folders, text) and pastes.

/** What a drop carries, taken while the event lasts: files, folders or text. */
function droppedItems(dataTransfer) {
  const items = [...dataTransfer.items].filter((candidate) => candidate.kind === 'file')
    .map((item) => {
      const entry = item.webkitGetAsEntry?.();
      return entry?.isDirectory ? entry : item.getAsFile();
    })
    .filter(Boolean);
  if (items.length) return items;
  const text = dataTransfer.getData('text/plain');
  return text ? [new File([text], 'dropped text')] : [];
}

// Mach-O: 64-bit thin (CF FA ED FE) or universal (CA FE BA BE / BF).
async function isMachO(file) {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  const magic = [...head].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return ['cffaedfe', 'cafebabe', 'cafebabf'].includes(magic);
}

/**
 * Sorts dropped items into symbol files (a .dSYM, .app, .framework or
 * .xcarchive folder, a zip whose name says dSYM, as App.dSYM.zip or App Store
 * Connect's appDsyms.zip,
 * a Mach-O binary; with `allSymbols`, anything) and at most one recording,
 * then opens the recording with every symbol file given so far, or the open
 * one again with the new ones.
 */
async function take(items, allSymbols = false) {
  let recording = null;
  const added = [];
  for (const item of items) {
    if (item.isDirectory && /\.(dSYM|app|framework|xcarchive)$/i.test(item.name)) {
      added.push(...await filesOfDirectory(item));
    } else if (!item.isDirectory && (allSymbols || /dsym.*\.zip$/i.test(item.name) || await isMachO(item))) {
      added.push({ path: item.name, data: item });
    } else {
      recording ??= item;
    }
  }
  symbols.push(...added);
  showSymbols();
  const target = recording ?? (added.length ? openedInput : null);
  if (target) {
    open(target);
  } else if (added.length) {
    setStatus('Symbols ready: now open the recording.');
  }
}

function onDragOver(event) {
  event.preventDefault();
  event.dataTransfer.dropEffect = 'copy';
  element('drop-zone').classList.add('dragging');
}

function onDragLeave(event) {
  if (event.relatedTarget) return;  // still over the page
  element('drop-zone').classList.remove('dragging');
  element('viewer-drop').hidden = true;
}

function onDrop(event) {
  event.preventDefault();
  element('drop-zone').classList.remove('dragging');
  element('viewer-drop').hidden = true;
  const items = droppedItems(event.dataTransfer);
  if (items.length) take(items).catch((error) => showError(error, nameOf(items[0])));
}

function onPaste(event) {
  // Text typed into a field (speedscope's search box, say) stays there.
  if (event.target.closest?.('input, select, textarea')) return;
  const [file] = event.clipboardData.files;
  const text = event.clipboardData.getData('text/plain');
  if (file || text) {
    event.preventDefault();
    event.stopPropagation();
    // A copy made here: a file pasted into the viewer belongs to its window, which open() closes.
    open(file ? new File([file], file.name, { type: file.type }) : new File([text], 'pasted text'));
  }
}

/**
 * Over the viewer, a drag raises an overlay of this page, so that the drop
 * lands here rather than in speedscope's own importer (which knows no
 * Instruments format); pastes are taken first, in the capture phase.
 */
function listenInViewer(viewerDocument) {
  const raiseOverlay = (event) => {
    event.preventDefault();
    event.stopPropagation();
    element('viewer-drop').hidden = false;
  };
  viewerDocument.addEventListener('dragenter', raiseOverlay, true);
  viewerDocument.addEventListener('dragover', raiseOverlay, true);
  viewerDocument.addEventListener('drop', raiseOverlay, true);
  viewerDocument.addEventListener('paste', onPaste, true);
}

function setUpInputs() {
  element('file-input').addEventListener('change', (event) => {
    const [file] = event.target.files;
    event.target.value = '';
    if (file) open(file);
  });
  for (const id of ['symbols-input', 'viewer-symbols-input']) {
    element(id).addEventListener('change', (event) => {
      const files = [...event.target.files];
      event.target.value = '';
      if (files.length) take(files, true).catch((error) => showError(error, files[0].name));
    });
  }
  element('folder-input').addEventListener('change', (event) => {
    const files = [...event.target.files].map((file) => ({ path: file.webkitRelativePath || file.name, data: file }));
    event.target.value = '';
    if (files.length) open(files);
  });

  document.addEventListener('dragover', onDragOver);
  document.addEventListener('dragleave', onDragLeave);
  document.addEventListener('drop', onDrop);
  document.addEventListener('paste', onPaste);

  element('cancel').addEventListener('click', () => importController?.abort());
  // Frames named from symbol files, by function or by line: the recording is read again.
  element('symbol-lines').addEventListener('change', () => {
    if (openedInput) open(openedInput);
  });
  element('forget-symbols').addEventListener('click', () => {
    symbols = [];
    showSymbols();
  });
  element('error-dismiss').addEventListener('click', reset);
  element('open-another').addEventListener('click', reset);
  element('download').addEventListener('click', download);
  element('run-select').addEventListener('change', () => {
    fillProcesses(-1);
    showSelection();
  });
  element('process-select').addEventListener('change', () => {
    fillThreads(-1);
    showSelection();
  });
  element('thread-select').addEventListener('change', showSelection);
}

setUpInputs();
setState('idle');
