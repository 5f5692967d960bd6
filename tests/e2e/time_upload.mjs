// Times experiments on uploaded data in headless Chromium (a measuring tool, not part of
// scripts/test.sh). Needs www/pkg (bash scripts/wasm.sh) and the shared data (CSC_DATA, default
// ../shared/data). Writes the user files it uploads to OUT (default /tmp/csc-time-upload) so the
// native CLI can run the same experiment on them.
//   node tests/e2e/time_upload.mjs online [SEEDS]  first 2,500 NQ + 2,500 TriviaQA as JSONL + float32,
//        regret view, T = 2,000, n_eval = 1,000 (page default), every policy the page offers
//   node tests/e2e/time_upload.mjs fig-c          the paper preset fig-c (quick settings) on 60 rows
//        of the same data with inline embeddings (fig-c-f32: as JSONL + float32 file)
import { chromium } from 'playwright-core';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static_server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const data = process.env.CSC_DATA || path.join(root, '../shared/data');
const out = process.env.OUT || '/tmp/csc-time-upload';
const [mode = 'online', seedsArg = '3'] = process.argv.slice(2);
// VIEW_FIRST=1: open the view before uploading (its job starts on the default data, then reruns).
const viewFirst = process.env.VIEW_FIRST === '1';
const POLICIES = 'clcb-sc-ls-cont,clcb-frozen-cont,clcb-sc-ls,greedy,epsilon-greedy,lfu,lru,threshold,oracle';

/** The first `n` records of NQ and of TriviaQA: JSONL lines (with `source`) and their rows. */
async function userRows(n) {
  const lines = [], embs = [];
  for (const src of ['nq', 'triviaqa']) {
    const ls = (await readFile(path.join(data, `${src}.jsonl`), 'utf8')).split('\n').filter((l) => l.trim()).slice(0, n);
    const emb = await readFile(path.join(data, `${src}.emb.f32`));
    const f = new Float32Array(emb.buffer.slice(emb.byteOffset, emb.byteOffset + n * 384 * 4));
    ls.forEach((l, i) => {
      const r = JSON.parse(l);
      lines.push({ id: r.id, text: r.text, tokens: r.tokens, source: src });
      embs.push(f.subarray(i * 384, (i + 1) * 384));
    });
  }
  return { lines, embs };
}

async function waitFor(page, fn, arg, timeout) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(fn, arg)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${fn.toString().slice(0, 80)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

await mkdir(out, { recursive: true });
const files = [];
let query, view, rows;
if (mode === 'online') {
  const { lines, embs } = await userRows(2500);
  const jsonl = Buffer.from(lines.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const emb = Buffer.concat(embs.map((e) => Buffer.from(e.buffer, e.byteOffset, e.byteLength)));
  await writeFile(path.join(out, 'my5k.jsonl'), jsonl);
  await writeFile(path.join(out, 'my5k.emb.f32'), emb);
  files.push({ name: 'my5k.jsonl', mimeType: 'application/json', buffer: jsonl }, { name: 'my5k.emb.f32', mimeType: 'application/octet-stream', buffer: emb });
  query = `?seeds=${seedsArg}&horizon=2000&policies=${POLICIES}`;
  view = 'regret';
  rows = '5,?000';
} else if (mode === 'fig-c' || mode === 'fig-c-f32') {
  const { lines, embs } = await userRows(30);
  if (mode === 'fig-c') {
    const jsonl = Buffer.from(lines.map((r, i) => JSON.stringify({ ...r, embedding: Array.from(embs[i]) })).join('\n') + '\n');
    await writeFile(path.join(out, 'my60.jsonl'), jsonl);
    files.push({ name: 'my60.jsonl', mimeType: 'application/json', buffer: jsonl });
  } else {
    const jsonl = Buffer.from(lines.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const emb = Buffer.concat(embs.map((e) => Buffer.from(e.buffer, e.byteOffset, e.byteLength)));
    files.push({ name: 'my60.jsonl', mimeType: 'application/json', buffer: jsonl }, { name: 'my60.emb.f32', mimeType: 'application/octet-stream', buffer: emb });
  }
  query = '?preset=fig-c';
  view = 'paper';
  rows = 60;
} else {
  throw new Error(`unknown mode ${mode} (online | fig-c | fig-c-f32)`);
}

const { server, origin } = await serveStatic(path.join(root, 'www'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => { if (m.type() === 'error') console.error('console:', m.text()); });
  page.on('pageerror', (e) => console.error('pageerror:', String(e)));
  await page.goto(`${origin}/${query}${viewFirst ? `&view=${view}` : ''}`);
  await waitFor(page, () => document.body.dataset.ready === 'true', null, 120000);
  let t = Date.now();
  await page.setInputFiles('#file', files);
  // The page stays on the view the data is loaded from (upload.js): from the live view, the live
  // run's "Ready" ends the check; from another view (VIEW_FIRST=1), the upload's "Loaded".
  await waitFor(page, ([n, first]) => (first ? /^Loaded/.test(document.getElementById('upload-msg').textContent)
    : new RegExp(`^Ready: ${n} queries`).test(document.getElementById('status').textContent))
    || /^Could not/.test(document.getElementById('upload-msg').textContent), [rows, viewFirst], 300000);
  console.log(`upload checked in ${((Date.now() - t) / 1000).toFixed(1)} s: ${await page.textContent(viewFirst ? '#upload-msg' : '#status')}`);
  t = Date.now();
  // Without VIEW_FIRST the page is on the live view: open the view.
  await page.click(`.tabs [data-view=${view}]`);
  let last = '';
  const timer = setInterval(async () => {
    try {
      const s = await page.textContent(`[data-job=${view}] .status`);
      if (s !== last) { last = s; console.log(`  ${((Date.now() - t) / 1000).toFixed(0)} s: ${s}`); }
    } catch { /* page closing */ }
  }, 5000);
  try {
    await waitFor(page, (j) => ['done', 'error'].includes(document.querySelector(`[data-job=${j}]`).dataset.status), view, 1000 * Number(process.env.LIMIT_S || 3600));
  } catch (e) {
    clearInterval(timer);
    const st = await page.evaluate((j) => ({ status: document.querySelector(`[data-job=${j}]`).dataset.status, text: document.querySelector(`[data-job=${j}] .status`).textContent, url: location.href.slice(0, 200) }), view);
    throw new Error(`${e.message}; panel ${JSON.stringify(st)}`);
  }
  clearInterval(timer);
  const status = await page.textContent(`[data-job=${view}] .status`);
  console.log(`${mode}: ${view} view finished in ${((Date.now() - t) / 1000).toFixed(1)} s: ${status}`);
  console.log(await page.evaluate((j) => document.querySelector(`[data-job=${j}] .summary pre`).textContent, view));
  console.log(`threads: navigator.hardwareConcurrency = ${await page.evaluate(() => navigator.hardwareConcurrency)}`);
} finally {
  await browser.close();
  server.close();
}
