// End-to-end test of the playground (www/) in headless Chromium: serves www/ on a free localhost
// port, opens the page, plays, steps, checks the URL state, and saves screenshots to artifacts/.
// Prints "N passed, M failed" and exits non-zero on failure.
import http from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
const artifacts = path.join(root, 'artifacts');
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml', '.ts': 'text/plain',
};

if (!existsSync(path.join(www, 'pkg', 'csc.js'))) {
  console.error('www/pkg is missing: build it first (bash scripts/wasm.sh)');
  process.exit(1);
}

const server = http.createServer(async (req, res) => {
  try {
    let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p.endsWith('/')) p += 'index.html';
    const file = path.join(www, path.normalize(p));
    if (!file.startsWith(www)) throw new Error('outside');
    const body = await readFile(file);
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-cache' });
    res.end(body);
  } catch {
    res.writeHead(404); res.end('not found');
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

let passed = 0, failed = 0;
async function check(name, fn) {
  try { await fn(); passed++; console.log(`ok   ${name}`); }
  catch (e) { failed++; console.log(`FAIL ${name}: ${e && e.message ? e.message.split('\n')[0] : e}`); }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }
// page.waitForFunction evaluates a string inside the page, which the page's CSP forbids (no
// 'unsafe-eval'); page.evaluate goes through the debugger protocol, so poll with it instead.
async function waitFor(page, fn, arg, { timeout = 30000 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(fn, arg)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${fn.toString().slice(0, 80)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
await mkdir(artifacts, { recursive: true });

const consoleErrors = [];
const foreign = [];
async function openPage(query = '', viewport = { width: 1280, height: 800 }) {
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('request', (r) => { const u = r.url(); if (!u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:')) foreign.push(u); });
  await page.goto(`${origin}/${query}`);
  await waitFor(page, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 120000 });
  return page;
}
const round = (page) => page.evaluate(() => Number(document.querySelector('#panel-0 [data-counter=round]').textContent));
const canvasData = (page) => page.evaluate(() => document.querySelector('#panel-0 canvas').toDataURL());

try {
  const page = await openPage();
  await check('page loads with the default state', async () => {
    assert(await page.inputValue('#dataset') === 'synthetic', 'dataset');
    assert(await page.inputValue('#p1') === 'clcb-sc-ls-cont', 'p1');
    assert(await page.inputValue('#p2') === 'greedy', 'p2');
    assert((await page.textContent('#panel-0 h3')).includes('CLCB'), 'panel title');
  });
  await check('play advances the round counter and redraws the canvas', async () => {
    const before = await canvasData(page);
    await page.click('#play');
    await waitFor(page, () => Number(document.querySelector('#panel-0 [data-counter=round]').textContent) >= 100, null, { timeout: 30000 });
    await page.click('#play');
    await page.waitForTimeout(300);
    const r = await round(page);
    assert(r > 0, `round ${r}`);
    assert(await canvasData(page) !== before, 'canvas unchanged');
  });
  await check('step plays 100 rounds and updates every counter', async () => {
    await page.waitForTimeout(300);
    const r0 = await round(page);
    await page.click('#step');
    await waitFor(page, (r) => Number(document.querySelector('#panel-0 [data-counter=round]').textContent) === r + 100, r0, { timeout: 30000 });
    const c = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#panel-1 [data-counter]')].map((e) => [e.dataset.counter, e.textContent])));
    assert(Number(c.round) === r0 + 100, `policy B round ${c.round}`);
    assert(/%$/.test(c.hit) && Number.isFinite(parseFloat(c.regret)) && Number.isFinite(parseFloat(c.cost)), JSON.stringify(c));
  });
  await check('exports: curves CSV, results JSON, trace JSON, canvases PNG', async () => {
    const grab = async (sel, count = 1) => {
      const got = [];
      const done = new Promise((resolve) => {
        const on = async (d) => { got.push(d); if (got.length === count) { page.off('download', on); resolve(); } };
        page.on('download', on);
      });
      await page.click(sel);
      await done;
      return Promise.all(got.map(async (d) => ({ name: d.suggestedFilename(), body: await readFile(await d.path()) })));
    };
    const [csv] = await grab('#export-csv');
    const text = csv.body.toString();
    assert(/\.csv$/.test(csv.name) && text.startsWith('policy,t,avg_regret'), `${csv.name}: ${text.slice(0, 40)}`);
    assert(text.includes('"CLCB-SC-LS-Cont"') && text.includes('"Greedy"'), 'policies missing from CSV');
    const [res] = await grab('#export-json');
    const results = JSON.parse(res.body.toString());
    assert(Array.isArray(results) && results.length === 2 && results[0].policy_id === 'clcb-sc-ls-cont', 'results JSON');
    const [trace] = await grab('#export-trace');
    JSON.parse(trace.body.toString());
    const pngs = await grab('#export-png', 2);
    for (const png of pngs) assert(png.body.subarray(1, 4).toString() === 'PNG', `${png.name} is not a PNG`);
  });
  await check('hovering a center shows its details', async () => {
    const pos = await page.evaluate(() => {
      const el = document.querySelector('#panel-0 canvas');
      const r = el.getBoundingClientRect();
      return { x: r.left, y: r.top, w: r.width };
    });
    // Scan the canvas for a spot that shows the tooltip.
    let shown = false;
    for (let gy = 10; gy < pos.w && !shown; gy += 8) {
      for (let gx = 10; gx < pos.w && !shown; gx += 8) {
        await page.mouse.move(pos.x + gx, pos.y + gy);
        shown = await page.evaluate(() => !document.querySelector('#panel-0 .tip').hidden);
      }
    }
    assert(shown, 'no tooltip anywhere');
    const text = await page.textContent('#panel-0 .tip');
    assert(/weight/.test(text) && /estimate/.test(text) && /cached/.test(text), text);
    // And from the keyboard: focus the canvas, walk the centers with the arrow keys.
    await page.mouse.move(0, 0);
    await page.focus('#panel-1 canvas');
    await page.keyboard.press('ArrowRight');
    assert(/center #0/.test(await page.textContent('#panel-1 .tip')), 'ArrowRight did not show center #0');
    await page.keyboard.press('Escape');
    assert(await page.isHidden('#panel-1 .tip'), 'Escape did not hide the details');
  });
  await page.screenshot({ path: path.join(artifacts, 'desktop-live.png'), fullPage: true });
  await check('regret view draws the chart', async () => {
    await page.click('#tab-regret');
    assert(page.url().includes('view=regret'), page.url());
    await page.waitForTimeout(200);
    const blank = await page.evaluate(() => {
      const c = document.getElementById('regret-chart');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let dark = 0; for (let i = 0; i < d.length; i += 4) if (d[i] < 200) dark++;
      return dark;
    });
    assert(blank > 100, `chart has ${blank} dark pixels`);
    await page.screenshot({ path: path.join(artifacts, 'desktop-regret.png'), fullPage: true });
    await page.selectOption('#metric', 'hitRate');
    assert(page.url().includes('metric=hitRate'), page.url());
    await page.selectOption('#metric', 'avgRegret');
    await page.click('#tab-live');
  });
  await check('URL round-trip', async () => {
    await page.selectOption('#p2', 'lru');
    await page.fill('#speed', '7');
    await page.press('#speed', 'Enter');
    await page.locator('#speed').blur();
    await page.click('#params summary');
    await page.fill('#k', '3');
    await page.locator('#k').blur();
    const url = page.url();
    assert(url.includes('p2=lru') && url.includes('speed=7') && url.includes('k=3'), url);
    const again = await openPage(url.slice(origin.length + 1));
    assert(await again.inputValue('#p2') === 'lru', 'p2 not restored');
    assert(await again.inputValue('#speed') === '7', 'speed not restored');
    assert(await again.inputValue('#k') === '3', 'k not restored');
    assert(await again.isVisible('#k'), 'parameters not shown');
    assert((await again.textContent('#panel-1 h3')) === 'LRU', 'panel B not LRU');
    await again.close();
  });
  await check('an invalid parameter is reported, and a valid one recovers', async () => {
    await page.fill('#k', '0');
    await page.locator('#k').blur();
    await page.click('#reset');
    await waitFor(page, () => /^Error/.test(document.getElementById('status').textContent));
    assert(/\bk\b/.test(await page.textContent('#status')), await page.textContent('#status'));
    await page.fill('#k', '5');
    await page.locator('#k').blur();
    await page.click('#reset');
    await waitFor(page, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 120000 });
  });
  await page.close();

  await check('plane dataset draws the KRR heatmap', async () => {
    const p = await openPage('?dataset=plane&speed=50');
    await p.click('#play');
    await waitFor(p, () => Number(document.querySelector('#panel-0 [data-counter=round]').textContent) >= 500, null, { timeout: 30000 });
    await p.click('#play');
    await p.waitForTimeout(700);
    assert(!(await p.isHidden('#heat-key')), 'heat legend hidden');
    await p.screenshot({ path: path.join(artifacts, 'desktop-plane.png'), fullPage: true });
    await p.close();
  });
  await check('embed=1 hides controls and text', async () => {
    const p = await openPage('?embed=1&dataset=plane');
    assert(await p.isHidden('#play'), 'play visible');
    assert(await p.isHidden('header'), 'header visible');
    assert(await p.isVisible('#panel-0 canvas'), 'canvas hidden');
    await p.close();
  });
  for (const [name, viewport] of [['phone', { width: 390, height: 844 }], ['narrow', { width: 360, height: 740 }]]) {
    await check(`${name} layout (${viewport.width} px) has no horizontal overflow`, async () => {
      const p = await openPage('', viewport);
      await p.click('#step');
      await waitFor(p, () => Number(document.querySelector('#panel-0 [data-counter=round]').textContent) >= 100, null, { timeout: 30000 });
      await p.waitForTimeout(200);
      const sw = await p.evaluate(() => document.documentElement.scrollWidth);
      await p.screenshot({ path: path.join(artifacts, `${name}-live.png`), fullPage: true });
      assert(sw <= viewport.width, `scrollWidth ${sw}`);
      await p.close();
    });
  }
  await check('no console errors', async () => assert(consoleErrors.length === 0, consoleErrors.join(' | ')));
  await check('no request to another origin', async () => assert(foreign.length === 0, foreign.join(' ')));
} finally {
  await browser.close();
  server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
