// @ts-check
// Your own policy (docs/JS-API.md, "Your own policy") in a worker of its own, through rpc.js: its
// module is imported from a Blob URL of its code, its default export (an object, or a class made
// with `new`) is played by the engine's OwnPolicyRun on the stream the live run or an experiment's
// seed of the same settings plays. Each round it posts the round as progress before asking the
// policy, so the page's watchdog (views/own-panel.js) knows the round when it must stop a policy
// that runs too long (the Rpc's `idleMs`) or dies of unbounded allocation (the worker's error).
import init, { Dataset, OwnPolicyRun, validateParams, provideSynthetic } from '../pkg/csc.js';
import { makeDataset } from './make-dataset.js';
import { startPageEngine, serve } from './rpc.js';

const ready = startPageEngine(init, provideSynthetic);
ready.catch(() => {});
/** @type {Dataset | null} */ let dataset = null;
let datasetKey = '';
/** @type {OwnPolicyRun | null} */ let run = null;
/** Where the progress of the request that is playing goes. */
let tick = (_round) => {};

/** The policy object of the module `code`, wrapped so that every round is told first. */
async function loadPolicy(code) {
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  let mod;
  try { mod = await import(url); } catch (e) { throw new Error(`the policy's module could not be loaded: ${e && e.message ? e.message : e}`); } finally { URL.revokeObjectURL(url); }
  let p = mod.default;
  if (typeof p === 'function') {
    try { p = new p(); } catch (e) { throw new Error(`the policy's class could not be made (new): ${e && e.message ? e.message : e}`); }
  }
  if (!p || typeof p !== 'object' || typeof p.decide !== 'function' || typeof p.observe !== 'function') {
    throw new Error('the module\'s default export must be an object, or a class, with the methods decide(arrival) and observe(cost, round)');
  }
  const user = p;
  const wrapped = {
    start: (setup) => (typeof user.start === 'function' ? user.start(setup) : undefined),
    decide: (arrival) => { tick(arrival.round); return user.decide(arrival); },
    observe: (cost, round) => user.observe(cost, round),
  };
  if (typeof user.explain === 'function') wrapped.explain = () => user.explain();
  return wrapped;
}

/** The dataset `msg` names, built once while the same one is asked for. */
function useDataset(msg) {
  const key = JSON.stringify({ d: msg.dataset, u: msg.upload?.name, u2: msg.upload?.jsonl?.byteLength, n: msg.nq ? msg.nq.nq.byteLength : 0 });
  if (!dataset || key !== datasetKey) {
    if (dataset) dataset.free();
    dataset = null;
    dataset = makeDataset(Dataset, msg);
    datasetKey = key;
  }
  return dataset;
}

const started = () => { if (!run) throw new Error('your policy has not been set up'); };

serve({
  /** Sets the policy up on the run `msg` names (dataset, params, arrival): nothing is played. */
  async init(msg) {
    await ready;
    if (run) { run.free(); run = null; }
    useDataset(msg);
    const policy = await loadPolicy(msg.code);
    run = new OwnPolicyRun(dataset, validateParams(msg.params), policy, msg.arrival || undefined);
    return { horizon: run.horizon, stopped: run.stopped ?? null };
  },
  /** Plays up to `n` rounds; progress: each round as it starts. */
  step(msg, progress) {
    started();
    tick = (round) => progress(round);
    try { return run.step(msg.n); } finally { tick = () => {}; }
  },
  /** Plays the whole horizon of each seed in `seeds` (the regret view): per seed its result. */
  async seeds(msg, progress) {
    await ready;
    useDataset(msg);
    const out = [];
    for (const seed of msg.seeds) {
      const policy = await loadPolicy(msg.code);
      const r = new OwnPolicyRun(dataset, validateParams({ ...msg.params, seed }), policy, msg.arrival || undefined);
      try {
        tick = (round) => progress({ seed, round });
        const f = r.step(r.horizon);
        out.push({ seed, result: r.result(), stopped: f.stopped });
        if (f.stopped) break;
      } finally { tick = () => {}; r.free(); }
    }
    return out;
  },
}, { trappedSays: (m) => `the engine stopped (${m})` });
