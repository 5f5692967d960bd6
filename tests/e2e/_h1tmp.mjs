// End-to-end test of the experiment figures (www/js/charts.js on Observable Plot) in headless
// Chromium, on real runs: the regret view (line), the efficiency view (scatter), the offline
// view (fig-a), the paper view (fig-c with the paper's value marked, abl-k with integer k), and a
// path and a heatmap drawn from those runs' reports. For each chart type: the SVG export parses,
// names every series in its legend, carries the data drawn, which equals the CSV export; the PNG
// exports are 2× and 3× the figure's CSS size; the axes contain every band and bar drawn. Also:
// a legend entry hides and shows its series; the crosshair readout, reached by keyboard, gives
// every series' value at the last round; Enter on a path point calls onPoint; no request leaves
// the page's origin and no console error; in Firefox too, the figures draw and export. Screenshots at 1440 and 390 px (and an exported SVG
// rendered) go to artifacts/charts-*.png.
// Prints "N passed, M failed" and exits non-zero on failure.
import { mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, grab } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
const artifacts = path.join(root, 'artifacts');
if (!existsSync(path.join(www, 'pkg', 'csc.js'))) {
  console.error('www/pkg is missing: build it first (bash scripts/wasm.sh)');
  process.exit(1);
}
await mkdir(artifacts, { recursive: true });
const { server, origin } = await serveStatic(www);
const { check, done } = checks();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
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
    return { title: f.chartData.title, series: f.chartData.series.map((x) => ({ key: x.key, label: x.label, points: x.points })), width: p.getBoundingClientRect().width, attrW: Number(p.getAttribute('width')), caption: f.caption };
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

/** Every point drawn (x within the x axis) has its band and bars inside the axes. */
async function checkAxesHoldBands(page, sel) {
  const r = await page.evaluate((s) => {
    const f = document.querySelector(s);
    const p = f.querySelector('svg.chart-plot');
    const xd = p.scale('x').domain, yd = p.scale('y').domain, log = p.scale('y').type === 'log', logX = p.scale('x').type === 'log';
    const bad = [];
    let drawn = 0;
    for (const ser of f.chartData.series) {
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
  const port = 4400 + Math.floor(Math.random() * 500);
  const driver = spawn(process.env.GECKODRIVER || 'geckodriver', ['--port', String(port)], { stdio: 'ignore' });
  const wd = `http://127.0.0.1:${port}`;
  const call = async (method, p, body) => {
    const r = await fetch(`${wd}${p}`, { method, headers: { 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
    const j = await r.json();
    if (!r.ok) throw new Error(`WebDriver ${p}: ${j.value?.message || r.status}`);
    return j.value;
  };
  try {
    for (let i = 0; ; i++) { try { await fetch(`${wd}/status`); break; } catch { if (i > 100) throw new Error('geckodriver did not start'); await new Promise((res) => setTimeout(res, 100)); } }
    const binary = process.env.FIREFOX || (existsSync('/usr/bin/firefox-esr') ? '/usr/bin/firefox-esr' : 'firefox');
    const { sessionId: sid } = await call('POST', '/session', { capabilities: { alwaysMatch: { browserName: 'firefox', 'moz:firefoxOptions': { binary, args: ['-headless'] } } } });
    try {
      await call('POST', `/session/${sid}/window/rect`, { width: 1300, height: 900 });
      await call('POST', `/session/${sid}/url`, { url });
      const end = Date.now() + 900000;
      for (;;) {
        const st = await call('POST', `/session/${sid}/execute/sync`, { script: "return document.querySelector('[data-job=regret]').dataset.status;", args: [] });
        if (st === 'done') break;
        if (st === 'error' || Date.now() > end) throw new Error(`the run ended as ${st}`);
        await new Promise((res) => setTimeout(res, 1000));
      }
      return await call('POST', `/session/${sid}/execute/async`, { script: `const done = arguments[0]; (async () => {
        const f = document.querySelector('[data-job=regret] figure.chart');
        const { figureSvgText, figurePng } = await import('./js/export.js');
        const svg = new DOMParser().parseFromString(figureSvgText(f), 'image/svg+xml').documentElement;
        const bmp = await createImageBitmap(await figurePng(f, 2));
        return { plots: document.querySelectorAll('[data-job=regret] svg.chart-plot').length, legend: document.querySelectorAll('[data-job=regret] .legend-item').length,
          w: svg.getAttribute('width'), h: svg.getAttribute('height'), pw: bmp.width, ph: bmp.height, cssW: f.querySelector('svg.chart-plot').getBoundingClientRect().width };
      })().then(done, (e) => done({ error: String(e) }));`, args: [] });
    } finally { await call('DELETE', `/session/${sid}`).catch(() => {}); }
  } finally { driver.kill(); }
}

const num = (v) => (Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(3)).toString());

let regretReport = null;
try {
  await check('Firefox (geckodriver): the regret view draws its five figures, and one exports as SVG and as PNG at 2×', async () => {
    const r = await inFirefox(`${origin}/?view=regret&seeds=3&horizon=300&policies=clcb-sc-ls-cont,greedy,lfu`);
    assert(!r.error, r.error);
    assert(r.plots === 5 && r.legend === 15, `${r.plots} figures, ${r.legend} legend entries`);
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
