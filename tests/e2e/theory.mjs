// End-to-end test of the Theory view in headless Chromium:
//   - on synthetic and on nq-trivia (its four files of the shared data, loaded with "Load your
//     data…" as a reader would) the view runs the regret view's run, draws its six panels (each
//     naming the paper's statement) and a table whose every verdict cell equals the engine's words
//     of that check in the run's JSON export (`theory.runs[].checks[].words`), is one of the
//     verdicts, and is the one its stated test (shown in the theorem cell, with its tolerance)
//     gives on the slope interval beside it; a Reg(t) row reads "not confirmed" exactly when a
//     premise row of the same run (ε_t, m_eff violated; γ_t's bound says nothing) fails;
//   - no column of the table is cut off at 1440, 768 or 390 px;
//   - Theorem 5.1's four terms (up to constants) are drawn beside Reg(t), their values at T those
//     of the engine's report (`theory.runs[].bound`);
//   - no page script writes a verdict's words: they come from the engine only;
//   - the offline view on fig. 2(a) draws the gap against n with the n^(−1/2) shape and the
//     engine's fitted slopes, and its table equals the CLI's `theory.offline` for the command the
//     page prints (Theorem 4.1);
//   - `thy-horizon` at its quick settings, run on the page, gives the fit the CLI gives for
//     `csc run thy-horizon --quick` (every statistic but runtime bit for bit, the theory section
//     equal), and the time it took on this machine is printed (a benchmark, not a timed test).
// Prints "N passed, M failed".   CSC_DATA=/work/shared/data node tests/e2e/theory.mjs
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { assert, waitFor, grab, pageSuite, finish, statusOnceDataKnown } from './harness.mjs';
import { csc, runCommand, scratch, stats } from './cli.mjs';

const { root, origin, server, browser, errors, tally, openPage } = await pageSuite();
const { check } = tally;
const data = process.env.CSC_DATA || path.join(root, '../shared/data');
const NQ = ['nq.jsonl', 'nq.emb.f32', 'triviaqa.jsonl', 'triviaqa.emb.f32'];
const WORDS = ['consistent with the theorem', 'consistent within the tolerance', 'not visible at this horizon', 'not visible at these sample sizes',
  'faster than stated at this horizon', 'decays slower than stated at these sample sizes', 'assumption violated here', 'not confirmed: a premise fails here',
  'the bound says nothing at this horizon'];
const small = 'seeds=2&horizon=600&n_eval=300&policies=clcb-sc-ls-cont,greedy';

async function jobDone(page, job, timeout) {
  await waitFor(page, (j) => ['done', 'error'].includes(document.querySelector(`[data-job=${j}]`).dataset.status), job, { timeout, every: 500 });
  const status = await page.textContent(`[data-job=${job}] .status`);
  assert(/^Done/.test(status), status);
  return status;
}

/** The table of panel `job`: each row's quantity, verdict key, cells and the measured interval's ends. */
const tableOf = (page, job) => page.evaluate((j) => [...document.querySelectorAll(`[data-job=${j}] table.theory-checks tbody tr`)]
  .map((tr) => ({ quantity: tr.dataset.quantity, verdict: tr.dataset.verdict, cells: [...tr.children].map((c) => c.textContent),
    lo: Number(tr.cells[3].dataset.lo || NaN), hi: Number(tr.cells[3].dataset.hi || NaN) })), job);

/** A number of the stated test as the engine prints it (`−0.4`, `0.1`). */
const num = (t) => Number(t.replace('−', '-'));

/**
 * The verdict a row's stated test gives on its interval, read from the test's own words and
 * numbers in the theorem cell ("Test: consistent if the upper end ≤ S; within the tolerance if ≤
 * S'; [the bound says nothing if the lower end ≥ V;] violated | faster than stated if the lower
 * end > S'; [not confirmed if …]") and the row's interval; `premiseFails` for Reg rows.
 */
function verdictByTest(row, premiseFails) {
  const test = /Test: (.*)\.$/.exec(row.cells[4])?.[1];
  assert(test, `no stated test in "${row.cells[4]}"`);
  const s = num(/consistent if the upper end ≤ (\S+);/.exec(test)[1]);
  const tol = num(/within the tolerance if ≤ (\S+?);/.exec(test)[1]);
  const vac = /the bound says nothing if the lower end ≥ (\S+?);/.exec(test);
  const above = /(violated|faster than stated|decays slower than stated) if the lower end > (\S+?)(;|$)/.exec(test);
  const { lo, hi } = row;
  if (!(Number.isFinite(lo) && Number.isFinite(hi))) return 'not_visible';
  if (/not confirmed if/.test(test) && premiseFails) return 'violated';
  if (vac && lo >= num(vac[1])) return 'vacuous';
  if (hi <= s) return 'consistent';
  if (hi <= tol) return 'tolerated';
  if (lo > num(above[2])) return above[1] === 'violated' ? 'violated' : 'faster';
  return 'not_visible';
}

/** Every row's verdict against its stated test and interval (grouped by policy and T for the
 *  premises of Reg(t)); returns how many rows were read. */
function verdictsByTheirTests(rows) {
  const key = (r) => `${r.cells[0]}|${r.cells[1]}`;
  const fails = new Set(rows.filter((r) => ['eps_t', 'm_eff', 'gamma'].includes(r.quantity) && ['violated', 'vacuous'].includes(r.verdict)).map(key));
  for (const r of rows) {
    // Reg(T) across horizons defers to the premises at the grid's largest T.
    const largest = Math.max(...rows.filter((q) => q.cells[0] === r.cells[0] && q.quantity === 'regret').map((q) => Number(q.cells[1])));
    const premise = r.quantity === 'regret' ? fails.has(key(r)) : r.quantity === 'horizon' ? fails.has(`${r.cells[0]}|${largest}`) : false;
    const want = verdictByTest(r, premise);
    assert(r.verdict === want, `${r.cells[0]} T = ${r.cells[1]} ${r.quantity}: "${r.cells[5]}" (${r.verdict}) on [${r.lo}, ${r.hi}], but its test "${r.cells[4]}" gives ${want}`);
  }
  return rows.length;
}

/** Cells of the checks table cut off by its region (or the page) at the current width. */
const cutCells = (page, job) => page.evaluate((j) => {
  const t = document.querySelector(`[data-job=${j}] table.theory-checks`);
  const region = t.closest('.table-scroll') || document.documentElement;
  const right = Math.min(region.getBoundingClientRect().right, document.documentElement.clientWidth) + 0.5;
  // The column headings, visually hidden when each check is a card (narrow screens), are left out.
  const head = t.tHead, headShown = head && head.getBoundingClientRect().width > 2;
  return [...t.querySelectorAll('th, td')].filter((c) => (headShown || !head?.contains(c)) && c.getBoundingClientRect().width > 0
    && (c.getBoundingClientRect().right > right || c.scrollWidth > c.clientWidth + 1))
    .map((c) => c.textContent.slice(0, 30));
}, job);

/** The page's verdicts against the report the page exported. */
async function checkTable(page, job) {
  const [json] = await grab(page, `[data-job=${job}] .export-json`);
  const report = JSON.parse(json.body.toString());
  assert(report.theory, 'the report has a theory section');
  const want = [...report.theory.runs.flatMap((r) => r.checks), ...[...(report.theory.horizons || []), ...(report.theory.offline || [])].map((h) => h.check)];
  const rows = await tableOf(page, job);
  assert(rows.length === want.length && rows.length > 0, `${rows.length} rows, ${want.length} checks`);
  rows.forEach((r, i) => {
    assert(r.quantity === want[i].quantity && r.verdict === want[i].verdict, `row ${i}: ${r.quantity}/${r.verdict} vs ${want[i].quantity}/${want[i].verdict}`);
    assert(r.cells[5] === want[i].words && WORDS.includes(r.cells[5]), `row ${i}: "${r.cells[5]}" vs "${want[i].words}"`);
    assert(r.cells[3] === want[i].measured, `row ${i} measured: ${r.cells[3]}`);
    assert(r.cells[4].includes(want[i].test), `row ${i} shows its test: ${r.cells[4]}`);
  });
  verdictsByTheirTests(rows);
  return { report, rows };
}

/** The panels drawn: their titles and whether each has data or says why it has none. */
const panels = (page, job) => page.evaluate((j) => [...document.querySelectorAll(`[data-job=${j}] .charts > figure`)]
  .filter((f) => !f.hidden && f.chartData).map((f) => ({ title: f.chartData.title, series: (f.chartData.series || []).length, keys: (f.chartData.series || []).map((x) => x.key),
    points: Object.fromEntries((f.chartData.series || []).map((x) => [x.key, x.points.map((q) => [q.x, q.y])])) })), job);

const TERMS = ['cost', 'arrival', 'discretisation', 'switching'];
const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/** The bound-terms panel's last point of each term against the report's `bound` at T (the mean of
 *  the seeds' last checkpoints, which the drawn curve's mean at T is). */
function checkBoundPanel(drawn, report, policy) {
  const run = report.theory.runs.find((r) => r.policy === policy);
  assert(run && run.bound, `no bound terms for ${policy}`);
  for (const t of TERMS) {
    const pts = drawn.points[`bound-${t}`];
    assert(pts && pts.length, `no ${t} curve: ${drawn.keys}`);
    const [x, y] = pts[pts.length - 1];
    assert(x === run.x && close(y, run.bound[t]), `${t} at T = ${x}: page ${y}, engine ${run.bound[t]}`);
  }
  return run.bound;
}

try {
  await check('no page script writes a verdict\'s words (the engine words every verdict)', async () => {
    const dir = path.join(root, 'www/js');
    const files = [...(await readdir(dir)).map((f) => path.join(dir, f)), ...(await readdir(path.join(dir, 'views'))).map((f) => path.join(dir, 'views', f))]
      .filter((f) => f.endsWith('.js'));
    for (const f of files) {
      const text = await readFile(f, 'utf8');
      for (const w of WORDS) assert(!text.includes(w), `${path.relative(root, f)} writes "${w}"`);
    }
  });

  await check('synthetic: six panels (the four bound terms beside Reg(t) among them) with their paper references, and every verdict the engine\'s', async () => {
    const p = await openPage(`?view=theory&dataset=synthetic&${small}`);
    await jobDone(p, 'theory', 600000);
    const { rows } = await checkTable(p, 'theory');
    assert(rows.length === 9, `${rows.length} rows: 5 checks of CLCB-SC-LS-Cont (γ_t among them), 4 of Greedy`);
    assert(rows.filter((r) => r.quantity === 'gamma').length === 1, 'γ_t is checked for the kernel learner only');
    // Nothing of the table is cut off, on a wide screen, a tablet or a phone (cards).
    for (const w of [1440, 768, 390]) {
      await p.setViewportSize({ width: w, height: 900 });
      await p.waitForTimeout(200);
      const cut = await cutCells(p, 'theory');
      assert(!cut.length, `at ${w} px, cells cut off: ${cut.join(' | ')}`);
      await p.screenshot({ path: path.join(root, 'artifacts', `theory-table-${w}.png`), fullPage: true });
    }
    await p.setViewportSize({ width: 1280, height: 900 });
    const drawn = await panels(p, 'theory');
    assert(drawn.length === 6, `${drawn.length} panels`);
    for (const [i, ref] of ['Theorem 5.1', 'Theorem 5.1', 'Lemma 5.2', 'Assumption 1', 'Assumption 1', 'Lemma 5.3'].entries()) {
      assert(drawn[i].title.includes(ref), `panel ${i}: ${drawn[i].title}`);
    }
    // Theorem 5.1's four terms beside Reg(t), labelled up to constants, equal to the engine's at T.
    const [exported] = await grab(p, '[data-job=theory] .export-json');
    assert(/four terms/.test(drawn[1].title) && /up to constants/.test(drawn[1].title), drawn[1].title);
    const b = checkBoundPanel(drawn[1], JSON.parse(exported.body.toString()), 'clcb-sc-ls-cont');
    console.log(`     synthetic terms at T: Reg ${b.regret.toFixed(1)}, ${TERMS.map((t) => `${t} ${b[t].toFixed(1)}`).join(', ')} (largest ${b.largest})`);
    assert(drawn.every((d) => d.series > 0), JSON.stringify(drawn));
    // On a phone (390 px) the checks table scrolls in its own region; the page never gets wider.
    await p.setViewportSize({ width: 390, height: 900 });
    const wide = await p.evaluate(() => document.documentElement.scrollWidth);
    assert(wide <= 390, `the page is ${wide} px wide at 390 px`);
    await p.setViewportSize({ width: 1280, height: 900 });
    // The engine's fitted lines and the verdicts in the titles of the panels with a check.
    for (const i of [0, 4]) assert(drawn[i].keys.some((k) => k && k.startsWith('fit-')), `panel ${i}: ${drawn[i].keys}`);
    for (const i of [0, 2, 3, 4, 5]) assert(WORDS.some((w) => drawn[i].title.endsWith(w)), `panel ${i}: ${drawn[i].title}`);
    // "Where it breaks": the arrivals no longer cluster and the engine says Assumption 1 fails.
    await p.click('#theory-break');
    await waitFor(p, () => /synthetic_sigma=0.05/.test(location.search), null, { timeout: 10000 });
    await jobDone(p, 'theory', 600000);
    const broken = await tableOf(p, 'theory');
    const meff = broken.filter((r) => r.quantity === 'm_eff');
    assert(meff.length && meff.every((r) => r.verdict === 'violated'), JSON.stringify(meff));
    console.log(`     where it breaks: ${meff.map((r) => `${r.cells[0]} m_eff ${r.cells[3]} → ${r.cells[5]}`).join('; ')}`);
    console.log(`     synthetic verdicts: ${rows.map((r) => `${r.cells[0]} ${r.quantity}: ${r.cells[3]} → ${r.cells[5]}`).join('; ')}`);
    await p.close();
  });

  await check('nq-trivia (loaded as a reader would): every verdict the engine\'s', async () => {
    const p = await openPage(`?view=theory&dataset=nq-trivia&${small}`);
    if (/not bundled|Load/.test(await statusOnceDataKnown(p, 'theory'))) {
      const files = await Promise.all(NQ.map(async (name) => ({ name, mimeType: 'application/octet-stream', buffer: await readFile(path.join(data, name)) })));
      await p.setInputFiles('#file', files, { timeout: 300000 });
      await waitFor(p, () => /^Loaded nq-trivia/.test(document.getElementById('upload-msg').textContent), null, { timeout: 180000 });
      await p.evaluate(() => { const b = document.querySelector('[data-job=theory] .run'); if (!b.disabled && !/again/.test(b.textContent)) b.click(); });
    }
    await jobDone(p, 'theory', 900000);
    const { rows } = await checkTable(p, 'theory');
    assert(rows.length === 9, `${rows.length} rows`);
    console.log(`     nq-trivia verdicts: ${rows.map((r) => `${r.cells[0]} ${r.quantity}: ${r.cells[3]} → ${r.cells[5]}`).join('; ')}`);
    await p.close();
  });

  await check('thy-horizon quick: the page equals `csc run thy-horizon --quick` bit for bit (timed, not asserted)', async () => {
    const p = await openPage('?view=theory&dataset=synthetic&seeds=1&horizon=300&n_eval=300&policies=greedy');
    await jobDone(p, 'theory', 300000);
    const t0 = Date.now();
    await p.click('[data-job=theory-horizon] .run');
    await jobDone(p, 'theory-horizon', 900000);
    const seconds = (Date.now() - t0) / 1000;
    const { report } = await checkTable(p, 'theory-horizon');
    const d = await scratch('theory');
    await csc(['run', 'thy-horizon', '--quick', '--out', 'out', '--quiet'], d);
    const cliText = await readFile(path.join(d, 'out', 'thy-horizon.json'), 'utf8');
    const cli = JSON.parse(cliText);
    assert(JSON.stringify(cli.experiment) === JSON.stringify(report.experiment), 'the same definition');
    assert(stats(cli) === stats(report), 'every statistic but runtime bit for bit');
    assert(JSON.stringify(cli.theory) === JSON.stringify(report.theory), 'the same fits and verdicts');
    const h = report.theory.horizons[0].check;
    // The four terms at each T beside Reg(T): the CLI's (equal above) `bound` of every horizon.
    const drawn = await panels(p, 'theory-horizon');
    assert(drawn.length === 2 && /four terms/.test(drawn[1].title), drawn.map((d) => d.title).join(' | '));
    for (const t of TERMS) {
      const want = cli.theory.runs.map((r) => [r.x, r.bound[t]]);
      assert(JSON.stringify(drawn[1].points[`bound-${t}`]) === JSON.stringify(want), `${t}: ${JSON.stringify(drawn[1].points[`bound-${t}`])} vs ${JSON.stringify(want)}`);
    }
    console.log(`     thy-horizon quick in this browser: ${seconds.toFixed(1)} s; Reg(T) ${h.measured} → ${h.words} (n = ${h.n} ${h.over})`);

    // The Efficiency view's cost against T shows the same job (no second run): one line per
    // policy through the report's mean runtime at each T, named with the engine's fitted growth.
    const [online] = await grab(p, '[data-job=theory] .export-json'); // the Theory view's run: no sweep
    const costOf = () => p.evaluate(() => [...document.querySelectorAll('[data-job=efficiency-horizon] figure.chart')].filter((f) => !f.hidden && f.chartData).map((f) => f.chartData));
    const means = (r) => JSON.stringify(r.stats.filter((s) => s.metric === 'runtime_ms').sort((a, b) => a.x - b.x).map((s) => [s.x, s.mean]));
    await p.click('.tabs [data-view=efficiency]');
    await waitFor(p, () => document.querySelector('[data-job=efficiency-horizon]').dataset.status === 'done', null, { timeout: 10000 });
    let cost = await costOf();
    assert(cost.length === 1 && cost[0].series.length === 1 && cost[0].series[0].key === 'clcb-sc-ls-cont', JSON.stringify(cost.map((c) => c.series.map((s) => s.key))));
    let line = cost[0].series[0];
    assert(JSON.stringify(line.points.map((q) => [q.x, q.y])) === means(report), `drawn ${JSON.stringify(line.points.map((q) => [q.x, q.y]))} vs the report's ${means(report)}`);
    assert(/time ∝ T\^-?\d+\.\d\d ± \d+\.\d\d$/.test(line.label) && Number.isFinite(line.growth.slope) && line.growth.points === 4, `${line.label} ${JSON.stringify(line.growth)}`);
    const pageSlope = line.growth.slope;
    // The CLI's report opened in the panel is drawn from its own numbers.
    await p.setInputFiles('[data-job=efficiency-horizon] .open-report input', { name: 'thy-horizon.json', mimeType: 'application/json', buffer: Buffer.from(cliText) });
    await waitFor(p, (want) => { const f = [...document.querySelectorAll('[data-job=efficiency-horizon] figure.chart')].find((g) => !g.hidden); return f?.chartData?.series?.[0] && JSON.stringify(f.chartData.series[0].points.map((q) => [q.x, q.y])) === want; }, means(cli), { timeout: 10000 });
    cost = await costOf();
    line = cost[0].series[0];
    assert(line.growth.points === 4 && line.growth.slope !== pageSlope, `the file's fit ${JSON.stringify(line.growth)} (the page's slope ${pageSlope})`);
    // A result that is not a horizon sweep says so instead of drawing a wrong curve.
    await p.setInputFiles('[data-job=efficiency-horizon] .open-report input', { name: 'theory-run.json', mimeType: 'application/json', buffer: online.body });
    await waitFor(p, () => /draws a sweep over the horizon T/.test(document.querySelector('[data-job=efficiency-horizon] .charts').textContent), null, { timeout: 10000 });
    console.log(`     cost against T, CLCB-SC-LS-Cont quick: page a = ${pageSlope.toFixed(2)}, CLI a = ${line.growth.slope.toFixed(2)} (measured, not asserted)`);
    await p.close();
  });

  await check('offline view (fig-a): the gap against n with the n^(−1/2) shape and the engine\'s slopes, equal to the CLI\'s (Theorem 4.1)', async () => {
    const p = await openPage('?view=offline&offline=fig-a&seeds=3');
    await jobDone(p, 'offline', 600000);
    const { report, rows } = await checkTable(p, 'offline');
    assert(rows.length === report.theory.offline.length && rows.every((r) => r.quantity === 'gap'), JSON.stringify(rows));
    const drawn = (await panels(p, 'offline')).find((d) => /Theorem 4\.1/.test(d.title));
    assert(drawn, 'no Theorem 4.1 panel');
    const paper = report.theory.offline[0];
    assert(drawn.title.endsWith(paper.check.words) && WORDS.includes(paper.check.words), drawn.title);
    assert(drawn.keys.some((k) => k === 'ref-n^(−1/2) shape'), `no n^(−1/2) shape: ${drawn.keys}`);
    // One fitted line per algorithm the engine could fit (an algorithm with no gap above 0 has none).
    const fits = report.theory.offline.filter((o) => o.check.intercept != null).length;
    assert(fits > 0 && drawn.keys.filter((k) => k && k.startsWith('fit-')).length === fits, `${drawn.keys}`);
    assert(!report.theory.offline.some((o) => o.policy === 'oracle'), 'the Oracle (gap 0 by construction) is not fitted');
    // The fitted line through the engine's slope and intercept: its end points lie on exp(a)·n^b.
    const fit = drawn.points[drawn.keys.find((k) => k.startsWith('fit-'))];
    const [n1, y1] = fit[fit.length - 1];
    assert(close(y1, Math.exp(paper.check.intercept) * n1 ** paper.check.slope.mean), `fit end ${n1}, ${y1}`);
    // The command the page prints, run by the CLI: the same fits and verdicts.
    const command = await p.textContent('[data-job=offline] .cli-command');
    const cli = JSON.parse(await runCommand(command, await scratch('theory-offline'), 'fig-a'));
    assert(stats(cli) === stats(report), `every statistic but runtime bit for bit (${command})`);
    assert(JSON.stringify(cli.theory) === JSON.stringify(report.theory), 'the same offline fits and verdicts');
    console.log(`     fig-a quick (${command}): ${rows.map((r) => `${r.cells[0]} ${r.cells[3]} → ${r.cells[5]}`).join('; ')}`);
    await p.setViewportSize({ width: 390, height: 900 });
    const wide = await p.evaluate(() => document.documentElement.scrollWidth);
    assert(wide <= 390, `the offline view is ${wide} px wide at 390 px`);
    await p.close();
  });
} finally {
  // The bundle-less page probes for the nq-trivia bundle (data/manifest.json): its 404 is expected.
  errors.splice(0, errors.length, ...errors.filter((e) => !/status of 404/.test(e)));
  await finish(tally, errors, browser, server);
}
