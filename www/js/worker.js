// @ts-check
// Runs the engine's live run (csc::live::LiveRun, as OnlineRun) off the main thread, through the
// page's one request/reply protocol (rpc.js): `init` builds it, `step` and `ask` play rounds and
// send back what the views draw (arrivals with each round's events, counters, centers, curves,
// the plane's KRR heatmap), `text` the questions and gold answers of played rounds, `results` and
// `trace` the exports. A trapped instance answers with what to do and this worker closes: the
// page starts a fresh one on Reset.
import init, { Dataset, OnlineRun, validateParams } from '../pkg/csc.js';
import { answersOption } from './nq-trivia.js';
import { pageModule, serve } from './rpc.js';

// the page's compiled engine (engine.js), else fetched here
const ready = pageModule().then((m) => init(m ? { module_or_path: m } : undefined));
ready.catch(() => {}); // reported, as the failed reply, to each request below
let run = null;
let dataset = null;

function snapshot(heatN) {
  const n = run.policies.length;
  const centers = [];
  const curves = [];
  const heat = [];
  for (let p = 0; p < n; p++) {
    centers.push(run.centers(p));
    curves.push(run.curves(p));
    if (heatN && dataset.dim === 2) {
      try { heat.push(run.heatmap(p, heatN)); } catch { heat.push(null); }
    }
  }
  return { counters: run.counters(), centers, curves, heat: heatN ? heat : null, round: run.round };
}

function makeDataset(msg) {
  if (msg.dataset === 'plane') return Dataset.plane();
  if (msg.dataset === 'nq-trivia' && msg.nq) {
    const f = msg.nq, text = (b) => new TextDecoder().decode(b);
    return Dataset.nqTrivia(text(f.nq), new Uint8Array(f.nqEmb), text(f.tq), new Uint8Array(f.tqEmb), undefined, undefined, answersOption(f));
  }
  if (msg.dataset === 'upload' && msg.upload) {
    // with the group field of `bursty` and the index file of `replay` (upload.js uploadedData)
    const u = msg.upload;
    const options = { groupBy: u.groupBy, replayIndex: u.index ? new Uint8Array(u.index) : undefined, replayIndexName: u.indexName };
    return Dataset.fromJsonl(u.name, new Uint8Array(u.jsonl), u.emb ? new Uint8Array(u.emb) : undefined, u.dim || undefined, undefined, options);
  }
  return Dataset.synthetic();
}

const started = () => { if (!run) throw new Error('the live run has not started: press Reset'); };

serve({
  async init(msg) {
    await ready;
    if (run) { run.free(); run = null; }
    if (dataset) { dataset.free(); dataset = null; }
    const t0 = performance.now();
    dataset = makeDataset(msg);
    const params = validateParams(msg.params);
    run = new OnlineRun(dataset, params, msg.policies, msg.arrival || undefined);
    const ev2 = dataset.dim === 2 ? null : Array.from(dataset.explainedVariance());
    return {
      universe: run.universe(), policies: run.policies, actingSymbols: run.actingSymbols, horizon: run.horizon,
      oracleLoss: run.oracleLoss, noCacheLoss: run.noCacheLoss, dim: dataset.dim, size: dataset.size, explained: ev2, checksum: dataset.checksum,
      // SPEC §14: why this data has no ground truth (null when it has): the error-rate counter's "—".
      noGroundTruth: dataset.info().no_ground_truth ?? null,
      initMs: performance.now() - t0, arrival: msg.arrival || null, ...snapshot(dataset.dim === 2 ? msg.heatN : 0),
    };
  },
  step(msg) {
    started();
    const t0 = performance.now();
    const batch = run.step(msg.n);
    const stepMs = performance.now() - t0;
    const t1 = performance.now();
    const snap = snapshot(msg.heatN || 0);
    return { batch, stepMs, heatMs: msg.heatN ? performance.now() - t1 : 0, ...snap };
  },
  /** A typed question as the next arrival (views/ask.js): the round, and what explains it. */
  ask(msg) {
    started();
    const batch = run.ask(msg.x, msg.tokens, msg.text);
    const snap = snapshot(0);
    const text = (k) => (k >= 0 ? run.roundText(k) : undefined);
    const ask = { centerText: [], centerCount: [], nearestText: [], founded: [], beforeText: [], insertedText: [], removedText: [] };
    snap.centers.forEach((cs, p) => {
      const c = batch.center[p];
      const has = c >= 0 && c < cs.keys.length;
      ask.centerText.push(has ? text(cs.keys[c]) : undefined);
      ask.centerCount.push(has ? cs.count[c] : NaN);
      ask.founded.push(has && cs.keys[c] === batch.t[0]);
      ask.nearestText.push(text(batch.nearestKey[p]));
      ask.beforeText.push(text(batch.beforeKey[p]));
      ask.insertedText.push([...batch.inserted[p]].map(text));
      ask.removedText.push([...batch.removed[p]].map(text));
    });
    return { batch, ask, stepMs: 0, heatMs: 0, ...snap };
  },
  /** The questions and gold answers (SPEC §14) of played rounds, for hovering a center or an
   *  arrival (views/live-panel.js). */
  text({ rounds }) {
    started();
    return { texts: rounds.map((r) => run.roundText(r) ?? null), answers: rounds.map((r) => run.roundAnswers(r) ?? null) };
  },
  results() { started(); return JSON.stringify(run.results(), null, 1); },
  trace() { started(); return run.traceJson(); },
}, { trappedSays: (m) => `the engine stopped (${m}); press Reset to start it again` });
