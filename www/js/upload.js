// @ts-check
// Your own data, by file picker or drag and drop: a JSONL of {"text", "tokens", "embedding"}, or
// a JSONL with a raw little-endian float32 embedding file, or the four files of the shared
// nq-trivia data; and, for the `replay` arrival model, an optional index file of arrivals. Files
// are read here in chunks (a progress bar counts the bytes); a worker (upload-worker.js) parses
// and checks them with the engine, the bar counting the rows whose distances are measured.
// Nothing is sent. A result file (a report JSON) dropped here is handed to the view shown.
import { looksLikeReport } from './reproduce.js';

import { Rpc } from './rpc.js';
import { enginePackage } from './engine.js';
/** @typedef {import('./state.js').App} App */

const MAX_BYTES = 256 * 1024 * 1024;

const NQ = { 'nq.jsonl': 'nq', 'nq.emb.f32': 'nqEmb', 'triviaqa.jsonl': 'tq', 'triviaqa.emb.f32': 'tqEmb' };
/** The gold answers of nq-trivia (SPEC §14), taken with its four files when given. */
const NQ_ANSWERS = { 'nq.answers.jsonl': 'nqAns', 'triviaqa.answers.jsonl': 'tqAns' };

function show(text, ok) {
  const el = document.getElementById('upload-msg');
  el.hidden = false;
  el.textContent = text;
  el.classList.toggle('error', !ok);
  el.scrollIntoView({ block: 'nearest' });
}

/** A determinate progress bar in the upload message: `label` and `done` of `total`. */
function progress(label, done, total) {
  const el = document.getElementById('upload-msg');
  el.hidden = false;
  el.classList.remove('error');
  let bar = el.querySelector('progress'), text = el.querySelector('.progress-label');
  if (!bar) {
    bar = document.createElement('progress');
    text = Object.assign(document.createElement('span'), { className: 'progress-label' });
    el.replaceChildren(text, ' ', bar);
  }
  text.textContent = label;
  bar.ariaLabel = label;
  bar.max = Math.max(1, total);
  bar.value = Math.min(done, total);
}
const mb = (b) => (b / 2 ** 20).toFixed(1);

/** The files' bytes, read in chunks with a progress bar of bytes read / total. */
async function readAll(files) {
  const total = files.reduce((s, f) => s + f.size, 0);
  let done = 0;
  const out = [];
  for (const f of files) {
    const buf = new Uint8Array(f.size);
    let at = 0, shown = 0;
    const reader = f.stream().getReader();
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      buf.set(value.subarray(0, Math.max(0, f.size - at)), at);
      at += value.length; done += value.length;
      if (done - shown > (1 << 20) || done === total) { shown = done; progress(`Reading ${f.name}: ${mb(done)} / ${mb(total)} MB`, done, total); }
    }
    out.push(buf.buffer);
  }
  return out;
}

/**
 * Parses and checks data in a worker (upload-worker.js, through rpc.js) while a progress bar
 * counts the rows whose distances are measured (the O(n²·d) part). Resolves with the worker's
 * reply; a worker that fails or falls silent rejects with one plain message.
 */
async function check(u, file) {
  progress(`Checking ${file}…`, 0, 1);
  const w = new Rpc(new URL('./upload-worker.js', import.meta.url), { name: 'the checking worker', wasm: enginePackage });
  const onProgress = ([done, total]) => progress(`Checking ${file}: distances measured for ${done.toLocaleString('en')} / ${total.toLocaleString('en')} rows`, done, total);
  try { return await w.request('check', u, { onProgress }); } finally { w.terminate(); }
}

const isJsonl = (f) => /\.(jsonl|json|ndjson|txt)$/i.test(f.name);

/** @param {App} app */
async function load(files, app) {
  if (!files.length) return;
  const big = files.find((f) => f.size > MAX_BYTES);
  if (big) throw new Error(`${big.name} is ${(big.size / 2 ** 20).toFixed(0)} MB; the page reads files up to ${MAX_BYTES / 2 ** 20} MB.`);
  const names = files.map((f) => f.name);
  if (Object.keys(NQ).every((n) => names.includes(n))) {
    const part = (f) => NQ[f.name] || NQ_ANSWERS[f.name];
    const mine = files.filter(part);
    const bufs = await readAll(mine);
    const parts = Object.fromEntries(mine.map((f, i) => [part(f), bufs[i]]));
    // checked off the main thread; the worker gets copies, the page keeps these for the paper view
    const d = await check({ kind: 'nq', ...Object.fromEntries(Object.entries(parts).map(([k, b]) => [k, b.slice(0)])) }, 'nq-trivia');
    app.nqFiles = { ...parts, id: `${files.map((f) => f.size).join('-')}` };
    if (app.state.dataset === 'nq-trivia') app.emit('nq-loaded', { loaded: true });
    else app.set((st) => { st.dataset = 'nq-trivia'; }, { restart: true });
    const truth = d.noGroundTruth ? ` No gold answers (${d.noGroundTruth}): add nq.answers.jsonl and triviaqa.answers.jsonl for the error rate.` : ' With its gold answers (the error rate: our convention, docs/SPEC-NOTES.html#ground-truth-spec-14).';
    return `Loaded nq-trivia (${d.size} questions): every view and the Paper view's figs. e, f run on it. It stays in this browser.${truth}`;
  }
  const jsonl = files.filter(isJsonl), bin = files.filter((f) => !isJsonl(f));
  if (jsonl.length !== 1 || bin.length > 1) {
    throw new Error(`Give one JSONL file (and at most one float32 embedding file); got ${names.join(', ')}.`);
  }
  const [bytes, emb = null] = await readAll([jsonl[0], ...bin]);
  let dim = null;
  if (emb) {
    const rows = new TextDecoder().decode(bytes).split('\n').filter((l) => l.trim()).length;
    dim = rows ? emb.byteLength / 4 / rows : 0;
    if (!Number.isInteger(dim) || dim < 1) {
      throw new Error(`${bin[0].name} holds ${emb.byteLength} bytes, which is not ${rows} rows × d float32 values (one row per line of ${jsonl[0].name}).`);
    }
  }
  const name = jsonl[0].name.replace(/\.[^.]*$/, '') || 'upload';
  const d = await check({ kind: 'upload', name, jsonl: bytes.slice(0), emb: emb && emb.slice(0), dim }, jsonl[0].name);
  const info = `${d.size} queries, ${d.dim}-d`;
  const checksum = d.checksum;
  app.upload = { name, file: jsonl[0].name, embFile: bin.length ? bin[0].name : null, checksum, jsonl: bytes, emb, dim, index: null, noGroundTruth: d.noGroundTruth };
  showIndex(app);
  const opt = /** @type {HTMLOptionElement} */ (document.querySelector('#dataset option[value=upload]'));
  opt.disabled = false;
  opt.textContent = `${name} (your data, ${info})`;
  // The reader stays on the view they loaded it from (which re-runs on it: main.js 'change');
  // the live run restarts on it too.
  app.set((s) => { s.dataset = 'upload'; }, { restart: true });
  const l = app.linked;
  const differs = l && l.checksum && l.checksum !== checksum ? ` The link was made with ${l.file}, checksum ${l.checksum}; this file's checksum is ${checksum}.` : '';
  // What loading changed (e.g. rows normalised to unit length), said before "every view runs on it".
  const changed = d.notes.length ? ` Note: ${d.notes.join('; ')}.` : '';
  return `${differs ? `${differs.trim()} ` : ''}Loaded ${jsonl[0].name}${bin.length ? ` with ${bin[0].name}` : ''}: ${info}.${changed} Every view runs on it with the arrival model chosen below; it stays in this browser.`;
}

/** An index file of arrivals for `replay`, checked against the uploaded data in the worker.
 * @param {App} app */
async function loadIndex(file, app) {
  const u = app.upload;
  if (!u) throw new Error('load your JSONL first: the index file names its records.');
  const [bytes] = await readAll([file]);
  const d = await check({ kind: 'upload', name: u.name, jsonl: u.jsonl.slice(0), emb: u.emb && u.emb.slice(0), dim: u.dim, index: bytes.slice(0), indexName: file.name }, file.name);
  u.index = { name: file.name, bytes, arrivals: d.arrivals };
  showIndex(app);
  /** @type {HTMLSelectElement} */ (document.getElementById('arrival')).value = 'replay';
  app.set(() => {}, { restart: true });
  return `Loaded ${file.name}: ${d.arrivals} arrivals of ${u.file} in replay order (T = ${d.arrivals}).`;
}

/** @param {App} app */
function showIndex(app) {
  const idx = app.upload && app.upload.index;
  document.getElementById('replay-index-name').textContent = idx ? `${idx.name} (${idx.arrivals} arrivals)` : 'none: the file order';
  document.getElementById('replay-index-clear').hidden = !idx;
}

/** The arrival model chosen for uploaded data (SPEC §7, §8; docs/USAGE.md, "Your own data"): the
 *  engine's `ArrivalSpec` (its `model` an id of `arrivalModels()`, which the select offers). The
 *  "Group by" field is bursty's groups, or the tenants of `tenants` (`tenant_by`; without it, the
 *  engine's N tenants of overlap ω).
 * @param {App} app
 * @returns {{ model: string, group_by?: string, tenant_by?: string, index?: string }} */
export function arrivalChoice(app) {
  const model = /** @type {HTMLSelectElement} */ (document.getElementById('arrival')).value;
  const group = /** @type {HTMLInputElement} */ (document.getElementById('group-by')).value.trim();
  if (model === 'bursty' && group) return { model, group_by: group };
  if (model === 'tenants' && group) return { model, tenant_by: group };
  const idx = app && app.upload && app.upload.index;
  if (model === 'replay' && idx) return { model, index: idx.name };
  return { model };
}

/** What a view says when it would run on uploaded data before any is loaded. */
export const LOAD_FIRST = 'Load your data first (“Load your data…” in the settings).';

/**
 * The uploaded data for an experiment request or the live view, or null: `dataset` is what the
 * workers build the engine's dataset from (the bytes, with the group field of `bursty` and the
 * index file of `replay` when chosen), `upload` the experiment's dataset object, which names the
 * user's files and their checksum (so every export does) and carries the arrival model.
 * @param {App} app
 */
export function uploadedData(app) {
  const u = app.upload;
  if (app.state.dataset !== 'upload' || !u) return null;
  const arrival = arrivalChoice(app);
  const spec = { jsonl: u.file, checksum: u.checksum, arrival };
  if (u.embFile) Object.assign(spec, { embeddings: u.embFile, dim: u.dim });
  const dataset = { kind: 'upload', name: u.name, jsonl: u.jsonl, emb: u.emb, dim: u.dim };
  if (arrival.group_by || arrival.tenant_by) dataset.groupBy = arrival.group_by || arrival.tenant_by;
  if (arrival.index) Object.assign(dataset, { index: u.index.bytes, indexName: u.index.name });
  return { dataset, upload: spec };
}

/** @param {App} app */
export function setupUpload(app) {
  const arrivalSel = /** @type {HTMLSelectElement} */ (document.getElementById('arrival'));
  const sync = () => { document.getElementById('replay-row').hidden = arrivalSel.value !== 'replay'; };
  sync();
  // A changed arrival model restarts the live view's stream and re-runs the open experiment.
  for (const id of ['arrival', 'group-by']) document.getElementById(id).addEventListener('change', () => { sync(); app.set(() => {}, { restart: app.state.dataset === 'upload' }); });
  const handle = async (files) => {
    // One JSON file that is a result (csc run's report, the page's export) opens in the view shown.
    if (files.length === 1 && /\.json$/i.test(files[0].name)) {
      const text = await files[0].text();
      if (looksLikeReport(text)) {
        const open = new CustomEvent('csc-open-report', { detail: { name: files[0].name, text }, cancelable: true });
        if (document.dispatchEvent(open)) show('To open a result, drop it on an experiment view (Online regret, Offline gap, Sweep, …).', false);
        return;
      }
    }
    try { show(await load([...files], app), true); } catch (e) { show(`Could not load your data: ${e.message}`, false); }
  };
  const input = /** @type {HTMLInputElement} */ (document.getElementById('file'));
  input.addEventListener('change', () => { handle(input.files); input.value = ''; });
  const idx = /** @type {HTMLInputElement} */ (document.getElementById('replay-file'));
  idx.addEventListener('change', async () => {
    const f = idx.files[0];
    idx.value = '';
    if (!f) return;
    try { show(await loadIndex(f, app), true); sync(); } catch (e) { show(`Could not load the index file: ${e.message}`, false); }
  });
  document.getElementById('replay-index-clear').addEventListener('click', () => {
    if (app.upload) app.upload.index = null;
    showIndex(app);
    app.set(() => {}, { restart: app.state.dataset === 'upload' });
  });
  document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dragging'); });
  document.addEventListener('dragleave', (e) => { if (!e.relatedTarget) document.body.classList.remove('dragging'); });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    if (e.dataTransfer?.files?.length) handle(e.dataTransfer.files);
  });
}
