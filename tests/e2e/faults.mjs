// Smaller faults the page once had, each used as a reader would in headless Chromium, each a
// check that failed on the page before its fix:
//  1. the Efficiency view says how long the run took, not how long until the tab was opened;
//  2. an upload whose embedding rows are not unit-norm is normalised (SPEC §1) and "Loaded" says
//     so, and every view then runs on it (it said "Loaded", then "cannot calibrate σ_e");
//  3. the sweep's values follow its parameter (the engine's sweepDefaults), and the form shows the
//     exact CLI command of its grid, as its intro promises;
//  4. the live chart labels its no-cache line with the regret it is drawn at;
//  5. the paper's value, stated at T = 5,000, is not marked as a point of a T = 1,500 curve and
//     its label says its T; no label of an exported figure leaves the figure;
//  6. no table runs off the page at 768 px or hides a column at 390 px;
//  7. a page whose probe for the nq-trivia bundle answers late says it is looking for the bundle
//     (it said "Loading the bundled nq-trivia data… 0.0 MB" on a page with none), then that it has
//     none, and the reader's files loaded then run the preset.
// Screenshots at 390, 768 and 1440 px go to artifacts/faults-*.png.
//   node tests/e2e/faults.mjs [N…]     (needs www/pkg: bash scripts/wasm.sh; N: only check N)
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { checks, assert, waitFor, NQ_FILES, SHARED_DATA } from './harness.mjs';
import { session, artifacts } from './session.mjs';

const { check, done } = checks();
const { openPage, download, errors, close } = await session();
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `faults-${name}.png`), fullPage: true });
const WIDTHS = [390, 768, 1440];
const small = 'seeds=2&horizon=300&n_eval=300';
// `node tests/e2e/faults.mjs 3 5`: only those checks.
const only = process.argv.slice(2);
const some = (n, name, fn) => (!only.length || only.includes(n) ? check(name, fn) : undefined);

async function jobDone(page, job, timeout = 900000) {
  await waitFor(page, (j) => ['done', 'error', 'cancelled'].includes(document.querySelector(`[data-job=${j}]`)?.dataset.status), job, { timeout, every: 250 });
  return page.textContent(`[data-job=${job}] .status`);
}

try {
  await some('1', '1. the Efficiency view times the run: opened seconds after the run ended, it says the run\'s time, as the regret view did', async () => {
    const p = await openPage(`?view=regret&${small}&policies=greedy,lfu`);
    const regret = await jobDone(p, 'regret');
    const m = /^Done: (\d+) units? in (\d+) s\.$/.exec(regret);
    assert(m, regret);
    // The tab opened later: the time it shows must not grow with the wait.
    await p.waitForTimeout(3500);
    await p.click('.tabs [data-view=efficiency]');
    const eff = await jobDone(p, 'efficiency');
    assert(eff === regret, `efficiency "${eff}" vs regret "${regret}" (opened 3.5 s after the run ended)`);
    await p.waitForTimeout(1200);
    await p.click('.tabs [data-view=regret]');
    assert(await p.textContent('[data-job=regret] .status') === regret, 'the regret view\'s time changed when shown again');
    await p.close();
  });

  await some('2', '2. rows of norm 2 are normalised and "Loaded" says so; the regret view then runs on them (no σ_e error)', async () => {
    // 40 queries, 6-d embeddings of norm 2 (unit vectors doubled), inline in the JSONL.
    const rows = [];
    for (let i = 0; i < 40; i++) {
      const v = Array.from({ length: 6 }, (_, j) => Math.sin(1.7 * i + 0.9 * j * j + 0.3));
      const n = Math.hypot(...v);
      rows.push(JSON.stringify({ text: `question ${i}`, tokens: 5 + (i % 17), embedding: v.map((x) => (2 * x) / n) }));
    }
    const p = await openPage(`?${small}&policies=greedy,lfu`);
    await p.setInputFiles('#file', { name: 'doubled.jsonl', mimeType: 'application/json', buffer: Buffer.from(rows.join('\n')) });
    await waitFor(p, () => /Loaded|Could not/.test(document.getElementById('upload-msg').textContent), null, { timeout: 60000 });
    const msg = await p.textContent('#upload-msg');
    assert(/^Loaded doubled\.jsonl: 40 queries, 6-d\. Note: 40 of 40 embedding rows were not unit-norm \(norms 2\.0000 to 2\.0000, first row 0 \(line 1\)\); they were normalised to unit length/.test(msg), msg);
    assert(msg.indexOf('normalised') < msg.indexOf('Every view runs on it'), `the note comes after "Every view runs on it": ${msg}`);
    await waitFor(p, () => /^Ready|^Error/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    const live = await p.textContent('#status');
    assert(/^Ready/.test(live), `live view: ${live}`);
    await p.click('.tabs [data-view=regret]');
    const st = await jobDone(p, 'regret');
    assert(/^Done/.test(st), `regret view on the upload: ${st}`);
    await shot(p, 'upload-normalised-1440');
    await p.close();
  });

  await some('3', '3. changing the sweep\'s parameter resets its values to that parameter\'s; the form shows the exact --grid command', async () => {
    const p = await openPage('?view=sweep&seeds=2');
    const field = (id) => p.inputValue(id);
    const command = () => p.textContent('#view-sweep .sweep-command');
    // The online run's default grid is ε's; β's SPEC default is 1: ½×, 1×, 2×.
    await p.selectOption('#sweep-p1', 'beta');
    assert(await field('#sweep-v1') === '0.5, 1, 2', `β's values: ${await field('#sweep-v1')}`);
    await p.selectOption('#sweep-p2', 'k');
    assert(await field('#sweep-v2') === '3, 5, 10', `k's values: ${await field('#sweep-v2')}`);
    await p.selectOption('#sweep-p2', '');
    // A built-in sweep (β_off) at its own grid: the built-in itself (no --grid; the definition
    // came back through JS with its whole numbers as integers and is still the built-in's);
    // changed, the command names the grid with --grid and follows the form.
    await p.selectOption('#sweep-base', 'sens-off-beta');
    const own = (await field('#sweep-v1')).replace(/\s+/g, '');
    assert(own === '0,0.01,0.03,0.1,0.3,1', `its own grid: ${own}`);
    assert(await command() === 'This grid with the CLI: csc run sens-off-beta --seeds 2', `its own grid (${own}): ${await command()}`);
    await p.selectOption('#sweep-p1', 'epsilon');
    assert(await field('#sweep-v1') === '0.2, 0.4, 0.8', `ε's values: ${await field('#sweep-v1')}`);
    assert(await command() === 'This grid with the CLI: csc run sens-off-beta --grid epsilon=0.2,0.4,0.8 --seeds 2', `command: ${await command()}`);
    // λ's SPEC default is 0.1; values typed by hand are the command's too.
    await p.selectOption('#sweep-p2', 'lambda');
    assert(await field('#sweep-v2') === '0.05, 0.1, 0.2', `λ's values: ${await field('#sweep-v2')}`);
    await p.fill('#sweep-v1', '0.3, 0.5');
    await p.press('#sweep-v1', 'Tab');
    const want = "This grid with the CLI: csc run sens-off-beta --grid 'epsilon=0.3,0.5;lambda=0.05,0.1,0.2' --seeds 2";
    assert(await command() === want, `command: ${await command()} (want ${want})`);
    for (const w of WIDTHS) { await p.setViewportSize({ width: w, height: 900 }); await shot(p, `sweep-form-${w}`); }
    await p.close();
  });

  await some('4', '4. the live chart labels its no-cache line with the regret it is drawn at, L(∅) − L(M_orc)', async () => {
    const p = await openPage('?view=live', { width: 1440, height: 900 });
    // Every text the running charts draw, with the canvas it is drawn on (recorded from here on).
    await p.evaluate(() => {
      const seen = /** @type {any} */ (window).__chartTexts = [];
      const fill = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
        if (this.canvas.classList.contains('running-chart')) seen.push({ text: String(text), panel: this.canvas.closest('[id^=panel-]')?.id });
        return fill.call(this, text, x, y, ...rest);
      };
    });
    await p.click('#step');
    await waitFor(p, () => /** @type {any} */ (window).__chartTexts.some((t) => /no cache/.test(t.text)), null, { timeout: 60000 });
    const got = await p.evaluate(() => {
      const c = /** @type {HTMLCanvasElement} */ (document.querySelector('#panel-0 canvas.running-chart'));
      const texts = /** @type {any} */ (window).__chartTexts.filter((t) => t.panel === 'panel-0').map((t) => t.text);
      return { noCache: Number(c.dataset.noCache), label: texts.filter((t) => /no cache/.test(t)).at(-1), oracle: texts.filter((t) => /oracle/.test(t)).at(-1) };
    });
    const shown = Number(/=\s*(-?[\d.]+)\s*$/.exec(got.label)?.[1]);
    assert(Number.isFinite(got.noCache) && got.noCache > 0, `no-cache regret ${got.noCache}`);
    assert(Math.abs(shown - got.noCache) < 5e-4, `label "${got.label}" but the line is drawn at regret ${got.noCache}`);
    assert(/regret/.test(got.label) && /regret 0/.test(got.oracle), `labels "${got.label}", "${got.oracle}"`);
    await shot(p, 'live-chart-1440');
    await p.close();
  });
  /** Every text of the exported SVG of each figure in `sel` (rendered in the page) that leaves
   *  the plot or the clip rectangle it is drawn in: [figure, text, how far]. */
  const clippedTexts = (page, sel) => page.evaluate(async (s) => {
    const { figureSvgText } = await import('./js/export.js');
    const out = [];
    for (const [i, f] of [...document.querySelectorAll(s)].entries()) {
      const text = figureSvgText(f);
      if (!text) continue;
      const host = document.createElement('div');
      host.style.cssText = 'position:absolute;left:0;top:0';
      host.innerHTML = text.replace(/^<\?xml[^>]*>/, '');
      document.body.append(host);
      const rootSvg = host.querySelector('svg'), plot = rootSvg.querySelector('svg');
      const box = plot.getBoundingClientRect();
      for (const t of plot.querySelectorAll('text')) {
        const r = t.getBoundingClientRect();
        if (!t.textContent.trim() || !r.width) continue;
        const clip = t.closest('[clip-path]');
        const id = clip && /url\(#(.+)\)/.exec(clip.getAttribute('clip-path'))?.[1];
        const c = id ? plot.querySelector(`[id="${id}"] rect`)?.getBoundingClientRect() : null;
        const lim = c ? { left: Math.max(c.left, box.left), right: Math.min(c.right, box.right), top: Math.max(c.top, box.top), bottom: Math.min(c.bottom, box.bottom) } : box;
        const over = Math.max(lim.left - r.left, r.right - lim.right, lim.top - r.top, r.bottom - lim.bottom);
        if (over > 0) out.push(`figure ${i + 1}: "${t.textContent}" by ${over.toFixed(1)} px`);
      }
      host.remove();
    }
    return out;
  }, sel);

  await some('5', '5. fig-c at quick settings (T = 1,500): the paper\'s T = 5,000 value is a level line that says its T; no exported label is clipped at 390 or 1440 px', async () => {
    const p = await openPage('?view=paper&preset=fig-c', { width: 390, height: 900 });
    const st = await jobDone(p, 'paper');
    assert(/^Done/.test(st), st);
    const refs = await p.evaluate(() => /** @type {any} */ (document.querySelector('[data-job=paper] figure.chart')).chartData.refs);
    const paper = refs.filter((r) => r.kind === 'paper');
    assert(paper.length === 1 && paper[0].x == null && paper[0].label === 'paper at T = 5,000: CLCB-SC-LS-Cont 0.0083', `paper mark ${JSON.stringify(paper)}`);
    for (const w of [390, 1440]) {
      await p.setViewportSize({ width: w, height: 900 });
      await p.waitForTimeout(400);
      const bad = await clippedTexts(p, '[data-job=paper] figure.chart');
      assert(!bad.length, `at ${w} px: ${bad.join('; ')}`);
      await shot(p, `paper-fig-c-${w}`);
    }
    // Where the horizons match, the value is a point at the last round, its label whole beside it.
    await p.setViewportSize({ width: 390, height: 900 });
    await p.evaluate(async () => {
      const { drawChart } = await import('./js/charts.js');
      const f = document.createElement('figure');
      f.className = 'chart probe';
      document.querySelector('[data-job=paper] .charts').prepend(f);
      const points = Array.from({ length: 30 }, (_, i) => ({ x: (i + 1) * 50, y: 0.05 + 0.1 / (i + 1) }));
      drawChart(f, { title: 'probe', xLabel: 'round t', yLabel: 'R(t)/t', series: [{ key: 'clcb-sc-ls-cont', label: 'CLCB-SC-LS-Cont', points }],
        refs: [{ y: 0, label: 'oracle M_orc (0)', kind: 'reference' }, { x: 1500, y: 0.0083, label: 'paper: CLCB-SC-LS-Cont 0.0083', kind: 'paper' }] });
    });
    const probe = await clippedTexts(p, '[data-job=paper] figure.chart.probe');
    assert(!probe.length, `a point's label: ${probe.join('; ')}`);
    await p.close();
  });
  await some('6', '6. every table but the frontier\'s (its own scroller) fits the page at 768 px and shows every column at 390 px', async () => {
    const bad = [];
    for (const [what, query, job] of [['paper', '?view=paper&preset=fig-c', 'paper'], ['efficiency', `?view=efficiency&${small}&policies=clcb-sc-ls-cont,greedy,lfu,epsilon-greedy`, 'efficiency']]) {
      const p = await openPage(query, { width: 1440, height: 900 });
      const st = await jobDone(p, job);
      assert(/^Done/.test(st), `${what}: ${st}`);
      for (const w of WIDTHS) {
        await p.setViewportSize({ width: w, height: 900 });
        await p.waitForTimeout(300);
        await shot(p, `${what}-tables-${w}`);
        bad.push(...(await p.evaluate(() => {
          const out = [], W = document.documentElement.clientWidth;
          if (document.documentElement.scrollWidth > W) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px`);
          for (const t of document.querySelectorAll('table')) {
            if (!t.offsetParent || t.closest('.table-scroll')) continue;
            const r = t.getBoundingClientRect();
            if (r.left < 0 || r.right > W + 0.5) out.push(`${t.className} spans ${Math.round(r.left)}–${Math.round(r.right)} px`);
            // Every column is seen: its heading, or (cards on a phone) each cell under its name.
            const head = t.tHead && getComputedStyle(t.tHead).display !== 'none' ? [...t.tHead.rows[0].cells] : [...t.querySelectorAll('td[data-label]')];
            for (const c of head) {
              const b = c.getBoundingClientRect();
              if (!b.width || b.left < 0 || b.right > W + 0.5) out.push(`${t.className}: "${c.textContent.trim() || c.dataset.label}" at ${Math.round(b.left)}–${Math.round(b.right)} px`);
            }
          }
          return out;
        })).map((x) => `${what} at ${w} px: ${x}`));
      }
      await p.close();
    }
    assert(!bad.length, bad.slice(0, 6).join('; '));
  });
  await some('7', '7. a late answer to the bundle probe: "Looking for…", then "not bundled", then the loaded files run fig-e', async () => {
    const before = errors.length;
    let answer;
    const answered = new Promise((r) => { answer = r; });
    const p = await openPage('?view=paper&preset=fig-e', undefined, {
      before: (page) => page.route('**/data/manifest.json', async (route) => { await answered; await route.continue(); }),
    });
    const status = () => p.textContent('[data-job=paper] .status');
    const looking = await status();
    assert(looking === 'Looking for the bundled nq-trivia data…', `while the probe is out: ${looking}`);
    answer();
    await waitFor(p, () => /not bundled/.test(document.querySelector('[data-job=paper] .status').textContent), null, { timeout: 60000 });
    const files = await Promise.all(NQ_FILES.slice(0, 4).map(async (name) => ({ name, mimeType: 'application/octet-stream', buffer: await readFile(path.join(SHARED_DATA, name)) })));
    await p.setInputFiles('#file', files, { timeout: 300000 });
    const end = await jobDone(p, 'paper', 600000);
    assert(/^Done/.test(end), end);
    assert(new URL(p.url()).searchParams.get('dataset') === 'nq-trivia', p.url());
    await p.close();
    // The bundle-less page's probe for data/manifest.json: its one 404 is expected.
    const probe = errors.slice(before).filter((e) => /status of 404/.test(e));
    assert(probe.length <= 1, probe.join(' | '));
    errors.splice(before, errors.length - before, ...errors.slice(before).filter((e) => !/status of 404/.test(e)));
  });
} finally {
  await check('no console errors', async () => assert(errors.length === 0, errors.join(' | ')));
  await close();
}
done();
