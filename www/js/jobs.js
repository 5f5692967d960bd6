// Experiment jobs: one worker runs one experiment at a time; results are kept per request, so
// two views showing the same runs (regret and efficiency) share them, and a finished run is not
// repeated. Cancel terminates the worker; the units finished so far stay shown. Every failure ends
// the job with a message: the worker failing to load (onerror), the engine failing to start or
// throwing (an `error` reply), and a trapped wasm instance, after which the worker is replaced by
// a fresh one (a trapped instance must never run another job).

const jobs = new Map(); // key → { key, request, status, done, total, frac, report, json, csv, summary, error }
const listeners = new Set();
let worker = null;
let current = null;

function emit(job) { for (const fn of listeners) fn(job); }

/** Calls `fn(job)` whenever a job changes. */
export function onJob(fn) { listeners.add(fn); }

export function getJob(key) { return jobs.get(key) || null; }

const reason = (ev) => ev.message || 'the worker could not be started (is pkg/ built and served?)';

/** Ends the running job with `message`; drops the worker (a fresh one runs the next job). */
function fail(message) {
  if (worker) { worker.terminate(); worker = null; }
  const job = current;
  current = null;
  if (job) { Object.assign(job, { status: 'error', error: message }); emit(job); }
}

function spawn() {
  const w = new Worker(new URL('./exp-worker.js', import.meta.url), { type: 'module' });
  w.onerror = (ev) => { ev.preventDefault(); if (w === worker) fail(`the engine's worker failed: ${reason(ev)}`); };
  w.onmessageerror = () => { if (w === worker) fail('a message from the engine\'s worker could not be read'); };
  w.onmessage = (ev) => {
    const m = ev.data;
    if (m.type === 'error' && m.trapped) { fail(m.message); return; } // the instance is dead: replace the worker
    const job = current;
    if (!job) return;
    if (m.type === 'start') Object.assign(job, { total: m.total, spec: m.spec });
    else if (m.type === 'progress') job.frac = m.frac;
    else if (m.type === 'partial' || m.type === 'done') {
      Object.assign(job, { done: m.done, total: m.total, frac: m.done / m.total, report: m.report });
      if (m.type === 'done') { Object.assign(job, { status: 'done', json: m.json, csv: m.csv, summary: m.summary }); current = null; }
    } else if (m.type === 'error') { Object.assign(job, { status: 'error', error: m.message }); current = null; }
    emit(job);
  };
  return w;
}

/** Starts (or restarts) the job `key` running `request` (see exp-worker.js); cancels any other. */
export function runJob(key, request) {
  if (current) cancelJob();
  const job = { key, request, status: 'running', done: 0, total: 0, frac: 0, report: null, started: performance.now() };
  jobs.set(key, job);
  current = job;
  if (!worker) worker = spawn();
  worker.postMessage(request);
  emit(job);
  return job;
}

export function cancelJob() {
  if (!current) return;
  const job = current;
  current = null;
  worker.terminate();
  worker = null;
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
