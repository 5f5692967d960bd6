// @ts-check
// The threats view: what breaks a semantic cache in production, on the page's dataset, with the
// engine's `tenants` and `attack` experiments at their quick settings (3 seeds, T = n_eval =
// 1,000; csc::experiment::definition::threats) and the reader's settings: the number of tenants
// N and their overlap ω, the isolation settings drawn, the policies, the attack probabilities p
// and the confusable distance d, all in the link (csc::bindings::url_state's threat keys; N, ω
// and d are the key table's controls, the lists this view's own fields). Each experiment is a
// JobPanel of its own (Run, progress, Cancel, the exports, the command that reproduces it); the
// charts and tables draw the engine's reading of the report (`threatFindings`: intervals clipped
// to their range, the price of isolation as paired differences with the engine's words, vCache's
// δ at each p), and while a run is incomplete nothing is decided. On plane, without gold answers,
// the tenants run has no error rate and the attack does not run (the engine says why).
import { attackDefinition, policies, tenantsDefinition, threatFindings } from '../../pkg/csc.js';
import { JobPanel } from './job-panel.js';
import { LOAD_FIRST, uploadedData } from '../upload.js';
import { experimentJob } from '../jobs.js';
import { chartsOf, fmtInterval as fmt } from '../report.js';
import { ISOLATIONS, attackCharts, fillAttackTable, fillTenantsTable, tenantsCharts } from '../threat-charts.js';
/** @typedef {import('../state.js').App} App */

/** The page's dataset as the definitions take it (`{ message }` when it cannot run yet). */
function datasetOf(app) {
  const up = uploadedData(app);
  if (app.state.dataset === 'upload' && !up) return { message: LOAD_FIRST };
  return { up, data: up ? /** @type {import('../../pkg/csc.js').DatasetSpec} */ (up.upload) : /** @type {'synthetic' | 'nq-trivia' | 'plane'} */ (app.state.dataset) };
}


/** The tenants run of the view's settings, or `{ message }` (the engine's, for a bad setting).
 * @param {App} app */
export function tenantsRequest(app) {
  const d = datasetOf(app);
  if ('message' in d) return d;
  const s = app.state;
  try {
    return experimentJob(app, d.up, tenantsDefinition(d.data, s.tenants, s.overlap, s.threat_policies));
  } catch (e) {
    return { message: e.message };
  }
}

/** The attack run of the view's settings, or `{ message }`: the engine's, for a bad setting or
 * data without gold answers.
 * @param {App} app */
export function attackRequest(app) {
  const d = datasetOf(app);
  if ('message' in d) return d;
  if (d.up && app.upload.noGroundTruth) return { message: `The attack sends queries whose gold answer differs from a cached one's, and ${app.upload.noGroundTruth}; load data with "answers" or "label" on each record.` };
  const s = app.state;
  try {
    return experimentJob(app, d.up, attackDefinition(d.data, s.threat_policies, s.attack_p, s.distance));
  } catch (e) {
    return { message: e.message };
  }
}

/** A focusable, scrolling region holding `table`. */
function scroller(table, label) {
  const box = Object.assign(document.createElement('div'), { className: 'table-scroll', tabIndex: 0 });
  box.setAttribute('role', 'region');
  box.setAttribute('aria-label', label);
  box.append(table);
  return box;
}

/** The engine's findings of a report, or null (another report, none yet). */
const findingsOf = (report) => { try { return report ? threatFindings(report) : null; } catch { return null; } };

/** The sentence for a report still missing units: nothing is decided. */
const incomplete = (f) => (f.units < f.total ? `Run incomplete: ${f.units} of ${f.total} units are in, so no verdict is decided.` : '');

/** @param {App} app */
export function createThreatsView(app) {
  const view = /** @type {HTMLElement} */ (document.getElementById('view-threats'));
  // The view's own fields sit in its form beside the key table's (N, ω, d: js/controls.js).
  const grid = /** @type {HTMLElement} */ (view.querySelector('.threats-form'));
  // The lists of the link as the view's own fields: isolation settings drawn, policies, p.
  const fieldset = (legend, cls) => {
    const f = Object.assign(document.createElement('fieldset'), { className: `choices ${cls}` });
    f.append(Object.assign(document.createElement('legend'), { textContent: legend }));
    return f;
  };
  const isoBox = fieldset('Isolation settings drawn (every run plays all three)', 'threats-isolations');
  const isoInputs = ISOLATIONS.map(([id, text]) => {
    const input = Object.assign(document.createElement('input'), { type: 'checkbox', value: id, name: 'isolation' });
    const label = Object.assign(document.createElement('label'), { className: 'check' });
    label.append(input, ` ${text}`);
    isoBox.append(label);
    return input;
  });
  const polBox = fieldset('Policies', 'threats-policies');
  const polInputs = policies().filter((p) => p.family !== 'reference').map((p) => {
    const input = Object.assign(document.createElement('input'), { type: 'checkbox', value: p.id, name: 'threat-policy' });
    const label = Object.assign(document.createElement('label'), { className: 'check' });
    label.append(input, ` ${p.name}`);
    polBox.append(label);
    return input;
  });
  const pLabel = document.createElement('label');
  const pInput = Object.assign(document.createElement('input'), { id: 'threats-p', type: 'text', spellcheck: false, size: 16 });
  pLabel.append(Object.assign(document.createElement('span'), { className: 'name', textContent: 'Attack probabilities p' }), ' ', pInput,
    Object.assign(document.createElement('small'), { textContent: 'Numbers in [0, 1] separated by commas: a round is attacked with probability p' }));
  const error = Object.assign(document.createElement('p'), { className: 'msg error threats-error', hidden: true });
  error.setAttribute('role', 'alert');
  grid.append(pLabel, isoBox, polBox);
  grid.after(error);

  const say = (msg) => { error.textContent = msg; error.hidden = !msg; };
  /** Writes a list into the link through the engine's codec; its message when refused. */
  const save = (fn) => { say(''); if (!app.set(fn)) say(document.getElementById('banner').textContent); };
  for (const i of isoInputs) i.addEventListener('change', () => save((s) => { s.isolations = isoInputs.filter((x) => x.checked).map((x) => /** @type {any} */ (x.value)); }));
  for (const i of polInputs) i.addEventListener('change', () => save((s) => { s.threat_policies = polInputs.filter((x) => x.checked).map((x) => /** @type {any} */ (x.value)); }));
  pInput.addEventListener('change', () => {
    const parts = pInput.value.split(',').map((t) => t.trim());
    const bad = parts.find((t) => t === '' || !Number.isFinite(Number(t)));
    if (bad !== undefined) { say(`Attack probabilities: \`${bad}\` is not a number; give numbers in [0, 1] separated by commas.`); return; }
    save((s) => { s.attack_p = parts.map(Number); });
  });

  // The tenants panel: its figures, the table and the engine's method.
  const troot = /** @type {HTMLElement & { findings?: any }} */ (view.querySelector('[data-job="threats-tenants"]'));
  const ttable = Object.assign(document.createElement('table'), { className: 'numbers threats-tenants-table' });
  const tsay = Object.assign(document.createElement('p'), { className: 'threats-undecided' });
  const tmethod = Object.assign(document.createElement('p'), { className: 'threats-method muted' });
  const tenants = new JobPanel(troot, {
    request: () => tenantsRequest(app),
    charts: (report) => { const f = findingsOf(report); return f ? tenantsCharts(f, app.state.isolations) : []; },
    // A result file opened here (the CLI's tenants report) is drawn as a run of the view is.
    opened: (report) => { const f = findingsOf(report); return f?.kind === 'tenants' ? tenantsCharts(f, app.state.isolations) : chartsOf(report); },
    stem: () => `tenants-${uploadedData(app)?.dataset.name || app.state.dataset}`,
    onReport: (job) => {
      const f = findingsOf(job?.report);
      troot.findings = f; // the engine's reading as it came (the e2e test reads it)
      tsay.textContent = f ? incomplete(f) : '';
      tsay.hidden = !tsay.textContent;
      tmethod.textContent = f ? f.method : '';
      ttable.parentElement.hidden = !f;
      if (f) fillTenantsTable(ttable, f, app.state.isolations, job.report);
    },
  });
  troot.querySelector('.charts').before(tsay);
  troot.querySelector('.charts').after(scroller(ttable, 'Each policy under each isolation setting'), tmethod);

  // The attack panel: its figures, vCache's δ and the confusable pairs in the engine's words.
  const aroot = /** @type {HTMLElement & { findings?: any }} */ (view.querySelector('[data-job="threats-attack"]'));
  const atable = Object.assign(document.createElement('table'), { className: 'numbers threats-attack-table' });
  const asay = Object.assign(document.createElement('ul'), { className: 'threats-delta' });
  const attack = new JobPanel(aroot, {
    request: () => attackRequest(app),
    charts: (report) => { const f = findingsOf(report); return f ? attackCharts(f) : []; },
    opened: (report) => { const f = findingsOf(report); return f?.kind === 'attack' ? attackCharts(f) : chartsOf(report); },
    stem: () => `attack-${uploadedData(app)?.dataset.name || app.state.dataset}`,
    onReport: (job) => {
      const f = findingsOf(job?.report);
      aroot.findings = f;
      const lines = f ? [incomplete(f), ...f.delta.map((d) => `vCache's δ = ${d.delta} at p = ${d.p}: error rate ${d.error_rate.mean == null ? '—' : fmt(d.error_rate)} — ${d.verdict}.`),
        f.confusable_pairs != null ? `Confusable pairs (normalised distance below d = ${f.distance}, gold answers differ): ${f.confusable_pairs}.` : ''].filter(Boolean) : [];
      asay.replaceChildren(...lines.map((t) => Object.assign(document.createElement('li'), { textContent: t })));
      asay.hidden = !lines.length;
      atable.parentElement.hidden = !f;
      if (f) fillAttackTable(atable, f);
    },
  });
  aroot.querySelector('.charts').before(asay);
  aroot.querySelector('.charts').after(scroller(atable, 'Each policy attacked at each p'));

  /** The fields from the state (a link, Back, a refused change). */
  function show() {
    const s = app.state;
    for (const i of isoInputs) i.checked = s.isolations.includes(/** @type {any} */ (i.value));
    for (const i of polInputs) i.checked = s.threat_policies.includes(/** @type {any} */ (i.value));
    if (document.activeElement !== pInput) pInput.value = s.attack_p.join(', ');
  }
  show();
  return {
    show,
    // Each run starts on Run (each is minutes of work on nq-trivia): opening the view runs nothing.
    activate() { tenants.activate(false); attack.activate(false); },
    deactivate() { tenants.deactivate(); attack.deactivate(); },
  };
}
