// The paper view: one preset per figure (SPEC §10). Each sets every parameter, runs (quick
// settings by default, the paper's with "full"), draws the figure and puts the paper's headline
// numbers next to the ones just measured, each differing one with its reason from
// docs/REPRODUCTION.md ("Where we differ", shipped in dist/docs/). fig-a and fig-b run with the
// theoretical widths (SPEC) or, switched in the URL (`tuned=1`), the widths REPRODUCTION.md tuned
// on held-out seeds (`fig-a-tuned`, `fig-b-tuned` of csc::experiment::builtin). fig-e/f run on
// the nq-trivia universe bundled by scripts/dist.sh (data/), or on the files the reader loaded.
import { JobPanel } from './job-panel.js';
import { setWorkers, workerCount, AUTO_CAP } from '../jobs.js';
import { offlineCharts, onlineCharts, series, at, final, keyOf, labelOf } from '../report.js';
import { QUICK_OFFLINE } from './offline.js';
import { uploadedData } from '../upload.js';
import { nqTriviaNow } from '../nq-trivia.js';

/** The reproduction report shipped with the page, at its "Where we differ" section. */
const DIFFER = new URL('../../docs/REPRODUCTION.html#where-we-differ-and-why', import.meta.url).href;
/** One-line reasons, from docs/REPRODUCTION.md "Where we differ" (its item numbers). */
const WHY = {
  offTheory: '1. At the theoretical widths CUCB-SC-Cont’s c̄ saturates above φ’s cap and does not shrink, so it returns CUCB-SC’s cache (0 %) or a worse one; the paper’s figure fits some small, unstated width.',
  offTuned: '1–2. The paper does not state its widths; tuned ones (β_off = 0.03, λ = 0.001, chosen on held-out seeds) can move the gap either way.',
  offLowest: '3. Greedy is a strong offline baseline here: the synthetic prompts are far apart, so the best cache is the k cells with the largest w·c — Greedy’s rule.',
  online: '4, 6. Reproduces qualitatively (lowest regret); our synthetic prompts are not the paper’s, and its widths, λ and ℓ_k are unstated.',
  nq: '5, 6. nq-trivia is dominated by switching costs: at β = 1 CLCB-SC-LS-Cont and CLCB-SC-LS keep the same five queries in most seeds.',
  quick: '7. Quick settings: fewer seeds and rounds than the paper (tick “Full paper settings”).',
};
const TUNED = new Set(['fig-a', 'fig-b']);
const QUICK_ONLINE = { seeds: 3, overrides: { n_eval: 2000, horizon: 1500 }, drop: ['clcb-frozen-cont'] };
const pct = (a, b) => (a && b && b.mean ? 100 * (1 - a.mean / b.mean) : NaN);
const below = (stats, metric, ours, them, x) => pct(
  x == null ? final(stats, ours, metric) : at(stats, ours, metric, x),
  x == null ? final(stats, them, metric) : at(stats, them, metric, x));

/** The display name of an algorithm id (the engine's lists: csc::algorithms). */
const nameOf = labelOf;

/** The algorithm (display name) with the lowest mean of `metric` at x (the oracle excepted). */
function lowest(stats, metric, x) {
  const c = stats.filter((s) => s.metric === metric && keyOf(s) !== 'oracle' && s.mean != null && (x == null || s.x === x));
  const xs = x == null ? Math.max(...c.map((s) => s.x)) : x;
  const best = c.filter((s) => s.x === xs).sort((a, b) => a.mean - b.mean)[0];
  return best ? nameOf(keyOf(best)) : '–';
}

/** An offline figure whose headline is CUCB-SC-Cont's gap relative to CUCB-SC at one x. */
const offlinePreset = (id, full, x, where, paper) => ({
  quick: { seeds: 3, ...QUICK_OFFLINE[id] }, full, charts: offlineCharts,
  headline: (st, tuned) => [
    [`CUCB-SC-Cont gap below CUCB-SC at ${where}`, paper, below(st, 'gap', 'cucb-sc-cont', 'cucb-sc', x), '%', tuned ? WHY.offTuned : WHY.offTheory],
    [`lowest gap at ${where}`, nameOf('cucb-sc-cont'), lowest(st, 'gap', x), '', WHY.offLowest],
  ],
});

const PRESETS = {
  'fig-a': offlinePreset('fig-a', 'synthetic, k = 5, ε = 0.4, stream length 100 … 5,000, n_eval = 10,000, 20 seeds', 100, 'stream length 100', '73.32 %'),
  'fig-b': offlinePreset('fig-b', 'synthetic, k = 5, stream length 1,000, ε = 0.1 … 0.8, n_eval = 10,000, 20 seeds', 0.4, 'ε = 0.4', '52.95 %'),
  'fig-c': {
    quick: QUICK_ONLINE, full: 'synthetic, T = 5,000, n_eval = 10,000, six policies with CLCB-Frozen-Cont, 10 seeds',
    charts: (r) => onlineCharts(r, { efficiency: true }),
    headline: (st) => [
      ['CLCB-SC-LS-Cont final average regret', '0.0083', final(st, 'clcb-sc-ls-cont', 'final_avg_regret')?.mean, '', WHY.online],
      ['… below CLCB-SC-LS', '72.41 %', below(st, 'final_avg_regret', 'clcb-sc-ls-cont', 'clcb-sc-ls'), '%', WHY.online],
      ['lowest final average regret', nameOf('clcb-sc-ls-cont'), lowest(st, 'final_avg_regret'), '', WHY.online],
    ],
  },
  'fig-e': {
    dataset: 'nq-trivia', quick: { ...QUICK_ONLINE, seeds: 2, overrides: { n_eval: 1000, horizon: 1000 } },
    full: 'nq-trivia (2,500 + 2,500 questions), T = 5,000, n_eval = 10,000, 10 seeds',
    charts: (r) => onlineCharts(r, { efficiency: true }),
    headline: (st) => [
      ['CLCB-SC-LS-Cont final average regret', '0.0061', final(st, 'clcb-sc-ls-cont', 'final_avg_regret')?.mean, '', WHY.nq],
      ['… below Greedy', '63.27 %', below(st, 'final_avg_regret', 'clcb-sc-ls-cont', 'greedy'), '%', WHY.nq],
      ['… below CLCB-SC-LS', '43.14 %', below(st, 'final_avg_regret', 'clcb-sc-ls-cont', 'clcb-sc-ls'), '%', WHY.nq],
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
  let active = false;
  const presetRequest = () => {
    const s = app.state, p = PRESETS[s.preset];
    const up = uploadedData(app);
    if (up) {
      const experiment = s.tuned && TUNED.has(s.preset) ? `${s.preset}-tuned` : s.preset;
      const request = { type: 'run', experiment, ...(s.full ? {} : p.quick), dataset: up.dataset, upload: up.upload };
      return { key: `${experiment}|${s.full}|${JSON.stringify(up.upload)}`, request };
    }
    const kind = p.dataset || 'synthetic';
    let files = null;
    if (kind === 'nq-trivia') {
      const nq = nqTriviaNow(app, () => app.emit('nq-loaded'));
      if (!nq.files) return { message: nq.message };
      files = nq.files;
    }
    const tuned = s.tuned && TUNED.has(s.preset);
    const experiment = tuned ? `${s.preset}-tuned` : s.preset;
    const request = { type: 'run', experiment, dataset: { kind, ...(files || {}) }, ...(s.full ? {} : p.quick) };
    return { key: `${experiment}|${s.full}|${files ? files.id : ''}`, request };
  };
  const panel = new JobPanel(document.querySelector('[data-job=paper]'), {
    request: presetRequest,
    charts: (report) => PRESETS[app.state.preset].charts(report),
    stem: () => `${app.state.preset}-${app.state.full ? 'full' : 'quick'}`,
    onReport: (job) => showHeadline(job),
  });
  function showHeadline(job) {
    const p = PRESETS[app.state.preset];
    const tuned = app.state.tuned && TUNED.has(app.state.preset);
    const rows = p.headline && job && job.report ? p.headline(job.report.stats, tuned) : [];
    headline.hidden = !p.headline;
    // On uploaded data the paper's numbers (measured on its own datasets) do not apply: each is
    // labelled so, with no comparison drawn.
    const up = uploadedData(app);
    const own = p.dataset || 'synthetic';
    const fmt = (v, unit) => (typeof v === 'string' ? v : Number.isFinite(v) ? (unit === '%' ? `${v.toFixed(2)} %` : v.toFixed(4)) : '–');
    const caption = up
      ? `This run on your data (${up.upload.jsonl}); the paper’s headline numbers are for ${own} and do not apply${app.state.full ? '' : ' (quick settings)'}`
      : `The paper (§10) and this run${app.state.full ? '' : ' (quick settings: fewer seeds and rounds than the paper)'}`;
    headline.innerHTML = `<table class="numbers"><caption></caption><thead><tr><th scope="col">headline</th><th scope="col">paper</th><th scope="col">measured here</th><th scope="col">${up ? 'note' : 'why it differs'}</th></tr></thead><tbody></tbody></table>`;
    headline.querySelector('caption').textContent = caption;
    headline.dataset.upload = up ? 'true' : 'false';
    const body = headline.querySelector('tbody');
    for (const [what, paper, v, unit, why] of rows.length ? rows : (p.headline ? p.headline([], tuned) : [])) {
      const tr = body.insertRow();
      tr.appendChild(Object.assign(document.createElement('th'), { scope: 'row', textContent: what }));
      const paperCell = tr.insertCell();
      paperCell.textContent = up ? 'not applicable' : paper;
      if (up) paperCell.className = 'na';
      const measured = rows.length ? fmt(v, unit) : '…';
      tr.insertCell().textContent = measured;
      const cell = tr.insertCell();
      cell.className = 'why';
      if (up) {
        cell.textContent = `The paper measured this on ${own}, not on your data.`;
        continue;
      }
      if (rows.length && measured !== paper) {
        const reason = app.state.full || !why ? (why || '') : `${why} ${WHY.quick}`;
        cell.append(`${reason} `, Object.assign(document.createElement('a'), { href: DIFFER, target: '_blank', rel: 'noopener', textContent: 'Where we differ' }));
      }
    }
  }
  function describe() {
    const s = app.state, p = PRESETS[s.preset];
    const q = p.quick;
    const quick = [q.seeds && `${q.seeds} seed${q.seeds > 1 ? 's' : ''}`, ...Object.entries(q.overrides || {}).map(([k, v]) => `${k} = ${v}`),
      q.sweepValues && `sweep ${q.sweepValues.join(', ')}`, q.drop && 'without CLCB-Frozen-Cont'].filter(Boolean).join(', ');
    const widths = TUNED.has(s.preset) ? (s.tuned ? ' Tuned widths (β_off = 0.03, λ = 0.001, chosen on held-out seeds; docs/REPRODUCTION.md).' : ' Theoretical widths (the analysis’; SPEC).')
      : ' This figure has no tuned variant (the theoretical widths were the best on held-out seeds, or robust).';
    const up = uploadedData(app);
    const mine = up ? ` Runs on your data (${up.upload.jsonl}, ${up.upload.arrival.model} arrivals) in place of ${p.dataset || 'synthetic'}.` : '';
    document.getElementById('preset-settings').textContent = (s.full ? `Full paper settings: ${p.full}.` : `Quick settings (labelled as such in the export): ${quick}. Full: ${p.full}.`) + widths + mine;
    tunedBox.checked = s.tuned && TUNED.has(s.preset);
    tunedBox.disabled = !TUNED.has(s.preset);
    workersIn.value = s.workers ? String(s.workers) : '';
    workersIn.placeholder = `auto (${workerCount()})`;
    setWorkers(s.workers);
  }
  // The two switches of this view: tuned widths and the number of experiment workers.
  const mk = (html) => { const t = document.createElement('template'); t.innerHTML = html.trim(); return t.content.firstChild; };
  const grid = document.getElementById('full').closest('.grid');
  const tunedLabel = mk('<label class="check"><input id="tuned" type="checkbox"> <span class="name">Tuned widths</span><small>β_off, λ chosen on held-out seeds (figs. a, b); default: theoretical</small></label>');
  const workersLabel = mk(`<label><span class="name">Workers</span><input id="workers" type="number" min="1" max="32" step="1" inputmode="numeric"><small>Experiment units in parallel (default: cores, at most ${AUTO_CAP})</small></label>`);
  grid.append(tunedLabel, workersLabel);
  const tunedBox = tunedLabel.querySelector('input'), workersIn = workersLabel.querySelector('input');
  tunedBox.addEventListener('change', () => app.set((s) => { s.tuned = tunedBox.checked; }));
  workersIn.addEventListener('change', () => {
    const n = workersIn.value === '' ? 0 : Math.floor(Number(workersIn.value));
    app.set((s) => { s.workers = Number.isFinite(n) && n >= 0 ? n : 0; });
  });
  setWorkers(app.state.workers);
  app.on('change', () => setWorkers(app.state.workers));
  return {
    show() { document.getElementById('preset').value = app.state.preset; document.getElementById('full').checked = app.state.full; describe(); },
    activate() { active = true; describe(); panel.activate(); },
    deactivate() { active = false; panel.deactivate(); },
  };
}
