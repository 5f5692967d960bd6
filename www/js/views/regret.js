// @ts-check
// The online regret view: the selected policies on the page's dataset and parameters, several
// seeds, average regret with a 95% band (filled in seed by seed), switches and realised cost.
import { POLICIES } from '../state.js';
import { policies } from '../../pkg/csc.js';
import { JobPanel } from './job-panel.js';
import { onlineCharts } from '../report.js';
import { LOAD_FIRST, uploadedData } from '../upload.js';
import { nqTriviaNow } from '../nq-trivia.js';
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
  let files = null;
  if (s.dataset === 'nq-trivia') {
    const nq = nqTriviaNow(app);
    if (!nq.files) return { message: nq.message, progress: nq.progress };
    files = nq.files;
  }
  const name = up ? up.upload.jsonl : s.dataset;
  const experiment = {
    id: 'online', title: `Online: ${s.policies.length} policies on ${name} (page settings)`, dataset: up ? up.upload : s.dataset,
    measure: { kind: 'online', policies: s.policies }, params: s.params, seeds: s.seeds, first_seed: s.params.seed,
  };
  const request = { type: 'run', experiment, dataset: up ? up.dataset : { kind: s.dataset, ...(files || {}) } };
  return { key: JSON.stringify({ experiment, files: files?.id }), request };
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
    charts: (report) => onlineCharts(report),
    stem: () => `online-${uploadedData(app)?.dataset.name || app.state.dataset}-${app.state.seeds}seeds`,
  });
  return {
    show() { for (const cb of box.querySelectorAll('input')) cb.checked = app.state.policies.includes(/** @type {PolicyId} */ (cb.value)); },
    activate() { panel.activate(); },
    deactivate() { panel.deactivate(); },
  };
}
