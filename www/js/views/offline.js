// @ts-check
// The offline view: suboptimality gap against stream length, ε or k (figs. a, b and the k
// ablation) at quick settings for a browser tab; the paper view runs the full ones. Against the
// stream length it also draws the gap on log-log with the n^(−1/2) shape of Theorem 4.1 and the
// engine's fitted slopes with their 95% intervals and verdicts (theory-checks.js gapCharts).
import { JobPanel } from './job-panel.js';
import { offlineCharts } from '../report.js';
import { LOAD_FIRST, uploadedData } from '../upload.js';
import { presetsOf, quickFields } from '../presets.js';
import { checksTable, gapCharts, fillTable, scrolling } from '../theory-checks.js';
/** @typedef {import('../state.js').App} App */

/**
 * `up`: uploaded data (upload.js `uploadedData`), which the experiment then runs on. The quick
 * settings are the engine's for that figure's preset (csc::experiment::presets), with the view's
 * number of seeds.
 */
export function offlineRequest(id, seeds, quick = quickFields(presetsOf().get(id).quick), up = null) {
  const request = { type: 'run', experiment: id, dataset: up ? up.dataset : { kind: 'synthetic' }, seeds, ...quick, ...(up ? { upload: up.upload } : {}) };
  return { key: JSON.stringify({ ...request, dataset: up ? up.upload : request.dataset }), request };
}

/** @param {App} app */
export function createOfflineView(app) {
  // A cell of the sweep view opened here (`app.fromSweep`: its parameters, set on top of the
  // figure's quick settings) is named above the run, with a button that drops it.
  const root = document.querySelector('[data-job=offline]');
  const table = checksTable();
  const from = Object.assign(document.createElement('p'), { className: 'hint from-sweep', hidden: true });
  const text = document.createElement('span');
  const clear = Object.assign(document.createElement('button'), { type: 'button', className: 'link', textContent: 'use the figure\'s own settings' });
  from.append(text, ' ', clear);
  root.before(from);
  clear.addEventListener('click', () => { app.fromSweep = null; panel.activate(); });
  const panel = new JobPanel(root, {
    request: () => {
      if (app.state.dataset === 'upload' && !app.upload) return { message: LOAD_FIRST };
      const set = app.fromSweep;
      from.hidden = !set;
      text.textContent = set ? `From the sweep view: ${Object.entries(set).map(([k, v]) => `${k} = ${v}`).join(', ')}.` : '';
      const quick = quickFields(presetsOf().get(app.state.offline).quick);
      if (set) quick.overrides = { ...quick.overrides, ...set };
      return offlineRequest(app.state.offline, app.state.seeds, quick, uploadedData(app));
    },
    charts: (report) => [...offlineCharts(report), ...gapCharts(report)],
    stem: () => `${app.state.offline}-quick-${app.state.seeds}seeds`,
    // Theorem 4.1's check of a sweep of n (fig. 2(a)): the engine's slopes and verdicts.
    onReport: (job) => fillTable(table, job && job.report),
  });
  const region = scrolling(table, 'Theorem 4.1: the gap\'s slope in n');
  root.querySelector('.charts').after(region);
  return { activate() { panel.activate(); }, deactivate() { panel.deactivate(); } };
}
