// The sweep view, end to end in headless Chromium with the real CLI: a 3 × 3
// grid over a built-in sweep (sens-off-beta: β_off × λ) runs on the worker pool with progress;
// the command under it is `csc run sens-off-beta --grid '…' --seeds 2`, and the CLI's run of that
// command has the page's cells bit for bit; the heatmap specs (report.js sweepCharts) hold those
// cells, and a cell's point opens the offline view's figure with that cell's parameters (its run
// has them); a bad value is refused in plain words; a
// one-parameter sweep of the online run draws a line per policy; Cancel stops a grid; a link
// carries the sweep (base, grid, metric) into the form, runs to the same cells and survives a
// reload, and a bad grid in it is one message.
// Needs www/pkg (bash scripts/wasm.sh); builds the CLI with cargo (CARGO_TARGET_DIR applies).
import path from 'node:path';
import { checks, assert, waitFor } from './harness.mjs';
import { runCommand, scratch } from './cli.mjs';
import { session, artifacts } from './session.mjs';

const { check, done } = checks();
const { openPage, download, errors, close } = await session();
const status = (page) => page.textContent('[data-job=sweep] .status');
const jobState = (page) => page.evaluate(() => document.querySelector('[data-job=sweep]').dataset.status);
async function fill(page, { base, p1, v1, p2 = '', v2 = '' }) {
  await page.selectOption('#sweep-base', base);
  await page.selectOption('#sweep-p1', p1);
  await page.fill('#sweep-v1', v1);
  await page.press('#sweep-v1', 'Tab');
  await page.selectOption('#sweep-p2', p2);
  if (p2) { await page.fill('#sweep-v2', v2); await page.press('#sweep-v2', 'Tab'); }
}
/** Every statistic's numbers as text, keyed by (algorithm, metric, x, y). */
const cells = (report) => report.stats.map((s) => JSON.stringify([s.algorithm, s.metric, s.x, s.y, s.n, s.mean, s.std, s.ci95]));

await check('a 3 × 3 grid runs on the worker pool; the CLI\'s --grid run of its command has the same cells, bit for bit; a point opens its configuration', async () => {
  const page = await openPage('?view=sweep&seeds=2');
  await fill(page, { base: 'sens-off-beta', p1: 'beta_off', v1: '0, 0.1, 1', p2: 'lambda', v2: '0.01, 0.1, 1' });
  await page.click('[data-job=sweep] .run');
  let sawProgress = false;
  await waitFor(page, () => {
    const root = document.querySelector('[data-job=sweep]');
    return root.dataset.status !== 'running' || /Running: [1-9]\d* of 18 units/.test(root.querySelector('.status').textContent);
  }, null, { timeout: 120000 });
  sawProgress = (await jobState(page)) === 'running';
  await waitFor(page, () => ['done', 'error', 'cancelled'].includes(document.querySelector('[data-job=sweep]').dataset.status), null, { timeout: 600000 });
  const st = await status(page);
  assert(/^Done: 18 units/.test(st), st);
  assert(sawProgress, 'no progress was shown while it ran');
  const command = await page.textContent('[data-job=sweep] .cli-command');
  assert(command === "csc run sens-off-beta --grid 'beta_off=0,0.1,1;lambda=0.01,0.1,1' --seeds 2", command);
  const pageReport = JSON.parse((await download(page, '[data-job=sweep] .export-json')).text);
  const cliReport = JSON.parse(await runCommand(command, await scratch('sweep'), 'sens-off-beta', ['--threads', '1']));
  assert(JSON.stringify(cliReport.experiment) === JSON.stringify(pageReport.experiment), 'the CLI ran another definition');
  const [a, b] = [cells(pageReport), cells(cliReport)];
  assert(a.length > 0 && a.length === b.length, `${a.length} vs ${b.length} statistics`);
  a.forEach((c, i) => assert(c === b[i], `page ${c} vs CLI ${b[i]}`));
  const xy = new Set(pageReport.stats.map((s) => `${s.x},${s.y}`));
  assert(xy.size === 9, `${xy.size} cells`);

  // The heatmaps' data: one per algorithm but the oracle, 9 cells each, the means of the CLI's
  // statistics; a cell's point names its configuration.
  const specs = await page.evaluate(async (report) => {
    const m = await import('./js/report.js');
    let clicked = null;
    const charts = m.sweepCharts(report, { onPoint: (config) => { clicked = config; } });
    charts[0].onPoint(null, 4, charts[0].cells[4]);
    return { charts: charts.map((c) => ({ kind: c.kind, title: c.title, xLabel: c.xLabel, yLabel: c.yLabel, cells: c.cells })), clicked };
  }, cliReport);
  const algs = [...new Set(cliReport.stats.filter((s) => s.metric === 'gap' && s.algorithm !== 'oracle').map((s) => s.algorithm))];
  assert(specs.charts.length === algs.length && specs.charts.every((c) => c.kind === 'heatmap'), JSON.stringify(specs.charts.map((c) => c.kind)));
  specs.charts.forEach((c, i) => {
    const want = cliReport.stats.filter((s) => s.algorithm === algs[i] && s.metric === 'gap').map((s) => [s.x, s.y, s.mean]);
    assert(JSON.stringify(c.cells.map((x) => [x.x, x.y, x.value])) === JSON.stringify(want), `${c.title}: cells differ`);
  });
  assert(JSON.stringify(specs.clicked.params) === JSON.stringify({ beta_off: 0.1, lambda: 0.1 }), JSON.stringify(specs.clicked));
  await page.screenshot({ path: path.join(artifacts, 'sweep-grid-1440.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(artifacts, 'sweep-grid-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  // The view's own point (the middle cell of its first heatmap) opens the offline view's figure
  // with that cell's parameters, named above the run; its run has them.
  // By keyboard, as a reader would: focus the first heatmap, Home (cell 0), → four times, Enter.
  // Halfway, the window resizes (the charts redraw): the plot keeps the focus and its cell (a
  // resize that came late after the viewport change above once took the focus away in CI).
  await page.focus('[data-job=sweep] figure.chart svg.chart-plot');
  await page.keyboard.press('Home');
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
  const kept = await page.evaluate(() => {
    window.dispatchEvent(new Event('resize'));
    const a = document.activeElement;
    return { plot: !!a && a.classList.contains('chart-plot'), first: a === document.querySelector('[data-job=sweep] figure.chart svg.chart-plot'), cursor: a && a.dataset.cursor };
  });
  assert(kept.plot && kept.first && kept.cursor === '2', `after a resize: ${JSON.stringify(kept)}`);
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await waitFor(page, () => !document.getElementById('view-offline').hidden && !document.querySelector('.from-sweep').hidden, null);
  assert(/beta_off = 0\.1, lambda = 0\.1/.test(await page.textContent('.from-sweep')), await page.textContent('.from-sweep'));
  await waitFor(page, () => ['done', 'error'].includes(document.querySelector('[data-job=offline]').dataset.status), null, { timeout: 300000 });
  const off = JSON.parse((await download(page, '[data-job=offline] .export-json')).text);
  assert(off.experiment.params.beta_off === 0.1 && off.experiment.params.lambda === 0.1, JSON.stringify(off.experiment.params).slice(0, 200));
  await page.close();
});

await check('a bad value is refused in plain words; Cancel stops a grid and keeps its units', async () => {
  const page = await openPage('?view=sweep&seeds=1');
  await fill(page, { base: 'sens-off-beta', p1: 'beta_off', v1: '0, x' });
  const st = await status(page);
  assert(/`x` is not a number/.test(st), st);
  assert(await page.isDisabled('[data-job=sweep] .run'), 'Run is enabled for a grid that cannot run');
  await fill(page, { base: 'sens-off-beta', p1: 'beta_off', v1: '0, 0.1, 0.3, 1', p2: 'lambda', v2: '0.001, 0.01, 0.1, 1' });
  await page.click('[data-job=sweep] .run');
  await waitFor(page, () => /Running: [1-9]/.test(document.querySelector('[data-job=sweep] .status').textContent), null, { timeout: 120000 });
  await page.click('[data-job=sweep] .cancel');
  await waitFor(page, () => document.querySelector('[data-job=sweep]').dataset.status === 'cancelled', null);
  assert(/^Cancelled after \d+ of 16 units/.test(await status(page)), await status(page));
  await page.close();
});

await check('one parameter of the online run: a line per policy over its values; the metric redraws without a run', async () => {
  const page = await openPage('?view=sweep&seeds=1&horizon=200&n_eval=200&policies=greedy,lfu');
  await fill(page, { base: 'online', p1: 'k', v1: '2, 4, 6' });
  await page.click('[data-job=sweep] .run');
  await waitFor(page, () => ['done', 'error'].includes(document.querySelector('[data-job=sweep]').dataset.status), null, { timeout: 180000 });
  assert(/^Done: 3 units/.test(await status(page)), await status(page));
  const chart = await page.evaluate(() => [...document.querySelectorAll('[data-job=sweep] figure.chart')].filter((c) => !c.hidden).map((c) => c.chartData)[0]);
  assert(chart.series.length === 2 && chart.series.every((s) => JSON.stringify(s.points.map((p) => p.x)) === '[2,4,6]'), JSON.stringify(chart.series.map((s) => s.points.map((p) => p.x))));
  const command = await page.textContent('[data-job=sweep] .cli-command');
  assert(command === 'csc run sweep.definition.json', command);
  // The metric changes the chart without running again.
  await page.selectOption('#sweep-metric', 'final_hit_rate');
  const title = await page.evaluate(() => [...document.querySelectorAll('[data-job=sweep] figure.chart')].find((c) => !c.hidden).chartData.title);
  assert(/hit rate/.test(title), title);
  await page.close();
});

await check('a link carries the sweep: a two-parameter grid opens in the form, runs to the same cells as the form filled by hand, and a reload restores it; a bad grid in a link is one message', async () => {
  const settings = '?view=sweep&seeds=1&horizon=150&n_eval=150&policies=greedy,lfu';
  const run = async (page) => {
    await page.click('[data-job=sweep] .run');
    await waitFor(page, () => ['done', 'error'].includes(document.querySelector('[data-job=sweep]').dataset.status), null, { timeout: 180000 });
    assert(/^Done: 4 units/.test(await status(page)), await status(page));
    // Every statistic but the policies' runtime (a time on this machine, never equal twice).
    const report = JSON.parse((await download(page, '[data-job=sweep] .export-json')).text);
    return cells({ stats: report.stats.filter((st) => !st.metric.includes('runtime')) });
  };
  const form = (page) => page.evaluate(() => ['sweep-base', 'sweep-p1', 'sweep-v1', 'sweep-p2', 'sweep-v2', 'sweep-metric'].map((id) => document.getElementById(id).value).join(' | ') + (document.getElementById('sweep-v2').disabled ? ' (v2 off)' : ''));
  const want = 'online | k | 2, 4 | epsilon | 0.2, 0.4 | final_hit_rate';

  // By hand: the form writes the link (the grid as the CLI's --grid text).
  const byHand = await openPage(settings);
  await fill(byHand, { base: 'online', p1: 'k', v1: '2,  4', p2: 'epsilon', v2: '0.20, 0.4' });
  await byHand.selectOption('#sweep-metric', 'final_hit_rate');
  const link = new URL(byHand.url()).search;
  assert(link.includes('grid=k%3D2,4%3Bepsilon%3D0.2,0.4') && link.includes('metric=final_hit_rate') && !link.includes('sweep='), link);
  const handCells = await run(byHand);
  await byHand.close();

  // The link in a fresh page: the form shows it and Run gives the same cells; a reload keeps it.
  const page = await openPage(link);
  assert(await page.evaluate(() => !document.getElementById('view-sweep').hidden), 'the link did not open the sweep view');
  assert(await form(page) === want, await form(page));
  const linkCells = await run(page);
  assert(handCells.length > 0 && linkCells.length === handCells.length, `${linkCells.length} vs ${handCells.length} statistics`);
  linkCells.forEach((c, i) => assert(c === handCells[i], `link ${c} vs by hand ${handCells[i]}`));
  await page.reload();
  await waitFor(page, () => document.body.dataset.ready === 'true', null, { timeout: 60000 });
  assert(await form(page) === want, `after a reload: ${await form(page)}`);
  assert(new URL(page.url()).search === link, page.url());
  await page.close();

  // A built-in sweep's base alone opens its own grid; a changed value of it is written.
  const preset = await openPage('?view=sweep&sweep=sens-off-beta');
  assert(/^sens-off-beta \| beta_off \| /.test(await form(preset)), await form(preset));
  await preset.fill('#sweep-v1', '0, 0.5');
  await preset.press('#sweep-v1', 'Tab');
  assert(/sweep=sens-off-beta&grid=beta_off%3D0,0.5/.test(new URL(preset.url()).search), preset.url());
  await preset.close();

  // A bad grid: one plain message in the banner naming it; the rest of the link applies.
  const bad = await openPage('?view=sweep&seeds=2&grid=k%3D2,x&metric=final_hit_rate');
  const text = await bad.textContent('#banner');
  assert(await bad.isVisible('#banner') && /`grid`/.test(text) && /`x` is not a number/.test(text) && (text.match(/`grid`/g) || []).length === 1, text);
  assert(await form(bad) === 'online | epsilon | 0.2, 0.4, 0.6 |  |  | final_hit_rate (v2 off)', await form(bad));
  assert(await bad.inputValue('#seeds-sweep') === '2', await bad.inputValue('#seeds-sweep'));
  await bad.close();
});

await check('no page errors', async () => { assert(!errors.length, errors.join(' | ')); });

await close();
done();
