// @ts-check
// Your own policy (docs/USAGE.md, "Your own policy"; docs/JS-API.md): a JavaScript module typed in
// the code box or loaded from a .js file, stored in the link (own-code.js), played by the engine
// beside the paper's policies in a worker of its own (policy-worker.js): in the live view as a
// panel of its own, following the live run round by round on its stream; in the regret view on
// the same seeds, its statistics (the engine's OwnPolicyStats) drawn in the run's charts and its
// Reg(t) check in the Theory view's table (`withOwn`), and beside the view's thy-horizon runs its
// Reg(T) across horizons (`ownHorizons`, through jobs.js); over its declared parameters in the Sweep
// view (own-sweep.js) and on the frontier (own-frontier.js), both through `ownSweep`. A policy that faults — throws, answers garbage, names a member it may not
// hold, exceeds k, runs one round longer than ROUND_LIMIT_MS, or exhausts its worker's memory —
// is stopped with one message naming the round; the other policies' runs are separate and go on.
import { Rpc } from '../rpc.js';
import { enginePackage } from '../engine.js';
import { encodeCode, decodeCode, linkedPolicy } from '../own-code.js';
import { RunningChart } from './live-chart.js';
/** @typedef {import('../state.js').App} App */

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** The longest a round of your policy may take (its worker is stopped after). */
export const ROUND_LIMIT_MS = 2000;
/** How long setting a run up may take (the engine building its stream and evaluation sample,
 *  then the policy's `start`): no round of the policy, so not under ROUND_LIMIT_MS. */
const SETUP_LIMIT_MS = 120000;
/** The shipped examples (www/policies/). */
const EXAMPLES = { 'lru-threshold': 'LRU with a fixed threshold', 'learned-threshold': 'A learned threshold' };
const CURVES = ['t', 'avgRegret', 'switches', 'avgRealisedCost', 'hitRate', 'loss', 'estRmse'];

/** The fragment's keys of the Sweep view's "Sweep your parameters" form (views/own-sweep.js). */
export const SWEEP_KEYS = /** @type {const} */ (['own_param', 'own_values', 'own_ref', 'own_metric']);

/**
 * The policy in use: its code and the fragment value that carries it (null: none); its sweep
 * form's settings (kept in the fragment beside it); and its statistics on the regret view's
 * settings once played there (`key`: ownSettingsKey of the experiment; `theory`: the engine's
 * checks of its runs), which the regret and theory views draw.
 */
export const own = {
  code: /** @type {string | null} */ (null), fragment: '',
  /** @type {Record<string, string>} */ sweep: Object.fromEntries(SWEEP_KEYS.map((k) => [k, new URLSearchParams(location.hash.replace(/^#/, '')).get(k) ?? ''])),
  /** @type {{ key: string, stats: any[], theory: any[] } | null} */ regret: null,
};

/** The URL fragment part naming your policy and its sweep form (main.js joins it to the upload's). */
export const policyHash = () => {
  if (!own.fragment) return '';
  const h = new URLSearchParams();
  for (const k of SWEEP_KEYS) if (own.sweep[k]) h.set(k, own.sweep[k]);
  const rest = h.toString();
  return `policy=${own.fragment}${rest ? `&${rest}` : ''}`;
};

/** What identifies the runs your policy's statistics are of: an online experiment's dataset,
 *  parameters and seeds (not its policies, title or id). */
export const ownSettingsKey = (experiment) => JSON.stringify({ dataset: experiment.dataset, params: experiment.params, seeds: experiment.seeds, first_seed: experiment.first_seed });

/**
 * A worker for your policy: `request` with the per-round watchdog; a failure (too long, out of
 * memory, a trap) becomes "the policy stopped in round r: …" with the last round it started.
 */
class PolicyWorker {
  constructor(name) {
    this.round = 0;
    /** Why its worker failed while your policy was set up (its death is its fault). */
    this.failed = /** @type {string | null} */ (null);
    this.rpc = new Rpc(new URL('../policy-worker.js', import.meta.url), {
      name, wasm: enginePackage, idleMs: SETUP_LIMIT_MS, startHint: 'it could not be started (is pkg/ built and served?)',
      onFail: (m) => { if (this.playing) { this.failed ??= m; this.between ??= !this.busy; } },
    });
    this.playing = false;
    /** Whether a request is out, and whether the worker died between requests (its round is then the last one played). */
    this.busy = false;
    this.between = /** @type {boolean | null} */ (null);
  }

  /**
   * `type` with `payload`; `limit`: the watchdog is the per-round limit (else set-up's). A
   * progress `{ setup: true, … }` (a run of the request being set up: the engine building its
   * stream and calling your `start`) gives the set-up's limit until the next round starts; `where`
   * keeps the last progress of either kind.
   */
  async request(type, payload, { limit = false, onRound = (_r) => {} } = {}) {
    if (!limit) { this.failed = null; this.between = null; this.playing = false; }
    if (this.failed) throw new Error(this.stopped(this.failed));
    this.rpc.idleMs = limit ? ROUND_LIMIT_MS : SETUP_LIMIT_MS;
    this.setup = false;
    this.where = null;
    const onProgress = (p) => {
      this.where = p;
      if (p && p.setup) { this.setup = true; this.round = 0; this.rpc.idleMs = SETUP_LIMIT_MS; this.rpc.arm(); return; }
      if (this.setup) { this.setup = false; this.rpc.idleMs = ROUND_LIMIT_MS; this.rpc.arm(); }
      this.round = typeof p === 'number' ? p : p.round;
      onRound(p);
    };
    this.busy = true;
    try {
      const out = await this.rpc.request(type, payload, { onProgress });
      this.playing = true;
      return out;
    } catch (e) {
      if (!limit || this.rpc.running) throw e;
      this.failed ??= String(e.message);
      throw new Error(this.stopped(this.failed));
    } finally { this.busy = false; }
  }

  /** A failure of the worker while the policy plays, as the policy's fault in its round. */
  stopped(m) {
    const silent = m.includes('stopped answering');
    const why = silent && this.setup
      ? `its run's set-up (the engine building the stream, then its start) ran longer than ${SETUP_LIMIT_MS / 1000} s (an endless loop in start?), so its worker was stopped`
      : silent
        ? `it ran longer than the ${ROUND_LIMIT_MS / 1000} s a round may take (an endless loop, or allocation without bound?), so its worker was stopped`
        : `its worker died (${m.replace(/^.*? failed: /, '')}; out of memory?)`;
    return `the policy stopped ${this.between ? 'after' : 'in'} round ${this.round}: ${why}`;
  }

  stop() { this.playing = false; this.rpc.terminate(); }
}

/** @param {App} app */
export function createOwnPolicy(app) {
  const code = /** @type {HTMLTextAreaElement} */ ($('own-code'));
  const msg = $('own-msg');
  const say = (text, bad = false) => { msg.textContent = text; msg.classList.toggle('bad', bad); };
  const listeners = [];

  /** Uses `text` as your policy (null: none): in the link, then in every view. */
  async function use(text) {
    own.code = text;
    own.fragment = text ? await encodeCode(text) : '';
    app.set(() => {}); // rewrites the link with the new fragment
    for (const fn of listeners) fn();
  }

  async function example(id) {
    const res = await fetch(new URL(`../../policies/${id}.js`, import.meta.url));
    if (!res.ok) throw new Error(`the example ${id}.js could not be fetched (${res.status})`);
    return res.text();
  }

  const select = /** @type {HTMLSelectElement} */ ($('own-example'));
  for (const [id, name] of Object.entries(EXAMPLES)) select.append(new Option(name, id));
  select.addEventListener('change', async () => {
    if (!select.value) return;
    try { code.value = await example(select.value); say('Example loaded: press “Run it beside”.'); } catch (e) { say(e.message, true); }
    select.value = '';
  });
  $('own-file').addEventListener('change', async (ev) => {
    const f = /** @type {HTMLInputElement} */ (ev.target).files?.[0];
    if (!f) return;
    if (f.size > 1e6) { say(`${f.name} is ${Math.round(f.size / 1e3)} kB: a policy module of at most 1 MB is read`, true); return; }
    code.value = await f.text();
    say(`${f.name} loaded: press “Run it beside”.`);
  });
  $('own-apply').addEventListener('click', async () => {
    if (!code.value.trim()) { say('The code box is empty: type a module with a default export, load a .js file or pick an example.', true); return; }
    await use(code.value);
    say('Your policy runs beside the others (its panel below); the link now carries it.');
  });
  $('own-remove').addEventListener('click', async () => { await use(null); say('Your policy is removed (and gone from the link).'); });

  // A link's policy.
  const linked = linkedPolicy();
  const loaded = linked
    ? decodeCode(linked).then((text) => { code.value = text; own.code = text; own.fragment = linked; say('Your policy came with the link: it runs beside the others.'); })
      .catch((e) => say(e.message, true))
    : Promise.resolve();
  return {
    loaded,
    /** Calls `fn` whenever your policy changes. */
    onChange(fn) { listeners.push(fn); },
  };
}

/**
 * The live view's panel of your policy: set up with the live run's request, it follows the live
 * run's round (one request at a time, catching up).
 */
export class OwnLivePanel {
  constructor() {
    this.root = $('own-panel');
    this.worker = new PolicyWorker('your policy\'s worker');
    this.chart = new RunningChart(/** @type {HTMLCanvasElement} */ (this.root.querySelector('.running-chart')));
    this.gen = 0;
    this.ready = false; this.round = 0; this.target = 0; this.busy = false; this.horizon = 0;
    /** @type {string | null} */ this.stopped = null;
    /** @type {{ oracleLoss: number, noCacheLoss: number } | null} */ this.refs = null;
    /** @type {[number, number, number, number, number][]} */ this.log = [];
    this.reset();
  }

  reset() {
    Object.assign(this, { ready: false, round: 0, target: 0, busy: false, stopped: null, horizon: 0, refs: null, log: [] });
    this.curves = Object.fromEntries(CURVES.map((k) => [k, []]));
    this.chart.reset();
    this.root.dataset.round = '0';
    this.root.dataset.stopped = '';
  }

  /** Sets your policy up on the live run `init` (`refs`: the run's oracle and no-cache losses). */
  start(init, refs) {
    this.gen += 1;
    this.reset();
    this.root.hidden = !own.code;
    if (!own.code) { this.worker.stop(); return; }
    this.refs = refs;
    const g = this.gen;
    this.show('Setting up your policy…');
    this.worker.request('init', { ...init, code: own.code }).then((m) => {
      if (g !== this.gen) return;
      Object.assign(this, { ready: true, horizon: m.horizon });
      if (m.stopped) this.fail(m.stopped); else this.show('Ready.');
      this.pump();
    }, (e) => { if (g === this.gen) this.fail(e.message); });
  }

  /** Plays up to the live run's round `t`. */
  follow(t) { this.target = Math.max(this.target, t); this.pump(); }

  pump() {
    if (!this.ready || this.busy || this.stopped || this.round >= this.target) return;
    this.busy = true;
    const g = this.gen;
    this.worker.request('step', { n: this.target - this.round }, { limit: true }).then((f) => {
      if (g !== this.gen) return;
      this.busy = false;
      this.absorb(f);
      this.pump();
    }, (e) => { if (g === this.gen) { this.busy = false; this.fail(e.message); } });
  }

  absorb(f) {
    this.round = f.round;
    for (const k of CURVES) this.curves[k].push(...f.curves[k]);
    const cp = f.counters;
    const pct = (v) => (v == null ? '—' : `${(v * 100).toFixed(2)} %`);
    const rows = [['round t', String(cp.t), 'round'], ['avg regret', cp.avg_regret.toFixed(4), 'regret'],
      ['realised cost / round', cp.avg_realised_cost.toFixed(4), 'cost'], ['hit rate', `${(cp.hit_rate * 100).toFixed(1)} %`, 'hit'],
      ['switches', String(cp.switches), 'switches'], ['switching cost / round', cp.avg_switch_cost.toFixed(4), 'switchcost'],
      ['error rate', pct(cp.error_rate), 'error'], ['hit precision', pct(cp.hit_precision), 'precision'], ['LLM calls', String(cp.llm_calls), 'llm']];
    const dl = this.root.querySelector('.counters');
    dl.replaceChildren(...rows.map(([name, value, key]) => {
      const div = document.createElement('div');
      const dd = Object.assign(document.createElement('dd'), { textContent: value });
      dd.dataset.counter = key;
      div.append(Object.assign(document.createElement('dt'), { textContent: name }), dd);
      return div;
    }));
    const n = f.t.length;
    if (n) {
      const note = f.notes.length ? f.notes[n - 1] : null;
      const did = f.llm[n - 1] ? 'sent to the LLM' : 'served from its cache';
      this.root.querySelector('.why').textContent = `Round ${f.t[n - 1]}: ${did}${note ? ` — ${note}` : ''}`;
    }
    if (this.refs) { this.chart.set(this.curves, cp, this.refs.oracleLoss, this.refs.noCacheLoss); this.chart.draw(this.horizon); }
    // For the tests: the decisions and costs of every round so far.
    this.root.dataset.round = String(f.round);
    for (let i = 0; i < n; i++) this.log.push([f.t[i], f.llm[i], f.switched[i], f.realised[i], f.wrong[i]]);
    /** @type {any} */ (this.root).ownLog = this.log;
    /** @type {any} */ (this.root).ownCurves = this.curves;
    if (f.stopped) this.fail(f.stopped);
    else if (f.round >= this.horizon) this.show(`Done: T = ${this.horizon} rounds played.`);
    else this.show('');
  }

  fail(message) {
    this.stopped = message;
    this.root.dataset.stopped = message;
    this.show(message, true);
  }

  show(text, bad = false) {
    const s = this.root.querySelector('.own-status');
    s.textContent = text;
    s.classList.toggle('bad', bad);
  }
}

/** The theory checks that apply to a policy seen from outside: Reg(t)'s slope. ε_t, m_eff and
 *  γ_t are the paper's learners' own quantities (their ε-net and kernel model), which a policy of
 *  yours does not expose; so are Theorem 5.1's four terms, and the switches check, which reads
 *  switches against the net's size m_max (Lemma 5.3). */
export const OWN_CHECKS = ['regret'];

/**
 * An online report with your policy's statistics and theory checks added (series `own-policy`),
 * when they are of the report's settings (`own.regret`, played by the regret view); else as is.
 */
export function withOwn(report) {
  const o = own.regret;
  if (!o || !report || report.experiment?.measure?.kind !== 'online' || o.key !== ownSettingsKey(report.experiment)) return report;
  const T = Math.max(...o.stats.filter((s) => s.metric === 'final_avg_regret').map((s) => s.x));
  const checks = o.theory.filter((c) => OWN_CHECKS.includes(c.quantity));
  const theory = report.theory ? { ...report.theory, runs: [...report.theory.runs, { policy: 'own-policy', x: T, checks, bound: null }] } : report.theory;
  return { ...report, stats: [...report.stats, ...o.stats], theory };
}

/** Plays your policy on `seeds` of the regret view's settings: per seed its `RunResult` (`runs`),
 *  the statistics of the seeds played to T and the engine's theory checks of them. */
export async function ownOnSeeds(init, seeds, onRound) {
  const w = new PolicyWorker('your policy\'s worker (regret)');
  try {
    return await w.request('seeds', { ...init, code: own.code, seeds }, { limit: true, onRound });
  } finally { w.stop(); }
}

/** The parameters your policy's module declares (own-params.js `declared`), read in a worker. */
export async function ownDeclared() {
  const w = new PolicyWorker('your policy\'s worker (parameters)');
  try {
    return await w.request('declare', { code: own.code });
  } finally { w.stop(); }
}

/**
 * Your policy at each of `values` of your parameter `param` (null: its defaults) on `seeds` of
 * the settings `init`: `done` resolves to `{ stats, lasts }` (final metrics at x = each value, or
 * its index when `byIndex`; each run's last checkpoint) or `{ stopped }`; `cancel()` stops its
 * worker (`done` then rejects).
 */
export function ownSweep(init, seeds, param, values, onProgress, { byIndex = false } = {}) {
  const w = new PolicyWorker('your policy\'s worker (sweep)');
  const done = w.request('sweep', { ...init, code: own.code, seeds, param, values, byIndex }, { limit: true, onRound: onProgress }).finally(() => w.stop());
  return { done, cancel: () => w.stop() };
}

/**
 * Your policy beside a sweep over the horizon `experiment` (the Theory view's quick thy-horizon),
 * for jobs.js `runJob`: each T of its sweep × each of its seeds, played in a worker of its own on
 * the streams of its dataset and parameters (the units' own), its progress the fraction of its
 * rounds played. `done` resolves to `{ stats, theory, csv, code }` (policy-worker.js `horizons`)
 * and rejects with one message naming T, the seed, the round and the fault.
 * @returns {import('../jobs.js').Beside}
 */
export function ownHorizons(experiment) {
  const horizons = experiment.sweep.values.map(Number);
  const seeds = Array.from({ length: experiment.seeds }, (_, i) => experiment.first_seed + i);
  const code = own.code;
  const rounds = horizons.reduce((a, T) => a + T, 0) * seeds.length;
  return {
    runs: horizons.length * seeds.length,
    start(onProgress) {
      const w = new PolicyWorker('your policy\'s worker (horizons)');
      const onRound = (p) => {
        const before = horizons.slice(0, horizons.indexOf(p.T)).reduce((a, T) => a + T, 0) * seeds.length + seeds.indexOf(p.seed) * p.T;
        onProgress(Math.min(1, (before + p.round) / rounds));
      };
      const done = w.request('horizons', { dataset: experiment.dataset, params: experiment.params, code, horizons, seeds, experiment: experiment.id }, { limit: true, onRound })
        .then((m) => {
          if (m.stopped) throw new Error(m.stopped);
          return { ...m, code };
        }, (e) => {
          // The watchdog's message names the round; the run it stopped (set up or playing) is named here.
          const at = w.where;
          throw new Error(at && /^the policy stopped/.test(e.message) ? `T = ${at.T}, seed ${at.seed}: ${e.message}` : e.message);
        })
        .finally(() => w.stop());
      return { done, cancel: () => w.stop() };
    },
  };
}

export { EXAMPLES, decodeCode };
