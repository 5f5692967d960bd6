// End-to-end test of the Threats view in headless Chromium, used as a reader would (links,
// controls, Run, Cancel, the exports), its numbers against the CLI's:
//   - a link's threat settings (tenants, overlap, isolations, policies, p, d) show in the view's
//     fields, and the fields write them back into the link; a bad value (p = 1.5, a word among
//     the p values, no isolation) is one plain message and the link keeps the last good value;
//   - on synthetic with the link's settings, both experiments run from their Run buttons; the JSON
//     export's definition run by the CLI (`csc run <definition>`) gives every statistic but
//     runtime bit for bit, and the engine's reading of the CLI's report (`threatFindings`, in
//     node) equals what the page drew from: the tables' cells are the CLI's numbers in the
//     engine's words, each chart point is its interval, and every price verdict is the one its
//     interval, as shown, gives;
//   - a cancelled run (one worker, cancelled after its first unit) shows the units it has and
//     decides nothing ("not decided (run incomplete)");
//   - on nq-trivia (the six files of the shared data, loaded with "Load your data…") with the
//     view's defaults the two experiments are `csc run tenants --quick` and `csc run attack
//     --quick`: the same definition and every statistic but runtime bit for bit, vCache's δ lines
//     the CLI's sentences;
//   - on plane the attack does not run (the engine's reason: no gold answers) and the tenants
//     table's error rate is "—";
//   - the settings' arrival menu offers `tenants` for your own data: a small labelled file played
//     with it in the regret view runs on the `tenants` model.
// Prints "N passed, M failed".   CSC_DATA=/work/shared/data node tests/e2e/threats.mjs
import { readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, waitFor, pageSuite, finish, NQ_FILES, SHARED_DATA, statusOnceDataKnown } from './harness.mjs';
import { csc, scratch, stats } from './cli.mjs';

const { www, server, browser, errors, tally, openPage: open } = await pageSuite();
// Pages of this test: their 404s recorded (only the bundle's manifest may be missing: this page
// has no bundle of nq-trivia, and looks for one).
const missing = [];
const openPage = (query, viewport) => open(query, viewport, { before: (page) => page.on('response', (r) => { if (r.status() === 404) missing.push(new URL(r.url()).pathname); }) });
const { check } = tally;
// The same package in node: the engine's reading and formatting of the CLI's reports.
const engine = await import(pathToFileURL(path.join(www, 'pkg', 'csc.js')).href);
engine.initSync({ module: readFileSync(path.join(www, 'pkg', 'csc_bg.wasm')) });

const SMALL = 'view=threats&dataset=synthetic&tenants=2&overlap=0.3&isolations=shared,partitioned,tagged&threat_policies=lru,threshold,vcache&attack_p=0,0.5&distance=0.2';

/** Waits for panel `job` to finish; asserts it is done. */
async function jobDone(page, job, timeout = 900000) {
  await waitFor(page, (j) => ['done', 'error', 'cancelled'].includes(document.querySelector(`[data-job=${j}]`).dataset.status), job, { timeout, every: 500 });
  const status = await page.textContent(`[data-job=${job}] .status`);
  assert(/^Done/.test(status), status);
}
/** The JSON export of panel `job`. */
async function exportJson(page, job) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`[data-job=${job}] .export-json`)]);
  return JSON.parse(await readFile(await d.path(), 'utf8'));
}
/** What panel `job` drew: the engine's findings it read, its charts' data, its table's cells. */
const drawn = (page, job) => page.evaluate((j) => {
  const root = document.querySelector(`[data-job=${j}]`);
  return {
    findings: JSON.parse(JSON.stringify(root.findings)),
    charts: [...root.querySelectorAll('.charts > figure')].filter((f) => !f.hidden).map((f) => JSON.parse(JSON.stringify(f.chartData))),
    rows: [...root.querySelectorAll('table tbody tr')].map((tr) => ({ data: { ...tr.dataset }, cells: [...tr.cells].map((c) => c.textContent) })),
    sentences: [...root.querySelectorAll('.threats-delta li, .threats-undecided')].map((e) => (e.hidden ? '' : e.textContent)).filter(Boolean),
  };
}, job);
/** `csc run` on the page's exported definition (`--data` for nq-trivia): its report. */
async function cliOf(def, args = []) {
  const d = await scratch('threats');
  await writeFile(path.join(d, 'def.json'), JSON.stringify(def));
  await csc(['run', 'def.json', '--out', 'out', '--quiet', ...args], d);
  const text = await readFile(path.join(d, 'out', `${def.id}.json`), 'utf8');
  return Object.defineProperty(JSON.parse(text), 'text', { value: text }); // the file as written, too
}
const nbsp = (t) => t.replaceAll(' ± ', '\u00a0±\u00a0').replaceAll(', ', ',\u00a0');
const words = (i) => (i && i.mean != null ? nbsp(engine.formatBounds(i.mean, i.lo, i.hi)) : '—');
const paired = (d) => (!d || d.mean == null ? '—' : `${nbsp(engine.formatDifference(d.mean, d.ci95))}: ${d.words}`);

/** The verdict a price cell's own numbers give ("+0.0031 ± 0.0012: dearer"), null where a rounded
 *  end touches 0. */
function verdictByNumbers(text) {
  const m = /^([−+]?[\d.]+)(?:\u00a0±\u00a0([\d.]+))?: (.*)$/.exec(text);
  assert(m, `a price cell that is not "mean ± half: verdict": "${text}"`);
  const mean = Number(m[1].replace('−', '-').replace('+', '')), half = m[2] == null ? NaN : Number(m[2]);
  if (mean === 0 && half === 0) return ['identical on every seed', 'not distinguishable'];
  if (!Number.isFinite(half)) return ['not distinguishable'];
  if (mean + half < 0) return ['cheaper'];
  if (mean - half > 0) return ['dearer'];
  if (mean - half < 0 && mean + half > 0) return ['not distinguishable'];
  return null;
}

/** The page's tenants panel against the CLI's report: findings equal, every cell in the engine's
 *  words, each chart point its interval, each price verdict its interval's. */
function tenantsAgainst(seen, cli, isolations) {
  const want = engine.threatFindings(cli);
  assert(JSON.stringify(seen.findings) === JSON.stringify(want), 'the page read the same findings from its report as the engine reads from the CLI\'s');
  const rows = want.tenants.filter((r) => isolations.includes(r.isolation));
  assert(seen.rows.length === rows.length && rows.length > 0, `${seen.rows.length} table rows, ${rows.length} wanted`);
  rows.forEach((r, i) => {
    const cells = [r.label, words(r.cost), words(r.error_rate), words(r.hit_rate), words(r.cross_share), r.isolation === 'shared' ? 'the reference' : paired(r.price)];
    const bad = cells.findIndex((c, j) => c !== seen.rows[i].cells[j]);
    assert(bad < 0, `row ${r.label}, cell ${bad}: page "${seen.rows[i].cells[bad]}", CLI "${cells[bad]}"`);
    if (r.isolation !== 'shared' && r.price) {
      const ok = verdictByNumbers(cells[5]);
      assert(ok === null || ok.includes(r.price.words), `${r.label}: "${cells[5]}" but its interval reads ${ok}`);
    }
  });
  // The first chart: each policy's points are its rows' (cost, cross-tenant share) with bounds.
  const [share, price] = seen.charts;
  assert(/Cross-tenant hit share/.test(share.title) && /Price of isolation/.test(price.title), `${share.title} | ${price.title}`);
  for (const s of share.series) {
    const mine = rows.filter((r) => r.policy === s.key && r.cross_share?.mean != null && r.cost?.mean != null);
    assert(JSON.stringify(s.points.map((p) => [p.x, p.y, p.lo ?? null, p.hi ?? null])) === JSON.stringify(mine.map((r) => [r.cost.mean, r.cross_share.mean, r.cross_share.lo, r.cross_share.hi])), `share chart, ${s.key}`);
    for (const r of mine) if (r.isolation !== 'shared') assert(r.cross_share.mean === 0, `${r.label}: cross-tenant share ${r.cross_share.mean} under ${r.isolation}`);
  }
  for (const s of price.series) {
    const mine = want.tenants.filter((r) => r.isolation === s.key && r.price?.mean != null);
    assert(JSON.stringify(s.points.map((p) => p.y)) === JSON.stringify(mine.map((r) => r.price.mean)), `price chart, ${s.key}`);
  }
  return want;
}

/** The page's attack panel against the CLI's report. */
function attackAgainst(seen, cli) {
  const want = engine.threatFindings(cli);
  assert(JSON.stringify(seen.findings) === JSON.stringify(want), 'the page read the same findings from its report as the engine reads from the CLI\'s');
  assert(seen.rows.length === want.attack.length && want.attack.length > 0, `${seen.rows.length} rows`);
  want.attack.forEach((a, i) => {
    const cells = [seen.rows[i].cells[0], String(a.p), words(a.error_rate), words(a.hit_precision), words(a.wrong_per_1000), words(a.cost), words(a.attack_share), words(a.confusable_serves)];
    const bad = cells.findIndex((c, j) => c !== seen.rows[i].cells[j]);
    assert(bad < 0 && seen.rows[i].data.policy === a.policy, `row ${a.policy} p=${a.p}, cell ${bad}: page "${seen.rows[i].cells[bad]}", CLI "${cells[bad]}"`);
  });
  const titles = seen.charts.map((c) => c.title);
  for (const [k, field] of [['error rate', 'error_rate'], ['hit precision', 'hit_precision'], ['wrong hits per 1,000', 'wrong_per_1000'], ['share of rounds attacked', 'attack_share'], ['confusable serves', 'confusable_serves']]) {
    const c = seen.charts.find((x) => x.title.includes(k));
    assert(c, `no chart of ${k}: ${titles.join(' | ')}`);
    for (const s of c.series) {
      const mine = want.attack.filter((a) => a.policy === s.key && a[field]?.mean != null).sort((a, b) => a.p - b.p);
      assert(JSON.stringify(s.points.map((p) => [p.x, p.y])) === JSON.stringify(mine.map((a) => [a.p, a[field].mean])), `${k}, ${s.key}`);
      for (const p of s.points) if (field !== 'wrong_per_1000' && field !== 'confusable_serves') assert(p.lo == null || (p.lo >= 0 && p.hi <= 1), `${k} ${s.key}: [${p.lo}, ${p.hi}] leaves [0, 1]`);
    }
  }
  for (const d of want.delta) assert(seen.sentences.some((t) => t.startsWith(`vCache's δ = ${d.delta} at p = ${d.p}:`) && t.endsWith(`— ${d.verdict}.`)), `no δ sentence for p = ${d.p}: ${seen.sentences.join(' | ')}`);
  return want;
}

try {
  await check('a link\'s threat settings show in the view and its fields write them back; a bad value is one plain message', async () => {
    const p = await openPage(`?${SMALL}`);
    const v = await p.evaluate(() => ({
      tenants: document.getElementById('tenants').value, overlap: document.getElementById('overlap').value, distance: document.getElementById('distance').value,
      p: document.getElementById('threats-p').value,
      iso: [...document.querySelectorAll('.threats-isolations input:checked')].map((i) => i.value),
      pol: [...document.querySelectorAll('.threats-policies input:checked')].map((i) => i.value),
    }));
    assert(JSON.stringify(v) === JSON.stringify({ tenants: '2', overlap: '0.3', distance: '0.2', p: '0, 0.5', iso: ['shared', 'partitioned', 'tagged'], pol: ['lru', 'threshold', 'vcache'] }), JSON.stringify(v));
    // Typed and left with Tab, as a reader does (the field's change commits it).
    await p.fill('#tenants', '4');
    await p.press('#tenants', 'Tab');
    await p.fill('#threats-p', '0.1, 0.3');
    await p.press('#threats-p', 'Tab');
    await p.uncheck('.threats-isolations input[value=tagged]');
    let q = new URL(p.url()).searchParams;
    assert(q.get('tenants') === '4' && q.get('attack_p') === '0.1,0.3' && q.get('isolations') === 'shared,partitioned', p.url());
    for (const [text, says] of [['0.1, 1.5', /attack_p.*\[0, 1\].*1\.5/], ['0.1, x', /`x` is not a number/]]) {
      await p.fill('#threats-p', text);
      await p.press('#threats-p', 'Tab');
      const msg = await p.textContent('.threats-error');
      assert(says.test(msg) && !msg.includes('\n'), `${text}: ${msg}`);
      assert(new URL(p.url()).searchParams.get('attack_p') === '0.1,0.3', `the link kept the last good p: ${p.url()}`);
    }
    // Unchecking the last isolation setting is refused: the box stays checked, the engine says why.
    await p.uncheck('.threats-isolations input[value=shared]');
    await p.click('.threats-isolations input[value=partitioned]');
    const msg = await p.textContent('.threats-error');
    assert(/isolations/.test(msg) && /at least one/.test(msg), msg);
    assert(await p.isChecked('.threats-isolations input[value=partitioned]'), 'the last setting stays checked');
    q = new URL(p.url()).searchParams;
    assert(q.get('isolations') === 'partitioned', p.url());
    // Back to the link: its settings again.
    await p.goto(p.url().split('?')[0] + `?${SMALL}`);
    await waitFor(p, () => document.body.dataset.ready === 'true', null, { timeout: 60000 });
    assert(await p.inputValue('#tenants') === '2', 'the link\'s tenants');
    await p.close();
  });

  await check('synthetic: both experiments run from Run, and equal the CLI on the exported definitions', async () => {
    const p = await openPage(`?${SMALL}`);
    assert(/Not run yet/.test(await p.textContent('[data-job=threats-tenants] .status')), 'opening the view runs nothing');
    // One experiment at a time (the page runs one job on its worker pool): tenants, then the attack.
    await p.click('[data-job=threats-tenants] .run');
    await jobDone(p, 'threats-tenants');
    await p.click('[data-job=threats-attack] .run');
    await jobDone(p, 'threats-attack');
    const tjson = await exportJson(p, 'threats-tenants');
    assert(tjson.experiment.params.k === 10 && tjson.experiment.dataset.arrival.tenants === 2 && tjson.experiment.dataset.arrival.overlap === 0.3, JSON.stringify(tjson.experiment.dataset));
    const tcli = await cliOf(tjson.experiment);
    assert(stats(tcli) === stats(tjson), 'tenants: every statistic but runtime bit for bit');
    tenantsAgainst(await drawn(p, 'threats-tenants'), tcli, ['shared', 'partitioned', 'tagged']);
    // The CLI's report opened in the panel ("Open a result…") is drawn and tabled as the run was.
    const runDrawn = await drawn(p, 'threats-tenants');
    await p.setInputFiles('[data-job=threats-tenants] .open-report input', { name: 'tenants-cli.json', mimeType: 'application/json', buffer: Buffer.from(tcli.text) });
    await waitFor(p, () => /^(Opened|Could not open) tenants-cli\.json/.test(document.querySelector('[data-job=threats-tenants] .status').textContent), null, { timeout: 30000 });
    const opened = await p.textContent('[data-job=threats-tenants] .status');
    assert(/^Opened/.test(opened), opened);
    const openedDrawn = await drawn(p, 'threats-tenants');
    assert(JSON.stringify(openedDrawn.rows) === JSON.stringify(runDrawn.rows), 'the opened report\'s table is the run\'s');
    assert(JSON.stringify(openedDrawn.charts.map((c) => c.series)) === JSON.stringify(runDrawn.charts.map((c) => c.series)) && openedDrawn.charts.length === 2, `${openedDrawn.charts.length} charts of the opened report`);
    const ajson = await exportJson(p, 'threats-attack');
    assert(JSON.stringify(ajson.experiment.measure) === JSON.stringify({ kind: 'attack', policies: ['lru', 'threshold', 'vcache'], p: [0, 0.5], distance: 0.2 }), JSON.stringify(ajson.experiment.measure));
    const acli = await cliOf(ajson.experiment);
    assert(stats(acli) === stats(ajson), 'attack: every statistic but runtime bit for bit');
    const f = attackAgainst(await drawn(p, 'threats-attack'), acli);
    console.log(`     synthetic attack at p = 0.5: ${f.attack.filter((a) => a.p === 0.5).map((a) => `${a.policy} error ${words(a.error_rate)}, precision ${words(a.hit_precision)}`).join('; ')}`);
    // Fewer isolation settings drawn: the table and the share chart follow, without a rerun.
    await p.uncheck('.threats-isolations input[value=partitioned]');
    const seen = await drawn(p, 'threats-tenants');
    assert(seen.rows.every((r) => r.data.isolation !== 'partitioned') && seen.rows.length === 6, `${seen.rows.length} rows`);
    assert(/^Opened tenants-cli\.json/.test(await p.textContent('[data-job=threats-tenants] .status')), 'still the opened result, not a new run');
    await p.close();
  });

  await check('a cancelled run shows the units it has and decides nothing', async () => {
    const p = await openPage(`?${SMALL.replace('tenants=2', 'tenants=3')}&workers=1`);
    await p.click('[data-job=threats-tenants] .run');
    await waitFor(p, () => /^Running: [12] of 3/.test(document.querySelector('[data-job=threats-tenants] .status').textContent), null, { timeout: 600000, every: 50 });
    await p.click('[data-job=threats-tenants] .cancel');
    await waitFor(p, () => document.querySelector('[data-job=threats-tenants]').dataset.status === 'cancelled', null, { timeout: 60000 });
    const seen = await drawn(p, 'threats-tenants');
    assert(seen.findings && seen.findings.units < 3, `findings of ${seen.findings?.units} units`);
    assert(seen.sentences.some((t) => /^Run incomplete: \d of 3 units are in, so no verdict is decided\.$/.test(t)), seen.sentences.join(' | '));
    const prices = seen.rows.filter((r) => r.data.isolation !== 'shared').map((r) => r.cells[5]);
    assert(prices.length && prices.every((c) => c === '—' || c.endsWith(': not decided (run incomplete)')), prices.join(' | '));
    await p.close();
  });

  await check('plane: the attack does not run (no gold answers), the tenants table has no error rate', async () => {
    const p = await openPage('?view=threats&dataset=plane&threat_policies=lru,greedy');
    const status = await p.textContent('[data-job=threats-attack] .status');
    assert(/no ground truth/.test(status) && await p.isDisabled('[data-job=threats-attack] .run'), status);
    await p.click('[data-job=threats-tenants] .run');
    await jobDone(p, 'threats-tenants');
    const seen = await drawn(p, 'threats-tenants');
    assert(seen.rows.length === 6 && seen.rows.every((r) => r.cells[2] === '—'), seen.rows.map((r) => r.cells[2]).join(' | '));
    await p.close();
  });

  await check('your data: the arrival menu\'s `tenants` plays a small labelled file in the regret view, by a field in the threats view', async () => {
    const p = await openPage('?view=regret&dataset=upload&seeds=1&horizon=200&n_eval=100&k=3&policies=lru');
    const teams = ['alice', 'bob', 'carol'];
    const rows = Array.from({ length: 12 }, (_, i) => JSON.stringify({ text: `q${i}`, tokens: 3 + i, team: teams[i % 3], embedding: [Math.cos(i), Math.sin(i), (i % 3) / 3], answers: [`a${i % 4}`] }));
    await p.setInputFiles('#file', { name: 'small.jsonl', mimeType: 'application/json', buffer: Buffer.from(rows.join('\n')) });
    await waitFor(p, () => /^Loaded/.test(document.getElementById('upload-msg').textContent), null, { timeout: 60000 });
    assert(await p.$eval('#arrival', (s) => [...s.options].some((o) => o.value === 'tenants')), 'the arrival menu offers tenants');
    await p.selectOption('#arrival', 'tenants');
    await jobDone(p, 'regret', 300000);
    let r = await exportJson(p, 'regret');
    assert(JSON.stringify(r.experiment.dataset.arrival) === '{"model":"tenants"}', JSON.stringify(r.experiment.dataset));
    assert(r.stats.some((s) => s.metric === 'final_avg_regret' && s.algorithm === 'lru'), 'the run has LRU\'s regret');
    // "Group by" names the tenants' field: the regret view's run and the threats view's tenants.
    await p.fill('#group-by', 'team');
    await p.press('#group-by', 'Tab');
    await jobDone(p, 'regret', 300000);
    r = await exportJson(p, 'regret');
    assert(JSON.stringify(r.experiment.dataset.arrival) === '{"model":"tenants","tenant_by":"team"}', JSON.stringify(r.experiment.dataset));
    assert(new URL(p.url()).hash.includes('group_by=team'), `the link names the field: ${p.url()}`);
    await p.click('#tab-threats');
    await p.click('[data-job=threats-tenants] .run');
    await jobDone(p, 'threats-tenants', 300000);
    const t = await exportJson(p, 'threats-tenants');
    assert(t.experiment.dataset.arrival.tenant_by === 'team' && t.units.every((u) => u.detail.tenants === 3), JSON.stringify(t.experiment.dataset));
    await p.close();
  });

  await check('nq-trivia: the view\'s defaults are `csc run tenants --quick` and `csc run attack --quick`, bit for bit', async () => {
    const p = await openPage('?view=threats&dataset=nq-trivia');
    assert(/not bundled/.test(await statusOnceDataKnown(p, 'threats-tenants')), 'the bundle-less page asks for the files');
    const files = await Promise.all(NQ_FILES.map(async (name) => ({ name, mimeType: 'application/octet-stream', buffer: await readFile(path.join(SHARED_DATA, name)) })));
    await p.setInputFiles('#file', files);
    await waitFor(p, () => /^Loaded nq-trivia \(5000 questions\).*gold answers/.test(document.getElementById('upload-msg').textContent), null, { timeout: 180000 });
    await p.evaluate(() => document.querySelector('[data-view=threats]').click());
    for (const [job, id] of [['threats-tenants', 'tenants'], ['threats-attack', 'attack']]) {
      const t0 = Date.now();
      await p.click(`[data-job=${job}] .run`);
      await jobDone(p, job);
      const seconds = (Date.now() - t0) / 1000;
      const json = await exportJson(p, job);
      const d = await scratch('threats-nq');
      await csc(['run', id, '--quick', '--data', SHARED_DATA, '--out', 'out', '--quiet'], d);
      const cli = JSON.parse(await readFile(path.join(d, 'out', `${id}.json`), 'utf8'));
      assert(JSON.stringify(cli.experiment) === JSON.stringify(json.experiment), `${id}: the same definition`);
      assert(stats(cli) === stats(json), `${id}: every statistic but runtime bit for bit`);
      const seen = await drawn(p, job);
      const f = id === 'tenants' ? tenantsAgainst(seen, cli, ['shared', 'partitioned', 'tagged']) : attackAgainst(seen, cli);
      const summary = id === 'tenants'
        ? f.tenants.filter((r) => r.isolation !== 'shared').map((r) => `${r.label} ${paired(r.price)}`).slice(0, 4).join('; ')
        : `${f.confusable_pairs} confusable pairs; ${f.delta.map((x) => `δ at p=${x.p}: ${x.verdict}`).join(', ')}`;
      console.log(`     nq-trivia ${id} quick in this browser: ${seconds.toFixed(0)} s; ${summary}`);
    }
    await p.close();
  });
  await check('no request missed but the bundle\'s manifest', async () => {
    const other = missing.filter((m) => !/\/data\/manifest\.json$/.test(m));
    assert(!other.length, other.join(', '));
  });
} finally {
  // The manifest's 404, checked above, is logged by the browser as a console error.
  for (let i = errors.length - 1; i >= 0; i--) if (/^Failed to load resource: .* 404/.test(errors[i])) errors.splice(i, 1);
  await finish(tally, errors, browser, server);
}
