// @ts-check
// The nq-trivia universe of SPEC §7: the four files of the shared data, from the copy bundled with
// the page (scripts/dist.sh writes data/ with a manifest) or loaded by the reader with “Load your
// data…” (upload.js sets `app.nqFiles`). Every view that runs nq-trivia gets its bytes here.
/** @typedef {import('./state.js').App} App */

const BUNDLE = new URL('../data/', import.meta.url);
const BUNDLE_FILES = { nq: 'nq.jsonl', nqEmb: 'nq.emb.f32', tq: 'triviaqa.jsonl', tqEmb: 'triviaqa.emb.f32' };
let bundled; // a promise of the bundle's files (null: no bundle; { error } when unreadable)
// How much of the bundle has arrived: bytes so far and in all (the manifest's sizes, else the
// responses' Content-Length; 0 while unknown). `listeners` hear of it as it grows.
// `found`: whether the manifest has answered (until then the page does not know it has a bundle).
const download = { loaded: 0, total: 0, found: false };
const listeners = new Set();
let told = 0;
function tell(force = false) {
  const now = performance.now();
  if (!force && now - told < 100) return; // at most ten redraws a second
  told = now;
  for (const f of listeners) f();
}

/** A response's body, read chunk by chunk so that `download.loaded` follows it. */
async function readCounted(r) {
  if (!r.body) { const b = await r.arrayBuffer(); download.loaded += b.byteLength; tell(); return b; }
  const reader = r.body.getReader(), chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    n += value.byteLength;
    download.loaded += value.byteLength;
    tell();
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.byteLength; }
  return out.buffer;
}

/** The bundled files, fetched once: `{ id, nq, nqEmb, tq, tqEmb }` and, when the bundle has the
 *  gold answers, `nqAns`, `tqAns` (ArrayBuffers); null when the page has no bundle (no
 *  data/manifest.json), or `{ error }`. */
function loadBundled() {
  bundled ??= (async () => {
    const manifest = await fetch(new URL('manifest.json', BUNDLE)).catch(() => null);
    if (!manifest || !manifest.ok) return null;
    download.found = true;
    tell(true);
    const parts = { id: 'bundled' };
    // The gold answers (SPEC §14) when the bundle has them: nqAns, tqAns.
    const { answers = [], bytes = {} } = await manifest.json();
    const files = { ...BUNDLE_FILES, ...(answers.length === 2 ? { nqAns: answers[0], tqAns: answers[1] } : {}) };
    const sized = Object.values(files).every((name) => Number.isFinite(bytes[name]));
    if (sized) download.total = Object.values(files).reduce((t, name) => t + bytes[name], 0);
    await Promise.all(Object.entries(files).map(async ([k, name]) => {
      const r = await fetch(new URL(name, BUNDLE));
      if (!r.ok) throw new Error(`${name}: HTTP ${r.status}`);
      if (!sized) download.total += Number(r.headers.get('Content-Length')) || 0;
      parts[k] = await readCounted(r);
    }));
    tell(true);
    return parts;
  })().catch((e) => ({ error: e.message }));
  return bundled;
}

let result; // undefined until the bundle's download has ended; then its files, null or { error }
const missing = (b) => `${b?.error ? `The bundled nq-trivia data could not be loaded (${b.error}); ` : 'nq-trivia is not bundled with this copy of the page: '}load the four files of the shared data (nq.jsonl, nq.emb.f32, triviaqa.jsonl, triviaqa.emb.f32) with “Load your data…”.`;

/** The files to run nq-trivia on: the reader's own copy if loaded, else the bundle. Rejects with a
 *  message saying how to get them when neither is there.
 * @param {App} app */
export async function nqTriviaFiles(app) {
  if (app.nqFiles) return app.nqFiles;
  result = await loadBundled();
  if (result && !result.error) return result;
  throw new Error(missing(result));
}

const mb = (n) => (n / 1e6).toFixed(1);

/** For a view that builds its request at once: `{ files }` when they are here, else `{ message }`
 *  — while the bundle downloads, or saying how to get the files. While it downloads, the message
 *  carries `progress` (the fraction downloaded; null while the size is unknown), the app hears
 *  'nq-progress' as bytes arrive and 'nq-loaded' once the download has ended.
 * @param {App} app */
export function nqTriviaNow(app) {
  if (app.nqFiles) return { files: app.nqFiles };
  if (result === undefined) {
    if (!listeners.size) {
      listeners.add(() => app.emit('nq-progress'));
      loadBundled().then((r) => { result = r; listeners.clear(); app.emit('nq-loaded'); });
    }
    const { loaded, total, found } = download;
    // Until the manifest answers, the page does not know whether it has a bundle: it says it is
    // looking, not that it is loading.
    if (!found) return { message: 'Looking for the bundled nq-trivia data…', progress: null };
    return {
      message: `Loading the bundled nq-trivia data… ${total ? `${mb(loaded)} of ${mb(total)} MB` : `${mb(loaded)} MB`}`,
      progress: total ? Math.min(1, loaded / total) : null,
    };
  }
  return result && !result.error ? { files: result } : { message: missing(result) };
}

/** Dataset.nqTrivia's options for files that carry the gold answers (SPEC §14), else undefined. */
export function answersOption(f) {
  const text = (b) => new TextDecoder().decode(b);
  return f && f.nqAns && f.tqAns ? { nqAnswers: text(f.nqAns), tqAnswers: text(f.tqAns) } : undefined;
}
