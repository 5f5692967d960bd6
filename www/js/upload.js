// Your own data, by file picker or drag and drop: a JSONL of {"text", "tokens", "embedding"}, or
// a JSONL with a raw little-endian float32 embedding file, or the four files of the shared
// nq-trivia data. Files are read here; a worker (upload-worker.js) parses and checks a JSONL with
// the engine, a progress bar showing meanwhile. Nothing is sent.
import { Dataset } from '../pkg/csc.js';

const MAX_BYTES = 256 * 1024 * 1024;
const NQ = { 'nq.jsonl': 'nq', 'nq.emb.f32': 'nqEmb', 'triviaqa.jsonl': 'tq', 'triviaqa.emb.f32': 'tqEmb' };

function show(text, ok) {
  const el = document.getElementById('upload-msg');
  el.hidden = false;
  el.textContent = text;
  el.classList.toggle('error', !ok);
  el.scrollIntoView({ block: 'nearest' });
}

/** Parses and checks the data in a worker (upload-worker.js), with a progress bar meanwhile. */
function check(u, file) {
  const el = document.getElementById('upload-msg');
  el.hidden = false;
  el.classList.remove('error');
  el.replaceChildren(`Checking ${file}… `, Object.assign(document.createElement('progress'), { ariaLabel: `Checking ${file}` }));
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('./upload-worker.js', import.meta.url), { type: 'module' });
    w.onmessage = ({ data }) => { w.terminate(); if (data.ok) resolve(data); else reject(new Error(data.message)); };
    w.onerror = (ev) => { ev.preventDefault(); w.terminate(); reject(new Error(`the checking worker failed: ${ev.message || 'it could not be started'}`)); };
    w.postMessage(u);
  });
}

const isJsonl = (f) => /\.(jsonl|json|ndjson|txt)$/i.test(f.name);

async function load(files, app) {
  if (!files.length) return;
  const big = files.find((f) => f.size > MAX_BYTES);
  if (big) throw new Error(`${big.name} is ${(big.size / 2 ** 20).toFixed(0)} MB; the page reads files up to ${MAX_BYTES / 2 ** 20} MB.`);
  const names = files.map((f) => f.name);
  if (Object.keys(NQ).every((n) => names.includes(n))) {
    const parts = {};
    for (const f of files) if (NQ[f.name]) parts[NQ[f.name]] = await f.arrayBuffer();
    const text = (b) => new TextDecoder().decode(b);
    const d = Dataset.nqTrivia(text(parts.nq), new Uint8Array(parts.nqEmb), text(parts.tq), new Uint8Array(parts.tqEmb));
    const size = d.size;
    d.free();
    app.nqFiles = { ...parts, id: `${files.map((f) => f.size).join('-')}` };
    if (app.state.dataset === 'nq-trivia') app.emit('nq-loaded', { loaded: true });
    else app.set((st) => { st.dataset = 'nq-trivia'; }, { restart: true });
    return `Loaded nq-trivia (${size} questions): every view and the Paper view's figs. e, f run on it. It stays in this browser.`;
  }
  const jsonl = files.filter(isJsonl), bin = files.filter((f) => !isJsonl(f));
  if (jsonl.length !== 1 || bin.length > 1) {
    throw new Error(`Give one JSONL file (and at most one float32 embedding file); got ${names.join(', ')}.`);
  }
  const bytes = await jsonl[0].arrayBuffer();
  let emb = null, dim = null;
  if (bin.length) {
    emb = await bin[0].arrayBuffer();
    const rows = new TextDecoder().decode(bytes).split('\n').filter((l) => l.trim()).length;
    dim = rows ? emb.byteLength / 4 / rows : 0;
    if (!Number.isInteger(dim) || dim < 1) {
      throw new Error(`${bin[0].name} holds ${emb.byteLength} bytes, which is not ${rows} rows × d float32 values (one row per line of ${jsonl[0].name}).`);
    }
  }
  const name = jsonl[0].name.replace(/\.[^.]*$/, '') || 'upload';
  const d = await check({ name, jsonl: bytes, emb, dim }, jsonl[0].name);
  const info = `${d.size} queries, ${d.dim}-d`;
  const checksum = d.checksum;
  app.upload = { name, file: jsonl[0].name, embFile: bin.length ? bin[0].name : null, checksum, jsonl: bytes, emb, dim };
  const opt = document.querySelector('#dataset option[value=upload]');
  opt.disabled = false;
  opt.textContent = `${name} (your data, ${info})`;
  app.set((s) => { s.dataset = 'upload'; s.view = 'live'; }, { restart: true });
  const l = app.linked;
  const differs = l && l.checksum && l.checksum !== checksum ? ` The link was made with ${l.file}, checksum ${l.checksum}; this file's checksum is ${checksum}.` : '';
  return `${differs ? `${differs.trim()} ` : ''}Loaded ${jsonl[0].name}${bin.length ? ` with ${bin[0].name}` : ''}: ${info}. Every view runs on it (the experiment views with the arrival model chosen here); it stays in this browser.`;
}

/** The arrival model chosen for uploaded data (SPEC §7, §8; README "Your own data"). */
export function arrivalChoice() {
  const model = document.getElementById('arrival').value;
  const group = document.getElementById('group-by').value.trim();
  return model === 'bursty' && group ? { model, group_by: group } : { model };
}

/**
 * The uploaded data for an experiment request, or null: `dataset` is what exp-worker.js builds
 * the engine's dataset from (the bytes), `upload` the experiment's dataset object, which names
 * the user's files and their checksum (so every export does) and carries the arrival model.
 */
export function uploadedData(app) {
  const u = app.upload;
  if (app.state.dataset !== 'upload' || !u) return null;
  const spec = { jsonl: u.file, checksum: u.checksum, arrival: arrivalChoice() };
  if (u.embFile) Object.assign(spec, { embeddings: u.embFile, dim: u.dim });
  return { dataset: { kind: 'upload', name: u.name, jsonl: u.jsonl, emb: u.emb, dim: u.dim }, upload: spec };
}

export function setupUpload(app) {
  for (const id of ['arrival', 'group-by']) document.getElementById(id).addEventListener('change', () => app.set(() => {}));
  const handle = async (files) => {
    try { show(await load([...files], app), true); } catch (e) { show(`Could not load your data: ${e.message}`, false); }
  };
  const input = document.getElementById('file');
  input.addEventListener('change', () => { handle(input.files); input.value = ''; });
  document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dragging'); });
  document.addEventListener('dragleave', (e) => { if (!e.relatedTarget) document.body.classList.remove('dragging'); });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    if (e.dataTransfer?.files?.length) handle(e.dataTransfer.files);
  });
}
