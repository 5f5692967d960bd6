// Reproduce from the page, end to end in headless Chromium with the real CLI:
// - a CLI result opened on the page (file picker, and dropped on the page) is drawn by the same
//   charts with the CLI's numbers, and the page's JSON export of it holds the CLI's statistics
//   and units unchanged (CLI result → page → exported JSON → equal values);
// - the command the page shows under that result, run by the CLI, gives the same statistics;
// - a result run in the page shows its command and definition file; the CLI, run with them,
//   gives the page's statistics bit for bit (the wall-clock runtime aside);
// - an edited result, a shard's result and JSON that is no result are refused with one plain
//   message each.
// Needs www/pkg (bash scripts/wasm.sh); builds the CLI with cargo (CARGO_TARGET_DIR applies).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checks, assert, waitFor } from './harness.mjs';
import { csc, runCommand, scratch, stats } from './cli.mjs';
import { session, artifacts } from './session.mjs';

const { check, done } = checks();
const { openPage, download, errors, close } = await session();
const statusOf = (page, job) => page.evaluate((j) => document.querySelector(`[data-job=${j}] .status`).textContent, job);
/** Opens `text` as the file `name` with the panel's "Open a result…" picker. */
async function openFile(page, job, name, text) {
  await page.setInputFiles(`[data-job=${job}] .open-report input`, { name, mimeType: 'application/json', buffer: Buffer.from(text) });
}
/** What the panel's charts draw: per chart, per series, the points' (x, mean). */
const drawn = (page, job) => page.evaluate((j) => [...document.querySelectorAll(`[data-job=${j}] figure.chart`)].filter((c) => !c.hidden)
  .map((c) => ({ title: c.chartData.title, series: c.chartData.series.map((s) => ({ key: s.key, points: s.points.map((p) => [p.x, p.y]) })) })), job);

const dir = await scratch('reproduce');
// The CLI's result: fig-c, changed in seeds and parameters only (its command is flags).
await csc(['run', 'fig-c', '--seeds', '2', '--set', 'horizon=300', '--set', 'n_eval=300', '--out', 'cli', '--quiet', '--threads', '1'], dir);
const cliText = await readFile(path.join(dir, 'cli/fig-c.json'), 'utf8');
const cli = JSON.parse(cliText);

await check('a CLI result opened on the page is drawn by the same charts with the CLI\'s numbers', async () => {
  const page = await openPage('?view=regret&seeds=1&horizon=100&n_eval=200&policies=greedy');
  await openFile(page, 'regret', 'fig-c.json', cliText);
  await waitFor(page, () => /^Opened fig-c\.json/.test(document.querySelector('[data-job=regret] .status').textContent), null);
  const charts = await drawn(page, 'regret');
  assert(charts.length >= 4, `${charts.length} charts`);
  const regret = charts[0].series;
  const keys = [...new Set(cli.stats.filter((s) => s.metric === 'avg_regret').map((s) => s.algorithm))];
  assert(JSON.stringify(regret.map((s) => s.key)) === JSON.stringify(keys), `series ${regret.map((s) => s.key)} vs ${keys}`);
  for (const s of regret) {
    const want = cli.stats.filter((t) => t.algorithm === s.key && t.metric === 'avg_regret').map((t) => [t.x, t.mean]);
    assert(JSON.stringify(s.points) === JSON.stringify(want), `${s.key}: drawn ${JSON.stringify(s.points).slice(0, 80)} vs ${JSON.stringify(want).slice(0, 80)}`);
  }
  // The page's JSON export of it: the CLI's definition, statistics and units, value for value.
  const exported = JSON.parse((await download(page, '[data-job=regret] .export-json')).text);
  for (const k of ['experiment', 'stats', 'units', 'engine', 'description']) {
    assert(JSON.stringify(exported[k]) === JSON.stringify(cli[k]), `${k} differs after the round trip`);
  }
  // The summary is the engine's table of it.
  assert(/fig-c/.test(await page.textContent('[data-job=regret] .summary pre')), 'no summary');
  // The command under it is the CLI's flags, and reruns it to the same statistics.
  const command = await page.textContent('[data-job=regret] .cli-command');
  assert(command === 'csc run fig-c --seeds 2 --set horizon=300 --set n_eval=300', command);
  assert(await page.isHidden('[data-job=regret] .reproduce .definition'), 'a definition shown for a flags-only command');
  const again = JSON.parse(await runCommand(command, await scratch('reproduce-again'), 'fig-c', ['--threads', '1']));
  assert(stats(again) === stats(cli), 'the page\'s command gave other statistics');
  await page.screenshot({ path: path.join(artifacts, 'reproduce-opened-1440.png'), fullPage: true });
  await page.close();
});

await check('a CLI result dropped on the page opens in the view shown', async () => {
  const page = await openPage('?view=offline&seeds=1');
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'fig-c.json', { type: 'application/json' }));
    document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, cliText);
  await waitFor(page, () => /^Opened fig-c\.json/.test(document.querySelector('[data-job=offline] .status').textContent), null);
  const charts = await drawn(page, 'offline');
  assert(charts.length >= 4 && /regret/i.test(charts[0].title), `drawn: ${charts.map((c) => c.title)}`);
  await page.close();
});

await check('an edited result, a shard and JSON that is no result are refused with one plain message', async () => {
  const page = await openPage('?view=regret&seeds=1&horizon=100&n_eval=200&policies=greedy');
  const edited = structuredClone(cli);
  edited.stats[3].mean += 1e-9;
  const shard = { ...structuredClone(cli), shard: { index: 1, count: 3 } };
  for (const [name, text, want] of [
    ['edited.json', JSON.stringify(edited), /was it edited/],
    ['fig-c.shard-1-of-3.json', JSON.stringify(shard), /shard 1 of 3.*csc merge/],
    ['other.json', '{"experiment": 3, "stats": []}', /not a csc report/],
    ['broken.json', '{"experiment"', /not a csc report/],
  ]) {
    await openFile(page, 'regret', name, text);
    await waitFor(page, (n) => document.querySelector('[data-job=regret] .status').textContent.startsWith(`Could not open ${n}`), name);
    const msg = await statusOf(page, 'regret');
    assert(want.test(msg), msg);
  }
  await page.close();
});

await check('a result run in the page shows its command and definition; the CLI run with them gives the page\'s statistics', async () => {
  const page = await openPage('?view=regret&seeds=2&horizon=200&n_eval=200&policies=greedy,lfu');
  await waitFor(page, () => ['done', 'error'].includes(document.querySelector('[data-job=regret]').dataset.status), null, { timeout: 180000 });
  assert(/^Done/.test(await statusOf(page, 'regret')), await statusOf(page, 'regret'));
  const command = await page.textContent('[data-job=regret] .cli-command');
  assert(command === 'csc run online.definition.json', command);
  await page.click('[data-job=regret] .reproduce .definition summary');
  const def = await download(page, '[data-job=regret] .save-definition');
  assert(def.name === 'online.definition.json', def.name);
  const shown = await page.textContent('[data-job=regret] .cli-definition');
  assert(JSON.stringify(JSON.parse(shown)) === JSON.stringify(JSON.parse(def.text)), 'the definition shown is not the one saved');
  const pageReport = JSON.parse((await download(page, '[data-job=regret] .export-json')).text);
  const d = await scratch('reproduce-def');
  await writeFile(path.join(d, def.name), def.text);
  const cliRun = JSON.parse(await runCommand(command, d, 'online', ['--threads', '1']));
  assert(JSON.stringify(cliRun.experiment) === JSON.stringify(pageReport.experiment), 'the CLI ran another definition');
  assert(stats(cliRun) === stats(pageReport), 'the CLI\'s statistics differ from the page\'s');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(artifacts, 'reproduce-command-390.png'), fullPage: true });
  await page.close();
});

await check('no page errors', async () => { assert(!errors.length, errors.join(' | ')); });

await close();
done();
