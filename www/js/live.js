// The live stream view: one canvas per policy with the projected universe, the policy's ε-net
// centers (cached ones ringed), recent arrivals coloured by decision, and for 2-D data the KRR
// cost surface underneath. Hovering a center shows what the policy believes of it.
import { fitCanvas } from './charts.js';

export const HIT = '#0f8a5f';
export const LLM = '#d9480f';
const CACHED = '#5b21b6';
const TRAIL = 600;

function costColour(v) {
  // 0 → pale, 1 → deep blue; a monotone ramp readable under the points.
  const t = Math.min(1, Math.max(0, v));
  const r = Math.round(246 - t * 200), g = Math.round(248 - t * 150), b = Math.round(252 - t * 60);
  return [r, g, b];
}

export class LivePanel {
  constructor(root, index) {
    this.root = root;
    this.index = index;
    this.canvas = root.querySelector('canvas');
    this.tip = root.querySelector('.tip');
    this.title = root.querySelector('h3');
    this.counterEls = {};
    root.querySelectorAll('[data-counter]').forEach((el) => { this.counterEls[el.dataset.counter] = el; });
    this.reset();
    this.canvas.addEventListener('mousemove', (e) => this.hover(e));
    // Touch screens have no hover: a tap shows the nearest center's details.
    this.canvas.addEventListener('pointerdown', (e) => this.hover(e));
    this.canvas.addEventListener('mouseleave', () => { this.tip.hidden = true; });
    // Keyboard: with the canvas focused, ←/→ walk through the centers, Escape hides the details.
    this.selected = -1;
    this.canvas.addEventListener('keydown', (e) => this.key(e));
    this.canvas.addEventListener('blur', () => { this.tip.hidden = true; });
  }

  reset() {
    this.arrX = new Float64Array(TRAIL); this.arrY = new Float64Array(TRAIL);
    this.arrLlm = new Uint8Array(TRAIL); this.arrN = 0; this.arrHead = 0;
    this.centers = null; this.heat = null; this.heatImg = null; this.universe = null;
  }

  setup({ name, universe, plane }) {
    this.reset();
    this.title.textContent = name;
    this.universe = universe;
    this.plane = plane;
    if (plane) {
      this.bounds = { x0: 0, x1: 1, y0: 0, y1: 1 };
    } else {
      let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
      for (let i = 0; i < universe.length; i += 2) {
        x0 = Math.min(x0, universe[i]); x1 = Math.max(x1, universe[i]);
        y0 = Math.min(y0, universe[i + 1]); y1 = Math.max(y1, universe[i + 1]);
      }
      const px = (x1 - x0) * 0.15 || 1, py = (y1 - y0) * 0.15 || 1;
      this.bounds = { x0: x0 - px, x1: x1 + px, y0: y0 - py, y1: y1 + py };
    }
  }

  addArrivals(batch, p, nPol) {
    const rounds = batch.t.length;
    for (let r = 0; r < rounds; r++) {
      const i = this.arrHead;
      this.arrX[i] = batch.xy[2 * r]; this.arrY[i] = batch.xy[2 * r + 1];
      this.arrLlm[i] = batch.llm[r * nPol + p];
      this.arrHead = (i + 1) % TRAIL;
      this.arrN = Math.min(TRAIL, this.arrN + 1);
    }
  }

  setCenters(c) { this.centers = c; }

  setHeat(h) {
    if (!h) return;
    this.heat = h;
    const off = document.createElement('canvas');
    off.width = h.n; off.height = h.n;
    const octx = off.getContext('2d');
    const img = octx.createImageData(h.n, h.n);
    for (let j = 0; j < h.n; j++) {
      for (let i = 0; i < h.n; i++) {
        const v = h.mean[j * h.n + i];
        const [r, g, b] = costColour(v);
        // Row j is y = j/(n−1) (y up); the canvas row is flipped.
        const o = ((h.n - 1 - j) * h.n + i) * 4;
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

  draw(labelText) {
    const dpr = fitCanvas(this.canvas);
    const ctx = this.canvas.getContext('2d');
    const W = this.canvas.width / dpr, H = this.canvas.height / dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, W, H);
    this.pad = 8;
    this.size = Math.min(W, H) - 2 * this.pad;
    if (!this.bounds) return;
    if (this.plane && this.heatImg) {
      ctx.imageSmoothingEnabled = true;
      const [sx, sy] = this.toScreen(0, 1);
      ctx.drawImage(this.heatImg, sx, sy, this.size, this.size);
    }
    ctx.strokeStyle = '#c9ced6';
    ctx.strokeRect(this.pad, this.pad, this.size, this.size);
    // Everything else stays inside the frame (arrivals can fall outside the plane's unit square).
    ctx.save();
    ctx.beginPath(); ctx.rect(this.pad, this.pad, this.size, this.size); ctx.clip();
    // Universe, grey.
    if (this.universe) {
      ctx.fillStyle = this.plane ? '#6b7280' : '#b8bec7';
      const r = this.plane ? 5 : 4;
      for (let i = 0; i < this.universe.length; i += 2) {
        const [x, y] = this.toScreen(this.universe[i], this.universe[i + 1]);
        ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill();
      }
    }
    // Arrivals, oldest first, fading.
    for (let k = 0; k < this.arrN; k++) {
      const i = (this.arrHead - this.arrN + k + TRAIL) % TRAIL;
      const age = (this.arrN - k) / this.arrN;
      ctx.globalAlpha = 0.15 + 0.75 * (1 - age);
      ctx.fillStyle = this.arrLlm[i] ? LLM : HIT;
      const [x, y] = this.toScreen(this.arrX[i], this.arrY[i]);
      ctx.fillRect(x - 2, y - 2, 4, 4);
    }
    ctx.globalAlpha = 1;
    // Newest arrival: a square in its decision's colour.
    if (this.arrN) {
      const i = (this.arrHead - 1 + TRAIL) % TRAIL;
      const [x, y] = this.toScreen(this.arrX[i], this.arrY[i]);
      ctx.strokeStyle = this.arrLlm[i] ? LLM : HIT;
      ctx.lineWidth = 2.5;
      ctx.strokeRect(x - 7, y - 7, 14, 14);
    }
    // Centers: small dark crosses; cached ones ringed in purple.
    const c = this.centers;
    if (c) {
      for (let j = 0; j < c.keys.length; j++) {
        const [x, y] = this.toScreen(c.xy[2 * j], c.xy[2 * j + 1]);
        ctx.strokeStyle = '#1f2937';
        ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.moveTo(x - 4, y); ctx.lineTo(x + 4, y); ctx.moveTo(x, y - 4); ctx.lineTo(x, y + 4); ctx.stroke();
        if (c.cached[j]) {
          ctx.strokeStyle = CACHED;
          ctx.lineWidth = 3;
          ctx.beginPath(); ctx.arc(x, y, 9, 0, 2 * Math.PI); ctx.stroke();
        }
      }
    }
    ctx.restore();
    if (labelText) {
      ctx.font = '12px system-ui, sans-serif';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'bottom';
      const tw = ctx.measureText(labelText).width;
      ctx.fillStyle = 'rgba(255,255,255,0.85)';
      ctx.fillRect(this.pad + 2, this.pad + this.size - 20, tw + 8, 18);
      ctx.fillStyle = '#374151';
      ctx.fillText(labelText, this.pad + 6, this.pad + this.size - 5);
    }
  }

  setCounters(cp) {
    const f = (v, d = 3) => (v == null || !Number.isFinite(v) ? '–' : v.toFixed(d));
    const set = (k, v) => { if (this.counterEls[k]) this.counterEls[k].textContent = v; };
    set('round', String(cp.t));
    set('hit', `${(cp.hit_rate * 100).toFixed(1)} %`);
    set('cost', f(cp.realised_cost, 1));
    set('switches', String(cp.switches));
    set('regret', f(cp.avg_regret, 4));
  }

  hover(e) {
    const c = this.centers;
    if (!c || !c.keys.length) { this.tip.hidden = true; return; }
    const rect = this.canvas.getBoundingClientRect();
    const mx = e.clientX - rect.left, my = e.clientY - rect.top;
    let best = -1, bestD = 14 * 14;
    for (let j = 0; j < c.keys.length; j++) {
      const [x, y] = this.toScreen(c.xy[2 * j], c.xy[2 * j + 1]);
      const d = (x - mx) ** 2 + (y - my) ** 2;
      if (d < bestD) { bestD = d; best = j; }
    }
    if (best < 0) { this.tip.hidden = true; return; }
    this.showTip(best);
  }

  key(e) {
    const c = this.centers;
    if (!c || !c.keys.length) return;
    const n = c.keys.length;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') this.selected = (this.selected + 1) % n;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') this.selected = (this.selected - 1 + n) % n;
    else if (e.key === 'Escape') { this.tip.hidden = true; return; }
    else return;
    e.preventDefault();
    this.showTip(this.selected);
  }

  showTip(best) {
    const c = this.centers;
    const rect = this.canvas.getBoundingClientRect();
    const sd = c.sd[best];
    const f = (v) => (Number.isFinite(v) ? v.toFixed(3) : '–');
    this.tip.textContent = [
      `center #${best} (round ${c.keys[best]})`,
      `weight ŵ = ${f(c.weight[best])} (n = ${c.count[best]})`,
      `estimate ĉ = ${f(c.estimate[best])}${Number.isFinite(sd) ? ` ± ${f(sd)}` : ''}`,
      `acting cost = ${f(c.actingCost[best])}`,
      `cached: ${c.cached[best] ? 'yes' : 'no'}`,
      c.cached[best] ? `contribution to L̂ = ${f(c.contribution[best])}` : '',
    ].filter(Boolean).join('\n');
    this.tip.hidden = false;
    const [x, y] = this.toScreen(c.xy[2 * best], c.xy[2 * best + 1]);
    const left = Math.min(x + 12, rect.width - 200);
    this.tip.style.left = `${Math.max(0, left)}px`;
    this.tip.style.top = `${y + 12}px`;
  }
}
