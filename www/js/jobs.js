// Experiment jobs, run by a pool of workers: the units of an experiment (sweep value × seed) are
// independent, so up to `workerCount()` workers (exp-worker.js) each build the run and take the
// next unit from a queue, while one more instance (the collector) adds every finished unit and
// answers with the aggregated report. The report is sorted by unit index before it is
// aggregated (csc::experiment::Report::new), so it is the same bits whatever the number of
// workers or the order in which units finish (tests/e2e/embed.mjs checks 1 against 2 workers).
// Results are kept per request, so two views showing the same runs share them, and a finished
// run is not repeated. Cancel terminates the workers; the units finished so far stay shown.
// Every failure ends the job with a message: a worker failing to load (onerror), the engine
// failing to start or throwing (an `error` reply, also for a trapped wasm instance). Each job
// spawns fresh workers, so a trapped instance never runs another job.

const jobs = new Map(); // key → { key, request, status, done, total, frac, report, json, csv, summary, error, workers }
const listeners = new Set();
let current = null; // { job, workers: [], collector }
/** Workers the pool starts when the page does not say (the user's setting is `setWorkers`). */
export const AUTO_CAP = 8;
let wanted = 0; // 0 = automatic

function emit(job) { for (const fn of listeners) fn(job); }

/** Calls `fn(job)` whenever a job changes. */
export function onJob(fn) { listeners.add(fn); }

export function getJob(key) { return jobs.get(key) || null; }

/** Sets the number of experiment workers (0: automatic) for the jobs started from now on. */
export function setWorkers(n) { wanted = Math.max(0, Math.floor(Number(n) || 0)); }

/** The number of workers a job of `units` units gets. */
export function workerCount(units = Infinity) {
  const auto = Math.min(navigator.hardwareConcurrency || 1, AUTO_CAP);
  return Math.max(1, Math.min(wanted || auto, units));
}

const reason = (ev) => ev.message || 'the worker could not be started (is pkg/ built and served?)';

const spawn = () => new Worker(new URL('./exp-worker.js', import.meta.url), { type: 'module' });

function stop(run) {
  for (const w of run.workers) w.terminate();
  run.collector.terminate();
}

/** Starts (or restarts) the job `key` running `request` (see exp-worker.js); cancels any other. */
export function runJob(key, request) {
  if (current) cancelJob();
  const job = { key, request, status: 'running', done: 0, total: 0, frac: 0, report: null, started: performance.now(), workers: 0 };
  jobs.set(key, job);
  const run = { job, workers: [], collector: spawn(), queue: [], inFlight: new Map(), finished: 0, perUnit: 0 };
  current = run;
  const fail = (message) => {
    if (current !== run) return;
    stop(run);
    current = null;
    Object.assign(job, { status: 'error', error: message });
    emit(job);
  };
  const progress = () => {
    let part = 0;
    for (const f of run.inFlight.values()) part += f;
    job.frac = job.total ? (run.finished + part) / job.total : 0;
  };
  const next = (w) => {
    const index = run.queue.shift();
    if (index === undefined) { w.terminate(); return; }
    run.inFlight.set(index, 0);
    w.postMessage({ type: 'unit', index, perUnit: run.perUnit });
  };
  const startWorker = (w) => {
    w.onerror = (ev) => { ev.preventDefault(); fail(`the engine's worker failed: ${reason(ev)}`); };
    w.onmessageerror = () => fail('a message from the engine\'s worker could not be read');
    w.onmessage = (ev) => {
      const m = ev.data;
      if (current !== run) return;
      if (m.type === 'error') { fail(m.message); return; }
      if (m.type === 'ready') next(w);
      else if (m.type === 'unit-progress') { run.inFlight.set(m.index, m.frac); progress(); emit(job); } else if (m.type === 'unit-done') {
        run.inFlight.delete(m.index);
        run.finished += 1;
        // The count shown is the units finished, at once: the collector's report of them (which
        // aggregates every unit so far) can lag far behind on a full run, which left the status at
        // "0 of N units" until the end.
        job.done = Math.max(job.done || 0, run.finished);
        progress();
        emit(job);
        run.collector.postMessage({ type: 'add', json: [m.json], finish: run.finished === job.total });
        next(w);
      }
    };
    w.postMessage({ type: 'init', request });
  };
  run.collector.onerror = (ev) => { ev.preventDefault(); fail(`the engine's worker failed: ${reason(ev)}`); };
  run.collector.onmessageerror = () => fail('a message from the engine\'s worker could not be read');
  run.collector.onmessage = (ev) => {
    const m = ev.data;
    if (current !== run) return;
    if (m.type === 'error') { fail(m.message); return; }
    if (m.type === 'ready') {
      Object.assign(job, { total: m.total, spec: m.spec });
      run.perUnit = m.perUnit;
      run.queue = Array.from({ length: m.total }, (_, i) => i);
      job.workers = workerCount(m.total);
      if (m.total === 0) { run.collector.postMessage({ type: 'add', json: [], finish: true }); return; }
      for (let i = 0; i < job.workers; i++) { const w = spawn(); run.workers.push(w); startWorker(w); }
    } else if (m.type === 'partial' || m.type === 'done') {
      Object.assign(job, { done: Math.max(job.done || 0, m.done), total: m.total, report: m.report });
      progress();
      if (m.type === 'done') {
        Object.assign(job, { status: 'done', frac: 1, json: m.json, csv: m.csv, summary: m.summary, seconds: (performance.now() - job.started) / 1000 });
        stop(run);
        current = null;
      }
    }
    emit(job);
  };
  run.collector.postMessage({ type: 'init', request });
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
export function determinism(seed) {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('./exp-worker.js', import.meta.url), { type: 'module' });
    w.onmessage = (ev) => { w.terminate(); if (ev.data.type === 'determinism') resolve(ev.data); else reject(new Error(ev.data.message)); };
    w.onerror = (ev) => { ev.preventDefault(); w.terminate(); reject(new Error(`the engine's worker failed: ${reason(ev)}`)); };
    w.onmessageerror = () => { w.terminate(); reject(new Error('a message from the engine\'s worker could not be read')); };
    w.postMessage({ type: 'determinism', seed });
  });
}
