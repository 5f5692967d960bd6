// @ts-check
// Where a chart's reference labels go ("paper at T = 5,000: … 0.0083", "oracle M_orc (0)"): the
// pure half, in pixels, unit-tested in node (tests/charts/). charts.js measures the labels,
// projects the drawn data, and draws each label in the box chosen here.

/**
 * @typedef {{ x0: number, y0: number, x1: number, y1: number }} Box a rectangle in pixels (y down)
 * @typedef {[number, number]} Pt a point in pixels
 * @typedef {{ at: 'rule', y: number, w: number, h: number } | { at: 'point', x: number, y: number, w: number, h: number }} LabelWant
 *   a label of size w × h for a horizontal reference line at y, or for a marked point (x, y)
 * @typedef {object} Obstacles what the labels should not cover, in pixels
 * @property {Pt[][]} lines polylines of data: the series' lines and error bars
 * @property {Pt[][]} [rules] polylines of reference marks (lines, a point's diamond): a label may
 *   cross one where nothing better exists (its box is drawn on white, masking it), never data
 * @property {Pt[]} [points] markers, each a square of side 2 × `radius`
 * @property {number} [radius]
 * @property {[number, number, number][][]} [bands] per series, its band as [x, y_lo, y_hi] by x
 */

/** Pixels between a label and its line or point, and from the frame's edge. */
const GAP = 3, EDGE = 3;

/** Whether segment a–b meets box `r` (Liang–Barsky clipping). @param {Pt} a @param {Pt} b @param {Box} r */
export function segmentMeetsBox(a, b, r) {
  let t0 = 0, t1 = 1;
  const dx = b[0] - a[0], dy = b[1] - a[1];
  for (const [p, q] of [[-dx, a[0] - r.x0], [dx, r.x1 - a[0]], [-dy, a[1] - r.y0], [dy, r.y1 - a[1]]]) {
    if (p === 0) { if (q < 0) return false; continue; }
    const t = q / p;
    if (p < 0) { if (t > t1) return false; if (t > t0) t0 = t; } else { if (t < t0) return false; if (t < t1) t1 = t; }
  }
  return true;
}

const overlap = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
const inside = (r, f) => r.x0 >= f.x0 - 0.01 && r.x1 <= f.x1 + 0.01 && r.y0 >= f.y0 - 0.01 && r.y1 <= f.y1 + 0.01;

/** The places tried for one label, in order of preference (the first wins a tie). @param {LabelWant} l @param {Box} f */
function candidates(l, f) {
  const box = (x0, y0) => ({ x0, y0, x1: x0 + l.w, y1: y0 + l.h });
  const out = [];
  if (l.at === 'rule') {
    const left = f.x0 + EDGE, right = f.x1 - EDGE - l.w, steps = 12;
    const xs = [left, right, ...Array.from({ length: steps - 1 }, (_, i) => left + ((right - left) * (i + 1)) / steps)];
    for (const x of xs) for (const y0 of [l.y - GAP - l.h, l.y + GAP]) out.push(box(x, y0));
  } else {
    const d = 7; // past the point's diamond
    for (const [x0, y0] of [[l.x - d - l.w, l.y - d - l.h], [l.x - d - l.w, l.y + d], [l.x + d, l.y - d - l.h], [l.x + d, l.y + d],
      [l.x - l.w / 2, l.y - d - l.h], [l.x - l.w / 2, l.y + d], [l.x - d - l.w, l.y - l.h / 2], [l.x + d, l.y - l.h / 2]]) out.push(box(x0, y0));
  }
  return out;
}

/** Box `r` moved into frame `f` as far as it fits. @param {Box} r @param {Box} f */
function clampInto(r, f) {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const x0 = Math.max(f.x0 + EDGE, Math.min(r.x0, f.x1 - EDGE - w)), y0 = Math.max(f.y0, Math.min(r.y0, f.y1 - h));
  return { x0, y0, x1: x0 + w, y1: y0 + h };
}

/**
 * Boxes for reference labels that cross no series where a place exists (docs/SPEC-NOTES.md,
 * "Reference labels"): each label, in the given order, takes the place of least cost
 * among those tried — beside its line (above or below it, from the frame's left edge to its
 * right at 13 places) or around its point (left, right, above, below) — and always inside the
 * frame `frame` (a label wider or taller than it is placed from its top-left corner). Cost: a
 * label already placed under it counts 100,000 (text on text is never read), each data segment or marker it covers 100, each
 * reference mark's segment 10, and each band it covers 1; ties go to the earlier place.
 * Returns one Box per label, with its cost as `hits` (below 100: it covers no data and no
 * other label).
 * @param {LabelWant[]} labels
 * @param {Obstacles} data
 * @param {Box} frame
 * @returns {(Box & { hits: number })[]}
 */
export function placeLabels(labels, data, frame) {
  const placed = [];
  const r = data.radius ?? 3.5;
  const segsOf = (pls) => pls.flatMap((pl) => pl.slice(1).map((b, i) => [pl[i], b]));
  const segs = segsOf(data.lines), rules = segsOf(data.rules || []);
  const cost = (c) => {
    let n = 0;
    for (const p of placed) if (overlap(c, p)) n += 100000;
    for (const [a, b] of segs) if (segmentMeetsBox(a, b, c)) n += 100;
    for (const [a, b] of rules) if (segmentMeetsBox(a, b, c)) n += 10;
    for (const [x, y] of data.points || []) if (overlap(c, { x0: x - r, y0: y - r, x1: x + r, y1: y + r })) n += 100;
    for (const band of data.bands || []) if (band.some(([x, lo, hi]) => x >= c.x0 && x <= c.x1 && Math.min(lo, hi) < c.y1 && Math.max(lo, hi) > c.y0)) n += 1;
    return n;
  };
  for (const l of labels) {
    const tries = candidates(l, frame).filter((c) => inside(c, frame));
    if (!tries.length) tries.push(clampInto(candidates(l, frame)[0], frame));
    let best = tries[0], bestCost = Infinity;
    for (const c of tries) { const k = cost(c); if (k < bestCost) { best = c; bestCost = k; } }
    placed.push({ ...best, hits: bestCost });
  }
  return placed;
}
