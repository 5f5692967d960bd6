// @ts-check
// The sweep view: how a result moves with one or two parameters. The reader
// picks a base experiment (the regret view's online run, or one of the engine's built-in sweeps:
// the sensitivity sweeps and the nq-tune grid), one or two parameters with their values and a
// metric. The grid is the definition's `sweep` (csc::experiment::grid; its text is the CLI's
// `--grid`, parsed by the engine), so its units (cell × seed) run on the worker pool (jobs.js)
// with progress and cancel, and the command under the result reruns it with `csc run … --grid`.
// One parameter draws a line per algorithm with its interval per point; two, a heatmap per
// algorithm (report.js sweepCharts). Clicking a point opens that configuration in the regret
// (online) or offline view. The base, the grid (as `--grid` text) and the metric are the link's
// `sweep`, `grid` and `metric` (csc::bindings::url_state checks them), so a sweep can be shared
// and survives a reload.
import { JobPanel } from './job-panel.js';
import { onlineRequest } from './regret.js';
import { uploadedData } from '../upload.js';
import { nqTriviaNow } from '../nq-trivia.js';
import { sweepCharts, sweepMetrics, defaultSweepMetric, paramLabel } from '../report.js';
import { reproduction } from '../reproduce.js';
import { sweepPresets, parseGrid, defaultParams, sweepDefaults } from '../../pkg/csc.js';
import { createOwnSweep } from './own-sweep.js';
/** @typedef {import('../state.js').App} App */

const $ = (id) => document.getElementById(id);
const opt = (value, text) => Object.assign(document.createElement('option'), { value, textContent: text });

/** The metrics offered before a run, per measure (after it: the report's own).
 * @type {Record<string, import('../report.js').MetricName[]>} */
const METRICS = {
  online: ['final_avg_regret', 'final_avg_realised_cost', 'final_hit_rate', 'final_switches', 'final_error_rate'],
  offline: ['gap', 'loss', 'error_rate'],
};

/** The values field's text for a sweep axis. */
const listOf = (values) => values.join(', ');
/** The form's axes of an engine sweep (`parseGrid`, a preset's `sweep`). */
const axesOf = (sw) => ({ p1: sw.param, v1: listOf(sw.values), p2: sw.by ? sw.by.param : '', v2: sw.by ? listOf(sw.by.values) : '' });
/** The online run's grid before the reader picks one. */
const ONLINE_AXES = { p1: 'epsilon', v1: '0.2, 0.4, 0.6', p2: '', v2: '' };
/** The `--grid` text of the form's axes. */
const gridText = (f) => `${f.p1}=${f.v1.replace(/\s+/g, '')}${f.p2 ? `;${f.p2}=${f.v2.replace(/\s+/g, '')}` : ''}`;

/** @param {App} app */
export function createSweepView(app) {
  const presets = new Map(sweepPresets().map((s) => [s.id, s]));
  // Every numeric parameter the engine's `Params` has (Config::with_param sets any of them).
  const params = Object.entries(defaultParams()).filter(([, v]) => typeof v === 'number').map(([k]) => k).sort();
  const select = (id) => /** @type {HTMLSelectElement} */ ($(id)), input = (id) => /** @type {HTMLInputElement} */ ($(id));
  const base = select('sweep-base'), p1 = select('sweep-p1'), v1 = input('sweep-v1'), p2 = select('sweep-p2'), v2 = input('sweep-v2'), metricSel = select('sweep-metric');
  base.append(opt('online', 'Online: the regret view\'s policies and settings'));
  for (const s of presets.values()) base.append(opt(s.id, `${s.id}: ${s.title}`));
  for (const k of params) p1.append(opt(k, paramLabel(k)));
  p2.append(opt('', 'none (a line)'));
  for (const k of params) p2.append(opt(k, paramLabel(k)));
  /** A base's own grid: a built-in sweep's, or the online run's default. */
  const ownAxes = (id) => (presets.get(id)?.sweep ? axesOf(presets.get(id).sweep) : ONLINE_AXES);
  // The form as the link gives it (the engine has checked it; an empty grid is the base's own).
  const s0 = app.state;
  const form = { base: s0.sweep, metric: s0.metric, ...(s0.grid ? axesOf(parseGrid(s0.grid)) : ownAxes(s0.sweep)) };

  /** Writes the form into the link: the grid only when it differs from the base's own, and only
   *  once it parses (until then the panel says why it cannot run, and the link keeps the last one). */
  const save = () => {
    const text = gridText(form);
    try { parseGrid(text); } catch { return; }
    const grid = text === gridText(ownAxes(form.base)) ? '' : text;
    app.set((s) => { s.sweep = form.base; s.grid = grid; s.metric = form.metric; });
  };

  /** The base definition: a built-in sweep's, or the regret view's online run (or a message). */
  const baseOf = () => {
    if (form.base !== 'online') {
      const spec = structuredClone(presets.get(form.base));
      spec.seeds = app.state.seeds;
      let files = null;
      if (spec.dataset === 'nq-trivia') {
        const nq = nqTriviaNow(app);
        if (!nq.files) return { message: nq.message, progress: nq.progress };
        files = nq.files;
      }
      return { spec, dataset: { kind: spec.dataset, ...(files || {}) }, files: files?.id };
    }
    const r = onlineRequest(app);
    if (r.message) return r;
    const up = uploadedData(app);
    return { spec: { ...r.request.experiment, id: 'sweep' }, dataset: r.request.dataset, files: up ? up.upload : r.key };
  };

  /** The grid of the form, parsed by the engine (its message when it is not one). */
  const grid = () => parseGrid(gridText(form));

  // A point opens its configuration: online, the regret view with the page's parameters set to
  // the cell's (and its policy chosen); offline, the offline view's figure with the cell's
  // parameters on top of its quick settings (offline.js, `app.fromSweep`).
  const onPoint = (meta, report) => {
    const online = report.experiment.measure.kind === 'online';
    if (!online) app.fromSweep = meta.params;
    app.set((s) => {
      if (online) for (const [k, v] of Object.entries(meta.params)) if (k in s.params) s.params[k] = v;
      if (online && meta.algorithm && !s.policies.includes(meta.algorithm)) s.policies = [...s.policies, meta.algorithm];
      s.view = online ? 'regret' : 'offline';
    });
  };

  /** The sweep panel, which keeps the chart specs it drew as `charts` (tests click a point through them). */
  const root = /** @type {HTMLElement & { charts?: import('../charts.js').ChartSpec[] }} */ (document.querySelector('[data-job=sweep]'));
  const panel = new JobPanel(root, {
    request: () => {
      const b = baseOf();
      if (b.message) return b;
      let sweep;
      try { sweep = grid(); } catch (e) { return { message: `Values: ${e.message}` }; }
      const spec = { ...b.spec, sweep };
      const request = { type: 'run', experiment: spec, dataset: b.dataset };
      return { key: JSON.stringify({ spec, files: b.files }), request };
    },
    // The specs drawn are kept on the panel's element (`charts`), whatever draws them (tests click
    // a point through them).
    charts: (report) => (root.charts = sweepCharts(report, { metric: metricOf(report), onPoint: (meta) => onPoint(meta, report) })),
    stem: () => `sweep-${form.p1}${form.p2 ? `-${form.p2}` : ''}-${app.state.seeds}seeds`,
    onReport: (job) => showMetrics(job && job.report),
  });

  const metricOf = (report) => (form.metric && sweepMetrics(report).includes(form.metric) ? form.metric : defaultSweepMetric(report));
  function showMetrics(report) {
    const kind = report ? report.experiment.measure.kind : (form.base === 'online' ? 'online' : presets.get(form.base).measure.kind);
    const list = report ? sweepMetrics(report) : METRICS[kind];
    const want = report ? metricOf(report) : form.metric || METRICS[kind][0];
    metricSel.replaceChildren(...list.map((m) => opt(m, m.replace(/^final_/, '').replace(/_/g, ' '))));
    metricSel.value = list.includes(want) ? want : list[0];
  }

  // The exact command of the grid in the form, as the intro promises (the engine's cliCommand:
  // `csc run <id> --grid '…'` for a built-in sweep; the online run is a definition of the page's
  // own, saved from under its result); or why the form does not make a grid yet.
  const command = Object.assign(document.createElement('p'), { className: 'note sweep-command' });
  const commandCode = Object.assign(document.createElement('code'), { className: 'cli-command' });
  document.querySelector('#view-sweep .controls.panel').append(command);
  function showCommand() {
    const r = panel.opts.request();
    if (r.message) { command.replaceChildren(`The CLI command appears once the form makes a grid: ${r.message}`); return; }
    let rep;
    try { rep = reproduction(r.request.experiment); } catch (e) { command.replaceChildren(`No CLI command: ${e.message}`); return; }
    commandCode.textContent = rep.command;
    command.replaceChildren('This grid with the CLI: ', commandCode,
      rep.definition ? ` (${rep.file}, the definition, is saved from under the result once it has run)` : '');
  }

  /** The form's fields from `form`. */
  function showForm() {
    base.value = form.base;
    p1.value = form.p1; v1.value = form.v1; p2.value = form.p2; v2.value = form.v2;
    v2.disabled = !form.p2;
    showCommand();
    input('seeds-sweep').value = String(app.state.seeds);
    // The page's settings (dataset, parameters) are the online run's; a built-in sweep has its own.
    /** @type {HTMLElement} */ (document.querySelector('.slot[data-for="sweep"]')).hidden = form.base !== 'online';
  }

  base.addEventListener('change', () => {
    form.base = base.value;
    if (presets.has(form.base)) Object.assign(form, ownAxes(form.base));
    form.metric = '';
    showForm();
    showMetrics(null);
    if (panel.active) panel.activate(false);
    save();
  });
  // A changed field shows the run of the new grid if it ran, else "Not run yet" or why it cannot
  // run. A changed parameter starts from its own values (the engine's `sweepDefaults`: its SPEC
  // default halved, as is and doubled), never the previous parameter's.
  /** @type {[HTMLInputElement | HTMLSelectElement, string, string?][]} */
  const fields = [[p1, 'p1', 'v1'], [v1, 'v1'], [p2, 'p2', 'v2'], [v2, 'v2']];
  for (const [el, key, values] of fields) {
    el.addEventListener('change', () => {
      form[key] = el.value;
      if (values) form[values] = el.value ? listOf(sweepDefaults(el.value)) : '';
      showForm();
      if (panel.active) panel.activate(false);
      save();
    });
  }
  // The metric only redraws: the run has every metric.
  metricSel.addEventListener('change', () => { form.metric = metricSel.value; panel.render(); save(); });
  showForm();
  showMetrics(null);
  // Your policy's declared parameters, below the engine's sweep (own-sweep.js).
  const ownSweep = createOwnSweep(app);

  return {
    show() { showForm(); ownSweep.show(); },
    // The grid runs when Run is pressed (a grid can be large): no run on opening the view.
    activate() { panel.activate(false); },
    deactivate() { panel.deactivate(); },
  };
}
