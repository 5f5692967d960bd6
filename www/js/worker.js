// Runs the engine off the main thread: holds one OnlineRun, plays batches on request and sends
// back what the views draw (arrivals, counters, centers, curves, the plane's KRR heatmap). Every
// failure is replied as an `error` message carrying the request's `gen` and `id` (the engine
// failing to start included); one from a trapped instance says so (`trapped`), and this worker
// then closes: the page starts a fresh one.
import init, { Dataset, OnlineRun, validateParams } from '../pkg/csc.js';
import { answersOption } from './nq-trivia.js';

const ready = init();
ready.catch(() => {}); // reported, as an `error` reply, to each request below
let run = null;
let dataset = null;
let gen = 0;

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

self.onmessage = async (ev) => {
  const msg = ev.data;
  try {
    await ready;
    if (msg.type === 'init') {
      gen = msg.gen;
      if (run) { run.free(); run = null; }
      if (dataset) { dataset.free(); dataset = null; }
      const t0 = performance.now();
      dataset = makeDataset(msg);
      const params = validateParams(msg.params);
      run = new OnlineRun(dataset, params, msg.policies, msg.arrival || undefined);
      const ev2 = dataset.dim === 2 ? null : Array.from(dataset.explainedVariance());
      self.postMessage({
        type: 'ready', gen, universe: run.universe(), policies: run.policies, horizon: run.horizon,
        oracleLoss: run.oracleLoss, dim: dataset.dim, size: dataset.size, explained: ev2, checksum: dataset.checksum,
        // SPEC §14: why this data has no ground truth (null when it has): the error-rate counter's "—".
        noGroundTruth: dataset.info().no_ground_truth ?? null,
        initMs: performance.now() - t0, arrival: msg.arrival || null, ...snapshot(dataset.dim === 2 ? msg.heatN : 0),
      });
    } else if (msg.type === 'step') {
      if (!run || msg.gen !== gen) return;
      const t0 = performance.now();
      const batch = run.step(msg.n);
      const stepMs = performance.now() - t0;
      const t1 = performance.now();
      const snap = snapshot(msg.heatN || 0);
      self.postMessage({ type: 'batch', gen, batch, stepMs, heatMs: msg.heatN ? performance.now() - t1 : 0, ...snap });
    } else if (msg.type === 'ask') {
      // A typed question as the next arrival (views/ask.js): the round, and what explains it.
      if (!run || msg.gen !== gen) return;
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
      self.postMessage({ type: 'batch', gen, batch, ask, stepMs: 0, heatMs: 0, ...snap });
    } else if (msg.type === 'text') {
      // The question of played rounds, for hovering a center or an arrival (views/live-panel.js).
      if (!run) return;
      const texts = msg.rounds.map((r) => run.roundText(r) ?? null);
      self.postMessage({ type: 'text', id: msg.id, texts });
    } else if (msg.type === 'results') {
      if (!run) return;
      self.postMessage({ type: 'results', id: msg.id, json: JSON.stringify(run.results(), null, 1) });
    } else if (msg.type === 'trace') {
      if (!run) return;
      self.postMessage({ type: 'trace', id: msg.id, json: run.traceJson() });
    }
  } catch (e) {
    const trapped = e instanceof WebAssembly.RuntimeError;
    const message = String(e && e.message ? e.message : e);
    self.postMessage({ type: 'error', gen: msg.gen ?? gen, id: msg.id, trapped, message: trapped ? `the engine stopped (${message}); press Reset to start it again` : message });
    if (trapped) self.close();
  }
};
