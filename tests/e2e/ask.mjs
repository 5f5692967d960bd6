// End-to-end test of "Ask a question" in headless Chromium, on the companion-site
// bundle (dist/ from scripts/dist.sh: the engine, the embedding package pkg-embed/, the model
// in model/ and the nq-trivia data): opens the live view on nq-trivia, types a question and
// checks that it is played as the next round in both panels — the round counter advances by one
// — with, per policy, where it landed (its cell and that center's question, or a new center),
// the nearest cached question with d and φ(d), and the decision with its reason; the five nearest
// universe questions; a center's hover tip with its question. The first load's progress, read as
// it is shown, counts every model file's bytes (the weights too) against their total, the sum of
// the sizes of the model files the page fetched. Then a second visit in the same
// browser profile, whose model comes from Cache Storage (no download), and ten more questions
// for the milliseconds per question, asked twice; then ten on the synthetic data: for all 31,
// every explanation (from the state before the round) predicts the engine's decision. No request may leave the origin, no console error.
// Prints the timings (cold first question, second visit, per question) and "N passed, M failed";
// non-zero on failure.
//   node tests/e2e/ask.mjs
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor as poll } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
for (const f of ['pkg/csc.js', 'pkg-embed/csc_embed.js', 'pkg-embed/csc_embed_bg.wasm', 'model/model.f16.safetensors', 'model/tokenizer.json', 'data/manifest.json']) {
  if (!existsSync(path.join(dist, f))) { console.error(`dist/${f} is missing: build the bundle first (bash scripts/dist.sh)`); process.exit(1); }
}
const { server, origin } = await serveStatic(dist);
const { check, done } = checks();
const waitFor = (target, fn, arg, o = {}) => poll(target, fn, arg, { timeout: 60000, every: 50, ...o });

// A persistent profile, so that the second visit finds the model in Cache Storage.
const profile = mkdtempSync(path.join(os.tmpdir(), 'csc-ask-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu'], viewport: { width: 1280, height: 1000 },
});
const errors = [], foreign = [];
let modelRequests = 0;
/** The model files the page fetched (under model/; its manifest of sizes aside). */
const modelFiles = new Set();
// Worker requests too (the embedding worker fetches the model): watched on the context.
context.on('request', (r) => {
  const u = r.url();
  if (u.includes('/model/model.f16.safetensors')) modelRequests++;
  const file = u.startsWith(`${origin}/model/`) && u.slice(`${origin}/model/`.length).split(/[?#]/)[0];
  if (file && file !== 'manifest.json') modelFiles.add(file);
  if (!u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:')) foreign.push(u);
});
// Every text the Ask status shows, with the progress bar's max and value at that moment.
await context.addInitScript(() => {
  const w = /** @type {any} */ (window);
  w.__askProgress = [];
  addEventListener('DOMContentLoaded', () => {
    const s = document.getElementById('ask-status'), bar = /** @type {HTMLProgressElement} */ (document.getElementById('ask-progress'));
    if (s) new MutationObserver(() => w.__askProgress.push({ text: s.textContent, max: bar.max, value: bar.value })).observe(s, { childList: true, characterData: true, subtree: true });
  });
});
function watch(page) {
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
}

async function open() {
  const page = await context.newPage();
  watch(page);
  await page.goto(`${origin}/?dataset=nq-trivia`);
  await waitFor(page, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 180000 });
  return page;
}

/** Types `text`, clicks Ask, waits for the answer; returns the rounds before/after and timings. */
async function ask(page, text) {
  const before = await page.evaluate(() => Number(document.body.dataset.round));
  await page.evaluate(() => { document.getElementById('ask-out').textContent = ''; });
  const t0 = Date.now();
  await page.fill('#ask-text', text);
  await page.click('#ask-go');
  await waitFor(page, () => /^Round/.test(document.getElementById('ask-out').textContent.trim())
    || /^Could not|^The (live|plane|run)/.test(document.getElementById('ask-status').textContent), null, { timeout: 240000 });
  const status = await page.textContent('#ask-status');
  assert(!/^Could not|^The (live|plane|run)/.test(status), status);
  const d = await page.evaluate(() => ({ ...document.body.dataset }));
  return { before, after: Number(d.round), ms: Date.now() - t0, embedMs: Number(d.askEmbedMs), loadMs: Number(d.askLoadMs || 0), cached: d.askModelCached === 'true', askMs: Number(d.askMs) };
}

let cold, warm, perQ;
let predicted = 0;
/**
 * Every policy line of the last answer: the decision its explanation predicts (acting cost ≤ φ ⇒
 * the LLM, Alg. 5 lines 4–6) equals the engine's; a negative c̲ is explained; a question served
 * or sent with d = 0 says why.
 */
async function checkPredictions(p) {
  const lines = await p.$$eval('.ask-policies li', (li) => li.map((e) => ({ llm: e.dataset.llm, predicted: e.dataset.predictedLlm, text: e.textContent })));
  for (const l of lines) {
    if (l.predicted !== undefined) {
      assert(l.predicted === l.llm, `the explanation predicts llm=${l.predicted}, the engine decided llm=${l.llm}: ${l.text}`);
      predicted++;
    }
    if (/c̲ = -[\d.]+/.test(l.text)) assert(/lower confidence bound/.test(l.text), `a negative c̲ is not explained: ${l.text}`);
    if (/the nearest is this question itself/.test(l.text)) assert(/The same question is cached/.test(l.text), `d = 0 not explained: ${l.text}`);
  }
}
const page = await open();
await page.evaluate(() => { document.getElementById('step').click(); }); // 100 rounds first: a cache to land near
await waitFor(page, () => Number(document.body.dataset.round) >= 100, null);
await check('a typed question on nq-trivia is the next round in both panels, explained', async () => {
  cold = await ask(page, 'who wrote the declaration of independence');
  assert(cold.after === cold.before + 1, `round ${cold.before} → ${cold.after}`);
  const out = await page.textContent('#ask-out');
  assert(out.includes('who wrote the declaration of independence'), 'the question is not shown');
  const items = await page.$$eval('.ask-policies li', (li) => li.map((e) => e.textContent));
  assert(items.length === 2, `${items.length} policy lines`);
  for (const t of items) {
    assert(/founded a new center|landed in the cell of center #\d+, “/.test(t), `no cell: ${t}`);
    assert(/sent to the LLM|served with the answer cached for “/.test(t), `no decision: ${t}`);
    // From the state the decision used: the cache the question met (before the round), the
    // switch the round made, then the cache that served it.
    assert(/Its cache held \d+ questions?; the nearest was “.+”, d = [\d.]+, φ\(d\) = [\d.]+|Its cache was empty/.test(t), `no state before: ${t}`);
    assert(/The cache (did not change|switched) this round/.test(t), `no switch: ${t}`);
    assert(/against the cache that serves it, the nearest is (this question itself|“.+”), d = [\d.]+, φ\(d\) = [\d.]+|cache serving it is empty/.test(t), `no nearest: ${t}`);
  }
  await checkPredictions(page);
  // The load's progress: every reading counts against the model files' total as served.
  const files = [...modelFiles];
  const served = files.reduce((a, f) => a + statSync(path.join(dist, 'model', f)).size, 0);
  const mb = (n) => (n / 1e6).toFixed(1);
  const seen = await page.evaluate(() => /** @type {any} */ (window).__askProgress.filter((r) => /^Loading the model/.test(r.text)));
  assert(files.length === 3 && served > 45e6, `the model files fetched: ${files.join(', ')} (${served} bytes)`);
  assert(seen.length >= 3, `${seen.length} progress readings: ${JSON.stringify(seen)}`);
  const loaded = [];
  for (const r of seen) {
    const m = r.text.match(/^Loading the model… ([\d.]+) of ([\d.]+) MB$/);
    assert(m && m[2] === mb(served) && r.max === served, `“${r.text}” (bar max ${r.max}): the total is not the ${mb(served)} MB (${served} bytes) of ${files.join(', ')}`);
    loaded.push(Number(m[1]));
  }
  // During the download, not only before and after it: the weights counted as they came.
  assert(loaded.some((x) => x > 1 && x < Number(mb(served)) - 1), `no reading during the weights' download: ${loaded.join(', ')}`);
  assert(loaded.every((x, i) => i === 0 || x >= loaded[i - 1]) && loaded.at(-1) === Number(mb(served)), `the readings: ${loaded.join(', ')}`);
  console.log(`     ${seen.length} progress readings, against ${served} bytes (${files.join(', ')}): ${seen[0].text} … ${seen.at(-1).text}`);
  // CLCB-SC-LS-Cont (left panel) gives its reason: c̲ against φ (Alg. 5 lines 4–6).
  assert(/because c̲ = -?[\d.]+ (≤|>) φ = [\d.]+/.test(items[0]), `no reason: ${items[0]}`);
  const uni = await page.$$eval('.ask-universe li', (li) => li.map((e) => e.textContent));
  assert(uni.length === 5, `${uni.length} nearest universe questions`);
  assert(uni.some((t) => /declaration of independence/i.test(t)), `none of the five nearest is about the declaration: ${uni.join(' | ')}`);
});
await check('hovering a center shows its question', async () => {
  await page.focus('#panel-0 canvas');
  await page.keyboard.press('ArrowRight');
  await waitFor(page, () => /“.+”/.test(document.getElementById('tip-0').textContent), null, { timeout: 10000 });
});
await check('the plane refuses a question with a plain message', async () => {
  const p2 = await context.newPage();
  watch(p2);
  await p2.goto(`${origin}/?dataset=plane`);
  await waitFor(p2, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
  await waitFor(p2, () => document.body.dataset.askReady === 'true', null, { timeout: 30000 }); // Ask enabled
  await p2.fill('#ask-text', 'how tall is the eiffel tower');
  await p2.click('#ask-go');
  await waitFor(p2, () => /plane holds points/.test(document.getElementById('ask-status').textContent), null, { timeout: 60000 });
  await p2.close();
});
mkdirSync(path.join(root, 'artifacts'), { recursive: true });
await page.screenshot({ path: path.join(root, 'artifacts', 'ask.png'), fullPage: true });
await page.close();
await check('a second visit takes the model from Cache Storage (loaded when the box is focused), no download', async () => {
  const before = modelRequests;
  const p = await open();
  // Focusing the box loads the cached model ahead of the question.
  await p.focus('#ask-text');
  await waitFor(p, () => document.body.dataset.askLoadMs !== undefined, null, { timeout: 60000 });
  warm = await ask(p, 'how tall is the eiffel tower');
  assert(warm.after === warm.before + 1, `round ${warm.before} → ${warm.after}`);
  assert(warm.cached, 'the model was not read from Cache Storage');
  assert(modelRequests === before, `the model was requested again (${modelRequests - before} requests)`);
  const qs = ['what is the capital of australia', 'who painted the mona lisa', 'when did the berlin wall fall', 'how many moons does mars have',
    'who discovered penicillin', 'what is the longest river in africa', 'who sang purple rain', 'what year did titanic sink',
    'who invented the telephone', 'what is the boiling point of water'];
  let emb = 0, total = 0;
  for (const t of qs) { const r = await ask(p, t); emb += r.embedMs; total += r.askMs; await checkPredictions(p); }
  perQ = { embedMs: emb / qs.length, askMs: total / qs.length };
  // The same ten again: a repeated question says why it was (not) served this time.
  for (const t of qs) { await ask(p, t); await checkPredictions(p); }
  await p.setViewportSize({ width: 390, height: 900 });
  await p.screenshot({ path: path.join(root, 'artifacts', 'ask-390.png'), fullPage: true });
  await p.close();
});
await check('questions on the synthetic data too: 30 questions in all, every explanation predicts the engine\'s decision', async () => {
  const p = await context.newPage();
  watch(p);
  await p.goto(`${origin}/?dataset=synthetic&p2=lfu`);
  await waitFor(p, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 180000 });
  await p.evaluate(() => { document.getElementById('step').click(); });
  await waitFor(p, () => Number(document.body.dataset.round) >= 100, null);
  for (const t of ['how do I bake bread', 'how do I bake bread', 'what is the speed of light', 'explain photosynthesis', 'how do I bake bread',
    'write a haiku about autumn', 'what is the speed of light', 'translate hello into french', 'what is machine learning', 'write a haiku about autumn']) {
    await ask(p, t);
    await checkPredictions(p);
  }
  // 1 + 11 + 10 + 10 questions, two policies each (the threshold-free ones all state an acting cost).
  assert(predicted >= 60, `${predicted} explanations checked against decisions`);
  await p.close();
});
await check('no request left the origin, no console error', async () => {
  assert(foreign.length === 0, `foreign requests: ${foreign.join(', ')}`);
  assert(errors.length === 0, `console errors: ${errors.join(' | ')}`);
});
if (cold) console.log(`first question, cold (package + model download + load + embed + play): ${cold.ms} ms (model load ${cold.loadMs} ms, embedding ${cold.embedMs} ms)`);
if (warm) console.log(`second visit: model from Cache Storage loaded on focus in ${warm.loadMs} ms; its first question: Ask → answer shown ${warm.askMs} ms (embedding ${warm.embedMs} ms)`);
if (perQ) console.log(`then per question: embedding ${perQ.embedMs.toFixed(1)} ms, Ask → answer shown ${perQ.askMs.toFixed(0)} ms (mean of 10)`);
await context.close();
rmSync(profile, { recursive: true, force: true });
server.close();
done();
