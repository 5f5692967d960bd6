// End-to-end test of the companion-site bundle (dist/, built by scripts/dist.sh) as a site embeds
// it, in headless Chromium: dist/ is served under a sub-path (/lab/csc/) on one localhost origin,
// a host page on a second origin (another port) embeds `?embed=1…` in an iframe. Checks that the
// live stream plays, that fig-e (nq-trivia) runs from the bundled data with no file loaded, that
// nq-trivia is a dataset of the live and regret views too (from the bundle), that
// the README's iframe snippets load as written (their host replaced by the test origin), that
// the worker pool's report is the one-worker report bit for bit (wall-clock runtimes aside), and
// that there is no console error and no request to any third origin.
// Prints "N passed, M failed" and exits non-zero on failure.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { TYPES } from './static_server.mjs';
import { checks, assert, waitFor as poll } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
const SUB = '/lab/csc/';
for (const f of ['index.html', 'pkg/csc_bg.wasm', 'pkg/synthetic.emb.f32', 'data/manifest.json', 'data/nq.emb.f32', 'DATA-LICENSES', 'docs/REPRODUCTION.html']) {
  if (!existsSync(path.join(dist, f))) { console.error(`dist/${f} is missing: build the bundle first (bash scripts/dist.sh)`); process.exit(1); }
}

/** A server on a free port of 127.0.0.1 answering with `handler(pathname)` → [type, body] or null. */
async function listen(handler) {
  const server = http.createServer(async (req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const r = await handler(p).catch(() => null);
    if (!r) { res.writeHead(404); res.end('not found'); return; }
    res.writeHead(200, { 'Content-Type': r[0], 'Cache-Control': 'no-cache' });
    res.end(r[1]);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

// The site: dist/ under SUB only.
const site = await listen(async (p) => {
  if (!p.startsWith(SUB)) return null;
  let rel = p.slice(SUB.length);
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  const file = path.join(dist, path.normalize(rel));
  if (!file.startsWith(dist + path.sep)) return null;
  return [TYPES[path.extname(file)] || 'application/octet-stream', await readFile(file)];
});
// The host: pages set per test.
const hostPages = new Map();
const host = await listen(async (p) => (hostPages.has(p) ? ['text/html; charset=utf-8', hostPages.get(p)] : null));
const base = `${site.origin}${SUB}`;

const { check, done } = checks();
const waitFor = (target, fn, arg, o = {}) => poll(target, fn, arg, { timeout: 60000, every: 200, ...o });

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const consoleErrors = [], foreign = [];
async function newPage() {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('response', (r) => { if (r.status() >= 400) consoleErrors.push(`HTTP ${r.status()} ${r.url()}`); });
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(site.origin) && !u.startsWith(host.origin) && !u.startsWith('blob:') && !u.startsWith('data:')) foreign.push(u);
  });
  return page;
}
/** Opens a host page (second origin) holding `iframes` (HTML) and returns the page and its site frames. */
async function hostWith(name, iframes, setup = async () => {}) {
  hostPages.set(`/${name}.html`, `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title><h1>A companion site</h1>\n${iframes}\n`);
  const page = await newPage();
  await setup(page);
  await page.goto(`${host.origin}/${name}.html`);
  const n = (iframes.match(/<iframe/g) || []).length;
  await waitFor(page, (n) => document.querySelectorAll('iframe').length === n, n);
  const frames = [];
  for (const el of await page.$$('iframe')) frames.push(await el.contentFrame());
  for (const f of frames) await waitFor(f, () => document.body.dataset.ready === 'true', null, { timeout: 120000 });
  return { page, frames };
}

await check('the live stream plays in an iframe on another origin, from a sub-path', async () => {
  const t0 = Date.now();
  const { page, frames: [f] } = await hostWith('live', `<iframe src="${base}index.html?embed=1&dataset=plane" width="720" height="460"></iframe>`);
  assert(new URL(f.url()).origin === site.origin, `frame is on ${f.url()}`);
  await waitFor(f, () => /^Ready/.test(document.getElementById('status').textContent));
  // An embedded live view has no Play button: it plays by itself.
  await waitFor(f, () => Number(document.querySelector('#panel-0 [data-counter=round]').textContent) > 0);
  console.log(`     first live round ${Date.now() - t0} ms after opening the host page (cold cache)`);
  const r1 = await f.evaluate(() => Number(document.querySelector('#panel-0 [data-counter=round]').textContent));
  await new Promise((r) => setTimeout(r, 700));
  const r2 = await f.evaluate(() => Number(document.querySelector('#panel-0 [data-counter=round]').textContent));
  assert(r2 > r1, `rounds do not advance (${r1} → ${r2})`);
  await page.close();
});

await check('fig-e (nq-trivia) runs from the bundled data in the embedded Paper view, with reasons', async () => {
  const { page, frames: [f] } = await hostWith('fig-e', `<iframe src="${base}index.html?embed=1&view=paper&preset=fig-e" width="900" height="900"></iframe>`);
  await waitFor(f, () => document.querySelector('[data-job=paper]').dataset.status === 'done', null, { timeout: 300000 });
  const rows = await f.evaluate(() => [...document.querySelectorAll('#headline tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)));
  // Every claim of fig-e (value, two reductions, lowest, runtime ratio) and the measured-only rows
  // (loss gap, switching cost, realised cost, hit rate, switches), each with n and a verdict.
  assert(rows.length === 10 && rows.every((r) => /\(n = 5\)$/.test(r[2]) && r[3] !== ''), `headline: ${JSON.stringify(rows)}`);
  assert(rows.some((r) => /hit rate/.test(r[0])) && rows.some((r) => /runtime/.test(r[0]) && /×/.test(r[2])), `headline: ${JSON.stringify(rows)}`);
  const links = await f.evaluate(() => [...document.querySelectorAll('#headline td.why a')].map((a) => a.href));
  assert(links.length >= 1 && links.every((h) => h === links[0] && h.startsWith(`${site.origin}${SUB}docs/REPRODUCTION.html#where-we-differ-and-why`)), `reason links: ${links}`);
  const doc = await (await fetch(links[0])).text();
  assert(doc.includes('id="where-we-differ-and-why"'), 'the shipped REPRODUCTION.html has no "Where we differ" anchor');
  await page.close();
});

await check(`the bundle's download shows its bytes: a determinate bar and "x of y MB" that grow to the end`, async () => {
  const manifest = JSON.parse(await readFile(path.join(dist, 'data/manifest.json'), 'utf8'));
  const total = Object.values(manifest.bytes).reduce((a, b) => a + b, 0);
  const files = [...manifest.files, ...manifest.answers];
  assert(files.every((f) => manifest.bytes[f] > 0), `manifest sizes: ${JSON.stringify(manifest.bytes)}`);
  // A slow line (about 2 MB/s, Chromium's network emulation), so the download takes seconds.
  const { page, frames: [f] } = await hostWith('bytes', `<iframe src="${base}index.html?embed=1&view=paper&preset=fig-e" width="900" height="900"></iframe>`, async (pg) => {
    const cdp = await pg.context().newCDPSession(pg);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 2e6, uploadThroughput: -1 });
  });
  const seen = [];
  for (let i = 0; i < 600; i++) {
    const s = await f.evaluate(() => {
      const job = document.querySelector('[data-job=paper]');
      const bar = job.querySelector('progress');
      return { text: job.querySelector('.status').textContent, value: bar.hasAttribute('value') ? bar.value : null, status: job.dataset.status };
    });
    const m = s.text.match(/Loading the bundled nq-trivia data… ([\d.]+) of ([\d.]+) MB/);
    if (m) seen.push({ mb: Number(m[1]), of: Number(m[2]), value: s.value });
    if (!m && seen.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert(seen.length >= 3, `saw ${seen.length} download states: ${JSON.stringify(seen)}`);
  assert(seen.every((x) => x.of === Number((total / 1e6).toFixed(1))), `the total is not the manifest's ${total} bytes: ${JSON.stringify(seen)}`);
  assert(seen.every((x, i) => x.value !== null && x.value >= 0 && x.value <= 1 && (i === 0 || x.mb >= seen[i - 1].mb)), `not a growing determinate bar: ${JSON.stringify(seen)}`);
  assert(seen.some((x) => x.value > 0 && x.value < 1), `never part-way: ${JSON.stringify(seen)}`);
  assert(Math.abs(seen.at(-1).value - seen.at(-1).mb / seen.at(-1).of) < 0.02, `bar and text disagree: ${JSON.stringify(seen.at(-1))}`);
  await page.close();
});

await check('nq-trivia is a dataset of its own: the live view plays the bundle, and the regret view runs on it', async () => {
  const { page, frames: [live, regret] } = await hostWith('nq', [
    `<iframe src="${base}index.html?embed=1&dataset=nq-trivia" width="720" height="460"></iframe>`,
    `<iframe src="${base}index.html?embed=1&view=regret&dataset=nq-trivia&seeds=1&horizon=300&n_eval=300&policies=greedy,lfu" width="900" height="700"></iframe>`,
  ].join('\n'));
  await waitFor(live, () => Number(document.body.dataset.round) >= 5, null, { timeout: 120000 });
  const status = await live.evaluate(() => document.getElementById('status').textContent);
  assert(!/^Error/.test(status), status);
  await waitFor(regret, () => ['done', 'error'].includes(document.querySelector('[data-job=regret]').dataset.status), null, { timeout: 300000 });
  const job = await regret.evaluate(() => ({ status: document.querySelector('[data-job=regret]').dataset.status, text: document.querySelector('[data-job=regret]').textContent }));
  assert(job.status === 'done', `regret job ${job.status}: ${job.text.slice(0, 200)}`);
  assert(/nq-trivia/.test(job.text), `the report does not name nq-trivia: ${job.text.slice(0, 200)}`);
  await page.close();
});

await check("the README's iframe snippets load as written (host replaced by the test origin)", async () => {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const snippets = [...readme.matchAll(/<iframe[\s\S]*?<\/iframe>/g)].map((m) => m[0]);
  assert(snippets.length >= 2, `README has ${snippets.length} iframe snippets`);
  const prefix = 'https://example.org/csc/';
  assert(snippets.every((s) => s.includes(prefix)), `every snippet should point at ${prefix}`);
  const { page, frames } = await hostWith('readme', snippets.map((s) => s.replaceAll(prefix, base)).join('\n'));
  for (const [i, f] of frames.entries()) {
    const q = new URL(f.url()).searchParams;
    // embed=1 (the page without controls), embed=figure (one chart), or hide flags alone.
    const embed = q.get('embed');
    assert(embed === '1' || embed === 'figure' || q.has('hide'), `snippet ${i + 1} lost its embed or hide flags: ${f.url()}`);
    const view = q.get('view') || 'live';
    assert(await f.evaluate((v) => !document.getElementById(`view-${v}`).hidden, view), `snippet ${i + 1} does not show the ${view} view`);
    if (embed === 'figure') {
      await waitFor(f, () => !!document.querySelector('svg.chart-plot'), null, { timeout: 300000 });
    } else if (view === 'paper') {
      await waitFor(f, () => document.querySelector('[data-job=paper]').dataset.status === 'done', null, { timeout: 300000 });
    } else {
      await waitFor(f, () => /^Ready/.test(document.getElementById('status').textContent));
    }
  }
  await page.close();
});

await check('the worker pool: 2 workers give the 1-worker report bit for bit (wall-clock runtimes aside)', async () => {
  const page = await newPage();
  await page.goto(`${base}index.html?view=offline`);
  await waitFor(page, () => document.body.dataset.ready === 'true', null, { timeout: 120000 });
  const reports = await page.evaluate(async () => {
    const jobs = await import('./js/jobs.js');
    const request = { type: 'run', experiment: 'fig-c', dataset: { kind: 'synthetic' }, seeds: 3, overrides: { n_eval: 500, horizon: 300 }, drop: ['clcb-frozen-cont'] };
    const out = [];
    for (const n of [1, 2]) {
      jobs.setWorkers(n);
      const job = jobs.runJob(`pool-${n}`, request);
      const partial = [];
      let counted = 0; // the largest "N of M units done" seen while the job ran (it once stayed at 0)
      await new Promise((resolve) => jobs.onJob((j) => {
        if (j !== job) return;
        if (j.status === 'running') counted = Math.max(counted, j.done);
        if (j.report && !partial.includes(j.report.units.length)) partial.push(j.report.units.length);
        if (j.status !== 'running') resolve();
      }));
      out.push({ status: job.status, error: job.error, json: job.json, workers: job.workers, partial, total: job.total, counted });
    }
    jobs.setWorkers(0);
    return out;
  });
  for (const r of reports) assert(r.status === 'done', `pool run: ${r.status} ${r.error || ''}`);
  assert(reports[0].workers === 1 && reports[1].workers === 2, `workers ${reports.map((r) => r.workers)}`);
  assert(reports[1].partial.length > 1, `charts should fill unit by unit; partial reports ${reports[1].partial}`);
  assert(reports.every((r) => r.counted >= 1), `the units-done count never moved while running: ${reports.map((r) => r.counted)}`);
  const strip = (text) => {
    const r = JSON.parse(text);
    r.stats = r.stats.filter((s) => s.metric !== 'runtime_ms');
    for (const u of r.units) u.observations = u.observations.filter((o) => o.metric !== 'runtime_ms');
    // the headline's runtime ratio is measured on the wall clock too
    if (r.headline) r.headline.rows = r.headline.rows.filter((x) => x.metric !== 'runtime_ms');
    return JSON.stringify(r);
  };
  const [a, b] = reports.map((r) => strip(r.json));
  assert(a.length > 1000 && a === b, 'the 2-worker report differs from the 1-worker one');
  await page.close();
});

await check('no console errors', async () => assert(!consoleErrors.length, [...new Set(consoleErrors)].slice(0, 4).join(' | ')));
await check('no request to a third origin', async () => assert(!foreign.length, foreign.slice(0, 3).join(', ')));

await browser.close();
site.server.close();
host.server.close();
done();
