// The offline view: suboptimality gap against stream length, ε or k (figs. a, b and the k
// ablation) at quick settings for a browser tab; the paper view runs the full ones.
import { JobPanel } from './job-panel.js';
import { offlineCharts } from '../report.js';

/** Quick settings per offline experiment (the page's; the paper's are in its §10 definition). */
export const QUICK_OFFLINE = {
  'fig-a': { overrides: { n_eval: 2000 }, sweepValues: [100, 200, 500, 1000] },
  'fig-b': { overrides: { n_eval: 2000, log_len: 500 }, sweepValues: [0.2, 0.3, 0.4, 0.5, 0.6, 0.8] },
  'abl-k': { overrides: { n_eval: 2000 }, sweepValues: [3, 5, 8, 12, 20] },
};

export function offlineRequest(id, seeds, quick = QUICK_OFFLINE[id]) {
  const request = { type: 'run', experiment: id, dataset: { kind: 'synthetic' }, seeds, ...quick };
  return { key: JSON.stringify(request), request };
}

export function createOfflineView(app) {
  const panel = new JobPanel(document.querySelector('[data-job=offline]'), {
    request: () => offlineRequest(app.state.offline, app.state.seeds),
    charts: (report) => offlineCharts(report),
    stem: () => `${app.state.offline}-quick-${app.state.seeds}seeds`,
  });
  return { activate() { panel.activate(); }, deactivate() { panel.deactivate(); } };
}
