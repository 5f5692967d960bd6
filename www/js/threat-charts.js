// @ts-check
// The threats view's figures and tables (views/threats.js) from the engine's reading of a
// `tenants` or `attack` report (`threatFindings`, csc::experiment::report::threat_findings): its
// intervals, clipped to each quantity's range, its paired differences and its words, only drawn.
import { formatDifference } from '../pkg/csc.js';
import { fmtInterval, fmtPaired, labelOf, noGroundTruth, styleFields } from './report.js';

/** @typedef {import('../pkg/csc.js').ThreatFindings} ThreatFindings */
/** @typedef {import('../pkg/csc.js').Interval} Interval */
/** @typedef {import('./charts.js').ChartSpec} ChartSpec */
/** @typedef {import('./charts.js').ChartPoint} ChartPoint */

/** The isolation settings' names and what each means, in the report's order. */
export const ISOLATIONS = [
  ['shared', 'shared: one cache, any entry serves any tenant'],
  ['partitioned', 'partitioned: a cache per tenant, k split between them'],
  ['tagged', 'tagged: one cache of k, a tenant served only by entries it founded'],
];

/** An interval's bounds for a chart point: none (no bar) for one seed. */
const bounds = (/** @type {Interval} */ i, axis = '') => (i.lo != null && i.hi != null ? { [`${axis}lo`]: i.lo, [`${axis}hi`]: i.hi } : {});

/**
 * The tenants figures: each policy's cross-tenant hit share against its realised cost, a point per
 * isolation setting shown (joined shared → partitioned → tagged), and the price of isolation (each
 * policy's cost under partitioned or tagged minus under shared, paired over seeds) against its
 * cost under shared, a series per isolation setting, 0 marked.
 * @param {ThreatFindings} f @param {string[]} shown the isolation settings drawn
 * @returns {ChartSpec[]}
 */
export function tenantsCharts(f, shown) {
  const rows = f.tenants.filter((r) => shown.includes(r.isolation));
  const byPolicy = new Map();
  for (const r of rows) {
    if (!r.cost || r.cost.mean == null || !r.cross_share || r.cross_share.mean == null) continue;
    if (!byPolicy.has(r.policy)) byPolicy.set(r.policy, []);
    byPolicy.get(r.policy).push({ x: r.cost.mean, y: r.cross_share.mean, ...bounds(r.cost, 'x'), ...bounds(r.cross_share), n: r.cost.n,
      meta: `${r.label}: realised cost ${fmtInterval(r.cost)}, cross-tenant hit share ${fmtInterval(r.cross_share)}` });
  }
  /** @type {ChartSpec} */
  const share = {
    kind: 'path', title: 'Cross-tenant hit share against realised cost, per policy and isolation',
    xLabel: 'realised cost per request', yLabel: 'cross-tenant hit share', yRange: /** @type {[number, number]} */ ([0, 1]),
    note: 'Each line joins one policy\'s isolation settings (shared, partitioned, tagged, those shown); a setting whose runs served no hit has no share and no point.',
    series: [...byPolicy].map(([key, points]) => ({ key, label: labelOf(key), ...styleFields(key), points })),
    empty: 'No policy served a hit under the settings shown.',
  };
  /** @type {ChartSpec} */
  const price = {
    kind: 'scatter', title: 'Price of isolation: realised cost minus shared\'s, paired over seeds', zeroLine: true,
    xLabel: 'realised cost per request under shared', yLabel: 'cost − shared\'s (per request)',
    series: ['partitioned', 'tagged'].filter((iso) => shown.includes(iso)).map((iso) => ({
      key: iso, label: iso,
      points: f.tenants.filter((r) => r.isolation === iso && r.price && r.price.mean != null).map((r) => {
        const base = f.tenants.find((s) => s.policy === r.policy && s.isolation === 'shared');
        const d = r.price, half = d.ci95 ?? null;
        return { x: base?.cost?.mean ?? NaN, y: d.mean, ...(half != null ? { lo: d.mean - half, hi: d.mean + half } : {}), ...(base?.cost ? bounds(base.cost, 'x') : {}), n: d.n,
          meta: `${r.label}: ${formatDifference(d.mean, d.ci95)} a request against shared (${d.words})` };
      }).filter((p) => Number.isFinite(p.x)),
    })),
    empty: 'Pick partitioned or tagged to see what isolating costs.',
  };
  return [share, price];
}

/** The attack's metrics drawn against p: the finding's field, the axis, and the range. */
const ATTACK = /** @type {const} */ ([
  ['error_rate', 'error rate (wrong hits over requests)'],
  ['hit_precision', 'hit precision (right hits over hits)'],
  ['wrong_per_1000', 'wrong hits per 1,000 requests'],
  ['attack_share', 'share of rounds attacked'],
  ['confusable_serves', 'confusable serves (wrong hits within d)'],
]);

/**
 * The attack figures: each metric against the attack probability p, a line per policy with its
 * clipped 95% band; vCache's δ marked on the error rate.
 * @param {ThreatFindings} f @returns {ChartSpec[]}
 */
export function attackCharts(f) {
  const delta = f.delta[0]?.delta;
  return ATTACK.map(([field, what]) => {
    const byPolicy = new Map();
    for (const a of f.attack) {
      const i = a[field];
      if (!i || i.mean == null) continue;
      if (!byPolicy.has(a.policy)) byPolicy.set(a.policy, []);
      byPolicy.get(a.policy).push({ x: a.p, y: i.mean, ...bounds(i), n: i.n, meta: `${labelOf(a.policy)} at p = ${a.p}: ${what} ${fmtInterval(i)}` });
    }
    /** @type {ChartSpec} */
    const spec = {
      kind: 'line', title: `Under attack: ${what} by attack probability p`, xLabel: 'attack probability p', yLabel: what,
      ...(field === 'error_rate' || field === 'hit_precision' || field === 'attack_share' ? { yRange: /** @type {[number, number]} */ ([0, 1]) } : {}),
      series: [...byPolicy].map(([key, points]) => ({ key, label: labelOf(key), ...styleFields(key), points: points.sort((a, b) => a.x - b.x) })),
      refs: field === 'error_rate' && delta != null ? [{ y: delta, label: `vCache's δ = ${delta}`, kind: 'reference' }] : [],
      empty: 'Not measured: the data have no gold answers.',
    };
    return spec;
  });
}

/** A table cell's text for an interval. */
const cell = (i) => fmtInterval(i);

/**
 * The tenants table: every policy under every isolation setting shown, with realised cost, error
 * rate, hit rate, cross-tenant hit share and the price of isolation in the engine's words.
 * @param {HTMLTableElement} table @param {ThreatFindings} f @param {string[]} shown @param {any} report
 */
export function fillTenantsTable(table, f, shown, report) {
  table.replaceChildren();
  const why = noGroundTruth(report);
  table.createCaption().textContent = `Each policy under each isolation setting: mean over seeds with its 95% interval (clipped to the quantity's range), and the price of isolation against shared, paired over seeds${why ? `; error rate — (${why})` : ''}`;
  const heads = ['policy (isolation)', 'realised cost', 'error rate', 'hit rate', 'cross-tenant hit share', 'price of isolation vs shared'];
  const head = table.createTHead().insertRow();
  for (const h of heads) head.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: h }));
  const body = table.createTBody();
  for (const r of f.tenants.filter((x) => shown.includes(x.isolation))) {
    const tr = body.insertRow();
    tr.dataset.policy = r.policy;
    tr.dataset.isolation = r.isolation;
    tr.append(Object.assign(document.createElement('th'), { scope: 'row', textContent: r.label }));
    const price = r.isolation === 'shared' ? 'the reference' : fmtPaired(r.price);
    const texts = [cell(r.cost), why ? '—' : cell(r.error_rate), cell(r.hit_rate), cell(r.cross_share), price];
    texts.forEach((t, i) => {
      const td = Object.assign(tr.insertCell(), { textContent: t });
      td.setAttribute('data-label', heads[i + 1]);
      if (i === 4) td.className = `paired ${r.price?.difference ?? ''}`;
    });
  }
}

/**
 * The attack table: every policy at every p with error rate, hit precision, wrong hits per 1,000,
 * realised cost, the share attacked and confusable serves.
 * @param {HTMLTableElement} table @param {ThreatFindings} f
 */
export function fillAttackTable(table, f) {
  table.replaceChildren();
  table.createCaption().textContent = 'Each policy attacked on its own cache at each p: mean over seeds with its 95% interval (clipped to the quantity\'s range)';
  const heads = ['policy', 'p', 'error rate', 'hit precision', 'wrong per 1,000', 'realised cost', 'attacked share', 'confusable serves'];
  const head = table.createTHead().insertRow();
  for (const h of heads) head.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: h }));
  const body = table.createTBody();
  for (const a of f.attack) {
    const tr = body.insertRow();
    tr.dataset.policy = a.policy;
    tr.dataset.p = String(a.p);
    tr.append(Object.assign(document.createElement('th'), { scope: 'row', textContent: labelOf(a.policy) }));
    [String(a.p), cell(a.error_rate), cell(a.hit_precision), cell(a.wrong_per_1000), cell(a.cost), cell(a.attack_share), cell(a.confusable_serves)].forEach((t, i) => {
      Object.assign(tr.insertCell(), { textContent: t }).setAttribute('data-label', heads[i + 1]);
    });
  }
}
