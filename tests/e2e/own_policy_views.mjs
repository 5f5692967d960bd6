// End-to-end test of your own policy in the experiment views (views/own-policy.js, own-sweep.js,
// regret.js, theory.js) in headless Chromium, opened from a shared link as a person would:
//   - regret view: the shipped LRU-threshold example, played on the same seeds ("Run your
//     policy"), is drawn in every chart of the run as "Your policy"; since it is the threshold
//     cache, its points (mean and 95% band, every checkpoint) equal the threshold cache's in
//     every chart, and differ from Greedy's;
//   - theory view: its Reg(t) check (the only one that applies from outside) is in the table, with
//     the threshold cache's measured slope and verdict, and the note names the checks that do not
//     apply;
//   - sweep view: its declared parameter `threshold` over 0.15, 0.3, 0.6 (from the link's
//     fragment) beside the built-in threshold cache at τ = 0.3 on the same seeds: the point at
//     0.3 equals the reference exactly in every metric, the others differ; CSV export; cancel;
//   - frontier view: it at its defaults and at τ = 0.3 and 0.05 (the sweep form's parameter, from
//     the link) on the frontier's settings: at 0.3 its paired differences against the threshold
//     cache's point at τ = 0.3 are "identical on every seed" and its chart point is that point;
//     at 0.05 they are not; "cheaper"/"dearer" only where the interval excludes 0;
//   - hostile settings (a link's reference or metric that is not one, a parameter it does not declare, values that are not numbers or out of
//     range, a module whose `params` is malformed) give one plain message each;
//   - theory view, Reg(T) across horizons (the thy-horizon panel at its quick settings): the LRU
//     example played beside it on the same (T, seed) streams has, at every T and seed, the Reg(T)
//     the built-in threshold cache has in the same experiment (run here through the page's engine),
//     and the same fitted slope, interval and verdict, in the chart, the table and both exports
//     (the paper's policy's rows unchanged beside them); Cancel stops its runs too; a policy that
//     throws in one run gives one message naming T, the seed, the round and the fault, while the
//     paper's policy's table and chart stay whole.
// Prints "N passed, M failed".   node tests/e2e/own_policy_views.mjs
import { readFile } from 'node:fs/promises';
import { deflateRawSync } from 'node:zlib';
import { assert, waitFor, pageSuite, finish } from './harness.mjs';

const { server, browser, errors, tally, openPage } = await pageSuite();
const { check } = tally;
const LRU = await readFile(new URL('../../www/policies/lru-threshold.js', import.meta.url), 'utf8');
/** The link fragment of `code`, as own-code.js writes it (deflate-raw, base64url). */
const fragment = (code) => deflateRawSync(Buffer.from(code)).toString('base64url');
const BASE = 'dataset=plane&horizon=200&n_eval=200&seed=3&k=5&seeds=3&threshold_tau=0.3';

/** Every chart of panel `job`: title and series (key → points). */
const chartsOf = (page, job) => page.evaluate((job) => [...document.querySelectorAll(`[data-job=${job}] figure.chart`)].filter((f) => !f.hidden && f.chartData)
  .map((f) => ({ title: f.chartData.title, series: Object.fromEntries(f.chartData.series.map((s) => [s.key, s.points.map((p) => [p.x, p.y, p.lo, p.hi])])) })), job);

await check('regret view: your policy in every chart, equal to the threshold cache it reproduces', async () => {
  const page = await openPage(`?${BASE}&policies=threshold,greedy&view=regret#policy=${fragment(LRU)}`);
  await waitFor(page, () => document.querySelector('[data-job=regret]').dataset.status === 'done', null, { timeout: 180000 });
  await waitFor(page, () => !document.getElementById('own-regret').hidden, null, { timeout: 30000 });
  await page.click('#own-regret-run');
  await waitFor(page, () => document.querySelector('#own-regret-out tr[data-seed=mean]') || document.getElementById('own-regret-status').classList.contains('bad'), null, { timeout: 120000 });
  assert(!(await page.evaluate(() => document.getElementById('own-regret-status').classList.contains('bad'))), await page.textContent('#own-regret-status'));
  await waitFor(page, () => document.querySelector('[data-job=regret] figure.chart')?.chartData?.series.some((s) => s.key === 'own-policy'), null, { timeout: 20000 });
  const charts = await chartsOf(page, 'regret');
  let compared = 0;
  for (const c of charts) {
    const mine = c.series['own-policy'], theirs = c.series.threshold;
    if (!theirs) continue;
    assert(mine, `${c.title}: no series of your policy`);
    assert(mine.length === theirs.length && mine.length >= 10, `${c.title}: ${mine.length} points of yours, ${theirs.length} of the threshold cache`);
    assert(JSON.stringify(mine) === JSON.stringify(theirs), `${c.title}: your policy ${JSON.stringify(mine.slice(-2))} ≠ threshold ${JSON.stringify(theirs.slice(-2))}`);
    assert(JSON.stringify(mine) !== JSON.stringify(c.series.greedy), `${c.title}: equal to Greedy's too (the comparison means nothing)`);
    compared++;
  }
  assert(compared >= 4, `only ${compared} charts compared`);
  const legend = await page.evaluate(() => document.querySelector('[data-job=regret] figure.chart').chartData.series.find((s) => s.key === 'own-policy').label);
  assert(/^Your policy/.test(legend), legend);

  // Theory view, same settings: your policy's Reg(t) row equals the threshold cache's.
  await page.click('#tab-theory');
  await waitFor(page, () => document.querySelector('[data-job=theory]').dataset.status === 'done', null, { timeout: 180000 });
  await waitFor(page, () => [...document.querySelectorAll('table.theory-checks tbody th')].some((th) => /^Your policy/.test(th.textContent)), null, { timeout: 20000 });
  const rows = await page.$$eval('table.theory-checks tbody tr', (trs) => trs.map((tr) => ({ policy: tr.querySelector('th').textContent, quantity: tr.dataset.quantity, verdict: tr.dataset.verdict, cells: [...tr.querySelectorAll('td')].map((td) => td.textContent) })));
  const mine = rows.filter((r) => /^Your policy/.test(r.policy));
  assert(mine.length === 1 && mine[0].quantity === 'regret', `your policy's rows: ${JSON.stringify(mine)}`);
  const theirs = rows.find((r) => /^Threshold/.test(r.policy) && r.quantity === 'regret');
  assert(theirs, `no threshold Reg(t) row in ${JSON.stringify(rows.map((r) => r.policy))}`);
  assert(mine[0].cells[2] === theirs.cells[2] && mine[0].verdict === theirs.verdict, `Reg(t): yours ${mine[0].cells[2]} ${mine[0].verdict}, threshold ${theirs.cells[2]} ${theirs.verdict}`);
  const note = await page.textContent('.own-theory-note');
  assert(/ε_t, m_eff and γ_t/.test(note) && /does not expose/.test(note), note);
  const reg = (await chartsOf(page, 'theory'))[0];
  assert(JSON.stringify(reg.series['own-policy']) === JSON.stringify(reg.series.threshold), 'the Reg(t) chart: your policy ≠ threshold cache');
  await page.close();
});

const SWEEP = `?${BASE}&view=sweep#policy=${fragment(LRU)}&own_param=threshold&own_values=0.15%2C0.3%2C0.6&own_ref=threshold`;
/** The sweep chart's series (key → [x, y, lo, hi] points). */
const sweepChart = (page) => page.evaluate(() => Object.fromEntries(document.getElementById('own-sweep-chart').chartData.series.map((s) => [s.key, s.points.map((p) => [p.x, p.y, p.lo, p.hi])])));
const sweepReady = (page) => waitFor(page, () => !document.getElementById('own-sweep').hidden && document.getElementById('own-sweep-param').options.length > 0, null, { timeout: 60000 });
const sweepDone = (page) => waitFor(page, () => /^Done|Values|Your policy|Cancelled|the /.test(document.getElementById('own-sweep-status').textContent) && !document.getElementById('own-sweep-run').disabled, null, { timeout: 240000 });

await check('sweep view: the LRU example at threshold τ equals the threshold cache at τ, and moves with τ', async () => {
  const page = await openPage(SWEEP);
  await sweepReady(page);
  assert(await page.inputValue('#own-sweep-values') === '0.15,0.3,0.6', `values from the link: ${await page.inputValue('#own-sweep-values')}`);
  assert(await page.inputValue('#own-sweep-param') === 'threshold', 'parameter from the link');
  await page.click('#own-sweep-run');
  await sweepDone(page);
  const status = await page.textContent('#own-sweep-status');
  assert(/^Done: threshold = 0.15, 0.3, 0.6 × 3 seeds/.test(status), status);
  const metrics = await page.$$eval('#own-sweep-metric option', (os) => os.map((o) => o.value));
  let moved = 0;
  for (const m of ['final_avg_regret', 'final_avg_realised_cost', 'final_hit_rate', 'final_switches']) {
    assert(metrics.includes(m), `no metric ${m}`);
    await page.selectOption('#own-sweep-metric', m);
    const s = await sweepChart(page);
    const mine = s['own-policy'], ref = s.threshold;
    assert(mine && mine.length === 3 && mine.map((p) => p[0]).join() === '0.15,0.3,0.6', `${m}: your points ${JSON.stringify(mine)}`);
    assert(ref && ref.length === 3 && ref.every((p) => p[1] === ref[0][1]), `${m}: the reference is not flat: ${JSON.stringify(ref)}`);
    assert(JSON.stringify(mine[1]) === JSON.stringify(ref[1]), `${m} at τ = 0.3: yours ${mine[1]} ≠ threshold cache ${ref[1]}`);
    if (mine[0][1] !== ref[0][1] || mine[2][1] !== ref[2][1]) moved++;
  }
  assert(moved >= 2, `the sweep did not move the metrics (${moved}): the parameter was not passed`);
  assert(/own_param=threshold/.test(page.url()) && /own_values=0.15%2C0.3%2C0.6/.test(page.url()), `the link: ${page.url()}`);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#own-sweep-csv')]);
  const csv = (await readFile(await dl.path(), 'utf8')).trim().split('\n');
  assert(csv[0] === 'series,metric,x,n,mean,std,ci95' && csv.some((l) => l.startsWith('"Your policy",final_hit_rate,0.3,3,')), csv.slice(0, 3).join(' | '));
  // Cancel: a new run stopped at once leaves the form ready.
  await page.fill('#own-sweep-values', '0.1, 0.2, 0.25, 0.35, 0.4, 0.5');
  // Run and Cancel in one task: a short run on plane can end before a second click lands.
  await page.evaluate(() => { document.getElementById('own-sweep-run').click(); document.getElementById('own-sweep-cancel').click(); });
  await waitFor(page, () => document.getElementById('own-sweep-status').textContent === 'Cancelled.' && !document.getElementById('own-sweep-run').disabled, null, { timeout: 20000 });
  await page.close();
});

await check('sweep view: hostile settings give one plain message each', async () => {
  // A link's reference that is not a policy falls back to the page's first policy (here the threshold cache).
  const page = await openPage(`?${BASE}&policies=threshold,greedy&view=sweep#policy=${fragment(LRU)}&own_param=nope&own_values=1&own_ref=nope&own_metric=bogus`);
  await sweepReady(page);
  let m0 = await page.textContent('#own-sweep-status');
  assert(/^Not run yet: the link's reference "nope" is not a built-in policy \(.*threshold.*\), so Threshold.* is used; the link's metric "bogus" is not one of .*final_avg_regret.*, so final_avg_regret is used\.$/.test(m0), m0);
  assert(await page.inputValue('#own-sweep-ref') === 'threshold', 'the reference falls back to the threshold cache');
  const says = async (values) => {
    if (values !== null) await page.fill('#own-sweep-values', values);
    await page.click('#own-sweep-run');
    await sweepDone(page);
    const bad = await page.evaluate(() => document.getElementById('own-sweep-status').classList.contains('bad'));
    return bad ? page.textContent('#own-sweep-status') : `(not refused) ${await page.textContent('#own-sweep-status')}`;
  };
  let m = await says(null);
  assert(m === 'Your policy has no parameter "nope": it declares threshold.', m);
  await page.selectOption('#own-sweep-param', 'threshold');
  for (const [values, want] of [['abc', /^Values of threshold: "abc" is not a number/], ['0.1, 9', /^Values of threshold: 9 is outside its range \[0, 4\]\.$/],
    ['', /^Values of threshold: give at least one number/], ['0.2, 0.2', /given twice/], ['0.1,,0.2', /"" is not a number/], ['NaN', /"NaN" is not a number/]]) {
    m = await says(values);
    assert(want.test(m), `${JSON.stringify(values)}: ${m}`);
  }
  assert(await page.evaluate(() => document.getElementById('own-sweep-chart').hidden), 'a refused sweep drew a chart');
  await page.close();
  const broken = LRU.replace("threshold: { min: 0, max: 4,", "threshold: { min: 4, max: 0,");
  const p2 = await openPage(`?${BASE}&view=sweep#policy=${fragment(broken)}`);
  await waitFor(p2, () => document.getElementById('own-sweep-status').classList.contains('bad'), null, { timeout: 60000 });
  m = await p2.textContent('#own-sweep-status');
  assert(/^the module's `params` export gives threshold min 4 > max 0/.test(m), m);
  await p2.close();
});

await check('frontier view: the LRU example at τ = 0.3 is the threshold cache\'s point at τ = 0.3, identical on every seed', async () => {
  const page = await openPage(`?dataset=synthetic&horizon=200&view=frontier#policy=${fragment(LRU)}&own_param=threshold&own_values=0.3%2C0.05`);
  await waitFor(page, () => document.querySelector('[data-job=frontier]').dataset.status === 'done', null, { timeout: 300000 });
  const options = await page.$$eval('.frontier-reference option', (os) => os.map((o) => [o.value, o.textContent]));
  const ref = options.find(([, t]) => /^Threshold.*threshold_tau = 0\.3$/.test(t));
  assert(ref, `no threshold point at τ = 0.3 in ${JSON.stringify(options.map((o) => o[1]))}`);
  await page.selectOption('.frontier-reference', ref[0]);
  await page.click('.own-frontier-run');
  await waitFor(page, () => document.querySelectorAll('.own-frontier-table tbody tr').length === 3 || document.querySelector('.own-frontier-status').classList.contains('bad'), null, { timeout: 240000 });
  const rows = await page.$$eval('.own-frontier-table tbody tr', (trs) => trs.map((tr) => ({ value: tr.dataset.value, paired: tr.paired, cells: [...tr.querySelectorAll('td')].map((td) => td.textContent) })));
  assert(rows.length === 3, `${rows.length} rows: ${await page.textContent('.own-frontier-status')}`);
  const at = rows.find((r) => r.value === '0.3'), far = rows.find((r) => r.value === '0.05');
  assert(at.paired.cost.difference === 'identical' && at.paired.error.difference === 'identical' && at.paired.cost.n === 3, `at τ = 0.3: ${JSON.stringify(at)}`);
  assert(/identical on every seed/.test(at.cells[2]), at.cells[2]);
  assert(far.paired.cost.difference !== 'identical' && far.paired.cost.n === 3, `at τ = 0.05: ${JSON.stringify(far.paired.cost)}`);
  // Honest words: "cheaper"/"dearer" only when the interval excludes 0.
  for (const r of rows) {
    for (const [d, text] of [[r.paired.cost, r.cells[2]], [r.paired.error, r.cells[3]]]) {
      const excludes = d.ci95 != null && (d.mean + d.ci95 < 0 || d.mean - d.ci95 > 0);
      assert(/cheaper|dearer|fewer|more wrong/.test(text) === (excludes && !['identical'].includes(d.difference)), `${r.value}: ${text} with ${JSON.stringify(d)}`);
    }
  }
  const chart = await page.evaluate(() => document.querySelector('[data-job=frontier] figure.chart').chartData.series.map((s) => ({ key: s.key, label: s.label, points: s.points.map((p) => [p.x, p.y, p.value, p.meta]) })));
  const mine = chart.find((s) => s.key === 'own-policy');
  assert(mine && mine.points.length === 3, `your policy on the chart: ${JSON.stringify(mine)}`);
  // The threshold cache's τ line evicting LRU (not GDSF's, nor vCache's or CLCB's).
  const thr = chart.find((s) => s.key !== 'own-policy' && /^Threshold/.test(s.label) && !/GDSF|GPTCache/.test(s.label) && s.points.some((p) => p[2] === 0.3));
  const tp = thr?.points.find((p) => p[2] === 0.3);
  const m3 = mine.points.find((p) => p[3] === 'Your policy, threshold = 0.3');
  assert(tp && m3 && m3[0] === tp[0] && m3[1] === tp[1], `τ = 0.3 on the chart: yours ${m3}, threshold ${tp}`);
  const m0 = mine.points.find((p) => p[3] === 'Your policy, threshold = 0.05');
  assert(m0 && m0[1] !== tp[1], `τ = 0.05 on the chart: ${m0} (the threshold cache at 0.3: ${tp})`);
  await page.close();
});

const HORIZON = '[data-job=theory-horizon]';
/** The horizon panel's table rows: policy, quantity, verdict and cells. */
const horizonRows = (page) => page.$$eval(`${HORIZON} table.theory-checks tbody tr`, (trs) => trs.map((tr) => ({ policy: tr.querySelector('th').textContent, quantity: tr.dataset.quantity, verdict: tr.dataset.verdict, cells: [...tr.querySelectorAll('td')].map((td) => td.textContent) })));
/** The Theory view with `code` as your policy, its first panel's (small) run finished. */
async function theoryWith(code) {
  const page = await openPage(`?view=theory&dataset=synthetic&seeds=1&horizon=300&n_eval=300&policies=greedy#policy=${fragment(code)}`);
  await waitFor(page, () => document.querySelector('[data-job=theory]').dataset.status === 'done', null, { timeout: 180000 });
  await waitFor(page, (h) => !document.querySelector(`${h} .own-horizon-note`).hidden, HORIZON, { timeout: 30000 });
  return page;
}
const horizonSettled = (page) => waitFor(page, (h) => ['done', 'error', 'cancelled'].includes(document.querySelector(h).dataset.status), HORIZON, { timeout: 900000 });

await check('theory view: Reg(T) across horizons of the LRU example is the threshold cache\'s at every T, with its slope and verdict; exports carry it', async () => {
  const page = await theoryWith(LRU);
  const theoryNote = await page.textContent('.own-theory-note');
  assert(/its Reg\(T\) across horizons is checked below/.test(theoryNote), theoryNote);
  await page.click(`${HORIZON} .run`);
  await horizonSettled(page);
  const status = await page.textContent(`${HORIZON} .status`);
  assert(/^Done: 12 units/.test(status), status);
  const note = await page.textContent(`${HORIZON} .own-horizon-note`);
  assert(/^Your policy: played on the same 12 \(T, seed\) streams/.test(note), note);
  // The reference: the same quick experiment with the built-in threshold cache, through the page's engine.
  const ref = await page.evaluate(async () => {
    const csc = await import('/pkg/csc.js');
    const spec = csc.quickDefinition('thy-horizon');
    spec.measure = { kind: 'online', policies: ['threshold'] };
    const d = csc.Dataset.synthetic();
    const run = new csc.ExperimentRun(spec, d, undefined, undefined);
    for (let more = true; more;) more = run.runNext(() => true);
    const report = run.report();
    run.free(); d.free();
    return report.theory;
  });
  const want = ref.horizons[0];
  assert(want.policy === 'threshold' && want.points.length === 3 && want.points.every((s) => s.map((p) => p[0]).join() === '250,500,1000,2000'), JSON.stringify(want.points));
  // The chart: your policy's points are the threshold cache's, seed by seed, T by T.
  const chart = await page.evaluate((h) => document.querySelector(`${h} figure.chart`).chartData, HORIZON);
  const mine = chart.series.find((x) => x.key === 'own-policy');
  assert(mine, `no series of yours in ${chart.series.map((x) => x.key)}`);
  assert(JSON.stringify(mine.points.map((p) => [p.x, p.y])) === JSON.stringify(want.points.flat()), `yours ${JSON.stringify(mine.points.slice(0, 3))}, threshold ${JSON.stringify(want.points.flat().slice(0, 3))}`);
  assert(chart.series.some((x) => x.key === 'fit-own-policy') && chart.series.some((x) => x.key === 'seed-0'), chart.series.map((x) => x.key).join());
  assert(chart.title.includes(`Your policy: ${want.check.words}`), chart.title);
  // The table: its Reg(T) across horizons row has the threshold cache's slope and verdict, and its
  // Reg(t) row at each T the threshold cache's; the paper's policy's rows are all there.
  const rows = await horizonRows(page);
  const across = rows.filter((r) => r.policy === 'Your policy' && r.quantity === 'horizon');
  assert(across.length === 1 && across[0].cells[2] === want.check.measured && across[0].verdict === want.check.verdict, `yours ${JSON.stringify(across)}, threshold ${want.check.measured} ${want.check.verdict}`);
  const each = rows.filter((r) => r.policy === 'Your policy' && r.quantity === 'regret');
  assert(each.length === 4, `your Reg(t) rows: ${JSON.stringify(each)}`);
  for (const [i, r] of each.entries()) {
    const c = ref.runs[i].checks.find((x) => x.quantity === 'regret');
    assert(r.cells[0] === String(ref.runs[i].x) && r.cells[2] === c.measured && r.verdict === c.verdict, `T = ${ref.runs[i].x}: yours ${r.cells[2]} ${r.verdict}, threshold ${c.measured} ${c.verdict}`);
  }
  const paper = rows.filter((r) => r.policy !== 'Your policy');
  assert(paper.length === 21 && paper.some((r) => r.quantity === 'horizon'), `the paper's policy's rows: ${paper.length}`);
  // Exports: the report's CSV with your rows after it (the engine's form), and the JSON with `own_policy`.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`${HORIZON} .export-csv`)]);
  const csv = (await readFile(await dl.path(), 'utf8')).trim().split('\n');
  assert(csv[0] === 'experiment,algorithm,metric,x,n,mean,std,ci95' && csv.some((l) => l.startsWith('thy-horizon,clcb-sc-ls-cont,final_avg_regret,2000,3,')), csv.slice(0, 2).join(' | '));
  const reg2000 = csv.find((l) => l.startsWith('thy-horizon,own-policy,final_avg_regret,2000,3,'));
  assert(reg2000, 'no row of yours in the CSV');
  const mean = Number(reg2000.split(',')[5]), byHand = want.points.reduce((a, s) => a + s[3][1], 0) / 3 / 2000;
  assert(Math.abs(mean - byHand) <= 1e-12 * byHand, `your final average regret at T = 2000: ${mean}, the threshold cache's ${byHand}`);
  const [dj] = await Promise.all([page.waitForEvent('download'), page.click(`${HORIZON} .export-json`)]);
  const json = JSON.parse(await readFile(await dj.path(), 'utf8'));
  assert(json.theory.horizons[0].policy === 'clcb-sc-ls-cont' && json.theory.horizons.length === 1, 'the report\'s own theory changed');
  assert(json.own_policy.code === LRU && json.own_policy.theory.horizons[0].check.measured === want.check.measured, JSON.stringify(json.own_policy?.theory?.horizons?.[0]?.check));
  await page.close();
});

await check('theory view: Cancel stops your policy\'s runs across horizons; a policy that throws in one run stops alone, the paper\'s policy\'s results stay', async () => {
  // Throws in round 7 of the second run at T = 500 (seed 1: T before seeds), counted in its
  // worker's global scope, which outlives each run's fresh module.
  const HOSTILE = LRU.replace('  start({ k, tau, params = {} }) {', '  start({ k, tau, horizon, params = {} }) {\n    this.bad = horizon === 500 && (globalThis.runsAt500 = (globalThis.runsAt500 || 0) + 1) === 2;')
    .replace('  decide({ round, members, distances }) {', '  decide({ round, members, distances }) {\n    if (this.bad && round === 7) throw new TypeError(\'boom\');');
  assert(HOSTILE.includes("throw new TypeError('boom')") && HOSTILE.includes('runsAt500 || 0) + 1) === 2'), 'the hostile policy was not made');
  const page = await theoryWith(HOSTILE);
  // Run and Cancel in one task.
  await page.evaluate((h) => { document.querySelector(`${h} .run`).click(); document.querySelector(`${h} .cancel`).click(); }, HORIZON);
  await horizonSettled(page);
  assert(await page.evaluate((h) => document.querySelector(h).dataset.status, HORIZON) === 'cancelled', 'not cancelled');
  const cancelled = await page.textContent(`${HORIZON} .own-horizon-note`);
  assert(cancelled === 'Your policy: its runs were cancelled.', cancelled);
  await page.click(`${HORIZON} .run`);
  await horizonSettled(page);
  const status = await page.textContent(`${HORIZON} .status`);
  assert(/^Done: 12 units/.test(status), status);
  const note = await page.textContent(`${HORIZON} .own-horizon-note`);
  assert(note === 'Your policy: T = 500, seed 1: the policy stopped in round 7: decide threw TypeError: boom. The paper\'s policy\'s results above are complete.', note);
  assert(await page.evaluate((h) => document.querySelector(`${h} .own-horizon-note`).classList.contains('bad'), HORIZON), 'the message is not marked');
  const rows = await horizonRows(page);
  assert(rows.length === 21 && rows.every((r) => r.policy !== 'Your policy') && rows.some((r) => r.quantity === 'horizon'), `rows: ${rows.map((r) => `${r.policy} ${r.quantity}`).join('; ')}`);
  const keys = await page.evaluate((h) => document.querySelector(`${h} figure.chart`).chartData.series.map((x) => x.key), HORIZON);
  assert(keys.includes('seed-2') && !keys.includes('own-policy'), keys.join());
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`${HORIZON} .export-csv`)]);
  const csv = await readFile(await dl.path(), 'utf8');
  assert(!csv.includes(',own-policy,') && csv.includes(',clcb-sc-ls-cont,'), 'the CSV after a fault');
  await page.close();
});

await finish(tally, errors, browser, server);
