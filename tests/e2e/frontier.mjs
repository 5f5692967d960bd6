// End-to-end test of the frontier view (issue 24, item 4) in headless Chromium, on the page
// without a bundle: loads the six nq-trivia files of the shared data (with the gold answers) as a
// reader would, runs the frontier at the engine's quick settings on the worker pool, and checks
//   - a point of the chart against the CLI's value for the same definition (`csc run` on the
//     definition the page exported): every statistic but runtime bit for bit, and the chart's
//     point equal to the CLI's chart data (<id>.frontier.csv);
//   - the point's hover text names its configuration and metrics;
//   - its row's button (the keyboard's click) opens that configuration in the regret view, whose
//     run reproduces the point's realised cost and error rate;
//   - on `plane` the view shows "—" and the engine's reason and runs nothing, and an online
//     report without ground truth draws its error-rate chart as "—" with the reason.
// Screenshots of the view at 1440 and 390 px go to artifacts/. Prints "N passed, M failed".
//   CSC_DATA=/work/shared/data node tests/e2e/frontier.mjs
import { readFile, readdir, writeFile, mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, requirePkg } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
const artifacts = path.join(root, 'artifacts');
const data = process.env.CSC_DATA || path.join(root, '../shared/data');
const FILES = ['nq.jsonl', 'nq.emb.f32', 'triviaqa.jsonl', 'triviaqa.emb.f32', 'nq.answers.jsonl', 'triviaqa.answers.jsonl'];

requirePkg(www);
const { check, done } = checks();
const run = promisify(execFile);
const { server, origin } = await serveStatic(www);
await mkdir(artifacts, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
// bypassCSP: lets axe-core's script into the page (as run.mjs's accessibility check does).
const ctx = await browser.newContext({ bypassCSP: true });
const axe = await readFile(path.join(root, 'tests/e2e/node_modules/axe-core/axe.min.js'), 'utf8');
/** axe-core's WCAG 2.1 A/AA and best-practice violations in `page`. */
async function violations(page) {
  await page.addScriptTag({ content: axe });
  return page.evaluate(async () => (await window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }))
    .violations.map((x) => `${x.id} (${x.impact}): ${x.help} at ${x.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`));
}
const consoleErrors = [];
const missing = []; // 404s: only the bundle's manifest may be missing (this page has no bundle)
async function openPage(query, viewport = { width: 1440, height: 900 }) {
  const page = await ctx.newPage();
  await page.setViewportSize(viewport);
  page.on('response', (r) => { if (r.status() === 404) missing.push(new URL(r.url()).pathname); });
  page.on('console', (m) => { if (m.type() === 'error' && !(/^Failed to load resource: .* 404/.test(m.text()))) consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(`${origin}/${query}`);
  await waitFor(page, () => document.body.dataset.ready === 'true', null, { timeout: 60000 });
  return page;
}
/** The JSON export of the experiment panel `job` (its "Report (JSON)" button). */
async function exportJson(page, job) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`[data-job=${job}] .export-json`)]);
  return JSON.parse(await readFile(await d.path(), 'utf8'));
}
async function jobDone(page, job, timeout) {
  await waitFor(page, (j) => ['done', 'error'].includes(document.querySelector(`[data-job=${j}]`).dataset.status), job, { timeout, every: 500 });
  const status = await page.textContent(`[data-job=${job}] .status`);
  assert(/^Done/.test(status), status);
  return status;
}
/** The data of the first chart of panel `job` (charts.js keeps it on the chart element). */
const chartData = (page, job, i = 0) => page.evaluate(([j, n]) => {
  const c = [...document.querySelectorAll(`[data-job=${j}] .charts > *`)].filter((e) => e.chartData && !e.hidden)[n];
  return c ? JSON.parse(JSON.stringify(c.chartData)) : null;
}, [job, i]);
/** The stats of a report without runtime (the one statistic that differs from run to run). */
const statsBut = (r) => r.stats.filter((s) => s.metric !== 'runtime_ms').map((s) => JSON.stringify(s));

let page, pageReport, chosen;
try {
  await check('the frontier runs on the nq-trivia files (with gold answers) loaded into the bundle-less page', async () => {
    page = await openPage('?view=frontier&dataset=nq-trivia&workers=2');
    assert(/not bundled/.test(await page.textContent('[data-job=frontier] .status')), 'the bundle-less page asks for the files');
    const files = await Promise.all(FILES.map(async (name) => ({ name, mimeType: 'application/octet-stream', buffer: await readFile(path.join(data, name)) })));
    await page.setInputFiles('#file', files);
    await waitFor(page, () => /^Loaded nq-trivia \(5000 questions\).*gold answers/.test(document.getElementById('upload-msg').textContent), null, { timeout: 180000 });
    const status = await jobDone(page, 'frontier', 1800000);
    console.log(`     ${status}`);
    assert(/^Done: 66 units/.test(status), status);
  });

  await check('a point of the chart equals the CLI\'s value for the exported definition, bit for bit', async () => {
    pageReport = await exportJson(page, 'frontier');
    const def = pageReport.experiment;
    assert(def.measure.kind === 'frontier' && def.params.k === 50 && def.params.horizon === 1000 && def.seeds === 3, JSON.stringify(def.params));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'csc-frontier-'));
    await writeFile(path.join(dir, 'frontier-page.json'), JSON.stringify(def));
    await run('cargo', ['run', '--quiet', '--locked', '--profile', 'test', '--bin', 'csc', '--', 'run', path.join(dir, 'frontier-page.json'),
      '--data', data, '--out', path.join(dir, 'out'), '--quiet'], { cwd: root, maxBuffer: 1 << 26 });
    const outs = await readdir(path.join(dir, 'out'));
    const cli = JSON.parse(await readFile(path.join(dir, 'out', outs.find((f) => /\.json$/.test(f))), 'utf8'));
    const a = statsBut(pageReport), b = statsBut(cli);
    assert(a.length === b.length && a.length > 0, `${a.length} statistics in the page, ${b.length} from the CLI`);
    const differ = a.filter((s, i) => s !== b[i]);
    assert(!differ.length, `${differ.length} statistics differ, e.g. page ${differ[0]} vs CLI ${b[a.indexOf(differ[0])]}`);
    // The chart's point: vCache at δ = 0.05, against the CLI's chart data.
    const chart = await chartData(page, 'frontier');
    const series = chart.series.find((s) => s.key === 'vcache');
    assert(series && series.points.length === 6, `the vCache series: ${JSON.stringify(chart.series.map((s) => [s.key, s.points.length]))}`);
    chosen = series.points.find((p) => p.value === 0.05);
    const csv = (await readFile(path.join(dir, 'out', outs.find((f) => /\.frontier\.csv$/.test(f))), 'utf8')).trim().split('\n').map((l) => l.split(','));
    const head = csv[0], row = csv.find((r) => r[0] === 'vcache' && r[3] === '0.05');
    const col = (name) => Number(row[head.indexOf(name)]);
    assert(chosen.x === col('final_error_rate') && chosen.y === col('final_avg_realised_cost'),
      `chart (${chosen.x}, ${chosen.y}) vs CLI (${col('final_error_rate')}, ${col('final_avg_realised_cost')})`);
    const [c, cc, e, ec] = ['final_avg_realised_cost', 'final_avg_realised_cost_ci95', 'final_error_rate', 'final_error_rate_ci95'].map(col);
    assert(chosen.n === 3 && chosen.lo === c - cc && chosen.hi === c + cc, `the cost's 95% interval [${chosen.lo}, ${chosen.hi}] vs ${c} ± ${cc}`);
    assert(chosen.xlo === e - ec && chosen.xhi === e + ec, `the error rate's 95% interval [${chosen.xlo}, ${chosen.xhi}] vs ${e} ± ${ec}`);
    // Every family is a line, its points in parameter order; the single policies are points.
    const keys = chart.series.map((s) => s.key);
    for (const k of ['threshold', 'threshold:threshold-gptcache', 'vcache', 'clcb-sc-ls-cont', 'clcb-sc-ls', 'greedy', 'lfu', 'lru']) assert(keys.includes(k), `no series ${k}: ${keys}`);
    const tau = chart.series.find((s) => s.key === 'threshold').points.map((p) => p.value);
    assert(JSON.stringify(tau) === JSON.stringify([0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]), `τ order ${tau}`);
  });

  await check('hovering a point names its configuration and metrics', async () => {
    const m = chosen.meta;
    for (const part of ['vCache', 'vcache_delta = 0.05', '3 seeds', 'realised cost', 'error rate', 'hit rate', 'average regret']) assert(m.includes(part), `${part} not in "${m}"`);
    const row = await page.getAttribute(`[data-job=frontier] tr[data-series=vcache][data-point="${chosen.point}"]`, 'title');
    assert(row === m, `the table row says "${row}"`);
  });

  await check('the drawn view has no accessibility violation (axe-core) and no horizontal overflow at 390 px; screenshots', async () => {
    const v = await violations(page);
    assert(!v.length, v.join(' | '));
    await page.screenshot({ path: path.join(artifacts, 'frontier-1440.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(artifacts, 'frontier-390.png'), fullPage: true });
    const sw = await page.evaluate(() => document.documentElement.scrollWidth);
    await page.setViewportSize({ width: 1440, height: 900 });
    assert(sw <= 390, `scrollWidth ${sw} at 390 px`);
  });

  await check('opening the point (its row\'s button, by keyboard) shows that configuration in the regret view', async () => {
    const button = `[data-job=frontier] tr[data-series=vcache][data-point="${chosen.point}"] button.open-regret`;
    await page.focus(button);
    await page.keyboard.press('Enter');
    await waitFor(page, () => !document.getElementById('view-regret').hidden, null, { timeout: 10000 });
    const q = new URLSearchParams(await page.evaluate(() => location.search));
    // The link carries what differs from the page's defaults (T = n_eval = 1,000 and 3 seeds are theirs).
    assert(q.get('view') === 'regret' && q.get('policies') === 'vcache' && q.get('vcache_delta') === '0.05' && q.get('k') === '50'
      && !q.has('horizon') && !q.has('n_eval') && !q.has('seeds'), `link ${q}`);
    await jobDone(page, 'regret', 600000);
    const r = await exportJson(page, 'regret');
    const fin = (m) => r.stats.find((s) => s.algorithm === 'vcache' && s.metric === m);
    assert(fin('final_avg_realised_cost').mean === chosen.y && fin('final_error_rate').mean === chosen.x,
      `regret view: cost ${fin('final_avg_realised_cost').mean}, error ${fin('final_error_rate').mean}; frontier (${chosen.y}, ${chosen.x})`);
    // The regret view draws the error-rate curve (SPEC §14) where the data has ground truth.
    const titles = [];
    for (let i = 0; ; i++) { const c = await chartData(page, 'regret', i); if (!c) break; titles.push(c); }
    const err = titles.find((c) => /^Error rate E\(t\)/.test(c.title));
    assert(err && err.series.length === 1 && err.series[0].points.length > 1, `error-rate chart ${JSON.stringify(err && err.series.map((s) => s.points.length))}`);
    await page.close();
  });

  await check('on plane the view shows "—" and the engine\'s reason, and runs nothing', async () => {
    const p = await openPage('?view=frontier&dataset=plane');
    await waitFor(p, () => /—/.test(document.querySelector('[data-job=frontier] .status').textContent), null, { timeout: 10000 });
    const status = await p.textContent('[data-job=frontier] .status');
    assert(/^Error rate: — \(plane has no ground truth/.test(status), status);
    assert(await p.getAttribute('[data-job=frontier]', 'data-status') === 'idle', 'a job ran');
    assert(await p.isDisabled('[data-job=frontier] .run'), 'Run is enabled');
    // An online report on plane: its error-rate chart is "—" with the reason (report.js).
    const empty = await p.evaluate(async () => {
      const { onlineCharts } = await import('./js/report.js');
      const c = onlineCharts({ stats: [], experiment: { params: { k: 5 } }, units: [{ dataset: { no_ground_truth: 'plane has no ground truth: test' } }] });
      return c.find((x) => /^Error rate/.test(x.title)).empty;
    });
    assert(empty === '— (plane has no ground truth: test)', empty);
    const v = await violations(p);
    assert(!v.length, v.join(' | '));
    await p.setViewportSize({ width: 390, height: 844 });
    await p.screenshot({ path: path.join(artifacts, 'frontier-plane-390.png'), fullPage: true });
    await p.close();
  });
  await check('no console errors; nothing missing but the absent bundle\'s manifest', async () => {
    assert(!consoleErrors.length, consoleErrors.join(' | '));
    assert(missing.every((p) => p === '/data/manifest.json'), `not found: ${missing.join(', ')}`);
  });
} finally {
  await ctx.close();
  await browser.close();
  server.close();
}
done();
