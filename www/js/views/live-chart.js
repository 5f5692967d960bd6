// @ts-check
// A live panel's running chart: the policy's average regret Reg(t)/t (SPEC §9)
// and its hit rate against rounds, with two reference lines on the regret axis, each labelled
// with the regret it is drawn at — the oracle M_orc (regret 0) and no cache at all (every query
// sent to the LLM: regret L(∅) − L(M_orc)). Drawn on a small canvas of its own for speed; the series are the engine's
// recorded checkpoints (OnlineRun.curves) closed by the counters of the round shown, so the
// chart ends exactly where the counters stand (kept on the canvas as `chartData` and in
// `data-last-*`, for the end-to-end test).
import { fitCanvas } from '../charts.js';

const REGRET = '#1f6fd1';
const HIT = '#0f7b55';
const REF = '#6b7280';

/** Sizes `canvas` to its box (device pixels) and paints it white; its context in CSS pixels. */
export function blank(canvas) {
  const dpr = fitCanvas(canvas);
  const ctx = canvas.getContext('2d');
  const W = canvas.width / dpr, H = canvas.height / dpr;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  return { ctx, W, H };
}

export class RunningChart {
  constructor(canvas) {
    this.canvas = canvas;
    this.data = null;
  }

  reset() { this.data = null; this.canvas.chartData = null; }

  /** `curves` (OnlineRun.curves), `cp` the counters now, `oracle` L(M_orc), `noCache` L(∅). */
  set(curves, cp, oracle, noCache) {
    const t = Array.from(curves.t), regret = Array.from(curves.avgRegret), hit = Array.from(curves.hitRate);
    if (cp && cp.t > 0 && t[t.length - 1] !== cp.t) { t.push(cp.t); regret.push(cp.avg_regret); hit.push(cp.hit_rate); }
    this.data = { t, regret, hit, oracle, noCache };
    this.canvas.chartData = this.data;
    const n = t.length;
    const ds = this.canvas.dataset;
    ds.lastT = n ? String(t[n - 1]) : '0';
    ds.lastRegret = n ? String(regret[n - 1]) : '';
    ds.lastHit = n ? String(hit[n - 1]) : '';
    ds.noCache = String(noCache - oracle);
    this.canvas.setAttribute('aria-label', n
      ? `Running chart: after ${t[n - 1]} rounds the average regret is ${regret[n - 1].toFixed(4)} (no cache: ${(noCache - oracle).toFixed(4)} = L(∅) ${noCache.toFixed(4)} − L(M_orc) ${oracle.toFixed(4)}; oracle: 0) and the hit rate ${(100 * hit[n - 1]).toFixed(1)} %.`
      : 'Running chart: no round played yet.');
  }

  draw(horizon) {
    const { ctx, W, H } = blank(this.canvas);
    const d = this.data;
    if (!d || W < 40 || H < 40) return;
    const L = 38, R = 30, T = 16, B = 16;
    const pw = W - L - R, ph = H - T - B;
    const ref = d.noCache - d.oracle;
    const top = Math.max(ref, ...d.regret.filter(Number.isFinite), 1e-3) * 1.1;
    const bottom = Math.min(0, ...d.regret.filter(Number.isFinite));
    const X = (t) => L + (t / Math.max(1, horizon)) * pw;
    const Y = (v) => T + (1 - (v - bottom) / (top - bottom)) * ph;
    const Yh = (v) => T + (1 - v) * ph;
    ctx.font = '10px system-ui, sans-serif';
    ctx.strokeStyle = '#e5e7eb'; ctx.lineWidth = 1;
    ctx.strokeRect(L, T, pw, ph);
    // Reference lines on the regret axis: the oracle (regret 0) and no cache.
    ctx.setLineDash([4, 3]); ctx.strokeStyle = REF;
    // Labels above their lines, no cache at the left and the oracle at the right, so that two
    // close lines keep readable labels. Each label gives the regret the line is drawn at (the
    // axis' quantity, SPEC §9): the oracle's is 0, no cache's L(∅) − L(M_orc); the losses
    // themselves are in the live view's note and the canvas' text alternative.
    const refs = [
      { value: 0, label: 'oracle: regret 0', right: true },
      { value: ref, label: `no cache: regret L(∅) − L(M_orc) = ${ref.toFixed(3)}`, right: false },
    ];
    for (const { value, label, right } of refs) {
      ctx.beginPath(); ctx.moveTo(L, Y(value)); ctx.lineTo(L + pw, Y(value)); ctx.stroke();
      ctx.fillStyle = REF; ctx.textAlign = right ? 'right' : 'left'; ctx.textBaseline = 'bottom';
      ctx.fillText(label, right ? L + pw - 4 : L + 4, Y(value) - 1);
    }
    ctx.setLineDash([]);
    const line = (ys, Yf, colour, dash) => {
      ctx.strokeStyle = colour; ctx.lineWidth = 1.6; ctx.setLineDash(dash);
      ctx.beginPath();
      d.t.forEach((t, i) => { const x = X(t), y = Yf(ys[i]); if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
      ctx.stroke(); ctx.setLineDash([]);
    };
    line(d.regret, Y, REGRET, []);
    line(d.hit, Yh, HIT, [2, 2]);
    // Axes: regret on the left, hit rate (0–100 %) on the right, rounds below.
    ctx.fillStyle = REGRET; ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
    const tick = (v) => (v === 0 ? '0' : Math.abs(v) < 0.01 ? v.toPrecision(2) : v.toFixed(2));
    for (const v of [bottom, top / 1.1]) ctx.fillText(tick(v), L - 3, Y(v));
    ctx.fillStyle = HIT; ctx.textAlign = 'left';
    for (const v of [0, 1]) ctx.fillText(`${v * 100}%`, L + pw + 3, Yh(v));
    ctx.fillStyle = '#374151'; ctx.textAlign = 'left'; ctx.textBaseline = 'top';
    ctx.fillText('avg regret', L, 2);
    ctx.fillStyle = HIT; ctx.textAlign = 'right';
    ctx.fillText('hit rate ┄', L + pw, 2);
    ctx.fillStyle = '#6b7280'; ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    ctx.fillText(`round t (of ${horizon})`, L + pw / 2, T + ph + 3);
  }
}
