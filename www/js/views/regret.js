// @ts-check
// The online regret view: the selected policies on the page's dataset and parameters, several
// seeds, average regret with a 95% band (filled in seed by seed), switches and realised cost.
import { POLICIES } from '../state.js';
import { policies } from '../../pkg/csc.js';
import { JobPanel } from './job-panel.js';
import { onlineCharts } from '../report.js';
import { LOAD_FIRST, uploadedData } from '../upload.js';
import { nqTriviaFiles } from '../nq-trivia.js';
import { experimentJob } from '../jobs.js';
import { own, ownOnSeeds, ownSettingsKey, withOwn } from './own-policy.js';
/** @typedef {import('../state.js').App} App */
/** @typedef {import('../../pkg/csc.js').PolicyId} PolicyId */

/**
 * The online experiment of the page's settings (shared with the efficiency view); on uploaded
 * data its dataset is the object naming the user's file, checksum and arrival model.
 * @param {App} app
 */
export function onlineRequest(app) {
  const s = app.state, up = uploadedData(app);
  if (s.dataset === 'upload' && !up) return { message: LOAD_FIRST };
  const name = up ? up.upload.jsonl : s.dataset;
  const experiment = {
    id: 'online', title: `Online: ${s.policies.length} policies on ${name} (page settings)`, dataset: up ? up.upload : s.dataset,
    measure: { kind: 'online', policies: s.policies }, params: s.params, seeds: s.seeds, first_seed: s.params.seed,
  };
  return experimentJob(app, up, experiment);
}

/** @param {App} app */
export function createRegretView(app) {
  const box = document.getElementById('policy-boxes');
  // The catalog says which policies are slow to run (csc::algorithms, `slow`).
  const slow = new Set(policies().filter((p) => p.slow).map((p) => /** @type {string} */ (p.id)));
  for (const [id, name] of Object.entries(POLICIES)) {
    const label = document.createElement('label');
    label.className = 'check';
    const cb = Object.assign(document.createElement('input'), { type: 'checkbox', value: id });
    label.append(cb, ` ${name}${slow.has(id) ? ' (slow)' : ''}`);
    box.append(label);
    cb.addEventListener('change', () => {
      const chosen = [.../** @type {NodeListOf<HTMLInputElement>} */ (box.querySelectorAll('input:checked'))].map((c) => c.value);
      if (!chosen.length) { cb.checked = true; return; }
      app.set((s) => { s.policies = /** @type {PolicyId[]} */ (Object.keys(POLICIES).filter((p) => chosen.includes(p))); });
    });
  }
  const panel = new JobPanel(document.querySelector('[data-job=regret]'), {
    request: () => onlineRequest(app),
    // Your policy's statistics on the same settings and seeds, when it has run on them, beside
    // the report's policies in every chart (the same chart code, series `own-policy`).
    charts: (report) => onlineCharts(withOwn(report)),
    stem: () => `online-${uploadedData(app)?.dataset.name || app.state.dataset}-${app.state.seeds}seeds`,
  });
  // Your own policy on the same seeds (own-policy.js): its regret beside the report's.
  const ownBox = /** @type {HTMLElement} */ (document.getElementById('own-regret'));
  const ownOut = /** @type {HTMLElement} */ (document.getElementById('own-regret-out'));
  const ownStatus = /** @type {HTMLElement} */ (document.getElementById('own-regret-status'));
  let ownGen = 0;
  document.getElementById('own-regret-run').addEventListener('click', async () => {
    const g = ++ownGen, s = app.state, up = uploadedData(app);
    ownOut.replaceChildren();
    ownStatus.classList.remove('bad');
    own.regret = null;
    panel.drawCharts();
    try {
      if (s.dataset === 'upload' && !up) throw new Error(LOAD_FIRST);
      const nq = s.dataset === 'nq-trivia' ? await nqTriviaFiles(app) : null;
      const init = { dataset: s.dataset, upload: up && up.dataset, arrival: up && up.upload.arrival, params: s.params, ...(nq ? { nq } : {}) };
      const seeds = Array.from({ length: s.seeds }, (_, i) => s.params.seed + i);
      ownStatus.textContent = `Playing your policy on ${seeds.length} seeds…`;
      const r = onlineRequest(app);
      if (r.message) throw new Error(r.message);
      const key = ownSettingsKey(r.request.experiment);
      const got = await ownOnSeeds(init, seeds, (p) => { if (g === ownGen && p.round % 500 === 0) ownStatus.textContent = `Seed ${p.seed}: round ${p.round}…`; });
      if (g !== ownGen) return;
      // Its statistics are kept only when every seed played to T (a fault leaves no mean to draw).
      own.regret = got.runs.some((x) => x.stopped) ? null : { key, stats: got.stats, theory: got.theory };
      showOwn(got.runs);
      panel.drawCharts();
    } catch (e) {
      if (g !== ownGen) return;
      ownStatus.textContent = e.message;
      ownStatus.classList.add('bad');
    }
  });
  /** Per seed, your policy's metrics at T, and their mean. */
  function showOwn(got) {
    const done = got.filter((r) => !r.stopped);
    /** @type {[string, (c: any) => number | null, number][]} */
    const cols = [['avg regret', (c) => c.avg_regret, 4], ['realised cost / round', (c) => c.avg_realised_cost, 4], ['hit rate', (c) => c.hit_rate, 3],
      ['switches', (c) => c.switches, 0], ['error rate', (c) => c.error_rate, 4], ['hit precision', (c) => c.hit_precision, 4]];
    const fmt = (v, d) => (v == null || !Number.isFinite(v) ? '—' : v.toFixed(d));
    const table = document.createElement('table');
    table.className = 'own-regret-table';
    const row = (cells, tag = 'td') => { const tr = table.insertRow(); for (const c of cells) tr.append(Object.assign(document.createElement(tag), { textContent: c })); return tr; };
    row(['seed', ...cols.map(([n]) => n)], 'th');
    for (const r of done) row([String(r.seed), ...cols.map(([, f, d]) => fmt(f(r.result.last), d))]).dataset.seed = String(r.seed);
    if (done.length) {
      const mean = (f) => { const v = done.map((r) => f(r.result.last)).filter((x) => x != null); return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null; };
      row(['mean', ...cols.map(([, f, d]) => fmt(mean(f), d))]).dataset.seed = 'mean';
    }
    ownOut.replaceChildren(table);
    const stop = got.find((r) => r.stopped);
    ownStatus.textContent = stop ? `Seed ${stop.seed}: ${stop.stopped}` : `Your policy on seeds ${got[0].seed}…${got[got.length - 1].seed}, T = ${done[0]?.result.last.t ?? 0}: the same streams, noise and evaluation samples as the runs above.`;
    ownStatus.classList.toggle('bad', Boolean(stop));
  }
  return {
    show() {
      ownBox.hidden = !own.code;
      for (const cb of box.querySelectorAll('input')) cb.checked = app.state.policies.includes(/** @type {PolicyId} */ (cb.value));
    },
    activate() { panel.activate(); },
    deactivate() { panel.deactivate(); },
  };
}
