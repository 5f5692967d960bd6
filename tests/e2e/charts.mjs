// End-to-end test of the experiment figures (www/js/charts.js on Observable Plot) in headless
// Chromium, on real runs: the regret view (line), the efficiency view (scatter), the offline
// view (fig-a), the paper view (fig-c with the paper's value marked, its Epsilon-Greedy set aside
// as far above the others, named in a note and shown again from the legend, abl-k with integer k), and a
// path and a heatmap drawn from those runs' reports. For each chart type: the SVG export parses,
// names every series in its legend, carries the data drawn, which equals the CSV export; the PNG
// exports are 2× and 3× the figure's CSS size; the axes contain every band and bar drawn. Also:
// a legend entry hides and shows its series; the crosshair readout, reached by keyboard, gives
// every series' value at the last round; Enter on a path point calls onPoint; "Copy caption"
// puts what ran on the clipboard; nothing is clipped at 390 px; no request leaves the page's
// origin and no console error. In headless Firefox (geckodriver) the figures draw and export too.
// Screenshots at 1440 and 390 px (and an exported SVG rendered) go to artifacts/charts-*.png.
// Prints "N passed, M failed" and exits non-zero on failure.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, grab, inFirefoxSession, requirePkg, launchChromium } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
const artifacts = path.join(root, 'artifacts');
requirePkg(www);
await mkdir(artifacts, { recursive: true });
const { server, origin } = await serveStatic(www);
const { check, done } = checks();
const browser = await launchChromium();
const consoleErrors = [], foreign = [];

async function openPage(query, width = 1440) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await ctx.newPage();
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('request', (r) => { const u = r.url(); if (!u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:')) foreign.push(u); });
  await page.goto(`${origin}/${query}`);
  return page;
}
async function jobDone(page, job, timeout = 900000) {
  await waitFor(page, (j) => ['done', 'error'].includes(document.querySelector(`[data-job=${j}]`)?.dataset.status), job, { timeout, every: 250 });
  const status = await page.textContent(`[data-job=${job}] .status`);
  assert(/^Done/.test(status), status);
}
const pngSize = (buf) => {
  assert(buf.subarray(1, 4).toString() === 'PNG', 'not a PNG');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
};
const parseCsv = (text) => {
  const [head, ...rows] = text.trim().split('\n').map((l) => l.split(','));
  return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
};
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `charts-${name}.png`), fullPage: true });

/** Reads an exported SVG in the page: its size, texts and the data it carries. */
const readSvg = (page, text) => page.evaluate((t) => {
  const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
  const err = doc.querySelector('parsererror');
  const svg = doc.documentElement;
  return {
    error: err ? err.textContent : null, root: svg.localName, width: Number(svg.getAttribute('width')), height: Number(svg.getAttribute('height')),
    texts: [...doc.querySelectorAll('text')].map((e) => e.textContent), data: JSON.parse(doc.querySelector('metadata').textContent),
    images: doc.querySelectorAll('image, foreignObject').length,
  };
}, text);

/**
 * The exports of figure `i` (1-based) of panel `job` (or of a figure `sel`): SVG parses, has
 * the title and every shown series' label as text, carries what the chart drew, is the plot's
 * CSS width; PNG 2× and 3× are twice and three times its size. Returns the parsed SVG.
 */
async function checkExports(page, sel) {
  const [svgFile] = await grab(page, `${sel} .chart-svg`);
  assert(svgFile.name.endsWith('.svg'), svgFile.name);
  const svg = await readSvg(page, svgFile.body.toString());
  assert(!svg.error && svg.root === 'svg', `SVG does not parse: ${svg.error}`);
  assert(svg.images === 0, 'the SVG embeds images: text must stay text');
  const fig = await page.evaluate((s) => {
    const f = document.querySelector(s);
    const p = f.querySelector('svg.chart-plot');
    // The export holds the series shown: one the reader hid, or set aside as far above the
    // others (charts.js outliers), is left out of its legend and data.
    const shown = f.chartData.series.filter((x) => !f.hiddenKeys.has(x.key ?? x.label));
    return { title: f.chartData.title, series: shown.map((x) => ({ key: x.key, label: x.label, points: x.points })), width: p.getBoundingClientRect().width, attrW: Number(p.getAttribute('width')), caption: f.caption };
  }, sel);
  assert(Math.abs(fig.width - fig.attrW) < 1 && svg.width === fig.attrW, `SVG width ${svg.width}, figure ${fig.width}`);
  const joined = svg.texts.join(' ');
  assert(joined.includes(fig.title.split(' ').slice(0, 3).join(' ')), `title missing from ${joined.slice(0, 200)}`);
  for (const s of fig.series) assert(svg.texts.includes(s.label), `legend label ${s.label} missing`);
  assert(joined.includes('95% Student-t'), 'caption missing');
  assert(JSON.stringify(svg.data.series) === JSON.stringify(fig.series), 'the SVG\'s data is not the chart\'s');
  for (const scale of [2, 3]) {
    const [png] = await grab(page, `${sel} .chart-png${scale}`);
    const [w, h] = pngSize(png.body);
    assert(w === Math.round(svg.width * scale) && h === Math.round(svg.height * scale), `PNG ${scale}×: ${w}×${h} for an SVG of ${svg.width}×${svg.height}`);
  }
  return { svg, text: svgFile.body.toString() };
}

/** Every point drawn (x within the x axis, its series shown) has its band and bars inside the axes. */
async function checkAxesHoldBands(page, sel) {
  const r = await page.evaluate((s) => {
    const f = document.querySelector(s);
    const p = f.querySelector('svg.chart-plot');
    const xd = p.scale('x').domain, yd = p.scale('y').domain, log = p.scale('y').type === 'log', logX = p.scale('x').type === 'log';
    const bad = [];
    let drawn = 0;
    for (const ser of f.chartData.series) {
      if (f.hiddenKeys.has(ser.key ?? ser.label)) continue;
      for (const q of ser.points) {
        if (!(q.x >= xd[0] && q.x <= xd[1])) continue;
        drawn++;
        for (const v of [q.y, q.lo, q.hi]) if (Number.isFinite(v) && !(log && v <= 0) && (v < yd[0] || v > yd[1])) bad.push(`${ser.label} y ${v} at ${q.x}`);
        // On a log axis a bar reaching 0 or below runs to the axis (it has no place on it).
        for (const v of [q.xlo, q.xhi]) if (Number.isFinite(v) && !(logX && v <= 0) && (v < xd[0] || v > xd[1])) bad.push(`${ser.label} x ${v}`);
      }
    }
    return { bad, drawn, yd };
  }, sel);
  assert(r.drawn > 0, 'nothing drawn');
  assert(!r.bad.length, `outside the axes ${r.yd}: ${r.bad.slice(0, 4).join('; ')}`);
}

/** CSV rows of the report: the chart's points (metric `metric`) are the CSV's means and intervals. */
function checkCsv(rows, series, metric) {
  let compared = 0;
  for (const s of series) {
    for (const q of s.points) {
      const row = rows.find((r) => r.algorithm === s.key && r.metric === metric && Number(r.x) === q.x);
      assert(row, `no CSV row for ${s.key} ${metric} at ${q.x}`);
      assert(Number(row.mean) === q.y, `${s.key} at ${q.x}: chart ${q.y}, CSV ${row.mean}`);
      const ci = Number(row.n) >= 3 ? Number(row.ci95) : 0;
      assert(q.lo === Number(row.mean) - ci && q.hi === Number(row.mean) + ci, `${s.key} at ${q.x}: band [${q.lo}, ${q.hi}], CSV ${row.mean} ± ${row.ci95}`);
      compared++;
    }
  }
  assert(compared > 0, 'no point compared');
}

/** Runs the regret view in headless Firefox through geckodriver's WebDriver API (as
 * embed_browsers.mjs does) and returns what its figures and exports measured. */
async function inFirefox(url) {
  return inFirefoxSession(async (call, sid) => {
    await call('POST', `/session/${sid}/window/rect`, { width: 1300, height: 900 });
    await call('POST', `/session/${sid}/url`, { url });
    const end = Date.now() + 900000;
    for (;;) {
      const st = await call('POST', `/session/${sid}/execute/sync`, { script: "return document.querySelector('[data-job=regret]').dataset.status;", args: [] });
      if (st === 'done') break;
      if (st === 'error' || Date.now() > end) throw new Error(`the run ended as ${st}`);
      await new Promise((res) => setTimeout(res, 1000));
    }
    return call('POST', `/session/${sid}/execute/async`, { script: `const done = arguments[0]; (async () => {
      const f = document.querySelector('[data-job=regret] figure.chart');
      const { figureSvgText, figurePng } = await import('./js/export.js');
      const svg = new DOMParser().parseFromString(figureSvgText(f), 'image/svg+xml').documentElement;
      const bmp = await createImageBitmap(await figurePng(f, 2));
      return { plots: document.querySelectorAll('[data-job=regret] svg.chart-plot').length, legend: document.querySelectorAll('[data-job=regret] .legend-item').length,
        w: svg.getAttribute('width'), h: svg.getAttribute('height'), pw: bmp.width, ph: bmp.height, cssW: f.querySelector('svg.chart-plot').getBoundingClientRect().width };
    })().then(done, (e) => done({ error: String(e) }));`, args: [] });
  });
}

const num = (v) => (Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(3)).toString());

let regretReport = null;
try {
  await check('regret view (line): exports, CSV values, bands inside the axes, legend toggle, keyboard crosshair', async () => {
    const p = await openPage('?view=regret&seeds=3&horizon=300&policies=clcb-sc-ls-cont,greedy,lfu');
    await jobDone(p, 'regret');
    const first = '[data-job=regret] figure.chart:nth-of-type(1)';
    const { svg } = await checkExports(p, first);
    const [csv] = await grab(p, '[data-job=regret] .export-csv');
    checkCsv(parseCsv(csv.body.toString()), svg.data.series, 'avg_regret');
    const [json] = await grab(p, '[data-job=regret] .export-json');
    regretReport = JSON.parse(json.body.toString());
    for (let i = 1; i <= 6; i++) await checkAxesHoldBands(p, `[data-job=regret] figure.chart:nth-of-type(${i})`);
    // The realised cost has the oracle's L(M_orc) and the no-cache E[c(x)] of the units (their mean).
    const refs = await p.evaluate(() => document.querySelector('[data-job=regret] figure.chart:nth-of-type(5)').chartData.refs);
    const mean = (f) => regretReport.units.reduce((a, u) => a + u.detail[f], 0) / regretReport.units.length;
    const orc = refs.find((r) => r.kind === 'reference'), none = refs.find((r) => r.kind === 'no-cache');
    assert(orc && none && orc.y === mean('oracle_loss') && none.y === mean('no_cache_loss') && orc.y < none.y, JSON.stringify(refs));
    // Legend: the second series' button hides its line, then shows it again.
    const colour = svg.data.series[1] && (await p.evaluate((s) => document.querySelector(s).chartSpec.series[1].colour, first));
    const count = () => p.evaluate(([s, c]) => document.querySelector(s).querySelectorAll(`svg.chart-plot [stroke="${c}"], svg.chart-plot [fill="${c}"]`).length, [first, colour]);
    assert(colour && await count() > 0, `series 2 (${colour}) not drawn`);
    await p.click(`${first} .chart-legend button:nth-of-type(2)`);
    assert(await p.getAttribute(`${first} .chart-legend button:nth-of-type(2)`, 'aria-pressed') === 'false', 'not pressed off');
    assert(await count() === 0, 'hidden series still drawn');
    await p.keyboard.press('Enter'); // the button keeps focus after the redraw: Enter shows it again
    assert(await p.getAttribute(`${first} .chart-legend button:nth-of-type(2)`, 'aria-pressed') === 'true', 'Enter did not show it again');
    assert(await count() > 0, 'shown series not drawn');
    // Crosshair by keyboard: focus the figure, End → the last round, every series' value there.
    await p.focus(`${first} svg.chart-plot`);
    await p.keyboard.press('End');
    const text = await p.textContent(`${first} .chart-readout`);
    assert(text.startsWith('round t = 300:'), text);
    for (const s of svg.data.series) {
      const q = s.points.at(-1);
      assert(text.includes(`${s.label} ${num(q.y)} [${num(q.lo)}, ${num(q.hi)}]`), `${s.label} missing from "${text}"`);
    }
    await p.keyboard.press('ArrowLeft');
    const back = await p.textContent(`${first} .chart-readout`);
    const prevX = svg.data.series[0].points.at(-2).x;
    assert(back.startsWith(`round t = ${num(prevX)}:`), back);
    // Copy caption: the caption of the configuration that ran, on the clipboard.
    await p.click(`${first} .chart-copy-caption`);
    await waitFor(p, (s) => /copied/.test(document.querySelector(`${s} .chart-copy-caption`).textContent), first, { timeout: 5000 });
    const cap = await p.evaluate(() => navigator.clipboard.readText());
    assert(cap === await p.evaluate((s) => document.querySelector(s).caption, first), 'clipboard is not the caption');
    // What "±" means is the engine's one statement of it (intervalWords, csc::experiment::INTERVAL).
    const interval = await p.evaluate(async () => (await import('/pkg/csc.js')).intervalWords());
    for (const want of ['synthetic', 'T = 300', 'k = 5', '3 seeds', interval, 'CLCB-SC-LS-Cont, Greedy, LFU']) assert(cap.includes(want), `caption lacks "${want}": ${cap}`);
    await shot(p, 'regret-1440');
    await p.setViewportSize({ width: 390, height: 844 });
    await p.waitForTimeout(300);
    // At 390 px no title or legend is clipped: each fits inside its figure.
    const clipped = await p.evaluate(() => [...document.querySelectorAll('[data-job=regret] figure.chart')].flatMap((f) => {
      const box = f.getBoundingClientRect();
      return [...f.querySelectorAll('.chart-title, .legend-item, svg.chart-plot')].filter((e) => { const r = e.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > box.right + 0.5 || e.scrollWidth > e.clientWidth + 1; }).map((e) => e.textContent.slice(0, 40));
    }));
    assert(!clipped.length, `clipped at 390 px: ${clipped.join('; ')}`);
    await shot(p, 'regret-390');
    // Efficiency (scatter) from the same runs.
    await p.setViewportSize({ width: 1440, height: 900 });
    await p.click('.tabs [data-view=efficiency]');
    await jobDone(p, 'efficiency', 20000);
    const eff = '[data-job=efficiency] figure.chart:nth-of-type(1)';
    const e = await checkExports(p, eff);
    assert(e.svg.data.kind === 'scatter' && e.svg.data.series.length === 3, 'efficiency scatter');
    await checkAxesHoldBands(p, eff);
    await shot(p, 'efficiency-1440');
    await p.close();
  });

  await check('offline view (fig-a): gap against stream length (log x), oracle line, exports and CSV', async () => {
    const p = await openPage('?view=offline&offline=fig-a&seeds=3');
    await jobDone(p, 'offline');
    const sel = '[data-job=offline] figure.chart:nth-of-type(1)';
    const { svg } = await checkExports(p, sel);
    const [csv] = await grab(p, '[data-job=offline] .export-csv');
    checkCsv(parseCsv(csv.body.toString()), svg.data.series, 'gap');
    await checkAxesHoldBands(p, sel);
    assert(svg.texts.some((t) => /oracle/.test(t)), 'no oracle line label');
    await shot(p, 'offline-1440');
    await p.close();
  });

  await check('paper view: fig-c marks the paper\'s final R(T)/T at its own T; abl-k has integer ticks for k', async () => {
    const p = await openPage('?view=paper&preset=fig-c');
    await jobDone(p, 'paper');
    const sel = '[data-job=paper] figure.chart:nth-of-type(1)';
    const { svg } = await checkExports(p, sel);
    // The quick run's T is 1,500, the paper's 5,000: a level line that says the paper's T, not a
    // point at this run's last round.
    assert(svg.texts.some((t) => t === 'paper at T = 5,000: CLCB-SC-LS-Cont 0.0083'), `no paper mark in ${svg.texts.filter((t) => /paper/.test(t))}`);
    assert(svg.data.refs.some((r) => r.kind === 'paper' && r.y === 0.0083 && r.x == null), `paper ref in the data: ${JSON.stringify(svg.data.refs)}`);
    // Epsilon-Greedy (regret about 0.53, the others below 0.2) is set aside: hidden in the page
    // with a note naming it, left out of the export, which says so; the legend shows it again.
    const note = await p.textContent(`${sel} .chart-note`);
    assert(/^Epsilon-Greedy \(R\(t\)\/t 0\.\d+ at round t = 1,500\) is off this scale, far above the others: show it from the legend\.$/.test(note), `note: ${note}`);
    assert(!svg.data.series.some((x) => x.key === 'epsilon-greedy') && /Epsilon-Greedy \(R\(t\)\/t 0\.\d+ at round t = 1,500\) is left out of this figure/.test(svg.texts.join(' ')), 'the export does not say Epsilon-Greedy is left out');
    await p.click(`${sel} .legend-item[data-key=epsilon-greedy]`);
    assert(await p.getAttribute(`${sel} .legend-item[data-key=epsilon-greedy]`, 'aria-pressed') === 'true', 'the legend did not show Epsilon-Greedy');
    assert(/lies far above the others: hide it from the legend/.test(await p.textContent(`${sel} .chart-note`)), 'the note after showing it');
    const top = await p.evaluate((s) => /** @type {any} */ (document.querySelector(`${s} svg.chart-plot`)).scale('y').domain[1], sel);
    assert(top > 0.5, `shown again, the y axis ends at ${top}`);
    await p.click(`${sel} .legend-item[data-key=epsilon-greedy]`);
    await checkAxesHoldBands(p, sel);
    await shot(p, 'paper-fig-c-1440');
    await p.setViewportSize({ width: 390, height: 844 });
    await p.waitForTimeout(300);
    await shot(p, 'paper-fig-c-390');
    await p.close();
    const q = await openPage('?view=paper&preset=abl-k');
    await jobDone(q, 'paper');
    const ticks = await q.evaluate(() => [...document.querySelectorAll('[data-job=paper] figure.chart')].map((f) => [...f.querySelectorAll('svg.chart-plot [data-mark="x-axis tick label"] text')].map((t) => t.textContent)));
    assert(ticks.length >= 1 && ticks.every((t) => t.length >= 2 && t.every((s) => /^\d+$/.test(s))), `k ticks: ${JSON.stringify(ticks)}`);
    await checkExports(q, '[data-job=paper] figure.chart:nth-of-type(2)');
    await shot(q, 'paper-abl-k-1440');
    await q.close();
  });

  await check('path and heatmap charts from the regret run: exports, data, hover text, onPoint by keyboard', async () => {
    assert(regretReport, 'the regret run did not finish');
    const p = await openPage('?view=regret&seeds=3&horizon=300&policies=clcb-sc-ls-cont,greedy,lfu');
    await jobDone(p, 'regret');
    const made = await p.evaluate(async (report) => {
      const { drawChart, captionText } = await import('./js/charts.js');
      const { series, labelOf, runOf } = await import('./js/report.js');
      const host = document.querySelector('[data-job=regret] .charts');
      const mk = (id) => { const f = document.createElement('figure'); f.className = 'chart'; f.id = id; host.prepend(f); return f; };
      // Path: each policy's (switches, R(t)/t) in round order, bars both ways from the report.
      const sw = series(report.stats, 'switches'), rg = series(report.stats, 'avg_regret');
      const path = {
        title: 'Switches against regret over rounds', kind: 'path', xLabel: 'switches', yLabel: 'R(t)/t',
        series: rg.map((s) => {
          const w = sw.find((x) => x.key === s.key);
          return { ...s, points: s.points.map((q, i) => ({ x: w.points[i].y, y: q.y, lo: q.lo, hi: q.hi, xlo: w.points[i].lo, xhi: w.points[i].hi, meta: `round ${q.x}` })) };
        }),
      };
      window.picked = [];
      path.onPoint = (key, i) => window.picked.push([key, i]);
      const f1 = mk('path-chart');
      drawChart(f1, path, { caption: captionText(path, runOf(report)) });
      // Heatmap: final R(T)/T and hit rate per policy (cells: policy × metric), with intervals.
      const cells = [];
      for (const m of ['final_avg_regret', 'final_hit_rate']) {
        for (const st of report.stats.filter((s) => s.metric === m)) cells.push({ x: labelOf(st.algorithm), y: m, value: st.mean, lo: st.mean - st.ci95, hi: st.mean + st.ci95, n: st.n, meta: st.algorithm });
      }
      const heat = { title: 'Final values per policy', kind: 'heatmap', xLabel: 'policy', yLabel: 'metric', valueLabel: 'value', cells, onPoint: (k, i, c) => window.picked.push(['cell', i, c.meta]) };
      const f2 = mk('heat-chart');
      drawChart(f2, heat, { caption: captionText(heat, runOf(report)) });
      // Give them the panel's export buttons.
      const { downloadFigureSvg, downloadFigurePng } = await import('./js/export.js');
      for (const f of [f1, f2]) {
        const tools = document.createElement('div');
        for (const [cls, fn] of [['chart-svg', () => downloadFigureSvg(`${f.id}.svg`, f)], ['chart-png2', () => downloadFigurePng(`${f.id}@2x.png`, f, 2)], ['chart-png3', () => downloadFigurePng(`${f.id}@3x.png`, f, 3)]]) {
          const b = document.createElement('button'); b.className = cls; b.textContent = cls; b.addEventListener('click', fn); tools.append(b);
        }
        f.append(tools);
      }
      return { paths: f1.querySelectorAll('svg.chart-plot path').length, cells: f2.querySelectorAll('svg.chart-plot rect').length, n: cells.length };
    }, regretReport);
    assert(made.cells >= made.n, `heatmap cells ${made.cells} of ${made.n}`);
    const pathExp = await checkExports(p, '#path-chart');
    assert(pathExp.svg.data.kind === 'path', 'path kind');
    await checkAxesHoldBands(p, '#path-chart');
    // Points in the given order; the readout shows meta; Enter calls onPoint.
    await p.focus('#path-chart svg.chart-plot');
    await p.keyboard.press('Home');
    await p.keyboard.press('ArrowRight');
    const ro = await p.textContent('#path-chart .chart-readout');
    const s0 = pathExp.svg.data.series[0];
    assert(ro.startsWith(`${s0.label}: switches ${num(s0.points[1].x)}`) && ro.includes(s0.points[1].meta), ro);
    await p.keyboard.press('Enter');
    let picked = await p.evaluate(() => window.picked);
    assert(JSON.stringify(picked) === JSON.stringify([[s0.key, 1]]), JSON.stringify(picked));
    // Heatmap: exports (data as cells), a colour legend, the interval of the cell under focus.
    const heatExp = await checkExports(p, '#heat-chart');
    assert(heatExp.svg.data.cells.length === made.n, 'heatmap cells in the SVG');
    assert(heatExp.svg.texts.includes('value'), 'colour legend label');
    await p.focus('#heat-chart svg.chart-plot');
    await p.keyboard.press('Home');
    await p.keyboard.press('Enter');
    const hr = await p.textContent('#heat-chart .chart-readout');
    assert(/: value [\d.e-]+ \[[\d.e-]+, [\d.e-]+\] \(n = 3\)/.test(hr), hr);
    picked = await p.evaluate(() => window.picked);
    assert(picked.length === 2 && picked[1][0] === 'cell' && picked[1][1] === 0, JSON.stringify(picked));
    await shot(p, 'path-heatmap-1440');
    for (const id of ['path-chart', 'heat-chart']) await p.locator(`#${id}`).screenshot({ path: path.join(artifacts, `charts-${id}.png`) });
    // An exported SVG, rendered on its own.
    await writeFile(path.join(artifacts, 'charts-exported.svg'), pathExp.text);
    const v = await browser.newPage({ viewport: { width: pathExp.svg.width + 20, height: pathExp.svg.height + 20 } });
    await v.setContent(`<body style="margin:10px">${pathExp.text.replace(/^<\?xml[^>]*>/, '')}</body>`);
    await v.screenshot({ path: path.join(artifacts, 'charts-exported-svg.png') });
    await v.close();
    await p.close();
  });

  await check('Firefox (geckodriver): the regret view draws its six figures (the error rate last), and one exports as SVG and as PNG at 2×', async () => {
    const r = await inFirefox(`${origin}/?view=regret&seeds=3&horizon=300&policies=clcb-sc-ls-cont,greedy,lfu`);
    assert(!r.error, r.error);
    assert(r.plots === 6 && r.legend === 18, `${r.plots} figures, ${r.legend} legend entries`);
    assert(Number(r.w) === Math.round(r.cssW) && r.pw === 2 * Number(r.w) && r.ph === 2 * Number(r.h), JSON.stringify(r));
  });

  await check('no console error and no request to another origin', async () => {
    assert(!consoleErrors.length, consoleErrors.slice(0, 3).join(' | '));
    assert(!foreign.length, foreign.slice(0, 3).join(' '));
  });
} finally {
  await browser.close();
  server.close();
}
done();
