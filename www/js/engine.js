// @ts-check
// The page's engine (pkg/csc_bg.wasm), compiled once, here on the main thread, and shared. The
// main thread instantiates it (main.js: the URL state, checksums, the catalogs the controls are
// built from), and every worker that runs the engine (worker.js, exp-worker.js, upload-worker.js)
// is posted the compiled `WebAssembly.Module` by its Rpc (rpc.js, option `wasm`) and
// instantiates that, instead of fetching and compiling the .wasm again. The synthetic universe's
// embeddings (synthetic.js), fetched once beside it, go with it: every instance is given them.
import init, { provideSynthetic } from '../pkg/csc.js';
import { fetchSynthetic } from './synthetic.js';

const url = new URL('../pkg/csc_bg.wasm', import.meta.url);

async function compile() {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url.pathname} could not be fetched (${res.status} ${res.statusText})`);
  // Streaming compilation needs the .wasm served as application/wasm; other servers get the bytes.
  if ((res.headers.get('Content-Type') || '').startsWith('application/wasm')) return WebAssembly.compileStreaming(res);
  return WebAssembly.compile(await res.arrayBuffer());
}

/** The compiled engine. */
export const engineModule = compile();

/** The synthetic universe's embeddings. */
const syntheticBytes = fetchSynthetic();

/** What a worker is posted (an Rpc's `wasm`): the compiled engine and the embeddings.
 * @type {Promise<{ module: WebAssembly.Module, synthetic: ArrayBuffer }>} */
export const enginePackage = Promise.all([engineModule, syntheticBytes]).then(([module, synthetic]) => ({ module, synthetic }));

/** The main thread's instance of it (resolves when the engine is ready on the main thread). */
export const engineReady = enginePackage.then(async ({ module, synthetic }) => {
  const wasm = await init({ module_or_path: module });
  provideSynthetic(new Uint8Array(synthetic));
  return wasm;
});
