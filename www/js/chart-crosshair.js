// @ts-check
// A drawn figure's crosshair: the readout at the pointer or at the x reached with the arrow keys,
// and Enter or a click on a point or cell (charts.js draws the figure and calls it).

import { band, finite, num } from './chart-scales.js';
import { svgEl } from './chart-svg.js';

/** @typedef {import('./charts.js').ChartSpec} ChartSpec */

/**
 * The crosshair and readout. Line and scatter: a vertical rule at the nearest x with every shown
 * series' value there (← → Home End step through the x values). Path: the nearest point with its
 * meta (← → step through the points in order). Heatmap: the cell under the pointer (arrows move).
 * Enter (or a click) on a point or cell calls spec.onPoint. Returns `show(i)`, which puts the
 * cursor on item i (clamped), or null when there is nothing to point at.
 */
export function crosshair(svg, spec, built, readout) {
  const x = svg.scale('x'), y = svg.scale('y');
  const W = +svg.getAttribute('width');
  const layer = svgEl('g', { class: 'crosshair', 'pointer-events': 'none' });
  svg.append(layer);
  const [ry0, ry1] = y.range;
  const toLocal = (ev) => { const r = svg.getBoundingClientRect(); const k = W / r.width; return [(ev.clientX - r.left) * k, (ev.clientY - r.top) * k]; };
  let cur = -1;
  const heat = spec.kind === 'heatmap', path = spec.kind === 'path';
  const items = heat ? built.cells : path ? built.points : built.xs;
  if (!items.length) return null;
  const pos = (q) => (heat ? [x.apply(q.x) + x.bandwidth / 2, y.apply(q.y) + y.bandwidth / 2] : [x.apply(q.p.x), y.apply(q.p.y)]);
  const show = (i) => {
    cur = Math.max(0, Math.min(items.length - 1, i));
    layer.replaceChildren();
    svg.dataset.cursor = String(cur);
    if (heat) {
      const c = items[cur];
      layer.append(svgEl('rect', { x: x.apply(c.x), y: y.apply(c.y), width: x.bandwidth, height: y.bandwidth, fill: 'none', stroke: '#000', 'stroke-width': 2 }));
      readout.textContent = `${spec.xLabel} ${c.x}, ${spec.yLabel} ${c.y}: ${spec.valueLabel || 'value'} ${num(c.value)}${band(c)}${c.n ? ` (n = ${c.n})` : ''}${c.meta ? ` — ${c.meta}` : ''}`;
      return;
    }
    if (path) {
      const q = items[cur];
      const [px, py] = pos(q);
      layer.append(svgEl('circle', { cx: px, cy: py, r: 8, fill: 'none', stroke: '#000', 'stroke-width': 1.5 }));
      const xb = finite(q.p.xlo) && finite(q.p.xhi) && q.p.xhi > q.p.xlo ? ` [${num(q.p.xlo)}, ${num(q.p.xhi)}]` : '';
      readout.textContent = `${q.label}: ${spec.xLabel} ${num(q.p.x)}${xb}, ${spec.yLabel} ${num(q.p.y)}${band(q.p)}${q.p.meta ? ` — ${q.p.meta}` : ''}`;
      return;
    }
    const xv = items[cur];
    const px = x.apply(xv);
    layer.append(svgEl('line', { x1: px, x2: px, y1: ry0, y2: ry1, stroke: '#111827', 'stroke-width': 1, 'stroke-dasharray': '3,3' }));
    const at = [];
    for (const q of built.points) if (q.p.x === xv) at.push(q);
    for (const q of at) {
      const py = y.apply(q.p.y);
      if (finite(py)) layer.append(svgEl('circle', { cx: px, cy: py, r: 4.5, fill: 'white', stroke: q.colour, 'stroke-width': 2 }));
    }
    readout.textContent = `${spec.xLabel || 'x'} = ${num(xv)}: ${at.map((q) => `${q.label} ${num(q.p.y)}${band(q.p)}`).join('; ')}`;
  };
  const nearest = (lx, ly) => {
    let best = 0, bd = Infinity;
    items.forEach((q, i) => {
      let dd;
      if (heat || path) { const [px, py] = pos(q); dd = (px - lx) ** 2 + (py - ly) ** 2; } else dd = Math.abs(x.apply(q) - lx);
      if (dd < bd) { bd = dd; best = i; }
    });
    return best;
  };
  const pick = () => {
    if (!spec.onPoint || cur < 0) return;
    if (heat) spec.onPoint(null, cur, items[cur]);
    else if (path) spec.onPoint(items[cur].key, items[cur].i, items[cur].p);
  };
  svg.addEventListener('pointermove', (ev) => show(nearest(...toLocal(ev))));
  svg.addEventListener('click', (ev) => { show(nearest(...toLocal(ev))); pick(); });
  svg.addEventListener('keydown', (ev) => {
    const cols = heat ? new Set(items.map((c) => c.x)).size : 1;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: heat ? cols : 1, ArrowUp: heat ? -cols : -1 }[ev.key];
    if (step !== undefined) { show(cur < 0 ? 0 : cur + step); ev.preventDefault(); } else if (ev.key === 'Home') { show(0); ev.preventDefault(); } else if (ev.key === 'End') { show(items.length - 1); ev.preventDefault(); } else if (ev.key === 'Enter' || ev.key === ' ') { if (cur < 0) show(0); pick(); ev.preventDefault(); }
  });
  if (spec.onPoint) svg.classList.add('pickable');
  return show;
}
