// @ts-check
// The one chart module: experiment figures as SVG, drawn by Observable Plot (www/vendor/plot, a
// UMD build on www/vendor/d3 that index.html loads as the global `Plot`), from chart *specs* —
// the one interface between report.js (what to draw) and this module (how):
//   { title, xLabel, yLabel, kind: 'line' | 'scatter' | 'path' | 'heatmap', logX, logY,
//     integerX, skipX, xMin, xMax, radius, zeroLine, empty, valueLabel, onPoint,
//     series: [{ key, label, colour, dash, marker, points: [{ x, y, lo, hi, xlo, xhi, n, meta }] }],
//     refs: [{ y, x?, label, kind: 'paper' | 'reference' | 'no-cache' }],
//     cells: [{ x, y, value, lo, hi, n, meta }] }   (heatmap)
// 'line': each series sorted by x, with its 95% band; 'scatter': points with error bars both ways;
// 'path': points joined in the given order, error bars both ways, `meta` on hover;
// 'heatmap': cells coloured by value (viridis), the interval per cell on hover. `onPoint(key,
// index, datum)` is called on click or Enter on a point (path: the series key; heatmap: null).
// The figure's axes include every band and bar and reference line; its legend hides and shows a
// series (click, Enter, Space), and a line chart's series far above all the others (outliers,
// chart-scales.js) starts hidden, named with its last value in a note under the legend, so it
// does not flatten the rest; a crosshair readout gives every series' value at the pointer or at
// the x reached with the arrow keys; a log-y switch appears where the values span decades.
// Styles: an algorithm's colour, marker and dash come from the engine's list through the spec
// (report.js); any other series takes an Okabe–Ito colour, marker and dash by position, so every
// figure reads for colour-blind readers and in greyscale print. What a chart draws is kept on its
// element as `chartData` (exports, tests). The pure parts (domains, ticks, captions, summaries)
// need no DOM and are unit-tested (tests/charts/). The live view keeps its canvas (fitCanvas).
//
// The files: this module draws (Plot marks, legend, heatmap, the standalone SVG of a figure);
// chart-scales.js holds the pure parts, re-exported here; chart-crosshair.js the readout and
// keyboard; chart-svg.js the element helpers.

/**
 * The chart spec above, as types (report.js builds them, `drawChart` draws them).
 * @typedef {{ x: number, y: number, lo?: number, hi?: number, xlo?: number, xhi?: number, n?: number, meta?: string, value?: number | null, point?: number }} ChartPoint
 *   (`value`, `point`: a frontier point's parameter value and experiment point, report.js frontierChart)
 * @typedef {{ key?: string, label: string, colour?: string, dash?: number[], marker?: string, points: ChartPoint[] }} ChartSeries
 * @typedef {{ y: number, x?: number, label: string, kind: string }} ChartRef `kind`: 'paper', 'reference' (M_orc) or 'no-cache'
 * @typedef {{ x: number | string, y: number | string, value: number, lo?: number, hi?: number, n?: number, meta?: string }} ChartCell
 * @typedef {object} ChartSpec
 * @property {string} title
 * @property {string} [xLabel]
 * @property {string} [yLabel]
 * @property {'line' | 'scatter' | 'path' | 'heatmap'} [kind]
 * @property {boolean} [logX]
 * @property {boolean} [logY]
 * @property {boolean} [integerX]
 * @property {number} [skipX]
 * @property {number} [xMin]
 * @property {number} [xMax]
 * @property {number} [radius]
 * @property {boolean} [zeroLine]
 * @property {boolean} [zoomY] a linear y axis zoomed to the data rather than from 0 (the frontier)
 * @property {[number, number]} [xRange] the range x can take: the padded x axis stays inside it
 * @property {[number, number]} [yRange] the range y can take: the padded linear y axis stays inside it
 * @property {string} [empty]
 * @property {boolean} [noBands] lines of means without intervals (a measured time): the caption says so
 * @property {string} [note] a sentence the caption carries after what the chart plots (P-CHR: why
 *   the AUC's range is what it is)
 * @property {string} [valueLabel]
 * @property {(key: string | null, index: number, datum: any) => void} [onPoint] `datum`: the point or cell
 * @property {ChartSeries[]} [series]
 * @property {ChartRef[]} [refs]
 * @property {ChartCell[]} [cells]
 */

import { band, domains, drawnPoints, finite, hiOf, loOf, integerTicks, logTicks, num, outlierNote, outliers, styleOf, summarise, captionText, wrap } from './chart-scales.js';
import { crosshair } from './chart-crosshair.js';
import { placeLabels } from './chart-labels.js';
import { htmlEl, svgEl, SVGNS } from './chart-svg.js';

export * from './chart-scales.js';
export * from './chart-labels.js';


/** d3 symbols for the engine's marker names d3 lacks (d3's own: circle, square, diamond, star, …). */
function customSymbol(name) {
  const poly = (pts) => ({ draw(ctx, size) { const r = Math.sqrt(size) * 0.62; pts.forEach(([a, b], j) => (j ? ctx.lineTo(a * r, b * r) : ctx.moveTo(a * r, b * r))); ctx.closePath(); } });
  if (name === 'triangle-down') return poly([[0, 1.15], [1, -0.58], [-1, -0.58]]);
  const ring = (n, turn) => poly([...Array(n).keys()].map((k) => [Math.sin((2 * Math.PI * k) / n + turn), -Math.cos((2 * Math.PI * k) / n + turn)]));
  if (name === 'pentagon') return ring(5, 0);
  if (name === 'hexagon') return ring(6, Math.PI / 6); // d3 has none; Plot's own is not a d3 symbol the legend can draw
  return null;
}
/** Plot's symbol for an engine marker name. */
export function plotSymbol(marker) {
  return customSymbol(marker) ?? ({ 'triangle-up': 'triangle', cross: 'times' }[marker] || marker || 'circle');
}
/** Symbols drawn as strokes only (Plot's own rule: they have no area to fill). */
const STROKED = new Set(['plus', 'times', 'asterisk', 'wye']);

/** A small legend swatch: the series' dash and marker in its colour (also used by the export). */
export function swatch(style, kind, w = 26, h = 14) {
  const s = svgEl('svg', { width: w, height: h, viewBox: `0 0 ${w} ${h}`, 'aria-hidden': 'true', class: 'swatch' });
  const lineOnly = style.marker === 'none'; // a fitted line or a reference shape: a line, no marker
  if (kind !== 'scatter' || lineOnly) s.append(svgEl('line', { x1: 1, x2: w - 1, y1: h / 2, y2: h / 2, stroke: style.colour, 'stroke-width': 2.5, 'stroke-dasharray': style.dash.length ? style.dash.join(' ') : null }));
  if (lineOnly) return s;
  const path = svgEl('path', { transform: `translate(${w / 2},${h / 2})` });
  const sym = plotSymbol(style.marker);
  const ctx = pathContext();
  const d3sym = typeof sym === 'string' ? globalThis.d3?.[`symbol${sym[0].toUpperCase()}${sym.slice(1)}`] : sym;
  (d3sym || { draw(c) { c.moveTo(3, 0); c.arc?.(0, 0, 3, 0, 2 * Math.PI); } }).draw(ctx, 36);
  path.setAttribute('d', ctx.d);
  if (STROKED.has(sym)) { path.setAttribute('stroke', style.colour); path.setAttribute('stroke-width', 1.5); path.setAttribute('fill', 'none'); } else path.setAttribute('fill', style.colour);
  s.append(path);
  return s;
}
/** A minimal path context (moveTo, lineTo, closePath, arc) for d3 symbols. */
function pathContext() {
  let d = '';
  return {
    get d() { return d; },
    moveTo(x, y) { d += `M${x},${y}`; },
    lineTo(x, y) { d += `L${x},${y}`; },
    closePath() { d += 'Z'; },
    rect(x, y, w, h) { d += `M${x},${y}h${w}v${h}h${-w}Z`; },
    arc(x, y, r) { d += `M${x + r},${y}A${r},${r},0,1,1,${x - r},${y}A${r},${r},0,1,1,${x + r},${y}`; },
  };
}

/**
 * Plot appends <style> elements, which the page's CSP forbids (css/style.css holds their rules),
 * and writes no style attribute unless asked (a clone of one would be refused too); the font
 * size is an attribute.
 */
const stripStyles = (node) => {
  for (const s of node.querySelectorAll('style')) s.remove();
  node.setAttribute('font-size', 11);
  // Plot names each mark's <g> with aria-label, which ARIA forbids on a group without a role (and
  // the figure is one image, named by summarise): kept as data-mark, for tests and inspection.
  for (const g of node.querySelectorAll('[aria-label]')) { g.dataset.mark = g.getAttribute('aria-label'); g.removeAttribute('aria-label'); }
  return node;
};

/**
 * Draws `spec` into `host` (a `.chart` element): the title, a log-y switch where it applies, the
 * legend, the SVG figure, the crosshair readout and the caption (`opts.caption`), with `opts.tools`
 * (e.g. download buttons) at the end of its head. Keeps what it drew as `host.chartData` and the
 * state a reader set (hidden series, log y) across redraws.
 * @param {any} host the `.chart` element, which keeps the drawing's state as its own properties
 * @param {ChartSpec} spec
 * @param {{ caption?: string, height?: number, tools?: Node }} [opts]
 */
export function drawChart(host, spec, opts = {}) {
  const Plot = globalThis.Plot;
  host.chartData = { title: spec.title || '', kind: spec.kind || 'line', xLabel: spec.xLabel, yLabel: spec.yLabel, valueLabel: spec.valueLabel, series: spec.series || [], cells: spec.cells, refs: spec.refs || [] };
  host.chartSpec = spec;
  host.caption = opts.caption || '';
  // The reader's legend choices (key → shown) outlast redraws; a series far above the others
  // (outliers) is hidden until the reader shows it. `hiddenKeys`: what this drawing leaves out.
  host.legendChoice ??= new Map();
  const keyOf = (s) => s.key ?? s.label;
  const sig = `${spec.title}|${(spec.series || []).map(keyOf).join(',')}`;
  if (host.chartSig !== sig) { host.chartSig = sig; host.legendChoice = new Map(); host.logYChoice = undefined; }
  const choice = host.legendChoice;
  const heat = spec.kind === 'heatmap';
  const logY = heat ? false : host.logYChoice ?? !!spec.logY;
  const aside = heat ? [] : outliers(spec, { hidden: new Set([...choice].filter(([, on]) => !on).map(([k]) => k)), logY });
  const asideKeys = new Set(aside.map((o) => o.key));
  const hidden = new Set((spec.series || []).map(keyOf).filter((k) => (choice.has(k) ? !choice.get(k) : asideKeys.has(k))));
  host.hiddenKeys = hidden;
  const shownAgain = new Set([...asideKeys].filter((k) => !hidden.has(k)));
  host.outlierNote = outlierNote(spec, aside, shownAgain, { exported: true });
  const dom0 = heat ? null : domains(spec, { hidden });
  const titleId = `${host.id || (host.id = `chart-${Math.random().toString(36).slice(2, 9)}`)}-title`;
  const head = htmlEl('div', { className: 'chart-head' });
  head.append(htmlEl('h2', { className: 'chart-title', id: titleId }, spec.title || ''));
  if (!heat && (dom0.decades || spec.logY)) {
    const lab = htmlEl('label', { className: 'check chart-logy' });
    const box = htmlEl('input', { type: 'checkbox', checked: logY });
    box.addEventListener('change', () => { host.logYChoice = box.checked; drawChart(host, spec, opts); host.querySelector('.chart-logy input')?.focus(); });
    lab.append(box, ' log y');
    head.append(lab);
  }
  host.setAttribute('aria-labelledby', titleId);
  const parts = [head];
  const series = (spec.series || []).map((s, i) => ({ ...s, style: styleOf(s, i) }));
  if (!heat && series.length) parts.push(legend(series, hidden, spec.kind, (key) => {
    choice.set(key, hidden.has(key));
    drawChart(host, spec, opts);
    host.querySelector(`.chart-legend button[data-key="${CSS.escape(key)}"]`)?.focus();
  }));
  if (aside.length) parts.push(htmlEl('p', { className: 'chart-note' }, outlierNote(spec, aside, shownAgain)));
  // The plot's CSS width is the figure's content width (so the SVG is drawn at 1:1, never scaled).
  const cs = host.clientWidth ? getComputedStyle(host) : null;
  const inner = cs ? host.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) : 480;
  const width = Math.max(240, Math.floor(inner));
  // Tall enough for the y axis's label, which Plot centres on the frame and cannot wrap
  // (P-CHR's "hit precision (1 − wrong hits / hits) →" is longer than 200 px).
  const yLabelRoom = !heat && spec.yLabel ? Math.ceil(textWidth(`${spec.yLabel} →`, cs?.fontFamily || 'sans-serif')) + 2 * MARGIN.bottom - 2 * MARGIN.top + 8 : 0;
  const height = opts.height || Math.max(yLabelRoom, Math.round(Math.min(300, Math.max(200, width * 0.62))));
  const readout = htmlEl('p', { className: 'chart-readout' });
  readout.setAttribute('aria-live', 'polite');
  // A redraw (a resize, new units of a running job) keeps the keyboard where the reader left it: a
  // focused plot is focused again after it, on the same point or cell.
  const before = /** @type {HTMLElement | null} */ (host.querySelector('.chart-plot'));
  const refocus = before && before === document.activeElement ? Number(before.dataset.cursor ?? -1) : null;
  let showAt = null;
  const hasData = heat ? (spec.cells || []).some((c) => finite(c.value)) : series.some((s) => drawnPoints(spec, s).length);
  let fig = null;
  if (!hasData || !Plot) {
    parts.push(htmlEl('p', { className: 'chart-empty' }, !Plot ? 'The chart library did not load.' : spec.empty || 'No data yet'));
  } else {
    const built = heat ? heatmap(Plot, spec, width, height) : plotXY(Plot, spec, series.filter((s) => !hidden.has(keyOf(s))), { width, height, logY, fontFamily: cs?.fontFamily || 'sans-serif' });
    fig = stripStyles(built.svg);
    fig.classList.add('chart-plot');
    fig.setAttribute('role', 'img');
    fig.setAttribute('tabindex', '0');
    fig.setAttribute('aria-label', summarise(spec));
    if (built.ramp) parts.push(stripStyles(built.ramp));
    parts.push(fig);
    showAt = crosshair(fig, spec, built, readout);
    readout.textContent = heat ? 'Point at a cell, or focus the chart and use the arrow keys.' : 'Point at the chart, or focus it and use ← →, for every series\' value.';
  }
  parts.push(readout);
  const cap = htmlEl('figcaption', { className: 'chart-caption' }, host.caption);
  cap.hidden = !host.caption;
  parts.push(cap);
  host.replaceChildren(...parts);
  if (opts.tools) host.querySelector('.chart-head').append(opts.tools);
  if (refocus !== null && fig) {
    fig.focus();
    if (refocus >= 0 && showAt) showAt(refocus);
  }
}

/** The legend: one toggle button per series (aria-pressed: shown). */
function legend(series, hidden, kind, toggle) {
  const box = htmlEl('div', { className: 'chart-legend' });
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', 'Series (click to hide or show)');
  for (const s of series) {
    const key = s.key ?? s.label;
    const b = htmlEl('button', { type: 'button', className: 'legend-item' });
    b.dataset.key = key;
    b.setAttribute('aria-pressed', String(!hidden.has(key)));
    b.title = `${hidden.has(key) ? 'Show' : 'Hide'} ${s.label}`;
    b.append(swatch(s.style, kind), htmlEl('span', {}, s.label));
    b.addEventListener('click', () => toggle(key));
    box.append(b);
  }
  return box;
}

/**
 * Line, scatter and path charts. Returns { svg, points: [{ key, label, i, p, colour }] }.
 * @param {any} Plot @param {ChartSpec} spec @param {any[]} series
 * @param {{ width: number, height: number, logY: boolean, fontFamily: string, room?: { top: number | null, bottom: number | null } }} size
 *   `room`: a higher top or a lower bottom of the y axis, for a reference label (placeRefLabels)
 */
function plotXY(Plot, spec, series, { width, height, logY, fontFamily, room }) {
  const kind = spec.kind || 'line';
  const shownSpec = { ...spec, series };
  const dom = domains(shownSpec, { logY });
  if (room && finite(room.top) && room.top > dom.y[1]) dom.y[1] = room.top;
  if (room && finite(room.bottom) && room.bottom < dom.y[0]) dom.y[0] = room.bottom;
  const [y0] = dom.y, [x0] = dom.x;
  const clampY = (v) => (logY ? Math.max(v, y0) : v), clampX = (v) => (spec.logX ? Math.max(v, x0) : v);
  const marks = [];
  const pointsOut = [];
  for (const s of series) {
    const pts = drawnPoints(spec, s);
    const st = s.style, dash = st.dash.length ? st.dash.join(',') : undefined;
    const sym = plotSymbol(st.marker), stroked = STROKED.has(sym);
    pts.forEach((p) => pointsOut.push({ key: s.key ?? s.label, label: s.label, i: s.points.indexOf(p), p, colour: st.colour }));
    const withBand = pts.filter((p) => loOf(p) !== hiOf(p));
    // Marker 'none' (a fitted line, a reference shape): a line in any kind of chart, never dots
    // (drawn as dots on a scatter, a fit's 40 points hid the seeds' own).
    if (st.marker === 'none') {
      if (pts.length > 1) marks.push(Plot.line(pts, { x: 'x', y: 'y', stroke: st.colour, strokeWidth: 1.8, strokeDasharray: dash }));
      continue;
    }
    if (kind === 'line') {
      if (withBand.length > 1) marks.push(Plot.areaY(withBand, { x: 'x', y1: (p) => clampY(loOf(p)), y2: (p) => clampY(hiOf(p)), fill: st.colour, fillOpacity: series.length > 3 ? 0.1 : 0.16 }));
      marks.push(Plot.line(pts, { x: 'x', y: 'y', stroke: st.colour, strokeWidth: 2, strokeDasharray: dash }));
      // Markers every few points, so the series stay apart in greyscale print.
      const every = Math.max(1, Math.ceil(pts.length / 8));
      marks.push(Plot.dot(pts.filter((_, j) => j % every === 0 || j === pts.length - 1), { x: 'x', y: 'y', symbol: sym, r: 3.5, ...(stroked ? { stroke: st.colour } : { fill: st.colour, stroke: 'white', strokeWidth: 0.8 }) }));
    } else {
      marks.push(Plot.ruleX(withBand, { x: 'x', y1: (p) => clampY(loOf(p)), y2: (p) => clampY(hiOf(p)), stroke: st.colour, strokeWidth: 1.5 }));
      const xb = pts.filter((p) => finite(p.xlo) && finite(p.xhi) && p.xhi > p.xlo);
      marks.push(Plot.ruleY(xb, { y: 'y', x1: (p) => clampX(p.xlo), x2: (p) => clampX(p.xhi), stroke: st.colour, strokeWidth: 1.5 }));
      if (kind === 'path' && pts.length > 1) marks.push(Plot.line(pts, { x: 'x', y: 'y', stroke: st.colour, strokeWidth: 1.8, strokeDasharray: dash }));
      marks.push(Plot.dot(pts, { x: 'x', y: 'y', symbol: sym, r: spec.radius || 5, ...(stroked ? { stroke: st.colour, strokeWidth: 2 } : { fill: st.colour, stroke: 'white', strokeWidth: 1 }) }));
    }
  }
  if (spec.zeroLine && !logY) marks.push(Plot.ruleY([0], { stroke: '#4b5563', strokeDasharray: '4,3' }));
  // Reference marks: a line across the frame, or a diamond at a point (often at the last x, drawn
  // unclipped); their labels are placed after the plot, where they cross no data (placeRefLabels).
  for (const r of spec.refs || []) {
    if (!finite(r.y) || (logY && r.y <= 0)) continue;
    if (finite(r.x)) marks.push(Plot.dot([r], { x: 'x', y: 'y', r: 7, stroke: '#000', strokeWidth: 1.8, symbol: 'diamond', fill: 'none', clip: false }));
    else marks.push(Plot.ruleY([r.y], { stroke: '#000', strokeDasharray: r.kind === 'no-cache' ? '6,2,1,2' : '3,3', strokeWidth: 1.2 }));
  }
  const xTicks = spec.integerX ? integerTicks(dom.x[0], dom.x[1], Math.max(2, Math.floor(width / 60))) : spec.logX ? logTicks(dom.x[0], dom.x[1]) : undefined;
  const yTicks = logY ? logTicks(dom.y[0], dom.y[1]) : undefined;
  const svg = Plot.plot({
    width, height, className: 'csc-plot', marginLeft: MARGIN.left, marginBottom: MARGIN.bottom, marginTop: MARGIN.top, marginRight: MARGIN.right,
    x: { type: spec.logX ? 'log' : 'linear', domain: dom.x, label: spec.xLabel, labelAnchor: 'center', labelOffset: 34, ticks: xTicks, tickFormat: spec.integerX ? 'd' : spec.logX ? '~g' : undefined, grid: true },
    y: { type: logY ? 'log' : 'linear', domain: dom.y, label: spec.yLabel, labelAnchor: 'center', labelOffset: 48, ticks: yTicks, tickFormat: logY ? '~g' : undefined, grid: true },
    clip: true,
    marks,
  });
  const more = placeRefLabels(svg, spec, series, { width, height, logY, fontFamily });
  // A line's label that covers a series or another label wherever it goes beside its line: the
  // y axis is raised (a line in its upper half) or lowered (lower half) once, so that the label
  // fits between its line and the frame (SPEC-NOTES, "Reference labels").
  if (more && !room) return plotXY(Plot, spec, series, { width, height, logY, fontFamily, room: more });
  return { svg, points: pointsOut, xs: [...new Set(pointsOut.map((q) => q.p.x))].sort((a, b) => a - b) };
}

/** The plot's margins (plotXY): the frame is [left, width − right] × [top, height − bottom]. */
const MARGIN = { left: 58, right: 16, top: 14, bottom: 40 };
/** The reference labels' font size and line height, in pixels. */
const REF_FONT = 11, REF_LINE = 13;
let measurer = null;
/** A text's width in pixels at the reference labels' font. */
function textWidth(text, fontFamily) {
  measurer ??= document.createElement('canvas').getContext('2d');
  measurer.font = `${REF_FONT}px ${fontFamily}`;
  return measurer.measureText(text).width;
}

/**
 * Draws the reference labels of a plotted figure where they cross no series (chart-labels.js,
 * placeLabels): each label measured (wrapped to the frame's width when wider), the drawn data
 * projected through the figure's own scales — lines, markers, error bars, bands, the reference
 * lines and diamonds — and each label written in its box, inside the frame, as one
 * `<g data-mark="ref-label">` whose texts carry the box they were given (data-box) and its cost
 * (data-hits). Returns a y axis top or bottom that would give a line's label covering a series
 * or a label a place between its line and the frame's edge ({ top, bottom }), or null.
 */
function placeRefLabels(svg, spec, series, { width, height, logY, fontFamily }) {
  const refs = (spec.refs || []).filter((r) => r.label && finite(r.y) && !(logY && r.y <= 0));
  if (!refs.length || typeof svg.scale !== 'function') return null;
  const sx = svg.scale('x'), sy = svg.scale('y');
  const [y0] = sy.domain, [x0] = sx.domain;
  const X = (v) => sx.apply(spec.logX ? Math.max(v, x0) : v), Y = (v) => sy.apply(logY ? Math.max(v, y0) : v);
  const frame = { x0: MARGIN.left, x1: width - MARGIN.right, y0: MARGIN.top, y1: height - MARGIN.bottom };
  const kind = spec.kind || 'line';
  /** @type {import('./chart-labels.js').Obstacles & { points: import('./chart-labels.js').Pt[], bands: [number, number, number][][], rules: import('./chart-labels.js').Pt[][] }} */
  const data = { lines: [], points: [], bands: [], rules: [] };
  const { lines, points, bands } = data;
  for (const s of series) {
    const pts = drawnPoints(spec, s);
    if (kind === 'line' || s.style.marker === 'none' || kind === 'path') lines.push(pts.map((p) => [X(p.x), Y(p.y)]));
    if (s.style.marker === 'none') continue;
    if (kind === 'line') {
      const withBand = pts.filter((p) => loOf(p) !== hiOf(p));
      if (withBand.length > 1) bands.push(withBand.map((p) => [X(p.x), Y(loOf(p)), Y(hiOf(p))]));
    } else {
      for (const p of pts) {
        points.push([X(p.x), Y(p.y)]);
        if (loOf(p) !== hiOf(p)) lines.push([[X(p.x), Y(loOf(p))], [X(p.x), Y(hiOf(p))]]);
        if (finite(p.xlo) && finite(p.xhi)) lines.push([[X(p.xlo), Y(p.y)], [X(p.xhi), Y(p.y)]]);
      }
    }
  }
  if (spec.zeroLine && !logY) data.rules.push([[frame.x0, Y(0)], [frame.x1, Y(0)]]);
  const { rules } = data;
  for (const r of refs) {
    if (finite(r.x)) { const [px, py] = [X(r.x), Y(r.y)]; rules.push([[px - 7, py], [px, py - 7], [px + 7, py], [px, py + 7], [px - 7, py]]); }
    else rules.push([[frame.x0, Y(r.y)], [frame.x1, Y(r.y)]]);
  }
  const room = frame.x1 - frame.x0 - 8;
  const texts = refs.map((r) => {
    let out = [r.label];
    for (let chars = Math.floor(room / 5); chars > 8 && out.some((t) => textWidth(t, fontFamily) > room); chars -= 4) out = wrap(r.label, chars);
    return out;
  });
  const wants = refs.map((r, i) => {
    const w = Math.max(...texts[i].map((t) => textWidth(t, fontFamily))) + 2, h = texts[i].length * REF_LINE;
    return finite(r.x) ? { at: 'point', x: X(r.x), y: Y(r.y), w, h } : { at: 'rule', y: Y(r.y), w, h };
  });
  const boxes = placeLabels(wants, { ...data, radius: kind === 'line' ? 3.5 : spec.radius || 5 }, frame);
  const g = svgEl('g', { 'data-mark': 'ref-label', 'font-size': REF_FONT, fill: '#000', stroke: 'white', 'stroke-width': 3, 'paint-order': 'stroke', 'text-anchor': 'start' });
  // Each label on white (masking a reference line it may cross), then its text with a halo.
  boxes.forEach((b) => g.append(svgEl('rect', { x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0, fill: 'white', 'fill-opacity': 0.85, stroke: 'none' })));
  boxes.forEach((b, i) => texts[i].forEach((line, j) => {
    const t = svgEl('text', { x: b.x0 + 1, y: b.y0 + REF_LINE * j + 10, 'data-box': [b.x0, b.y0, b.x1, b.y1].map((v) => v.toFixed(1)).join(' '), 'data-hits': b.hits });
    t.textContent = line;
    g.append(t);
  }));
  svg.append(g);
  // Each line whose label covers a series or a label: the y axis top (a line in the upper half)
  // or bottom (lower half) that puts the label's full height and its gap between that line and
  // the frame's edge, so that it has a place there.
  const [ya, yb] = sy.domain, H = frame.y1 - frame.y0;
  const f = (v) => (logY ? Math.log10(v) : v), inv = (v) => (logY ? 10 ** v : v);
  let top = null, bottom = null;
  // The outermost line on that side gets the room, so that each line's label can sit on its own
  // side of the lines near it (fig-c's 0 and 0.0083: the oracle's below, the paper's above).
  const levels = refs.filter((r, i) => wants[i].at === 'rule' && r.y >= ya && r.y <= yb).map((r) => f(r.y));
  const mid = (f(ya) + f(yb)) / 2;
  boxes.forEach((b, i) => {
    if (b.hits < 100 || wants[i].at !== 'rule' || !(refs[i].y >= ya && refs[i].y <= yb)) return;
    const q = Math.min(0.5, (b.y1 - b.y0 + 4) / H), upper = f(refs[i].y) > mid;
    const r = upper ? Math.max(...levels.filter((v) => v > mid)) : Math.min(...levels.filter((v) => v <= mid));
    if (upper) {
      // Never past the range the quantity can take (a rate's 1).
      const want = Math.min(inv((r - f(ya) * q) / (1 - q)), spec.yRange ? spec.yRange[1] : Infinity);
      if (want > yb && (top == null || want > top)) top = want;
    } else {
      const want = Math.max(inv((r - f(yb) * q) / (1 - q)), spec.yRange ? spec.yRange[0] : -Infinity);
      if (want < ya && (bottom == null || want < bottom)) bottom = want;
    }
  });
  return top == null && bottom == null ? null : { top, bottom };
}

/** A heatmap: band scales over the cells' x and y values, viridis colour, a colour ramp. */
function heatmap(Plot, spec, width, height) {
  const cells = (spec.cells || []).filter((c) => finite(c.value));
  const uniq = (k) => [...new Set(cells.map((c) => c[k]))].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))));
  const xd = uniq('x'), yd = uniq('y');
  const vals = cells.map((c) => c.value);
  const colour = { type: 'linear', scheme: 'viridis', domain: [Math.min(...vals), Math.max(...vals)], label: spec.valueLabel || 'value' };
  const marks = [Plot.cell(cells, { x: 'x', y: 'y', fill: 'value', inset: 0.5 })];
  if (cells.length <= 64) marks.push(Plot.text(cells, { x: 'x', y: 'y', text: (c) => num(c.value), fill: (c) => (c.value > (colour.domain[0] + colour.domain[1]) / 2 ? 'black' : 'white'), fontSize: 11 }));
  // Room for the longest y label (category labels can be long), at most a third of the width.
  const left = Math.round(Math.min(width / 3, 30 + 6.4 * Math.max(...yd.map((v) => String(v).length))));
  const svg = Plot.plot({
    width, height, className: 'csc-plot', marginLeft: left, marginBottom: 42, marginTop: 10,
    x: { type: 'band', domain: xd, label: spec.xLabel, labelAnchor: 'center', labelOffset: 34 },
    y: { type: 'band', domain: yd, label: spec.yLabel, labelAnchor: 'center', labelOffset: left - 12, reverse: true },
    color: colour,
    marks,
  });
  const ramp = Plot.legend({ color: colour, className: 'csc-plot', width: Math.min(320, width - 20), label: spec.valueLabel || 'value' });
  ramp.classList.add('chart-ramp');
  return { svg, ramp, cells };
}


// ---------------------------------------------------------------------------------------------
// The figure as one standalone SVG: title, legend, plot (and colour ramp), caption — text as text.


/**
 * The figure of a drawn chart element as a standalone SVG element (for SVG and PNG export): its
 * width is the plot's CSS width; the series shown (hidden ones left out) are in the legend; the
 * data drawn is kept as JSON in <metadata> and the text alternative in <desc>.
 */
export function figureSvg(host) {
  const plot = host.querySelector('svg.chart-plot');
  if (!plot) return null;
  const spec = host.chartSpec, W = +plot.getAttribute('width'), H = +plot.getAttribute('height');
  const root = svgEl('svg', { xmlns: SVGNS, width: W, height: 0, 'font-family': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', 'font-size': 11, color: '#1a1d23' });
  root.append(svgEl('rect', { x: 0, y: 0, width: W, height: '100%', fill: 'white' }));
  const title = svgEl('title');
  title.textContent = spec.title || '';
  const desc = svgEl('desc');
  desc.textContent = summarise(spec);
  const meta = svgEl('metadata');
  const shown = (host.chartData.series || []).filter((s) => !host.hiddenKeys.has(s.key ?? s.label));
  meta.textContent = JSON.stringify({ title: spec.title, kind: spec.kind || 'line', xLabel: spec.xLabel, yLabel: spec.yLabel, series: shown.map((s) => ({ key: s.key, label: s.label, points: s.points })), cells: spec.cells, refs: spec.refs });
  root.append(title, desc, meta);
  let y = 8;
  for (const line of wrap(spec.title || '', Math.floor(W / 7.4))) {
    y += 16;
    const t = svgEl('text', { x: 8, y, 'font-size': 13, 'font-weight': 600, fill: '#1a1d23' });
    t.textContent = line;
    root.append(t);
  }
  y += 6;
  // The legend, flowed in rows.
  let lx = 8, row = y;
  const items = (spec.series || []).map((s, i) => ({ s, style: styleOf(s, i) })).filter(({ s }) => !host.hiddenKeys.has(s.key ?? s.label));
  if (spec.kind !== 'heatmap' && items.length) {
    for (const { s, style } of items) {
      const w = 44 + s.label.length * 6.6;
      if (lx + w > W - 8 && lx > 8) { lx = 8; row += 18; }
      const g = svgEl('g', { transform: `translate(${lx},${row})` });
      const sw = swatch(style, spec.kind);
      g.append(sw);
      const t = svgEl('text', { x: 30, y: 11, fill: '#1f2937' });
      t.textContent = s.label;
      g.append(t);
      root.append(g);
      lx += w;
    }
    y = row + 22;
  }
  const ramp = host.querySelector('svg.chart-ramp');
  if (ramp) {
    const r = ramp.cloneNode(true);
    // Plot paints the ramp's gradient as a bitmap: the export draws it as vector bands instead.
    for (const img of r.querySelectorAll('image')) {
      const [x, y0, w, h] = ['x', 'y', 'width', 'height'].map((a) => Number(img.getAttribute(a)) || 0);
      const g = svgEl('g');
      for (let i = 0; i < 64; i++) g.append(svgEl('rect', { x: x + (w * i) / 64, y: y0, width: w / 64 + 0.3, height: h, fill: globalThis.d3.interpolateViridis((i + 0.5) / 64) }));
      img.replaceWith(g);
    }
    r.setAttribute('x', 8); r.setAttribute('y', y);
    root.append(r);
    y += +ramp.getAttribute('height') + 4;
  }
  const p = plot.cloneNode(true);
  p.querySelector('.crosshair')?.remove();
  for (const a of ['tabindex', 'role', 'class', 'aria-label', 'data-cursor']) p.removeAttribute(a);
  p.setAttribute('x', 0); p.setAttribute('y', y);
  root.append(p);
  y += H + 6;
  for (const line of wrap(`${host.outlierNote ? `${host.outlierNote} ` : ''}${host.caption || captionText(spec)}`, Math.floor(W / 5.9))) {
    y += 14;
    const t = svgEl('text', { x: 8, y, 'font-size': 10.5, fill: '#374151' });
    t.textContent = line;
    root.append(t);
  }
  y += 10;
  root.setAttribute('height', y);
  root.setAttribute('viewBox', `0 0 ${W} ${y}`);
  return root;
}

