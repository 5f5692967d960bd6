// One policy's live canvas: the (projected) universe, the policy's ε-net centers with their
// Voronoi cells (d3-delaunay), its cache, the recent arrivals marked by decision (dot = served
// from the cache, square = sent to the LLM) and coloured by decision or by true ε-net cell, and
// on the 2-D plane the KRR cost estimate with its uncertainty. Hover, tap or arrow keys show a
// center's details and its question; hovering a recent arrival shows its round, decision and
// question (texts come from the worker's `roundText`, through `textsOf`).
import { Delaunay } from '../../vendor/d3-delaunay/d3-delaunay.min.mjs';
import { fitCanvas } from '../charts.js';
import { defineMetric } from '../metrics.js';

export const HIT = '#0f7b55';
export const LLM = '#d9480f';
/** A hit that served a wrong answer (SPEC §14): a cross, not a dot, so shape tells it too. */
export const WRONG = '#7c1d6f';
const CACHED = '#5b21b6';
const TRAIL = 600;
const PULSE_MS = 600;

/** A categorical colour per center index (golden-angle hues), `light` for the cell fill. */
export const cellColour = (j, light = false) => (j < 0 ? '#9ca3af'
  : `hsl(${Math.round((j * 137.508) % 360)} ${light ? '70% 93%' : '62% 42%'})`);

function heatColour(mean, sd) {
  // Cost estimate: pale (cheap) → deep blue (costly); faded toward grey where σ is large.
  const t = Math.min(1, Math.max(0, mean)), u = Math.min(1, Math.max(0, sd)) * 0.75;
  const c = [246 - t * 200, 248 - t * 150, 252 - t * 60];
  return c.map((v) => Math.round(v * (1 - u) + 226 * u));
}

export class LivePanel {
  /** `textsOf(rounds)`: a promise of the played rounds' questions (null where there is none). */
  constructor(root, textsOf = async (rounds) => rounds.map(() => null)) {
    this.root = root;
    this.textsOf = textsOf;
    this.canvas = root.querySelector('canvas');
    this.tip = root.querySelector('.tip');
    this.title = root.querySelector('h2.panel-name');
    this.selected = -1;
    this.reset();
    this.canvas.addEventListener('mousemove', (e) => this.hover(e));
    this.canvas.addEventListener('pointerdown', (e) => this.hover(e)); // a tap on touch screens
    this.canvas.addEventListener('mouseleave', () => { this.tip.hidden = true; });
    this.canvas.addEventListener('keydown', (e) => this.key(e));
    this.canvas.addEventListener('blur', () => { this.tip.hidden = true; });
  }

  reset() {
    this.arrX = new Float64Array(TRAIL); this.arrY = new Float64Array(TRAIL);
    this.arrLlm = new Uint8Array(TRAIL); this.arrCell = new Int32Array(TRAIL); this.arrAt = new Float64Array(TRAIL);
    this.arrWrong = new Int8Array(TRAIL).fill(-1);
    this.arrT = new Int32Array(TRAIL);
    this.arrN = 0; this.arrHead = 0;
    this.centers = null; this.heatImg = null; this.universe = null; this.voronoi = null; this.bounds = null;
  }

  setup({ name, universe, plane }) {
    this.reset();
    this.title.textContent = name;
    this.universe = universe;
    this.plane = plane;
    if (plane) { this.bounds = { x0: 0, x1: 1, y0: 0, y1: 1 }; return; }
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (let i = 0; i < universe.length; i += 2) {
      x0 = Math.min(x0, universe[i]); x1 = Math.max(x1, universe[i]);
      y0 = Math.min(y0, universe[i + 1]); y1 = Math.max(y1, universe[i + 1]);
    }
    const px = (x1 - x0) * 0.12 || 1, py = (y1 - y0) * 0.12 || 1;
    this.bounds = { x0: x0 - px, x1: x1 + px, y0: y0 - py, y1: y1 + py };
  }

  addArrivals(batch, p, nPol, now) {
    for (let r = 0; r < batch.t.length; r++) {
      const i = this.arrHead;
      this.arrX[i] = batch.xy[2 * r]; this.arrY[i] = batch.xy[2 * r + 1];
      this.arrLlm[i] = batch.llm[r * nPol + p];
      this.arrWrong[i] = batch.wrong ? batch.wrong[r * nPol + p] : -1;
      this.arrCell[i] = batch.center[r * nPol + p];
      this.arrAt[i] = now;
      this.arrT[i] = batch.t[r];
      this.arrHead = (i + 1) % TRAIL;
      this.arrN = Math.min(TRAIL, this.arrN + 1);
    }
  }

  setCenters(c) {
    const grew = !this.centers || c.keys.length !== this.centers.keys.length;
    this.centers = c;
    if (grew) this.voronoi = null; // centers never move: the cells change only when one is added
  }

  setHeat(h) {
    const off = document.createElement('canvas');
    off.width = h.n; off.height = h.n;
    const octx = off.getContext('2d');
    const img = octx.createImageData(h.n, h.n);
    for (let j = 0; j < h.n; j++) {
      for (let i = 0; i < h.n; i++) {
        const [r, g, b] = heatColour(h.mean[j * h.n + i], h.sd[j * h.n + i]);
        const o = ((h.n - 1 - j) * h.n + i) * 4; // row j is y = (j + ½)/n, y up
        img.data[o] = r; img.data[o + 1] = g; img.data[o + 2] = b; img.data[o + 3] = 255;
      }
    }
    octx.putImageData(img, 0, 0);
    this.heatImg = off;
  }

  toScreen(x, y) {
    const b = this.bounds;
    return [this.pad + ((x - b.x0) / (b.x1 - b.x0)) * this.size, this.pad + (1 - (y - b.y0) / (b.y1 - b.y0)) * this.size];
  }

  cells() {
    const c = this.centers;
    if (!this.voronoi && c && c.keys.length >= 1) {
      const b = this.bounds;
      const pts = Array.from({ length: c.keys.length }, (_, j) => [c.xy[2 * j], c.xy[2 * j + 1]]);
      this.voronoi = Delaunay.from(pts).voronoi([b.x0, b.y0, b.x1, b.y1]);
    }
    return this.voronoi;
  }

  /** Draws the panel; returns true while an arrival's pulse is still animating. */
  draw(label, colourBy, now) {
    const dpr = fitCanvas(this.canvas);
    const ctx = this.canvas.getContext('2d');
    const W = this.canvas.width / dpr, H = this.canvas.height / dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, W, H);
    this.pad = 6;
    this.size = Math.min(W, H) - 2 * this.pad;
    if (!this.bounds) return false;
    ctx.save();
    ctx.beginPath(); ctx.rect(this.pad, this.pad, this.size, this.size); ctx.clip();
    if (this.plane && this.heatImg) {
      ctx.imageSmoothingEnabled = true;
      const [sx, sy] = this.toScreen(0, 1);
      ctx.drawImage(this.heatImg, sx, sy, this.size, this.size);
    }
    this.drawCells(ctx);
    this.drawUniverse(ctx);
    const pulsing = this.drawArrivals(ctx, colourBy, now);
    this.drawCenters(ctx);
    ctx.restore();
    ctx.strokeStyle = '#c9ced6'; ctx.lineWidth = 1;
    ctx.strokeRect(this.pad, this.pad, this.size, this.size);
    if (label) {
      ctx.font = '12px system-ui, sans-serif'; ctx.textAlign = 'left'; ctx.textBaseline = 'bottom';
      const tw = ctx.measureText(label).width;
      ctx.fillStyle = 'rgba(255,255,255,0.88)';
      ctx.fillRect(this.pad + 2, this.pad + this.size - 20, tw + 8, 18);
      ctx.fillStyle = '#374151';
      ctx.fillText(label, this.pad + 6, this.pad + this.size - 5);
    }
    return pulsing;
  }

  drawCells(ctx) {
    const v = this.cells();
    if (!v) return;
    const n = this.centers.keys.length;
    for (let j = 0; j < n; j++) {
      const poly = v.cellPolygon(j);
      if (!poly) continue;
      ctx.beginPath();
      poly.forEach(([x, y], i) => { const [sx, sy] = this.toScreen(x, y); if (i) ctx.lineTo(sx, sy); else ctx.moveTo(sx, sy); });
      ctx.closePath();
      if (!this.plane) { ctx.fillStyle = cellColour(j, true); ctx.fill(); }
      ctx.strokeStyle = this.plane ? 'rgba(55,65,81,0.45)' : 'rgba(107,114,128,0.5)';
      ctx.lineWidth = 1;
      ctx.stroke();
    }
  }

  drawUniverse(ctx) {
    if (!this.universe) return;
    ctx.fillStyle = this.plane ? '#4b5563' : '#9ca3af';
    const r = this.plane ? 5 : 3;
    for (let i = 0; i < this.universe.length; i += 2) {
      const [x, y] = this.toScreen(this.universe[i], this.universe[i + 1]);
      ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill();
    }
  }

  drawArrivals(ctx, colourBy, now) {
    let pulsing = false;
    for (let k = 0; k < this.arrN; k++) {
      const i = (this.arrHead - this.arrN + k + TRAIL) % TRAIL;
      const age = (this.arrN - k) / this.arrN;
      ctx.globalAlpha = 0.2 + 0.75 * (1 - age);
      const colour = colourBy === 'cell' ? cellColour(this.arrCell[i]) : (this.arrLlm[i] ? LLM : HIT);
      const [x, y] = this.toScreen(this.arrX[i], this.arrY[i]);
      if (this.arrLlm[i]) { ctx.strokeStyle = colour; ctx.lineWidth = 1.6; ctx.strokeRect(x - 3, y - 3, 6, 6); }
      else if (this.arrWrong[i] === 1) {
        // a wrong answer served (SPEC §14): a cross in its own colour
        ctx.strokeStyle = WRONG; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(x - 4, y - 4); ctx.lineTo(x + 4, y + 4); ctx.moveTo(x + 4, y - 4); ctx.lineTo(x - 4, y + 4); ctx.stroke();
      } else { ctx.fillStyle = colour; ctx.beginPath(); ctx.arc(x, y, 3, 0, 2 * Math.PI); ctx.fill(); }
      // The newest arrivals pulse once in their decision's colour.
      const t = (now - this.arrAt[i]) / PULSE_MS;
      if (t < 1 && k >= this.arrN - 6) {
        pulsing = true;
        ctx.globalAlpha = 1 - t;
        ctx.strokeStyle = this.arrLlm[i] ? LLM : HIT; ctx.lineWidth = 2.5;
        ctx.beginPath(); ctx.arc(x, y, 5 + 14 * t, 0, 2 * Math.PI); ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;
    if (this.arrN) {
      const i = (this.arrHead - 1 + TRAIL) % TRAIL;
      const [x, y] = this.toScreen(this.arrX[i], this.arrY[i]);
      ctx.strokeStyle = this.arrLlm[i] ? LLM : HIT; ctx.lineWidth = 2.5;
      ctx.strokeRect(x - 7, y - 7, 14, 14);
    }
    return pulsing;
  }

  drawCenters(ctx) {
    const c = this.centers;
    if (!c) return;
    for (let j = 0; j < c.keys.length; j++) {
      const [x, y] = this.toScreen(c.xy[2 * j], c.xy[2 * j + 1]);
      ctx.strokeStyle = '#111827'; ctx.lineWidth = 1.6;
      ctx.beginPath(); ctx.moveTo(x - 4, y); ctx.lineTo(x + 4, y); ctx.moveTo(x, y - 4); ctx.lineTo(x, y + 4); ctx.stroke();
      if (c.cached[j]) {
        ctx.strokeStyle = CACHED; ctx.lineWidth = 3;
        ctx.beginPath(); ctx.arc(x, y, 9, 0, 2 * Math.PI); ctx.stroke();
      }
      if (j === this.selected && !this.tip.hidden) {
        ctx.strokeStyle = '#111827'; ctx.lineWidth = 1.5; ctx.setLineDash([3, 2]);
        ctx.beginPath(); ctx.arc(x, y, 13, 0, 2 * Math.PI); ctx.stroke(); ctx.setLineDash([]);
      }
    }
  }

  setCounters(cp) {
    const f = (v, d) => (v == null || !Number.isFinite(v) ? '–' : v.toFixed(d));
    // [counter, label, text, value, metric id of csc::experiment::metrics]. Average regret is
    // shown with its two parts: the loss gap and the switching cost, per round.
    const rows = [['round', 'round t', String(cp.t), cp.t, ''], ['hit', 'hit rate', `${(cp.hit_rate * 100).toFixed(1)} %`, cp.hit_rate, 'hit_rate'],
      ['cost', 'realised cost', f(cp.realised_cost, 1), cp.realised_cost, 'realised_cost'], ['switches', 'switches', String(cp.switches), cp.switches, 'switches'],
      ['regret', 'avg regret', f(cp.avg_regret, 4), cp.avg_regret, 'avg_regret'],
      ['gap', '… loss gap', f(cp.avg_loss_gap, 4), cp.avg_loss_gap, 'avg_loss_gap'],
      ['switchcost', '… switching', f(cp.avg_switch_cost, 4), cp.avg_switch_cost, 'avg_switch_cost'],
      // SPEC §14: shown "—" where the dataset has no ground truth (the footer says why).
      ['error', 'error rate', cp.error_rate == null ? '—' : `${(cp.error_rate * 100).toFixed(2)} %`, cp.error_rate ?? NaN, 'error_rate']];
    const dl = this.root.querySelector('.counters');
    if (!dl.children.length) {
      for (const [k, name, , , id] of rows) {
        const div = document.createElement('div');
        const dt = document.createElement('dt');
        dt.textContent = name;
        if (id) defineMetric(dt, id);
        const dd = Object.assign(document.createElement('dd'), { textContent: '–' });
        dd.dataset.counter = k;
        div.append(dt, dd);
        dl.append(div);
      }
    }
    // For the end-to-end test: the wrong answers marked in the trail (SPEC §14).
    this.root.dataset.wrongMarks = String(this.arrWrong.reduce((n, w, i) => n + (w === 1 && i < this.arrN ? 1 : 0), 0));
    for (const [k, , text, value] of rows) {
      const dd = dl.querySelector(`[data-counter="${k}"]`);
      dd.textContent = text;
      dd.dataset.value = String(value); // full precision, for the end-to-end test
    }
  }

  /** What is under the pointer: `{ center: j }` within 16 px, else `{ arrival: i }` (a slot of
   *  the recent arrivals' ring) within 8 px, else null. */
  nearest(mx, my) {
    const c = this.centers;
    let best = null, bestD = 1;
    for (let j = 0; c && j < c.keys.length; j++) {
      const [x, y] = this.toScreen(c.xy[2 * j], c.xy[2 * j + 1]);
      const d = ((x - mx) ** 2 + (y - my) ** 2) / (16 * 16);
      if (d < bestD) { bestD = d; best = { center: j }; }
    }
    if (best) return best;
    for (let i = 0; this.bounds && i < this.arrN; i++) {
      const [x, y] = this.toScreen(this.arrX[i], this.arrY[i]);
      const d = ((x - mx) ** 2 + (y - my) ** 2) / (8 * 8);
      if (d < bestD) { bestD = d; best = { arrival: i }; }
    }
    return best;
  }

  hover(e) {
    const rect = this.canvas.getBoundingClientRect();
    const hit = this.nearest(e.clientX - rect.left, e.clientY - rect.top);
    if (!hit) { this.tip.hidden = true; return; }
    if (hit.center !== undefined) this.showTip(hit.center);
    else this.showArrivalTip(hit.arrival);
  }

  /** Places the tip beside screen point (x, y) and shows `lines`; then adds the question of
   *  round `round` when the worker has it (if the tip still shows the same thing). */
  place(x, y, lines, round) {
    const token = (this.tipToken = (this.tipToken || 0) + 1);
    this.tip.textContent = lines.join('\n');
    this.tip.hidden = false;
    const rect = this.canvas.getBoundingClientRect();
    this.tip.style.left = `${Math.max(0, Math.min(x + 12, rect.width - 250))}px`;
    this.tip.style.top = `${y + (y > rect.height * 0.6 ? -130 : 14)}px`;
    this.textsOf([round]).then(([q]) => {
      if (!q || token !== this.tipToken || this.tip.hidden) return; // (the plane and synthetic have no texts)
      this.tip.textContent = [lines[0], `“${q}”`, ...lines.slice(1)].join('\n');
    });
  }

  showArrivalTip(i) {
    this.selected = -1;
    const [x, y] = this.toScreen(this.arrX[i], this.arrY[i]);
    const cell = this.arrCell[i];
    const judged = this.arrWrong[i] === 1 ? ' — a wrong answer (its gold answer differs)' : this.arrWrong[i] === 0 ? ' — a correct answer' : '';
    this.place(x, y, [`arrival of round ${this.arrT[i]}`, this.arrLlm[i] ? 'sent to the LLM' : `served from the cache${judged}`,
      ...(cell >= 0 ? [`in the cell of center #${cell}`] : [])], this.arrT[i]);
  }

  key(e) {
    const n = this.centers ? this.centers.keys.length : 0;
    if (!n) return;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') this.selected = (this.selected + 1) % n;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') this.selected = (this.selected - 1 + n) % n;
    else if (e.key === 'Escape') { this.tip.hidden = true; return; }
    else return;
    e.preventDefault();
    this.showTip(this.selected);
  }

  showTip(j) {
    const c = this.centers;
    this.selected = j;
    const f = (v) => (Number.isFinite(v) ? v.toFixed(3) : '–');
    const sd = c.sd[j];
    const why = c.cached[j]
      ? `cached: yes — without it L̂ rises by ${f(c.contribution[j])}`
      : 'cached: no — Reverse Greedy (Alg. 1) keeps k others that lower L̂ more';
    const [x, y] = this.toScreen(c.xy[2 * j], c.xy[2 * j + 1]);
    this.place(x, y, [
      `center #${j} (from round ${c.keys[j]})`,
      `weight ŵ = ${f(c.weight[j])} (N = ${c.count[j]} arrivals)`,
      `estimate ĉ = ${f(c.estimate[j])}${Number.isFinite(sd) ? ` ± ${f(sd)} (σ)` : ''}`,
      `acting cost = ${f(c.actingCost[j])}${Number.isFinite(sd) ? ' (LCB)' : ''}`,
      why,
    ], c.keys[j]);
  }
}
