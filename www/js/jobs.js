// @ts-check
// Experiment jobs, run by a pool of workers: the units of an experiment (sweep value × seed) are
// independent, so up to `workerCount()` workers (exp-worker.js) each build the run and take the
// next unit from a queue, while one more instance (the collector) adds every finished unit and
// answers with the aggregated report. The report is sorted by unit index before it is
// aggregated (csc::experiment::Report::new), so it is the same bits whatever the number of
// workers or the order in which units finish (tests/e2e/embed.mjs checks 1 against 2 workers).
// Results are kept per request, so two views showing the same runs share them, and a finished
// run is not repeated. Cancel terminates the workers; the units finished so far stay shown. A job
// may play the reader's own policy beside its units (`beside`: the Theory view's thy-horizon
// panel): its runs count in the job's progress, Cancel stops them too, and the job is done when
// both are; a fault of that policy is its own (`job.beside.error`), the units' results stay.
// Every worker speaks the page's one request/reply protocol (rpc.js), whose one failure path —
// a worker failing to load, the engine failing to start or throwing, a trapped wasm instance, a
// worker silent for too long — ends the job with its message. Each job spawns fresh workers, so
// a trapped instance never runs another job.
import { Rpc } from './rpc.js';
import { enginePackage } from './engine.js';
import { nqTriviaNow } from './nq-trivia.js';
import { quickDefinition } from '../pkg/csc.js';
/** @typedef {import('./state.js').App} App */

const jobs = new Map(); // key → { key, request, status, done, total, frac, report, json, csv, summary, error, workers }
const listeners = new Set();
let current = null; // { job, workers: [], collector }
/** Workers the pool starts when the page does not say (the user's setting is `setWorkers`). */
export const AUTO_CAP = 8;
let wanted = 0; // 0 = automatic

function emit(job) { for (const fn of listeners) fn(job); }

/** Calls `fn(job)` whenever a job changes. */
export function onJob(fn) { listeners.add(fn); }

/**
 * The job that runs `experiment` on the page's dataset — the reader's data `up` (uploadedData), or
 * a built-in, nq-trivia with its files — as `{ key, request }` for runJob, or `{ message, progress }`
 * while nq-trivia's files load. The key names the experiment and the files, so views that run the
 * same experiment share its job.
 * @param {App} app @param {{ dataset: any } | null | undefined} up @param {any} experiment
 */
export function experimentJob(app, up, experiment) {
  let files = null;
  if (!up && app.state.dataset === 'nq-trivia') {
    const nq = nqTriviaNow(app);
    if (!nq.files) return { message: nq.message, progress: nq.progress };
    files = nq.files;
  }
  const request = { type: 'run', experiment, dataset: up ? up.dataset : { kind: app.state.dataset, ...(files || {}) } };
  return { key: JSON.stringify({ experiment, files: files?.id }), request };
}

/**
 * The job that runs the built-in experiment `id` at its quick settings on its own dataset (the
 * engine's `quickDefinition`), as `{ key, request }` for runJob: views that show it share its job.
 * @param {string} id
 */
export function quickJob(id) {
  const experiment = quickDefinition(id);
  return { key: `${id}|quick|${JSON.stringify(experiment)}`, request: { type: 'run', experiment, dataset: { kind: experiment.dataset } } };
}

export function getJob(key) { return jobs.get(key) || null; }

/** Sets the number of experiment workers (0: automatic) for the jobs started from now on. */
export function setWorkers(n) { wanted = Math.max(0, Math.floor(Number(n) || 0)); }

/** The number of workers a job of `units` units gets. */
export function workerCount(units = Infinity) {
  const auto = Math.min(navigator.hardwareConcurrency || 1, AUTO_CAP);
  return Math.max(1, Math.min(wanted || auto, units));
}

/** Units may run long between progress reports (offline units report none): a worker is
 *  taken for hung only after this long in silence. */
const IDLE_MS = 15 * 60 * 1000;
const spawn = () => new Rpc(new URL('./exp-worker.js', import.meta.url), {
  name: 'the engine\'s worker', idleMs: IDLE_MS, wasm: enginePackage, startHint: 'the worker could not be started (is pkg/ built and served?)',
});

/** Ends the run's workers (its units'), and with `all` the reader's policy beside them too. */
function stop(run, all = true) {
  for (const w of run.workers) w.terminate();
  run.collector.terminate();
  if (all && run.beside && run.job.beside.status === 'running') {
    run.beside.cancel();
    run.job.beside.status = 'cancelled';
  }
}

/**
 * @typedef {object} Beside The reader's own policy played beside a job's units (own-policy.js
 * `ownHorizons`): `runs` its number of runs; `start(onProgress)` starts them, reporting the
 * fraction of its rounds played, and returns `done` (its result; a rejection is its fault) and
 * `cancel()`.
 * @property {number} runs
 * @property {(onProgress: (frac: number) => void) => { done: Promise<any>, cancel: () => void }} start
 */

/**
 * Starts (or restarts) the job `key` running `request` (see exp-worker.js); cancels any other.
 * `beside` (optional): the reader's policy played beside the units, counted in the job's progress
 * as `beside.runs` units; its state is `job.beside` (`status` running, done, error or cancelled;
 * `result`; `error`, its one message).
 * @param {string} key @param {any} request @param {Beside | null} [beside]
 */
export function runJob(key, request, beside = null) {
  if (current) cancelJob();
  const job = { key, request, status: 'running', done: 0, total: 0, frac: 0, report: null, started: performance.now(), workers: 0,
    beside: beside ? { status: 'running', runs: beside.runs, frac: 0, result: null, error: null } : null };
  jobs.set(key, job);
  const run = { job, workers: [], collector: spawn(), queue: [], inFlight: new Map(), finished: 0, perUnit: 0, unitsDone: false, beside: null };
  current = run;
  const fail = (e) => {
    if (current !== run) return;
    stop(run);
    current = null;
    Object.assign(job, { status: 'error', error: e.message });
    emit(job);
  };
  const progress = () => {
    let part = 0;
    for (const f of run.inFlight.values()) part += f;
    const extra = job.beside ? job.beside.runs : 0;
    const total = job.total + extra;
    job.frac = total && (job.total || !job.beside) ? (run.finished + part + (job.beside ? job.beside.frac * extra : 0)) / total : 0;
  };
  /** Done once the units are and the policy beside them has settled. */
  const settle = () => {
    if (current !== run || !run.unitsDone || job.beside?.status === 'running') return;
    Object.assign(job, { status: 'done', frac: 1, seconds: (performance.now() - job.started) / 1000 });
    current = null;
  };
  /** The collector's aggregated report of the units so far (`finish`: the last one, with exports). */
  const collect = (json, finish) => run.collector.request('add', { json, finish }).then((m) => {
    if (current !== run) return;
    Object.assign(job, { done: Math.max(job.done || 0, m.done), total: m.total, report: m.report });
    progress();
    if (finish) {
      Object.assign(job, { json: m.json, csv: m.csv, summary: m.summary });
      stop(run, false);
      run.unitsDone = true;
      settle();
    }
    emit(job);
  }, fail);
  /** A unit worker: builds the run, then takes units from the queue until it is empty. */
  const work = async (w) => {
    await w.request('init', request);
    for (let index = run.queue.shift(); index !== undefined && current === run; index = run.queue.shift()) {
      run.inFlight.set(index, 0);
      const onProgress = (frac) => { if (current !== run) return; run.inFlight.set(index, frac); progress(); emit(job); };
      const json = await w.request('unit', { index, perUnit: run.perUnit }, { onProgress });
      if (current !== run) return;
      run.inFlight.delete(index);
      run.finished += 1;
      // The count shown is the units finished, at once: the collector's report of them (which
      // aggregates every unit so far) can lag far behind on a full run, which left the status at
      // "0 of N units" until the end.
      job.done = Math.max(job.done || 0, run.finished);
      progress();
      emit(job);
      collect([json], run.finished === job.total);
    }
    w.terminate();
  };
  run.collector.request('init', request).then((m) => {
    if (current !== run) return;
    Object.assign(job, { total: m.total, spec: m.spec });
    run.perUnit = m.perUnit;
    run.queue = Array.from({ length: m.total }, (_, i) => i);
    job.workers = workerCount(m.total);
    if (m.total === 0) { collect([], true); return; }
    for (let i = 0; i < job.workers; i++) { const w = spawn(); run.workers.push(w); work(w).catch(fail); }
    emit(job);
  }, fail);
  if (beside) {
    const b = job.beside;
    run.beside = beside.start((frac) => { if (current !== run || b.status !== 'running') return; b.frac = frac; progress(); emit(job); });
    run.beside.done.then((result) => {
      if (current !== run || b.status !== 'running') return;
      Object.assign(b, { status: 'done', frac: 1, result });
    }, (e) => {
      if (current !== run || b.status !== 'running') return;
      Object.assign(b, { status: 'error', error: e.message });
    }).then(() => { if (current !== run) return; progress(); settle(); emit(job); });
  }
  emit(job);
  return job;
}

export function cancelJob() {
  if (!current) return;
  const { job } = current;
  stop(current);
  current = null;
  job.status = 'cancelled';
  emit(job);
}

/** The engine's determinism report for `seed`, computed in a worker of its own. */
export async function determinism(seed) {
  const w = spawn();
  try { return await w.request('determinism', { seed }); } finally { w.terminate(); }
}
