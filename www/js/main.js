// @ts-check
// The playground: reads the state from the URL (through the engine), wires the shared controls
// and the tabs, and hands each view its part of the page. Views live in js/views/.
import { Dataset, version, commit } from '../pkg/csc.js';
import { engineReady } from './engine.js';
import { loadState, saveState, fingerprint, uploadHash, linkedUpload, figureEmbedSnippet } from './state.js';
import { buildControls } from './controls.js';
import { createLiveView } from './views/live.js';
import { createAskView } from './views/ask.js';
import { createRegretView } from './views/regret.js';
import { createOfflineView } from './views/offline.js';
import { createEfficiencyView } from './views/efficiency.js';
import { createPaperView } from './views/paper.js';
import { createSweepView } from './views/sweep.js';
import { createFrontierView } from './views/frontier.js';
import { createThreatsView } from './views/threats.js';
import { createTheoryView } from './views/theory.js';
import { createOwnPolicy, own, policyHash } from './views/own-policy.js';
import { setupUpload, arrivalChoice } from './upload.js';
import { determinism } from './jobs.js';

const $ = (id) => document.getElementById(id);
/** The view tabs (each names its view in `data-view`). */
const tabButtons = () => /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('.tabs button'));

function banner(messages) {
  $('banner').hidden = !messages.length;
  $('banner').textContent = messages.join(' ');
}

await engineReady; // compiled once, shared with the workers (engine.js)
const { state, errors, hidden } = loadState();
// Every settings control, built from the engine's table (js/controls.js), what the link hides hidden.
const controls = buildControls(hidden);
const notes = [];
if (errors.length) notes.push(`Parts of this link could not be used, so their defaults stand: ${errors.join('; ')}.`);
const linked = linkedUpload();
if (state.dataset === 'upload') {
  const named = linked ? ` (${linked.file}, checksum ${linked.checksum}${linked.index ? `, replayed in the order of ${linked.index}` : ''})` : '';
  notes.push(`This link used data loaded from a file${named}, which never leaves the browser it was loaded in: load it again with “Load your data…”, or use the synthetic data meanwhile.`);
  state.dataset = 'synthetic';
}
if (linked) {
  const arrival = /** @type {HTMLSelectElement} */ ($('arrival'));
  if ([...arrival.options].some((o) => o.value === linked.arrival)) arrival.value = linked.arrival;
  /** @type {HTMLInputElement} */ ($('group-by')).value = linked.groupBy;
}
banner(notes);
if (state.embed) {
  document.body.classList.add('embed');
  // A figure-only embed: the open view's first chart, its caption and this attribution (css/style.css).
  if (state.embed === 'figure') document.body.classList.add('embed-figure');
  // Embedded, the page still says what it is and links to itself, whole (no embed=1), and the paper.
  const full = new URL(location.href);
  full.searchParams.delete('embed');
  /** @type {HTMLAnchorElement} */ ($('embed-full')).href = full.href;
  $('embed-credit').hidden = false;
}

const listeners = {};
/** @typedef {import('../pkg/csc.js').UrlState} UrlState */
/** @type {import('./state.js').App} */
const app = {
  state, upload: null, nqFiles: null, linked,
  on(name, fn) { (listeners[name] ||= []).push(fn); },
  emit(name, data) { for (const fn of listeners[name] || []) fn(data); },
  /** Changes the state through `fn` if the engine accepts the result; else shows why. */
  set(fn, { restart = false } = {}) {
    const next = structuredClone(app.state);
    fn(next);
    // Another view (a tab, a result's "Open") is a new history entry: Back returns to this one.
    const err = saveState(next, hash(next), { push: next.view !== app.state.view });
    if (err) { banner([err]); show(); return false; }
    banner([]);
    Object.assign(app.state, next);
    show();
    if (restart) live.restart();
    app.emit('change');
    return true;
  },
};

/** The URL fragment naming the uploaded data in use, so a link made with it says which. */
const hash = (s) => [s.dataset === 'upload' ? uploadHash(app.upload, arrivalChoice(app)) : '', policyHash()].filter(Boolean).join('&');

const live = createLiveView(app);
createAskView(app, live);
// Your own policy: from the link, the code box or a file; the live view's panel follows it.
const ownPolicy = createOwnPolicy(app);
// Once a link's policy is read, the link carries it again and every view shows it.
ownPolicy.loaded.then(() => { live.restartOwn(); if (own.code) app.set(() => {}); });
ownPolicy.onChange(() => live.restartOwn());
const views = {
  live, regret: createRegretView(app), offline: createOfflineView(app),
  efficiency: createEfficiencyView(app), paper: createPaperView(app), sweep: createSweepView(app),
  frontier: createFrontierView(app), theory: createTheoryView(app), threats: createThreatsView(app),
};
let current = null;
const checksums = {};
/** The built-in dataset's checksum (cheap to build here: 50 prompts, or six blob centres). */
function checksum(name) {
  if (!checksums[name]) { const d = name === 'plane' ? Dataset.plane() : Dataset.synthetic(); checksums[name] = d.checksum; d.free(); }
  return checksums[name];
}

/** The footer's dataset checksum and configuration fingerprint (uploaded data and nq-trivia:
 *  the live run reports their checksum once it has read the files). */
function showFingerprint() {
  const s = app.state;
  if (s.dataset === 'synthetic' || s.dataset === 'plane') $('dataset-checksum').textContent = checksum(s.dataset);
  $('fingerprint').textContent = fingerprint(s.dataset === 'upload' || s.dataset === 'nq-trivia' ? `${s.dataset}:${$('dataset-checksum').textContent}` : s.dataset, s.params);
}

function show() {
  const s = app.state;
  controls.show(s);
  showFingerprint();
  for (const v of Object.values(views)) if (v.show) v.show();
  if (current !== s.view) {
    if (current) views[current].deactivate();
    current = s.view;
    for (const name of Object.keys(views)) $(`view-${name}`).hidden = name !== s.view;
    tabButtons().forEach((b) => {
      b.setAttribute('aria-selected', String(b.dataset.view === s.view));
      b.tabIndex = b.dataset.view === s.view ? 0 : -1;
    });
    views[s.view].activate();
  }
  // The footer's oracle loss is the live run's: shown only with the live view (each experiment's
  // own L(M_orc) is in its report).
  $('oracle-loss').hidden = s.view !== 'live';
  const tab = [...tabButtons()].find((b) => b.dataset.view === s.view);
  /** @type {HTMLTextAreaElement} */ ($('embed-snippet')).value = figureEmbedSnippet(s, `csc playground: ${tab?.textContent || s.view}`);
}

// Back and Forward (history entries pushed by the tabs and "Open"): the state of that entry, its
// view shown with the results it kept; a change of dataset, policy or seed restarts the live run.
addEventListener('popstate', () => {
  const { state: s } = loadState();
  if (s.dataset === 'upload' && !app.upload) s.dataset = 'synthetic';
  const restart = controls.restarts(app.state, s);
  Object.assign(app.state, s);
  banner([]);
  show();
  if (restart) live.restart();
  app.emit('change');
});

// The table's controls (dataset, parameters, seeds, offline figure, full settings, the live
// view's policies, speed and colouring) set the state.
controls.wire(app);
// The select's values are the engine's (`paperPresets()`, the tabs' `data-view`); the engine's
// URL codec checks the new state (app.set).
$('preset').addEventListener('change', () => app.set((s) => { s.preset = /** @type {UrlState['preset']} */ (/** @type {HTMLSelectElement} */ ($('preset')).value); }));
tabButtons().forEach((b) => b.addEventListener('click', () => app.set((s) => { s.view = /** @type {UrlState['view']} */ (b.dataset.view); })));
// The views are an ARIA tablist: arrow keys (and Home, End) move to the next view and open it.
$('tab-live').parentElement.addEventListener('keydown', (e) => {
  const tabs = [...tabButtons()];
  const i = tabs.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
  if (i < 0) return;
  const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
  if (next === undefined) return;
  e.preventDefault();
  const t = tabs[(next + tabs.length) % tabs.length];
  t.focus();
  t.click();
});
// A changed setting re-runs the experiment the open view shows (finished runs are kept per setting).
app.on('change', () => { if (current !== 'live') views[current].activate(); });
// The nq-trivia files arrived (bundle downloaded or loaded by the reader): the open view uses them.
// The bundle's download moves on: the open view's status line and bar follow it.
app.on('nq-progress', () => { if (current !== 'live') views[current].activate(); });
app.on('nq-loaded', (e) => { if (current !== 'live') views[current].activate(); else if (e?.loaded && app.state.dataset === 'nq-trivia') live.restart(); });
// A run that has read its data reports the checksum: only the footer changes. (Redrawing every
// control here would put back the old value of a field the reader is typing in.)
app.on('checksum', showFingerprint);
setupUpload(app);

// The engine's determinism checksum for the current seed, and whether it matches the native build.
let detSeed = null;
async function showDeterminism() {
  const seed = app.state.params.seed;
  if (seed === detSeed) return;
  detSeed = seed;
  let report, native;
  try {
    ({ report, native } = await determinism(seed));
  } catch (e) {
    if (detSeed !== seed) return;
    detSeed = null; // try again on the next change
    $('determinism').textContent = 'unavailable';
    $('determinism-note').textContent = `(${e.message})`;
    return;
  }
  if (detSeed !== seed) return;
  $('determinism').textContent = report.checksum;
  const same = native.portable.every((st) => report.stages.find((x) => x.stage === st)?.hash === native.stages.find((x) => x.stage === st)?.hash);
  $('determinism-note').textContent = seed === 0
    ? `(seed 0; stages ${native.portable.join(', ')} ${same ? 'bit-identical to' : 'DIFFER from'} the native build's ${native.checksum})`
    : `(seed ${seed}; compare with determinismReport(${seed}) elsewhere)`;
}
app.on('change', showDeterminism);

saveState(app.state, hash(app.state));
show();
// The engine that computes every figure: crate version and the commit it was built from.
$('engine-version').textContent = `csc ${version()}, commit ${commit()}`;
// The wasm module is initialised and every control is wired (tests/e2e/bench.mjs times this mark
// from navigation start; the live view's Play works once its status reads "Ready").
performance.mark('csc-ready');
document.body.dataset.ready = 'true';
setTimeout(showDeterminism, 1500);

// "Copy": the figure-only embed's <iframe> to the clipboard (else the text is selected to copy).
$('copy-embed').addEventListener('click', async () => {
  const area = /** @type {HTMLTextAreaElement} */ ($('embed-snippet'));
  try { await navigator.clipboard.writeText(area.value); $('copy-embed').textContent = 'Copied'; } catch { area.select(); $('copy-embed').textContent = 'Select the text above to copy it'; }
});
// "Copy BibTeX": the paper's entry to the clipboard (a plain message if the browser refuses).
$('copy-bibtex').addEventListener('click', async () => {
  const text = $('bibtex').textContent;
  try { await navigator.clipboard.writeText(text); $('copy-bibtex').textContent = 'Copied'; } catch { $('copy-bibtex').textContent = 'Select the text above to copy it'; }
});
