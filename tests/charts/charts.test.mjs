// Unit tests of the chart module's pure logic (www/js/charts.js): axis domains (bands, bars and
// reference values included, hidden series left out, the skip cut), integer and log ticks, the
// decades rule of the log-y switch, styles, the text alternative and the caption. Hand-computed
// cases. Run: node --experimental-detect-module --test tests/charts/ (scripts/test.sh).
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  domains, integerTicks, logTicks, spansDecades, summarise, captionText, styleOf, drawnPoints, skipCut, wrap,
  plotSymbol, FALLBACK_COLOURS,
} from '../../www/js/charts.js';

const line = (series, extra = {}) => ({ title: 'T', xLabel: 'round t', yLabel: 'R(t)/t', series, ...extra });

test('the y domain contains every band, not just the means, and includes 0 on a linear axis', () => {
  const spec = line([{ key: 'a', label: 'A', points: [{ x: 1, y: 2, lo: 1, hi: 3 }, { x: 2, y: 2, lo: -1, hi: 6 }] }]);
  const d = domains(spec);
  // y values 2, 1, 3, 2, −1, 6 → [−1, 6], padded by 5% of the span (0.35) on both sides (y0 < 0).
  assert.deepEqual(d.x, [1, 2]);
  assert.ok(Math.abs(d.y[0] - -1.35) < 1e-12 && Math.abs(d.y[1] - 6.35) < 1e-12, `${d.y}`);
  // Means alone would end at 2: the band's 6 must be inside.
  for (const p of spec.series[0].points) assert.ok(d.y[0] <= p.lo && p.hi <= d.y[1]);
});

test('a positive linear axis starts at 0 and pads only the top', () => {
  const d = domains(line([{ key: 'a', label: 'A', points: [{ x: 0, y: 5, lo: 4, hi: 10 }] }]));
  assert.deepEqual(d.y, [0, 10.5]);
  // One x value: the x domain is widened by one either side.
  assert.deepEqual(d.x, [-1, 1]);
});

test('horizontal bars (xlo, xhi) widen the x domain; scatter and path pad it by 6%', () => {
  const spec = { kind: 'path', series: [{ key: 'f', label: 'F', points: [{ x: 0.2, y: 1, xlo: 0.1, xhi: 0.5 }, { x: 0.3, y: 2 }] }] };
  const d = domains(spec);
  assert.ok(Math.abs(d.x[0] - (0.1 - 0.024)) < 1e-12 && Math.abs(d.x[1] - (0.5 + 0.024)) < 1e-12, `${d.x}`);
});

test('the frontier axes: y zoomed to the data, both kept inside the ranges of their quantities', () => {
  // Costs 0.0768–0.0863 with bars to 0.075 and 0.088: y is [0.075, 0.088] ± 5% of 0.013, not from 0;
  // an error rate of 0.001 with its bar clipped at 0: the 6% padding would reach −0.00054, xRange stops it at 0.
  const spec = { kind: 'path', zoomY: true, xRange: [0, 1], yRange: [0, Infinity], series: [{ key: 'f', label: 'F', points: [
    { x: 0.001, y: 0.0768, xlo: 0, xhi: 0.008, lo: 0.075, hi: 0.078 }, { x: 0.005, y: 0.0863, lo: 0.085, hi: 0.088 }] }] };
  const d = domains(spec);
  assert.ok(Math.abs(d.y[0] - (0.075 - 0.00065)) < 1e-12 && Math.abs(d.y[1] - (0.088 + 0.00065)) < 1e-12, `${d.y}`);
  assert.equal(d.x[0], 0);
  assert.ok(Math.abs(d.x[1] - (0.008 + 0.00048)) < 1e-12, `${d.x}`);
  // Without zoomY the same data start at 0.
  assert.equal(domains({ ...spec, zoomY: false }).y[0], 0);
});

test('hidden series leave the domain; reference values and the zero line join it', () => {
  const spec = line([
    { key: 'a', label: 'A', points: [{ x: 1, y: 1 }, { x: 2, y: 2 }] },
    { key: 'b', label: 'B', points: [{ x: 1, y: 100 }, { x: 2, y: 200 }] },
  ], { refs: [{ y: 3.5, label: 'paper' }, { x: 5, y: 0.5, label: 'marker' }] });
  assert.equal(domains(spec).y[1], 200 + 0.05 * 200);
  const d = domains(spec, { hidden: new Set(['b']) });
  assert.equal(d.y[1], 3.5 + 0.05 * 3.5);
  assert.deepEqual(d.x, [1, 5]);
});

test('a log y axis keeps only positive values and pads by a factor 1.25', () => {
  const spec = line([{ key: 'a', label: 'A', points: [{ x: 1, y: 0.01, lo: -0.5, hi: 0.02 }, { x: 2, y: 10, lo: 5, hi: 20 }] }]);
  const d = domains(spec, { logY: true });
  assert.ok(Math.abs(d.y[0] - 0.01 / 1.25) < 1e-15 && Math.abs(d.y[1] - 25) < 1e-12, `${d.y}`);
  assert.equal(d.decades, true);
  // A log x axis drops x ≤ 0 and, for a scatter, pads by 1.4×.
  const s = { kind: 'scatter', logX: true, series: [{ key: 'p', label: 'P', points: [{ x: 0, y: 1 }, { x: 10, y: 1 }, { x: 100, y: 2 }] }] };
  const dx = domains(s).x;
  assert.ok(Math.abs(dx[0] - 10 / 1.4) < 1e-12 && Math.abs(dx[1] - 140) < 1e-9, `${dx}`);
});

test('the log-y switch is offered only where positive values span two decades', () => {
  assert.equal(spansDecades([0.005, 0.5, 0.99]), true);
  assert.equal(spansDecades([0.01, 0.5, 0.99]), false); // 99×: not quite two decades
  assert.equal(spansDecades([1, 50, 99]), false);
  assert.equal(spansDecades([-5, 0, 3]), false);
  assert.equal(spansDecades([]), false);
});

test('integer ticks: integers only, on a 1-2-5 step, at most about the count asked', () => {
  assert.deepEqual(integerTicks(1, 5, 8), [1, 2, 3, 4, 5]);
  assert.deepEqual(integerTicks(0.6, 5.4, 8), [1, 2, 3, 4, 5]);
  assert.deepEqual(integerTicks(2, 40, 8), [5, 10, 15, 20, 25, 30, 35, 40]);
  assert.deepEqual(integerTicks(2, 40, 4), [10, 20, 30, 40]);
  assert.deepEqual(integerTicks(1, 20, 4), [5, 10, 15, 20]);
  assert.deepEqual(integerTicks(3, 3, 5), [3]);
  assert.deepEqual(integerTicks(1.2, 1.8), []);
  for (const [a, b, n] of [[0, 7, 3], [5, 123, 6], [1, 1000, 10]]) {
    const t = integerTicks(a, b, n);
    assert.ok(t.length >= 1 && t.length <= n + 1 && t.every(Number.isInteger) && t.every((v) => v >= a && v <= b), `${a}..${b}: ${t}`);
  }
});

test('log ticks: 1, 2, 5 per decade within the range; none for a non-positive start', () => {
  assert.deepEqual(logTicks(0.8, 60), [1, 2, 5, 10, 20, 50]);
  assert.deepEqual(logTicks(0.003, 0.03), [0.005, 0.01, 0.02]);
  assert.deepEqual(logTicks(0, 10), []);
  assert.deepEqual(logTicks(-1, 10), []);
});

test('line charts draw from the skip cut on, sorted by x; a path keeps its order', () => {
  const pts = [{ x: 100, y: 1 }, { x: 0, y: 9 }, { x: 4, y: 5 }, { x: 50, y: 2 }];
  const spec = line([{ key: 'a', label: 'A', points: pts }], { skipX: 0.05 });
  assert.equal(skipCut(spec), 5);
  assert.deepEqual(drawnPoints(spec, spec.series[0]).map((p) => p.x), [50, 100]);
  // The skipped points do not stretch the y axis.
  assert.equal(domains(spec).y[1], 2 * 1.05);
  const path = { kind: 'path', skipX: 0.05, series: [{ key: 'a', label: 'A', points: pts }] };
  assert.deepEqual(drawnPoints(path, path.series[0]).map((p) => p.x), [100, 0, 4, 50]);
});

test('styles: the series\' own (the engine\'s) first, else Okabe–Ito, marker and dash by position', () => {
  assert.deepEqual(styleOf({ colour: '#0072B2', marker: 'circle', dash: [] }, 3), { colour: '#0072B2', marker: 'circle', dash: [] });
  const a = styleOf({}, 0), b = styleOf({}, 1);
  assert.equal(a.colour, FALLBACK_COLOURS[0]);
  assert.ok(a.colour !== b.colour && a.marker !== b.marker && a.dash.join() !== b.dash.join());
  assert.equal(plotSymbol('triangle-up'), 'triangle');
  assert.equal(plotSymbol('cross'), 'times');
  assert.equal(typeof plotSymbol('pentagon').draw, 'function');
});

test('summarise: last point per series with its interval; a heatmap by its range', () => {
  const spec = line([{ key: 'a', label: 'A', points: [{ x: 1, y: 0.5 }, { x: 300, y: 0.0123456, lo: 0.01, hi: 0.015 }] }]);
  assert.equal(summarise(spec), 'T. R(t)/t against round t. Last points: A: 0.0123 [0.01, 0.015] at 300.');
  assert.equal(summarise(line([])), 'T. R(t)/t against round t. No data yet.');
  const heat = { kind: 'heatmap', title: 'H', xLabel: 'ε', yLabel: 'β', valueLabel: 'R(T)/T', cells: [{ x: 0.1, y: 1, value: 3 }, { x: 0.2, y: 1, value: 1 }, { x: 0.1, y: 2, value: 2 }] };
  assert.equal(summarise(heat), 'H. β against ε. R(T)/T of 3 cells from 1 (at 0.2, 1) to 3 (at 0.1, 1).');
});

test('the caption names the figure, the resolved run, the seeds and the interval', () => {
  const spec = line([{ key: 'greedy', label: 'Greedy', points: [] }], { refs: [{ y: 0, label: 'oracle M_orc (0)' }] });
  // `interval`: the engine's words for "±" (intervalWords(), csc::experiment::INTERVAL), which
  // report.js's runOf passes; the caption only quotes them.
  const INTERVAL_WORDS = 'mean ± 95% Student-t half-width over the n seeds';
  const run = { id: 'fig-c', title: 'Online regret', description: 'synthetic, k = 5, ε = 0.3, T = 2000, n_eval = 500, β = 1, Greedy', seeds: 5, firstSeed: 0, engine: 'csc 0.1.0', interval: INTERVAL_WORDS };
  assert.equal(captionText(spec, run),
    'T: R(t)/t against round t, for Greedy. Experiment fig-c (Online regret): synthetic, k = 5, ε = 0.3, T = 2000, n_eval = 500, β = 1, Greedy. '
    + `5 seeds from seed 0. Lines: the mean over seeds; bands: ${INTERVAL_WORDS} (shown from 3 seeds up). Reference marks: oracle M_orc (0). csc 0.1.0.`);
  // The engine's description names its seeds: not said twice.
  const named = captionText(spec, { ...run, description: 'synthetic, T = 300, Greedy, 3 seeds (0…)' });
  assert.ok(named.includes('Greedy, 3 seeds (0…). Lines:') && !named.includes('from seed'), named);
  const scatter = captionText({ title: 'S', kind: 'scatter', xLabel: 'x', yLabel: 'y', logX: true, series: [] }, { seeds: 1, interval: 'the engine\'s words' });
  assert.equal(scatter, 'S: y against x (log x). 1 seed. Points: the mean over seeds; bars: the engine\'s words (shown from 3 seeds up).');
  // A chart's note (P-CHR: why its AUC's range is narrow) follows what it plots.
  const noted = captionText({ title: 'P', kind: 'path', xLabel: 'x', yLabel: 'y', note: 'The range is narrow.', series: [] }, { seeds: 3 });
  assert.equal(noted, 'P: y against x. The range is narrow. 3 seeds.');
  // Lines of measured times (the engine's cost per round) carry no interval, and say so instead
  // of quoting the interval's words.
  const timed = captionText({ ...spec, noBands: true }, run);
  assert.ok(timed.includes('Lines: the mean over seeds, without bands') && !timed.includes(INTERVAL_WORDS), timed);
});

test('wrap: greedy word wrap that keeps every word', () => {
  assert.deepEqual(wrap('aaa bbb ccc dd', 7), ['aaa bbb', 'ccc dd']);
  assert.deepEqual(wrap('', 10), []);
  const text = 'one two three four five six seven eight nine ten';
  assert.equal(wrap(text, 12).join(' '), text);
});
