// @ts-check
// Runs the engine's live run (csc::live::LiveRun, as OnlineRun) off the main thread, through the
// page's one request/reply protocol (rpc.js): `init` builds it, `step` and `ask` play rounds and
// send back the engine's frame (OnlineRun.step: the rounds with their decisions and typed events,
// counters, the new curve points, centers, the plane's KRR heatmap when asked for) — one engine
// call per step request, so one per animation frame while the page plays; `text` the questions
// and gold answers of played rounds, `results` and `trace` the exports. A trapped instance answers with what to do and this worker closes: the
// page starts a fresh one on Reset.
import init, { Dataset, OnlineRun, policies, validateParams, provideSynthetic } from '../pkg/csc.js';
import { makeDataset } from './make-dataset.js';
import { startPageEngine, serve } from './rpc.js';

// the page's compiled engine (engine.js), else fetched here
const ready = startPageEngine(init, provideSynthetic);
ready.catch(() => {}); // reported, as the failed reply, to each request below
let run = null;
let dataset = null;

const started = () => { if (!run) throw new Error('the live run has not started: press Reset'); };

serve({
  async init(msg) {
    await ready;
    if (run) { run.free(); run = null; }
    if (dataset) { dataset.free(); dataset = null; }
    const t0 = performance.now();
    dataset = makeDataset(Dataset, msg);
    const params = validateParams(msg.params);
    run = new OnlineRun(dataset, params, msg.policies, msg.arrival || undefined);
    // The catalog entries of the run's policies (family, where each explained step is defined).
    const catalog = policies();
    const entries = msg.policies.map((id) => catalog.find((p) => p.id === id));
    return {
      universe: run.universe(), policies: run.policies, entries, actingSymbols: run.actingSymbols, horizon: run.horizon,
      oracleLoss: run.oracleLoss, noCacheLoss: run.noCacheLoss, dim: dataset.dim, size: dataset.size, checksum: dataset.checksum,
      // What the picture is (its projection's kept variance) and each policy's cache rule with the run's k: the engine's words.
      caption: run.caption, cacheRules: run.cacheRules,
      // SPEC §14: why this data has no ground truth (null when it has): the error-rate counter's "—".
      noGroundTruth: dataset.info().no_ground_truth ?? null,
      initMs: performance.now() - t0, arrival: msg.arrival || null, frame: run.step(0, dataset.dim === 2 ? msg.heatN : 0),
    };
  },
  /** One frame: `n` more rounds, with the KRR surface at `heatN` when it is due (one engine call). */
  step(msg) {
    started();
    const t0 = performance.now();
    const frame = run.step(msg.n, msg.heatN || 0);
    return { frame, heatMs: msg.heatN ? performance.now() - t0 : 0 };
  },
  /** A typed question as the next arrival (views/ask.js): the round, and what explains it. */
  ask(msg) {
    started();
    const frame = run.ask(msg.x, msg.tokens, msg.text);
    const text = (k) => (k >= 0 ? run.roundText(k) : undefined);
    const ask = { centerText: [], centerCount: [], nearestText: [], founded: [], beforeText: [], inserted: [], removed: [], insertedText: [], removedText: [] };
    frame.centers.forEach((cs, p) => {
      const c = frame.center[p];
      const has = c >= 0 && c < cs.keys.length;
      const swap = frame.events.find((e) => e.at === p && e.event.kind === 'switch')?.event;
      ask.centerText.push(has ? text(cs.keys[c]) : undefined);
      ask.centerCount.push(has ? cs.count[c] : NaN);
      ask.founded.push(frame.events.some((e) => e.at === p && e.event.kind === 'new-center'));
      ask.nearestText.push(text(frame.nearestKey[p]));
      ask.beforeText.push(text(frame.beforeKey[p]));
      const ins = swap && swap.kind === 'switch' ? swap.inserted : [], out = swap && swap.kind === 'switch' ? swap.removed : [];
      ask.inserted.push(ins); ask.removed.push(out);
      ask.insertedText.push(ins.map(text)); ask.removedText.push(out.map(text));
    });
    return { frame, ask, heatMs: 0 };
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
