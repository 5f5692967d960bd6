// Runs experiments (SPEC §10) off the main thread. As a member of the page's pool (jobs.js):
// `init` builds the run, then `unit` runs one unit (sweep value × seed) with progress and returns
// its result, while the pool's collector (another instance) receives them with `add` and answers
// with the aggregated report (`finish`: with the exports). `run` still runs a whole experiment,
// one unit at a time, in this one worker. Cancelling is terminating the workers. Also computes
// the engine's determinism report on request. Every failure is replied as an `error` message (the
// engine failing to start included); one from a trapped instance says so (`trapped`), and this
// worker then closes: the page starts fresh workers for the next job.
import init, { Dataset, ExperimentRun, determinismReport, experimentDefinition, nativeDeterminismReport } from '../pkg/csc.js';
import { answersOption } from './nq-trivia.js';

const ready = init();
ready.catch(() => {}); // reported, as an `error` reply, to each request below

function dataset(d) {
  if (d.kind === 'plane') return Dataset.plane();
  if (d.kind === 'upload') {
    // with the group field of `bursty` and the index file of `replay` (upload.js uploadedData)
    const options = { groupBy: d.groupBy, replayIndex: d.index ? new Uint8Array(d.index) : undefined, replayIndexName: d.indexName };
    return Dataset.fromJsonl(d.name, new Uint8Array(d.jsonl), d.emb ? new Uint8Array(d.emb) : undefined, d.dim || undefined, undefined, options);
  }
  if (d.kind === 'nq-trivia') {
    const text = (b) => new TextDecoder().decode(b);
    return Dataset.nqTrivia(text(d.nq), new Uint8Array(d.nqEmb), text(d.tq), new Uint8Array(d.tqEmb), undefined, undefined, answersOption(d));
  }
  return Dataset.synthetic();
}

/**
 * The experiment: a built-in id, optionally with its sweep values replaced (quick settings). With
 * uploaded data (`m.upload`, a dataset object naming the user's file) it runs on that data.
 */
function experiment(m, ds) {
  if (!m.sweepValues && !m.drop && !m.upload) return m.experiment;
  let spec;
  if (m.upload) {
    spec = typeof m.experiment === 'string' ? experimentDefinition(m.experiment) : structuredClone(m.experiment);
    spec.dataset = m.upload;
    // Named after the user's file, never a built-in (as the CLI's rename_for does).
    const file = m.upload.jsonl;
    for (const b of ['nq-trivia', 'synthetic', 'plane']) spec.title = spec.title.replaceAll(b, file);
    if (!spec.title.includes(file)) spec.title = `${spec.title} (${file})`;
  } else {
    const probe = new ExperimentRun(m.experiment, ds, undefined, 1);
    spec = probe.spec();
    probe.free();
  }
  if (m.sweepValues && spec.sweep) spec.sweep.values = m.sweepValues;
  if (m.drop && spec.measure.policies) spec.measure.policies = spec.measure.policies.filter((p) => !m.drop.includes(p));
  return spec;
}

let pool = null; // { ds, run } of this worker's pool job

/** A pool message: init, unit, add, finish (see jobs.js). */
function poolMessage(m) {
  if (m.type === 'init') {
    const ds = dataset(m.request.dataset);
    const run = new ExperimentRun(experiment(m.request, ds), ds, m.request.overrides || undefined, m.request.seeds || undefined);
    pool = { ds, run };
    const spec = run.spec();
    self.postMessage({ type: 'ready', total: run.totalUnits, spec, perUnit: spec.measure.kind === 'online' ? spec.measure.policies.length * spec.params.horizon : 0 });
  } else if (m.type === 'unit') {
    let last = 0;
    const progress = (rounds) => {
      const now = performance.now();
      if (m.perUnit && now - last > 150) { last = now; self.postMessage({ type: 'unit-progress', index: m.index, frac: Math.min(1, rounds / m.perUnit) }); }
      return true;
    };
    self.postMessage({ type: 'unit-done', index: m.index, json: pool.run.runUnit(m.index, progress) });
  } else if (m.type === 'add') {
    for (const j of m.json) pool.run.addUnit(j);
    const done = pool.run.doneUnits, total = pool.run.totalUnits;
    if (m.finish) self.postMessage({ type: 'done', done, total, report: pool.run.report(), json: pool.run.reportJson(), csv: pool.run.csv(), summary: pool.run.summary() });
    else self.postMessage({ type: 'partial', done, total, report: pool.run.report() });
  }
}

self.onmessage = async (ev) => {
  const m = ev.data;
  try {
    await ready;
    if (['init', 'unit', 'add'].includes(m.type)) { poolMessage(m); return; }
    if (m.type === 'determinism') {
      const r = determinismReport(m.seed);
      self.postMessage({ type: 'determinism', report: r, native: nativeDeterminismReport() });
      return;
    }
    const ds = dataset(m.dataset);
    const run = new ExperimentRun(experiment(m, ds), ds, m.overrides || undefined, m.seeds || undefined);
    const spec = run.spec();
    const total = run.totalUnits;
    const perUnit = spec.measure.kind === 'online' ? spec.measure.policies.length * spec.params.horizon : 0;
    self.postMessage({ type: 'start', total, spec });
    let done = 0;
    let last = 0;
    const progress = (rounds) => {
      const now = performance.now();
      if (perUnit && now - last > 150) {
        last = now;
        self.postMessage({ type: 'progress', done, total, frac: (done + Math.min(1, rounds / perUnit)) / total });
      }
      return true;
    };
    for (let more = total > 0; more;) {
      more = run.runNext(progress);
      done += 1;
      const report = run.report();
      if (more) self.postMessage({ type: 'partial', done, total, report });
      else self.postMessage({ type: 'done', done, total, report, json: run.reportJson(), csv: run.csv(), summary: run.summary() });
    }
    run.free();
    ds.free();
  } catch (e) {
    const trapped = e instanceof WebAssembly.RuntimeError;
    const message = String(e && e.message ? e.message : e);
    self.postMessage({ type: 'error', trapped, message: trapped ? `the engine stopped (${message}); a fresh one runs the next job` : message });
    if (trapped) self.close();
  }
};
