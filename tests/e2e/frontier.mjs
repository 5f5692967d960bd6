// End-to-end test of the frontier view in headless Chromium, on the page
// without a bundle: loads the six nq-trivia files of the shared data (with the gold answers) as a
// reader would, runs the frontier at the engine's quick settings on the worker pool, and checks
//   - a point of the chart against the CLI's value for the same definition (`csc run` on the
//     definition the page exported): every statistic but runtime bit for bit, and the chart's
//     point equal to the CLI's chart data (<id>.frontier.csv);
//   - the page's paired difference of that point against GPTCache's preset (the default reference)
//     equals the CLI's (.frontier.csv), in value and in the engine's words; the sentence above the
//     chart shows exactly when nothing is distinguishable; the note on flat threshold regret shows
//     exactly when the regrets agree; picking another reference recomputes every difference;
//   - no drawn interval of a [0, 1] quantity leaves [0, 1] and no axis tick is below 0;
//   - the point's hover text names its configuration, metrics and differences;
//   - its row's button (the keyboard's click) opens that configuration in the regret view, whose
//     run reproduces the point's realised cost and error rate;
//   - on `plane` the view shows "—" and the engine's reason and runs nothing, and an online
//     report without ground truth draws its error-rate chart as "—" with the reason.
//   - a point of the P-CHR chart against the CLI's <id>.pchr.csv, and the GDSF family;
//   - while units remain the view decides nothing: the engine's sentence says how many units are
//     in, every paired cell reads "not decided (run incomplete)" (read mid-run, as a reader sees it);
//   - T = 2,000 set by the view's control runs `csc run frontier` itself (the CLI's own experiment,
//     T = 2,000): its definition and every statistic but runtime equal, and every cell of the
//     page's table equal to the CLI's .frontier.csv in the engine's words; the link the control
//     made opens with T = 2,000 in the control and in what the view says it runs, and, given the
//     files, its run's table equals the CLI's at T = 2,000 cell for cell;
//   - every paired cell's verdict is the one its interval, as shown beside it, gives (cheaper or
//     dearer when it lies wholly on one side of 0, else not distinguishable);
//   - your data loaded from the Frontier view keeps the reader there, re-runs the frontier on it
//     (never the old run's partial result under "Done"), and the caption names the arrival model;
// Screenshots of the view at 1440, 768 and 390 px go to artifacts/ (the table fits each). Prints "N passed, M failed".
//   CSC_DATA=/work/shared/data node tests/e2e/frontier.mjs
import { readFile, readdir, writeFile, mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, requirePkg, NQ_FILES, SHARED_DATA, statusOnceDataKnown } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
requirePkg(www);
// The same package in node, for the engine's own formatting of the CLI's numbers.
const csc = await import(pathToFileURL(path.join(www, 'pkg', 'csc.js')).href);
csc.initSync({ module: readFileSync(path.join(www, 'pkg', 'csc_bg.wasm')) });
const artifacts = path.join(root, 'artifacts');
const data = SHARED_DATA;
const FILES = NQ_FILES;

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
  page.setDefaultTimeout(180000); // 32 MB of files and every action on a shared, loaded machine
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
/** The words of a decided paired difference (csc::experiment::frontier::Difference::words). */
const DECIDED = /^(cheaper|dearer|fewer wrong answers|more wrong answers|identical on every seed)$/;
/** Keeps a number and its interval on one line, as the page's table cells do (report.js nbsp). */
const nbsp = (t) => t.replaceAll(' ± ', '\u00a0±\u00a0').replaceAll(', ', ',\u00a0');

/** The frontier panel as a reader sees it mid-run, read in one go once its status says units
 *  remain and its table has rows: the status, the sentence above the chart and every paired cell. */
async function midRun(page, timeout = 600000) {
  const end = Date.now() + timeout;
  for (;;) {
    const seen = await page.evaluate(() => {
      const root = document.querySelector('[data-job=frontier]');
      const status = root.querySelector('.status').textContent;
      const rows = root.querySelectorAll('tr[data-point]').length;
      const verdict = root.querySelector('.frontier-undecided');
      return { status, rows, sentence: verdict.hidden ? '' : verdict.textContent, running: root.dataset.status === 'running',
        cells: [...root.querySelectorAll('tr[data-point] td.paired')].map((td) => td.textContent) };
    });
    if (seen.running && seen.rows > 0) return seen;
    assert(Date.now() < end && !/^Done/.test(seen.status), `the run ended before a partial table was seen: ${seen.status}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Asserts that a partial table decides nothing: the engine's sentence (n of `units` units) and
 *  every paired cell "not decided" (the reference's own cells aside). */
function decidesNothing(seen, units) {
  const m = /^(\d+) of (\d+) units measured: no point is compared with Threshold \(GPTCache\) until every point has run all 3 seeds\.$/.exec(seen.sentence);
  assert(m && Number(m[2]) === units && Number(m[1]) < units, `mid-run (${seen.status}) the sentence reads "${seen.sentence}"`);
  const decided = seen.cells.filter((c) => DECIDED.test(c.replace(/^.*: /, '')));
  assert(!decided.length, `mid-run cells claim a decision: ${decided.slice(0, 3).join(' | ')}`);
  assert(seen.cells.every((c) => c === 'the reference' || c === '—' || c.endsWith(': not decided (run incomplete)')), `mid-run cells: ${seen.cells.slice(0, 4).join(' | ')}`);
}

/** Runs the CLI with `args` (plus the data and an output folder) and compares its report with the
 *  page's JSON export of the frontier: every statistic but runtime bit for bit, and every cell of
 *  the page's table with the CLI's .frontier.csv written by the engine's own formatters (in node).
 *  Returns the CLI's report, its .frontier.csv as rows and its output folder. */
async function againstCli(page, pageJson, args) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'csc-frontier-'));
  await writeFile(path.join(dir, 'frontier-page.json'), JSON.stringify(pageJson.experiment));
  await run('cargo', ['run', '--quiet', '--locked', '--profile', 'test', '--bin', 'csc', '--', 'run', ...args(path.join(dir, 'frontier-page.json')),
    '--data', data, '--out', path.join(dir, 'out'), '--quiet'], { cwd: root, maxBuffer: 1 << 26 });
  const out = path.join(dir, 'out');
  const outs = await readdir(out);
  const cli = JSON.parse(await readFile(path.join(out, outs.find((f) => /^[^.]+\.json$/.test(f))), 'utf8'));
  const a = statsBut(pageJson), b = statsBut(cli);
  assert(a.length === b.length && a.length > 0, `${a.length} statistics in the page, ${b.length} from the CLI`);
  const differ = a.filter((s, i) => s !== b[i]);
  assert(!differ.length, `${differ.length} statistics differ, e.g. page ${differ[0]} vs CLI ${b[a.indexOf(differ[0])]}`);
  const csv = (await readFile(path.join(out, outs.find((f) => /\.frontier\.csv$/.test(f))), 'utf8')).trim().split('\n').map((l) => l.split(','));
  await cellsAgainstCsv(page, csv);
  return { cli, csv, out };
}

/** The verdict a paired cell's own numbers give ("−0.0031 ± 0.0012: cheaper"): the engine's rule
 *  (frontier::paired::Difference::of: decided when the paired 95% interval lies wholly on one
 *  side of 0), read from the interval as shown; null where its rounded ends touch 0 (either
 *  reading is then possible). `cost`: realised cost (cheaper, dearer), else error rate. */
function verdictByNumbers(text, cost) {
  const m = /^([−+]?[\d.]+)(?:\u00a0±\u00a0([\d.]+))?: (.*)$/.exec(text);
  assert(m, `a paired cell that is not "mean ± half: verdict": "${text}"`);
  const mean = Number(m[1].replace('−', '-').replace('+', '')), half = m[2] == null ? NaN : Number(m[2]);
  if (mean === 0 && half === 0) return ['identical on every seed', 'not distinguishable'];
  if (!Number.isFinite(half)) return ['not distinguishable'];
  if (mean + half < 0) return [cost ? 'cheaper' : 'fewer wrong answers'];
  if (mean - half > 0) return [cost ? 'dearer' : 'more wrong answers'];
  if (mean - half < 0 && mean + half > 0) return ['not distinguishable'];
  return null;
}

/** The page's frontier table, cell for cell, against the CLI's .frontier.csv (rows: header first),
 *  and every paired cell's verdict against its own interval (verdictByNumbers). */
async function cellsAgainstCsv(page, csv) {
  const head = csv[0];
  // Cell for cell: the page's table (families in order, values ascending, as the CSV) against the
  // CLI's numbers in the engine's words: each interval (formatBounds), each paired difference
  // (formatDifference and its verdict).
  const rows = await page.$$eval('[data-job=frontier] tr[data-point]', (trs) => trs.map((tr) => ({ series: tr.dataset.series, cells: [...tr.cells].slice(1, 7).map((td) => td.textContent) })));
  assert(rows.length === csv.length - 1, `${rows.length} rows in the page's table, ${csv.length - 1} in the CLI's`);
  const num = (v) => (v === '' ? null : Number(v));
  rows.forEach((r, i) => {
    const c = csv[i + 1], col = (name) => c[head.indexOf(name)];
    assert(r.series === c[0], `row ${i}: page ${r.series}, CLI ${c[0]}`);
    const want = ['final_avg_realised_cost', 'final_error_rate', 'final_hit_rate', 'final_avg_regret']
      .map((m) => (col(m) === '' ? '—' : nbsp(csc.formatBounds(num(col(m)), num(col(`${m}_lo`)), num(col(`${m}_hi`))))));
    for (const q of ['cost', 'error']) {
      const verdict = col(`${q}_verdict`), mean = col(`${q}_vs_reference`);
      want.push(mean === '' ? '—' : verdict === 'the reference' ? verdict : `${nbsp(csc.formatDifference(num(mean), num(col(`${q}_vs_reference_ci95`))))}: ${verdict}`);
    }
    const bad = r.cells.findIndex((t, j) => t !== want[j]);
    assert(bad < 0, `row ${i} (${c[0]} ${c[3]}), cell ${bad}: page "${r.cells[bad]}", CLI "${want[bad]}"`);
    // Each paired verdict is the one its interval, as shown beside it, gives.
    [4, 5].forEach((j) => {
      const t = r.cells[j];
      if (t === '—' || t === 'the reference') return;
      const ok = verdictByNumbers(t, j === 4), said = t.replace(/^.*: /, '');
      assert(ok === null || ok.includes(said), `row ${i} (${c[0]} ${c[3]}): "${t}" but its interval reads ${ok && ok.join(' or ')}`);
    });
  });
}

let page, pageReport, chosen, cliCsv, cliOut, cliReport;
/** The default reference's point, from the CLI's CSV. */
const at0 = (csv) => csv[1][csv[0].indexOf('reference_point')];
try {
  await check('the frontier runs on the nq-trivia files (with gold answers) loaded into the bundle-less page, deciding nothing while units remain', async () => {
    page = await openPage('?view=frontier&dataset=nq-trivia&workers=2');
    assert(/not bundled/.test(await statusOnceDataKnown(page, 'frontier')), 'the bundle-less page asks for the files');
    const files = await Promise.all(FILES.map(async (name) => ({ name, mimeType: 'application/octet-stream', buffer: await readFile(path.join(data, name)) })));
    await page.setInputFiles('#file', files);
    await waitFor(page, () => /^Loaded nq-trivia \(5000 questions\).*gold answers/.test(document.getElementById('upload-msg').textContent), null, { timeout: 180000 });
    const runs = await page.textContent('.frontier-runs');
    assert(runs === 'Runs: Cost–correctness frontier on nq-trivia (k = 50, T = 1,000, n_eval = 1,000, 3 seeds).', runs);
    // While units remain, nothing is decided (the engine's sentence says how many are in).
    const seen = await midRun(page);
    decidesNothing(seen, 87);
    console.log(`     mid-run (${seen.status}): "${seen.sentence}"`);
    const status = await jobDone(page, 'frontier', 1800000);
    console.log(`     ${status}`);
    assert(/^Done: 87 units/.test(status), status);
  });

  await check('the CLI on the exported definition gives every statistic bit for bit and every cell of the table; a chart point equals its chart data', async () => {
    pageReport = await exportJson(page, 'frontier');
    const def = pageReport.experiment;
    assert(def.measure.kind === 'frontier' && def.params.k === 50 && def.params.horizon === 1000 && def.params.n_eval === 1000 && def.seeds === 3, JSON.stringify(def.params));
    const { csv, out, cli } = await againstCli(page, pageReport, (file) => [file]);
    cliReport = cli;
    // The chart's point: vCache at δ = 0.05, against the CLI's chart data.
    const chart = await chartData(page, 'frontier');
    const series = chart.series.find((s) => s.key === 'vcache');
    assert(series && series.points.length === 6, `the vCache series: ${JSON.stringify(chart.series.map((s) => [s.key, s.points.length]))}`);
    chosen = series.points.find((p) => p.value === 0.05);
    const head = csv[0], row = csv.find((r) => r[0] === 'vcache' && r[3] === '0.05');
    const col = (name) => Number(row[head.indexOf(name)]);
    assert(chosen.x === col('final_error_rate') && chosen.y === col('final_avg_realised_cost'),
      `chart (${chosen.x}, ${chosen.y}) vs CLI (${col('final_error_rate')}, ${col('final_avg_realised_cost')})`);
    const [c, cc, e, ec] = ['final_avg_realised_cost', 'final_avg_realised_cost_ci95', 'final_error_rate', 'final_error_rate_ci95'].map(col);
    // The drawn intervals are the engine's, clipped to the quantities' ranges (the CLI's _lo, _hi).
    const [clo, chi, elo, ehi] = ['final_avg_realised_cost_lo', 'final_avg_realised_cost_hi', 'final_error_rate_lo', 'final_error_rate_hi'].map(col);
    assert(chosen.n === 3 && chosen.lo === clo && chosen.hi === chi, `the cost's 95% interval [${chosen.lo}, ${chosen.hi}] vs the CLI's [${clo}, ${chi}]`);
    assert(chosen.xlo === elo && chosen.xhi === ehi, `the error rate's 95% interval [${chosen.xlo}, ${chosen.xhi}] vs the CLI's [${elo}, ${ehi}]`);
    assert(clo === Math.max(0, c - cc) && elo === Math.max(0, e - ec) && ehi === Math.min(1, e + ec), `clipping: ${c} ± ${cc}, ${e} ± ${ec}`);
    cliCsv = csv;
    cliOut = out;
    // Every family is a line, its points in parameter order; the single policies are points.
    const keys = chart.series.map((s) => s.key);
    for (const k of ['threshold', 'threshold:threshold-gptcache', 'vcache', 'clcb-sc-ls-cont', 'clcb-sc-ls', 'greedy', 'lfu', 'lru']) assert(keys.includes(k), `no series ${k}: ${keys}`);
    const tau = chart.series.find((s) => s.key === 'threshold').points.map((p) => p.value);
    assert(JSON.stringify(tau) === JSON.stringify([0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]), `τ order ${tau}`);
  });

  await check('a point of the P-CHR chart equals the CLI\'s .pchr.csv, and the GDSF family is drawn', async () => {
    const chart = await chartData(page, 'frontier', 1);
    assert(chart && /P-CHR/.test(chart.title), `no P-CHR chart: ${chart && chart.title}`);
    const file = (await readdir(cliOut)).find((f) => /\.pchr\.csv$/.test(f));
    assert(file, 'the CLI wrote no .pchr.csv');
    const csv = (await readFile(path.join(cliOut, file), 'utf8')).trim().split('\n').map((l) => l.split(','));
    const head = csv[0];
    for (const [key, value] of [['threshold', 0.6], ['threshold:threshold-gdsf', 0.6]]) {
      const point = chart.series.find((s) => s.key === key)?.points.find((p) => p.value === value);
      const row = csv.find((r) => r[0] === key && r[3] === String(value));
      assert(point && row, `${key} at ${value}: page ${JSON.stringify(point)}, CLI ${row}`);
      const col = (name) => Number(row[head.indexOf(name)]);
      assert(point.x === col('hit_ratio') && point.y === col('precision') && point.lo === col('precision_lo') && point.hi === col('precision_hi')
        && point.xlo === col('hit_ratio_lo') && point.xhi === col('hit_ratio_hi'),
        `${key}: page (${point.x}, ${point.y}) [${point.lo}, ${point.hi}] vs CLI (${col('hit_ratio')}, ${col('precision')}) [${col('precision_lo')}, ${col('precision_hi')}]`);
      console.log(`     ${key} τ = ${value}: hit ratio ${point.x}, precision ${point.y}; CLI AUC ${row[head.indexOf('auc')] || '—'}`);
    }
    // The AUCs and the range in the engine's words, as the CLI's report gives them: the legend's
    // AUC at its interval's precision, and the caption saying why the range is what it is.
    const p = cliReport.pchr;
    assert(chart.title.endsWith(`; ${p.range_words}`), `title "${chart.title}" vs "${p.range_words}"`);
    const caption = await page.$$eval('[data-job=frontier] .charts figure.chart', (f) => f[1].querySelector('.chart-caption').textContent);
    assert(p.range_note && caption.includes(p.range_note), `caption "${caption}" lacks "${p.range_note}"`);
    for (const fam of p.families.filter((f) => f.words)) {
      const s = chart.series.find((x) => x.key === fam.key);
      assert(!s || s.label === `${fam.name} (${fam.words})`, `legend "${s?.label}" vs ${fam.name} (${fam.words})`);
      assert(!/0{8}/.test(fam.words), fam.words);
    }
    console.log(`     ${p.range_note}`);
  });

  await check('the page shows the CLI\'s paired difference against GPTCache\'s preset, in the engine\'s words', async () => {
    const head = cliCsv[0], at = (r, name) => r[head.indexOf(name)];
    const cliRow = cliCsv.find((r) => r[0] === 'vcache' && r[3] === '0.05');
    // The reference is GPTCache's preset: its own row says so, in both quantities.
    const ref = cliCsv.find((r) => r[0] === 'threshold:threshold-gptcache');
    assert(at(ref, 'cost_verdict') === 'the reference' && at(ref, 'error_verdict') === 'the reference', ref.join(','));
    assert(await page.inputValue('[data-job=frontier] select.frontier-reference') === at(cliRow, 'reference_point'), 'the picker does not show the default reference');
    const cells = await page.$$eval(`[data-job=frontier] tr[data-series=vcache][data-point="${chosen.point}"] td.paired`, (tds) => tds.map((td) => td.textContent));
    for (const [i, q] of [[0, 'cost'], [1, 'error']]) {
      const m = /^([−+]?)(\d+(?:\.\d+)?)(?:\u00a0±\u00a0(\d+(?:\.\d+)?))?: (.+)$/.exec(cells[i]);
      assert(m, `page cell "${cells[i]}"`);
      // The CLI's difference, written by the engine's one formatter (the CLI's table uses it too).
      const mean = Number(at(cliRow, `${q}_vs_reference`)), ci = at(cliRow, `${q}_vs_reference_ci95`) === '' ? NaN : Number(at(cliRow, `${q}_vs_reference_ci95`));
      const want = csc.formatDifference(mean, ci).replace(' ± ', '\u00a0±\u00a0');
      assert(cells[i] === `${want}: ${at(cliRow, `${q}_verdict`)}`, `${q}: page "${cells[i]}" vs the CLI's ${mean} ± ${ci} ("${want}: ${at(cliRow, `${q}_verdict`)}")`);
      assert(['cheaper', 'dearer', 'fewer wrong answers', 'more wrong answers', 'not distinguishable', 'identical on every seed'].includes(m[4]), m[4]);
    }
    // The sentence above the chart: shown exactly when the CLI decides nothing.
    const decided = cliCsv.slice(1).some((r) => /^(cheaper|dearer|fewer wrong answers|more wrong answers)$/.test(at(r, 'cost_verdict')) || /^(cheaper|dearer|fewer wrong answers|more wrong answers)$/.test(at(r, 'error_verdict')));
    const sentence = await page.$eval('[data-job=frontier] .frontier-undecided', (p) => (p.hidden ? '' : p.textContent));
    assert(decided ? sentence === '' : /^No point is distinguishable from Threshold \(GPTCache\)/.test(sentence), `decided: ${decided}; sentence "${sentence}"`);
    assert(/paired 95% Student-t interval/.test(await page.textContent('[data-job=frontier] .frontier-method')), 'the method is not said');
    console.log(`     vCache δ = 0.05 against GPTCache: cost ${cells[0]}; error ${cells[1]}${sentence ? `; "${sentence}"` : ''}`);
    // Why threshold regret is flat in τ, where it is: the engine's note, when the CLI's regrets agree to 4 decimals.
    const regrets = cliCsv.filter((r) => r[0] === 'threshold').map((r) => Number(at(r, 'final_avg_regret')).toFixed(4));
    const notes = await page.$$eval('[data-job=frontier] .frontier-notes li', (li) => li.map((l) => l.textContent));
    const flat = regrets.every((r) => r === regrets[0]);
    assert(flat === notes.some((n) => n.startsWith(`Threshold's average regret is ${regrets[0]} at every threshold_tau`)), `regrets ${regrets}; notes ${JSON.stringify(notes)}`);
    if (notes.length) console.log(`     note: ${notes[0]}`);
  });

  await check('no drawn interval of a [0, 1] quantity leaves [0, 1]; no axis tick below 0', async () => {
    const chart = await chartData(page, 'frontier');
    for (const s of chart.series) for (const p of s.points) {
      assert(p.xlo == null || (p.xlo >= 0 && p.xhi <= 1), `${s.key}: error rate [${p.xlo}, ${p.xhi}]`);
      assert(p.lo == null || p.lo >= 0, `${s.key}: cost from ${p.lo}`);
    }
    // charts.js keeps Plot's mark names as data-mark ("x-axis tick label", "y-axis tick label").
    const ticks = await page.$$eval('[data-job=frontier] .charts svg [data-mark$="tick label"] text', (t) => t.map((x) => x.textContent));
    assert(ticks.length > 2, `ticks: ${ticks}`);
    assert(!ticks.some((t) => /^[−-]/.test(t)), `a tick below 0: ${ticks}`);
  });

  await check('picking another reference (LRU) recomputes every difference in the engine', async () => {
    const lru = await page.getAttribute('[data-job=frontier] tr[data-series=lru]', 'data-point');
    await page.selectOption('[data-job=frontier] select.frontier-reference', lru);
    await waitFor(page, (p) => /the reference/.test(document.querySelector(`[data-job=frontier] tr[data-point="${p}"] td.paired`)?.textContent || ''), lru, { timeout: 10000 });
    const caption = await page.textContent('[data-job=frontier] table.frontier-points caption');
    assert(/against LRU/.test(caption), caption);
    const meta = (await chartData(page, 'frontier')).series.find((s) => s.key === 'vcache').points.find((p) => p.value === 0.05).meta;
    assert(meta.includes('against LRU'), meta);
    await page.selectOption('[data-job=frontier] select.frontier-reference', at0(cliCsv));
  });

  await check('hovering a point names its configuration and metrics', async () => {
    const m = chosen.meta;
    const meta = (await chartData(page, 'frontier')).series.find((s) => s.key === 'vcache').points.find((p) => p.value === 0.05).meta;
    assert(meta === m, `the hover after picking the reference back: "${meta}" vs "${m}"`);
    for (const part of ['vCache', 'vcache_delta = 0.05', '3 seeds', 'realised cost', 'error rate', 'hit rate', 'average regret', 'against Threshold (GPTCache)']) assert(m.includes(part), `${part} not in "${m}"`);
    const row = await page.getAttribute(`[data-job=frontier] tr[data-series=vcache][data-point="${chosen.point}"]`, 'title');
    assert(row === m, `the table row says "${row}"`);
  });

  await check('the drawn view has no accessibility violation (axe-core); the table fits at 1440, 768 and 390 px; screenshots', async () => {
    const v = await violations(page);
    assert(!v.length, v.join(' | '));
    for (const [width, height] of [[1440, 900], [768, 1024], [390, 844]]) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(artifacts, `frontier-${width}.png`), fullPage: true });
      const fit = await page.evaluate(() => {
        const sc = document.querySelector('[data-job=frontier] .table-scroll');
        return { sw: document.documentElement.scrollWidth, table: sc.scrollWidth, box: sc.clientWidth };
      });
      assert(fit.sw <= width, `page scrollWidth ${fit.sw} at ${width} px`);
      assert(fit.table <= fit.box, `the frontier table is ${fit.table} px wide in a ${fit.box} px box at ${width} px`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
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
  });

  let linkT2000, titleT2000, csvT2000;
  await check('T = 2,000 by the view\'s control is `csc run frontier` itself: the same definition, every statistic and every cell of the table', async () => {
    // Back to the Frontier view (its T = 1,000 run is kept), then T = 2,000 in its own control.
    await page.click('.tabs [data-view=frontier]');
    await waitFor(page, () => document.querySelector('[data-job=frontier]').dataset.status === 'done', null, { timeout: 10000 });
    assert(await page.inputValue('#frontier-horizon') === '1000', 'the control does not show T = 1,000');
    await page.fill('#frontier-horizon', '2000');
    await page.dispatchEvent('#frontier-horizon', 'change');
    await waitFor(page, () => new URLSearchParams(location.search).get('horizon') === '2000', null, { timeout: 10000 });
    linkT2000 = page.url();
    const runs = await page.textContent('.frontier-runs');
    assert(runs === 'Runs: Cost–correctness frontier on nq-trivia (k = 50, T = 2,000, n_eval = 2,000, 3 seeds).', runs);
    const seen = await midRun(page);
    decidesNothing(seen, 87);
    const status = await jobDone(page, 'frontier', 3600000);
    console.log(`     ${status}`);
    const json = await exportJson(page, 'frontier');
    // `csc run frontier`: the CLI's own experiment (T = 2,000, n_eval = 2,000), not the page's file.
    const { cli, csv } = await againstCli(page, json, () => ['frontier']);
    csvT2000 = csv;
    assert(JSON.stringify(json.experiment) === JSON.stringify(cli.experiment), `definitions differ: page ${JSON.stringify(json.experiment.params)} vs CLI ${JSON.stringify(cli.experiment.params)}`);
    assert(json.description === cli.description && /T = 2,000/.test(cli.description), `description: page "${json.description}", CLI "${cli.description}"`);
    const caption = await page.textContent('[data-job=frontier] .charts figure.chart .chart-caption');
    assert(caption.includes('T = 2,000') && !caption.includes('T = 1,000'), caption);
    // The command under the run is the CLI's own: the page ran exactly `csc run frontier`.
    const command = await page.textContent('[data-job=frontier] .cli-command');
    assert(command === 'csc run frontier', command);
    titleT2000 = cli.experiment.title;
    await page.close();
  });

  await check('the link the control made opens the view at T = 2,000 and, given the files, runs `csc run frontier`: every cell of its table the CLI\'s', async () => {
    const p = await openPage(new URL(linkT2000).search);
    assert(await p.inputValue('#frontier-horizon') === '2000', `the control reads ${await p.inputValue('#frontier-horizon')}`);
    const runs = await p.textContent('.frontier-runs');
    // The definition the CLI ran at T = 2,000 (`csc run frontier`), by its title.
    assert(titleT2000 && runs === `Runs: ${titleT2000}.`, `${runs} vs the CLI's ${titleT2000}`);
    assert(/not bundled/.test(await statusOnceDataKnown(p, 'frontier')), 'the bundle-less page asks for the files');
    // The reader's files, as the first run loaded them: the link's run is the CLI's, cell for cell.
    const files = await Promise.all(FILES.map(async (name) => ({ name, mimeType: 'application/octet-stream', buffer: await readFile(path.join(data, name)) })));
    await p.setInputFiles('#file', files);
    await waitFor(p, () => /^Loaded nq-trivia \(5000 questions\).*gold answers/.test(document.getElementById('upload-msg').textContent), null, { timeout: 180000 });
    assert(await p.inputValue('#frontier-horizon') === '2000', 'the files reset T');
    const status = await jobDone(p, 'frontier', 3600000);
    console.log(`     ${status}`);
    assert(csvT2000, 'no CLI table at T = 2,000 to compare with');
    await cellsAgainstCsv(p, csvT2000);
    assert(await p.textContent('[data-job=frontier] .cli-command') === 'csc run frontier', 'the command under the run');
    await p.close();
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
  await check('your data loaded from the Frontier view keeps the reader there and re-runs the frontier on it; its caption names the arrival model', async () => {
    const p = await openPage('?view=frontier&workers=2');
    // The synthetic frontier is running when the reader loads a file (200 labelled queries).
    await waitFor(p, () => /^Running: [1-9]/.test(document.querySelector('[data-job=frontier] .status').textContent), null, { timeout: 120000 });
    const unit = (v) => { const n = Math.hypot(...v); return v.map((x) => x / n); };
    const rows = Array.from({ length: 200 }, (_, i) => JSON.stringify({ text: `q${i}`, tokens: 5 + (i % 7), label: `L${i % 30}`, embedding: unit(Array.from({ length: 8 }, (_, j) => Math.sin(i * 0.7 + j * 1.3))) }));
    await p.setInputFiles('#file', { name: 'mine.jsonl', mimeType: 'application/json', buffer: Buffer.from(rows.join('\n')) });
    await waitFor(p, () => /^Loaded mine\.jsonl/.test(document.getElementById('upload-msg').textContent), null, { timeout: 60000 });
    const q = new URLSearchParams(await p.evaluate(() => location.search));
    assert(q.get('view') === 'frontier' && q.get('dataset') === 'upload', `loading left the Frontier view: ${q}`);
    assert(await p.isVisible('#view-frontier') && await p.isHidden('#view-live'), 'the Frontier view is not shown');
    // At once the view runs on the new data: never the synthetic run's partial result under "Done".
    const now = await p.evaluate(() => ({ status: document.querySelector('[data-job=frontier] .status').textContent, runs: document.querySelector('.frontier-runs').textContent }));
    assert(/^Running/.test(now.status) && now.runs.startsWith('Runs: Cost–correctness frontier on your data (mine.jsonl)'), JSON.stringify(now));
    // Popularity arrivals: the view re-runs on them and its caption says so.
    await p.selectOption('#arrival', 'popularity');
    const status = await jobDone(p, 'frontier', 600000);
    assert(/^Done: 87 units/.test(status), status);
    const json = await exportJson(p, 'frontier');
    assert(json.experiment.dataset.arrival?.model === 'popularity', JSON.stringify(json.experiment.dataset));
    const caption = await p.textContent('[data-job=frontier] .charts figure.chart .chart-caption');
    assert(caption.includes('your data (mine.jsonl), popularity arrivals (log-normal)'), caption);
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
