// @ts-check
// Runs experiments (SPEC §10) off the main thread, through the page's one request/reply protocol
// (rpc.js). As a member of the page's pool (jobs.js): `init` builds the run, then `unit` runs one
// unit (sweep value × seed) with progress and returns its result, while the pool's collector
// (another instance) receives them with `add` and answers with the aggregated report (`finish`:
// with the exports). `run` still runs a whole experiment, one unit at a time, in this one worker
// (its partial reports as progress). Cancelling is terminating the workers. Also computes the
// engine's determinism report on request. Every failure is the request's failed reply (the engine
// failing to start included); a trapped instance says so, and this worker then closes: the page
// starts fresh workers for the next job.
import init, { Dataset, ExperimentRun, determinismReport, experimentDefinition, nativeDeterminismReport, provideSynthetic } from '../pkg/csc.js';
import { answersOption } from './nq-trivia.js';
import { startPageEngine, serve } from './rpc.js';

// the page's compiled engine (engine.js), else fetched here
const ready = startPageEngine(init, provideSynthetic);
ready.catch(() => {}); // reported, as the failed reply, to each request below

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

/** Progress of one unit as a fraction of its rounds, at most every 150 ms. */
function unitProgress(perUnit, progress) {
  let last = 0;
  return (rounds) => {
    const now = performance.now();
    if (perUnit && now - last > 150) { last = now; progress(Math.min(1, rounds / perUnit)); }
    return true;
  };
}

const perUnitOf = (spec) => (spec.measure.kind === 'online' ? spec.measure.policies.length * spec.params.horizon : 0);

serve({
  async init(request) {
    await ready;
    const ds = dataset(request.dataset);
    const run = new ExperimentRun(experiment(request, ds), ds, request.overrides || undefined, request.seeds || undefined);
    pool = { ds, run };
    const spec = run.spec();
    return { total: run.totalUnits, spec, perUnit: perUnitOf(spec) };
  },
  unit({ index, perUnit }, progress) {
    return pool.run.runUnit(index, unitProgress(perUnit, progress));
  },
  add({ json, finish }) {
    for (const j of json) pool.run.addUnit(j);
    const done = pool.run.doneUnits, total = pool.run.totalUnits;
    if (finish) return { done, total, report: pool.run.report(), json: pool.run.reportJson(), csv: pool.run.csv(), summary: pool.run.summary() };
    return { done, total, report: pool.run.report() };
  },
  async determinism({ seed }) {
    await ready;
    return { report: determinismReport(seed), native: nativeDeterminismReport() };
  },
  /** A whole experiment in this one worker: progress `{ done, total, frac }` and `{ partial }`. */
  async run(m, progress) {
    await ready;
    const ds = dataset(m.dataset);
    const run = new ExperimentRun(experiment(m, ds), ds, m.overrides || undefined, m.seeds || undefined);
    const spec = run.spec(), total = run.totalUnits, perUnit = perUnitOf(spec);
    progress({ start: { total, spec } });
    let done = 0;
    const onRounds = unitProgress(perUnit, (f) => progress({ done, total, frac: (done + f) / total }));
    for (let more = total > 0; more;) {
      more = run.runNext(onRounds);
      done += 1;
      if (more) progress({ partial: { done, total, report: run.report() } });
    }
    const out = { done, total, report: run.report(), json: run.reportJson(), csv: run.csv(), summary: run.summary() };
    run.free();
    ds.free();
    return out;
  },
}, { trappedSays: (m) => `the engine stopped (${m}); a fresh one runs the next job` });
