// @ts-check
// The paper view: one preset per figure (SPEC §10), from the engine's list (paperPresets()). Each
// sets every parameter, runs (quick settings by default, the paper's with "full"), draws the
// figure and shows the engine's headline table: each claim of the paper, the measured value with
// its interval and n, and a verdict from a stated test (csc::experiment::headline), with the
// reason from docs/REPRODUCTION.md ("Where we differ", shipped in dist/docs/) where it differs. fig-a and fig-b run with the
// theoretical widths (SPEC) or, switched in the URL (`tuned=1`), the widths REPRODUCTION.md tuned
// on held-out seeds (`fig-a-tuned`, `fig-b-tuned` of csc::experiment::builtin). fig-e/f run on
// the nq-trivia universe bundled by scripts/dist.sh (data/), or on the files the reader loaded.
import { JobPanel } from './job-panel.js';
import { setWorkers, workerCount } from '../jobs.js';
import { chartsOf, offlineCharts, onlineCharts, paperValuesOf, series } from '../report.js';
import { presetsOf, quickRequest } from '../presets.js';
import { uploadedData } from '../upload.js';
import { intervalWords } from '../../pkg/csc.js';
import { nqTriviaNow } from '../nq-trivia.js';
/** @typedef {import('../state.js').App} App */

/** The reproduction report shipped with the page, at its "Where we differ" section. */
const DIFFER = new URL('../../docs/REPRODUCTION.html#where-we-differ-and-why', import.meta.url).href;

/** The charts of each kind of figure (the engine's figure record names its kind, `chart`); a kind
 *  without an entry here draws its report's charts (chartsOf). */
const CHARTS = {
  offline: offlineCharts,
  online: (r) => onlineCharts(r, { efficiency: true }),
  'krr-error': (r) => [{ title: 'KRR cost-estimate error at the centers (CLCB-SC-LS-Cont)', xLabel: 'round t', yLabel: 'error vs true c',
    // Three metrics of one policy: not algorithm series, so styled by position (charts.js).
    series: ['est_rmse', 'est_mae', 'est_max'].map((m, i) => ({ key: m, label: ['RMSE', 'MAE', 'max'][i], points: series(r.stats, m)[0]?.points })).filter((s) => s.points) }],
  geometry: geomCharts,
};

function geomCharts(r) {
  const st = r.stats;
  const quant = st.filter((s) => s.metric !== 'token_cdf');
  const names = [...new Set(quant.map((s) => `${s.algorithm}|${s.metric}`))];
  const dist = names.map((n) => {
    const [a, m] = n.split('|');
    return { key: n, label: `${a}: ${m.replace(/_/g, ' ')}`, points: quant.filter((s) => s.algorithm === a && s.metric === m).map((s) => ({ x: s.mean, y: s.x })) };
  });
  const proj = r.units[0]?.detail?.stream_projection || [];
  // The medians the paper prints (x: the distance, at the quantile level the claim reads).
  const refs = [...new Set(quant.map((s) => s.metric))].flatMap((m) => paperValuesOf(r, m))
    .map((v) => ({ x: v.value, y: v.x ?? 0.5, label: `paper: ${v.series} ${v.metric.replace(/_/g, ' ')} ${v.printed}`, kind: 'paper' }));
  return [
    { title: 'Distance distributions (quantiles)', xLabel: 'normalised distance d', yLabel: 'quantile level', refs, series: dist },
    { title: 'Token-length CDF per source', xLabel: 'GPT-2 tokens', yLabel: 'fraction ≤', series: series(st, 'token_cdf') },
    { title: 'First 1,000 arrivals, 2-D PCA projection', kind: 'scatter', radius: 2, xLabel: 'PC 1', yLabel: 'PC 2',
      series: [{ label: 'arrival', points: proj.map(([x, y]) => ({ x, y })) }] },
  ];
}

/** @param {App} app */
export function createPaperView(app) {
  const headline = document.getElementById('headline');
  const menu = document.getElementById('preset');
  for (const p of presetsOf().values()) menu.append(Object.assign(document.createElement('option'), { value: p.id, textContent: p.label }));
  const preset = () => presetsOf().get(app.state.preset);
  const isTuned = () => app.state.tuned && !!preset().tuned;
  const presetRequest = () => {
    const s = app.state, p = preset();
    const quick = s.full ? {} : quickRequest(p.quick);
    const experiment = isTuned() ? preset().tuned : s.preset;
    const up = uploadedData(app);
    if (up) {
      const request = { type: 'run', experiment, ...quick, dataset: up.dataset, upload: up.upload };
      return { key: `${experiment}|${s.full}|${JSON.stringify(up.upload)}`, request };
    }
    let files = null;
    if (p.dataset === 'nq-trivia') {
      const nq = nqTriviaNow(app);
      if (!nq.files) return { message: nq.message, progress: nq.progress };
      files = nq.files;
    }
    const request = { type: 'run', experiment, dataset: { kind: p.dataset, ...(files || {}) }, ...quick };
    return { key: `${experiment}|${s.full}|${files ? files.id : ''}`, request };
  };
  const panel = new JobPanel(document.querySelector('[data-job=paper]'), {
    request: presetRequest,
    charts: (report) => (CHARTS[preset().chart] || chartsOf)(report),
    stem: () => `${app.state.preset}-${app.state.full ? 'full' : 'quick'}`,
    onReport: (job) => showHeadline(job),
  });
  /**
   * The headline table: first the winning policy with its hit rate and realised cost (the
   * engine's `lead`), then each claim of the paper for this figure, what this run measured, and
   * the engine's verdict in its words (csc::experiment::headline: direction and magnitude, both
   * needed for "reproduced"; "identical on every seed" with its reason; a zero-hit win flagged).
   * On uploaded data the paper's numbers do not apply and no verdict is drawn.
   */
  function showHeadline(job) {
    const h = job && job.report ? job.report.headline : null;
    headline.hidden = false;
    const up = uploadedData(app);
    headline.dataset.upload = up ? 'true' : 'false';
    const el = (tag, props = {}) => Object.assign(document.createElement(tag), props);
    const table = el('table', { className: 'numbers headline' });
    const caption = el('caption');
    const quick = app.state.full ? '' : ' Quick settings: fewer seeds and rounds than the paper (tick “Full paper settings”).';
    caption.textContent = up
      ? `This run on your data (${up.upload.jsonl}); the paper's numbers are for ${preset().dataset} and do not apply.`
      : `The paper's claims for this figure and this run.${quick}`;
    table.append(caption);
    const head = table.createTHead().insertRow();
    for (const c of ['claim', 'paper', 'measured (n seeds)', 'verdict', up ? 'note' : 'test, and why it may differ']) head.append(el('th', { scope: 'col', textContent: c }));
    const body = table.createTBody();
    if (up) {
      // The engine draws no verdict on other data (csc::experiment::headline): nothing to compare.
      const tr = body.insertRow();
      tr.dataset.verdict = 'not-applicable';
      tr.append(el('td', { colSpan: 5, className: 'na', textContent: `not applicable: the paper's claims for this figure were measured on ${preset().dataset}, not on your data.` }));
    } else if (!h) {
      const tr = body.insertRow();
      tr.append(el('td', { colSpan: 5, textContent: job && job.status === 'running' ? 'Measuring…' : 'Run the preset to see its claims checked.' }));
    }
    for (const r of h && !up ? h.rows : []) {
      const tr = body.insertRow();
      tr.dataset.verdict = up ? 'not-applicable' : r.verdict;
      tr.append(el('th', { scope: 'row', textContent: r.what, title: `${r.metric}${r.x != null ? ` at x = ${r.x}` : ''} · ${r.source}` }));
      const paperCell = el('td', { className: up ? 'na' : '', textContent: up ? 'not applicable' : r.paper });
      paperCell.dataset.label = 'paper';
      tr.append(paperCell);
      const m = el('td', { className: 'measured' });
      m.dataset.label = 'measured';
      m.textContent = r.measured_text;
      m.dataset.mean = r.measured && r.measured.mean != null ? String(r.measured.mean) : '';
      m.dataset.lo = r.measured && r.measured.lo != null ? String(r.measured.lo) : '';
      m.dataset.hi = r.measured && r.measured.hi != null ? String(r.measured.hi) : '';
      m.append(el('small', { className: 'n', textContent: ` (n = ${r.n})` }));
      tr.append(m);
      const verdict = el('td', { className: `verdict ${up ? 'na' : r.verdict}`, textContent: up ? '—' : r.verdict_text });
      verdict.dataset.label = 'verdict';
      tr.append(verdict);
      const why = el('td', { className: 'why' });
      why.dataset.label = 'test';
      if (up) why.textContent = `The paper measured this on ${preset().dataset}, not on your data.`;
      else {
        why.append(el('span', { className: 'test', textContent: r.test }));
        if (r.why && r.verdict !== 'reproduced' && r.verdict !== 'measured') {
          why.append(el('br'), `${r.why} `, el('a', { href: DIFFER, target: '_blank', rel: 'noopener', textContent: 'Where we differ' }));
        }
      }
      tr.append(why);
    }
    const note = el('p', { className: 'hint interval-def' });
    note.textContent = `± = ${intervalWords()}. A verdict has two parts: the direction holds when its paired 95% interval over seeds excludes zero on the paper's side, and the paper's number matches when it lies in the measured interval (± half its last digit); “reproduced” needs both.`;
    const lead = h && h.lead && !up ? el('p', { className: 'lead', textContent: h.lead.text }) : null;
    if (lead) lead.dataset.neverHits = String(h.lead.never_hits);
    headline.replaceChildren(...(lead ? [lead] : []), table, note);
    if (job && job.report && job.report.description) {
      document.getElementById('preset-ran').textContent = `Ran: ${job.report.description}.`;
    }
  }
  function describe() {
    const s = app.state, p = preset();
    const widths = p.tuned ? (s.tuned ? ' Tuned widths (β_off, λ chosen on held-out seeds; docs/REPRODUCTION.md).' : ' Theoretical widths (the analysis’; SPEC).')
      : ' This figure has no tuned variant.';
    const up = uploadedData(app);
    const mine = up ? ` Runs on your data (${up.upload.jsonl}, ${up.upload.arrival.model} arrivals) in place of ${p.dataset}.` : '';
    document.getElementById('preset-settings').textContent = (s.full ? `Full paper settings: ${p.fullDescription}.` : `Quick settings: ${p.quickDescription}. Full: ${p.fullDescription}.`) + widths + mine;
    document.getElementById('preset-ran').textContent = '';
    tunedBox.checked = isTuned();
    tunedBox.disabled = !p.tuned;
    workersIn.placeholder = `auto (${workerCount()})`;
    setWorkers(s.workers);
  }
  // The two switches of this view, tuned widths and the number of experiment workers, are
  // controls of the engine's table (js/controls.js); here they follow the preset.
  const tunedBox = /** @type {HTMLInputElement} */ (document.getElementById('tuned')), workersIn = /** @type {HTMLInputElement} */ (document.getElementById('workers'));
  setWorkers(app.state.workers);
  app.on('change', () => setWorkers(app.state.workers));
  return {
    show() { /** @type {HTMLSelectElement} */ (document.getElementById('preset')).value = app.state.preset; describe(); },
    activate() { describe(); panel.activate(); },
    deactivate() { panel.deactivate(); },
  };
}
