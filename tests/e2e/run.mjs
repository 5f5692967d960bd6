// End-to-end test of the playground (www/) in headless Chromium: serves www/ on a free localhost
// port, opens the page, plays, steps (and compares with the native engine, run through the `csc`
// CLI), runs experiments and a paper preset (chart data against the JSON export), round-trips the
// URL, loads good and bad data, checks that every failure path ends in a visible message (pkg/
// missing, a corrupt wasm, workers that fail to start, a trapped instance, a failed export), and
// saves screenshots of every view to artifacts/.
// Prints "N passed, M failed" and exits non-zero on failure. `--failures-only` runs only the
// failure paths.
import { readFile, writeFile, mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import { promisify } from 'node:util';
import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { longRun } from './long_run.mjs';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, grab, requirePkg } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
const artifacts = path.join(root, 'artifacts');

requirePkg(www);

const { server, origin } = await serveStatic(www);
const run = promisify(execFile);

const { check, done } = checks();


const consoleErrors = [];
const foreign = [];
async function openPage(query = '', viewport = { width: 1280, height: 800 }, { ready = true } = {}) {
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('request', (r) => { const u = r.url(); if (!u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:')) foreign.push(u); });
  await page.goto(`${origin}/${query}`);
  if (ready) await waitFor(page, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 120000 });
  return page;
}
/** A vector scaled to unit norm, as sentence embeddings are (the uniform arrival model needs it). */
const unit = (v) => { const n = Math.hypot(...v); return v.map((x) => x / n); };
const round = (page, p = 0) => page.evaluate((p) => Number(document.querySelector(`#panel-${p} [data-counter=round]`).textContent), p);
const canvasData = (page) => page.evaluate(() => document.querySelector('#panel-0 canvas').toDataURL());
const counters = (page, p) => page.evaluate((p) => Object.fromEntries([...document.querySelectorAll(`#panel-${p} [data-counter]`)].map((e) => [e.dataset.counter, Number(e.dataset.value)])), p);
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
/** Waits for the experiment panel `job` to finish; returns its status text. */
async function jobDone(page, job, timeout = 180000) {
  await waitFor(page, (j) => ['done', 'error'].includes(document.querySelector(`[data-job=${j}]`).dataset.status), job, { timeout });
  const status = await page.textContent(`[data-job=${job}] .status`);
  assert(/^Done/.test(status), status);
  return status;
}
/** The native engine's counters after T rounds, through the csc CLI (trace, then replay). */
async function nativeCounters(seed, horizon, policies) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'csc-e2e-'));
  const csc = (...args) => run('cargo', ['run', '--quiet', '--locked', '--profile', 'test', '--bin', 'csc', '--', ...args], { cwd: root });
  await csc('trace', '--dataset', 'synthetic', '--set', `horizon=${horizon}`, '--set', 'n_eval=1000', '--set', `seed=${seed}`, '--out', `${dir}/trace.json`);
  await csc('replay', `${dir}/trace.json`, '--policies', policies.join(','), '--out', `${dir}/results.json`);
  return JSON.parse(await readFile(`${dir}/results.json`, 'utf8')).map((r) => r.last);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
await mkdir(artifacts, { recursive: true });

/**
 * The page's failure paths, each served by its own server whose `extra` files replace parts of
 * www/: every one must end in a visible message, never "Loading…" or "Running…" forever.
 * Simulated traps: a wrapper worker patches one engine method to throw the
 * `WebAssembly.RuntimeError` a trap raises, then loads the real worker.
 */
async function failureCases() {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'csc-e2e-fail-'));
  const file = async (name, text) => { const f = path.join(tmp, name); await writeFile(f, text); return f; };
  const throwing = await file('throwing-worker.js', "throw new Error('worker script failed on purpose');\n");
  const corrupt = await file('corrupt.wasm', 'this is not a WebAssembly module');
  const expTrap = await file('exp-worker-trap.js', [
    "import { ExperimentRun } from '../pkg/csc.js';",
    "import './exp-worker-real.js';",
    // The page's pool runs units with runUnit; a one-worker run uses runNext: trap in both.
    "for (const name of ['runNext', 'runUnit']) {",
    '  const real = ExperimentRun.prototype[name];',
    "  ExperimentRun.prototype[name] = function (...a) { if (this.totalUnits === 2) throw new WebAssembly.RuntimeError('unreachable (simulated trap)'); return real.apply(this, a); };",
    '}',
  ].join('\n'));
  const liveTrap = await file('worker-trap.js', [
    "import { OnlineRun } from '../pkg/csc.js';",
    "import './worker-real.js';",
    'const step = OnlineRun.prototype.step;',
    "OnlineRun.prototype.step = function (n) { if (n === 100) throw new WebAssembly.RuntimeError('unreachable (simulated trap)'); return step.call(this, n); };",
    "OnlineRun.prototype.results = function () { throw new Error('simulated export failure'); };",
  ].join('\n'));
  const real = (name) => path.join(www, 'js', name);
  /** A page of a server with `extra` overrides, and the workers it starts (with their state). */
  async function failPage(extra, query = '') {
    const srv = await serveStatic(www, extra);
    const page = await browser.newPage();
    const workers = [];
    page.on('worker', (w) => { const rec = { url: w.url(), closed: false }; workers.push(rec); w.on('close', () => { rec.closed = true; }); });
    await page.goto(`${srv.origin}/${query}`);
    page.once('close', () => srv.server.close());
    return { page, workers };
  }
  const text = (page, sel) => page.evaluate((s) => document.querySelector(s).textContent, sel);
  for (const [what, extra] of [['pkg/ missing', { '/pkg/csc.js': path.join(tmp, 'absent.js') }], ['a corrupt wasm', { '/pkg/csc_bg.wasm': corrupt }],
    ['the synthetic embeddings missing', { '/pkg/synthetic.emb.f32': path.join(tmp, 'absent.f32') }]]) {
    await check(`${what}: the page says the engine could not be loaded (not "Loading…")`, async () => {
      const { page } = await failPage(extra);
      await waitFor(page, () => document.body.dataset.ready === 'error', null, { timeout: 30000 });
      assert(await page.isVisible('#banner'), 'no banner');
      const msg = await text(page, '#banner');
      assert(/could not start/.test(msg) && /scripts\/wasm\.sh/.test(msg), msg);
      assert(!/Loading/.test(await text(page, '#status')), 'status still says Loading');
      await page.close();
    });
  }
  await check('the experiment worker fails to start: the job ends with an error, determinism says unavailable', async () => {
    const { page } = await failPage({ '/js/exp-worker.js': throwing }, '?view=regret&seeds=1&horizon=100&policies=greedy');
    await waitFor(page, () => document.querySelector('[data-job=regret]')?.dataset.status === 'error', null, { timeout: 30000 });
    const msg = await text(page, '[data-job=regret] .status');
    assert(/^Error: the engine's worker failed/.test(msg), msg);
    await waitFor(page, () => document.getElementById('determinism').textContent === 'unavailable', null, { timeout: 30000 });
    assert(/worker failed/.test(await text(page, '#determinism-note')), 'determinism note');
    await page.close();
  });
  await check('the live worker fails to start: the live view says so', async () => {
    const { page } = await failPage({ '/js/worker.js': throwing });
    await waitFor(page, () => /^Error: the engine's worker failed/.test(document.getElementById('status').textContent), null, { timeout: 30000 });
    await page.close();
  });
  await check('a trapped experiment instance: the job fails with a message, its worker is replaced, the next job runs', async () => {
    const { page, workers } = await failPage({ '/js/exp-worker.js': expTrap, '/js/exp-worker-real.js': real('exp-worker.js') },
      '?view=regret&seeds=2&horizon=100&policies=greedy');
    await waitFor(page, () => document.querySelector('[data-job=regret]')?.dataset.status === 'error', null, { timeout: 60000 });
    const msg = await text(page, '[data-job=regret] .status');
    assert(/engine stopped \(unreachable \(simulated trap\)\)/.test(msg), msg);
    await page.waitForTimeout(300);
    const before = workers.filter((w) => /exp-worker/.test(w.url));
    await page.fill('#seeds', '1');
    await page.locator('#seeds').blur();
    await jobDone(page, 'regret', 60000);
    assert(before.length > 0 && before.every((w) => w.closed), `workers before the trap still open: ${JSON.stringify(before)}`);
    await page.close();
  });
  await check('live view: a failed export says why; a trapped instance is replaced and Reset starts again', async () => {
    const { page, workers } = await failPage({ '/js/worker.js': liveTrap, '/js/worker-real.js': real('worker.js') }, '?speed=7');
    await waitFor(page, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    await page.click('#export-json');
    await waitFor(page, () => /^Error: the export failed: simulated export failure/.test(document.getElementById('status').textContent));
    await page.click('#step');
    await waitFor(page, () => /engine stopped \(unreachable \(simulated trap\)\); press Reset/.test(document.getElementById('status').textContent));
    await page.waitForTimeout(300);
    const live = () => workers.filter((w) => /\/worker\.js/.test(w.url));
    assert(live().length === 1 && live()[0].closed, `live workers: ${JSON.stringify(live())}`);
    await page.click('#reset');
    await waitFor(page, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    assert(live().length === 2 && !live()[1].closed, 'no fresh worker');
    await page.click('#play');
    await waitFor(page, () => Number(document.body.dataset.round) >= 7, null, { timeout: 30000 });
    await page.close();
  });
}

const SKIP_REST = Symbol('--failures-only: the other cases are skipped');
try {
  if (process.argv.includes('--failures-only')) {
    await failureCases();
    throw SKIP_REST;
  }
  // Started first: compiling the CLI (if needed) overlaps with the browser checks.
  const native = nativeCounters(7, 100, ['clcb-sc-ls-cont', 'greedy']);
  native.catch(() => {}); // reported by the check that awaits it
  const page = await openPage();
  await check('page loads with the default state', async () => {
    assert(await page.inputValue('#dataset') === 'synthetic', 'dataset');
    assert(await page.inputValue('#p1') === 'clcb-sc-ls-cont', 'p1');
    assert(await page.inputValue('#p2') === 'greedy', 'p2');
    assert(await page.inputValue('#epsilon') === '0.4', 'epsilon');
    assert((await page.textContent('#panel-0 h2.panel-name')).includes('CLCB'), 'panel title');
    assert(/^[0-9a-f]{16}$/.test(await page.textContent('#fingerprint')), 'fingerprint');
    // The footer names the engine: the crate version and the commit it was built from (build.rs).
    const engine = await page.textContent('#engine-version');
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim();
    assert(new RegExp(`^csc \\d+\\.\\d+\\.\\d+, commit [0-9a-f]{12}$`).test(engine), `footer engine: ${engine}`);
    // The page's engine is this tree's build (an older pkg/ would name an older commit).
    assert(engine.endsWith(head), `the footer names ${engine}, the checkout is at ${head}: rebuild pkg/ (scripts/wasm.sh)`);
    assert(await page.isHidden('#banner'), 'banner shown');
  });
  await check('play advances the round counter and redraws the canvas', async () => {
    const before = await canvasData(page);
    await page.click('#play');
    await waitFor(page, () => Number(document.querySelector('#panel-0 [data-counter=round]').textContent) >= 100, null, { timeout: 30000 });
    await page.click('#play');
    await page.waitForTimeout(300);
    assert(await round(page) > 0, 'round 0');
    assert(await canvasData(page) !== before, 'canvas unchanged');
  });
  await check('step plays 100 rounds and updates every counter', async () => {
    const r0 = await round(page);
    await page.click('#step');
    await waitFor(page, (r) => Number(document.querySelector('#panel-1 [data-counter=round]').textContent) === r + 100, r0, { timeout: 30000 });
    const c = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#panel-1 [data-counter]')].map((e) => [e.dataset.counter, e.textContent])));
    assert(/%$/.test(c.hit) && Number.isFinite(parseFloat(c.regret)) && Number.isFinite(parseFloat(c.cost)), JSON.stringify(c));
    // Average regret = its loss gap + its switching cost, per round.
    const v = await counters(page, 1);
    assert(Math.abs(v.gap + v.switchcost - v.regret) < 1e-9 && v.switchcost > 0, JSON.stringify(v));
    // Synthetic data has ground truth (SPEC §14): every wrong answer served is marked on the
    // canvas (a cross), as many as the error-rate counter counts (all rounds are in the trail).
    const marks = Number(await page.getAttribute('#panel-1', 'data-wrong-marks'));
    assert(Number.isFinite(v.error) && Math.round(v.error * v.round) === marks, `marks ${marks}, counter ${v.error} × ${v.round}`);
    // Each metric carries its definition (hover, focus, tap) from the engine's list.
    const def = await page.getAttribute('#panel-1 .counters dt.def >> nth=3', 'data-def');
    assert(/Reg\(T\)|R\(t\)\/t/.test(def) && /§5\.1/.test(def), def);
  });
  await check('the determinism checksum is shown and matches the native build', async () => {
    await waitFor(page, () => /^[0-9a-f]{16}$/.test(document.getElementById('determinism').textContent), null, { timeout: 60000 });
    assert(/bit-identical/.test(await page.textContent('#determinism-note')), await page.textContent('#determinism-note'));
  });
  await check('live exports: curves CSV, results JSON, trace JSON, canvases PNG', async () => {
    const [csv] = await grab(page, '#export-csv');
    const text = csv.body.toString();
    assert(/\.csv$/.test(csv.name) && text.startsWith('policy,t,avg_regret'), `${csv.name}: ${text.slice(0, 40)}`);
    assert(text.includes('"CLCB-SC-LS-Cont"') && text.includes('"Greedy"'), 'policies missing from CSV');
    const [res] = await grab(page, '#export-json');
    const results = JSON.parse(res.body.toString());
    assert(Array.isArray(results) && results.length === 2 && results[0].policy === 'clcb-sc-ls-cont', 'results JSON');
    const [trace] = await grab(page, '#export-trace');
    assert(JSON.parse(trace.body.toString()).dist_scale > 0, 'trace JSON');
    for (const png of await grab(page, '#export-png', 2)) assert(png.body.subarray(1, 4).toString() === 'PNG', `${png.name} is not a PNG`);
  });
  await check('hovering a center shows its details; arrow keys walk them', async () => {
    // A reader scrolls the canvas into view first (the exports above left the page scrolled down).
    await page.locator('#panel-0 canvas').first().scrollIntoViewIfNeeded();
    const pos = await page.evaluate(() => { const r = document.querySelector('#panel-0 canvas').getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width }; });
    let shown = false;
    for (let gy = 10; gy < pos.w && !shown; gy += 8) {
      for (let gx = 10; gx < pos.w && !shown; gx += 8) {
        await page.mouse.move(pos.x + gx, pos.y + gy);
        shown = await page.evaluate(() => !document.querySelector('#panel-0 .tip').hidden);
      }
    }
    assert(shown, 'no tooltip anywhere');
    const text = await page.textContent('#panel-0 .tip');
    assert(/weight/.test(text) && /estimate/.test(text) && /cached: (yes|no) — /.test(text), text);
    await page.mouse.move(0, 0);
    await page.focus('#panel-1 canvas');
    await page.keyboard.press('ArrowRight');
    assert(/center #0/.test(await page.textContent('#panel-1 .tip')), 'ArrowRight did not show center #0');
    // A center the policy does not cache says how this policy chooses its cache, in the engine's
    // words (its catalog entry's cache_rule, with the run's k for the symbol): Greedy's own rule,
    // not Reverse Greedy's.
    const k = await page.inputValue('#k');
    const rule = await page.evaluate(async ([name, k]) => (await import('/pkg/csc.js')).policies().find((p) => p.name === name || p.id === name)
      ?.cache_rule.split(' ').map((w) => (w === 'k' ? k : w)).join(' '), [await page.textContent('#panel-1 h2.panel-name'), k]);
    assert(rule && !/Reverse Greedy/.test(rule) && rule.includes(` ${k} cells`), `panel 1's cache rule: ${rule}`);
    let left = null;
    for (let i = 0; i < 80 && !left; i++) {
      const tip = await page.textContent('#panel-1 .tip');
      if (/cached: no/.test(tip)) left = tip;
      else await page.keyboard.press('ArrowRight');
    }
    assert(left && left.includes(`cached: no — ${rule}`), `a center not cached: ${left}`);
    await page.keyboard.press('Escape');
    assert(await page.isHidden('#panel-1 .tip'), 'Escape did not hide the details');
  });
  await shot(page, 'desktop-live');
  await check('an invalid parameter is refused with the engine\'s message, and the URL keeps the last valid state', async () => {
    const url = page.url();
    await page.fill('#k', '0');
    await page.locator('#k').blur();
    await waitFor(page, () => !document.getElementById('banner').hidden);
    const msg = await page.textContent('#banner');
    assert(/`k`/.test(msg) && /at least 1/.test(msg), msg);
    assert(page.url() === url, `URL changed to ${page.url()}`);
    assert(await page.inputValue('#k') === '5', 'the field keeps the invalid value');
  });
  await check('URL round-trip: every control restores the same state', async () => {
    // Each change is committed (the URL shows it) before the next one is made, and the URL is
    // read from the page itself (page.url() follows history.replaceState asynchronously).
    const committed = (key) => waitFor(page, (k) => new URLSearchParams(location.search).has(k), key, { timeout: 15000 });
    await page.selectOption('#p2', 'lru');
    await committed('p2');
    await page.fill('#speed', '7');
    await page.locator('#speed').blur();
    await committed('speed');
    if (!(await page.evaluate(() => document.getElementById('more-params').open))) await page.click('#more-params summary');
    await page.fill('#kernel_length', '0.3');
    await page.locator('#kernel_length').blur();
    await committed('kernel_length');
    await page.fill('#k', '3');
    await page.locator('#k').blur();
    await committed('k');
    const url = await page.evaluate(() => location.href);
    assert(url.includes('p2=lru') && url.includes('speed=7') && url.includes('k=3') && url.includes('kernel_length=0.3'), url);
    const again = await openPage(url.slice(origin.length + 1));
    const canonical = await again.evaluate(() => location.href);
    assert(canonical === url, `canonical URL ${canonical} differs from ${url}`);
    for (const [sel, v] of [['#p2', 'lru'], ['#speed', '7'], ['#k', '3'], ['#kernel_length', '0.3']]) {
      assert(await again.inputValue(sel) === v, `${sel} not restored`);
    }
    assert((await again.textContent('#panel-1 h2.panel-name')) === 'LRU', 'panel B not LRU');
    await again.close();
  });
  await page.close();

  await check('a field being typed in keeps its value when the live run restarts meanwhile', async () => {
    // Changing policy B restarts the run; its "Ready" (with the data's checksum) arrives while
    // the reader types the speed, which must survive it and reach the URL on blur.
    const p = await openPage();
    await p.selectOption('#p2', 'lru');
    await p.fill('#speed', '7');
    await waitFor(p, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 120000 });
    await p.locator('#speed').blur();
    await waitFor(p, () => new URLSearchParams(location.search).get('speed') === '7');
    assert(await p.inputValue('#speed') === '7', 'the typed speed was replaced');
    await p.close();
  });

  await check('stepping 100 rounds gives the native engine\'s counters for that seed', async () => {
    const p = await openPage('?seed=7&horizon=100');
    await p.click('#step');
    await waitFor(p, () => document.body.dataset.round === '100', null, { timeout: 60000 });
    const want = await native;
    for (let i = 0; i < 2; i++) {
      const got = await counters(p, i);
      const w = want[i];
      assert(got.round === w.t && got.switches === w.switches, `policy ${i}: round ${got.round}/${w.t}, switches ${got.switches}/${w.switches}`);
      for (const [k, nk] of [['hit', 'hit_rate'], ['cost', 'avg_realised_cost'], ['regret', 'avg_regret']]) {
        assert(Math.abs(got[k] - w[nk]) <= 1e-9 * Math.max(1, Math.abs(w[nk])), `policy ${i} ${k}: page ${got[k]}, native ${w[nk]}`);
      }
    }
    await p.close();
  });

  await check('a link with bad keys opens with a message, keeps the good keys and works', async () => {
    const p = await openPage('?k=0&kapa=1&p2=lru&view=nope');
    const msg = await p.textContent('#banner');
    assert(/kapa/.test(msg) && /`k`/.test(msg) && /nope/.test(msg), msg);
    assert(await p.inputValue('#p2') === 'lru' && await p.inputValue('#k') === '5', 'good keys lost or bad ones used');
    await p.click('#step');
    await waitFor(p, () => document.body.dataset.round === '100', null, { timeout: 30000 });
    await p.close();
  });

  await check('online regret view: runs over seeds, draws mean and band, then efficiency reuses the runs', async () => {
    const p = await openPage('?view=regret&seeds=3&horizon=300&policies=clcb-sc-ls-cont,greedy,lfu', undefined, { ready: false });
    await jobDone(p, 'regret');
    const data = await p.evaluate(() => [...document.querySelectorAll('[data-job=regret] figure.chart')].map((c) => c.chartData));
    // average regret, its loss gap and its switching cost, switches, realised cost, error rate (SPEC §14)
    assert(data.length === 6 && data.every((d) => d.series.length === 3), `charts ${data.length}`);
    const pt = data[0].series[0].points.at(-1);
    assert(pt.x === 300 && pt.lo < pt.y && pt.hi > pt.y, JSON.stringify(pt));
    // the regret's two parts add up to it, point by point
    for (const [i, s] of data[0].series.entries()) {
      for (const [j, q] of s.points.entries()) {
        const sum = data[1].series[i].points[j].y + data[2].series[i].points[j].y;
        assert(Math.abs(sum - q.y) < 1e-9, `${s.label} at ${q.x}: ${q.y} ≠ gap + switching ${sum}`);
      }
    }
    await shot(p, 'desktop-regret');
    await p.click('.tabs [data-view=efficiency]');
    assert(p.url().includes('view=efficiency'), p.url());
    await jobDone(p, 'efficiency', 5000);
    assert(await p.locator('[data-view-table] tbody tr, #view-efficiency table.numbers tbody tr').count() === 3, 'efficiency table');
    // The engine's cost per round against t: one line per policy, each named with its fitted
    // growth (time to t ∝ t^a), at rounds up to T, with positive costs; the table's runtime is the
    // curve's end (the time to T of the same runs).
    const eff = await p.evaluate(() => [...document.querySelectorAll('[data-job=efficiency] figure.chart')].map((c) => c.chartData));
    assert(eff.length === 2, `efficiency charts ${eff.length}`);
    const growth = eff[1];
    assert(growth.series.length === 3, JSON.stringify(growth.series.map((s) => s.label)));
    for (const s of growth.series) {
      assert(/time ∝ t\^-?\d+\.\d\d/.test(s.label) && Number.isFinite(s.growth.slope) && s.growth.points >= 2, s.label);
      assert(s.points.length >= 3 && s.points.every((q, i) => q.y > 0 && q.x <= 300 && (!i || q.x > s.points[i - 1].x)), `${s.label}: ${JSON.stringify(s.points)}`);
    }
    await shot(p, 'desktop-efficiency');
    await p.close();
  });

  await check('cancel stops a run and the page keeps working', async () => {
    const p = await openPage('?view=offline&offline=fig-b&seeds=5', undefined, { ready: false });
    await waitFor(p, () => document.querySelector('[data-job=offline]').dataset.status === 'running');
    await p.click('[data-job=offline] .cancel');
    await waitFor(p, () => document.querySelector('[data-job=offline]').dataset.status === 'cancelled');
    await p.selectOption('#offline', 'fig-a');
    await p.fill('#seeds-offline', '1');
    await p.locator('#seeds-offline').blur();
    await jobDone(p, 'offline');
    await shot(p, 'desktop-offline');
    await p.close();
  });

  await check('a paper preset runs to completion and its chart data equals the JSON export', async () => {
    const p = await openPage('?view=paper&preset=fig-a', undefined, { ready: false });
    await jobDone(p, 'paper');
    const [json] = await grab(p, '[data-job=paper] .export-json');
    const report = JSON.parse(json.body.toString());
    assert(report.experiment.id === 'fig-a' && report.experiment.seeds === 5, 'not the quick fig-a');
    const charts = await p.evaluate(() => [...document.querySelectorAll('[data-job=paper] figure.chart')].filter((c) => !c.hidden).map((c) => c.chartData));
    let compared = 0;
    for (const s of charts[0].series) {
      for (const pt of s.points) {
        const st = report.stats.find((x) => x.algorithm === s.key && x.metric === 'gap' && x.x === pt.x);
        assert(st && st.mean === pt.y && st.mean - st.ci95 === pt.lo, `${s.label} at ${pt.x}: chart ${pt.y}, export ${st && st.mean}`);
        compared++;
      }
    }
    const gaps = report.stats.filter((x) => x.metric === 'gap' && x.algorithm !== 'oracle').length;
    assert(compared === gaps && gaps > 0, `compared ${compared} of ${gaps}`);
    const [csv] = await grab(p, '[data-job=paper] .export-csv');
    assert(csv.body.toString().trim().split('\n').length === report.stats.length + 1, 'CSV rows');
    const rows = await p.locator('#headline tbody tr').count();
    assert(rows === 2 && /%/.test(await p.textContent('#headline tbody tr td:nth-of-type(2)')), 'headline table');
    await shot(p, 'desktop-paper');
    await p.close();
  });

  await check('every synthetic preset at quick settings: each headline row has paper, measured, verdict and n; no claim is "reproduced" unless its interval says so; the labels are the run\'s configuration', async () => {
    const p = await openPage('?view=paper&preset=fig-a', undefined, { ready: false });
    await waitFor(p, () => document.querySelectorAll('#preset option').length > 0, null, { timeout: 60000 });
    const menu = await p.evaluate(() => [...document.querySelectorAll('#preset option')].map((o) => o.value));
    assert(menu.join() === 'fig-a,fig-b,fig-c,fig-e,abl-k,krr-err,geom', `menu ${menu}`);
    // The engine's words (csc::experiment::headline::words): both parts of a verdict.
    const verdictWords = /^(reproduced: |direction holds; differs: |differs: |not reproduced: direction fails|undecided |identical on every seed|not run$|no claim \(measured\)$|measured: the paper states no number|calibrated, not reproduced: |not a caching win: )/;
    await p.close();
    for (const id of menu.filter((m) => m !== 'fig-e')) { // fig-e: tests/e2e/embed.mjs, on the bundle
      const p = await openPage(`?view=paper&preset=${id}`, undefined, { ready: false });
      await jobDone(p, 'paper', 300000);
      const [json] = await grab(p, '[data-job=paper] .export-json');
      const report = JSON.parse(json.body.toString());
      assert(report.experiment.id === id && report.experiment.seeds >= 5, `${id}: ${report.experiment.id}, ${report.experiment.seeds} seeds`);
      const rows = await p.evaluate(() => [...document.querySelectorAll('#headline tbody tr')].map((tr) => ({ verdict: tr.dataset.verdict, cells: [...tr.cells].map((c) => c.textContent) })));
      assert(rows.length === report.headline.rows.length && rows.length > 0, `${id}: ${rows.length} rows, report ${report.headline && report.headline.rows.length}`);
      rows.forEach((r, i) => {
        const h = report.headline.rows[i];
        const [what, paper, measured, verdict] = r.cells;
        assert(what === h.what && paper === h.paper && paper !== '', `${id} row ${i}: ${JSON.stringify(r.cells)}`);
        assert(measured.endsWith(`(n = ${h.n})`) && h.n >= 1, `${id} row ${i} measured: ${measured}`);
        assert(verdictWords.test(verdict) && verdict === h.verdict_text, `${id} row ${i} verdict: ${verdict}`);
        // A direction is reproduced only if its paired interval excludes zero on the paper's side.
        if (h.verdict === 'reproduced' && h.outcome.difference) {
          assert(h.outcome.difference.lo > 0, `${id}: "${h.what}" reproduced with interval ${JSON.stringify(h.outcome.difference)}`);
        }
      });
      // The labels: the description the page shows is the one the engine generated from the run.
      const ran = await p.textContent('#preset-ran');
      assert(ran === `Ran: ${report.description}.` && ran.includes(`${report.experiment.seeds} seeds`), `${id}: ${ran}`);
      const interval = await p.textContent('#headline .interval-def');
      assert(/95% Student-t half-width over the n seeds/.test(interval), interval);
      // Every chart has a text alternative: its title, axes and where each series ends.
      const alts = await p.evaluate(() => [...document.querySelectorAll('[data-job=paper] figure.chart')].filter((c) => !c.hidden).map((c) => c.querySelector('svg.chart-plot').getAttribute('aria-label')));
      assert(alts.length > 0 && alts.every((a) => /\. Last points: .+ at /.test(a)), `${id}: ${JSON.stringify(alts)}`);
      if (id === 'fig-c') await shot(p, 'desktop-paper-fig-c');
      await p.close();
    }
  });

  await check('plane draws the KRR surface, exact cells and a rich net (per-dataset ε)', async () => {
    const p = await openPage('?dataset=plane&speed=50');
    assert(await p.inputValue('#epsilon') === '0.1', 'plane ε');
    await p.click('#play');
    await waitFor(p, () => Number(document.querySelector('#panel-0 [data-counter=round]').textContent) >= 500, null, { timeout: 30000 });
    await p.click('#play');
    await p.waitForTimeout(700);
    assert(/KRR estimate/.test(await p.textContent('#legend')), 'heat legend');
    await shot(p, 'desktop-plane');
    await p.close();
  });
  await check('embed=1 hides controls and text', async () => {
    const p = await openPage('?embed=1&dataset=plane');
    assert(await p.isHidden('#play'), 'play visible');
    assert(await p.isHidden('header'), 'header visible');
    assert(await p.isHidden('.tabs'), 'tabs visible');
    assert(await p.isVisible('#panel-0 canvas'), 'canvas hidden');
    // …but it still names itself and links to the full page (without embed=1) and the paper.
    assert(await p.isVisible('#embed-credit'), 'no title or attribution in embed mode');
    const full = await p.getAttribute('#embed-full', 'href');
    assert(!full.includes('embed=1') && full.includes('dataset=plane'), full);
    await shot(p, 'embed-plane');
    await p.close();
  });
  await check('your data: a malformed file shows an error and the page keeps working; a good one plays', async () => {
    const p = await openPage();
    await p.setInputFiles('#file', { name: 'bad.jsonl', mimeType: 'application/json', buffer: Buffer.from('{"text": "a", "tokens": 3, "embedding": [1, 0]}\nnot json\n') });
    // "Reading bad.jsonl…", "Checking bad.jsonl…" with a progress bar while the worker parses, then the verdict.
    await waitFor(p, () => { const m = document.getElementById('upload-msg'); return !m.hidden && !m.querySelector('progress'); });
    const msg = await p.textContent('#upload-msg');
    assert(/^Could not load your data/.test(msg) && /line 2|json/i.test(msg), msg);
    await p.click('#step');
    await waitFor(p, () => document.body.dataset.round === '100', null, { timeout: 30000 });
    const rows = Array.from({ length: 30 }, (_, i) => JSON.stringify({ text: `q${i}`, tokens: 5 + (i % 7), embedding: unit(Array.from({ length: 8 }, (_, j) => Math.sin(i * 0.7 + j * 1.3))) }));
    await p.setInputFiles('#file', { name: 'mine.jsonl', mimeType: 'application/json', buffer: Buffer.from(rows.join('\n')) });
    await waitFor(p, () => /^Ready: 30 queries/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    assert(p.url().includes('dataset=upload'), p.url());
    await p.click('#step');
    await waitFor(p, () => document.body.dataset.round === '100', null, { timeout: 30000 });
    await p.close();
  });
  await check('your data in the live view: the arrival model (only offered for uploaded data) changes the stream; an index file of arrivals replays in its order; the paper preset labels its numbers not applicable', async () => {
    const p = await openPage('?horizon=200&n_eval=200&seeds=1');
    // built-in data keeps its SPEC model: no arrival choice, in the live view or elsewhere
    assert(await p.isHidden('#arrival-row'), 'the arrival choice shows for the synthetic dataset (live view)');
    await p.click('.tabs [data-view=regret]');
    assert(await p.isHidden('#arrival-row'), 'the arrival choice shows for the synthetic dataset (regret view)');
    await p.click('.tabs [data-view=live]');
    // every progress bar of a check is determinate (value of max)
    await p.evaluate(() => {
      window.__bars = [];
      new MutationObserver(() => {
        for (const b of document.querySelectorAll('#upload-msg progress')) {
          window.__bars.push({ label: b.ariaLabel, value: b.getAttribute('value'), max: b.getAttribute('max') });
        }
      }).observe(document.getElementById('upload-msg'), { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const rows = Array.from({ length: 30 }, (_, i) => JSON.stringify({ text: `q${i}`, tokens: 5 + (i % 7), kind: i < 15 ? 'a' : 'b', embedding: unit(Array.from({ length: 8 }, (_, j) => Math.sin(i * 0.7 + j * 1.3))) }));
    await p.setInputFiles('#file', { name: 'mine.jsonl', mimeType: 'application/json', buffer: Buffer.from(rows.join('\n')) });
    await waitFor(p, () => /^Ready: 30 queries, T = 200, uniform arrivals/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    const bars = await p.evaluate(() => window.__bars);
    assert(bars.length && bars.every((b) => b.value !== null && Number(b.max) >= 1), `indeterminate progress: ${JSON.stringify(bars.slice(0, 3))}`);
    assert(bars.some((b) => /^Reading mine\.jsonl: .* MB$/.test(b.label)) && bars.some((b) => /^Checking mine\.jsonl: distances measured for 30 \/ 30 rows$/.test(b.label)),
      `progress labels ${JSON.stringify([...new Set(bars.map((b) => b.label))])}`);
    assert(await p.isVisible('#arrival'), 'the arrival choice is not offered for uploaded data in the live view');
    const traceOf = async () => {
      const [t] = await grab(p, '#export-trace');
      return JSON.parse(t.body.toString());
    };
    const play = async (n) => {
      await p.click('#step');
      await waitFor(p, (n) => document.body.dataset.round === String(n), n, { timeout: 30000 });
    };
    await play(100);
    let t = await traceOf();
    assert(!t.arrival_idx && t.meta.arrival_model.model === 'jittered', `uniform: ${JSON.stringify(t.meta.arrival_model)}`);
    // bursty by a field: bursts start in the first group (rows 0–14) and stay in one group
    await p.selectOption('#arrival', 'bursty'); // without its field: the live view says what is missing
    await waitFor(p, () => /^Error: .*group/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    await p.fill('#group-by', 'kind');
    await p.locator('#group-by').blur();
    await waitFor(p, () => /^Ready: 30 queries, T = 200, bursty arrivals grouped by kind/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    await play(100);
    t = await traceOf();
    const firstB = t.arrival_idx.findIndex((v) => v >= 15);
    assert(t.meta.arrival_model.model === 'bursty' && t.arrival_idx[0] < 15 && (firstB < 0 || t.arrival_idx.slice(firstB, firstB + 5).every((v) => v >= 15 || firstB + 5 > 200)),
      `bursty ${JSON.stringify(t.arrival_idx.slice(0, 12))}, first of group b at ${firstB}`);
    // replay: the file is the stream, T its length
    await p.selectOption('#arrival', 'replay');
    await waitFor(p, () => /^Ready: 30 queries, T = 30, replay arrivals/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    await play(30);
    t = await traceOf();
    assert(JSON.stringify(t.arrival_idx) === JSON.stringify([...Array(30).keys()]), `replay order ${JSON.stringify(t.arrival_idx)}`);
    // popularity: exact rows, not in file order
    await p.selectOption('#arrival', 'popularity');
    await waitFor(p, () => /^Ready: 30 queries, T = 200, popularity arrivals/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    await play(100);
    t = await traceOf();
    assert(t.arrival_idx?.length === 200 && t.arrival_idx.slice(0, 30).some((v, i) => v !== i), `popularity ${JSON.stringify(t.arrival_idx?.slice(0, 10))}`);
    // an index file of arrivals: a bad one gets its one message; a good one is the stream
    await p.selectOption('#arrival', 'replay');
    assert(await p.isVisible('#replay-row'), 'the index file picker');
    await p.setInputFiles('#replay-file', { name: 'bad-log.txt', mimeType: 'text/plain', buffer: Buffer.from('3\n31\n') });
    await waitFor(p, () => /^Could not load/.test(document.getElementById('upload-msg').textContent));
    const bad = await p.textContent('#upload-msg');
    assert(bad === 'Could not load the index file: bad-log.txt, line 2: row 31 is out of range: mine has 30 records (rows 0 to 29) — fix or remove this line', bad);
    await p.setInputFiles('#replay-file', { name: 'log.txt', mimeType: 'text/plain', buffer: Buffer.from('5\n3\n3\n0\n29\n') });
    await waitFor(p, () => /^Ready: 30 queries, T = 5, replay arrivals in the order of log\.txt/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    assert(/^Loaded log\.txt: 5 arrivals/.test(await p.textContent('#upload-msg')), await p.textContent('#upload-msg'));
    await play(5);
    t = await traceOf();
    assert(JSON.stringify(t.arrival_idx) === '[5,3,3,0,29]', `index order ${JSON.stringify(t.arrival_idx)}`);
    assert(new URL(p.url()).hash.includes('index=log.txt'), p.url());
    await shot(p, 'desktop-upload-replay');
    await p.setViewportSize({ width: 390, height: 844 });
    await p.waitForTimeout(300);
    await shot(p, 'phone-upload-replay');
    const sw = await p.evaluate(() => document.documentElement.scrollWidth);
    assert(sw <= 390, `phone, uploaded data: scrollWidth ${sw}`);
    await p.setViewportSize({ width: 1280, height: 800 });
    // a paper preset on uploaded data: the paper's numbers are labelled not applicable
    await p.click('.tabs [data-view=paper]');
    await p.selectOption('#preset', 'fig-c');
    await jobDone(p, 'paper');
    const head = await p.textContent('#headline');
    assert(/not applicable/.test(head) && /do not apply/.test(head) && !/0\.0083|72\.41/.test(head), head);
    await shot(p, 'desktop-upload-paper');
    // back to a built-in: the choice goes away, the stream is the SPEC model again
    await p.click('.tabs [data-view=live]');
    await p.selectOption('#dataset', 'synthetic');
    await waitFor(p, () => /^Ready: 50 queries, T = 200 \(/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    assert(await p.isHidden('#arrival-row'), 'the arrival choice stays for a built-in dataset');
    await p.close();
  });
  await check('the nq-trivia files load through the checking worker with a determinate progress bar', async () => {
    const data = process.env.CSC_DATA || path.join(root, '../shared/data');
    const p = await openPage();
    await p.click('.tabs [data-view=paper]');
    await p.evaluate(() => {
      window.__bars = [];
      new MutationObserver(() => {
        for (const b of document.querySelectorAll('#upload-msg progress')) window.__bars.push({ label: b.ariaLabel, value: b.getAttribute('value'), max: b.getAttribute('max') });
      }).observe(document.getElementById('upload-msg'), { subtree: true, childList: true, attributes: true });
    });
    const files = await Promise.all(['nq.jsonl', 'nq.emb.f32', 'triviaqa.jsonl', 'triviaqa.emb.f32'].map(async (name) => ({ name, mimeType: 'application/octet-stream', buffer: await readFile(path.join(data, name)) })));
    await p.setInputFiles('#file', files);
    await waitFor(p, () => /^Loaded nq-trivia \(5000 questions\)/.test(document.getElementById('upload-msg').textContent), null, { timeout: 120000 });
    const bars = await p.evaluate(() => window.__bars);
    const labels = [...new Set(bars.map((b) => b.label))];
    assert(bars.every((b) => b.value !== null), 'an indeterminate bar');
    assert(labels.some((l) => /^Reading .*: [\d.]+ \/ [\d.]+ MB$/.test(l)) && labels.some((l) => /^Checking nq-trivia: distances measured for [\d,]+ \/ 5,000 rows$/.test(l)), JSON.stringify(labels.slice(-4)));
    await p.close();
  });
  await check('your data in the regret view: bursty arrivals by a field, and the JSON export names the file and its checksum', async () => {
    // 60 rows of the shared data (30 NQ, 30 TriviaQA) with inline embeddings, in the user's layout.
    const data = process.env.CSC_DATA || path.join(root, '../shared/data');
    const rows = [];
    for (const [src, group] of [['nq', 'natural'], ['triviaqa', 'trivia']]) {
      const lines = (await readFile(path.join(data, `${src}.jsonl`), 'utf8')).split('\n').filter((l) => l.trim()).slice(0, 30);
      const emb = await readFile(path.join(data, `${src}.emb.f32`));
      const f = new Float32Array(emb.buffer, emb.byteOffset, 30 * 384);
      lines.forEach((l, i) => {
        const r = JSON.parse(l);
        rows.push(JSON.stringify({ id: r.id, text: r.text, tokens: r.tokens, kind: group, embedding: Array.from(f.subarray(i * 384, (i + 1) * 384)) }));
      });
    }
    const p = await openPage('?seeds=2&horizon=300&policies=clcb-sc-ls-cont,greedy');
    await p.setInputFiles('#file', { name: 'mine-queries.jsonl', mimeType: 'application/json', buffer: Buffer.from(rows.join('\n')) });
    await waitFor(p, () => /^Ready: 60 queries/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    const checksum = await p.textContent('#dataset-checksum');
    assert(/^[0-9a-f]{8,}$/.test(checksum), `checksum ${checksum}`);
    await p.click('.tabs [data-view=regret]');
    assert(await p.isVisible('#arrival'), 'the arrival model is not offered for uploaded data');
    await p.fill('#group-by', 'kind');
    await p.selectOption('#arrival', 'bursty');
    await jobDone(p, 'regret');
    const [res] = await grab(p, '[data-job=regret] .export-json');
    const rep = JSON.parse(res.body.toString());
    const ds = rep.experiment.dataset;
    assert(ds.jsonl === 'mine-queries.jsonl' && ds.checksum === checksum, `experiment.dataset ${JSON.stringify(ds)}, page checksum ${checksum}`);
    assert(ds.arrival?.model === 'bursty' && ds.arrival.group_by === 'kind', `arrival ${JSON.stringify(ds.arrival)}`);
    assert(rep.units.length === 2 && rep.units.every((u) => u.dataset.checksum === checksum && u.dataset.size === 60 && u.dataset.name === 'mine-queries'),
      `units' datasets ${JSON.stringify(rep.units.map((u) => u.dataset))}`);
    assert(rep.experiment.title.includes('mine-queries.jsonl') && !/synthetic|nq-trivia/.test(rep.experiment.title), rep.experiment.title);
    assert(/mine-queries/.test(res.name), res.name);
    const link = new URL(p.url());
    assert(link.hash.includes('data=mine-queries.jsonl') && link.hash.includes(`checksum=${checksum}`) && link.hash.includes('arrival=bursty'), `link ${link}`);
    await p.close();
    const q = await openPage(link.search + link.hash, undefined, { ready: false });
    await waitFor(q, () => document.body.dataset.ready === 'true');
    const note = await q.textContent('#banner');
    assert(note.includes('mine-queries.jsonl') && note.includes(checksum), `banner: ${note}`);
    assert(await q.inputValue('#arrival') === 'bursty' && await q.inputValue('#group-by') === 'kind', 'the link\'s arrival model');
    await q.close();
  });
  // Accessibility (axe-core, WCAG 2.1 A/AA with its experimental rules, in every view once it has run): tests/e2e/a11y.mjs.
  for (const [name, viewport] of [['phone', { width: 390, height: 844 }], ['narrow', { width: 360, height: 740 }]]) {
    await check(`${name} layout (${viewport.width} px) has no horizontal overflow`, async () => {
      const p = await openPage('', viewport);
      await p.click('#step');
      await waitFor(p, () => Number(document.querySelector('#panel-0 [data-counter=round]').textContent) >= 100, null, { timeout: 30000 });
      await p.waitForTimeout(200);
      await shot(p, `${name}-live`);
      let sw = await p.evaluate(() => document.documentElement.scrollWidth);
      assert(sw <= viewport.width, `live: scrollWidth ${sw}`);
      await p.click('.tabs [data-view=paper]');
      await p.selectOption('#preset', 'geom');
      await jobDone(p, 'paper');
      await shot(p, `${name}-paper`);
      sw = await p.evaluate(() => document.documentElement.scrollWidth);
      assert(sw <= viewport.width, `paper: scrollWidth ${sw}`);
      await p.close();
    });
  }
  await check('a 10⁶-round online run (greedy, lfu) in a worker keeps wasm memory bounded and the page answering', async () => {
    const p = await openPage();
    const r = await longRun(p);
    const MiB = 2 ** 20;
    console.log(`     long run: ${r.rounds} rounds of ${r.policies.join(', ')} on 50 8-dim prompts (n_eval ${r.params.n_eval}, ${r.chunks} chunks of ${r.chunk}): ` +
      `set-up ${(r.initMs / 1e3).toFixed(1)} s, stepping ${(r.stepMs / 1e3).toFixed(1)} s (largest chunk ${r.maxChunkMs.toFixed(0)} ms), wall ${(r.wallMs / 1e3).toFixed(1)} s; ` +
      `wasm memory ${(r.memStart / MiB).toFixed(1)} MiB before, ${(r.memInit / MiB).toFixed(1)} after set-up, ${(r.mem1e5 / MiB).toFixed(1)} at 10⁵ rounds, ` +
      `${(r.memEnd / MiB).toFixed(1)} at 10⁶ = ${r.bytesPerRound.toFixed(2)} bytes/round; page answered ${r.answered}× (slowest ${r.maxEvalMs} ms, ` +
      `largest main-thread gap ${r.maxGapMs.toFixed(0)} ms)` + (r.heapEnd === null ? '' : `; page JS heap ${(r.heapStart / MiB).toFixed(1)} → ${(r.heapEnd / MiB).toFixed(1)} MiB`));
    assert(r.rounds === 1_000_000 && r.counters.every((c) => c.t === 1_000_000), `stopped at round ${r.rounds}`);
    assert(r.memEnd <= 2 * r.mem1e5 + 16 * MiB, `wasm memory grew from ${r.mem1e5} bytes at 10⁵ rounds to ${r.memEnd} at 10⁶`);
    assert(r.answered >= r.chunks / 4 && r.maxEvalMs < 2000, `the page answered ${r.answered}× over ${r.chunks} chunks, slowest in ${r.maxEvalMs} ms`);
    await p.close();
  });
  await check('no console errors', async () => assert(consoleErrors.length === 0, consoleErrors.join(' | ')));
  await check('no request to another origin', async () => assert(foreign.length === 0, foreign.join(' ')));
  await failureCases();
} catch (e) {
  if (e !== SKIP_REST) throw e;
} finally {
  await browser.close();
  server.close();
}
done();
