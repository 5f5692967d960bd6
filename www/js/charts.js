// Compact hand-written canvas charts: lines with a confidence band, or points with error bars;
// linear or log x; ticks, axis labels and a legend drawn into the canvas (so a PNG export is the
// whole figure). What a chart draws is kept on the canvas as `canvas.chartData` (for export and
// for the end-to-end test, which checks it against the JSON export).

export const SERIES_COLOURS = ['#1f6fd1', '#dc2626', '#7c3aed', '#059669', '#d97706', '#db2777', '#0891b2', '#65a30d', '#6b7280', '#92400e'];

/** Line dashes by series index, so coinciding lines stay distinguishable (and not by colour alone). */
const DASHES = [[], [7, 4], [2, 3], [10, 3, 2, 3], [5, 5], [1, 4], [12, 4], [3, 3, 8, 3], [6, 2], [9, 3, 3, 3]];
const dashOf = (i) => DASHES[i % DASHES.length];

export function fitCanvas(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
  const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  return dpr;
}

const fmtTick = (v) => (Math.abs(v) >= 1e4 ? `${+(v / 1000).toPrecision(6)}k`
  : v !== 0 && Math.abs(v) < 1e-3 ? v.toExponential(0) : String(+v.toPrecision(6)));

function linearTicks(lo, hi, count) {
  const span = hi - lo || 1;
  const step0 = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= step0);
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9 && ticks.length < 1000; v += step) ticks.push(+v.toPrecision(12));
  return ticks;
}

function logTicks(lo, hi) {
  const ticks = [];
  if (!(lo > 0 && hi >= lo && Number.isFinite(hi))) return ticks; // no decades to mark (and no endless loop)
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) { const v = m * 10 ** e; if (v >= lo * 0.999 && v <= hi * 1.001) ticks.push(v); }
  }
  return ticks;
}

/**
 * opts: { series: [{ label, points: [{ x, y, lo?, hi? }] }], kind: 'line' | 'scatter', title,
 *         xLabel, yLabel, logX, logY, xMin, xMax, zeroLine }.
 */
export function drawChart(canvas, opts) {
  canvas.chartData = { title: opts.title || '', xLabel: opts.xLabel, yLabel: opts.yLabel, series: opts.series };
  const dpr = fitCanvas(canvas);
  const ctx = canvas.getContext('2d');
  const W = canvas.width / dpr, H = canvas.height / dpr;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  const all = opts.series.flatMap((s) => s.points).filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  ctx.font = '12px system-ui, sans-serif';
  const legend = layoutLegend(ctx, opts.series, W - 16);
  const m = { l: 58, r: 16, t: (opts.title ? 26 : 8) + legend.height, b: 42 };
  const pw = Math.max(10, W - m.l - m.r), ph = Math.max(10, H - m.t - m.b);
  if (opts.title) {
    ctx.fillStyle = '#1a1d23'; ctx.textAlign = 'left'; ctx.textBaseline = 'top';
    ctx.font = '600 13px system-ui, sans-serif';
    ctx.fillText(opts.title, 8, 6);
    ctx.font = '12px system-ui, sans-serif';
  }
  if (!all.length) {
    ctx.fillStyle = '#6b7280'; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    ctx.fillText(opts.empty || 'No data yet', W / 2, H / 2);
    return;
  }
  const lo = (p) => (Number.isFinite(p.lo) ? p.lo : p.y), hi = (p) => (Number.isFinite(p.hi) ? p.hi : p.y);
  let x0 = opts.xMin ?? Math.min(...all.map((p) => p.x)), x1 = opts.xMax ?? Math.max(...all.map((p) => p.x));
  // The y range follows the means (bands are clipped: with few seeds a 95% interval is wide),
  // skipping the first `skipX` of the x range (a running average is noisy in its first rounds).
  const yPts = all.filter((p) => !opts.skipX || p.x >= x0 + (x1 - x0) * opts.skipX);
  const ys = (yPts.length ? yPts : all).map((p) => p.y);
  let y0 = Math.min(...ys), y1 = Math.max(...ys);
  if (!opts.logY) { y0 = Math.min(0, y0); }
  // A log axis starts at the smallest positive value (a run too short to time reads 0 ms).
  if (opts.logX && !(x0 > 0)) { const pos = all.map((p) => p.x).filter((x) => x > 0); x0 = pos.length ? Math.min(...pos) : 1e-3; }
  if (x1 <= x0) { x1 = x0 + 1; if (!opts.logX) x0 -= 1; }
  if (opts.kind === 'scatter') {
    if (opts.logX) { x0 /= 1.4; x1 *= 1.4; } else { const px = (x1 - x0) * 0.06; x0 -= px; x1 += px; }
  }
  if (opts.logY) { y0 = Math.max(y0, 1e-9) * 0.8; y1 = Math.max(y1, y0 * 1.5) * 1.25; } else { y1 = y1 > y0 ? y1 + (y1 - y0) * 0.08 : y0 + 1; }
  const tx = opts.logX ? Math.log10 : (v) => v, ty = opts.logY ? Math.log10 : (v) => v;
  const X = (x) => m.l + ((tx(x) - tx(x0)) / (tx(x1) - tx(x0) || 1)) * pw;
  const Y = (y) => m.t + ph - ((ty(y) - ty(y0)) / (ty(y1) - ty(y0) || 1)) * ph;
  // Grid, ticks.
  ctx.strokeStyle = '#e5e7eb'; ctx.fillStyle = '#374151'; ctx.lineWidth = 1;
  ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
  for (const v of opts.logY ? logTicks(y0, y1) : linearTicks(y0, y1, Math.max(2, Math.floor(ph / 50)))) {
    ctx.beginPath(); ctx.moveTo(m.l, Y(v)); ctx.lineTo(m.l + pw, Y(v)); ctx.stroke();
    ctx.fillText(fmtTick(v), m.l - 6, Y(v));
  }
  ctx.textAlign = 'center'; ctx.textBaseline = 'top';
  const xt = opts.logX ? logTicks(x0, x1) : linearTicks(x0, x1, Math.max(2, Math.floor(pw / 70)));
  for (const v of xt) {
    ctx.beginPath(); ctx.moveTo(X(v), m.t); ctx.lineTo(X(v), m.t + ph); ctx.stroke();
    ctx.fillText(fmtTick(v), X(v), m.t + ph + 5);
  }
  ctx.strokeStyle = '#4b5563';
  ctx.beginPath(); ctx.moveTo(m.l, m.t); ctx.lineTo(m.l, m.t + ph); ctx.lineTo(m.l + pw, m.t + ph); ctx.stroke();
  if (opts.zeroLine && y0 < 0 && y1 > 0) {
    ctx.setLineDash([4, 3]); ctx.beginPath(); ctx.moveTo(m.l, Y(0)); ctx.lineTo(m.l + pw, Y(0)); ctx.stroke(); ctx.setLineDash([]);
  }
  if (opts.xLabel) ctx.fillText(opts.xLabel, m.l + pw / 2, H - 17);
  if (opts.yLabel) {
    ctx.save(); ctx.translate(13, m.t + ph / 2); ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle'; ctx.fillText(opts.yLabel, 0, 0); ctx.restore();
  }
  ctx.save();
  ctx.beginPath(); ctx.rect(m.l, m.t, pw, ph); ctx.clip();
  opts.series.forEach((s, i) => {
    const colour = s.colour || SERIES_COLOURS[i % SERIES_COLOURS.length];
    const pts = s.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)).sort((a, b) => a.x - b.x);
    if (opts.kind === 'scatter') {
      ctx.strokeStyle = colour; ctx.fillStyle = colour; ctx.lineWidth = 1.5;
      // Error bars; on a log axis a bar reaching zero or below runs to the axis.
      const cx = (v) => (opts.logX ? Math.max(v, x0) : v), cy = (v) => (opts.logY ? Math.max(v, y0) : v);
      for (const p of pts) {
        if (lo(p) !== hi(p)) { ctx.beginPath(); ctx.moveTo(X(p.x), Y(cy(lo(p)))); ctx.lineTo(X(p.x), Y(hi(p))); ctx.stroke(); }
        if (Number.isFinite(p.xlo)) { ctx.beginPath(); ctx.moveTo(X(cx(p.xlo)), Y(p.y)); ctx.lineTo(X(p.xhi), Y(p.y)); ctx.stroke(); }
        ctx.beginPath(); ctx.arc(X(p.x), Y(p.y), opts.radius || 5, 0, 2 * Math.PI); ctx.fill();
      }
      return;
    }
    const band = pts.filter((p) => lo(p) !== hi(p));
    if (band.length > 1) {
      ctx.globalAlpha = opts.series.length > 3 ? 0.08 : 0.14; ctx.fillStyle = colour; ctx.beginPath();
      band.forEach((p, j) => (j ? ctx.lineTo(X(p.x), Y(hi(p))) : ctx.moveTo(X(p.x), Y(hi(p)))));
      for (let j = band.length - 1; j >= 0; j--) ctx.lineTo(X(band[j].x), Y(lo(band[j])));
      ctx.closePath(); ctx.fill(); ctx.globalAlpha = 1;
    }
    ctx.strokeStyle = colour; ctx.lineWidth = 2; ctx.setLineDash(s.dash ?? dashOf(i)); ctx.beginPath();
    pts.forEach((p, j) => (j ? ctx.lineTo(X(p.x), Y(p.y)) : ctx.moveTo(X(p.x), Y(p.y))));
    ctx.stroke(); ctx.setLineDash([]);
    if (pts.length <= 12) { ctx.fillStyle = colour; for (const p of pts) { ctx.beginPath(); ctx.arc(X(p.x), Y(p.y), 3, 0, 2 * Math.PI); ctx.fill(); } }
  });
  ctx.restore();
  drawLegend(ctx, opts.series, legend, opts.title ? 26 : 8, opts.kind);
}

/** Legend items laid out in rows above the plot (so they never hide a line). */
function layoutLegend(ctx, series, width) {
  const items = [];
  let x = 8, row = 0;
  for (const s of series) {
    const w = Math.min(width, ctx.measureText(s.label).width + 34);
    if (x + w > width && x > 8) { x = 8; row += 1; }
    items.push({ x, row });
    x += w;
  }
  return { items, height: series.length ? (row + 1) * 17 + 4 : 0 };
}

function drawLegend(ctx, series, legend, top, kind) {
  ctx.textAlign = 'left'; ctx.textBaseline = 'middle';
  series.forEach((s, i) => {
    const { x, row } = legend.items[i];
    const y = top + 8 + row * 17;
    ctx.strokeStyle = s.colour || SERIES_COLOURS[i % SERIES_COLOURS.length];
    ctx.lineWidth = 3; ctx.setLineDash(kind === 'scatter' ? [] : s.dash ?? dashOf(i));
    ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x + 18, y); ctx.stroke(); ctx.setLineDash([]);
    ctx.fillStyle = '#1f2937';
    ctx.fillText(s.label, x + 23, y);
  });
}

/**
 * A chart's text alternative: its title, its axes, and where each series ends (the last point,
 * with its 95% interval when drawn), so a reader who cannot see the canvas gets the figure's
 * message. Scatter charts give each series' point.
 */
export function summarise(opts) {
  const num = (v) => (Number.isFinite(v) ? (Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(3)).toString()) : '–');
  const parts = (opts.series || []).filter((s) => s.points && s.points.length).map((s) => {
    const p = s.points[s.points.length - 1];
    const band = Number.isFinite(p.lo) && Number.isFinite(p.hi) && p.hi > p.lo ? ` [${num(p.lo)}, ${num(p.hi)}]` : '';
    return `${s.label}: ${num(p.y)}${band} at ${num(p.x)}`;
  });
  const axes = opts.xLabel || opts.yLabel ? ` ${opts.yLabel || 'y'} against ${opts.xLabel || 'x'}.` : '';
  return `${opts.title}.${axes}${parts.length ? ` Last points: ${parts.join('; ')}.` : ' No data yet.'}`;
}
