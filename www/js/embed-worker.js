// @ts-check
// Embeds typed questions off the main thread (views/ask.js). On the first request it
// loads the embedding package (www/pkg-embed, scripts/wasm-embed.sh) and all-MiniLM-L6-v2
// (www/model, scripts/fetch-model.sh) — the model through the browser's Cache Storage, so a
// later visit does not download it again — reporting the load as notes (rpc.js: news of no one
// request, since `preload` and `embed` share it). Then each `embed` request is answered with the
// L2-normalised vector (mean pooling over the attention mask, the shared data's embedding), the
// GPT-2 token count (its cost, SPEC §2) and the time taken. Every failure is the request's failed
// reply. Nothing is sent anywhere.
import init, { Embedder, gpt2Tokens } from '../pkg-embed/csc_embed.js';
import { serve, note, reply } from './rpc.js';
import { MODEL_FILES, MODEL_MANIFEST } from './embed-files.js';

/** Bump when the model files change: an old copy in Cache Storage is then not used. */
const MODEL_CACHE = 'csc-model-all-MiniLM-L6-v2-f16-v1';
const modelUrl = (f) => new URL(`../model/${f}`, import.meta.url).href;

/** The size in bytes of each model file as served (MODEL_MANIFEST); empty when it cannot be read
 *  (a bundle built before it existed, or offline with the model cached). */
async function servedSizes() {
  try {
    const res = await fetch(modelUrl(MODEL_MANIFEST), { cache: 'no-store' });
    if (res.ok) return (await res.json()).bytes || {};
  } catch { /* unreadable: the responses' own lengths, where they state them */ }
  return {};
}

/** The bytes of `url`, from Cache Storage when kept there, else fetched (and kept once whole),
 *  with `onBytes(n, total)` as they come: `total` is `size` (the manifest's), else the response's
 *  Content-Length where it counts the bytes read (no Content-Encoding), else 0 (unknown). */
async function cachedBytes(url, size, onBytes) {
  let cache = null;
  try { cache = await caches.open(MODEL_CACHE); } catch { /* no Cache Storage here (opaque origin, private mode) */ }
  const kept = cache ? await cache.match(url) : undefined;
  const res = kept || await fetch(url);
  if (!res.ok) throw new Error(`the model file ${url.split('/').pop()} could not be fetched (HTTP ${res.status}): this copy of the page was built without it (scripts/fetch-model.sh)`);
  const length = Number(res.headers.get('content-length')) || 0;
  onBytes(0, size > 0 ? size : res.headers.get('content-encoding') ? 0 : length);
  // Read once, counted as it arrives (the download itself, not a copy kept after it).
  const reader = res.body.getReader();
  const parts = [];
  let got = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    got += value.length;
    onBytes(value.length, -1);
  }
  const out = new Uint8Array(got);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  if (cache && !kept) {
    const headers = { 'content-type': res.headers.get('content-type') || 'application/octet-stream', 'content-length': String(got) };
    try { await cache.put(url, new Response(out, { headers })); } catch { /* over quota: just do not keep it */ }
  }
  return { bytes: out, fromCache: Boolean(kept) };
}

let model = null; // a promise of { embedder, loadMs, fromCache, bytes }
function load() {
  model ??= (async () => {
    const t0 = performance.now();
    await init();
    const sizes = await servedSizes();
    // The progress: every file's bytes so far against the sum of their sizes, once each is known.
    let seen = 0;
    const totals = Object.fromEntries(Object.entries(MODEL_FILES).map(([k, f]) => [k, Number(sizes[f]) || 0]));
    const progress = (name) => (n, total) => {
      seen += n;
      if (total >= 0) totals[name] = total;
      const all = Object.values(totals);
      note({ type: 'progress', loaded: seen, total: all.every((t) => t > 0) ? all.reduce((a, b) => a + b, 0) : 0 });
    };
    const files = await Promise.all(Object.entries(MODEL_FILES).map(([k, f]) => cachedBytes(modelUrl(f), totals[k], progress(k))));
    const [w, t, c] = files;
    note({ type: 'progress', loaded: seen, total: seen, preparing: true });
    const embedder = Embedder.load(w.bytes, t.bytes, new TextDecoder().decode(c.bytes));
    embedder.embed(['warm-up']); // the first call allocates and compiles the hot paths
    const loaded = { loadMs: performance.now() - t0, fromCache: files.every((f) => f.fromCache), bytes: seen };
    note({ type: 'loaded', ...loaded });
    return { embedder, ...loaded };
  })();
  model.catch(() => { model = null; }); // a failed load may be tried again
  return model;
}

/** Whether every model file is in Cache Storage (a visit after the first). */
async function cached() {
  try {
    const cache = await caches.open(MODEL_CACHE);
    const hits = await Promise.all(Object.values(MODEL_FILES).map((f) => cache.match(modelUrl(f))));
    return hits.every(Boolean);
  } catch { return false; }
}

serve({
  /** Loads the model ahead of the first question, if it needs no download. */
  async preload() {
    if (model === null && (await cached())) load().catch(() => {});
  },
  async embed({ text }) {
    const { embedder, fromCache } = await load();
    const t0 = performance.now();
    const x = embedder.embed([text]);
    const tokens = gpt2Tokens(text);
    const embedMs = performance.now() - t0;
    return reply({ x, tokens, embedMs, fromCache }, [x.buffer]);
  },
});
