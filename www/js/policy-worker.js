// @ts-check
// Your own policy (docs/JS-API.md, "Your own policy") in a worker of its own, through rpc.js: its
// module is imported from a Blob URL of its code, its default export (an object, or a class made
// with `new`) is played by the engine's OwnPolicyRun on the stream the live run or an experiment's
// seed of the same settings plays. Each round it posts the round as progress before asking the
// policy, so the page's watchdog (views/own-panel.js) knows the round when it must stop a policy
// that runs too long (the Rpc's `idleMs`) or dies of unbounded allocation (the worker's error).
import init, { Dataset, OwnPolicyRun, OwnPolicyStats, validateParams, provideSynthetic } from '../pkg/csc.js';
import { declared, valuesInUse } from './own-params.js';
import { makeDataset } from './make-dataset.js';
import { startPageEngine, serve } from './rpc.js';

const ready = startPageEngine(init, provideSynthetic);
ready.catch(() => {});
/** @type {Dataset | null} */ let dataset = null;
let datasetKey = '';
/** @type {OwnPolicyRun | null} */ let run = null;
/** Where the progress of the request that is playing goes. */
let tick = (_round) => {};

/** The module of `code`. */
async function loadModule(code) {
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  try { return await import(url); } catch (e) { throw new Error(`the policy's module could not be loaded: ${e && e.message ? e.message : e}`); } finally { URL.revokeObjectURL(url); }
}

/**
 * The policy object of the module `code`, wrapped so that every round is told first; its
 * `start(setup)` gets `setup.params`: its declared defaults (own-params.js), with `set` (a swept
 * parameter's value) in place of its own.
 */
async function loadPolicy(code, set = {}) {
  const mod = await loadModule(code);
  const params = valuesInUse(declared(mod.params), set);
  let p = mod.default;
  if (typeof p === 'function') {
    try { p = new p(); } catch (e) { throw new Error(`the policy's class could not be made (new): ${e && e.message ? e.message : e}`); }
  }
  if (!p || typeof p !== 'object' || typeof p.decide !== 'function' || typeof p.observe !== 'function') {
    throw new Error('the module\'s default export must be an object, or a class, with the methods decide(arrival) and observe(cost, round)');
  }
  const user = p;
  const wrapped = {
    start: (setup) => (typeof user.start === 'function' ? user.start({ ...setup, params: { ...params } }) : undefined),
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
  /** The parameters the module `code` declares (own-params.js), as plain data. */
  async declare(msg) {
    return declared((await loadModule(msg.code)).params);
  },
  /**
   * Plays the whole horizon of each seed in `seeds` (the regret view): per seed its result, and
   * the statistics and theory checks of the seeds played to T (OwnPolicyStats: the engine's
   * aggregation of an online unit's observations). Stops at the first fault. Progress:
   * `{ setup: true, seed }` before each run is set up (the page's watchdog then allows set-up
   * time), `{ seed, round }` as each round starts.
   */
  async seeds(msg, progress) {
    await ready;
    useDataset(msg);
    const out = [];
    const stats = new OwnPolicyStats();
    try {
      for (const seed of msg.seeds) {
        progress({ setup: true, seed }); // setting a run up is no round of yours (as in `horizons`)
        const policy = await loadPolicy(msg.code);
        const r = new OwnPolicyRun(dataset, validateParams({ ...msg.params, seed }), policy, msg.arrival || undefined);
        try {
          tick = (round) => progress({ seed, round });
          const f = r.step(r.horizon);
          out.push({ seed, result: r.result(), stopped: f.stopped });
          if (f.stopped) break;
          stats.add(r, undefined);
        } finally { tick = () => {}; r.free(); }
      }
      return { runs: out, stats: stats.stats(), theory: stats.theory() };
    } finally { stats.free(); }
  },
  /**
   * Your policy at each of `values` of your parameter `param` (a value null: its declared
   * defaults), each × each seed of `seeds`, on the streams of `params`: the statistics of the final
   * metrics at x = the value (x = its index in `values` when `byIndex`, as null has no x), each
   * run's last checkpoint (`lasts`: value, seed, last), or `stopped` (with the value and seed) at
   * the first fault. The Sweep view's sweep and the Frontier view's points.
   */
  async sweep(msg, progress) {
    await ready;
    useDataset(msg);
    const stats = new OwnPolicyStats();
    const lasts = [];
    try {
      for (const [i, value] of msg.values.entries()) {
        for (const seed of msg.seeds) {
          progress({ setup: true, value, seed }); // setting a run up is no round of yours
          const policy = await loadPolicy(msg.code, value == null ? {} : { [msg.param]: value });
          const r = new OwnPolicyRun(dataset, validateParams({ ...msg.params, seed }), policy, msg.arrival || undefined);
          try {
            tick = (round) => progress({ value, seed, round });
            const f = r.step(r.horizon);
            const which = value == null ? 'its defaults' : `${msg.param} = ${value}`;
            if (f.stopped) return { stopped: `${which}, seed ${seed}: ${f.stopped}` };
            stats.add(r, msg.byIndex ? i : value);
            lasts.push({ value, seed, last: f.counters });
          } finally { tick = () => {}; r.free(); }
        }
      }
      return { stats: stats.stats(), lasts };
    } finally { stats.free(); }
  },
  /**
   * Your policy on the runs of a sweep over the horizon (the Theory view's thy-horizon panel): each
   * T of `horizons` × each seed of `seeds`, on the streams of `params` with that horizon and seed
   * (the experiment's units' own: the same arrivals, noise and evaluation sample), each added at
   * x = T: the statistics of their final metrics, the engine's theory checks of them across
   * horizons (OwnPolicyStats.theoryAcrossHorizons: each T's checks and Reg(T) fitted against T, by
   * the function a report's are made with) and their rows of a report's CSV under `experiment`;
   * or `stopped` (naming T and the seed) at the first fault. Progress: `{ setup: true, T, seed }`
   * before each run is set up (the page's watchdog then allows set-up time), `{ T, seed, round }`
   * as each round starts.
   */
  async horizons(msg, progress) {
    await ready;
    useDataset(msg);
    const stats = new OwnPolicyStats();
    try {
      for (const T of msg.horizons) {
        for (const seed of msg.seeds) {
          // Setting a run up (its stream, evaluation sample and oracle at T) is no round of yours.
          progress({ setup: true, T, seed });
          const policy = await loadPolicy(msg.code);
          const r = new OwnPolicyRun(dataset, validateParams({ ...msg.params, horizon: T, seed }), policy, msg.arrival || undefined);
          try {
            tick = (round) => progress({ T, seed, round });
            const f = r.step(r.horizon);
            if (f.stopped) return { stopped: `T = ${T}, seed ${seed}: ${f.stopped}` };
            stats.add(r, T);
          } finally { tick = () => {}; r.free(); }
        }
      }
      return { stats: stats.stats(), theory: stats.theoryAcrossHorizons(), csv: stats.csv(msg.experiment) };
    } finally { stats.free(); }
  },
}, { trappedSays: (m) => `the engine stopped (${m})` });
