// The offline view: suboptimality gap against stream length, ε or k (figs. a, b and the k
// ablation) at quick settings for a browser tab; the paper view runs the full ones.
import { JobPanel } from './job-panel.js';
import { offlineCharts } from '../report.js';
import { uploadedData } from '../upload.js';

/** Quick settings per offline experiment (the page's; the paper's are in its §10 definition). */
export const QUICK_OFFLINE = {
  'fig-a': { overrides: { n_eval: 2000 }, sweepValues: [100, 200, 500, 1000] },
  'fig-b': { overrides: { n_eval: 2000, log_len: 500 }, sweepValues: [0.2, 0.3, 0.4, 0.5, 0.6, 0.8] },
  'abl-k': { overrides: { n_eval: 2000 }, sweepValues: [3, 5, 8, 12, 20] },
};

/** `up`: uploaded data (upload.js `uploadedData`), which the experiment then runs on. */
export function offlineRequest(id, seeds, quick = QUICK_OFFLINE[id], up = null) {
  const request = { type: 'run', experiment: id, dataset: up ? up.dataset : { kind: 'synthetic' }, seeds, ...quick, ...(up ? { upload: up.upload } : {}) };
  return { key: JSON.stringify({ ...request, dataset: up ? up.upload : request.dataset }), request };
}

export function createOfflineView(app) {
  const panel = new JobPanel(document.querySelector('[data-job=offline]'), {
    request: () => {
      if (app.state.dataset === 'upload' && !app.upload) return { message: 'Load your data first (“Load your data…” in the settings).' };
      return offlineRequest(app.state.offline, app.state.seeds, undefined, uploadedData(app));
    },
    charts: (report) => offlineCharts(report),
    stem: () => `${app.state.offline}-quick-${app.state.seeds}seeds`,
  });
  return { activate() { panel.activate(); }, deactivate() { panel.deactivate(); } };
}
