// Times fig-c in the bundle's worker pool (dist/, www/js/jobs.js) in headless Chromium, with each
// worker count of POOL_WORKERS (default "1,2"), and checks every report equals the first (wall-clock
// runtimes aside). Full paper settings with POOL_FULL=1; otherwise a reduced proxy of them:
// POOL_SEEDS (default 4) seeds, T = POOL_HORIZON (1500), n_eval = POOL_N_EVAL (2000), all six
// policies. Prints one line per worker count and the speed-up. Not part of scripts/test.sh.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { TYPES } from './static_server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
const env = process.env;
const counts = (env.POOL_WORKERS || '1,2').split(',').map(Number);
const request = env.POOL_FULL === '1'
  ? { type: 'run', experiment: 'fig-c', dataset: { kind: 'synthetic' } }
  : { type: 'run', experiment: 'fig-c', dataset: { kind: 'synthetic' }, seeds: Number(env.POOL_SEEDS || 4),
    overrides: { horizon: Number(env.POOL_HORIZON || 1500), n_eval: Number(env.POOL_N_EVAL || 2000) } };

const server = http.createServer(async (req, res) => {
  try {
    let rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).slice(1) || 'index.html';
    const file = path.join(dist, path.normalize(rel));
    if (!file.startsWith(dist + path.sep)) throw new Error('outside');
    const body = await readFile(file);
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
    res.end(body);
  } catch { res.writeHead(404); res.end(); }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage();
await page.goto(`${origin}/index.html?view=offline`);
for (let i = 0; i < 600 && !(await page.evaluate(() => document.body.dataset.ready === 'true')); i++) await new Promise((r) => setTimeout(r, 200));
console.log(`fig-c ${env.POOL_FULL === '1' ? 'full settings' : `proxy ${JSON.stringify({ seeds: request.seeds, ...request.overrides })}`}, navigator.hardwareConcurrency = ${await page.evaluate(() => navigator.hardwareConcurrency)}`);
const out = await page.evaluate(async ({ request, counts }) => {
  const jobs = await import('./js/jobs.js');
  const res = [];
  for (const n of counts) {
    jobs.setWorkers(n);
    const job = jobs.runJob(`timing-${n}`, request);
    await new Promise((resolve) => jobs.onJob((j) => { if (j === job && j.status !== 'running') resolve(); }));
    res.push({ n, status: job.status, error: job.error, seconds: job.seconds, units: job.total, workers: job.workers, json: job.json });
  }
  return res;
}, { request, counts });
const strip = (text) => {
  const r = JSON.parse(text);
  r.stats = r.stats.filter((s) => s.metric !== 'runtime_ms');
  for (const u of r.units) u.observations = u.observations.filter((o) => o.metric !== 'runtime_ms');
  if (r.headline) r.headline.rows = r.headline.rows.filter((x) => x.metric !== 'runtime_ms');
  return JSON.stringify(r);
};
let ok = true;
for (const r of out) {
  if (r.status !== 'done') { ok = false; console.log(`${r.n} workers: ${r.status} ${r.error || ''}`); continue; }
  const same = strip(r.json) === strip(out[0].json);
  ok &&= same;
  console.log(`${r.workers} worker(s): ${r.seconds.toFixed(1)} s for ${r.units} units, speed-up ${(out[0].seconds / r.seconds).toFixed(2)}×, report ${same ? 'identical' : 'DIFFERENT'}`);
}
await browser.close();
server.close();
process.exit(ok ? 0 : 1);
