// Runs experiments (SPEC §10) off the main thread, one unit (sweep value × seed) at a time,
// reporting progress within a unit and the aggregated report after each one. Cancelling is
// terminating this worker (the page then starts a fresh one). Also computes the engine's
// determinism report on request. Every failure is replied as an `error` message (the engine
// failing to start included); one from a trapped instance says so (`trapped`), and this worker
// then closes: the page starts a fresh one.
import init, { Dataset, ExperimentRun, determinismReport, nativeDeterminismReport } from '../pkg/csc.js';

const ready = init();
ready.catch(() => {}); // reported, as an `error` reply, to each request below

function dataset(d) {
  if (d.kind === 'plane') return Dataset.plane();
  if (d.kind === 'nq-trivia') {
    const text = (b) => new TextDecoder().decode(b);
    return Dataset.nqTrivia(text(d.nq), new Uint8Array(d.nqEmb), text(d.tq), new Uint8Array(d.tqEmb));
  }
  return Dataset.synthetic();
}

/** The experiment: a built-in id, optionally with its sweep values replaced (quick settings). */
function experiment(m, ds) {
  if (!m.sweepValues && !m.drop) return m.experiment;
  const probe = new ExperimentRun(m.experiment, ds, undefined, 1);
  const spec = probe.spec();
  probe.free();
  if (m.sweepValues && spec.sweep) spec.sweep.values = m.sweepValues;
  if (m.drop && spec.measure.policies) spec.measure.policies = spec.measure.policies.filter((p) => !m.drop.includes(p));
  return spec;
}

self.onmessage = async (ev) => {
  const m = ev.data;
  try {
    await ready;
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
