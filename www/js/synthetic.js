// @ts-check
// The built-in `synthetic` universe's embeddings (SPEC §7): data, not code, so the engine's
// wasm32 build leaves them out and the page fetches them once, beside the .wasm
// (pkg/synthetic.emb.f32, copied from data/synthetic/prompts.emb.f32 by scripts/lib.sh). Every
// instance of the engine is given them (`provideSynthetic`, which checks them by SHA-256): the
// main thread's (engine.js) and each worker's (rpc.js `startPageEngine`, posted with the module).

/** Where the page's package keeps them. */
export const syntheticUrl = new URL('../pkg/synthetic.emb.f32', import.meta.url);

/** The file's bytes. Rejects, naming the file, when it cannot be fetched: the package is
 *  incomplete, and the page says so as for a missing .wasm (boot.js's banner).
 * @param {URL} [url] another package's copy (the benchmark's pkg-bench)
 * @returns {Promise<ArrayBuffer>} */
export async function fetchSynthetic(url = syntheticUrl) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url.pathname} could not be fetched (${r.status} ${r.statusText})`);
  return r.arrayBuffer();
}
