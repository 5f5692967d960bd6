// Benchmark (not a test: it asserts nothing about time): the cost of calling into JavaScript each
// round, as rounds per second of your own policy (OwnPolicyRun with the shipped LRU-threshold
// example, www/policies/lru-threshold.js) against the built-in threshold cache it equals
// (OnlineRun with `threshold` alone), on the same streams, in the shipped www/pkg under Node's V8
// (Chromium's engine). Each figure is the best of `reps` runs of T rounds after one warm-up.
//   node scripts/bench_own_policy.mjs [T=20000] [reps=5]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = resolve(import.meta.dirname, '../www/pkg');
const csc = await import(pathToFileURL(`${dir}/csc.js`).href);
csc.initSync({ module: readFileSync(`${dir}/csc_bg.wasm`) });
csc.provideSynthetic(new Uint8Array(readFileSync(`${dir}/synthetic.emb.f32`)));
const LruThreshold = (await import(pathToFileURL(resolve(import.meta.dirname, '../www/policies/lru-threshold.js')).href)).default;

const T = Number(process.argv[2] || 20000), reps = Number(process.argv[3] || 5);
for (const [name, make, params] of [
  ['plane', () => csc.Dataset.plane(), { horizon: T, n_eval: 200, k: 10, threshold_tau: 0.05 }],
  ['synthetic (384-d)', () => csc.Dataset.synthetic(), { horizon: T, n_eval: 200, k: 10 }],
]) {
  const d = make();
  const time = (play) => {
    let best = Infinity;
    for (let r = 0; r <= reps; r++) {
      const ms = play();
      if (r > 0) best = Math.min(best, ms); // the first is the warm-up
    }
    return T / (best / 1000);
  };
  const builtIn = time(() => {
    const run = new csc.OnlineRun(d, params, ['threshold']);
    const t0 = performance.now();
    run.step(T);
    const ms = performance.now() - t0;
    run.free();
    return ms;
  });
  const own = time(() => {
    const run = new csc.OwnPolicyRun(d, params, new LruThreshold());
    const t0 = performance.now();
    const f = run.step(T);
    const ms = performance.now() - t0;
    if (f.stopped) throw new Error(f.stopped);
    run.free();
    return ms;
  });
  const fmt = (x) => Math.round(x).toLocaleString('en-US');
  console.log(`${name}, T = ${T}, k = ${params.k}: threshold cache ${fmt(builtIn)} rounds/s; your policy (LRU threshold in JS) ${fmt(own)} rounds/s (${(own / builtIn).toFixed(2)}×; ${((1e6 / own) - (1e6 / builtIn)).toFixed(2)} µs more per round)`);
  d.free();
}
