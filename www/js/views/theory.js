// @ts-check
// The Theory view: does the paper's guarantee show on a run? The regret view's run (its
// dataset, arrival model, parameters, policies and seeds; a user upload too) read against
// Theorem 5.1, Assumption 1 and Lemma 5.3, and `thy-horizon` at its quick settings: one run per
// horizon T, Reg(T) fitted against T — with your policy, when one is loaded, played beside it on
// the same (T, seed) streams and judged by the same engine function (own-policy.js `ownHorizons`).
// The figures and the table of checks are theory-checks.js's (the engine's numbers and words only).
import { JobPanel } from './job-panel.js';
import { onlineRequest } from './regret.js';
import { uploadedData } from '../upload.js';
import { checksTable, fillTable, scrolling, theoryCharts } from '../theory-checks.js';
import { quickJob } from '../jobs.js';
import { OWN_CHECKS, own, ownHorizons, withOwn } from './own-policy.js';
/** @typedef {import('../state.js').App} App */

/** The arrival noise σ_e of "Where it breaks": 9× synthetic's calibrated 0.0057 per coordinate. */
const BREAK_SIGMA = 0.05;

/** @param {App} app */
export function createTheoryView(app) {
  const root = /** @type {HTMLElement} */ (document.querySelector('[data-job=theory]'));
  const table = checksTable();
  // Your policy, once played on the same settings in the regret view: its Reg(t) in the charts and
  // the checks that apply to it in the table (own-policy.js `withOwn`), and a note on the others.
  const ownNote = Object.assign(document.createElement('p'), { className: 'note own-theory-note', hidden: true });
  const panel = new JobPanel(root, {
    request: () => onlineRequest(app),
    charts: (report) => theoryCharts(withOwn(report)),
    stem: () => `theory-${uploadedData(app)?.dataset.name || app.state.dataset}`,
    onReport: (job) => {
      const report = job && job.report, mine = report && withOwn(report) !== report;
      fillTable(table, report && withOwn(report));
      ownNote.hidden = !own.code;
      ownNote.textContent = mine
        ? 'Your policy: only Reg(t)\'s slope is checked (its curve is in the Reg(t) chart). ε_t, m_eff and γ_t are quantities of the paper\'s learners (their ε-net and kernel model), which a policy seen from outside does not expose, so Assumption 1, Theorem 5.1\'s premises and four terms, and Lemma 5.3\'s switches check (switches against the net\'s size m_max) cannot be read on it; its Reg(t) verdict is judged without those premises. Reg(T) across horizons is checked below: Run there plays your policy on the same (T, seed) streams as thy-horizon\'s runs and judges its Reg(T) against T by the same test.'
        : 'Your policy: run it in the regret view (“Run your policy”) on these settings to see its Reg(t) checked here; its Reg(T) across horizons is checked below (Run in that panel).';
    },
  });
  root.querySelector('.charts').after(scrolling(table, 'Theory checks of the run'), ownNote);
  const hroot = /** @type {HTMLElement} */ (document.querySelector('[data-job=theory-horizon]'));
  const htable = checksTable();
  const hnote = Object.assign(document.createElement('p'), { className: 'note own-horizon-note', hidden: true });
  hnote.setAttribute('role', 'status');
  /** Your policy's result beside the job's units (`job.beside`, jobs.js), once it played them all. */
  const mineOf = (job) => (job && job.beside && job.beside.status === 'done' ? job.beside.result : null);
  /** The report with your policy's statistics, its Reg(t) check at each T and its Reg(T) across
   *  horizons added (policy `own-policy`), when it played the job's runs; else as is. */
  const withMine = (report, job) => {
    const o = mineOf(job);
    if (!o || !o.theory || !report || !report.theory) return report;
    const runs = o.theory.runs.map((r) => ({ ...r, checks: r.checks.filter((c) => OWN_CHECKS.includes(c.quantity)) }));
    return { ...report, stats: [...report.stats, ...o.stats],
      theory: { ...report.theory, runs: [...report.theory.runs, ...runs], horizons: [...(report.theory.horizons || []), ...o.theory.horizons] } };
  };
  const horizons = new JobPanel(hroot, {
    request: () => {
      const job = quickJob('thy-horizon');
      // Your policy, when loaded, beside the same runs (its own job: the key names its code).
      return own.code ? { ...job, key: `${job.key}|own|${own.fragment}`, beside: ownHorizons(job.request.experiment) } : job;
    },
    charts: (report) => theoryCharts(withMine(report, horizons.job())),
    stem: () => (mineOf(horizons.job()) ? 'thy-horizon-quick-with-your-policy' : 'thy-horizon-quick'),
    onReport: (job) => {
      fillTable(htable, job && withMine(job.report, job));
      const b = job && !job.loaded ? job.beside : null;
      hnote.hidden = !own.code && !b;
      hnote.classList.toggle('bad', b?.status === 'error');
      hnote.textContent = !b ? 'Your policy: Run plays it on the same (T, seed) streams as these runs, beside them.'
        : b.status === 'error' ? `Your policy: ${b.error}. The paper's policy's results above are complete.`
          : b.status === 'cancelled' ? 'Your policy: its runs were cancelled.'
            : b.status === 'running' ? `Your policy: ${Math.floor(b.frac * b.runs)} of ${b.runs} runs played…`
              : `Your policy: played on the same ${b.runs} (T, seed) streams (the same arrivals, noise and evaluation samples); its Reg(T) at each T and its fitted slope are in the chart, and its rows in the table, judged by the same test as the paper's policy.`;
    },
    // The exports carry your policy's rows: its statistics in the report's CSV form (the engine's,
    // OwnPolicyStats.csv), and in the JSON its code, statistics and checks (`own_policy`) after the report's own fields.
    exported: (job) => {
      const o = mineOf(job);
      if (!o) return job;
      const mine = JSON.stringify({ code: o.code, stats: o.stats, theory: o.theory });
      // A function, not a string, as the replacement: your code may hold `$&` and the like.
      return { csv: job.csv + o.csv, json: job.json.replace(/\}(\s*)$/, (_, end) => `,"own_policy":${mine}}${end}`) };
    },
  });
  hroot.querySelector('.charts').after(scrolling(htable, 'Theory checks across horizons'), hnote);
  // "Where it breaks": synthetic arrivals too noisy to cluster (Assumption 1 fails);
  // the view reruns on the new settings, which the link then holds.
  document.getElementById('theory-break').addEventListener('click', () => app.set((s) => {
    s.dataset = 'synthetic';
    s.params = { ...s.params, synthetic_sigma: BREAK_SIGMA };
  }));
  return {
    // A policy loaded or removed while the view is shown: the horizon panel's job is another one.
    show() { if (horizons.active) horizons.activate(false); },
    activate() { panel.activate(); horizons.activate(false); },
    deactivate() { panel.deactivate(); horizons.deactivate(); },
  };
}
