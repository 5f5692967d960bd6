// What a reader sees in every view at 1440, 768 and 390 px, in headless Chromium, once the view
// has run something (its tables, charts and verdicts exist): nothing is cut off and no label
// covers data.
//  - the page does not scroll sideways;
//  - every visible table cell, caption, heading, legend entry, label, button and paragraph is
//    whole: not cut by an ancestor that hides overflow (a scroller, which the reader can scroll,
//    is fine), not overflowing itself, and not off the page's sides;
//  - every text of every chart (ticks, axis labels, reference labels) lies inside its figure;
//  - every reference label is inside the plot's frame, overlaps no other label and covers no
//    series: sampled every 2 px
//    along each drawn line (Plot's line marks) and at each marker, no point lies inside a label's
//    box (chart-labels.js placeLabels, which the drawing uses, is tested in tests/charts/; this
//    reads the page as drawn);
//  - axe-core (wcag2a, wcag2aa, wcag21a, wcag21aa) finds no violation at each width (a11y.mjs
//    checks every view at 1280 px with best practice too, and the live view after Ask).
// Views: live, regret, offline, efficiency, theory, paper (fig-c, whose Epsilon-Greedy is set
// aside on its regret chart: its note is checked), sweep, frontier (its first units, then
// cancelled) with "Pick a threshold" run on synthetic, threats (both experiments on synthetic). Screenshots: artifacts/layout-VIEW-W.png.
//   node tests/e2e/layout.mjs [VIEW…]      SITE=dist node tests/e2e/layout.mjs (the bundle)
// Prints "N passed, M failed" and exits non-zero on failure.
import { readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, requirePkg, launchChromium } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = process.env.SITE ? path.resolve(root, process.env.SITE) : path.join(root, 'www');
const artifacts = path.join(root, 'artifacts');
requirePkg(www);
await mkdir(artifacts, { recursive: true });
const only = process.argv.slice(2);
const WIDTHS = [1440, 768, 390];
const axe = await readFile(path.join(root, 'tests/e2e/node_modules/axe-core/axe.min.js'), 'utf8');

const { server, origin } = await serveStatic(www);
const { check, done } = checks();
const browser = await launchChromium();
const errors = [];

async function jobDone(page, job, timeout = 1200000) {
  await waitFor(page, (j) => ['done', 'error', 'cancelled'].includes(document.querySelector(`[data-job=${j}]`)?.dataset.status), job, { timeout, every: 250 });
  const status = await page.textContent(`[data-job=${job}] .status`);
  assert(/^Done/.test(status), `${job}: ${status}`);
}

const small = 'seeds=2&horizon=300&n_eval=300';
/** Each view, its link, and what to do so that it shows its results. */
const VIEWS = [
  ['live', '?view=live', async (p) => {
    await waitFor(p, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 120000 });
    await p.click('#step');
    await waitFor(p, () => Number(document.querySelector('#panel-0 [data-counter=round]').textContent) >= 1);
  }],
  ['regret', `?view=regret&${small}&policies=clcb-sc-ls-cont,greedy,lfu,epsilon-greedy`, (p) => jobDone(p, 'regret')],
  ['offline', `?view=offline&${small}`, (p) => jobDone(p, 'offline')],
  ['efficiency', `?view=efficiency&${small}&policies=clcb-frozen-cont,greedy,lfu,epsilon-greedy`, (p) => jobDone(p, 'efficiency')],
  ['theory', `?view=theory&${small}&policies=clcb-sc-ls-cont,greedy`, (p) => jobDone(p, 'theory')],
  ['threats', '?view=threats&tenants=2&threat_policies=lru,threshold,vcache&attack_p=0,0.5', async (p) => {
    await p.click('[data-job=threats-tenants] .run');
    await jobDone(p, 'threats-tenants');
    await p.click('[data-job=threats-attack] .run');
    await jobDone(p, 'threats-attack');
  }],
  ['paper', '?view=paper&preset=fig-c', async (p) => {
    await jobDone(p, 'paper');
    // fig-c's Epsilon-Greedy sets no scale: hidden on the regret chart, named in its note.
    const note = await p.textContent('[data-job=paper] figure.chart:nth-of-type(1) .chart-note');
    assert(/^Epsilon-Greedy \(R\(t\)\/t 0\.\d+ at round t = 1,500\) is off this scale, far above the others: show it from the legend\.$/.test(note), `note: ${note}`);
    assert(await p.getAttribute('[data-job=paper] figure.chart:nth-of-type(1) .legend-item[data-key=epsilon-greedy]', 'aria-pressed') === 'false', 'Epsilon-Greedy shown');
  }],
  ['sweep', `?view=sweep&${small}&policies=greedy,lfu`, async (p) => {
    await p.fill('#sweep-v1', '0.2, 0.4');
    await p.press('#sweep-v1', 'Tab');
    await p.click('[data-job=sweep] .run');
    await jobDone(p, 'sweep');
  }],
  ['frontier', '?view=frontier&dataset=synthetic&seeds=2', async (p) => {
    await waitFor(p, () => {
      const job = document.querySelector('[data-job=frontier]');
      return job?.dataset.status === 'error' || (!!job?.querySelector('svg.chart-plot') && !!job?.querySelector('table tbody tr'));
    }, null, { timeout: 600000, every: 500 });
    assert(await p.getAttribute('[data-job=frontier]', 'data-status') !== 'error', `frontier: ${await p.textContent('[data-job=frontier] .status')}`);
    await p.click('[data-job=frontier] .cancel');
    await waitFor(p, () => document.querySelector('[data-job=frontier]').dataset.status === 'cancelled');
    await p.selectOption('.tune-form select.tune-kind', 'precision');
    await p.fill('.tune-form input.tune-value', '0.9');
    await p.click('.tune-form button.tune-go');
    await jobDone(p, 'tune');
  }],
];

/** What is cut off or covered in the page as it is now, one line each. */
const faults = (page) => page.evaluate(() => {
  const out = [], W = document.documentElement.clientWidth;
  const name = (e) => `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ')[0]}` : ''} "${(e.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 50)}"`;
  if (document.documentElement.scrollWidth > W + 1) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px in ${W}`);
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  // Texts a reader reads whole.
  const sel = 'th, td, caption, h1, h2, h3, figcaption, .legend-item, label, button, summary, p, li, .status, .chart-note';
  for (const e of document.querySelectorAll(sel)) {
    if (!shown(e) || !(e.textContent || '').trim()) continue;
    if (e.closest('.sr-only, [hidden], svg')) continue;
    // Inside a visually hidden box (a table's head on a phone, its cells then labelled as cards).
    let hiddenBox = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) { const b = a.getBoundingClientRect(); if (b.width <= 2 || b.height <= 2) { hiddenBox = true; break; } }
    if (hiddenBox) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const cs = getComputedStyle(e);
    // Its own overflow hidden (ellipsis, a fixed cell): its text must fit.
    if (cs.overflowX !== 'visible' && cs.overflowX !== 'auto' && cs.overflowX !== 'scroll' && e.scrollWidth > e.clientWidth + 1) out.push(`${name(e)} overflows itself by ${e.scrollWidth - e.clientWidth} px`);
    // Cut by an ancestor that hides overflow without a scrollbar; inside a scroller it can be reached.
    let scrolled = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      const scrolls = /auto|scroll/.test(s.overflowX + s.overflowY);
      if (scrolls) { scrolled = true; break; }
      if (/hidden|clip/.test(s.overflowX + s.overflowY)) {
        const b = a.getBoundingClientRect();
        if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) { out.push(`${name(e)} is cut by ${name(a).slice(0, 30)}`); break; }
      }
    }
    if (!scrolled && (r.left < -1 || r.right > W + 1)) out.push(`${name(e)} spans ${Math.round(r.left)}–${Math.round(r.right)} px of ${W}`);
  }
  // Chart texts inside their figure; reference labels inside the frame and off every series.
  for (const svg of document.querySelectorAll('svg.chart-plot')) {
    if (!shown(svg)) continue;
    const box = svg.getBoundingClientRect();
    const title = svg.closest('figure')?.querySelector('.chart-title')?.textContent?.slice(0, 30);
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (!t.textContent.trim() || !r.width) continue;
      const over = Math.max(box.left - r.left, r.right - box.right, box.top - r.top, r.bottom - box.bottom);
      if (over > 0.5) out.push(`chart "${title}": "${t.textContent}" leaves the figure by ${over.toFixed(1)} px`);
    }
    const frame = svg.querySelector('[data-mark="frame"], [data-mark="x-grid"]');
    const labels = [...svg.querySelectorAll('[data-mark="ref-label"] text')].map((t) => ({ t, r: t.getBoundingClientRect() }));
    if (!labels.length) continue;
    const marginLeft = 58, marginRight = 16, marginTop = 14, marginBottom = 40; // charts.js MARGIN
    const f = { left: box.left + marginLeft, right: box.right - marginRight, top: box.top + marginTop, bottom: box.bottom - marginBottom };
    void frame;
    const pts = [];
    for (const p of svg.querySelectorAll('[data-mark="line"] path')) {
      const m = p.getScreenCTM(), len = p.getTotalLength();
      for (let s = 0; s <= len; s += 2) { const q = p.getPointAtLength(s); pts.push([m.a * q.x + m.c * q.y + m.e, m.b * q.x + m.d * q.y + m.f]); }
    }
    const dots = [...svg.querySelectorAll('[data-mark="dot"] path')].map((d) => d.getBoundingClientRect());
    for (const { t, r } of labels) {
      if (r.left < f.left - 1 || r.right > f.right + 1 || r.top < f.top - 1 || r.bottom > f.bottom + 1) out.push(`chart "${title}": label "${t.textContent}" leaves the plot's frame`);
      const pad = 0.5;
      const hit = pts.find(([x, y]) => x > r.left + pad && x < r.right - pad && y > r.top + pad && y < r.bottom - pad);
      if (hit) out.push(`chart "${title}": label "${t.textContent}" covers a series at (${hit.map((v) => v.toFixed(0))})`);
      const dot = dots.find((d) => d.left < r.right - pad && d.right > r.left + pad && d.top < r.bottom - pad && d.bottom > r.top + pad);
      if (dot) out.push(`chart "${title}": label "${t.textContent}" covers a marker`);
      const other = labels.find((o) => o.t !== t && o.r.left < r.right - pad && o.r.right > r.left + pad && o.r.top < r.bottom - pad && o.r.bottom > r.top + pad);
      if (other) out.push(`chart "${title}": label "${t.textContent}" overlaps "${other.t.textContent}"`);
    }
  }
  return out;
});

/** axe's WCAG 2.0/2.1 A and AA violations (its experimental rules included), one line per rule. */
async function violations(page) {
  await page.addScriptTag({ content: axe });
  return page.evaluate(async (tags) => {
    const ax = /** @type {any} */ (window).axe;
    const rules = Object.fromEntries(ax.getRules(tags).map((r) => [r.ruleId, { enabled: true }]));
    const res = await ax.run(document, { runOnly: { type: 'tag', values: tags }, rules });
    return res.violations.map((x) => `${x.id} (${x.nodes.length}): ${x.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  }, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
}

try {
  const ctx = await browser.newContext({ bypassCSP: true, viewport: { width: 1440, height: 900 } });
  for (const [what, query, show] of VIEWS.filter(([w]) => !only.length || only.includes(w))) {
    await check(`${what}: at ${WIDTHS.join(', ')} px nothing is cut off, no reference label covers a series, and axe finds no violation`, async () => {
      const p = await ctx.newPage();
      p.on('pageerror', (e) => errors.push(`${what}: ${e}`));
      p.on('console', (m) => { if (m.type() === 'error') errors.push(`${what}: ${m.text()}`); });
      try {
        await p.goto(`${origin}/${query}`);
        await waitFor(p, () => document.body.dataset.ready === 'true', null, { timeout: 120000 });
        await show(p);
        const bad = [];
        for (const w of WIDTHS) {
          await p.setViewportSize({ width: w, height: 900 });
          await p.waitForTimeout(400);
          await p.screenshot({ path: path.join(artifacts, `layout-${what}-${w}.png`), fullPage: true });
          bad.push(...(await faults(p)).map((x) => `${w} px: ${x}`));
          bad.push(...(await violations(p)).map((x) => `${w} px: axe ${x}`));
        }
        assert(!bad.length, `${bad.length} faults: ${bad.slice(0, 8).join(' | ')}`);
      } finally { await p.close(); }
    });
  }
  await check('no console error', async () => {
    const real = errors.filter((e) => !/favicon|status of 404/.test(e));
    assert(!real.length, real.join(' | '));
  });
} finally {
  await browser.close();
  server.close();
}
done();
