// The offline view: suboptimality gap against stream length, ε or k (figs. a, b and the k
// ablation) at quick settings for a browser tab; the paper view runs the full ones.
import { JobPanel } from './job-panel.js';
import { offlineCharts } from '../report.js';
import { uploadedData } from '../upload.js';
import { presetsOf, quickFields } from '../presets.js';

/**
 * `up`: uploaded data (upload.js `uploadedData`), which the experiment then runs on. The quick
 * settings are the engine's for that figure's preset (csc::experiment::presets), with the view's
 * number of seeds.
 */
export function offlineRequest(id, seeds, quick = quickFields(presetsOf().get(id).quick), up = null) {
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
