// A small hand-written line chart on a canvas: axes with ticks, one line per series, a legend.

export const SERIES_COLOURS = ['#1f6fd1', '#c2410c', '#6b21a8', '#047857'];

export function fitCanvas(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
  const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  return dpr;
}

function niceTicks(lo, hi, count) {
  const span = hi - lo || 1;
  const step0 = span / count;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= step0);
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(+v.toPrecision(12));
  return ticks;
}

/**
 * series: [{ label, x: ArrayLike<number>, y: ArrayLike<number> }]; opts: { xLabel, yLabel, xMax }.
 */
export function lineChart(canvas, series, opts = {}) {
  const dpr = fitCanvas(canvas);
  const ctx = canvas.getContext('2d');
  const W = canvas.width / dpr, H = canvas.height / dpr;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  const m = { l: 52, r: 24, t: 12, b: 40 };
  const pw = W - m.l - m.r, ph = H - m.t - m.b;
  let xMax = opts.xMax || 1, yMax = 0;
  for (const s of series) {
    for (let i = 0; i < s.y.length; i++) if (Number.isFinite(s.y[i])) yMax = Math.max(yMax, s.y[i]);
    if (!opts.xMax && s.x.length) xMax = Math.max(xMax, s.x[s.x.length - 1]);
  }
  yMax = yMax > 0 ? yMax * 1.08 : 1;
  const X = (x) => m.l + (x / xMax) * pw;
  const Y = (y) => m.t + ph - (y / yMax) * ph;
  ctx.font = '12px system-ui, sans-serif';
  ctx.strokeStyle = '#e2e5ea';
  ctx.fillStyle = '#333';
  ctx.lineWidth = 1;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const v of niceTicks(0, yMax, 5)) {
    ctx.beginPath(); ctx.moveTo(m.l, Y(v)); ctx.lineTo(m.l + pw, Y(v)); ctx.stroke();
    ctx.fillText(String(v), m.l - 6, Y(v));
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const v of niceTicks(0, xMax, Math.max(2, Math.floor(pw / 80)))) {
    ctx.beginPath(); ctx.moveTo(X(v), m.t); ctx.lineTo(X(v), m.t + ph); ctx.stroke();
    ctx.fillText(String(v), X(v), m.t + ph + 5);
  }
  ctx.strokeStyle = '#555';
  ctx.beginPath(); ctx.moveTo(m.l, m.t); ctx.lineTo(m.l, m.t + ph); ctx.lineTo(m.l + pw, m.t + ph); ctx.stroke();
  if (opts.xLabel) ctx.fillText(opts.xLabel, m.l + pw / 2, H - 16);
  if (opts.yLabel) {
    ctx.save(); ctx.translate(12, m.t + ph / 2); ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle'; ctx.fillText(opts.yLabel, 0, 0); ctx.restore();
  }
  series.forEach((s, i) => {
    ctx.strokeStyle = SERIES_COLOURS[i % SERIES_COLOURS.length];
    ctx.lineWidth = 2;
    ctx.beginPath();
    let started = false;
    for (let j = 0; j < s.x.length; j++) {
      if (!Number.isFinite(s.y[j])) continue;
      if (started) ctx.lineTo(X(s.x[j]), Y(s.y[j])); else { ctx.moveTo(X(s.x[j]), Y(s.y[j])); started = true; }
    }
    ctx.stroke();
  });
  // Legend, top right.
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  let ly = m.t + 10;
  const lw = Math.max(...series.map((s) => ctx.measureText(s.label).width), 0) + 30;
  const lx = m.l + pw - lw - 6;
  if (series.length) {
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    ctx.fillRect(lx - 4, m.t + 2, lw + 6, series.length * 18 + 6);
  }
  series.forEach((s, i) => {
    ctx.fillStyle = SERIES_COLOURS[i % SERIES_COLOURS.length];
    ctx.fillRect(lx, ly - 1.5, 18, 3);
    ctx.fillStyle = '#222';
    ctx.fillText(s.label, lx + 24, ly);
    ly += 18;
  });
}
