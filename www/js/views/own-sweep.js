// @ts-check
// The Sweep view's "Sweep your policy's parameters": a parameter your policy's module declares
// (own-params.js), over values the reader lists, each value × each seed played by the engine in
// your policy's worker (own-policy.js `ownSweep`) on the streams of the regret view's settings,
// its final metrics aggregated over seeds by the engine (OwnPolicyStats); beside it a built-in
// reference at those settings on the same seeds (an online experiment on the worker pool,
// jobs.js), drawn flat across the values. The chart is charts.js's (mean ± 95% interval per
// point), its data kept on the figure as `chartData`; progress, cancel, CSV and JSON export. The
// form's settings are the link's fragment (`own_param`, `own_values`, `own_ref`, `own_metric`).
import { intervalWords, policies } from '../../pkg/csc.js';
import { drawChart } from '../charts.js';
import { captionText } from '../chart-scales.js';
import { runJob, getJob, onJob } from '../jobs.js';
import { downloadText } from '../export.js';
import { OWN_KEY, ciOf, final, labelOf, series, styleFields } from '../report.js';
import { sweepValues } from '../own-params.js';
import { onlineRequest } from './regret.js';
import { LOAD_FIRST, uploadedData } from '../upload.js';
import { nqTriviaFiles } from '../nq-trivia.js';
import { own, ownDeclared, ownSweep, ownSettingsKey } from './own-policy.js';
/** @typedef {import('../state.js').App} App */
/** @typedef {import('../charts.js').ChartSpec} ChartSpec */

const $ = (id) => /** @type {any} */ (document.getElementById(id));
/** The final metrics the chart offers. @type {[import('../report.js').MetricName, string][]} */
const METRICS = [['final_avg_regret', 'average regret R(T)/T'], ['final_avg_realised_cost', 'realised cost per round'], ['final_hit_rate', 'hit rate'],
  ['final_switches', 'switches'], ['final_error_rate', 'error rate'], ['final_hit_precision', 'hit precision']];

/** @param {App} app */
export function createOwnSweep(app) {
  const box = $('own-sweep'), paramSel = $('own-sweep-param'), valuesIn = $('own-sweep-values'), refSel = $('own-sweep-ref'), metricSel = $('own-sweep-metric');
  const runBtn = $('own-sweep-run'), cancelBtn = $('own-sweep-cancel'), progress = $('own-sweep-progress'), status = $('own-sweep-status');
  const figure = $('own-sweep-chart'), what = $('own-sweep-what'), csvBtn = $('own-sweep-csv'), jsonBtn = $('own-sweep-json');
  for (const p of policies()) refSel.append(new Option(p.name, p.id));
  for (const [id, name] of METRICS) metricSel.append(new Option(name, id));
  /** @type {Record<string, import('../own-params.js').Declared>} */
  let decl = {};
  let declFor = null; // the code `decl` was read from
  /** The last result: its settings and statistics (yours and the reference's). */
  let result = null;
  let running = null; // { cancel, gen }
  let gen = 0;

  const say = (text, bad = false) => { status.textContent = text; status.classList.toggle('bad', bad); };
  /** The form into the link's fragment. */
  const save = () => {
    Object.assign(own.sweep, { own_param: paramSel.value, own_values: valuesIn.value.trim(), own_ref: refSel.value, own_metric: metricSel.value });
    app.set(() => {});
  };

  /** Reads your module's declaration (once per code) and fills the form from the link's fragment. */
  async function load() {
    if (!own.code || declFor === own.code) return;
    const code = own.code;
    declFor = code;
    decl = {};
    paramSel.replaceChildren();
    try {
      decl = await ownDeclared();
    } catch (e) {
      if (declFor === code) say(e.message, true);
      return;
    }
    if (declFor !== code) return;
    const names = Object.keys(decl);
    for (const n of names) paramSel.append(new Option(n, n));
    const s = own.sweep;
    // A link's parameter that is not declared stays named in the list, so that Run says why.
    if (s.own_param && !names.includes(s.own_param)) paramSel.append(new Option(`${s.own_param} (not declared)`, s.own_param));
    paramSel.value = s.own_param || names[0] || '';
    valuesIn.value = s.own_values || defaultValues(paramSel.value);
    // A link's reference or metric that is not one: said, and the default used.
    const refOk = !s.own_ref || [...refSel.options].some((o) => o.value === s.own_ref);
    const metricOk = !s.own_metric || METRICS.some(([m]) => m === s.own_metric);
    // The default reference: the first policy the page plays (its policies setting).
    refSel.value = s.own_ref && refOk ? s.own_ref : (app.state.policies[0] ?? refSel.options[0].value);
    metricSel.value = s.own_metric && metricOk ? s.own_metric : 'final_avg_regret';
    showWhat();
    const cut = (v) => JSON.stringify(String(v).slice(0, 40));
    const wrong = [...(refOk ? [] : [`the link's reference ${cut(s.own_ref)} is not a built-in policy (${[...refSel.options].map((o) => o.value).join(', ')}), so ${labelOf(refSel.value)} is used`]),
      ...(metricOk ? [] : [`the link's metric ${cut(s.own_metric)} is not one of ${METRICS.map(([m]) => m).join(', ')}, so ${metricSel.value} is used`])];
    if (!names.length) say('Your policy declares no parameters: export `params` from its module to sweep one (docs/JS-API.md).', true);
    else if (wrong.length) say(`Not run yet: ${wrong.join('; ')}.`, true);
    else say('Not run yet.');
  }

  /** A parameter's first values: its default halved, as is and doubled, within its range (else its range's ends). */
  function defaultValues(name) {
    const d = decl[name];
    if (!d) return '';
    const inRange = (v) => (d.min === undefined || v >= d.min) && (d.max === undefined || v <= d.max);
    if (d.default !== undefined && d.default !== 0) return [d.default / 2, d.default, d.default * 2].filter(inRange).join(', ');
    if (d.min !== undefined && d.max !== undefined) return [d.min, (d.min + d.max) / 2, d.max].join(', ');
    return String(d.default ?? '');
  }
  function showWhat() {
    const d = decl[paramSel.value];
    what.textContent = d ? `${d.what || paramSel.value}${d.default !== undefined ? `; default ${d.default}` : ''}; range [${d.min ?? '−∞'}, ${d.max ?? '∞'}]` : 'What your module declares';
  }

  /** The reference's online run at the page's settings: its request (or a message). */
  function referenceRequest() {
    const r = onlineRequest(app);
    if (r.message) return r;
    const experiment = { ...r.request.experiment, measure: { kind: 'online', policies: [refSel.value] }, title: `Reference: ${labelOf(refSel.value)} at the page's settings` };
    return { experiment, key: JSON.stringify({ experiment, ref: r.key }), request: { ...r.request, experiment } };
  }
  /** The reference's report, run (or reused) on the worker pool. */
  function reference() {
    const r = referenceRequest();
    if (r.message) return Promise.reject(new Error(r.message));
    const have = getJob(r.key);
    if (have && have.status === 'done') return Promise.resolve(have.report);
    return new Promise((resolve, reject) => {
      onJob((job) => {
        if (job.key !== r.key) return;
        if (job.status === 'done') resolve(job.report);
        else if (job.status === 'error') reject(new Error(`the reference: ${job.error}`));
        else if (job.status === 'cancelled') reject(new Error('the reference\'s run was cancelled'));
      });
      runJob(r.key, r.request);
    });
  }

  async function run() {
    const g = ++gen;
    result = null;
    draw();
    csvBtn.disabled = jsonBtn.disabled = true;
    let values;
    try {
      values = sweepValues(decl, paramSel.value, valuesIn.value);
    } catch (e) { say(e.message, true); return; }
    save();
    const s = app.state, up = uploadedData(app);
    try {
      if (s.dataset === 'upload' && !up) throw new Error(LOAD_FIRST);
      const nq = s.dataset === 'nq-trivia' ? await nqTriviaFiles(app) : null;
      const r = onlineRequest(app);
      if (r.message) throw new Error(r.message);
      const init = { dataset: s.dataset, upload: up && up.dataset, arrival: up && up.upload.arrival, params: s.params, ...(nq ? { nq } : {}) };
      const seeds = Array.from({ length: s.seeds }, (_, i) => s.params.seed + i);
      const param = paramSel.value, total = values.length * seeds.length;
      runBtn.disabled = true; cancelBtn.disabled = false; progress.value = 0;
      say(`Playing your policy at ${param} = ${values.join(', ')} on ${seeds.length} seeds, and the reference…`);
      const sweep = ownSweep(init, seeds, param, values, (p) => {
        if (g !== gen) return;
        const i = values.indexOf(p.value) * seeds.length + seeds.indexOf(p.seed);
        progress.value = (i + p.round / s.params.horizon) / total;
        if (p.round % 500 === 0) say(`${param} = ${p.value}, seed ${p.seed}: round ${p.round}…`);
      });
      running = { cancel: sweep.cancel, gen: g };
      const [mine, ref] = await Promise.all([sweep.done, reference()]);
      if (g !== gen) return;
      if (mine.stopped) throw new Error(mine.stopped);
      result = { param, values, seeds, dataset: up ? up.upload.jsonl : s.dataset, reference: refSel.value, settings: JSON.parse(ownSettingsKey(r.request.experiment)), stats: mine.stats, referenceStats: ref.stats.filter((st) => st.metric.startsWith('final_')) };
      progress.value = 1;
      say(`Done: ${param} = ${values.join(', ')} × ${seeds.length} seeds (seeds ${seeds[0]}…${seeds.at(-1)}), beside ${labelOf(result.reference)} on the same seeds.`);
      csvBtn.disabled = jsonBtn.disabled = false;
      draw();
    } catch (e) {
      if (g !== gen) return;
      say(e.message, true);
    } finally {
      if (g === gen) { running = null; runBtn.disabled = false; cancelBtn.disabled = true; }
    }
  }

  /** The chart of the result (or none): your policy over the values, the reference flat beside it. */
  function draw() {
    figure.hidden = !result;
    if (!result) return;
    const metric = metricSel.value, name = METRICS.find(([m]) => m === metric)?.[1] ?? metric;
    const mine = series(result.stats, metric).filter((x) => x.key === OWN_KEY);
    const r = final(result.referenceStats, result.reference, metric);
    const ci = ciOf(r);
    const flat = r && r.mean != null ? [{ key: result.reference, label: `${labelOf(result.reference)} (page settings)`, ...styleFields(result.reference),
      points: result.values.map((x) => ({ x, y: r.mean, lo: r.mean - ci, hi: r.mean + ci, n: r.n })) }] : [];
    /** @type {ChartSpec} */
    const spec = { title: `Your policy's ${name} vs its ${result.param}`, xLabel: result.param, yLabel: name, series: [...mine, ...flat],
      empty: mine.length ? undefined : `— (no ${name} for this data)` };
    drawChart(figure, spec, { caption: captionText(spec, { description: `your policy at ${result.param} = ${result.values.join(', ')} and ${labelOf(result.reference)} at the page's settings (${result.dataset}, T = ${result.settings.params.horizon}, k = ${result.settings.params.k}), on the same streams`, seeds: result.seeds.length, firstSeed: result.seeds[0], interval: intervalWords() }) });
  }

  function csv() {
    const lines = ['series,metric,x,n,mean,std,ci95'];
    const row = (name, st, x) => lines.push([JSON.stringify(name), st.metric, x, st.n, st.mean ?? '', st.std ?? '', st.ci95 ?? ''].join(','));
    for (const st of result.stats) if (st.metric.startsWith('final_')) row(labelOf(OWN_KEY), st, st.x);
    for (const st of result.referenceStats) for (const x of result.values) row(`${labelOf(result.reference)} (page settings)`, st, x);
    return `${lines.join('\n')}\n`;
  }
  const stem = () => `csc-own-sweep-${result.param}-${result.seeds.length}seeds`;
  csvBtn.addEventListener('click', () => result && downloadText(`${stem()}.csv`, csv(), 'text/csv'));
  jsonBtn.addEventListener('click', () => result && downloadText(`${stem()}.json`, JSON.stringify({ ...result, code: own.code }, null, 1), 'application/json'));
  runBtn.addEventListener('click', run);
  cancelBtn.addEventListener('click', () => {
    if (!running) return;
    const r = running;
    gen += 1; // its answer is dropped
    r.cancel();
    running = null;
    runBtn.disabled = false; cancelBtn.disabled = true;
    say('Cancelled.');
  });
  paramSel.addEventListener('change', () => { valuesIn.value = defaultValues(paramSel.value); showWhat(); save(); });
  valuesIn.addEventListener('change', save);
  refSel.addEventListener('change', save);
  metricSel.addEventListener('change', () => { save(); draw(); });

  return {
    show() {
      box.hidden = !own.code;
      // Its declaration is read (in a worker of its own) when the Sweep view is shown.
      if (own.code && declFor !== own.code && app.state.view === 'sweep') load();
    },
  };
}
