// Long-run check: a 10⁶-round `OnlineRun` in a Web Worker of the served page, stepped in
// chunks, measuring the worker's WebAssembly memory (`init()` returns the module's exports, whose
// `memory.buffer.byteLength` is the linear memory's size; it only ever grows, so it is the high-water
// mark) after 10⁵ and 10⁶ rounds, while the page's main thread keeps answering.
//
// The data are a small user-style dataset (50 prompts, 8-dimensional unit-norm embeddings) played
// with `popularity` arrivals (exact rows, as nq-trivia's are; the jittered `uniform` model makes
// every one of 10⁶ arrivals a distinct candidate of the evaluation oracle), not `synthetic`:
// the stream is held in memory at ~(4·dim + 32) bytes per round and a live run is refused above
// 1 GiB, which 384-dimensional `synthetic` exceeds at 10⁶ rounds (≈ 1.57 GB; its limit is ≈ 680k
// rounds); the continuous 2-D `plane` fits but its oracle set-up grows faster than T (≈ 25 s at
// 10⁵ rounds). Kernel policies cannot go to 10⁶ rounds at all (their Cholesky factor grows by
// ~4·ℓ² bytes with the ℓ-th LLM call), so the run uses `greedy` and `lfu`, bounded by design.
//
// The worker's source is served by the test server at LONG_RUN_WORKER (www/ has no test code, and
// the page's CSP allows only same-origin workers, not blob: ones).

export const LONG_RUN_WORKER = '/__e2e__/long-run-worker.js';

export const LONG_RUN_WORKER_SOURCE = `
import init, { Dataset, OnlineRun } from '/pkg/csc.js';
self.onmessage = async ({ data: m }) => {
  let ds = null, run = null;
  try {
    const wasm = await init();
    const mem = () => wasm.memory.buffer.byteLength;
    const memStart = mem();
    const t0 = performance.now();
    ds = Dataset.fromJsonl('long-run', new TextEncoder().encode(m.jsonl));
    run = new OnlineRun(ds, m.params, m.policies, m.arrival);
    const initMs = performance.now() - t0;
    self.postMessage({ type: 'ready', memStart, memInit: mem(), initMs, horizon: run.horizon });
    const t1 = performance.now();
    const stops = (m.milestones || []).slice().sort((a, b) => a - b);
    while (run.round < m.rounds) {
      // Chunks end exactly at each milestone round, so the memory is sampled there.
      const next = stops.find((r) => r > run.round);
      const n = next === undefined ? m.chunk : Math.min(m.chunk, next - run.round);
      const s0 = performance.now();
      const b = run.step(n);
      self.postMessage({ type: 'chunk', round: run.round, played: b.t.length, mem: mem(), stepMs: performance.now() - s0 });
      await new Promise((r) => setTimeout(r, 0)); // let messages through between chunks
    }
    const stepMs = performance.now() - t1;
    self.postMessage({ type: 'done', round: run.round, mem: mem(), stepMs, counters: run.counters() });
  } catch (e) {
    self.postMessage({ type: 'error', message: String(e && e.message ? e.message : e) });
  } finally {
    if (run) run.free();
    if (ds) ds.free();
  }
};
`;

const LONG_RUN_DATA = Array.from({ length: 50 }, (_, i) => JSON.stringify({ text: `q${i}`, tokens: 5 + (i % 7),
  // unit-norm, as sentence embeddings are (the uniform arrival model's σ_e calibration needs it)
  embedding: ((v) => v.map((x) => x / Math.hypot(...v)))(Array.from({ length: 8 }, (_, j) => Math.sin(i * 0.7 + j * 1.3))) })).join('\n');

/** Starts the long run in `page` (a worker), polls it, and checks the main thread answers between
 *  chunks. Returns the figures; throws on a worker error or a timeout. `milestones`: rounds at
 *  which a chunk ends, so that `memAt[r]` is the wasm memory after exactly `r` rounds (the
 *  benchmark, tests/e2e/bench.mjs, samples 10³…10⁶). */
export async function longRun(page, { rounds = 1_000_000, chunk = 50_000, policies = ['greedy', 'lfu'],
  params = { n_eval: 1000, seed: 1 }, timeout = 240000, milestones = [], arrival = { model: 'popularity' } } = {}) {
  const started = Date.now();
  await page.evaluate(({ url, msg }) => {
    const st = { events: [], ticks: 0, maxGapMs: 0, heapStart: performance.memory ? performance.memory.usedJSHeapSize : null };
    window.__longRun = st;
    // Main-thread liveness: a 50 ms interval whose largest gap shows how long the page stalled.
    let last = performance.now();
    st.timer = setInterval(() => { const now = performance.now(); st.maxGapMs = Math.max(st.maxGapMs, now - last); last = now; st.ticks++; }, 50);
    const w = new Worker(url, { type: 'module' });
    st.worker = w;
    w.onmessage = (ev) => { st.events.push(ev.data); if (ev.data.type === 'done' || ev.data.type === 'error') { clearInterval(st.timer); w.terminate(); } };
    w.onerror = (e) => { st.events.push({ type: 'error', message: e.message || 'worker failed to load' }); clearInterval(st.timer); };
    w.postMessage(msg);
  }, { url: LONG_RUN_WORKER, msg: { rounds, chunk, milestones, policies, arrival, jsonl: LONG_RUN_DATA, params: { ...params, horizon: rounds } } });

  const chunks = [];
  let ready = null, done = null, maxEvalMs = 0, answered = 0;
  while (!done) {
    if (Date.now() - started > timeout) throw new Error(`long run timed out after ${timeout} ms at round ${chunks.length ? chunks[chunks.length - 1].round : 0}`);
    await new Promise((r) => setTimeout(r, 250));
    // The page must answer between chunks: a trivial expression, timed from here.
    const e0 = Date.now();
    const { events, two } = await page.evaluate(() => ({ events: window.__longRun.events.splice(0), two: 1 + 1 }));
    maxEvalMs = Math.max(maxEvalMs, Date.now() - e0);
    if (two !== 2) throw new Error('the page did not evaluate 1 + 1');
    answered++;
    for (const ev of events) {
      if (ev.type === 'error') throw new Error(`worker: ${ev.message}`);
      if (ev.type === 'ready') ready = ev;
      if (ev.type === 'chunk') chunks.push(ev);
      if (ev.type === 'done') done = ev;
    }
  }
  const wallMs = Date.now() - started;
  const main = await page.evaluate(() => ({ ticks: window.__longRun.ticks, maxGapMs: window.__longRun.maxGapMs,
    heapStart: window.__longRun.heapStart, heapEnd: performance.memory ? performance.memory.usedJSHeapSize : null }));
  const at = (r) => { const c = chunks.find((c) => c.round >= r); return c ? c.mem : null; };
  const mem1e5 = at(rounds / 10);
  return {
    rounds: done.round, chunk, policies, params, initMs: ready.initMs, stepMs: done.stepMs, wallMs,
    memStart: ready.memStart, memInit: ready.memInit, mem1e5, memEnd: done.mem,
    bytesPerRound: (done.mem - mem1e5) / (done.round - rounds / 10),
    memAt: Object.fromEntries(milestones.map((r) => [r, chunks.find((c) => c.round === r)?.mem ?? null])),
    maxChunkMs: Math.max(...chunks.map((c) => c.stepMs)), chunks: chunks.length,
    answered, maxEvalMs, ...main, counters: done.counters,
  };
}
