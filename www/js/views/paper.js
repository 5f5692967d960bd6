// The paper view: one preset per figure (SPEC §10). Each sets every parameter, runs (quick
// settings by default, the paper's with "full"), draws the figure and puts the paper's headline
// numbers next to the ones just measured.
import { JobPanel } from './job-panel.js';
import { offlineCharts, onlineCharts, series, at, final } from '../report.js';
import { QUICK_OFFLINE } from './offline.js';

const QUICK_ONLINE = { seeds: 3, overrides: { n_eval: 2000, horizon: 1500 }, drop: ['clcb-frozen-cont'] };
const pct = (a, b) => (a && b && b.mean ? 100 * (1 - a.mean / b.mean) : NaN);
const below = (stats, metric, ours, them, x) => pct(
  x == null ? final(stats, ours, metric) : at(stats, ours, metric, x),
  x == null ? final(stats, them, metric) : at(stats, them, metric, x));

/** The lowest mean of `metric` at x among algorithms (except the oracle). */
function lowest(stats, metric, x) {
  const c = stats.filter((s) => s.metric === metric && s.algorithm !== 'Oracle' && s.mean != null && (x == null || s.x === x));
  const xs = x == null ? Math.max(...c.map((s) => s.x)) : x;
  return c.filter((s) => s.x === xs).sort((a, b) => a.mean - b.mean)[0]?.algorithm || '–';
}

/** An offline figure whose headline is CUCB-SC-Cont's gap relative to CUCB-SC at one x. */
const offlinePreset = (id, full, x, where, paper) => ({
  quick: { seeds: 3, ...QUICK_OFFLINE[id] }, full, charts: offlineCharts,
  headline: (st) => [
    [`CUCB-SC-Cont gap below CUCB-SC at ${where}`, paper, below(st, 'gap', 'CUCB-SC-Cont', 'CUCB-SC', x), '%'],
    [`lowest gap at ${where}`, 'CUCB-SC-Cont', lowest(st, 'gap', x)],
  ],
});

const PRESETS = {
  'fig-a': offlinePreset('fig-a', 'synthetic, k = 5, ε = 0.4, stream length 100 … 5,000, n_eval = 10,000, 20 seeds', 100, 'stream length 100', '73.32 %'),
  'fig-b': offlinePreset('fig-b', 'synthetic, k = 5, stream length 1,000, ε = 0.1 … 0.8, n_eval = 10,000, 20 seeds', 0.4, 'ε = 0.4', '52.95 %'),
  'fig-c': {
    quick: QUICK_ONLINE, full: 'synthetic, T = 5,000, n_eval = 10,000, six policies with CLCB-Frozen-Cont, 10 seeds',
    charts: (r) => onlineCharts(r, { efficiency: true }),
    headline: (st) => [
      ['CLCB-SC-LS-Cont final average regret', '0.0083', final(st, 'CLCB-SC-LS-Cont', 'final_avg_regret')?.mean],
      ['… below CLCB-SC-LS', '72.41 %', below(st, 'final_avg_regret', 'CLCB-SC-LS-Cont', 'CLCB-SC-LS'), '%'],
      ['lowest final average regret', 'CLCB-SC-LS-Cont', lowest(st, 'final_avg_regret')],
    ],
  },
  'fig-e': {
    dataset: 'nq-trivia', quick: { ...QUICK_ONLINE, seeds: 2, overrides: { n_eval: 1000, horizon: 1000 } },
    full: 'nq-trivia (2,500 + 2,500 questions), T = 5,000, n_eval = 10,000, 10 seeds',
    charts: (r) => onlineCharts(r, { efficiency: true }),
    headline: (st) => [
      ['CLCB-SC-LS-Cont final average regret', '0.0061', final(st, 'CLCB-SC-LS-Cont', 'final_avg_regret')?.mean],
      ['… below Greedy', '63.27 %', below(st, 'final_avg_regret', 'CLCB-SC-LS-Cont', 'Greedy'), '%'],
      ['… below CLCB-SC-LS', '43.14 %', below(st, 'final_avg_regret', 'CLCB-SC-LS-Cont', 'CLCB-SC-LS'), '%'],
    ],
  },
  'abl-k': { quick: { seeds: 3, ...QUICK_OFFLINE['abl-k'] }, full: 'synthetic, stream length 500, k = 3 … 20, 20 seeds', charts: offlineCharts },
  'krr-err': {
    quick: { seeds: 3, overrides: { n_eval: 1000, horizon: 1500 } }, full: 'synthetic, T = 5,000, 10 seeds',
    charts: (r) => [{ title: 'KRR cost-estimate error at the centers (CLCB-SC-LS-Cont)', xLabel: 'round t', yLabel: 'error vs true c',
      series: ['est_rmse', 'est_mae', 'est_max'].map((m, i) => ({ ...series(r.stats, m)[0], label: ['RMSE', 'MAE', 'max'][i] })).filter((s) => s.points) }],
  },
  geom: { quick: { seeds: 1 }, full: 'synthetic, 2,000 arrivals', charts: geomCharts },
};

function geomCharts(r) {
  const st = r.stats;
  const quant = st.filter((s) => s.metric !== 'token_cdf');
  const names = [...new Set(quant.map((s) => `${s.algorithm}|${s.metric}`))];
  const dist = names.map((n) => {
    const [a, m] = n.split('|');
    return { label: `${a}: ${m.replace(/_/g, ' ')}`, points: quant.filter((s) => s.algorithm === a && s.metric === m).map((s) => ({ x: s.mean, y: s.x })) };
  });
  const proj = r.units[0]?.detail?.stream_projection || [];
  return [
    { title: 'Distance distributions (quantiles)', xLabel: 'normalised distance d', yLabel: 'quantile level', series: dist },
    { title: 'Token-length CDF per source', xLabel: 'GPT-2 tokens', yLabel: 'fraction ≤', series: series(st, 'token_cdf') },
    { title: 'First 1,000 arrivals, 2-D PCA projection', kind: 'scatter', radius: 2, xLabel: 'PC 1', yLabel: 'PC 2',
      series: [{ label: 'arrival', points: proj.map(([x, y]) => ({ x, y })) }] },
  ];
}

export function createPaperView(app) {
  const headline = document.getElementById('headline');
  const presetRequest = () => {
    const s = app.state, p = PRESETS[s.preset];
    const kind = p.dataset || 'synthetic';
    if (kind === 'nq-trivia' && !app.nqFiles) {
      return { message: 'nq-trivia is not shipped with the page: load the four files of the shared data (nq.jsonl, nq.emb.f32, triviaqa.jsonl, triviaqa.emb.f32) with “Load your data…”.' };
    }
    const request = { type: 'run', experiment: s.preset, dataset: { kind, ...(kind === 'nq-trivia' ? app.nqFiles : {}) }, ...(s.full ? {} : p.quick) };
    return { key: `${s.preset}|${s.full}|${kind === 'nq-trivia' ? app.nqFiles.id : ''}`, request };
  };
  const panel = new JobPanel(document.querySelector('[data-job=paper]'), {
    request: presetRequest,
    charts: (report) => PRESETS[app.state.preset].charts(report),
    stem: () => `${app.state.preset}-${app.state.full ? 'full' : 'quick'}`,
    onReport: (job) => showHeadline(job),
  });
  function showHeadline(job) {
    const p = PRESETS[app.state.preset];
    const rows = p.headline && job && job.report ? p.headline(job.report.stats) : [];
    headline.hidden = !p.headline;
    const fmt = (v, unit) => (typeof v === 'string' ? v : Number.isFinite(v) ? (unit === '%' ? `${v.toFixed(2)} %` : v.toFixed(4)) : '–');
    headline.innerHTML = `<table class="numbers"><caption>The paper (§10) and this run${app.state.full ? '' : ' (quick settings: fewer seeds and rounds than the paper)'}</caption><thead><tr><th scope="col">headline</th><th scope="col">paper</th><th scope="col">measured here</th></tr></thead><tbody></tbody></table>`;
    const body = headline.querySelector('tbody');
    for (const [what, paper, v, unit] of rows.length ? rows : (p.headline ? p.headline([]) : [])) {
      const tr = body.insertRow();
      tr.appendChild(Object.assign(document.createElement('th'), { scope: 'row', textContent: what }));
      tr.insertCell().textContent = paper;
      tr.insertCell().textContent = rows.length ? fmt(v, unit) : '…';
    }
  }
  function describe() {
    const s = app.state, p = PRESETS[s.preset];
    const q = p.quick;
    const quick = [q.seeds && `${q.seeds} seed${q.seeds > 1 ? 's' : ''}`, ...Object.entries(q.overrides || {}).map(([k, v]) => `${k} = ${v}`),
      q.sweepValues && `sweep ${q.sweepValues.join(', ')}`, q.drop && 'without CLCB-Frozen-Cont'].filter(Boolean).join(', ');
    document.getElementById('preset-settings').textContent = s.full ? `Full paper settings: ${p.full}.` : `Quick settings (labelled as such in the export): ${quick}. Full: ${p.full}.`;
  }
  return {
    show() { document.getElementById('preset').value = app.state.preset; document.getElementById('full').checked = app.state.full; describe(); },
    activate() { describe(); panel.activate(); },
    deactivate() { panel.deactivate(); },
  };
}
