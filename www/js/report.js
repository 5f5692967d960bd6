// @ts-check
// Reading an experiment report (csc::experiment::Report): statistics as chart specs (charts.js
// draws them), and one style per algorithm everywhere on the page.
// Results are keyed by algorithm id (`Stat.algorithm`, csc::algorithms); the display name and the
// chart style (colour, marker, dash) come from the engine's list (`policies()`,
// `offlineAlgorithms()`) and are only drawn. Series that are not algorithms (geometry) keep their
// series names and take charts.js's fallback style by position. Reference marks: the numbers the
// paper prints (`paperValues`, csc::experiment::claims) on its figures, and the oracle.
import { policies, offlineAlgorithms, paperValues, experimentDefinition, formatBounds, formatDifference, formatInterval, intervalWords, sizedLabel as engineSizedLabel, sizedLabelNote, runtimeGrowth } from '../pkg/csc.js';

/** @typedef {import('../pkg/csc.js').Report} Report */
/** @typedef {import('../pkg/csc.js').Stat} Stat */
/** @typedef {import('../pkg/csc.js').MetricId | import('../pkg/csc.js').FinalMetricId} MetricName the engine's metric ids (a typo fails the type-check) */
/** @typedef {import('./charts.js').ChartSpec} ChartSpec */
/** @typedef {import('./charts.js').ChartSeries} ChartSeries */
/** @typedef {import('./charts.js').ChartRef} ChartRef */

/** A report's units (each seed's raw result, csc::experiment::runner), which csc.d.ts leaves
 *  `unknown[]`: read here as plain objects. @param {Report} report @returns {any[]} */
const unitsOf = (report) => report.units;

/** The key of a stat: its algorithm's id, or its series name when it is not an algorithm
 * (`algorithm_id`: reports written when `algorithm` was the display name). */
export const keyOf = (/** @type {Stat & { algorithm_id?: string }} */ s) => s.algorithm_id ?? s.algorithm;

let catalog = null;
/** The engine's entry for an algorithm id (undefined for a series that is not an algorithm). */
const infoOf = (key) => (catalog ??= new Map([...offlineAlgorithms(), ...policies()].map((a) => [a.id, a]))).get(key);

/** Whether a key is not the reference M_orc (the engine's family `reference`; an id names the
 *  same algorithm in both lists, and the online entry, which has a family, wins in `infoOf`):
 *  its gap is 0 by construction, so gap charts leave it out. */
const notReference = (key) => infoOf(key)?.family !== 'reference';

/** Your own policy's id in statistics (the engine's `OwnPolicyStats`, algorithm `own-policy`). */
export const OWN_KEY = 'own-policy';
/** Your own policy's style in every chart: solid black, square markers (the oracle's black is dashed, with crosses). */
const OWN_STYLE = { colour: '#000000', marker: 'square', dash: [] };

/** What a chart or table shows for a key: the algorithm's display name (your own policy: "Your policy"), else the key. */
export const labelOf = (key) => (key === OWN_KEY ? 'Your policy' : infoOf(key)?.name ?? key);

/** The engine's style of an algorithm as a series' colour, marker and dash (your own policy's:
 * OWN_STYLE; none for other series: charts.js gives those a fallback by position). */
export const styleFields = (key) => {
  if (key === OWN_KEY) return { ...OWN_STYLE };
  const st = infoOf(key)?.style;
  return st ? { colour: st.colour, marker: st.marker, dash: st.dash } : {};
};

/** What ran, for a figure's caption (charts.js captionText). */
export function runOf(report) {
  const e = report.experiment;
  return { id: e.id, title: e.title, description: report.description, seeds: e.seeds, firstSeed: e.first_seed, engine: report.engine, interval: intervalWords() };
}

/** The numbers the paper prints for `metric` in this report's experiment (none but for its presets).
 * @param {Report} report @param {MetricName} metric */
export function paperValuesOf(report, metric) {
  try { return paperValues(report.experiment.id).filter((v) => v.metric === metric); } catch { return []; }
}

/** The paper's mark of `v` (a `paperValues` entry, named `name`) on this report's figure of a
 *  final online value: `x` the run's last round only when the run's horizon is the paper's (its
 *  preset's full definition, `experimentDefinition`), else no x (a level line) and a label that
 *  says the paper's T — its number is not a point of a shorter or longer curve. */
export function paperMark(report, v, name, lastX) {
  let paperT = null;
  try { paperT = experimentDefinition(report.experiment.id).params.horizon; } catch { /* not a preset */ }
  const runT = report.experiment.params?.horizon;
  const same = paperT == null || paperT === runT;
  const label = `paper${same ? '' : ` at T = ${paperT.toLocaleString('en')}`}: ${name} ${v.printed}`;
  return same && lastX != null ? { x: lastX, y: v.value, label, kind: 'paper' } : { y: v.value, label, kind: 'paper' };
}

/** A loss each unit's detail records (`oracle_loss`: L(M_orc); `no_cache_loss`: E[c(x)], every
 * query to the LLM; csc::experiment::runner), mean over the units, or null. */
function unitMean(report, field) {
  const v = unitsOf(report).map((u) => u.detail?.[field]).filter(Number.isFinite);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
}

/** The 95% half-width of a stat, drawn from 3 seeds up (with 2 its t-quantile, 12.7, swamps the figure). */
export const ciOf = (s) => (s && s.ci95 != null && s.n >= 3 ? s.ci95 : 0);

/**
 * Mean ± 95% interval of `metric` per algorithm, as chart series (x ascending); `keep(key)`.
 * @param {Stat[]} stats
 * @param {string} metric
 * @param {(key: string) => boolean} [keep]
 * @returns {ChartSeries[]}
 */
export function series(stats, metric, keep = () => true) {
  const by = new Map();
  for (const s of stats) {
    const key = keyOf(s);
    if (s.metric !== metric || s.x == null || s.mean == null || !keep(key)) continue;
    if (!by.has(key)) by.set(key, { label: labelOf(key), points: [] });
    const ci = ciOf(s);
    by.get(key).points.push({ x: s.x, y: s.mean, lo: s.mean - ci, hi: s.mean + ci, n: s.n });
  }
  return [...by].map(([key, { label, points }]) => ({ key, label, ...styleFields(key), points: points.sort((a, b) => a.x - b.x) }));
}

/** The stat of `metric` for the algorithm `key` (its id) at the largest x.
 * @param {Stat[]} stats @param {string} key @param {MetricName} metric */
export function final(stats, key, metric) {
  let best = null;
  for (const s of stats) if (keyOf(s) === key && s.metric === metric && (!best || s.x > best.x)) best = s;
  return best;
}

/** The stat at x (nearest). */
export function at(stats, key, metric, x) {
  let best = null;
  for (const s of stats) {
    if (keyOf(s) === key && s.metric === metric && (!best || Math.abs(s.x - x) < Math.abs(best.x - x))) best = s;
  }
  return best;
}

/** The algorithms (keys) with a final average regret, in the report's order. */
export const onlineKeys = (stats) => [...new Set(stats.filter((s) => s.metric === 'final_avg_regret').map(keyOf))];

/** Runtime (x) against final average regret (y) per policy, with 95% intervals both ways. */
export function efficiencySeries(stats) {
  return onlineKeys(stats).map((a) => {
    const r = final(stats, a, 'final_avg_regret'), t = final(stats, a, 'runtime_ms');
    return {
      key: a, label: labelOf(a), ...styleFields(a),
      points: [{ x: t.mean, y: r.mean, lo: r.mean - ciOf(r), hi: r.mean + ciOf(r), xlo: t.mean - ciOf(t), xhi: t.mean + ciOf(t) }],
    };
  });
}

const PARAM_LABEL = { log_len: 'stream length n', epsilon: 'ε-net radius ε', k: 'cache size k' };

/** Why the report's dataset has no ground truth (SPEC §14), or undefined when it has one. */
export const noGroundTruth = (/** @type {Report} */ report) => unitsOf(report)?.[0]?.dataset?.no_ground_truth;

/** What a correctness chart shows without ground truth: "—" and the engine's reason. */
const noTruthText = (report) => { const why = noGroundTruth(report); return why ? `— (${why})` : undefined; };

/** Charts of an offline report: gap (and loss) against the swept parameter.
 *  @param {Report} report @returns {ChartSpec[]} */
export function offlineCharts(report) {
  const param = report.experiment.sweep ? report.experiment.sweep.param : 'x';
  const x = PARAM_LABEL[param] || param;
  const logX = param === 'log_len';
  const integerX = param === 'k';
  /** @type {ChartSpec[]} */
  const charts = [{ title: `Suboptimality gap L(M̂) − L(M_orc) vs ${x}`, xLabel: x, yLabel: 'gap', logX, integerX,
    refs: [{ y: 0, label: 'oracle M_orc (gap 0)', kind: 'reference' }], series: series(report.stats, 'gap', notReference) }];
  if (param === 'k') charts.push({ title: `Loss L(M̂) vs ${x}`, xLabel: x, yLabel: 'loss L(M̂)', logX, integerX, series: series(report.stats, 'loss') });
  // SPEC §14: the offline error rate of M̂ on the evaluation sample; "—" and why without ground truth.
  charts.push({ title: `Error rate of M̂ on the evaluation sample vs ${x}`, xLabel: x, yLabel: 'wrong hits / requests', logX, integerX,
    series: series(report.stats, 'error_rate'), empty: noTruthText(report) });
  return charts;
}

/**
 * A policy's name with its final cache size when that is below k (mean over seeds), e.g.
 * "CLCB-Frozen-Cont (1 item)", so a policy that never filled its cache is not read as a k-item one
 * (the engine's words: `sizedLabel`, csc::online::sim::sized_label; what it means: `sizedNote`).
 * @param {Report} report
 * @param {string} key
 */
export function sizedLabel(report, key) {
  const s = final(report.stats, key, 'final_cache_size');
  return engineSizedLabel(labelOf(key), s?.mean ?? null, report.experiment.params.k);
}
/**
 * What a sized name means (csc::online::sim::sized_label_note), for a caption or table that shows
 * one of `keys`; undefined when none is sized.
 * @param {Report} report
 * @param {string[]} keys
 */
export function sizedNote(report, keys) {
  return keys.some((k) => sizedLabel(report, k) !== labelOf(k)) ? sizedLabelNote(report.experiment.params.k) : undefined;
}
const sized = (report, list) => list.map((s) => ({ ...s, label: sizedLabel(report, s.key) }));

/** What a switch is, for chart titles and tooltips (docs/SPEC-NOTES.md). */
export const SWITCH_MEANING = 'a switch = a round whose cache set differs from the previous round\'s (the first fill and every insertion into a non-full cache count; a rebuild to the same set does not)';

/** Charts of an online report: average regret, switches and realised cost against rounds.
 *  @param {Report} report @param {{ efficiency?: boolean }} [options] @returns {ChartSpec[]} */
export function onlineCharts(report, { efficiency = false } = {}) {
  const st = report.stats;
  /** @type {ChartRef} */
  const oracle = { y: 0, label: 'oracle M_orc (0)', kind: 'reference' };
  const regret = sized(report, series(st, 'avg_regret'));
  // The paper's final R(T)/T: at this run's last round when its T is the paper's (paperMark).
  const paper = paperValuesOf(report, 'final_avg_regret').flatMap((v) => {
    const s = regret.find((r) => r.key === v.series);
    return s && s.points.length ? [paperMark(report, v, s.label, s.points.at(-1).x)] : [];
  });
  const orc = unitMean(report, 'oracle_loss'), none = unitMean(report, 'no_cache_loss');
  /** @type {ChartRef[]} */
  const costRefs = [
    ...(orc == null ? [] : [{ y: orc, label: `oracle L(M_orc) ${orc.toPrecision(3)}`, kind: 'reference' }]),
    ...(none == null ? [] : [{ y: none, label: `no cache E[c(x)] ${none.toPrecision(3)}`, kind: 'no-cache' }]),
  ];
  /** @type {ChartSpec[]} */
  const charts = [
    { title: 'Average regret R(t)/t = loss gap + switching cost', xLabel: 'round t', yLabel: 'R(t)/t', skipX: 0.05, refs: [oracle, ...paper], series: regret },
    { title: 'Its loss gap Σ[L(M_s) − L(M_orc)]/t', xLabel: 'round t', yLabel: 'loss gap per round', skipX: 0.05, refs: [oracle], series: sized(report, series(st, 'avg_loss_gap')) },
    { title: 'Its switching cost Σ c(fetched)/t', xLabel: 'round t', yLabel: 'switching cost per round', skipX: 0.05, series: sized(report, series(st, 'avg_switch_cost')) },
    { title: 'Cache switches (rounds whose cache set changed; the first fill counts)', xLabel: 'round t', yLabel: 'switches', series: sized(report, series(st, 'switches')) },
    { title: 'Average realised cost per round', xLabel: 'round t', yLabel: 'cost per round', skipX: 0.05,
      refs: costRefs, series: sized(report, series(st, 'avg_realised_cost')) },
    // SPEC §14: cumulative wrong cache hits over requests; "—" and why without ground truth.
    { title: 'Error rate E(t): wrong cache hits over requests so far', xLabel: 'round t', yLabel: 'error rate', skipX: 0.05,
      series: sized(report, series(st, 'error_rate')), empty: noTruthText(report) },
  ];
  if (efficiency) charts.push(efficiencyChart(report));
  return charts.map((c) => (c.kind === 'scatter' ? c : explainSized(report, c)));
}

/** A chart whose legend names a policy with its cache size says what that means in its caption
 *  (`note`). @param {Report} report @param {ChartSpec} chart @returns {ChartSpec} */
function explainSized(report, chart) {
  const note = sizedNote(report, (chart.series || []).map((s) => s.key ?? s.label));
  return note ? { ...chart, note: chart.note ? `${chart.note} ${note}` : note } : chart;
}

/** Runtime against final average regret, one point per policy, with the paper's values.
 *  @param {Report} report @returns {ChartSpec} */
export function efficiencyChart(report) {
  const refs = paperValuesOf(report, 'final_avg_regret').map((v) => paperMark(report, v, labelOf(v.series), null));
  return explainSized(report, { title: 'Runtime vs final average regret (lower left is better)', kind: 'scatter', logX: true, logY: true,
    xLabel: 'runtime (ms, this browser)', yLabel: 'final R(T)/T', refs, series: sized(report, efficiencySeries(report.stats)) });
}

/** A legend's fitted growth of a policy's time (`runtimeGrowth`'s fit, or none) against `v`:
 *  `: time ∝ v^a ± half-width`. */
const growsAs = (fit, v) => (fit ? `: time ∝ ${v}^${fit.slope.toFixed(2)}${Number.isFinite(fit.half) ? ` ± ${fit.half.toFixed(2)}` : ''}` : '');

/**
 * The engine's cost per round against t, one line per policy: at each recorded round t ≥ T/10, the
 * mean time per round over the rounds (t/2, t] (the policy's time so far, `runtime_ms`, read at t and at
 * the last recorded round ≤ t/2; mean over seeds), on log–log axes. Each legend entry carries the
 * fitted growth of the time to t (`runtimeGrowth`, the engine's fit over t ∈ [T/10, T]): time ∝ t^a,
 * so a round costs ∝ t^(a−1).
 * @param {Report} report @returns {ChartSpec}
 */
export function growthChart(report) {
  const growth = series(report.stats, 'runtime_ms').map((s) => {
    const pts = s.points;
    /** @type {ChartSeries['points']} */
    const perRound = [];
    let j = 0;
    const from = pts.length ? pts.at(-1).x / 10 : 0; // the fit's window, t ∈ [T/10, T]: before it, the timer's resolution shows
    for (let i = 1; i < pts.length; i++) {
      while (j + 1 < i && pts[j + 1].x <= pts[i].x / 2) j++;
      if (pts[j].x > pts[i].x / 2 || pts[i].x < from) continue;
      const y = (pts[i].y - pts[j].y) / (pts[i].x - pts[j].x);
      if (y > 0) perRound.push({ x: pts[i].x, y, lo: y, hi: y });
    }
    const fit = runtimeGrowth(pts.map((p) => p.x), pts.map((p) => p.y));
    return { ...s, label: `${sizedLabel(report, s.key)}${growsAs(fit, 't')}`, points: perRound, growth: fit ?? null };
  }).filter((s) => s.points.length);
  return explainSized(report, {
    title: 'The engine\'s cost per round against t (its growth: time to t ∝ t^a, a round ∝ t^(a−1))',
    xLabel: 'round t', yLabel: 'ms per round (mean over rounds t/2…t, this browser)', logX: true, logY: true, series: growth, noBands: true,
    note: 'Time inside each policy, mean over seeds, on this machine as it ran (its load included), from t = T/10; a is fitted over t ∈ [T/10, T] with its 95% interval. a ≈ 1: a constant cost per round; the exact KRR learner on distinct arrivals grew like T^3.2 across horizons 2,000–10,000 (docs/PERFORMANCE.md), a round ∝ t² or more.',
    empty: growth.length ? undefined : 'no curve: a run with a sweep records only its final time',
  });
}

/**
 * A horizon sweep's cost against T (`thy-horizon`, `thy-horizon-nystrom`, `thy-switch`: one run per
 * horizon T): each policy's time for its whole run at each T (`runtime_ms` at the run's last
 * round, mean over seeds), on log–log axes. Each legend entry carries the fitted growth
 * (`runtimeGrowth`, the engine's fit over T ∈ [T_max/10, T_max]): time ∝ T^a, so a round costs
 * ∝ T^(a−1) on average. Any other report gets the chart's empty message.
 * @param {Report} report @returns {ChartSpec}
 */
export function horizonCostChart(report) {
  const sweep = report.experiment.sweep;
  const horizons = sweep?.param === 'horizon' && !sweep.by;
  const lines = horizons ? series(report.stats, 'runtime_ms').filter((s) => s.points.length).map((s) => {
    const pts = s.points.map((p) => ({ x: p.x, y: p.y, lo: p.y, hi: p.y, n: p.n }));
    const fit = runtimeGrowth(pts.map((p) => p.x), pts.map((p) => p.y));
    return { ...s, label: `${sizedLabel(report, s.key)}${growsAs(fit, 'T')}`, points: pts, growth: fit ?? null };
  }) : [];
  return explainSized(report, {
    title: 'A whole run\'s cost against the horizon T (its growth: time ∝ T^a)',
    xLabel: 'horizon T', yLabel: 'ms per run (mean over seeds)', logX: true, logY: true, series: lines, noBands: true,
    note: 'Time inside each policy for its whole run at each horizon (the evaluation oracle not included), mean over seeds, on the machine that ran it as it ran; a is fitted over T ∈ [T_max/10, T_max] with its 95% interval. a ≈ 1: a constant cost per round; the exact KRR learner on synthetic\'s distinct arrivals grows like T^3.2–3.3 (docs/PERFORMANCE.md), the Nyström learner over the ε-net centers about linearly.',
    empty: lines.length ? undefined : 'no curve: this chart draws a sweep over the horizon T (thy-horizon, thy-horizon-nystrom, thy-switch)',
  });
}

/** A swept parameter's name for axes (the page's short labels, else the parameter's name). */
export const paramLabel = (param) => PARAM_LABEL[param] || param;

/** The metric a sweep shows unless another is chosen: the gap offline, the final regret online. */
/** @param {Report} report @returns {MetricName} */
export const defaultSweepMetric = (report) => (report.experiment.measure.kind === 'offline' ? 'gap' : 'final_avg_regret');

/** The metrics of a sweep report that have a value at its points (the sweep view's choice). */
export const sweepMetrics = (report) => [...new Set(report.stats.filter((s) => s.x != null).map((s) => s.metric))];

/**
 * The heatmap cells of `metric` for the algorithm `key` in a grid report: one
 * per (x, y) cell, first parameter major as the grid's points, with its mean, 95% interval and n;
 * `meta` names the cell's configuration (`params`: both swept values) and its algorithm.
 */
export function gridCells(report, metric, key) {
  const sw = report.experiment.sweep;
  return report.stats
    .filter((s) => keyOf(s) === key && s.metric === metric && s.x != null && s.y != null && s.mean != null)
    .sort((a, b) => a.x - b.x || a.y - b.y)
    .map((s) => {
      const ci = ciOf(s);
      return { x: s.x, y: s.y, value: s.mean, lo: s.mean - ci, hi: s.mean + ci, n: s.n,
        config: { algorithm: key, params: { [sw.param]: s.x, [sw.by.param]: s.y } } };
    });
}

/**
 * Charts of a sweep report: one parameter, a path per algorithm of `metric` against it (points in
 * x order, the 95% interval per point as a bar); two, a heatmap per algorithm (charts.js's
 * 'heatmap': cells with their interval). `onPoint(config)` receives the clicked point's
 * configuration ({ algorithm, params }), by click or Enter (charts.js `onPoint`).
 * @param {Report} report
 * @param {{ metric?: string, onPoint?: (config: { algorithm: string, params: Record<string, number> }) => void }} [options]
 * @returns {ChartSpec[]}
 */
export function sweepCharts(report, { metric = defaultSweepMetric(report), onPoint } = {}) {
  const sw = report.experiment.sweep;
  if (!sw) return [];
  const xLabel = paramLabel(sw.param), what = metric.replace(/^final_/, '').replace(/_/g, ' ');
  const keep = (a) => metric !== 'gap' || notReference(a);
  if (!sw.by) {
    const lines = series(report.stats, metric, keep);
    const click = (key, _i, p) => onPoint?.({ algorithm: key, params: { [sw.param]: p.x } });
    return [{ kind: 'path', title: `${what} vs ${xLabel}`, xLabel, yLabel: what, series: lines, onPoint: click }];
  }
  const yLabel = paramLabel(sw.by.param);
  const keys = [...new Set(report.stats.filter((s) => s.metric === metric).map(keyOf))].filter(keep);
  return keys.map((key) => {
    const cells = gridCells(report, metric, key);
    return {
      kind: 'heatmap', title: `${labelOf(key)}: ${what} by ${xLabel} and ${yLabel}`, xLabel, yLabel, valueLabel: what, cells,
      onPoint: (_key, _i, cell) => onPoint?.(cell.config),
    };
  });
}

/** The charts of any report, by what it measured (a result file opened on the page).
 *  @param {Report} report @returns {ChartSpec[]} */
export function chartsOf(report) {
  const e = report.experiment;
  if (e.sweep?.by || (e.sweep && e.measure.kind === 'online')) return sweepCharts(report);
  if (e.measure.kind === 'offline') return offlineCharts(report);
  if (e.measure.kind === 'online') return onlineCharts(report);
  return [];
}

/** A frontier point's metrics (csc::experiment::frontier::FRONTIER_METRICS): realised cost (y),
 *  error rate (x), hit rate and average regret. */
/** @type {Record<string, MetricName>} */
const FRONTIER = { cost: 'final_avg_realised_cost', error: 'final_error_rate', hits: 'final_hit_rate', regret: 'final_avg_regret' };

/**
 * The points of a frontier report, family by family in the definition's order and each family's
 * points in its parameter order: `{ key, family, label, param, points: [{ value, point, stats }] }`,
 * `point` the experiment point (csc::experiment::ExperimentSpec::family_of), `stats` the
 * statistics of FRONTIER by name (null where not measured). Series keys are read from the units
 * (csc::experiment::Family::key), never rebuilt here.
 */
export function frontierFamilies(report) {
  const families = report.experiment.measure.families || [];
  const keyAt = new Map();
  for (const u of unitsOf(report) || []) if (u.observations.length) keyAt.set(u.unit.point, u.observations[0].algorithm);
  const out = [];
  let point = 0;
  for (const family of families) {
    const values = family.param ? family.values : [null];
    const pts = [];
    for (const value of values) {
      const key = keyAt.get(point);
      const x = value === null ? null : Number(value);
      const stat = (m) => report.stats.find((s) => s.algorithm === key && s.metric === m && s.x === x) || null;
      if (key !== undefined) pts.push({ value, point, stats: Object.fromEntries(Object.entries(FRONTIER).map(([k, m]) => [k, stat(m)])) });
      point += 1;
    }
    const key = pts.length ? keyAt.get(pts[0].point) : undefined;
    if (key !== undefined) out.push({ key, family, label: family.label ?? labelOf(family.policy), param: family.param ?? null, points: pts });
  }
  return out;
}

/** A statistic as `mean ± 95% half-width` at the precision the half-width supports (the engine's
 * `formatInterval`, as every headline table), the mean alone with `d` decimals when there is no
 * interval (one seed), or "—" when it was not measured (SPEC §14). */
export const fmtStat = (s, d = 4) => (s && s.mean != null ? (s.ci95 != null ? formatInterval(s.mean, s.ci95) : s.mean.toFixed(d)) : '—');

/** A frontier point's configuration: its family and parameter value (`Threshold, threshold_tau = 0.3`). */
export const frontierConfig = (fam, p) => `${fam.label}${fam.param ? `, ${fam.param} = ${p.value}` : ''}`;

/** @typedef {import('../pkg/csc.js').FrontierComparison} FrontierComparison */
/** @typedef {import('../pkg/csc.js').FrontierRow} FrontierRow */
/** @typedef {import('../pkg/csc.js').Interval} Interval */
/** @typedef {import('../pkg/csc.js').Paired} Paired */

/** An interval of the engine (csc::experiment::Interval, e.g. clipped to its quantity's range)
 *  in the engine's words (`formatBounds`: `mean ± half`, or the mean and `[lo, hi]` when
 *  asymmetric, at the half-width's precision; the mean alone for one seed), "—" when not measured. */
export const fmtInterval = (/** @type {Interval | null | undefined} */ i) => (i && i.mean != null
  ? nbsp(formatBounds(i.mean, i.lo, i.hi)) : '—');

/** Keeps a number and its interval on one line in a table cell. */
const nbsp = (text) => text.replaceAll(' ± ', '\u00a0±\u00a0').replaceAll(', ', ',\u00a0');

/** A paired difference (csc::experiment::paired::Paired) as `−0.0012 ± 0.0004: cheaper` (the
 *  engine's `formatDifference` and words), the words alone for the reference, "—" when not
 *  measured. */
export function fmtPaired(/** @type {Paired | null | undefined} */ d) {
  if (!d || d.mean == null) return '—';
  if (d.difference === 'reference') return d.words;
  return `${nbsp(formatDifference(d.mean, d.ci95))}: ${d.words}`;
}

/** A frontier point's configuration and metrics, in words (the chart's hover, the table's row):
 *  the engine's clipped intervals and, against the comparison's reference, its paired
 *  differences with the engine's words. */
export function frontierMeta(fam, p, /** @type {FrontierRow | undefined} */ row, /** @type {FrontierComparison | null | undefined} */ cmp) {
  const n = Math.max(0, ...Object.values(p.stats).map((s) => (s ? s.n : 0)));
  const m = row ? row.intervals.map((i) => fmtInterval(i)) : ['cost', 'error', 'hits', 'regret'].map((k) => fmtStat(p.stats[k]));
  const vs = row && cmp ? `; against ${cmp.reference_config}: realised cost ${fmtPaired(row.cost)}, error rate ${fmtPaired(row.error)}` : '';
  return `${frontierConfig(fam, p)} (${n} seed${n === 1 ? '' : 's'}): realised cost ${m[0]}, error rate ${m[1]}, hit rate ${m[2]}, average regret ${m[3]}${vs}`;
}

/**
 * The P-CHR chart (arXiv 2606.19719, "Closing the Calibration Gap in Semantic
 * Caching"): hit precision (y) against cache-hit ratio (x) per frontier family, as the engine
 * computes it (`report.pchr`, csc::experiment::pchr): points in parameter order joined for a swept
 * family, a single policy a point, 95% intervals both ways; the legend gives each family's AUC over
 * the common hit-ratio range in the engine's words, or "no AUC" (hover: the engine's note) where
 * the family does not span it; the caption says why the range is what it is (the engine's
 * `range_note`). `null`
 * without a P-CHR (another experiment, or no ground truth).
 */
export function pchrChart(report) {
  const p = report.pchr;
  if (!p) return null;
  const families = report.experiment.measure.families || [];
  const num = (v) => (v == null ? undefined : v);
  const series = p.families.map((fam, i) => {
    const family = families[i] || {};
    // The engine's words for its AUC (at its interval's precision, with the mean hit precision
    // over the range; "identical on every seed"; "no AUC"), none for a single policy.
    const auc = fam.words;
    return {
      key: fam.key, label: auc ? `${fam.name} (${auc})` : fam.name, ...styleFields(family.policy), ...(family.label ? { dash: [2, 3] } : {}),
      points: fam.points.filter((q) => q.hit_ratio.mean != null && q.precision.mean != null).map((q) => ({
        x: q.hit_ratio.mean, y: q.precision.mean, lo: num(q.precision.lo), hi: num(q.precision.hi), xlo: num(q.hit_ratio.lo), xhi: num(q.hit_ratio.hi),
        n: q.precision.n, value: q.x, point: q.point,
        meta: `${fam.name}${q.x == null ? '' : `, ${fam.param} = ${q.x}`}: hit ratio ${fmtInterval(q.hit_ratio)}, hit precision ${fmtInterval(q.precision)}${fam.note ? `; ${fam.note}` : ''}`,
      })),
    };
  }).filter((s) => s.points.length);
  return { kind: 'path', title: `P-CHR: hit precision vs cache-hit ratio (upper right is better); ${p.range_words}`, note: p.range_note ?? undefined, xLabel: 'cache-hit ratio (hits / requests)',
    zoomY: true, xRange: [0, 1], yRange: [0, 1], yLabel: 'hit precision (1 − wrong hits / hits)', series, empty: noTruthText(report) };
}

/** Colours and markers of the further families of one policy (its first keeps the engine's style). */
const FAMILY_VARIANTS = [{ colour: '#4d4d4d', marker: 'wye' }, { colour: '#7b4fa0', marker: 'times' }, { colour: '#a05a2c', marker: 'asterisk' }];
function sameFamilyVariant(seen, policy) {
  const n = seen.get(policy) || 0;
  seen.set(policy, n + 1);
  return n === 0 ? {} : FAMILY_VARIANTS[(n - 1) % FAMILY_VARIANTS.length];
}

/**
 * The frontier chart: error rate (x) against realised cost per round (y), one line per
 * family with its points joined in parameter order, 95% intervals both ways as the engine clips
 * them (`comparison`: the report's own, csc::experiment::frontier, or the one against the
 * reference the reader picked), axes zoomed to the data and kept inside the quantities' ranges,
 * the configuration and its paired differences on hover (`meta`) and `onPoint(seriesKey,
 * pointIndex)` on click. A chart spec of kind `path` (charts.js); without ground truth it is
 * empty, with "—" and the engine's reason.
 * @param {Report} report
 * @param {ChartSpec['onPoint']} [onPoint]
 * @param {FrontierComparison | null} [comparison]
 * @returns {ChartSpec}
 */
export function frontierChart(report, onPoint, comparison = report.frontier) {
  const rows = new Map((comparison?.rows || []).map((r) => [r.point, r]));
  const num = (v) => (v == null ? undefined : v);
  const seen = new Map(); // policy → families of it so far
  const series = frontierFamilies(report).map((fam) => ({
    key: fam.key, label: fam.label, ...styleFields(fam.family.policy), ...(fam.family.label ? { dash: [2, 3] } : {}),
    // A second or third family of the same policy (the threshold cache's LRU, GDSF and GPTCache
    // families) gets a colour and marker of its own, so no two families look alike.
    ...sameFamilyVariant(seen, fam.family.policy),
    points: fam.points.filter((p) => p.stats.cost && p.stats.error && p.stats.error.mean != null).map((p) => {
      const c = p.stats.cost, e = p.stats.error, row = rows.get(p.point);
      const [ci, ei] = row ? [row.intervals[0], row.intervals[1]] : [null, null];
      const band = ci && ei ? { lo: num(ci.lo), hi: num(ci.hi), xlo: num(ei.lo), xhi: num(ei.hi) }
        : { lo: c.mean - ciOf(c), hi: c.mean + ciOf(c), xlo: e.mean - ciOf(e), xhi: e.mean + ciOf(e) };
      return { x: e.mean, y: c.mean, ...band, n: c.n, meta: frontierMeta(fam, p, row, comparison), value: p.value, point: p.point };
    }),
  })).filter((s) => s.points.length);
  return { kind: 'path', title: 'Cost–correctness frontier: realised cost vs error rate (lower left is better)', xLabel: 'error rate (wrong hits / requests)',
    zoomY: true, xRange: [0, 1], yRange: [0, Infinity], yLabel: 'realised cost per round', series, onPoint, empty: noTruthText(report) };
}
