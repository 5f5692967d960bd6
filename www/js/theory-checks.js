// @ts-check
// The theory checks of a report, as the page shows them: chart specs (for charts.js,
// through a job panel) and the summary table. Does the paper's guarantee show on a run? The
// measured curves, the fits and every verdict are the engine's (the report's `theory`:
// csc::experiment::theory); this module only draws them. The fitted line and the √t, 1/√t and
// ln ln t shapes are drawn through the engine's numbers, each anchored at the first point of the
// fit's window (a shape, never a bound). The Theory view (views/theory.js) draws `theoryCharts`
// and the Offline view (views/offline.js) `gapCharts`, each with `fillTable`.
import { OWN_KEY, keyOf, labelOf, series, styleFields } from './report.js';
/** @typedef {import('../pkg/csc.js').Report} Report */
/** @typedef {import('../pkg/csc.js').TheoryCheck} TheoryCheck */
/** @typedef {import('./charts.js').ChartSpec} ChartSpec */
/** @typedef {import('./charts.js').ChartSeries} ChartSeries */

const el = (tag, attrs = {}, text = '') => Object.assign(document.createElement(tag), attrs, text ? { textContent: text } : {});
/** `table` in a region that scrolls sideways on a narrow screen (focusable, so the keyboard can
 *  scroll it too), as the frontier's table is: the page itself never gets wider than the screen. */
export function scrolling(table, label) {
  const region = el('div', { className: 'table-scroll', tabIndex: 0 });
  region.setAttribute('role', 'region');
  region.setAttribute('aria-label', label);
  region.append(table);
  region.hidden = table.hidden; // fillTable shows both with the first checks
  return region;
}

/** `count` points of `f` evenly spaced in ln t over [from, to]. */
function curve(from, to, f, count = 40) {
  if (!(from > 0 && to > from)) return [];
  const a = Math.log(from), b = Math.log(to);
  return Array.from({ length: count }, (_, i) => { const x = Math.exp(a + ((b - a) * i) / (count - 1)); return { x, y: f(x) }; });
}

/** A reference shape `c·g(t)` through the series' first point at or after `from`, drawn dashed. */
function shape(label, s, from, to, g) {
  const p0 = s?.points.find((p) => p.x >= from && p.y > 0);
  if (!p0) return [];
  const c = p0.y / g(p0.x);
  return [{ key: `ref-${label}`, label, colour: '#555555', dash: [3, 3], marker: 'none', points: curve(p0.x, to, (t) => c * g(t)) }];
}

/** The engine's fitted line `exp(intercept)·t^slope` over its window. @param {TheoryCheck | undefined} c */
function fitted(c, label) {
  if (!c || c.intercept == null || c.slope.mean == null) return [];
  const k = Math.exp(c.intercept), b = c.slope.mean;
  return [{ key: `fit-${label}`, label: `fit: ${label} (slope ${c.measured.replace(/^slope /, '')})`, colour: '#000000', dash: [8, 3], marker: 'none', points: curve(c.from, c.to, (t) => k * t ** b) }];
}

/** The report's checks of `policy` at its largest x. @param {Report} report */
function checksOf(report, policy) {
  const runs = (report.theory?.runs || []).filter((r) => r.policy === policy);
  return runs.length ? runs[runs.length - 1].checks : [];
}
const check = (checks, q) => checks.find((c) => c.quantity === q);

/** A second quantity of the same policy in one panel (m_max beside m_eff, Σ τ_u beside the
 *  switches): its own colour, dash and marker, so the two never read as one series. */
const SECOND = { colour: '#6a3d9a', dash: [6, 3], marker: 'square' };
const restyled = (list, style) => list.map((s) => ({ ...s, key: `${s.key}-second`, ...style }));

/** Theorem 5.1's four terms (csc::online::theory::BoundTerms; metrics `bound_<term>`, the report's
 *  `theory.runs[].bound` at T), each drawn in its own colour and dash. */
const TERMS = [
  { term: 'cost', label: 'cost β_t√(tγ_t)', colour: '#d55e00', dash: [] },
  { term: 'arrival', label: 'arrival √(m_eff·t·ln t)', colour: '#0072b2', dash: [6, 3] },
  { term: 'discretisation', label: 'discretisation (1+2α)L_g√t', colour: '#009e73', dash: [2, 2] },
  { term: 'switching', label: 'switching k·m_max·ln ln t', colour: '#cc79a7', dash: [8, 2, 2, 2] },
];
const UP_TO = 'up to constants: every O(·) constant set to 1, shapes in t and never a bound as printed';

/** Reg(t) = t·R(t)/t from the report's average regret (its 95% band scaled alike). */
function cumulative(report) {
  return series(report.stats, 'avg_regret').map((s) => ({ ...s, points: s.points.map((p) => ({ ...p, y: p.y * p.x, lo: p.lo * p.x, hi: p.hi * p.x })) }));
}

/**
 * The Theory view's figures of an online report: Reg(t) on log-log with the fitted line and the √t
 * shape; Theorem 5.1's four terms up to constants beside Reg(t); γ_t; m_eff with m_max; ε_t with 1/√t; switches and Σ τ_u with ln ln t. Every panel names
 * the paper's statement it reads. A sweep over the horizon (thy-horizon) draws Reg(T) against T.
 * @param {Report} report @returns {ChartSpec[]}
 */
export function theoryCharts(report) {
  const st = report.stats;
  const first = st.map(keyOf).find((k) => checksOf(report, k).length) || st.map(keyOf)[0];
  const checks = checksOf(report, first);
  const all = report.theory?.horizons || [];
  const horizon = all.find((h) => h.policy !== OWN_KEY);
  if (horizon) {
    const c = horizon.check;
    const pts = horizon.points.map((seed, i) => ({ key: `seed-${i}`, label: `seed ${report.experiment.first_seed + i}`, points: seed.map(([x, y]) => ({ x, y })) }));
    // Your policy beside it (views/theory.js), on the same (T, seed) streams: every seed's Reg(T)
    // in its own style, and its fitted line (the engine's, by the same check) dotted in purple.
    const mine = all.find((h) => h.policy === OWN_KEY);
    const minePts = mine ? [{ key: OWN_KEY, label: `${labelOf(OWN_KEY)} (each seed)`, ...styleFields(OWN_KEY), points: mine.points.flatMap((seed) => seed.map(([x, y]) => ({ x, y }))) },
      ...fitted(mine.check, `Reg(T), ${labelOf(OWN_KEY)}`).map((f) => ({ ...f, key: `fit-${OWN_KEY}`, colour: SECOND.colour, dash: [2, 3] }))] : [];
    // The four terms at each T beside the seeds' mean Reg(T) (the report's `theory.runs[].bound`).
    const at = (report.theory?.runs || []).filter((r) => r.policy === horizon.policy && r.bound).sort((a, b) => a.x - b.x);
    const termsAt = TERMS.map(({ term, label, colour, dash }) => ({ key: `bound-${term}`, label, colour, dash, marker: 'circle',
      points: at.filter((r) => r.bound[term] != null && r.bound[term] > 0).map((r) => ({ x: r.x, y: r.bound[term] })) })).filter((s) => s.points.length);
    return [{ title: `Reg(T) across horizons, one run per T (Theorem 5.1: Õ(√T)) — ${c.words}${mine ? `; ${labelOf(OWN_KEY)}: ${mine.check.words}` : ''}`, kind: 'scatter', logX: true, logY: true,
      xLabel: 'horizon T', yLabel: 'Reg(T)', series: [...pts, ...fitted(c, 'Reg(T)'), ...shape('√T shape', pts[0], c.from, c.to, Math.sqrt), ...minePts] },
    { title: `Theorem 5.1's four terms at T beside Reg(T), log-log (${UP_TO})`, logX: true, logY: true, xLabel: 'horizon T', yLabel: 'term at T',
      series: [{ key: 'regret', label: `Reg(T), ${labelOf(horizon.policy)} (mean over seeds)`, colour: '#000000', points: at.map((r) => ({ x: r.x, y: r.bound.regret })) }, ...termsAt],
      empty: 'No run measured the bound terms.' }];
  }
  const reg = cumulative(report);
  const mine = (s) => s.key === first;
  const one = (metric) => series(st, metric, (k) => k === first).map((s) => ({ ...s, label: `${s.label}: ${metric}` }));
  const regret = check(checks, 'regret'), eps = check(checks, 'eps_t'), meff = check(checks, 'm_eff'), gamma = check(checks, 'gamma'), sw = check(checks, 'switches');
  const T = Math.max(...reg.flatMap((s) => s.points.map((p) => p.x)), 1);
  const verdict = (c) => (c ? ` — ${c.words}` : '');
  const name = labelOf(first);
  const epsSeries = one('eps_t');
  const sumTau = one('sum_tau');
  const switches = series(st, 'switches', (k) => k === first);
  return [
    { title: `Reg(t), log-log (Theorem 5.1: Õ(√T))${verdict(regret)}`, logX: true, logY: true, xLabel: 'round t', yLabel: 'Reg(t)',
      series: [...reg, ...fitted(regret, `Reg(t), ${name}`), ...shape('√t shape', reg.find(mine), regret?.from ?? T / 10, T, Math.sqrt)] },
    { title: `Theorem 5.1's four terms over t beside Reg(t) of ${name}, log-log (${UP_TO})`, logX: true, logY: true, xLabel: 'round t', yLabel: 'term',
      series: [...reg.filter(mine).map((s) => ({ ...s, label: `Reg(t), ${name}` })),
        ...TERMS.map(({ term, label, colour, dash }) => one(`bound_${term}`).map((s) => ({ ...s, key: `bound-${term}`, label, colour, dash, marker: 'none' }))).flat()],
      empty: 'This policy measures no bound terms (only the CLCB family has γ_t and stages).' },
    { title: `Information gain γ_t = ½ log det(I + K_t/λ) of ${name} (Theorem 5.1's γ_T; Lemma 5.2)${verdict(gamma)}`, xLabel: 'round t', yLabel: 'γ_t',
      series: one('gamma'), empty: 'This policy has no kernel model: no γ_t.' },
    { title: `Effective centers m_eff(t) and net size m_max(t) (Assumption 1)${verdict(meff)}`, xLabel: 'round t', yLabel: 'centers',
      series: [...one('m_eff'), ...restyled(one('m_max'), SECOND)], empty: 'This policy keeps no ε-net: no m_eff.' },
    { title: `Discretisation error ε_t, log-log (Assumption 1: O(1/√t))${verdict(eps)}`, logX: true, logY: true, xLabel: 'round t', yLabel: 'ε_t',
      series: [...epsSeries, ...fitted(eps, `ε_t, ${name}`), ...shape('1/√t shape', epsSeries[0], eps?.from ?? T / 10, T, (t) => 1 / Math.sqrt(t))],
      empty: 'This policy keeps no ε-net: no ε_t.' },
    { title: `Switches and Σ τ_u beside ln ln t (Lemma 5.3: O(m_max log log T))${verdict(sw)}`, xLabel: 'round t', yLabel: 'count',
      series: [...switches.map((s) => ({ ...s, label: `${s.label}: switches` })), ...restyled(sumTau, SECOND),
        ...shape('ln ln t shape', sumTau[0] || switches[0], 16, T, (t) => Math.max(Math.log(Math.log(t)), 1e-9))] },
  ];
}

/** The summary table of a report's checks: quantity, measured, theorem, verdict, n. @param {Report} report */
export function theoryRows(report) {
  const rows = [];
  for (const r of report.theory?.runs || []) for (const c of r.checks) rows.push({ policy: labelOf(r.policy), x: r.x, c });
  for (const h of [...(report.theory?.horizons || []), ...(report.theory?.offline || [])]) rows.push({ policy: labelOf(h.policy), x: h.check.to, c: h.check });
  return rows;
}

/**
 * Theorem 4.1 on an offline sweep of the stream length (fig. 2(a)): each algorithm's mean gap
 * against n on log-log, the engine's fitted line of each (`theory.offline[].check`, slope ± 95%
 * interval over seeds) and the n^(−1/2) shape through the paper's method's first point; the title
 * carries the paper's method's verdict (the first: csc::algorithms::OfflineKind order). None for
 * other reports. @param {Report} report @returns {ChartSpec[]}
 */
export function gapCharts(report) {
  const off = report.theory?.offline || [];
  if (!off.length) return [];
  const first = off[0].check;
  const gaps = series(report.stats, 'gap', (k) => off.some((o) => o.policy === k));
  return [{ title: `Gap against the stream length n, log-log (Theorem 4.1: O(n^(−1/2))) — ${labelOf(off[0].policy)}: ${first.words}`,
    logX: true, logY: true, xLabel: 'stream length n', yLabel: 'gap L(M̂) − L(M_orc)',
    // Each algorithm's fitted line in its own colour (several lines share the chart).
    series: [...gaps, ...off.flatMap((o) => fitted(o.check, labelOf(o.policy)).map((f) => ({ ...f, colour: gaps.find((g) => g.key === o.policy)?.colour || f.colour }))),
      ...shape('n^(−1/2) shape', gaps.find((s) => s.key === off[0].policy), first.from, first.to, (n) => 1 / Math.sqrt(n))],
    empty: 'No gap above 0 to draw on a log scale.' }];
}

/** An empty table of checks, for `fillTable` (hidden until a report has checks). */
export const checksTable = () => el('table', { className: 'numbers theory-checks', hidden: true });

/** Fills `table` with the report's checks (the engine's words only): each row's measured slope
 *  carries its interval's ends (`data-lo`, `data-hi`), and its theorem cell the stated test the
 *  verdict is drawn by (`TheoryCheck.test`), so that every verdict can be read against them. */
export function fillTable(table, report) {
  const rows = report ? theoryRows(report) : [];
  table.hidden = !rows.length;
  if (table.parentElement) table.parentElement.hidden = table.hidden; // its scrolling region
  const xName = report?.theory?.offline?.length ? 'n' : 'T';
  const heads = ['policy', xName, 'quantity', 'measured', 'theorem and its test', 'verdict', 'n'];
  table.innerHTML = '<caption>Theory checks: log-log slopes with 95% intervals (over seeds; one seed: the fit\'s), each against the paper\'s statement by the test beside it</caption>'
    + `<thead><tr>${heads.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead>`;
  const body = document.createElement('tbody');
  for (const { policy, x, c } of rows) {
    const tr = body.insertRow();
    tr.dataset.quantity = c.quantity;
    tr.dataset.verdict = c.verdict;
    const th = el('th', { scope: 'row' }, policy);
    th.dataset.label = heads[0];
    tr.appendChild(th);
    const cells = [String(x), c.name, c.measured, `${c.theorem} (${c.reference})`, c.words, `${c.n} ${c.over}`];
    cells.forEach((v, i) => {
      const td = tr.insertCell();
      td.textContent = v;
      td.dataset.label = heads[i + 1];
      if (i === 2) Object.assign(td.dataset, { lo: String(c.slope.lo ?? ''), hi: String(c.slope.hi ?? '') });
      if (i === 3) td.append(el('br'), el('small', { className: 'test' }, `Test: ${c.test}.`));
      if (i === 4) td.className = `verdict ${c.verdict}`;
    });
  }
  table.append(body);
}
