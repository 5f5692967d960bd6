// Unit tests of two pure parts of the chart module: which series of a line chart lie so far above
// the others that they would flatten them (outliers, outlierNote: www/js/chart-scales.js), and
// where reference labels go so that they cross no data and stay inside the frame (placeLabels,
// segmentMeetsBox: www/js/chart-labels.js). Hand-computed cases.
import test from 'node:test';
import assert from 'node:assert/strict';
import { outliers, outlierNote, domains, OUTLIER_SHARE, placeLabels, segmentMeetsBox } from '../../www/js/charts.js';

const flat = (key, y, { lo = y, hi = y, marker } = {}) => ({ key, label: key.toUpperCase(), marker, points: [1, 2, 3, 4].map((x) => ({ x, y, lo, hi })) });
const line = (series, extra = {}) => ({ title: 'T', xLabel: 'round t', yLabel: 'R(t)/t', series, ...extra });

test('a series wholly above three others that would fill under half the axis is set aside, with its last point', () => {
  // e at 0.5 (band 0.45–0.6); the others up to 0.2: y axis [0, 0.63] with it, [0, 0.21] without (1/3 ≤ 1/2).
  const spec = line([flat('a', 0.1, { hi: 0.2 }), flat('b', 0.08), flat('c', 0.05), flat('e', 0.5, { lo: 0.45, hi: 0.6 })]);
  assert.deepEqual(outliers(spec), [{ key: 'e', label: 'E', x: 4, y: 0.5 }]);
  const without = domains(spec, { hidden: new Set(['e']) }), withIt = domains(spec);
  assert.ok(without.y[1] - without.y[0] <= OUTLIER_SHARE * (withIt.y[1] - withIt.y[0]));
  assert.equal(outlierNote(spec, outliers(spec)), 'E (R(t)/t 0.5 at round t = 4) is off this scale, far above the others: show it from the legend.');
  assert.equal(outlierNote(spec, outliers(spec), new Set(['e'])), 'E (R(t)/t 0.5 at round t = 4) lies far above the others: hide it from the legend to read them.');
  assert.equal(outlierNote(spec, outliers(spec), new Set(), { exported: true }), 'E (R(t)/t 0.5 at round t = 4) is left out of this figure: far above the others, off its scale.');
  assert.equal(outlierNote(spec, []), '');
});

test('no series is set aside when its band reaches the others, when the others would fill more than half, or on a log axis', () => {
  // Band down to 0.19 < 0.2, the top of a's band: it crosses the bulk.
  assert.deepEqual(outliers(line([flat('a', 0.1, { hi: 0.2 }), flat('b', 0.08), flat('c', 0.05), flat('e', 0.5, { lo: 0.19, hi: 0.6 })])), []);
  // e at 0.35 over others up to 0.2: [0, 0.2·1.05] is 0.57 of [0, 0.35·1.05] > 1/2.
  assert.deepEqual(outliers(line([flat('a', 0.2), flat('b', 0.08), flat('c', 0.05), flat('e', 0.35)])), []);
  // The same at 0.41: 0.2/0.41 = 0.488 ≤ 1/2.
  assert.equal(outliers(line([flat('a', 0.2), flat('b', 0.08), flat('c', 0.05), flat('e', 0.41)])).length, 1);
  assert.deepEqual(outliers(line([flat('a', 0.1), flat('b', 0.08), flat('c', 0.05), flat('e', 5)], { logY: true })), []);
  assert.deepEqual(outliers(line([flat('a', 0.1), flat('b', 0.08), flat('c', 0.05), flat('e', 5)]), { logY: true }), []);
  // A scatter, and a reference mark at the outlier's height, which keeps the axis there anyway.
  assert.deepEqual(outliers(line([flat('a', 0.1), flat('b', 0.08), flat('c', 0.05), flat('e', 5)], { kind: 'scatter' })), []);
  assert.deepEqual(outliers(line([flat('a', 0.1), flat('b', 0.08), flat('c', 0.05), flat('e', 5)], { refs: [{ y: 5, label: 'paper', kind: 'paper' }] })), []);
  // A fitted line or shape (marker 'none') is drawn to be read against the data: never set aside.
  assert.deepEqual(outliers(line([flat('a', 0.1), flat('b', 0.08), flat('c', 0.05), flat('fit', 5, { marker: 'none' })])), []);
});

test('the bulk stays: at least two series and more than half of them; series the reader hid count for neither side', () => {
  assert.deepEqual(outliers(line([flat('a', 0.1), flat('e', 5)])), []);
  // Two far above two: e alone is not far above f (without it the axis is 0.8 as tall), and both
  // would leave 2 of 4, not more than half: none.
  assert.deepEqual(outliers(line([flat('a', 0.1), flat('b', 0.1), flat('e', 5), flat('f', 4)])), []);
  // Five series, two far above: both go (3 of 5 stay), highest first; the note names both.
  const two = line([flat('a', 0.1), flat('b', 0.1), flat('c', 0.1), flat('e', 5), flat('f', 4)]);
  assert.deepEqual(outliers(two).map((o) => o.key), ['e', 'f']);
  assert.match(outlierNote(two, outliers(two)), /^E \(R\(t\)\/t 5 at round t = 4\) and F \(R\(t\)\/t 4 at round t = 4\) are off this scale, far above the others: show them from the legend\.$/);
  // The reader hid b: a, c stay, and e is 1 of 3 drawn.
  assert.deepEqual(outliers(line([flat('a', 0.1), flat('b', 0.1), flat('c', 0.1), flat('e', 5)]), { hidden: new Set(['b']) }).map((o) => o.key), ['e']);
  assert.deepEqual(outliers(line([flat('a', 0.1), flat('b', 0.1), flat('e', 5)]), { hidden: new Set(['b']) }), []);
  // Thousands in x are written as the page writes T.
  const big = line([flat('a', 0.1), flat('b', 0.1), flat('c', 0.1), { key: 'e', label: 'E', points: [{ x: 100, y: 5 }, { x: 1500, y: 5.25 }] }]);
  assert.match(outlierNote(big, outliers(big)), /^E \(R\(t\)\/t 5\.25 at round t = 1,500\)/);
});

test('segmentMeetsBox: crossing, inside, touching and missing segments', () => {
  const r = { x0: 0, y0: 0, x1: 10, y1: 5 };
  assert.ok(segmentMeetsBox([-5, 2], [15, 2], r)); // straight through
  assert.ok(segmentMeetsBox([2, 2], [3, 3], r)); // wholly inside
  assert.ok(segmentMeetsBox([-1, -1], [11, 6], r)); // corner to corner
  assert.ok(!segmentMeetsBox([-5, 6], [15, 6], r)); // below
  assert.ok(!segmentMeetsBox([11, -3], [20, 3], r)); // to the right
  assert.ok(!segmentMeetsBox([-4, 3], [1, 8], r)); // passes the lower-left corner outside (y = x + 7 at x ≤ 0 is above 5)
});

const frame = { x0: 58, y0: 14, x1: 558, y1: 240 };
const within = (b, f) => b.x0 >= f.x0 && b.x1 <= f.x1 && b.y0 >= f.y0 && b.y1 <= f.y1;

test('a rule label takes the first place, left and above its line, when that crosses nothing', () => {
  const [b] = placeLabels([{ at: 'rule', y: 200, w: 100, h: 13 }], { lines: [] }, frame);
  assert.deepEqual(b, { x0: 61, y0: 184, x1: 161, y1: 197, hits: 0 });
});

test('a rule label moves off a series that crosses its first places, and never outside the frame', () => {
  // A series climbing over the left half just above the line; the label goes to the right, above.
  const lines = [[[58, 190], [300, 150], [558, 60]]];
  const [b] = placeLabels([{ at: 'rule', y: 200, w: 100, h: 13 }], { lines }, frame);
  assert.equal(b.hits, 0);
  assert.ok(within(b, frame));
  for (const pl of lines) for (let i = 1; i < pl.length; i++) assert.ok(!segmentMeetsBox(pl[i - 1], pl[i], b), JSON.stringify(b));
  // A line at the frame's top: "above" is outside, so the label goes below it.
  const [top] = placeLabels([{ at: 'rule', y: 16, w: 100, h: 13 }], { lines: [] }, frame);
  assert.deepEqual([top.y0, top.x0], [19, 61]);
  // Wider than the frame: placed from its top-left corner, still inside on the left.
  const [wide] = placeLabels([{ at: 'rule', y: 100, w: 600, h: 13 }], { lines: [] }, frame);
  assert.equal(wide.x0, 61);
});

test('two labels never overlap; a reference line is crossed only where no place is free of data', () => {
  // Rules at y 236 and 228 (0 and 0.0083 on fig-c): the first label above 236 crosses the rule at
  // 228 (cost 10, no better place: below 236 is outside the frame); the second goes where the first is not.
  const rules = [[[58, 236], [558, 236]], [[58, 228], [558, 228]]];
  const [a, b] = placeLabels([{ at: 'rule', y: 236, w: 90, h: 13 }, { at: 'rule', y: 228, w: 240, h: 13 }], { lines: [], rules }, frame);
  assert.equal(a.hits, 10);
  assert.equal(b.hits, 0);
  assert.ok(!(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1), `${JSON.stringify(a)} ${JSON.stringify(b)}`);
  assert.ok(within(a, frame) && within(b, frame));
});

test('a point label goes left of and above its diamond at the frame\'s right edge, else below; markers and bands count', () => {
  const [p] = placeLabels([{ at: 'point', x: 558, y: 100, w: 80, h: 13 }], { lines: [] }, frame);
  assert.deepEqual(p, { x0: 471, y0: 80, x1: 551, y1: 93, hits: 0 });
  // A marker in that place: below-left instead.
  const [q] = placeLabels([{ at: 'point', x: 558, y: 100, w: 80, h: 13 }], { lines: [], points: [[500, 85]] }, frame);
  assert.deepEqual([q.x0, q.y0, q.hits], [471, 107, 0]);
  // A band under both left places and none on the right would still leave it inside: right is
  // out of the frame, so it takes the cheaper band crossing (1) over a marker (100).
  const bands = [[[480, 70, 120]]];
  const [r] = placeLabels([{ at: 'point', x: 558, y: 100, w: 80, h: 13 }], { lines: [], points: [[500, 85]], bands }, frame);
  assert.equal(r.hits, 1);
  assert.ok(within(r, frame));
});
