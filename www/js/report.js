// Reading an experiment report (csc::experiment::Report): statistics as chart series, and one
// colour per algorithm everywhere on the page.
// Results are keyed by algorithm id (`Stat.algorithm`, csc::algorithms); the display name and the
// chart style (colour, dash) come from the engine's list (`policies()`, `offlineAlgorithms()`) and
// are only drawn. Series that are not algorithms (geometry) keep their series names.
import { SERIES_COLOURS } from './charts.js';
import { policies, offlineAlgorithms } from '../pkg/csc.js';

/** The key of a stat: its algorithm's id, or its series name when it is not an algorithm
 * (`algorithm_id`: reports written when `algorithm` was the display name). */
export const keyOf = (s) => s.algorithm_id ?? s.algorithm;

let catalog = null;
/** The engine's entry for an algorithm id (undefined for a series that is not an algorithm). */
const infoOf = (key) => (catalog ??= new Map([...offlineAlgorithms(), ...policies()].map((a) => [a.id, a]))).get(key);

/** What a chart or table shows for a key: the algorithm's display name, else the key. */
export const labelOf = (key) => infoOf(key)?.name ?? key;

/** The engine's colour for an algorithm; any other series: by position. */
export function colourFor(key, i = 0) {
  return infoOf(key)?.style.colour ?? SERIES_COLOURS[i % SERIES_COLOURS.length];
}

/** The 95% half-width of a stat, drawn from 3 seeds up (with 2 its t-quantile, 12.7, swamps the figure). */
const ciOf = (s) => (s && s.ci95 != null && s.n >= 3 ? s.ci95 : 0);

/** Mean ± 95% interval of `metric` per algorithm, as chart series (x ascending); `keep(key)`. */
export function series(stats, metric, keep = () => true) {
  const by = new Map();
  for (const s of stats) {
    const key = keyOf(s);
    if (s.metric !== metric || s.x == null || s.mean == null || !keep(key)) continue;
    if (!by.has(key)) by.set(key, { label: labelOf(key), points: [] });
    const ci = ciOf(s);
    by.get(key).points.push({ x: s.x, y: s.mean, lo: s.mean - ci, hi: s.mean + ci, n: s.n });
  }
  return [...by].map(([key, { label, points }], i) => ({ key, label, colour: colourFor(key, i), dash: infoOf(key)?.style.dash, points: points.sort((a, b) => a.x - b.x) }));
}

/** The stat of `metric` for the algorithm `key` (its id) at the largest x. */
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
  return onlineKeys(stats).map((a, i) => {
    const r = final(stats, a, 'final_avg_regret'), t = final(stats, a, 'runtime_ms');
    return {
      key: a, label: labelOf(a), colour: colourFor(a, i),
      points: [{ x: t.mean, y: r.mean, lo: r.mean - ciOf(r), hi: r.mean + ciOf(r), xlo: t.mean - ciOf(t), xhi: t.mean + ciOf(t) }],
    };
  });
}

const PARAM_LABEL = { log_len: 'stream length n', epsilon: 'ε-net radius ε', k: 'cache size k' };

/** Why the report's dataset has no ground truth (SPEC §14), or undefined when it has one. */
export const noGroundTruth = (report) => report.units?.[0]?.dataset?.no_ground_truth;

/** What a correctness chart shows without ground truth: "—" and the engine's reason. */
const noTruthText = (report) => { const why = noGroundTruth(report); return why ? `— (${why})` : undefined; };

/** Charts of an offline report: gap (and loss) against the swept parameter. */
export function offlineCharts(report) {
  const param = report.experiment.sweep ? report.experiment.sweep.param : 'x';
  const x = PARAM_LABEL[param] || param;
  const logX = param === 'log_len';
  const charts = [{ title: `Suboptimality gap L(M̂) − L(M_orc) vs ${x}`, xLabel: x, yLabel: 'gap', logX, zeroLine: true,
    series: series(report.stats, 'gap', (a) => a !== 'oracle') }];
  if (param === 'k') charts.push({ title: `Loss L(M̂) vs ${x}`, xLabel: x, yLabel: 'loss L(M̂)', logX, series: series(report.stats, 'loss') });
  // SPEC §14: the offline error rate of M̂ on the evaluation sample; "—" and why without ground truth.
  charts.push({ title: `Error rate of M̂ on the evaluation sample vs ${x} (SPEC §14)`, xLabel: x, yLabel: 'wrong hits / requests', logX,
    series: series(report.stats, 'error_rate'), empty: noTruthText(report) });
  return charts;
}

/**
 * A policy's name with its final cache size when that is below k (mean over seeds), e.g.
 * "CLCB-Frozen-Cont (1 item)", so a policy that never filled its cache is not read as a k-item one
 * (csc::online::sim::sized_label).
 */
export function sizedLabel(report, key) {
  const s = final(report.stats, key, 'final_cache_size'), k = report.experiment.params.k;
  const name = labelOf(key);
  if (!s || s.mean == null || !(s.mean < k)) return name;
  const n = Number.isInteger(s.mean) ? String(s.mean) : s.mean.toFixed(1);
  return `${name} (${n} item${s.mean === 1 ? '' : 's'})`;
}
const sized = (report, list) => list.map((s) => ({ ...s, label: sizedLabel(report, s.key) }));

/** What a switch is, for chart titles and tooltips (docs/SPEC-NOTES.md). */
export const SWITCH_MEANING = 'a switch = a round whose cache set differs from the previous round\'s (the first fill and every insertion into a non-full cache count; a rebuild to the same set does not)';

/** Charts of an online report: average regret, switches and realised cost against rounds. */
export function onlineCharts(report, { efficiency = false } = {}) {
  const st = report.stats;
  const charts = [
    { title: 'Average regret R(t)/t = loss gap + switching cost', xLabel: 'round t', yLabel: 'R(t)/t', skipX: 0.05, series: sized(report, series(st, 'avg_regret')) },
    { title: 'Its loss gap Σ[L(M_s) − L(M_orc)]/t', xLabel: 'round t', yLabel: 'loss gap per round', skipX: 0.05, series: sized(report, series(st, 'avg_loss_gap')) },
    { title: 'Its switching cost Σ c(fetched)/t', xLabel: 'round t', yLabel: 'switching cost per round', skipX: 0.05, series: sized(report, series(st, 'avg_switch_cost')) },
    { title: 'Cache switches (rounds whose cache set changed; the first fill counts)', xLabel: 'round t', yLabel: 'switches', series: sized(report, series(st, 'switches')) },
    { title: 'Average realised cost per round', xLabel: 'round t', yLabel: 'cost per round', skipX: 0.05, series: sized(report, series(st, 'avg_realised_cost')) },
    // SPEC §14: cumulative wrong cache hits over requests; "—" and why without ground truth.
    { title: 'Error rate E(t): wrong cache hits over requests so far (SPEC §14)', xLabel: 'round t', yLabel: 'error rate', skipX: 0.05,
      series: sized(report, series(st, 'error_rate')), empty: noTruthText(report) },
  ];
  if (efficiency) charts.push(efficiencyChart(report));
  return charts;
}

export function efficiencyChart(report) {
  return { title: 'Runtime vs final average regret (lower left is better)', kind: 'scatter', logX: true, logY: true,
    xLabel: 'runtime (ms, this browser)', yLabel: 'final R(T)/T', series: sized(report, efficiencySeries(report.stats)) };
}

/** A frontier point's metrics (csc::experiment::frontier::FRONTIER_METRICS): realised cost (y),
 *  error rate (x), hit rate and average regret. */
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
  for (const u of report.units || []) if (u.observations.length) keyAt.set(u.unit.point, u.observations[0].algorithm);
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

/** A statistic as `mean ± 95% half-width` with `d` decimals, or "—" when it was not measured (SPEC §14). */
export const fmtStat = (s, d = 4) => (s && s.mean != null ? `${s.mean.toFixed(d)}${s.ci95 != null ? ` ± ${s.ci95.toFixed(d)}` : ''}` : '—');

/** A frontier point's configuration: its family and parameter value (`Threshold, threshold_tau = 0.3`). */
export const frontierConfig = (fam, p) => `${fam.label}${fam.param ? `, ${fam.param} = ${p.value}` : ''}`;

/** A frontier point's configuration and metrics, in words (the chart's hover, the table's row). */
export function frontierMeta(fam, p) {
  const n = Math.max(0, ...Object.values(p.stats).map((s) => (s ? s.n : 0)));
  return `${frontierConfig(fam, p)} (${n} seed${n === 1 ? '' : 's'}): realised cost ${fmtStat(p.stats.cost)}, error rate ${fmtStat(p.stats.error)}, hit rate ${fmtStat(p.stats.hits, 3)}, average regret ${fmtStat(p.stats.regret)}`;
}

/**
 * The frontier chart (issue 24): error rate (x) against realised cost per round (y), one line per
 * family with its points joined in parameter order, 95% intervals both ways, the configuration on
 * hover (`meta`) and `onPoint(seriesKey, pointIndex)` on click. A chart spec of kind `path`
 * (charts.js); without ground truth it is empty, with "—" and the engine's reason.
 */
export function frontierChart(report, onPoint) {
  const series = frontierFamilies(report).map((fam, i) => ({
    key: fam.key, label: fam.label, colour: colourFor(fam.family.policy, i), dash: fam.family.label ? [2, 3] : infoOf(fam.family.policy)?.style.dash,
    points: fam.points.filter((p) => p.stats.cost && p.stats.error && p.stats.error.mean != null).map((p) => {
      const c = p.stats.cost, e = p.stats.error;
      return { x: e.mean, y: c.mean, lo: c.mean - ciOf(c), hi: c.mean + ciOf(c), xlo: e.mean - ciOf(e), xhi: e.mean + ciOf(e), n: c.n, meta: frontierMeta(fam, p), value: p.value, point: p.point };
    }),
  })).filter((s) => s.points.length);
  return { kind: 'path', title: 'Cost–correctness frontier: realised cost vs error rate (lower left is better)', xLabel: 'error rate (wrong hits / requests, SPEC §14)',
    yLabel: 'realised cost per round', series, onPoint, empty: noTruthText(report) };
}
