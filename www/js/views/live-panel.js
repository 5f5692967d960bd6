// @ts-check
// One policy's live canvas: the (projected) universe, the policy's ε-net centers with their
// Voronoi cells (d3-delaunay), its cache, the recent arrivals marked by decision (dot = served
// from the cache, square = sent to the LLM) and coloured by decision or by true ε-net cell, and
// on the 2-D plane the KRR cost estimate with its uncertainty. The newest arrivals are bright and
// fade with age; older ones than the trail become a grey density, so a long run (nq-trivia at
// T = 5,000) stays readable. Hover, tap or arrow keys show a center's details and its question;
// hovering a recent arrival shows its round, decision and question, and for a hit the question
// whose cached answer it was served, both gold answers and whether it was correct (SPEC §14;
// texts and answers come from the worker's `roundText`/`roundAnswers`, through `roundsInfo`).
// Under the canvas: "why this round" (why-round.js) and the running chart (live-chart.js).
import { Delaunay } from '../../vendor/d3-delaunay/d3-delaunay.min.mjs';
import { defineMetric, metricInfo } from '../metrics.js';
import { RunningChart, blank } from './live-chart.js';

/** The decision colours are the page's (css/style.css `--hit`, `--llm`, `--cached`), read once
 *  the stylesheet applies, so the canvas and the text of the Ask panel and legend agree. */
const cssColour = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
let HIT = '', LLM = '', CACHED = '';
/** A hit that served a wrong answer (SPEC §14): a cross, not a dot, so shape tells it too. */
export const WRONG = '#7c1d6f';
const TRAIL = 600;
/** The newest arrivals drawn at full strength; older ones in the trail fade. */
const BRIGHT = 120;
/** Cells per side of the density of arrivals older than the trail. */
const GRID = 64;
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
  /** `roundsInfo(rounds)`: a promise of the played rounds' `{ text, answers }` (null where there
   *  is none). */
  constructor(root, roundsInfo = async (rounds) => rounds.map(() => ({ text: null, answers: null }))) {
    this.root = root;
    this.roundsInfo = roundsInfo;
    this.canvas = root.querySelector('.canvas-wrap canvas');
    this.tip = root.querySelector('.tip');
    this.title = root.querySelector('h2.panel-name');
    this.why = root.querySelector('.why');
    this.chart = new RunningChart(root.querySelector('canvas.running-chart'));
    this.selected = -1;
    this.cacheRule = '';
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
    this.arrServed = new Int32Array(TRAIL).fill(-1); // a hit's cached item (its round key)
    this.arrN = 0; this.arrHead = 0;
    this.density = new Float32Array(GRID * GRID); this.densityMax = 0; this.densityN = 0; this.densityImg = null; this.densityDirty = false;
    this.centers = null; this.heatImg = null; this.universe = null; this.voronoi = null; this.bounds = null;
    if (this.chart) this.chart.reset();
    if (this.why) { this.why.textContent = ''; delete this.why.dataset.round; delete this.why.dataset.parts; }
  }

  /** "Why this round" (why-round.js): the line and, for the end-to-end test, its facts. */
  setWhy({ t, parts, text }) {
    this.why.textContent = text;
    this.why.dataset.round = String(t);
    this.why.dataset.parts = parts.join(' ');
  }

  /** `cacheRule`: how the policy chooses its cache, with the run's k (the engine's words,
   *  `OnlineRun.cacheRules`), which a center's details say of a center it does not cache. */
  setup({ name, universe, plane, cacheRule = '' }) {
    this.reset();
    [HIT, LLM, CACHED] = ['--hit', '--llm', '--cached'].map(cssColour);
    this.title.textContent = name;
    this.cacheRule = cacheRule;
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
      if (this.arrN === TRAIL) this.toDensity(this.arrX[i], this.arrY[i]); // the oldest leaves the trail
      this.arrServed[i] = batch.llm[r * nPol + p] ? -1 : batch.nearestKey[r * nPol + p];
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

  /** Counts an arrival older than the trail in its density cell. */
  toDensity(x, y) {
    const b = this.bounds;
    if (!b) return;
    const gx = Math.min(GRID - 1, Math.max(0, Math.floor(((x - b.x0) / (b.x1 - b.x0)) * GRID)));
    const gy = Math.min(GRID - 1, Math.max(0, Math.floor(((y - b.y0) / (b.y1 - b.y0)) * GRID)));
    const v = (this.density[gy * GRID + gx] += 1);
    this.densityN += 1;
    this.densityMax = Math.max(this.densityMax, v);
    this.densityDirty = true;
  }

  /** The density as a GRID × GRID image (grey, log-scaled), rebuilt when it changed. */
  densityImage() {
    if (!this.densityDirty) return this.densityImg;
    this.densityDirty = false;
    const off = this.densityImg || Object.assign(document.createElement('canvas'), { width: GRID, height: GRID });
    const octx = off.getContext('2d');
    const img = octx.createImageData(GRID, GRID);
    const top = Math.log1p(this.densityMax);
    for (let gy = 0; gy < GRID; gy++) {
      for (let gx = 0; gx < GRID; gx++) {
        const c = this.density[gy * GRID + gx];
        const o = ((GRID - 1 - gy) * GRID + gx) * 4; // y up
        img.data[o] = 75; img.data[o + 1] = 85; img.data[o + 2] = 99;
        img.data[o + 3] = c ? Math.round(255 * (0.12 + 0.5 * Math.log1p(c) / top)) : 0;
      }
    }
    octx.putImageData(img, 0, 0);
    this.densityImg = off;
    return off;
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

  /** Draws the panel and its running chart (`horizon`: the chart's x range); returns true while
   *  an arrival's pulse is still animating. */
  draw(label, colourBy, now, horizon = 1) {
    this.chart.draw(horizon);
    const { ctx, W, H } = blank(this.canvas);
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
    const density = this.densityImage();
    if (density) {
      ctx.imageSmoothingEnabled = false;
      const [sx, sy] = this.toScreen(this.bounds.x0, this.bounds.y1);
      ctx.drawImage(density, sx, sy, this.size, this.size);
    }
    const pulsing = this.drawArrivals(ctx, colourBy, now);
    this.drawCenters(ctx);
    ctx.restore();
    this.exposeWrongMarks();
    ctx.strokeStyle = '#c9ced6'; ctx.lineWidth = 1;
    ctx.strokeRect(this.pad, this.pad, this.size, this.size);
    if (label) this.drawCaption(ctx, label);
    return pulsing;
  }

  /** What the picture is (the engine's `OnlineRun.caption`), at the canvas's foot, wrapped to
   *  its width; its lines are kept on the panel (`data-caption-lines`) for the end-to-end test. */
  drawCaption(ctx, label) {
    ctx.font = '12px system-ui, sans-serif'; ctx.textAlign = 'left'; ctx.textBaseline = 'bottom';
    const room = this.size - 12, lines = [];
    for (const word of label.split(' ')) {
      const last = lines.length ? `${lines[lines.length - 1]} ${word}` : word;
      if (lines.length && ctx.measureText(last).width <= room) lines[lines.length - 1] = last;
      else lines.push(word);
    }
    const lh = 15, widest = Math.max(...lines.map((l) => ctx.measureText(l).width));
    const top = this.pad + this.size - 4 - lines.length * lh;
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    ctx.fillRect(this.pad + 2, top, Math.min(widest + 8, this.size - 4), lines.length * lh + 2);
    ctx.fillStyle = '#374151';
    lines.forEach((l, i) => ctx.fillText(l, this.pad + 6, top + (i + 1) * lh));
    this.root.dataset.caption = label;
    this.root.dataset.captionLines = JSON.stringify(lines.map((l) => [l, Math.ceil(ctx.measureText(l).width), room]));
  }

  /** For the end-to-end test: where the newest wrong answers served sit on the canvas (CSS px),
   *  those a pointer can hover without meeting a center first (`nearest`). */
  exposeWrongMarks() {
    const c = this.centers, at = [];
    for (let k = this.arrN - 1; k >= 0 && at.length < 5; k--) {
      const i = (this.arrHead - this.arrN + k + TRAIL) % TRAIL;
      if (this.arrWrong[i] !== 1) continue;
      const [x, y] = this.toScreen(this.arrX[i], this.arrY[i]);
      let free = true;
      for (let j = 0; c && j < c.keys.length && free; j++) {
        const [cx, cy] = this.toScreen(c.xy[2 * j], c.xy[2 * j + 1]);
        free = (cx - x) ** 2 + (cy - y) ** 2 >= 17 * 17;
      }
      for (let k2 = k + 1; k2 < this.arrN && free; k2++) {
        const i2 = (this.arrHead - this.arrN + k2 + TRAIL) % TRAIL;
        const [x2, y2] = this.toScreen(this.arrX[i2], this.arrY[i2]);
        free = (x2 - x) ** 2 + (y2 - y) ** 2 >= 0.25; // a newer arrival on the spot would be hovered instead
      }
      if (free) at.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10, this.arrT[i], this.arrServed[i]]);
    }
    this.root.dataset.wrongAt = JSON.stringify(at);
    this.root.dataset.trail = String(this.arrN);
    this.root.dataset.density = String(this.densityN);
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
      // The newest BRIGHT arrivals at full strength, older ones fading toward the density.
      const age = this.arrN - 1 - k;
      ctx.globalAlpha = age < BRIGHT ? 0.95 : 0.08 + 0.6 * (1 - (age - BRIGHT) / Math.max(1, TRAIL - BRIGHT));
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
    // Many centers (a long run of 384-d data) are drawn small and light, so that the arrivals and
    // the cached centers stay readable.
    const many = c.keys.length > 120, arm = many ? 2.5 : 4;
    for (let j = 0; j < c.keys.length; j++) {
      const [x, y] = this.toScreen(c.xy[2 * j], c.xy[2 * j + 1]);
      ctx.strokeStyle = many ? 'rgba(17, 24, 39, 0.45)' : '#111827'; ctx.lineWidth = many ? 1 : 1.6;
      ctx.beginPath(); ctx.moveTo(x - arm, y); ctx.lineTo(x + arm, y); ctx.moveTo(x, y - arm); ctx.lineTo(x, y + arm); ctx.stroke();
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
    // [counter, text, value, metric id of csc::experiment::metrics], labelled with the metric's
    // name in the engine's list. Costs are per round, as the regret and its two parts (the loss
    // gap and the switching cost) beside them; the switches are a count.
    /** @type {[string, string, number, import('../../pkg/csc.js').MetricId | ''][]} */
    const rows = [['round', String(cp.t), cp.t, ''], ['hit', `${(cp.hit_rate * 100).toFixed(1)} %`, cp.hit_rate, 'hit_rate'],
      ['cost', f(cp.avg_realised_cost, 4), cp.avg_realised_cost, 'avg_realised_cost'], ['switches', String(cp.switches), cp.switches, 'switches'],
      ['regret', f(cp.avg_regret, 4), cp.avg_regret, 'avg_regret'],
      ['gap', f(cp.avg_loss_gap, 4), cp.avg_loss_gap, 'avg_loss_gap'],
      ['switchcost', f(cp.avg_switch_cost, 4), cp.avg_switch_cost, 'avg_switch_cost'],
      // SPEC §14: shown "—" where the dataset has no ground truth (the footer says why).
      ['error', cp.error_rate == null ? '—' : `${(cp.error_rate * 100).toFixed(2)} %`, cp.error_rate ?? NaN, 'error_rate']];
    const dl = this.root.querySelector('.counters');
    if (!dl.children.length) {
      for (const [k, , , id] of rows) {
        const div = document.createElement('div');
        const dt = document.createElement('dt');
        dt.textContent = id ? metricInfo(id).name : 'round t';
        if (id) defineMetric(dt, id);
        const dd = Object.assign(document.createElement('dd'), { textContent: '–' });
        dd.dataset.counter = k;
        div.append(dt, dd);
        dl.append(div);
      }
    }
    // For the end-to-end test: the wrong answers marked in the trail (SPEC §14).
    this.root.dataset.wrongMarks = String(this.arrWrong.reduce((n, w, i) => n + (w === 1 && i < this.arrN ? 1 : 0), 0));
    for (const [k, text, value] of rows) {
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
    // Newest first: of arrivals at one spot (a repeated question), the latest is shown.
    for (let k = this.arrN - 1; this.bounds && k >= 0; k--) {
      const i = (this.arrHead - this.arrN + k + TRAIL) % TRAIL;
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
   *  round `round` (and its gold answers) when the worker has it, and for a hit the question
   *  whose cached answer was served (`served`, its round) with its gold answers and whether the
   *  two agree (`wrong`: 1 wrong, 0 correct, −1 not judged) — if the tip still shows the same
   *  thing. */
  place(x, y, lines, round, served = -1, wrong = -1) {
    const token = (this.tipToken = (this.tipToken || 0) + 1);
    this.tip.textContent = lines.join('\n');
    this.tip.hidden = false;
    delete this.tip.dataset.served;
    const rect = this.canvas.getBoundingClientRect();
    this.tip.style.left = `${Math.max(0, Math.min(x + 12, rect.width - 250))}px`;
    this.tip.style.top = `${y + (y > rect.height * 0.6 ? -130 : 14)}px`;
    const rounds = served >= 0 ? [round, served] : [round];
    this.roundsInfo(rounds).then(([mine, theirs]) => {
      if (token !== this.tipToken || this.tip.hidden) return;
      // the first few gold answers (nq-trivia lists every accepted form)
      const gold = (a) => (a && a.length ? `${a.slice(0, 3).join(' / ')}${a.length > 3 ? ` / … (${a.length} accepted)` : ''}` : null);
      const out = [lines[0]];
      if (mine.text) out.push(`“${mine.text}”`);
      if (gold(mine.answers)) out.push(`gold answer: ${gold(mine.answers)}`);
      out.push(...lines.slice(1));
      if (theirs) {
        out.push(`served the answer cached from round ${served}${theirs.text ? `: “${theirs.text}”` : ''}`);
        if (gold(theirs.answers)) out.push(`its gold answer: ${gold(theirs.answers)}`);
        if (wrong === 1) out.push('wrong: the gold answers differ');
        else if (wrong === 0) out.push('correct: the gold answers agree');
        this.tip.dataset.served = String(served);
      }
      if (out.length === lines.length && !theirs) return; // nothing to add (the plane has no texts)
      this.tip.textContent = out.join('\n');
    });
  }

  showArrivalTip(i) {
    this.selected = -1;
    const [x, y] = this.toScreen(this.arrX[i], this.arrY[i]);
    const cell = this.arrCell[i];
    const judged = this.arrWrong[i] === 1 ? ' — a wrong answer (its gold answer differs)' : this.arrWrong[i] === 0 ? ' — a correct answer' : '';
    this.place(x, y, [`arrival of round ${this.arrT[i]}`, this.arrLlm[i] ? 'sent to the LLM' : `served from the cache${judged}`,
      ...(cell >= 0 ? [`in the cell of center #${cell}`] : [])], this.arrT[i], this.arrLlm[i] ? -1 : this.arrServed[i], this.arrWrong[i]);
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
      : `cached: no${this.cacheRule ? ` — ${this.cacheRule}` : ''}`;
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
