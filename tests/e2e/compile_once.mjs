// The page's engine (pkg/csc_bg.wasm) is fetched and compiled once per page (docs/ARCHITECTURE.md):
// the main thread compiles it (www/js/engine.js) and every worker that runs the engine is posted
// the compiled module (rpc.js). A page that steps the live view (its worker), then runs the regret
// view's experiment (a pool of workers and their collector, jobs.js) fetches the .wasm exactly
// once, counted by the server (which sends `Cache-Control: no-cache` without validators, so no
// fetch is answered from the browser's cache unseen), and every worker's results arrive. The
// synthetic universe's embeddings, which the .wasm leaves out (pkg/synthetic.emb.f32), are
// fetched once too, and posted to each worker with the module.
// Prints "N passed, M failed" and exits non-zero on failure.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, requirePkg, launchChromium, pageOpener } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
requirePkg(www);
const { server, origin } = await serveStatic(www);
const fetched = [];
const embeddings = [];
server.on('request', (req) => {
  const p = new URL(req.url, origin).pathname;
  if (p.endsWith('.wasm')) fetched.push(req.url);
  if (p.endsWith('/pkg/synthetic.emb.f32')) embeddings.push(req.url);
});
const { check, done } = checks();
const browser = await launchChromium();
const errors = [];
const openPage = pageOpener(browser, origin, errors);
const round = (page) => page.evaluate(() => Number(document.querySelector('#panel-0 [data-counter=round]').textContent));

const page = await openPage('?horizon=300&seeds=2');

await check('the main thread fetched the engine once to start', async () => {
  assert(fetched.length === 1 && fetched[0].endsWith('/pkg/csc_bg.wasm'), `fetched ${JSON.stringify(fetched)}`);
  assert(embeddings.length === 1, `the synthetic embeddings fetched ${embeddings.length} times`);
});

await check('the live view\'s worker runs on the posted module: a step plays, nothing is fetched again', async () => {
  await waitFor(page, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 120000 });
  const r0 = await round(page);
  await page.click('#step');
  await waitFor(page, (r) => Number(document.querySelector('#panel-0 [data-counter=round]').textContent) > r, r0, { timeout: 60000 });
  assert(fetched.length === 1, `fetched ${fetched.length} times: ${JSON.stringify(fetched)}`);
});

await check('an experiment\'s pool of workers and its collector run on it too: the report arrives, one fetch in all', async () => {
  await page.click('.tabs [data-view=regret]');
  await waitFor(page, () => ['done', 'error'].includes(document.querySelector('[data-job=regret]')?.dataset.status), null, { timeout: 180000 });
  const status = await page.textContent('[data-job=regret] .status');
  assert(/^Done/.test(status), status);
  const series = await page.evaluate(() => document.querySelector('[data-job=regret] figure.chart')?.chartData?.series.length ?? 0);
  assert(series > 0, 'no chart drawn from the report');
  assert(fetched.length === 1, `fetched ${fetched.length} times: ${JSON.stringify(fetched)}`);
  assert(embeddings.length === 1, `the synthetic embeddings fetched ${embeddings.length} times`);
});

await check('no console errors', async () => {
  assert(!errors.length, errors.join(' | '));
});

await browser.close();
server.close();
done();
