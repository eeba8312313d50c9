// The drag-and-drop page: takes a recording from a drop, a picker or the
// clipboard, imports it with the package's facade (whose Worker keeps this
// page responsive), and shows the result in speedscope's own viewer, served
// from this origin. document.body.dataset.state is idle, loading, loaded or
// error, for people's CSS and for automation alike.

import { ImportError } from './src/index.js';
import { filesOfDirectory } from './src/input.js';
import { Selections, fileRole, importKept, release } from './src/kept.js';
import {
  allocationCount, busiestFirst, formatBytes, isWeighted, plural, profileAmount, profileLabel,
  threadOrder, threadsNote, threadsShort, weightedKinds,
} from './src/labels.js';

import { showMissingFeatures } from './capabilities.js';
import { HINTS, SYMBOLS_HINT } from './hints.js';
import { download, downloadFirefox, hideFirefoxNote, openFirefox } from './saving.js';

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

// What speedscope's viewer is handed is planned by the core within a budget
// of what the viewer can read in good time (cpp/speedscope/viewer_plan.h);
// ?viewer-budget=N changes it, for tests and measurements.
const VIEWER_BUDGET = Number(new URLSearchParams(location.search).get('viewer-budget') ?? NaN);

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
  element('viewer-note').hidden = true;
  if (viewerURL) URL.revokeObjectURL(viewerURL);
  viewerURL = null;
}

/** A name for the input as the user knows it. */
function nameOf(input) {
  if (Array.isArray(input)) return input[0]?.path.split('/')[0] || 'the folder';
  return input?.name || 'the recording';
}

/** "x" of "x.trace.zip", "x.xml.gz", "x.trace", "x.txt". */
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
    current = {
      summary, name, result,
      selections: new Selections(result, Number.isFinite(VIEWER_BUDGET) ? VIEWER_BUDGET : undefined),
    };
    element('symbol-lines-label').hidden = !summary.symbolication?.namedFrames;
    fillRuns();
    showSelection();
    setState('loaded');
    setStatus(`${name}: ${contentsText(summary)}` +
      (summary.instruments.length ? `, recorded with ${summary.instruments.join(', ')}` : '') +
      (summary.symbolication ? `. ${capitalized(summary.symbolication.text)}` : '') +
      (summary.naming.text ? `. ${capitalized(summary.naming.text)}` : '') +
      `. ${threadsShort(summary)}` +
      summary.warnings.map((warning) => `. ${warning.code}: ${warning.message}`).join(''));
    element('status').title = threadsNote(summary);
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

/**
 * "8,338 samples in 10 threads, 84,672 allocations, 189 intervals from 2
 * sources, 214 profiles of time off CPU, wait in system calls".
 */
function contentsText({ profiles, intervalSources }) {
  const ofKind = (kind) => profiles.filter((profile) => profile.kind === kind);
  const total = (list) => list.reduce((sum, profile) => sum + profile.sampleCount, 0);
  const [threads, weighted] = [ofKind('thread'), ofKind('weighted')];
  const parts = [];
  if (threads.length) parts.push(`${plural(total(threads), 'sample')} in ${plural(threads.length, 'thread')}`);
  const allocations = allocationCount(profiles);
  if (allocations) parts.push(plural(allocations, 'allocation'));
  if (intervalSources.length) {
    const intervals = intervalSources.reduce((sum, source) => sum + source.intervals, 0);
    parts.push(`${plural(intervals, 'interval')} from ${plural(intervalSources.length, 'source')}`);
  }
  // Consecutive events of one stack are one sample: the profiles are counted, and what they weigh said.
  if (weighted.length) parts.push(`${plural(weighted.length, 'profile')} of ${weightedKinds(weighted).join(', ')}`);
  return parts.join(', ');
}

/** A sentence of the core's, begun as one. */
function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Run, process and thread pickers. Runs and processes are listed busiest
// first with their sample counts (their intervals when they have no
// samples); the thread picker groups a process's profiles by kind, and the
// busiest thread is shown first.

const inOrder = (_, indices) => indices;

// The groups of a process's profiles: CPU samples, memory, then events of
// other tables, a group per kind (where threads waited first: "Time off
// CPU", "Wait in system calls"), then intervals.
function profileGroups(profiles) {
  const ofKinds = (kinds) => (profile) => kinds.includes(profile.kind) && !isWeighted(profile);
  return [
    { label: 'CPU', has: ofKinds(['thread', 'thread-pool', 'all-threads']), order: threadOrder },
    // All allocations, then those still alive, by bytes then counted; VM regions.
    { label: 'Memory', has: ofKinds(['allocations', 'vm-regions']), order: inOrder },
    ...weightedKinds(profiles).map((weighs) => ({
      label: capitalized(weighs),
      has: (profile) => isWeighted(profile) && profile.weighs === weighs,
      order: threadOrder,
    })),
    { label: 'Intervals', has: ofKinds(['intervals']), order: inOrder },  // by source and lane
    { label: 'During intervals', has: ofKinds(['during']), order: busiestFirst },
  ];
}

// What a group holds, by what counts first: its threads' samples (the views
// repeat them), else its allocations, else its intervals, else its weighted events.
const ACTIVITY = [['thread', 'sample'], ['allocations', 'allocation'], ['intervals', 'interval'], ['weighted', 'event']];

function activity(indices) {
  const { profiles } = current.summary;
  return ACTIVITY.map(([kind]) => {
    if (kind === 'allocations') return allocationCount(indices.map((index) => profiles[index]));
    return indices.reduce((total, index) => total + (profiles[index].kind === kind ? profiles[index].sampleCount : 0), 0);
  });
}

function activityText(indices) {
  const counts = activity(indices);
  const first = Math.max(0, counts.findIndex((count) => count > 0));
  return plural(counts[first], ACTIVITY[first][1]);
}

function optionOf({ value, label, title }, selected) {
  const option = new Option(label, value, false, value === selected);
  if (title) option.title = title;
  return option;
}

function fillSelect(select, options, selected) {
  select.replaceChildren(...options.map((option) => optionOf(option, selected)));
  select.disabled = options.length < 2;
}

function fillGroupedSelect(select, groups, selected) {
  select.replaceChildren(...groups.map(({ label, options }) => {
    const group = document.createElement('optgroup');
    group.label = label;
    group.append(...options.map((option) => optionOf(option, selected)));
    return group;
  }));
  select.disabled = groups.reduce((total, group) => total + group.options.length, 0) < 2;
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

function busiestGroupsFirst(groups) {
  return [...groups].sort(([, a], [, b]) => {
    const [x, y] = [activity(a), activity(b)];
    return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
  });
}

// A process by its label, which names it as its threads and its interval sources alike.
function processKey(profile) {
  return profile.processLabel;
}

// Intervals of no process (thermal states, display vsyncs) belong with every process of their run.
function ofNoProcess(profile) {
  return profile.kind === 'intervals' && current.summary.intervalSources[profile.intervalSource].processLabel === '';
}

function fillRuns() {
  const { profiles, activeProfileIndex } = current.summary;
  const runs = groupBy(profiles.keys(), (profile) => String(profile.run));
  const options = [...runs]
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([run, indices]) => ({ value: run, label: `Run ${run} — ${activityText(indices)}` }));
  element('run-label').hidden = runs.size < 2;
  fillSelect(element('run-select'), options, String(profiles[activeProfileIndex]?.run ?? options[0]?.value));
  fillProcesses(activeProfileIndex);
}

function fillProcesses(preferredIndex) {
  const { profiles } = current.summary;
  const run = element('run-select').value;
  const inRun = [...profiles.keys()].filter((index) => String(profiles[index].run) === run);
  const processes = busiestGroupsFirst(groupBy(inRun, processKey));
  const preferred = profiles[preferredIndex];
  const selected = preferred && String(preferred.run) === run ? processKey(preferred) : processes[0]?.[0];
  fillSelect(element('process-select'), processes.map(([key, indices]) => ({
    value: key,
    label: `${profiles[indices[0]].processLabel} — ${activityText(indices)}`,
  })), selected);
  fillThreads(preferredIndex);
}

/** The selected process's profiles, with the intervals of no process of its run, in profile order. */
function profilesOfSelection() {
  const { profiles } = current.summary;
  const run = element('run-select').value;
  const process = element('process-select').value;
  return [...profiles.keys()].filter((index) => String(profiles[index].run) === run &&
    (processKey(profiles[index]) === process || ofNoProcess(profiles[index])));
}

function fillThreads(preferredIndex) {
  const { profiles } = current.summary;
  const shown = profilesOfSelection();
  const groups = profileGroups(shown.map((index) => profiles[index])).map(({ label, has, order }) => {
    const members = order(profiles, shown.filter((index) => has(profiles[index])));
    return {
      label: `${label} (${members.length})`,
      options: members.map((index) => ({
        value: String(index),
        label: `${profileLabel(profiles[index])} — ${profileAmount(profiles[index])}`,
        title: profiles[index].name,
      })),
    };
  }).filter((group) => group.options.length);
  // The busiest thread, else (a recording of allocations or intervals alone) the first listed.
  const [busiest] = busiestFirst(profiles, shown.filter((index) => profiles[index].kind === 'thread'));
  const selected = shown.includes(preferredIndex) ? preferredIndex : (busiest ?? Number(groups[0]?.options[0]?.value));
  fillGroupedSelect(element('thread-select'), groups, String(selected));
}

/**
 * What speedscope may get with the profile `selected`: the process's threads
 * and its run's intervals, which speedscope's own thread switcher goes
 * through in profile order on the run's time axis. The core may condense or
 * leave out some, and says so.
 */
function viewerProfiles(selected) {
  const { profiles } = current.summary;
  return profilesOfSelection().filter((index) => index === selected ||
    profiles[index].kind === 'thread' || profiles[index].kind === 'intervals');
}

/** Says under the toolbar what the viewer does not show as the recording holds it. */
function showViewerNote(note) {
  const paragraph = element('viewer-note');
  paragraph.textContent = note;
  paragraph.hidden = !note;
}

/**
 * Shows the selected process's threads and its run's intervals in speedscope,
 * opened at the selected profile. The views (thread pools, all threads,
 * samples during intervals, weighted events) go in only when picked: each
 * repeats samples, and a process's threads alone can run to hundreds of MB.
 */
async function showSelection() {
  const { profiles } = current.summary;
  const selected = Number(element('thread-select').value);
  element('thread-select').title = profiles[selected]?.name ?? '';
  const indices = viewerProfiles(selected);
  const ticket = ++viewerTicket;
  const shown = current;
  let file;
  let plan;
  try {
    ({ file, plan } = await shown.selections.file(indices, selected));
  } catch (error) {
    if (ticket === viewerTicket && shown === current) showError(error, shown.name);
    return;
  }
  if (ticket !== viewerTicket || shown !== current) return;
  closeViewer();
  showViewerNote(plan.note);
  viewerURL = URL.createObjectURL(file);
  const frame = document.createElement('iframe');
  frame.title = 'speedscope flame graph viewer';
  // No &title=: speedscope would give it to every thread in its switcher.
  frame.src = `speedscope/index.html#profileURL=${encodeURIComponent(viewerURL)}&view=left-heavy`;
  frame.addEventListener('load', () => listenInViewer(frame.contentDocument));
  element('viewer').append(frame);
}

/** Lets the worker free the recording on show. */
function forget() {
  hideFirefoxNote();
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

/** A file's role as the core sniffs it; 'unknown' when the core cannot say (its error shows on import). */
function roleOf(file) {
  return fileRole(file).catch(() => 'unknown');
}

/**
 * Sorts dropped items into symbol files (a .dSYM, .app, .framework or
 * .xcarchive folder; a file the core says is a Mach-O binary or dSYM; a zip
 * whose name says dSYM, as App.dSYM.zip or App Store Connect's appDsyms.zip,
 * since whether a zip holds a bundle or symbols only its names say; with
 * `allSymbols`, anything) and at most one recording, then opens the
 * recording with every symbol file given so far, or the open one again with
 * the new ones.
 */
async function take(items, allSymbols = false) {
  let recording = null;
  const added = [];
  for (const item of items) {
    if (item.isDirectory && /\.(dSYM|app|framework|xcarchive)$/i.test(item.name)) {
      added.push(...await filesOfDirectory(item));
    } else if (!item.isDirectory &&
      (allSymbols || /dsym.*\.zip$/i.test(item.name) || await roleOf(item) === 'symbols')) {
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
  element('download').addEventListener('click', () => download(current));
  element('download-firefox').addEventListener('click', () => downloadFirefox(current));
  element('open-firefox').addEventListener('click', () => openFirefox(current));
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
showMissingFeatures(element('capability-note'), element('folder-input'));
setState('idle');
