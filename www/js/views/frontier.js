// @ts-check
// The frontier view: the engine's `frontier` experiment at its quick settings
// (csc::experiment::frontier_definition) on the page's dataset over the page's horizon T (the
// view's own T control, a link's `horizon`; n_eval = T), run on the worker pool: error rate
// (SPEC §14) against realised cost per round, one line per family (the threshold cache over τ,
// GPTCache's default, vCache over δ, CLCB-SC-LS-Cont over β, and single policies), with 95%
// intervals both ways. Every point carries its paired difference against a reference the reader
// picks (default: the engine's, GPTCache's preset) in realised cost and in error rate, with the
// engine's words ("cheaper / not distinguishable / dearer"; csc::experiment::frontier); while the
// run is incomplete nothing is decided and the engine's sentence above the chart says how many
// units are in; when nothing is distinguishable, its sentence says so, with its notes (why a
// family's regret is flat) and its method. Hover shows a point's configuration, metrics and
// differences; a click on it (or Enter on its row's Open button) opens that configuration in the
// regret view. On data without ground truth there is no error rate: the view shows "—" and the
// engine's reason, and runs nothing.
//
// Below it, "Pick a threshold": a target (hit precision ≥ p or error rate ≤ e)
// checked by the engine (tuneTarget), the engine's tune experiment (tuneDefinition: the threshold
// cache over τ, vCache over δ, CLCB-SC-LS-Cont over β, 4 seeds) run on the worker pool, and the
// engine's answer (tuneThreshold: τ chosen on half the seeds by a one-sided 95% Clopper–Pearson
// bound, reported on the other half, in the engine's sentences); its button opens τ in the
// regret view. `csc tune-threshold` gives the same answer.
import { Dataset, cliCommand, frontierComparison, frontierDefinition, tuneCommand, tuneDefinition, tuneTarget, tuneThreshold } from '../../pkg/csc.js';
import { JobPanel } from './job-panel.js';
import { fmtInterval, fmtPaired, frontierChart, frontierConfig, frontierFamilies, frontierMeta, noGroundTruth, pchrChart } from '../report.js';
import { LOAD_FIRST, uploadedData } from '../upload.js';
import { experimentJob } from '../jobs.js';
import { createOwnFrontier } from './own-frontier.js';
/** @typedef {import('../state.js').App} App */

let planeReason;
/** Why plane has no ground truth, in the engine's words (its dataset says so; SPEC §14). */
const planeWhy = () => (planeReason ??= (() => { const d = Dataset.plane(); const why = d.info().no_ground_truth; d.free(); return why; })());

/** "—" and the reason: what the view shows instead of a frontier on data without ground truth. */
const noFrontier = (why) => `Error rate: — (${why}). The frontier plots realised cost against the error rate, so it needs data with ground truth: nq-trivia, synthetic, or your file with "answers" or "label" on each record.`;

/** The frontier definition of the page's dataset and horizon (the engine's frontierDefinition:
 * its settings, the page's T with n_eval = T), or `{ message }` when it cannot run (no data, no
 * ground truth, or the engine's one message for a horizon it refuses).
 * @param {App} app */
export function frontierExperiment(app) {
  const s = app.state, up = uploadedData(app);
  if (s.dataset === 'upload' && !up) return { message: LOAD_FIRST };
  if (s.dataset === 'plane') return { message: noFrontier(planeWhy()) };
  if (up && app.upload.noGroundTruth) return { message: noFrontier(app.upload.noGroundTruth) };
  // The dataset is a built-in here (upload without data and plane returned above); the engine
  // checks the uploaded data's dataset object, arrival model included.
  const data = up ? /** @type {import('../../pkg/csc.js').DatasetSpec} */ (up.upload) : /** @type {'synthetic' | 'nq-trivia'} */ (s.dataset);
  try {
    return { up, experiment: frontierDefinition(data, s.params.horizon) };
  } catch (e) {
    return { message: e.message };
  }
}


/** The "Pick a threshold" run of the page's dataset (the engine's tuneDefinition), or `{ message }`
 * when it cannot run: the engine's one message for data without ground truth.
 * @param {App} app */
export function tuneRequest(app) {
  const s = app.state, up = uploadedData(app);
  if (s.dataset === 'upload' && !up) return { message: LOAD_FIRST };
  let experiment;
  try {
    const data = up ? /** @type {import('../../pkg/csc.js').DatasetSpec} */ (up.upload) : /** @type {'synthetic' | 'nq-trivia' | 'plane'} */ (s.dataset);
    experiment = tuneDefinition(data, up ? app.upload.noGroundTruth ?? null : null);
  } catch (e) {
    return { message: e.message };
  }
  return experimentJob(app, up, experiment);
}

/**
 * The regret view's state for frontier point `point` of `report`: its policy alone, the
 * parameters its first seed ran with (the family's settings and value included), the frontier's
 * seeds. Null when no unit of that point is in the report.
 */
export function configurationOf(report, point) {
  const unit = report.units.find((u) => u.unit.point === point && u.unit.seed === report.experiment.first_seed);
  const fam = frontierFamilies(report).find((f) => f.points.some((p) => p.point === point));
  if (!unit || !fam) return null;
  return { policies: [fam.family.policy], params: { ...unit.params, seed: report.experiment.first_seed }, seeds: report.experiment.seeds };
}

/** The table's columns: heading and, for a metric, its index in the engine's intervals. */
const COLUMNS = [['realised cost', 0], ['error rate', 1], ['hit rate', 2], ['avg regret', 3]];

/** @param {App} app */
export function createFrontierView(app) {
  const root = document.querySelector('[data-job=frontier]');
  const tableEl = Object.assign(document.createElement('table'), { className: 'numbers frontier-points' });
  let shown = null; // the report the table shows
  /** @type {import('../../pkg/csc.js').FrontierComparison | null} */
  let comparison = null; // the engine's comparison against the picked reference
  const open = (report, point) => {
    const c = configurationOf(report, point);
    if (c) app.set((s) => { Object.assign(s, c); s.view = 'regret'; });
  };
  // Under the view's T: what runs, in the engine's words (the definition's title: dataset, k, T,
  // n_eval, seeds), before and while it runs, so a link's horizon shows before any result.
  const runs = Object.assign(document.createElement('p'), { className: 'frontier-runs muted' });
  document.querySelector('[data-controls=frontier]')?.after(runs);
  const panel = new JobPanel(root, {
    request: () => {
      const f = frontierExperiment(app);
      runs.textContent = 'experiment' in f ? `Runs: ${f.experiment.title}.` : '';
      return 'experiment' in f ? experimentJob(app, f.up, f.experiment) : f;
    },
    charts: (report) => {
      const chart = frontierChart(report, (key, i) => {
        const p = chart.series.find((s) => s.key === key)?.points[i];
        if (p) open(report, p.point);
      }, comparison && shown === report ? comparison : report.frontier);
      // Your policy's points, once placed on this report's settings (own-frontier.js).
      chart.series = [...chart.series, ...ownFrontier.series(report)];
      // The second chart: P-CHR, when the report has one.
      const pchr = pchrChart(report);
      return pchr ? [chart, pchr] : [chart];
    },
    stem: () => `frontier-${uploadedData(app)?.dataset.name || app.state.dataset}`,
    onReport: (job) => table(job && job.report),
  });
  // Above the chart: the reference picker, the engine's verdict sentence, notes and method.
  const decides = Object.assign(document.createElement('div'), { className: 'frontier-decides' });
  const picker = document.createElement('label');
  const select = Object.assign(document.createElement('select'), { className: 'frontier-reference' });
  picker.append('Compare every point with ', select);
  const verdict = Object.assign(document.createElement('p'), { className: 'frontier-undecided' });
  const notes = Object.assign(document.createElement('ul'), { className: 'frontier-notes note' });
  const method = Object.assign(document.createElement('p'), { className: 'frontier-method muted' });
  decides.append(picker, verdict, notes, method);
  decides.hidden = true;
  root.querySelector('.charts').before(decides);
  select.addEventListener('change', () => {
    if (!shown) return;
    try {
      comparison = frontierComparison(shown, Number(select.value));
    } catch (e) {
      verdict.textContent = `Error: ${e.message}`;
      return;
    }
    fill(shown);
    ownFrontier.refresh();
    panel.drawCharts();
  });
  // The table scrolls sideways on a narrow screen (a focusable region, so the keyboard can too).
  const scroller = Object.assign(document.createElement('div'), { className: 'table-scroll', tabIndex: 0 });
  scroller.setAttribute('role', 'region');
  scroller.setAttribute('aria-label', 'Every point of the frontier');
  scroller.append(tableEl);
  root.querySelector('.charts').after(scroller);

  /** A new report: its own comparison (the engine's default reference) and the picker's options. */
  function table(report) {
    const fams = report ? frontierFamilies(report) : [];
    scroller.hidden = !fams.length;
    decides.hidden = !fams.length || !report.frontier;
    if (report === shown) return;
    shown = report;
    comparison = report?.frontier ?? null;
    select.replaceChildren();
    for (const fam of fams) for (const p of fam.points) select.append(new Option(frontierConfig(fam, p), String(p.point)));
    if (comparison) select.value = String(comparison.reference);
    fill(report);
    ownFrontier.refresh();
  }

  /** Every point of the frontier as a row: its configuration, the engine's clipped intervals, its
   *  paired differences against the reference with the engine's words, and a button that opens it
   *  in the regret view (the keyboard's way to what a click on the chart does). */
  function fill(report) {
    const fams = report ? frontierFamilies(report) : [];
    tableEl.replaceChildren();
    if (!fams.length) return;
    // The engine's one sentence: how many units are in while the run is incomplete (nothing is
    // decided then), else that no point is distinguishable, when none is.
    const sentence = comparison?.incomplete ?? comparison?.undecided ?? '';
    verdict.textContent = sentence;
    verdict.hidden = !sentence;
    notes.replaceChildren(...(comparison?.notes ?? []).map((n) => Object.assign(document.createElement('li'), { textContent: n })));
    notes.hidden = !notes.childElementCount;
    method.textContent = comparison?.method ?? '';
    const rows = new Map((comparison?.rows ?? []).map((r) => [r.point, r]));
    const why = noGroundTruth(report);
    tableEl.createCaption().textContent = `Every point: mean ± 95% half-width over seeds (mean [bounds] where the interval is clipped to the quantity's range), and its paired difference against ${comparison?.reference_config ?? 'the reference'}${why ? `; error rate — (${why})` : ''}`;
    const heads = ['configuration', ...COLUMNS.map(([h]) => h), 'cost − reference', 'error rate − reference', 'regret view'];
    const head = tableEl.createTHead().insertRow();
    for (const h of heads) head.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: h }));
    const body = tableEl.createTBody();
    for (const fam of fams) {
      for (const p of fam.points) {
        const tr = body.insertRow();
        const row = rows.get(p.point);
        tr.dataset.series = fam.key;
        tr.dataset.point = String(p.point);
        tr.title = frontierMeta(fam, p, row, comparison);
        const config = frontierConfig(fam, p);
        tr.append(Object.assign(document.createElement('th'), { scope: 'row', textContent: config }));
        const cell = (label, text, extra = {}) => Object.assign(tr.insertCell(), { textContent: text, ...extra }).setAttribute('data-label', label);
        for (const [h, i] of /** @type {[string, number][]} */ (COLUMNS)) cell(h, fmtInterval(row?.intervals[i]));
        for (const [h, key] of /** @type {[string, 'cost' | 'error'][]} */ ([[heads[5], 'cost'], [heads[6], 'error']])) {
          const d = row?.[key];
          cell(h, fmtPaired(d), { className: `paired ${d?.difference ?? ''}` });
        }
        const b = Object.assign(document.createElement('button'), { type: 'button', className: 'open-regret', textContent: 'Open' });
        b.setAttribute('aria-label', `Open ${config} in the regret view`);
        b.addEventListener('click', () => open(report, p.point));
        const td = tr.insertCell();
        td.setAttribute('data-label', 'regret view');
        td.append(b);
      }
    }
  }
  const tune = createTuneForm(app, root, open);
  const ownFrontier = createOwnFrontier(app, scroller, {
    experiment: () => frontierExperiment(app),
    shown: () => shown,
    reference: () => (comparison ? comparison.reference : null),
    referenceName: () => comparison?.reference_config ?? '',
    redraw: () => panel.drawCharts(),
  });
  return {
    show() { ownFrontier.show(); },
    activate() { panel.activate(); tune.activate(); },
    deactivate() { panel.deactivate(); tune.deactivate(); },
  };
}

/**
 * "Pick a threshold" below the frontier: the form, its run (a JobPanel of its own, run on submit,
 * never on its own) and the engine's answer, with a button opening τ in the regret view.
 * @param {App} app
 * @param {Element} after the frontier's panel
 * @param {(report: any, point: number) => void} open
 */
function createTuneForm(app, after, open) {
  const section = Object.assign(document.createElement('section'), { className: 'tune' });
  section.setAttribute('aria-labelledby', 'tune-title');
  const h = Object.assign(document.createElement('h2'), { id: 'tune-title', className: 'panel-title', textContent: 'Pick a threshold' });
  const intro = Object.assign(document.createElement('p'), { className: 'text' });
  intro.textContent = 'The threshold cache\'s τ with the largest hit ratio whose one-sided 95% Clopper–Pearson bound meets your target, chosen on half the seeds and reported on the other half (csc tune-threshold gives the same answer).';
  const form = Object.assign(document.createElement('form'), { className: 'tune-form controls panel row' });
  const kind = Object.assign(document.createElement('select'), { name: 'kind', className: 'tune-kind' });
  kind.append(new Option('hit precision ≥', 'precision'), new Option('error rate ≤', 'error_rate'));
  kind.setAttribute('aria-label', 'Target');
  const value = Object.assign(document.createElement('input'), { name: 'value', className: 'tune-value', type: 'text', inputMode: 'decimal', value: '0.9', size: 6 });
  value.setAttribute('aria-label', 'Target value');
  const go = Object.assign(document.createElement('button'), { type: 'submit', className: 'primary tune-go', textContent: 'Pick τ' });
  form.append(kind, value, go);
  const error = Object.assign(document.createElement('p'), { className: 'tune-error msg error', hidden: true });
  error.setAttribute('role', 'alert');
  const job = Object.assign(document.createElement('div'), { className: 'job' });
  job.dataset.job = 'tune';
  const answerEl = Object.assign(document.createElement('div'), { className: 'tune-answer', hidden: true });
  answerEl.setAttribute('aria-live', 'polite');
  const sentences = Object.assign(document.createElement('ul'), { className: 'tune-sentences' });
  const method = Object.assign(document.createElement('p'), { className: 'tune-method muted' });
  const openBtn = Object.assign(document.createElement('button'), { type: 'button', className: 'tune-open' });
  answerEl.append(sentences, openBtn, method);
  section.append(h, intro, form, error, answerEl, job);
  after.after(section);

  /** @type {{ kind: string, value: number } | null} */
  let target = null;
  let shown = null; // the report the answer is of
  const say = (msg) => { error.textContent = msg; error.hidden = !msg; };
  const panel = new JobPanel(job, {
    request: () => tuneRequest(app),
    charts: (report) => { const p = pchrChart(report); return p ? [p] : []; },
    stem: () => `tune-${uploadedData(app)?.dataset.name || app.state.dataset}`,
    onReport: (j) => answer(j && j.status === 'done' ? j.report : null),
    // Under the answer, the command that gives it (csc tune-threshold with the target), not only
    // the run's report (csc run).
    command: (spec, file) => (target ? tuneCommand(spec, /** @type {'precision' | 'error_rate'} */ (target.kind), target.value, file) : cliCommand(spec, file)),
  });
  /** The engine's answer for the report and the target, or nothing. */
  function answer(report) {
    if (!report || !target) { answerEl.hidden = true; shown = null; return; }
    let a;
    try {
      a = tuneThreshold(report, /** @type {'precision' | 'error_rate'} */ (target.kind), target.value);
    } catch (e) {
      say(e.message);
      answerEl.hidden = true;
      return;
    }
    shown = report;
    /** @type {any} */ (answerEl).answer = a; // the engine's answer as it came (the e2e test reads it)
    sentences.replaceChildren(...a.sentences.map((t) => Object.assign(document.createElement('li'), { textContent: t })));
    method.textContent = a.method;
    const choice = a.threshold ?? a.best;
    openBtn.hidden = !choice;
    if (choice) {
      openBtn.textContent = `Open τ = ${choice.value} in the regret view`;
      openBtn.onclick = () => open(shown, choice.point);
    }
    answerEl.hidden = false;
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = value.value.trim();
    const v = text === '' ? NaN : Number(text);
    try {
      tuneTarget(/** @type {'precision' | 'error_rate'} */ (kind.value), v);
    } catch (err) {
      target = null;
      say(err.message);
      answerEl.hidden = true;
      return;
    }
    say('');
    target = { kind: kind.value, value: v };
    const j = panel.job();
    if (j && j.status === 'done' && j.report) panel.render(); // the answer and its command for the new target
    else panel.run();
  });
  return { activate() { panel.activate(false); }, deactivate() { panel.deactivate(); } };
}
