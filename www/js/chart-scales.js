// @ts-check
// The pure half of the chart module (charts.js draws): styles by position, axis domains and
// ticks, and the text a figure says (summaries, captions, word wrap). No DOM: unit-tested in node
// (tests/charts/).

/** @typedef {import('./charts.js').ChartSpec} ChartSpec */
/** @typedef {import('./charts.js').ChartSeries} ChartSeries */

/** Okabe–Ito colours for series that are not algorithms, by position (yellow last: faint on white). */
export const FALLBACK_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const FALLBACK_MARKERS = ['circle', 'square', 'triangle-up', 'diamond', 'triangle-down', 'plus', 'hexagon', 'star'];
const FALLBACK_DASHES = [[], [6, 3], [2, 2], [8, 3, 2, 3], [10, 4], [4, 2, 1, 2], [1, 3], [12, 3, 3, 3]];

export function fitCanvas(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
  const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  return dpr;
}

/** A series' style: its own (the engine's, for an algorithm), else the fallback at position i. */
export function styleOf(series, i) {
  return {
    colour: series.colour || FALLBACK_COLOURS[i % FALLBACK_COLOURS.length],
    marker: series.marker || FALLBACK_MARKERS[i % FALLBACK_MARKERS.length],
    dash: series.dash || FALLBACK_DASHES[i % FALLBACK_DASHES.length],
  };
}

// ---------------------------------------------------------------------------------------------
// Pure logic: domains, ticks, text.

export const finite = Number.isFinite;
export const loOf = (p) => (finite(p.lo) ? p.lo : p.y);
export const hiOf = (p) => (finite(p.hi) ? p.hi : p.y);

/** The first x drawn: `skipX` of a line chart's x range is left out (a running mean's first rounds). */
export function skipCut(spec) {
  if (spec.kind && spec.kind !== 'line') return -Infinity;
  if (!spec.skipX) return -Infinity;
  const xs = (spec.series || []).flatMap((s) => s.points.map((p) => p.x)).filter(finite);
  if (!xs.length) return -Infinity;
  const x0 = Math.min(...xs), x1 = Math.max(...xs);
  return x0 + (x1 - x0) * spec.skipX;
}

/** The points of a series that are drawn: finite, from the skip cut on (line: sorted by x). */
export function drawnPoints(spec, s) {
  const cut = skipCut(spec);
  const pts = s.points.filter((p) => finite(p.x) && finite(p.y) && p.x >= cut);
  return !spec.kind || spec.kind === 'line' ? [...pts].sort((a, b) => a.x - b.x) : pts;
}

/** Whether the positive values span two decades or more (then a log-y switch is offered). */
export function spansDecades(values) {
  const pos = values.filter((v) => finite(v) && v > 0);
  return pos.length > 1 && Math.max(...pos) / Math.min(...pos) >= 100;
}

/**
 * The axes' domains of a (non-heatmap) chart: every drawn point with its band and bars, and every
 * reference value, of the series not `hidden`; a linear y axis includes 0, a log axis only the
 * positive values (`zoomY`: only the data's); `xRange`/`yRange` bound the padded axes. Returns
 * { x: [x0, x1], y: [y0, y1], decades } (decades: spansDecades of y).
 */
export function domains(spec, { hidden = new Set(), logY = !!spec.logY } = {}) {
  const logX = !!spec.logX;
  const shown = (spec.series || []).filter((s) => !hidden.has(s.key ?? s.label));
  const xs = [], ys = [];
  for (const s of shown) {
    for (const p of drawnPoints(spec, s)) {
      xs.push(p.x, p.xlo, p.xhi);
      ys.push(p.y, loOf(p), hiOf(p));
    }
  }
  for (const r of spec.refs || []) { if (finite(r.y)) ys.push(r.y); if (finite(r.x)) xs.push(r.x); }
  if (spec.zeroLine) ys.push(0);
  const keepX = xs.filter((v) => finite(v) && (!logX || v > 0));
  const keepY = ys.filter((v) => finite(v) && (!logY || v > 0));
  const decades = spansDecades(ys);
  let x0 = spec.xMin ?? (keepX.length ? Math.min(...keepX) : logX ? 1 : 0);
  let x1 = spec.xMax ?? (keepX.length ? Math.max(...keepX) : logX ? 10 : 1);
  let y0 = keepY.length ? Math.min(...keepY) : logY ? 1 : 0;
  let y1 = keepY.length ? Math.max(...keepY) : logY ? 10 : 1;
  if (x1 <= x0) { if (logX) { x0 /= 2; x1 = x0 * 4 || 1; } else { x0 -= 1; x1 += 1; } }
  const padX = spec.kind === 'scatter' || spec.kind === 'path';
  if (padX && spec.xMin == null && spec.xMax == null) {
    if (logX) { x0 /= 1.4; x1 *= 1.4; } else { const px = (x1 - x0) * 0.06; x0 -= px; x1 += px; }
  }
  if (logY) {
    if (y1 <= y0) { y0 /= 2; y1 = y0 * 4; }
    y0 /= 1.25; y1 *= 1.25;
  } else {
    if (!spec.zoomY) y0 = Math.min(0, y0);
    if (y1 <= y0) y1 = y0 + (spec.zoomY ? Math.abs(y0) * 0.1 || 1 : 1);
    const py = (y1 - y0) * 0.05;
    y1 += py;
    if (y0 < 0 || spec.zoomY) y0 -= py;
    if (spec.yRange) { y0 = Math.max(y0, spec.yRange[0]); y1 = Math.min(y1, spec.yRange[1]); }
  }
  if (spec.xRange && !logX) { x0 = Math.max(x0, spec.xRange[0]); x1 = Math.min(x1, spec.xRange[1]); }
  return { x: [x0, x1], y: [y0, y1], decades };
}

/** Integer ticks in [lo, hi], at most about `count` of them, on a 1-2-5 step (an integer parameter: k). */
export function integerTicks(lo, hi, count = 8) {
  const a = Math.ceil(lo), b = Math.floor(hi);
  if (!(finite(a) && finite(b)) || b < a) return [];
  let step = 1;
  for (let mag = 1; ; mag *= 10) {
    const s = [1, 2, 5].map((m) => m * mag).find((v) => (b - a) / v <= Math.max(1, count));
    if (s) { step = s; break; }
  }
  const ticks = [];
  for (let v = Math.ceil(a / step) * step; v <= b; v += step) ticks.push(v);
  return ticks;
}

/** Log ticks: 1, 2, 5 of each decade in [lo, hi] (none when lo is not positive). */
export function logTicks(lo, hi) {
  const ticks = [];
  if (!(lo > 0 && hi >= lo && finite(hi))) return ticks;
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) { const v = +(m * 10 ** e).toPrecision(12); if (v >= lo * 0.999 && v <= hi * 1.001) ticks.push(v); }
  }
  return ticks;
}

/** A number for a readout or summary: 3 significant digits, whole numbers from 100 up. */
export const num = (v) => (finite(v) ? (Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(3)).toString()) : '–');
export const band = (p) => (finite(p.lo) && finite(p.hi) && p.hi > p.lo ? ` [${num(p.lo)}, ${num(p.hi)}]` : '');

/**
 * A chart's text alternative: its title, its axes, and where each series ends (the last point,
 * with its 95% interval when drawn); a heatmap: its range of values and its lowest cell.
 */
export function summarise(spec) {
  const axes = spec.xLabel || spec.yLabel ? ` ${spec.yLabel || 'y'} against ${spec.xLabel || 'x'}.` : '';
  if (spec.kind === 'heatmap') {
    const cells = (spec.cells || []).filter((c) => finite(c.value));
    if (!cells.length) return `${spec.title}.${axes} No data yet.`;
    const low = cells.reduce((a, c) => (c.value < a.value ? c : a)), high = cells.reduce((a, c) => (c.value > a.value ? c : a));
    return `${spec.title}.${axes} ${spec.valueLabel || 'value'} of ${cells.length} cells from ${num(low.value)} (at ${low.x}, ${low.y}) to ${num(high.value)} (at ${high.x}, ${high.y}).`;
  }
  const parts = (spec.series || []).filter((s) => s.points && s.points.length).map((s) => {
    const p = s.points[s.points.length - 1];
    return `${s.label}: ${num(p.y)}${band(p)} at ${num(p.x)}`;
  });
  return `${spec.title}.${axes}${parts.length ? ` Last points: ${parts.join('; ')}.` : ' No data yet.'}`;
}

/**
 * The caption of a figure for an author: what it shows, what ran (the engine's description of the
 * resolved configuration: dataset, T or the sweep, parameters, policies), the seeds, and what the
 * bands and bars are. `run`: { id, title, description, seeds, firstSeed, engine, interval } (report.js runOf).
 */
export function captionText(spec, run = {}) {
  const what = spec.kind === 'heatmap' ? `${spec.valueLabel || 'value'} over ${spec.xLabel} × ${spec.yLabel}`
    : `${spec.yLabel || 'y'} against ${spec.xLabel || 'x'}${spec.logX ? ' (log x)' : ''}`;
  const names = (spec.series || []).map((s) => s.label).filter(Boolean);
  const ran = run.description ? ` ${run.id ? `Experiment ${run.id}${run.title ? ` (${run.title})` : ''}: ` : ''}${run.description}.` : '';
  // The seeds, unless the description names them already (csc::experiment::describe does).
  const seeds = run.seeds && !/\bseeds?\b/.test(run.description || '') ? ` ${run.seeds} seed${run.seeds === 1 ? '' : 's'}${finite(run.firstSeed) ? ` from seed ${run.firstSeed}` : ''}.` : '';
  const shade = spec.kind === 'heatmap' ? 'Cells: the mean over seeds; hover: ' : spec.kind === 'line' || !spec.kind ? 'Lines: the mean over seeds; bands: ' : 'Points: the mean over seeds; bars: ';
  // What the bands and bars are: the engine's words (`intervalWords()`, csc::experiment::INTERVAL),
  // which the caller passes in `run.interval` (report.js runOf).
  const interval = spec.noBands ? ' Lines: the mean over seeds, without bands (a time measured on one machine under its load, not an estimate with an interval).'
    : run.interval ? ` ${shade}${run.interval} (shown from 3 seeds up).` : '';
  const refs = (spec.refs || []).map((r) => r.label).filter(Boolean);
  const marks = refs.length ? ` Reference marks: ${refs.join('; ')}.` : '';
  const engine = run.engine ? ` ${run.engine}.` : ''; // the report's engine, 'csc <version>'
  const note = spec.note ? ` ${spec.note}` : '';
  return `${spec.title}: ${what}${names.length ? `, for ${names.join(', ')}` : ''}.${note}${ran}${seeds}${interval}${marks}${engine}`;
}

/** Greedy word wrap at about `chars` characters a line. */
export function wrap(text, chars) {
  const lines = [];
  let line = '';
  for (const w of String(text).split(/\s+/).filter(Boolean)) {
    if (line && (line + ' ' + w).length > chars) { lines.push(line); line = w; } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}

/** How much of the y axis the other series may fill at most for a series above them all to be
 *  set aside (outliers): half. */
export const OUTLIER_SHARE = 1 / 2;

/**
 * The series of a line chart that lie far above the bulk of the others (docs/SPEC-NOTES.md,
 * "A series far above the others"): the fewest series m, taken from the top (by their
 * highest drawn value, band included), whose lowest drawn value is above the highest of every
 * series left, and without which the y axis (domains: bands, reference marks and 0 included)
 * would be at most OUTLIER_SHARE as tall; at least two series, and more than half of them, stay. None on a log y
 * axis (it shows decades apart), nor in a scatter, path or heatmap (each point is read against
 * all the others). `hidden`: series the reader hid, which count for neither side. Returns
 * [{ key, label, x, y }], highest first, with the series' last drawn point, for the note that
 * names it.
 * @param {ChartSpec} spec
 * @param {{ hidden?: Set<string>, logY?: boolean }} [opts]
 */
export function outliers(spec, { hidden = new Set(), logY = !!spec.logY } = {}) {
  if ((spec.kind && spec.kind !== 'line') || logY) return [];
  const keyOf = (s) => s.key ?? s.label;
  const drawn = (spec.series || []).filter((s) => !hidden.has(keyOf(s))).map((s) => ({ s, pts: drawnPoints(spec, s) })).filter((d) => d.pts.length);
  const low = (d) => Math.min(...d.pts.map(loOf)), high = (d) => Math.max(...d.pts.map(hiOf));
  const byTop = [...drawn].sort((a, b) => high(b) - high(a));
  const span = (d) => d.y[1] - d.y[0];
  const all = span(domains(spec, { hidden, logY: false }));
  for (let m = 1; drawn.length - m >= 2 && drawn.length - m > drawn.length / 2; m++) {
    const top = byTop.slice(0, m), rest = byTop.slice(m);
    // A fitted line or a reference shape (marker 'none') is drawn to be read against the data.
    if (top.some((d) => d.s.marker === 'none')) return [];
    if (!(Math.min(...top.map(low)) > Math.max(...rest.map(high)))) continue;
    const aside = new Set([...hidden, ...top.map((d) => keyOf(d.s))]);
    if (span(domains(spec, { hidden: aside, logY: false })) <= OUTLIER_SHARE * all) {
      return top.map(({ s, pts }) => ({ key: keyOf(s), label: s.label, x: pts[pts.length - 1].x, y: pts[pts.length - 1].y }));
    }
  }
  return [];
}

/** A number as the page writes an x value: whole numbers with thousands separators (1,500), else num. */
const xWords = (v) => (Number.isInteger(v) ? v.toLocaleString('en-US') : num(v));

/**
 * The note under a chart's legend naming the series `outliers` set aside: its last value and
 * where, and how to show it ("Epsilon-Greedy (R(t)/t 0.533 at round t = 1,500) is off this
 * scale, far above the others: show it from the legend."). `shown`: the keys of those the reader
 * showed again, named as far above the others instead. `exported`: the words of a figure's
 * export, which has no legend to click. Empty when there are none.
 * @param {ChartSpec} spec
 * @param {{ key: string, label: string, x: number, y: number }[]} list
 * @param {Set<string>} [shown]
 * @param {{ exported?: boolean }} [opts]
 */
export function outlierNote(spec, list, shown = new Set(), { exported = false } = {}) {
  const at = (o) => `${o.label} (${spec.yLabel || 'y'} ${num(o.y)} at ${spec.xLabel || 'x'} = ${xWords(o.x)})`;
  const names = (l) => (l.length < 3 ? l.join(' and ') : `${l.slice(0, -1).join(', ')} and ${l.at(-1)}`);
  const off = list.filter((o) => !shown.has(o.key)).map(at), on = list.filter((o) => shown.has(o.key)).map(at);
  const parts = [];
  const one = off.length === 1;
  if (off.length && exported) parts.push(`${names(off)} ${one ? 'is' : 'are'} left out of this figure: far above the others, off its scale.`);
  else if (off.length) parts.push(`${names(off)} ${one ? 'is' : 'are'} off this scale, far above the others: show ${one ? 'it' : 'them'} from the legend.`);
  if (on.length && exported) parts.push(`${names(on)} ${on.length === 1 ? 'lies' : 'lie'} far above the others.`);
  else if (on.length) parts.push(`${names(on)} ${on.length === 1 ? 'lies' : 'lie'} far above the others: hide ${on.length === 1 ? 'it' : 'them'} from the legend to read them.`);
  return parts.join(' ');
}
