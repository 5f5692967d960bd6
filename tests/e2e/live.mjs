// End-to-end test of the live view as a reader meets it, in headless Chromium on www/ (the
// engine's package built by scripts/wasm.sh):
// - "why this round" under each panel says what the engine's events of that round were: the first
//   rounds one at a time (round 0 of CLCB-SC-LS-Cont by hand: a new center, the switch that
//   caches it, the LLM called because the prior c̲ < 0 = φ(0)), then a batch's last round, each
//   against the same run replayed in node with the same package (OnlineRun.step's events);
// - each panel's running chart ends where its counters stand, with the no-cache line at
//   L(∅) − L(M_orc) as the engine computes it;
// - four policies side by side (p3, p4 in the link), and back to three;
// - nq-trivia at T = 5,000 (the first 2,500 questions of each source of the shared data, served
//   as the page's bundle from a temporary folder): older arrivals become the density, and the
//   hover on a wrong hit shows both questions, both gold answers and says wrong;
// - what the view writes about the run is the engine's: each canvas's caption (what the picture
//   is: on 384-d data the PCA's kept variance, as the dataset measures it), wrapped to the canvas
//   at 1440, 768 and 390 px; the counters labelled by the engine's metric list, costs per round
//   as their neighbours (the realised cost per round equals the engine's); a center's details
//   name the run's k (the engine's cache rule), never the symbol;
// - while playing, the toolbar shows the run's rounds per second (its value is not checked).
// Screenshots of 2 and 4 panels at 1440 and 390 px, and nq-trivia at 1440, 768 and 390 px, go to
// artifacts/. No console error.
//   CSC_DATA=/work/shared/data node tests/e2e/live.mjs
import { existsSync, mkdtempSync, writeFileSync, readFileSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, NQ_FILES, SHARED_DATA } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
const artifacts = path.join(root, 'artifacts');
const data = SHARED_DATA;
if (!existsSync(path.join(www, 'pkg', 'csc.js'))) { console.error('www/pkg is missing: build it first (bash scripts/wasm.sh)'); process.exit(1); }
const NQ = NQ_FILES;
for (const f of NQ) if (!existsSync(path.join(data, f))) { console.error(`${data}/${f} is missing: set CSC_DATA to the shared data`); process.exit(1); }
mkdirSync(artifacts, { recursive: true });

// The page's nq-trivia bundle (scripts/dist.sh's data/ with its manifest), cut to PER questions of
// each source, in a temporary folder: the data is never copied into the repository.
const PER = 2500, DIM = 384; // the page reads 2,500 questions of each source (scripts/dist.sh)
const tmp = mkdtempSync(path.join(os.tmpdir(), 'csc-live-'));
const head = (f, n) => readFileSync(path.join(data, f), 'utf8').split('\n').slice(0, n).join('\n') + '\n';
const extra = {};
for (const f of NQ) {
  const out = path.join(tmp, f);
  if (f.endsWith('.f32')) writeFileSync(out, readFileSync(path.join(data, f)).subarray(0, PER * DIM * 4));
  else writeFileSync(out, head(f, PER));
  extra[`/data/${f}`] = out;
}
const sizes = Object.fromEntries(NQ.map((f) => [f, readFileSync(extra[`/data/${f}`]).length]));
writeFileSync(path.join(tmp, 'manifest.json'), JSON.stringify({ kind: 'nq-trivia', perSource: PER, dim: DIM, encoding: 'f32', files: NQ.slice(0, 4), answers: NQ.slice(4), bytes: sizes }));
extra['/data/manifest.json'] = path.join(tmp, 'manifest.json');

// The same package in node: the engine's own account of a run the page plays.
const csc = await import(pathToFileURL(path.join(www, 'pkg', 'csc.js')).href);
csc.initSync({ module: readFileSync(path.join(www, 'pkg', 'csc_bg.wasm')) });
csc.provideSynthetic(new Uint8Array(readFileSync(path.join(www, 'pkg', 'synthetic.emb.f32'))));
/** What the page's line must name for the engine's typed events `evs` of a round that called
 *  the LLM or not (in the order the paper's algorithms run a round). */
function expectedParts(evs, llm) {
  const kinds = new Set(evs.map((e) => e.kind));
  const parts = [];
  if (kinds.has('new-center')) parts.push('new-center');
  if (kinds.has('local-stages') || kinds.has('global-stage')) parts.push('stage');
  if (kinds.has('switch')) parts.push('swap');
  if (kinds.has('rebuilt')) parts.push('rebuilt');
  parts.push(llm ? 'llm' : 'hit');
  return parts.join(' ');
}
const eventsAt = (frame, i) => frame.events.filter((e) => e.at === i).map((e) => e.event);

const { server, origin } = await serveStatic(www, extra);
const { check, done } = checks();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const errors = [];
async function open(query, viewport = { width: 1440, height: 1000 }) {
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${origin}/${query}`);
  await waitFor(page, () => /^(Ready|Error)/.test(document.getElementById('status').textContent), null, { timeout: 300000 });
  const status = await page.textContent('#status');
  assert(/^Ready/.test(status), status);
  return page;
}
const rounds = (page) => page.evaluate(() => Number(document.body.dataset.round));
/** Each shown panel's canvas caption and its wrapped lines, [text, width, room] (CSS px). */
const captions = (page) => page.$$eval('.panels figure.live:not([hidden])', (fs) => fs.map((f) => ({ caption: f.dataset.caption, lines: JSON.parse(f.dataset.captionLines || '[]') })));
/** Every panel's caption is `want`, whole, on lines no wider than the canvas leaves them. */
async function captionFits(page, want, where) {
  const got = await captions(page);
  assert(got.length >= 2, `${where}: ${got.length} panels`);
  for (const [i, c] of got.entries()) {
    assert(c.caption === want, `${where}, panel ${i}: the canvas says “${c.caption}”, the engine “${want}”`);
    assert(c.lines.map(([l]) => l).join(' ') === want, `${where}, panel ${i}: the lines drop words: ${JSON.stringify(c.lines)}`);
    for (const [l, w, room] of c.lines) assert(w <= room || !l.includes(' '), `${where}, panel ${i}: “${l}” is ${w} px wide, the canvas leaves ${room}`);
  }
}
/** Nothing is wider than the window (no horizontal scrolling, nothing cut at the right). */
async function fitsWidth(page, where) {
  const { scroll, width, wide } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, width: window.innerWidth,
    wide: [...document.querySelectorAll('#view-live *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && e.getClientRects().length).map((e) => e.id || e.className || e.tagName).slice(0, 5),
  }));
  assert(scroll <= width && !wide.length, `${where}: the page is ${scroll} px wide in a ${width} px window; past the edge: ${wide.join(', ')}`);
}
const why = (page, p) => page.evaluate((p) => { const e = document.querySelector(`#panel-${p} .why`); return { round: Number(e.dataset.round), parts: e.dataset.parts, text: e.textContent }; }, p);
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

const QUERY = '?horizon=300&n_eval=300&seed=4';
const ids = ['clcb-sc-ls-cont', 'greedy'];
let page;
await check('why this round: the first rounds one at a time and a batch\'s last round say what the engine\'s events were', async () => {
  page = await open(QUERY);
  const { state } = csc.decodeUrlState(QUERY);
  const ds = csc.Dataset.synthetic();
  const run = new csc.OnlineRun(ds, csc.validateParams(state.params), ids);
  const compare = async (b, r) => {
    for (let p = 0; p < ids.length; p++) {
      const i = r * ids.length + p, w = await why(page, p);
      assert(w.round === b.t[r], `panel ${p}: the line is of round ${w.round}, the engine played ${b.t[r]}`);
      const evs = eventsAt(b, i), want = expectedParts(evs, b.llm[i] === 1);
      assert(w.parts === want, `panel ${p} round ${b.t[r]}: the line names “${w.parts}”, the engine's events are “${want}”: ${w.text}`);
      assert(w.text.includes(`φ(d = ${Number.isFinite(b.d[i]) ? b.d[i].toFixed(3) : '∞'}) = ${b.phi[i].toFixed(3)}`), `panel ${p} round ${b.t[r]}: d and φ differ from the engine's: ${w.text}`);
      for (const e of evs) if (e.kind === 'switch') for (const k of e.inserted) assert(w.text.includes(String(k)), `inserted ${k} not named: ${w.text}`);
    }
  };
  for (let r = 0; r < 4; r++) {
    await page.click('#step-one');
    await waitFor(page, (n) => Number(document.body.dataset.round) === n, r + 1);
    const b = run.step(1);
    await compare(b, 0);
    if (r === 0) {
      // By hand (Algs. 3–5): the empty net makes x_0 center #0; the switch caches it; the prior
      // LCB −B·σ < 0 = φ(d(x_0, {x_0})) = φ(0), so the LLM is called.
      const w = await why(page, 0);
      assert(w.parts === 'new-center swap llm', w.parts);
      assert(/^Round 0: new ε-net center #0 \(Alg\. 3 l\. 5–11\); switch \(Alg\. 4 l\. 17–18\): in the answer of round 0; c̲ = -[\d.]+ ≤ φ\(d = 0\.000\) = 0\.000: sent to the LLM \(Alg\. 5 l\. 4–6\)\.$/.test(w.text), w.text);
    }
  }
  await page.click('#step');
  await waitFor(page, () => Number(document.body.dataset.round) === 104);
  const b = run.step(100);
  await compare(b, b.t.length - 1);
  // The charts end where the counters stand; the no-cache line is the engine's L(∅) − L(M_orc).
  for (let p = 0; p < ids.length; p++) {
    const got = await page.evaluate((p) => {
      const c = document.querySelector(`#panel-${p} canvas.running-chart`).dataset;
      const v = (k) => Number(document.querySelector(`#panel-${p} [data-counter=${k}]`).dataset.value);
      return { t: Number(c.lastT), regret: Number(c.lastRegret), hit: Number(c.lastHit), noCache: Number(c.noCache), round: v('round'), cRegret: v('regret'), cHit: v('hit') };
    }, p);
    assert(got.t === got.round && got.t === 104, `panel ${p}: the chart ends at ${got.t}, the counters at ${got.round}`);
    assert(got.regret === got.cRegret && got.hit === got.cHit, `panel ${p}: chart ${got.regret}, ${got.hit} vs counters ${got.cRegret}, ${got.cHit}`);
    const c = run.counters()[p];
    assert(Math.abs(c.avg_regret - got.regret) < 1e-12 && Math.abs(c.hit_rate - got.hit) < 1e-12, `panel ${p}: the page's chart differs from the engine's counters`);
    assert(Math.abs(got.noCache - (run.noCacheLoss - run.oracleLoss)) < 1e-12, `no-cache line ${got.noCache}`);
  }
  // The counters: labelled by the engine's metric list; the realised cost per round, as its
  // neighbours (the regret and its parts) are, equal to the engine's.
  const names = new Map(csc.metrics().map((m) => [m.id, m.name]));
  const counters = run.counters();
  for (let p = 0; p < ids.length; p++) {
    const got = await page.evaluate((p) => [...document.querySelectorAll(`#panel-${p} .counters div`)].map((d) => ({ label: d.querySelector('dt').textContent, counter: d.querySelector('dd').dataset.counter, text: d.querySelector('dd').textContent, value: Number(d.querySelector('dd').dataset.value) })), p);
    const want = { hit: 'hit_rate', cost: 'avg_realised_cost', switches: 'switches', regret: 'avg_regret', gap: 'avg_loss_gap', switchcost: 'avg_switch_cost', error: 'error_rate' };
    for (const c of got) {
      if (c.counter === 'round') continue;
      assert(c.label === names.get(want[c.counter]), `panel ${p}: the counter “${c.label}” is not the engine's “${names.get(want[c.counter])}”`);
    }
    const cost = got.find((c) => c.counter === 'cost');
    assert(cost.label === 'realised cost per round', `panel ${p}: ${cost.label}`);
    assert(Math.abs(cost.value - counters[p].avg_realised_cost) < 1e-12 && cost.text === counters[p].avg_realised_cost.toFixed(4), `panel ${p}: realised cost per round ${cost.text} (${cost.value}), the engine's ${counters[p].avg_realised_cost}`);
  }
  // The caption: what the picture is, the engine's words with the variance the projection keeps.
  const ev = ds.explainedVariance();
  assert(run.caption === `2-D PCA of ${ds.dim}-d embeddings: keeps ${Math.round(100 * (ev[0] + ev[1]))}% of the variance; nearby points here may be far apart`, run.caption);
  await captionFits(page, run.caption, 'synthetic at 1440 px');
  // A center left out of the cache says why, with the run's k.
  const k = csc.validateParams(state.params).k;
  await page.focus('#panel-0 .canvas-wrap canvas');
  let tip = '';
  for (let j = 0; j < 200 && !/cached: no/.test(tip); j++) {
    await page.keyboard.press('ArrowRight');
    tip = await page.textContent('#tip-0');
  }
  assert(/cached: no/.test(tip), `no center left out of the cache: ${tip}`);
  assert(tip.includes(`cached: no — ${run.cacheRules[0]}`) && run.cacheRules[0].endsWith(`kept ${k} others`), `the tip says “${tip}”, the engine “${run.cacheRules[0]}” (k = ${k})`);
  assert(!/\bk others\b/.test(tip), tip);
  await page.keyboard.press('Escape');
  await shot(page, 'live-2-panels-1440');
  await page.setViewportSize({ width: 390, height: 900 });
  await page.waitForTimeout(300);
  await captionFits(page, run.caption, 'synthetic at 390 px');
  await fitsWidth(page, 'synthetic at 390 px');
  await shot(page, 'live-2-panels-390');
  run.free(); ds.free();
});

// The page makes at most one engine call per animation frame while it plays: every step request
// (one per frame at most, counted at Worker.postMessage against the frame's timestamp) is
// answered by exactly one call into the engine's OnlineRun (every method and getter of it
// wrapped in the worker, through a module loaded before worker.js), and a playing run makes
// no other call.
await check('while playing, one engine call per animation frame', async () => {
  const counter = path.join(tmp, 'engine-count.js');
  writeFileSync(counter, [
    "import { OnlineRun } from '../pkg/csc.js';",
    'self.__engineCalls = [];',
    'const proto = OnlineRun.prototype;',
    'for (const name of Object.getOwnPropertyNames(proto)) {',
    "  if (['constructor', 'free', '__destroy_into_raw'].includes(name)) continue;",
    '  const d = Object.getOwnPropertyDescriptor(proto, name);',
    "  if (typeof d.value === 'function') { const f = d.value; proto[name] = function (...a) { self.__engineCalls.push(name); return f.apply(this, a); }; }",
    '  else if (d.get) { const g = d.get; Object.defineProperty(proto, name, { ...d, get() { self.__engineCalls.push(name); return g.call(this); } }); }',
    '}',
  ].join('\n'));
  const wrapper = path.join(tmp, 'worker-counted.js');
  writeFileSync(wrapper, "import './engine-count.js';\nimport './worker-real.js';\n");
  const srv = await serveStatic(www, { '/js/worker.js': wrapper, '/js/engine-count.js': counter, '/js/worker-real.js': path.join(www, 'js', 'worker.js') });
  const p = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__frameTs = -1; w.__frames = new Set(); w.__posts = [];
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (cb) => raf((ts) => { w.__frameTs = ts; w.__frames.add(ts); cb(ts); });
    // Only the live view's worker (js/worker.js) counts: the page's other workers (the
    // determinism check, job pools) are not the live run's engine.
    const W = window.Worker;
    window.Worker = class extends W { constructor(url, opts) { super(url, opts); this.__live = /\/js\/worker\.js/.test(String(url)); } };
    const post = W.prototype.postMessage;
    W.prototype.postMessage = function (msg, ...rest) { if (this.__live) w.__posts.push({ ts: w.__frameTs, type: msg && msg.type, n: msg && msg.payload && msg.payload.n }); return post.call(this, msg, ...rest); };
  });
  await p.goto(`${srv.origin}/${QUERY}&speed=3`);
  await waitFor(p, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 120000 });
  const worker = p.workers().find((w) => /\/js\/worker\.js/.test(w.url()));
  assert(worker, `the engine's worker: ${p.workers().map((w) => w.url())}`);
  await worker.evaluate(() => { self.__engineCalls.length = 0; });
  await p.evaluate(() => { const w = /** @type {any} */ (window); w.__posts.length = 0; w.__frames.clear(); });
  assert(await p.evaluate(() => document.body.dataset.liveMode) === 'paused', 'ready and paused');
  await p.click('#play');
  assert(await p.evaluate(() => document.body.dataset.liveMode) === 'playing', 'playing');
  // The pace, measured by the page over wall time (its value depends on the machine).
  await waitFor(p, () => /^[\d,]+ rounds\/s$/.test(document.getElementById('live-pace').textContent), null, { timeout: 30000 });
  await waitFor(p, () => Number(document.body.dataset.round) >= 90, null, { timeout: 60000 });
  await p.click('#play');
  await waitFor(p, () => document.body.dataset.liveMode === 'paused');
  assert(await p.textContent('#live-pace') === '', 'a paused run shows no pace');
  await p.waitForTimeout(500); // the last reply lands
  const { posts, frames, round } = await p.evaluate(() => {
    const w = /** @type {any} */ (window);
    return { posts: w.__posts, frames: w.__frames.size, round: Number(document.body.dataset.round) };
  });
  const calls = await worker.evaluate(() => self.__engineCalls.slice());
  const steps = posts.filter((m) => m.type === 'step');
  assert(steps.length >= 10 && steps.length === posts.length, `requests while playing: ${steps.length} steps of ${posts.length}; the others: ${JSON.stringify(posts.filter((m) => m.type !== 'step').slice(0, 5))}`);
  const perFrame = new Map();
  for (const m of steps) perFrame.set(m.ts, (perFrame.get(m.ts) || 0) + 1);
  assert([...perFrame.values()].every((n) => n === 1), `a frame sent two requests: ${JSON.stringify([...perFrame].filter(([, n]) => n > 1))}`);
  assert(steps.length <= frames, `${steps.length} requests in ${frames} frames`);
  assert(calls.length === steps.length && calls.every((c) => c === 'step'), `engine calls while playing: ${calls.length} for ${steps.length} requests: ${[...new Set(calls)].join(', ')}`);
  assert(steps.reduce((a, m) => a + m.n, 0) === round, `the requests played ${round} rounds`);
  console.log(`     ${steps.length} requests, ${calls.length} engine calls, ${frames} frames, ${round} rounds`);
  await p.close();
  srv.server.close();
});

await check('four policies side by side (p3, p4), each with its counters, line and chart; p4 = none leaves three', async () => {
  await page.close();
  page = await open(`${QUERY}&p3=lfu&p4=clcb-sc-ls`);
  const names = await page.$$eval('.panels figure.live', (f) => f.map((e) => ({ hidden: e.hidden, name: e.querySelector('h2').textContent })));
  assert(names.every((n) => !n.hidden) && names.length === 4, JSON.stringify(names));
  assert(/LFU/.test(names[2].name) && /CLCB-SC-LS$/.test(names[3].name.trim()), JSON.stringify(names));
  assert(await page.inputValue('#p3') === 'lfu' && await page.inputValue('#p4') === 'clcb-sc-ls', 'selects');
  await page.click('#step');
  await waitFor(page, () => Number(document.body.dataset.round) === 100);
  for (let p = 0; p < 4; p++) {
    const w = await why(page, p);
    assert(w.round === 99 && /^Round 99: /.test(w.text), `panel ${p}: ${w.text}`);
    const t = await page.evaluate((p) => Number(document.querySelector(`#panel-${p} [data-counter=round]`).dataset.value), p);
    assert(t === 100, `panel ${p} counters at ${t}`);
  }
  await page.waitForTimeout(300);
  await shot(page, 'live-4-panels-1440');
  await page.setViewportSize({ width: 390, height: 900 });
  await page.waitForTimeout(300);
  await shot(page, 'live-4-panels-390');
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.selectOption('#p4', '');
  await waitFor(page, () => /^Ready/.test(document.getElementById('status').textContent));
  assert(!/p4=/.test(page.url()) && /p3=lfu/.test(page.url()), page.url());
  assert(await page.isHidden('#panel-3') && await page.isVisible('#panel-2'), 'three panels');
});

await check('nq-trivia at T = 5,000: older arrivals become a density; the hover on a wrong hit shows both questions and gold answers', async () => {
  await page.close();
  // A third panel: the threshold cache at cosine 0.3 (more generous than GPTCache's 0.6, SPEC
  // §15) serves near questions freely, so some of its answers are wrong (about 5 %).
  page = await open('?dataset=nq-trivia&horizon=5000&speed=400&p3=threshold&threshold_cosine=0.3');
  await page.click('#play');
  await waitFor(page, () => /^Done/.test(document.getElementById('status').textContent), null, { timeout: 600000 });
  await page.waitForTimeout(300);
  for (let p = 0; p < 3; p++) {
    const d = await page.evaluate((p) => ({ ...document.getElementById(`panel-${p}`).dataset }), p);
    assert(Number(d.trail) + Number(d.density) === 5000, `panel ${p}: ${d.trail} in the trail + ${d.density} in the density ≠ 5000`);
  }
  // The caption: 2-D PCA of the 384-d embeddings, with the variance it keeps as the engine
  // measures it on the same files.
  const nq = csc.Dataset.nqTrivia(readFileSync(extra['/data/nq.jsonl'], 'utf8'), new Uint8Array(readFileSync(extra['/data/nq.emb.f32'])),
    readFileSync(extra['/data/triviaqa.jsonl'], 'utf8'), new Uint8Array(readFileSync(extra['/data/triviaqa.emb.f32'])));
  const ev = nq.explainedVariance(), kept = Math.round(100 * (ev[0] + ev[1]));
  nq.free();
  const want = `2-D PCA of ${DIM}-d embeddings: keeps ${kept}% of the variance; nearby points here may be far apart`;
  console.log(`     nq-trivia: ${want}`);
  await captionFits(page, want, 'nq-trivia at 1440 px');
  await fitsWidth(page, 'nq-trivia at 1440 px');
  await shot(page, 'live-nq-trivia-5000-1440');
  for (const width of [768, 390]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.waitForTimeout(400);
    await captionFits(page, want, `nq-trivia at ${width} px`);
    await fitsWidth(page, `nq-trivia at ${width} px`);
    await shot(page, `live-nq-trivia-5000-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.waitForTimeout(400);
  let shown = null;
  for (let p = 2; p >= 0 && !shown; p--) {
    const at = await page.evaluate((p) => JSON.parse(document.getElementById(`panel-${p}`).dataset.wrongAt || '[]'), p);
    const box = await page.locator(`#panel-${p} .canvas-wrap canvas`).boundingBox();
    for (const [x, y, t, served] of at) {
      await page.mouse.move(box.x + x, box.y + y);
      await waitFor(page, (p) => /its gold answer|^arrival/.test(document.querySelector(`#panel-${p} .tip`).textContent), p, { timeout: 5000 }).catch(() => {});
      await page.waitForTimeout(400);
      const tip = await page.textContent(`#panel-${p} .tip`);
      if (tip.startsWith(`arrival of round ${t}\n`) && tip.includes('its gold answer')) { shown = { tip, t, served }; break; }
    }
  }
  assert(shown, 'no wrong hit could be hovered');
  const { tip, t, served } = shown;
  const lines = tip.split('\n');
  assert(/^“.+”$/.test(lines[1]), `the arrival's question: ${tip}`);
  const mine = lines.find((l) => l.startsWith('gold answer: ')), theirs = lines.find((l) => l.startsWith('its gold answer: '));
  assert(mine && theirs && mine.slice(13) !== theirs.slice(17), `both gold answers, different: ${tip}`);
  assert(lines.some((l) => l.startsWith(`served the answer cached from round ${served}: “`)), `the cached question: ${tip}`);
  assert(tip.includes('wrong: the gold answers differ') && tip.includes('a wrong answer'), tip);
  console.log(`     round ${t}, served round ${served}:\n       ${lines.join('\n       ')}`);
  await page.screenshot({ path: path.join(artifacts, 'live-nq-trivia-wrong-hit.png') });
});

await check('no console error', async () => { assert(!errors.length, errors.join(' | ')); });

// The one failure path of rpc.js: a worker that dies while a request waits (an error thrown
// outside any handler) gives one plain message, and Reset starts a fresh worker that plays.
await check('a worker that crashes mid-run: the live view says so in one message, and Reset plays again', async () => {
  const crash = path.join(tmp, 'worker-crash.js');
  writeFileSync(crash, [
    "import './worker-real.js';",
    "self.addEventListener('message', (e) => { if (e.data && e.data.type === 'step' && e.data.payload.n === 100) setTimeout(() => { throw new Error('the worker crashed on purpose'); }); });",
  ].join('\n'));
  const srv = await serveStatic(www, { '/js/worker.js': crash, '/js/worker-real.js': path.join(www, 'js', 'worker.js') });
  const p = await browser.newPage();
  const workers = [];
  p.on('worker', (w) => { const rec = { url: w.url(), closed: false }; workers.push(rec); w.on('close', () => { rec.closed = true; }); });
  await p.goto(`${srv.origin}/${QUERY}`);
  await waitFor(p, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 120000 });
  await p.click('#step');
  await waitFor(p, () => /^Error: the engine's worker failed: .*crashed on purpose/.test(document.getElementById('status').textContent));
  await p.waitForTimeout(300);
  const live = workers.filter((w) => /\/worker\.js/.test(w.url));
  assert(live.length === 1 && live[0].closed, `the crashed worker is stopped: ${JSON.stringify(live)}`);
  await p.click('#reset');
  await waitFor(p, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 120000 });
  await p.click('#step-one');
  await waitFor(p, () => Number(document.body.dataset.round) === 1);
  await p.close();
  srv.server.close();
});
await browser.close();
server.close();
rmSync(tmp, { recursive: true, force: true });
done();
