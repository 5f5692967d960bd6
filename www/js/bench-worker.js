// @ts-check
// The browser benchmark's worker (www/bench.html, tests/e2e/bench.mjs): runs the workloads of
// examples/online_profile.rs and benches/engine.rs in WebAssembly and times each part with
// performance.now(), sending one progress message per measurement of its one request, `run`
// (rpc.js). Benchmark-only: the playground never loads it. The classes BenchOnline,
// BenchReverseGreedy and BenchKrr are src/bindings/bench.rs, in the benchmark's own package
// www/pkg-bench (cargo feature `bench`, built by scripts/bench.sh); the page's www/pkg lacks them.
import init, { Dataset, BenchOnline, BenchReverseGreedy, BenchKrr, policies as catalog, provideSynthetic } from '../pkg-bench/csc.js';
import { fetchSynthetic } from './synthetic.js';
import { serve } from './rpc.js';

let memory = null;
const mem = () => (memory ? memory.buffer.byteLength : null);
/** The running request's progress (serve's `progress`). @type {(data: unknown) => void} */
let progress = () => {};
const post = (m) => progress({ ...m, mem: mem() });

/** Times `fn()` (milliseconds, and what it returned). */
function timed(fn) {
  const t0 = performance.now();
  const value = fn();
  return { ms: performance.now() - t0, value };
}

async function bytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** The dataset `name`; nq-trivia is fetched from `dataUrl` (the benchmark server's data route). */
async function dataset(name, dataUrl) {
  if (name === 'synthetic') return Dataset.synthetic();
  if (name === 'plane') return Dataset.plane();
  if (name === 'nq-trivia') {
    const t0 = performance.now();
    const [nq, nqEmb, tq, tqEmb] = await Promise.all(['nq.jsonl', 'nq.emb.f32', 'triviaqa.jsonl', 'triviaqa.emb.f32']
      .map((f) => bytes(`${dataUrl}${f}`)));
    const fetchMs = performance.now() - t0;
    const text = new TextDecoder();
    const d = Dataset.nqTrivia(text.decode(nq), nqEmb, text.decode(tq), tqEmb);
    post({ type: 'fetch', dataset: name, ms: fetchMs, bytes: nq.length + nqEmb.length + tq.length + tqEmb.length });
    return d;
  }
  throw new Error(`unknown dataset ${name}`);
}

/** The policies an online task runs when it names none: the engine's `compared` ones (the six of
 *  the paper's online figures, as examples/online_profile.rs runs). */
const comparedPolicies = () => catalog().filter((p) => p.compared).map((p) => p.id);

async function online({ datasets, policies = comparedPolicies(), params, dataUrl }) {
  for (const name of datasets) {
    const t0 = performance.now();
    const ds = await dataset(name, dataUrl);
    post({ type: 'load', dataset: name, ms: performance.now() - t0, size: ds.size, dim: ds.dim });
    let env = null;
    try {
      const setup = timed(() => new BenchOnline(ds, params));
      env = setup.value;
      post({ type: 'setup', dataset: name, ms: setup.ms, horizon: env.horizon, oracleLoss: env.oracleLoss });
      // The ε-net shared by the policies that keep one (online_profile's "shared ε-net" line).
      if (env.growNet) {
        const net = timed(() => env.growNet());
        post({ type: 'net', dataset: name, ms: net.ms, centers: net.value });
      }
      for (const id of policies) {
        const r = timed(() => env.run(id));
        post({ type: 'policy', dataset: name, id, ms: r.ms, ...r.value });
      }
    } finally {
      if (env) env.free();
      ds.free();
    }
  }
}

function reverseGreedy({ m, k, reps }) {
  const build = timed(() => new BenchReverseGreedy(m));
  const rg = build.value;
  try {
    post({ type: 'rg-build', m, ms: build.ms });
    for (let i = 0; i < reps; i++) {
      const r = timed(() => rg.run(k));
      post({ type: 'rg', m, k, rep: i, ms: r.ms, ...r.value });
    }
  } finally {
    rg.free();
  }
}

function krr({ l, tracked, reps }) {
  const build = timed(() => new BenchKrr(l, tracked));
  const b = build.value;
  try {
    post({ type: 'krr-build', l, tracked, ms: build.ms });
    for (let i = 0; i < reps; i++) {
      b.prepare();
      const r = timed(() => b.addOne());
      post({ type: 'krr', l, tracked, rep: i, ms: r.ms, nObs: r.value });
    }
  } finally {
    b.free();
  }
}

serve({
  async run(tasks, onProgress) {
    progress = onProgress;
    const t0 = performance.now();
    const [wasm, synthetic] = await Promise.all([init(), fetchSynthetic(new URL('../pkg-bench/synthetic.emb.f32', import.meta.url))]);
    provideSynthetic(new Uint8Array(synthetic));
    memory = wasm.memory;
    post({ type: 'init', ms: performance.now() - t0 });
    for (const task of tasks) {
      if (task.kind === 'online') await online(task);
      else if (task.kind === 'reverse-greedy') reverseGreedy(task);
      else if (task.kind === 'krr') krr(task);
      else throw new Error(`unknown task ${task.kind}`);
    }
    return { type: 'done', mem: mem() };
  },
});
