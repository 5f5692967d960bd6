// End-to-end test of the Paper view's verdicts in headless Chromium:
// walks every preset of the view's menu at quick settings, as a reader would (fig-e on the
// bundle's nq-trivia with SITE=dist, else on the four files of the shared data loaded with "Load
// your data…"), and reads each headline
// table against the run's own per-seed results (the JSON export's units), not against the
// engine's verdict fields:
//   - no row whose measured interval excludes the paper's number (± half its last digit) reads
//     "reproduced";
//   - every compared pair that is bit-identical on every seed reads "identical on every seed", and
//     no row reads "not distinguishable";
//   - a claimed win (direction holds) by an algorithm whose hit rate is 0 on every seed is flagged
//     "wins by never serving from the cache", and so is the table's lead;
//   - each online table opens with the winner's hit rate and realised cost;
//   - every "±" shows at most two significant digits of its half-width;
//   - a zero-hit win never reads "reproduced"; a quantity the run is calibrated to produce (geom's
//     arrival-to-source median) reads "calibrated, not reproduced".
// Screenshots of the Paper view (fig-e) at 1440 and 390 px go to artifacts/. Prints "N passed,
// M failed".   CSC_DATA=/work/shared/data node tests/e2e/verdicts.mjs
//   PRESETS=fig-e,fig-c node tests/e2e/verdicts.mjs    only these presets (the walk's totals unchecked)
import { readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, grab, requirePkg, pageOpener, launchChromium, statusOnceDataKnown } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The page served: www/ (fig-e's four nq-trivia files then loaded with "Load your data…"), or
// SITE=dist, the companion-site bundle, whose nq-trivia is bundled (what scripts/test.sh runs).
const www = process.env.SITE ? path.resolve(root, process.env.SITE) : path.join(root, 'www');
const artifacts = path.join(root, 'artifacts');
const data = process.env.CSC_DATA || path.join(root, '../shared/data');
const NQ = ['nq.jsonl', 'nq.emb.f32', 'triviaqa.jsonl', 'triviaqa.emb.f32'];

requirePkg(www);
await mkdir(artifacts, { recursive: true });
const { check, done } = checks();
const { server, origin } = await serveStatic(www);
const browser = await launchChromium();
const errors = [];
const openPage = pageOpener(browser, origin, errors);

async function jobDone(page, timeout) {
  try {
    await waitFor(page, () => ['done', 'error'].includes(document.querySelector('[data-job=paper]').dataset.status), null, { timeout, every: 500 });
  } catch (e) {
    // What the page showed when the run did not end: the job's status, the upload's message, the
    // banner and the URL (a run that never starts and one that stops are different faults).
    const shown = await page.evaluate(() => ({
      status: document.querySelector('[data-job=paper]').dataset.status,
      text: document.querySelector('[data-job=paper] .status').textContent,
      upload: document.getElementById('upload-msg').textContent,
      banner: document.getElementById('banner').hidden ? '' : document.getElementById('banner').textContent,
      url: location.href,
    })).catch((err) => ({ unreadable: String(err) }));
    await page.screenshot({ path: path.join(artifacts, 'verdicts-stalled.png'), fullPage: true }).catch(() => {});
    throw new Error(`${e.message}; the page showed ${JSON.stringify(shown)}`);
  }
  const status = await page.textContent('[data-job=paper] .status');
  assert(/^Done/.test(status), status);
}

/** The headline table as the page shows it: each row's cells and the measured interval's bounds. */
const tableOf = (page) => page.evaluate(() => ({
  lead: document.querySelector('#headline p.lead')?.textContent ?? null,
  leadFirst: document.querySelector('#headline')?.firstElementChild?.classList.contains('lead') ?? false,
  text: document.getElementById('headline').textContent,
  rows: [...document.querySelectorAll('#headline tbody tr')].map((tr) => {
    const m = tr.querySelector('td.measured');
    const num = (v) => (v === '' || v == null ? NaN : Number(v));
    return {
      verdict: tr.dataset.verdict, what: tr.cells[0].textContent, paper: tr.cells[1].textContent,
      measured: m.textContent, lo: num(m.dataset.lo), hi: num(m.dataset.hi), verdictText: tr.cells[3].textContent,
    };
  }),
}));

/** Per-seed values of (algorithm id, metric) at x (the largest x when x is null): seed → value. */
function perSeed(report, id, metric, x) {
  const obs = report.units.flatMap((u) => u.observations.filter((o) => o.algorithm === id && o.metric === metric).map((o) => ({ seed: u.unit.seed, x: o.x, value: o.value })));
  if (!obs.length) return null;
  const at = x ?? Math.max(...obs.map((o) => o.x));
  return new Map(obs.filter((o) => o.x === at).map((o) => [o.seed, o.value]));
}
const sameOnEverySeed = (a, b) => a && b && a.size > 0 && a.size === b.size && [...a].every(([s, v]) => Object.is(b.get(s), v));

/** The paper's printed number of a row (`72.41 %`, `0.0083`, `1.478×`) and half a unit of its last digit. */
function printed(paper) {
  const m = /^(-?\d+(?:\.(\d+))?)\s*(%|×)?$/.exec(paper.trim());
  return m ? { value: Number(m[1]), tol: 0.5 * 10 ** -(m[2] ? m[2].length : 0) } : null;
}

const seen = { identical: 0, zeroHitFlagged: 0, differs: 0, calibrated: 0, presets: 0 };
let nameToId = new Map();

try {
  let menu = [];
  await check('the Paper view lists its presets from the engine', async () => {
    const p = await openPage('?view=paper&preset=fig-a');
    menu = await p.evaluate(() => [...document.querySelectorAll('#preset option')].map((o) => o.value));
    nameToId = new Map(await p.evaluate(async () => {
      const m = await import('/pkg/csc.js');
      return [...m.policies(), ...m.offlineAlgorithms()].map((a) => [a.name, a.id]);
    }));
    assert(menu.length >= 7 && menu.includes('fig-c') && menu.includes('fig-e'), `menu ${menu}`);
    await p.close();
  });

  const only = process.env.PRESETS ? process.env.PRESETS.split(',') : null;
  for (const id of only ? menu.filter((m) => only.includes(m)) : menu) {
    await check(`${id} at quick settings: no excluded number reads "reproduced", identical pairs read "identical", zero-hit wins are flagged`, async () => {
      const p = await openPage(`?view=paper&preset=${id}`);
      if (/not bundled/.test(await statusOnceDataKnown(p, 'paper'))) {
        const files = await Promise.all(NQ.map(async (name) => ({ name, mimeType: 'application/octet-stream', buffer: await readFile(path.join(data, name)) })));
        await p.setInputFiles('#file', files, { timeout: 300000 });
        await waitFor(p, () => /^Loaded nq-trivia/.test(document.getElementById('upload-msg').textContent), null, { timeout: 180000 });
      }
      await jobDone(p, 300000);
      const [json] = await grab(p, '[data-job=paper] .export-json');
      const report = JSON.parse(json.body.toString());
      const t = await tableOf(p);
      assert(t.rows.length > 0 && t.rows.length === report.headline.rows.length, `${id}: ${t.rows.length} rows`);
      assert(!/not distinguishable/.test(t.text), `${id}: "not distinguishable" in ${t.text}`);
      // The subject of a row: its first word, or (rows starting "…") the first row's.
      const subjectOf = (what) => (what.startsWith('…') ? t.rows[0].what : what).split(' ')[0];
      t.rows.forEach((r, i) => {
        const claim = report.headline.rows[i];
        const where = `${id} row ${i} "${r.what}" (${r.measured}; ${r.verdictText})`;
        // 1. The paper's number outside the interval is never "reproduced".
        const paper = printed(r.paper);
        if (paper && Number.isFinite(r.lo) && Number.isFinite(r.hi) && (paper.value < r.lo - paper.tol || paper.value > r.hi + paper.tol)) {
          assert(r.verdict !== 'reproduced' && !/^reproduced/.test(r.verdictText), `${where}: the paper's ${r.paper} lies outside [${r.lo}, ${r.hi}]`);
          seen.differs += 1;
        }
        if (r.verdict === 'reproduced' && paper && Number.isFinite(r.lo)) {
          assert(paper.value >= r.lo - paper.tol && paper.value <= r.hi + paper.tol, `${where}: reproduced but the paper's number is outside`);
        }
        // 2. Identical pairs read "identical".
        const ours = nameToId.get(subjectOf(r.what));
        const below = /below (\S+)/.exec(r.what);
        const x = claim.x ?? null;
        if (ours && (below || /lowest/.test(r.what))) {
          const mine = perSeed(report, ours, claim.metric, x);
          const others = below ? [nameToId.get(below[1])]
            : [...new Set(report.units.flatMap((u) => u.observations.filter((o) => o.metric === claim.metric).map((o) => o.algorithm)))].filter((a) => a !== ours && a !== 'oracle');
          const same = others.filter((o) => sameOnEverySeed(mine, perSeed(report, o, claim.metric, x)));
          if (same.length && (below || r.verdict !== 'not-reproduced')) {
            assert(r.verdict === 'identical' && /^identical on every seed/.test(r.verdictText), `${where}: identical to ${same} on every seed`);
            seen.identical += 1;
          }
          if (r.verdict === 'identical') assert(same.length > 0, `${where}: "identical" but no pair is`);
          // 3. A win by an algorithm that never serves from its cache is flagged.
          const hits = perSeed(report, ours, 'final_hit_rate', null);
          const zeroHits = hits && [...hits.values()].every((h) => h === 0);
          const wins = claim.outcome.kind === 'judged' && claim.outcome.direction === 'holds';
          if (zeroHits && wins) {
            assert(/wins by never serving from the cache/.test(r.verdictText), `${where}: a zero-hit win, not flagged`);
            assert(r.verdict !== 'reproduced' && !/^reproduced/.test(r.verdictText), `${where}: a zero-hit win reads "reproduced"`);
            seen.zeroHitFlagged += 1;
          }
          if (/never serving/.test(r.verdictText)) assert(zeroHits && wins, `${where}: flagged, but hit rates ${hits && [...hits.values()]}`);
        }
        // A quantity the run is calibrated to produce is never "reproduced".
        if (claim.outcome.kind === 'calibrated') {
          assert(r.verdict === 'calibrated' && /^calibrated, not reproduced/.test(r.verdictText), `${where}: a calibrated quantity`);
          seen.calibrated += 1;
        }
        // A ratio the paper does not state (fig-e's runtime: "nearly identical latency") is measured, not judged.
        if (r.paper === 'no ratio stated') assert(r.verdict === 'measured', `${where}: judged against a ratio the paper does not state`);
        // 4. "±" at the half-width's precision: at most two significant digits.
        for (const m of r.measured.matchAll(/± (\d+(?:\.\d+)?)/g)) {
          const digits = m[1].replace('.', '').replace(/^0+/, '');
          assert(digits.length <= 2 || /^\d+$/.test(m[1]), `${where}: "± ${m[1]}"`);
        }
      });
      // The table opens with the winner's hit rate and realised cost where the run records them.
      if (report.experiment.measure.kind === 'online' && t.rows.some((r) => /lowest/.test(r.what))) {
        assert(t.leadFirst && /hit rate .+ realised cost .+ per round/.test(t.lead), `${id}: lead ${t.lead}`);
        const winner = report.headline.lead;
        const hits = perSeed(report, winner.algorithm, 'final_hit_rate', null);
        if (hits && [...hits.values()].every((h) => h === 0)) assert(/never serves from the cache/.test(t.lead), `${id}: a zero-hit winner leads unflagged: ${t.lead}`);
      }
      if (id === 'fig-e') {
        await p.screenshot({ path: path.join(artifacts, 'verdicts-paper-1440.png'), fullPage: true });
        await p.setViewportSize({ width: 390, height: 844 });
        const sw = await p.evaluate(() => document.documentElement.scrollWidth);
        await p.screenshot({ path: path.join(artifacts, 'verdicts-paper-390.png'), fullPage: true });
        assert(sw <= 390, `fig-e at 390 px: scrollWidth ${sw}`);
      }
      seen.presets += 1;
      await p.close();
    });
  }

  if (!only) await check('the walk met every kind it checks: identical pairs, numbers the paper states outside the interval, a zero-hit win', async () => {
    console.log(`     ${JSON.stringify(seen)}`);
    assert(seen.presets === menu.length, `${seen.presets} of ${menu.length} presets`);
    assert(seen.identical > 0 && seen.differs > 0 && seen.zeroHitFlagged > 0 && seen.calibrated > 0, JSON.stringify(seen));
  });
  // The bundle-less page probes for the nq-trivia bundle (data/manifest.json): its 404 is expected.
  await check('no console error', async () => {
    const real = errors.filter((e) => !/^Failed to load resource: the server responded with a status of 404/.test(e));
    assert(real.length === 0, real.join('\n'));
  });
} finally {
  await browser.close();
  server.close();
}
done();
