// @ts-check
// The Theory view: does the paper's guarantee show on a run? The regret view's run (its
// dataset, arrival model, parameters, policies and seeds; a user upload too) read against
// Theorem 5.1, Assumption 1 and Lemma 5.3, and `thy-horizon` at its quick settings: one run per
// horizon T, Reg(T) fitted against T. The figures and the table of checks are theory-checks.js's
// (the engine's numbers and words only).
import { JobPanel } from './job-panel.js';
import { onlineRequest } from './regret.js';
import { uploadedData } from '../upload.js';
import { checksTable, fillTable, scrolling, theoryCharts } from '../theory-checks.js';
import { quickJob } from '../jobs.js';
import { own, withOwn } from './own-policy.js';
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
        ? 'Your policy: only Reg(t)\'s slope is checked (its curve is in the Reg(t) chart). ε_t, m_eff and γ_t are quantities of the paper\'s learners (their ε-net and kernel model), which a policy seen from outside does not expose, so Assumption 1, Theorem 5.1\'s premises and four terms, and Lemma 5.3\'s switches check (switches against the net\'s size m_max) cannot be read on it; its Reg(t) verdict is judged without those premises. Reg(T) across horizons is the built-in thy-horizon experiment\'s, run on the paper\'s policies only.'
        : 'Your policy: run it in the regret view (“Run your policy”) on these settings to see its Reg(t) and switches checked here.';
    },
  });
  root.querySelector('.charts').after(scrolling(table, 'Theory checks of the run'), ownNote);
  const hroot = /** @type {HTMLElement} */ (document.querySelector('[data-job=theory-horizon]'));
  const htable = checksTable();
  const horizons = new JobPanel(hroot, {
    request: () => quickJob('thy-horizon'),
    charts: (report) => theoryCharts(report),
    stem: () => 'thy-horizon-quick',
    onReport: (job) => fillTable(htable, job && job.report),
  });
  hroot.querySelector('.charts').after(scrolling(htable, 'Theory checks across horizons'));
  // "Where it breaks": synthetic arrivals too noisy to cluster (Assumption 1 fails);
  // the view reruns on the new settings, which the link then holds.
  document.getElementById('theory-break').addEventListener('click', () => app.set((s) => {
    s.dataset = 'synthetic';
    s.params = { ...s.params, synthetic_sigma: BREAK_SIGMA };
  }));
  return {
    activate() { panel.activate(); horizons.activate(false); },
    deactivate() { panel.deactivate(); horizons.deactivate(); },
  };
}
