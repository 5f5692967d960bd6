//! Hostile input to the JavaScript API, in a real browser (run by scripts/test.sh in headless
//! Chrome and Firefox like tests/wasm_api.rs).
//!
//! The exports are called the way a page calls them: through the wasm-bindgen generated JS glue
//! (the test runner's module, imported again by a small inline JS helper below — the same module
//! instance), so wrong *types* go through the real conversions too. For every exported function
//! and class method a valid call is made first, then each argument in turn is replaced by each
//! value of a hostile set (NaN, ±Inf, ±0, negatives, fractions, 2⁵³, 1e300, strings, booleans,
//! null/undefined, objects, arrays, Symbols, BigInts, functions, typed arrays of the wrong kind or
//! with NaN, …), and calls with no arguments, too many, on freed objects and on foreign `this`
//! are made. Each call must return or throw a JS `Error` — never a wasm trap
//! (`WebAssembly.RuntimeError`, which would poison the instance) — and after each one a health
//! check (a fresh ε-net and `version()`) must still work. A list of cases that *must* throw checks
//! the messages are readable. The test also fails when an export has no hostile coverage, so a
//! new export must be added here.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
// The generated glue of this test binary: the runner's run.js imported it as './wasm-bindgen-test'
// from the server root, so this is the same, already initialised, module instance.
export function loadGlue() { return import('/wasm-bindgen-test'); }

const HOSTILE = () => [
  ['undefined', undefined], ['null', null], ['NaN', NaN], ['+Inf', Infinity], ['-Inf', -Infinity],
  ['-1', -1], ['0', 0], ['-0', -0], ['0.5', 0.5], ['2.5', 2.5], ['2^32', 2 ** 32], ['2^53', 2 ** 53],
  ['1e300', 1e300], ['-1e300', -1e300], ['"abc"', 'abc'], ['""', ''], ['"5"', '5'], ['true', true],
  ['false', false], ['{}', {}], ['[]', []], ['[1,"a",null]', [1, 'a', null]], ['[[1],[2,3]]', [[1], [2, 3]]],
  ['Symbol', Symbol('x')], ['BigInt', 10n], ['function', () => 1],
  ['Float32Array[NaN,Inf]', new Float32Array([NaN, Infinity])], ['Float64Array[]', new Float64Array(0)],
  ['Uint8Array[255]', new Uint8Array([255, 254, 0])], ['Int32Array[-1]', new Int32Array([-1, -2])],
  ['Float32Array(3)', new Float32Array(3)], ['Uint32Array[2^32-1]', new Uint32Array([4294967295])],
  ['{kind:"cubic"}', { kind: 'cubic', zeta: 1 }], ['{valueOf throws}', { valueOf() { throw new Error('boom'); } }],
  ['{k:0}', { k: 0 }], ['{__proto__ junk}', JSON.parse('{"__proto__": {"k": 3}}')], ['Date', new Date(0)],
];

function describe(v) {
  if (v === undefined) return 'undefined';
  try { return typeof v === 'object' && v !== null ? (v.constructor ? v.constructor.name : 'object') : String(v).slice(0, 60); }
  catch (_) { return typeof v; }
}

function healthy(g) {
  const net = g.epsilonNet(new Float32Array([0, 0, 1, 0, 0, 1]), 2, 0.5, 1);
  if (net.centers.length !== 3) throw new Error('ε-net gives ' + net.centers.length + ' centers');
  if (typeof g.version() !== 'string') throw new Error('version() broken');
  const d = g.Dataset.plane();
  if (d.size < 1) throw new Error('plane broken');
  d.free();
}

function release(v) {
  if (v && typeof v === 'object' && typeof v.free === 'function') { try { v.free(); } catch (_) {} }
}

// Runs the whole hostile matrix (`bench`: built with cargo feature `bench`); returns [{label, expect, outcome, message, healthy, health}].
export function runHostile(g, bench, synthetic) {
  const out = [];
  let lastExport = '';
  const probe = (label, expect, fn) => {
    let outcome, message;
    try { const v = fn(); outcome = 'ok'; message = describe(v); release(v); }
    catch (e) {
      if (e instanceof WebAssembly.RuntimeError) { outcome = 'trap'; message = String(e); }
      else if (e instanceof Error) { outcome = 'error'; message = String(e.message); }
      else { outcome = 'non-error throw'; message = describe(e); }
    }
    let ok = true, health = '';
    try { healthy(g); } catch (e) { ok = false; health = String(e); }
    out.push({ label, expect, outcome, message, healthy: ok, health });
  };
  const mustThrow = (label, fn) => probe(label, 'error', fn);
  // Each argument of a valid call replaced by each hostile value, plus no and extra arguments.
  const matrix = (name, args, call) => {
    probe(`${name}(valid)`, 'ok', () => call(args));
    probe(`${name}()`, 'any', () => call([]));
    probe(`${name}(…, extra)`, 'any', () => call([...args, 1, 'x', null]));
    for (let i = 0; i < args.length; i++) {
      for (const [hn, hv] of HOSTILE()) {
        const a = args.slice(); a[i] = hv;
        probe(`${name} arg ${i} = ${hn}`, 'any', () => call(a));
      }
    }
  };
  const fn = (name, args) => matrix(name, args, (a) => g[name](...a));
  const covered = new Set();
  const cover = (...names) => names.forEach((n) => covered.add(n));

  // ---- data ---------------------------------------------------------------------------------
  const D = Math.SQRT2;
  const pts = new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]);
  const w = new Float64Array([1, 1, 1, 1]);
  const c = new Float64Array([0.5, 0.4, 0.3, 0.2]);
  const phi = { kind: 'clipped_linear', zeta: 1 };
  const enc = new TextEncoder();
  const jsonl = enc.encode('{"text":"a","tokens":3,"embedding":[1,0]}\n{"text":"b","tokens":5,"embedding":[0,1]}\n{"text":"c","tokens":9,"embedding":[1,1]}');
  const bare = enc.encode('{"text":"a","tokens":3}\n{"text":"b","tokens":5}');
  const emb = new Uint8Array(new Float32Array([1, 0, 0, 1]).buffer);
  const emb384 = (rows) => new Uint8Array(new Float32Array(rows * 384).map((_, i) => (i % 7) / 7).buffer);
  const nqText = '{"text":"q1","tokens":4}\n{"text":"q2","tokens":8}\n';

  // ---- plain functions ------------------------------------------------------------------------
  cover('epsilonNet', 'reverseGreedy', 'exactOptimum', 'discretisedLoss', 'expectedLoss', 'krrPosterior',
        'defaultParams', 'validateParams', 'determinismReport', 'nativeDeterminismReport', 'version', 'commit',
        'policies', 'offlineAlgorithms', 'paperPresets', 'metrics', 'parameters', 'arrivalModels', 'datasets',
        'pageControls', 'paperValues', 'frontierDefinition', 'formatInterval', 'formatDifference', 'formatBounds',
        'intervalWords', 'sizedLabel', 'sizedLabelNote', 'runtimeGrowth');
  fn('epsilonNet', [pts, 2, 0.4, D]);
  fn('reverseGreedy', [pts, 2, D, w, c, 2, phi, new Uint32Array([0])]);
  fn('exactOptimum', [pts, 2, D, w, c, 2, phi]);
  fn('discretisedLoss', [pts, 2, D, w, c, new Uint32Array([0, 1]), phi]);
  fn('expectedLoss', [pts, c, pts.subarray(0, 2), 2, D, phi]);
  fn('krrPosterior', [pts, new Float64Array([0.2, 0.4, 0.6, 0.8]), 2, D, pts, 0.2, 0.1]);
  fn('defaultParams', []);
  fn('validateParams', [{ k: 3 }]);
  fn('nativeDeterminismReport', []);
  fn('version', []);
  fn('commit', []);
  fn('policies', []);
  fn('offlineAlgorithms', []);
  fn('paperPresets', []);
  fn('metrics', []);
  fn('parameters', []);
  fn('arrivalModels', []);
  fn('datasets', []);
  fn('pageControls', []);
  fn('paperValues', ['fig-c']);
  fn('formatInterval', [48.66667, 16.54154]);
  fn('formatDifference', [-0.0031, 0.0012]);
  fn('formatBounds', [0.012, 0, 0.0424]);
  fn('intervalWords', []);
  fn('sizedLabel', ['CLCB-Frozen-Cont', 1, 5]);
  fn('sizedLabelNote', [5]);
  mustThrow('sizedLabel k 0', () => g.sizedLabel('LFU', 1, 0));
  mustThrow('sizedLabel k 2.5', () => g.sizedLabel('LFU', 1, 2.5));
  mustThrow('sizedLabel label a number', () => g.sizedLabel(3, 1, 5));
  mustThrow('sizedLabelNote k -1', () => g.sizedLabelNote(-1));
  fn('runtimeGrowth', [[100, 200, 400, 800], new Float64Array([1, 4, 16, 64])]);
  mustThrow('runtimeGrowth lengths differ', () => g.runtimeGrowth([100, 200], [1]));
  mustThrow('runtimeGrowth a string', () => g.runtimeGrowth('100', [1]));
  mustThrow('runtimeGrowth a time not a number', () => g.runtimeGrowth([100, 200], [1, 'x']));
  fn('frontierDefinition', ['synthetic']);
  mustThrow('frontierDefinition an unknown dataset', () => g.frontierDefinition('nope'));
  mustThrow('frontierDefinition a number', () => g.frontierDefinition(3));
  // determinismReport takes about a second per valid call: a few hostile seeds only.
  for (const s of [NaN, -1, 0.5, 2 ** 53, 1e300, 'abc', {}, Symbol('s'), 10n]) {
    probe(`determinismReport(${describe(s)})`, 'any', () => g.determinismReport(s));
  }

  mustThrow('epsilonNet NaN point', () => g.epsilonNet(new Float32Array([0, NaN]), 2, 0.4, 1));
  mustThrow('epsilonNet +Inf point', () => g.epsilonNet(new Float32Array([0, Infinity]), 2, 0.4, 1));
  mustThrow('epsilonNet empty', () => g.epsilonNet(new Float32Array(0), 2, 0.4, 1));
  mustThrow('epsilonNet ragged', () => g.epsilonNet(pts, 3, 0.4, 1));
  mustThrow('epsilonNet dim 0', () => g.epsilonNet(pts, 0, 0.4, 1));
  mustThrow('epsilonNet dim -2', () => g.epsilonNet(pts, -2, 0.4, 1));
  mustThrow('epsilonNet dim 2.5', () => g.epsilonNet(pts, 2.5, 0.4, 1));
  mustThrow('epsilonNet dim 2^32+2', () => g.epsilonNet(pts, 2 ** 32 + 2, 0.4, 1));
  mustThrow('epsilonNet eps NaN', () => g.epsilonNet(pts, 2, NaN, 1));
  mustThrow('epsilonNet eps -1', () => g.epsilonNet(pts, 2, -1, 1));
  mustThrow('epsilonNet eps +Inf', () => g.epsilonNet(pts, 2, Infinity, 1));
  mustThrow('epsilonNet distScale 0', () => g.epsilonNet(pts, 2, 0.4, 0));
  mustThrow('epsilonNet distScale -Inf', () => g.epsilonNet(pts, 2, 0.4, -Infinity));
  mustThrow('epsilonNet points null', () => g.epsilonNet(null, 2, 0.4, 1));
  mustThrow('epsilonNet points "abc"', () => g.epsilonNet('abc', 1, 0.4, 1));
  mustThrow('reverseGreedy k 0', () => g.reverseGreedy(pts, 2, D, w, c, 0));
  mustThrow('reverseGreedy k -1', () => g.reverseGreedy(pts, 2, D, w, c, -1));
  mustThrow('reverseGreedy k NaN', () => g.reverseGreedy(pts, 2, D, w, c, NaN));
  mustThrow('reverseGreedy k 1.5', () => g.reverseGreedy(pts, 2, D, w, c, 1.5));
  mustThrow('reverseGreedy weights short', () => g.reverseGreedy(pts, 2, D, w.subarray(1), c, 2));
  mustThrow('reverseGreedy weight -1', () => g.reverseGreedy(pts, 2, D, new Float64Array([1, -1, 1, 1]), c, 2));
  mustThrow('reverseGreedy cost NaN', () => g.reverseGreedy(pts, 2, D, w, new Float64Array([NaN, 1, 1, 1]), 2));
  mustThrow('reverseGreedy cost 0', () => g.reverseGreedy(pts, 2, D, w, new Float64Array([0, 1, 1, 1]), 2));
  mustThrow('reverseGreedy cost 1.5', () => g.reverseGreedy(pts, 2, D, w, new Float64Array([1.5, 1, 1, 1]), 2));
  mustThrow('reverseGreedy cost -0.5', () => g.reverseGreedy(pts, 2, D, w, new Float64Array([-0.5, 1, 1, 1]), 2));
  mustThrow('reverseGreedy incumbent 99', () => g.reverseGreedy(pts, 2, D, w, c, 2, null, new Uint32Array([99])));
  mustThrow('reverseGreedy incumbent twice', () => g.reverseGreedy(pts, 2, D, w, c, 2, null, new Uint32Array([1, 1])));
  mustThrow('reverseGreedy incumbent [-1]', () => g.reverseGreedy(pts, 2, D, w, c, 2, null, [-1]));
  mustThrow('reverseGreedy phi cubic', () => g.reverseGreedy(pts, 2, D, w, c, 2, { kind: 'cubic', zeta: 1 }));
  mustThrow('reverseGreedy phi zeta -1', () => g.reverseGreedy(pts, 2, D, w, c, 2, { kind: 'clipped_linear', zeta: -1 }));
  mustThrow('reverseGreedy phi zeta NaN', () => g.reverseGreedy(pts, 2, D, w, c, 2, { kind: 'clipped_linear', zeta: NaN }));
  mustThrow('reverseGreedy phi string', () => g.reverseGreedy(pts, 2, D, w, c, 2, 'clipped_linear'));
  mustThrow('reverseGreedy 4097 points', () => g.reverseGreedy(new Float32Array(4097), 1, 1, new Float64Array(4097), new Float64Array(4097).fill(0.5), 2));
  mustThrow('exactOptimum 26 points', () => g.exactOptimum(new Float32Array(26), 1, 1, new Float64Array(26), new Float64Array(26).fill(0.5), 2));
  mustThrow('exactOptimum k 0', () => g.exactOptimum(pts, 2, D, w, c, 0));
  mustThrow('discretisedLoss cache 7', () => g.discretisedLoss(pts, 2, D, w, c, new Uint32Array([7])));
  mustThrow('expectedLoss costs short', () => g.expectedLoss(pts, c.subarray(1), pts, 2, D));
  mustThrow('expectedLoss eval cost 2', () => g.expectedLoss(pts, new Float64Array([2, 1, 1, 1]), pts, 2, D));
  mustThrow('expectedLoss cache ragged', () => g.expectedLoss(pts, c, new Float32Array(3), 2, D));
  mustThrow('expectedLoss empty eval', () => g.expectedLoss(new Float32Array(0), new Float64Array(0), pts, 2, D));
  mustThrow('krrPosterior lengthScale 0', () => g.krrPosterior(pts, c, 2, D, pts, 0, 0.1));
  mustThrow('krrPosterior lengthScale 1e-300 (κ(x,x) = NaN)', () => g.krrPosterior(pts, c, 2, D, pts, 1e-300, 0.1));
  mustThrow('krrPosterior lengthScale 1e300', () => g.krrPosterior(pts, c, 2, D, pts, 1e300, 0.1));
  mustThrow('krrPosterior lengthScale Inf', () => g.krrPosterior(pts, c, 2, D, pts, Infinity, 0.1));
  mustThrow('krrPosterior ridge 0', () => g.krrPosterior(pts, c, 2, D, pts, 0.2, 0));
  mustThrow('krrPosterior ridge -1', () => g.krrPosterior(pts, c, 2, D, pts, 0.2, -1));
  mustThrow('krrPosterior ridge NaN', () => g.krrPosterior(pts, c, 2, D, pts, 0.2, NaN));
  mustThrow('krrPosterior y NaN', () => g.krrPosterior(pts, new Float64Array([NaN, 0, 0, 0]), 2, D, pts, 0.2, 0.1));
  mustThrow('krrPosterior y short', () => g.krrPosterior(pts, c.subarray(2), 2, D, pts, 0.2, 0.1));
  mustThrow('krrPosterior query ragged', () => g.krrPosterior(pts, c, 2, D, new Float32Array(3), 0.2, 0.1));
  mustThrow('krrPosterior 5001 observations', () => g.krrPosterior(new Float32Array(5001), new Float64Array(5001), 1, 1, new Float32Array(1), 0.2, 0.1));
  for (const p of [{ k: 0 }, { k: -1 }, { k: 2.5 }, { k: '5' }, { k: 1e300 }, { kapa: 1 }, { lambda: NaN },
                   { lambda: -1 }, { epsilon: Infinity }, { horizon: 1e12 }, { horizon: 0 }, { seed: -1 },
                   { seed: 2 ** 64 }, { delta: 1 }, { phi: 'cubic' }, { c_floor: 0 }, { c_floor: 1.5 },
                   { synthetic_sigma: 'x' }, [], [1, 2], 'abc', 5, true, () => 1]) {
    mustThrow(`validateParams(${JSON.stringify(p) ?? describe(p)})`, () => g.validateParams(p));
  }
  mustThrow('determinismReport(-1)', () => g.determinismReport(-1));
  mustThrow('determinismReport(0.5)', () => g.determinismReport(0.5));

  // ---- page state (URL) ----------------------------------------------------------------------
  cover('decodeUrlState', 'encodeUrlState', 'urlStateDefaults', 'configFingerprint');
  fn('decodeUrlState', ['dataset=plane&k=3&seed=2']);
  fn('urlStateDefaults', ['plane']);
  fn('encodeUrlState', [g.urlStateDefaults('plane')]);
  fn('configFingerprint', ['plane', g.defaultParams()]);
  for (const q of ['%', '%zz', '%ff%fe', 'k=%00', '&&&==&', 'dataset=plane&dataset=synthetic', 'k=1e400',
                   'seed=-1', 'horizon=99999999999999999999', 'x'.repeat(1 << 20), '\ud800=\udfff',
                   'view=paper&'.repeat(5000)]) {
    probe(`decodeUrlState(${JSON.stringify(q.slice(0, 40))})`, 'ok', () => {
      const r = g.decodeUrlState(q);
      if (typeof r !== 'object' || r === null) throw new Error('no result');
      return r;
    });
  }
  for (const st of [{}, [], 'abc', 5, null, { ...g.urlStateDefaults('plane'), k: 0 },
                    { ...g.urlStateDefaults('plane'), view: 'nope' }, { ...g.urlStateDefaults('plane'), extra: 1 }]) {
    mustThrow(`encodeUrlState(${JSON.stringify(st)})`, () => g.encodeUrlState(st));
  }
  mustThrow('urlStateDefaults("nope")', () => g.urlStateDefaults('nope'));
  // The threats view's settings: every bad value is refused by encode with one message, and a
  // link carrying one opens with that key's default and one error naming it.
  {
    const d = g.urlStateDefaults('nq-trivia');
    for (const [key, v] of [['tenants', 0], ['tenants', 257], ['tenants', -1], ['tenants', 2.5], ['tenants', '3'], ['tenants', null],
      ['overlap', NaN], ['overlap', -1], ['overlap', 2], ['overlap', '0.5'], ['distance', 0], ['distance', -0.1], ['distance', NaN],
      ['distance', Infinity], ['attack_p', [1.5]], ['attack_p', [-0.1]], ['attack_p', [0.1, 0.1]], ['attack_p', []], ['attack_p', 0.1],
      ['attack_p', ['0.1']], ['isolations', ['walled']], ['isolations', []], ['isolations', 'shared'], ['threat_policies', []],
      ['threat_policies', ['nope']], ['threat_policies', ['lru', 'lru']], ['threat_policies', [3]]]) {
      mustThrow(`encodeUrlState ${key} = ${JSON.stringify(v)}`, () => g.encodeUrlState({ ...d, [key]: v }));
    }
    for (const q of ['tenants=0', 'tenants=x', 'overlap=NaN', 'overlap=-1', 'overlap=2', 'attack_p=1.5', 'attack_p=0,x',
      'distance=0', 'distance=-1', 'isolations=walled', 'threat_policies=nope']) {
      probe(`decodeUrlState(${q}) names its key`, 'ok', () => {
        const r = g.decodeUrlState(`view=threats&${q}`);
        const key = q.split('=')[0];
        if (r.errors.length !== 1 || !r.errors[0].includes(key)) throw new Error(`errors ${JSON.stringify(r.errors)}`);
        if (JSON.stringify(r.state[key]) !== JSON.stringify(d[key])) throw new Error(`${key} kept ${JSON.stringify(r.state[key])}`);
        return r;
      });
    }
  }
  mustThrow('configFingerprint(k 0)', () => g.configFingerprint('plane', { ...g.defaultParams(), k: 0 }));
  // serde's derive reads `Params` from an array by position, so `[]` is the defaults here
  // (reported in docs/RELIABILITY.md; `Params::from_json` and `validateParams` refuse it).
  probe('configFingerprint([])', 'any', () => g.configFingerprint('plane', []));

  // ---- the synthetic universe's embeddings (given once per instance; refused unless exact) ----
  cover('provideSynthetic');
  fn('provideSynthetic', [synthetic]);
  mustThrow('provideSynthetic(a byte changed)', () => { const b = synthetic.slice(); b[7] ^= 1; g.provideSynthetic(b); });
  mustThrow('provideSynthetic(short)', () => g.provideSynthetic(synthetic.subarray(1)));

  // ---- Dataset --------------------------------------------------------------------------------
  cover('Dataset');
  const ds = (name, args) => matrix(`Dataset.${name}`, args, (a) => g.Dataset[name](...a));
  ds('synthetic', [0.01]);
  ds('plane', []);
  ds('fromJsonl', ['mine', jsonl, undefined, undefined, 0.01]);
  ds('fromJsonl', ['mine', bare, emb, 2, 0.01]);
  ds('nqTrivia', [nqText, emb384(2), nqText, emb384(2), 2, 0.01]);
  mustThrow('fromJsonl empty', () => g.Dataset.fromJsonl('x', new Uint8Array(0)));
  mustThrow('fromJsonl invalid UTF-8', () => g.Dataset.fromJsonl('x', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])));
  mustThrow('fromJsonl truncated JSON', () => g.Dataset.fromJsonl('x', jsonl.subarray(0, 60)));
  mustThrow('fromJsonl ragged', () => g.Dataset.fromJsonl('x', enc.encode('{"text":"a","tokens":3,"embedding":[1,0]}\n{"text":"b","tokens":5,"embedding":[1]}')));
  mustThrow('fromJsonl no embeddings', () => g.Dataset.fromJsonl('x', bare));
  mustThrow('fromJsonl tokens -1', () => g.Dataset.fromJsonl('x', enc.encode('{"text":"a","tokens":-1,"embedding":[1]}')));
  mustThrow('fromJsonl tokens 1e10', () => g.Dataset.fromJsonl('x', enc.encode('{"text":"a","tokens":1e10,"embedding":[1]}')));
  mustThrow('fromJsonl embedding 1e39', () => g.Dataset.fromJsonl('x', enc.encode('{"text":"a","tokens":1,"embedding":[1e39]}')));
  mustThrow('fromJsonl embedding NaN', () => g.Dataset.fromJsonl('x', enc.encode('{"text":"a","tokens":1,"embedding":[NaN]}')));
  mustThrow('fromJsonl text 5', () => g.Dataset.fromJsonl('x', enc.encode('{"text":5,"tokens":1,"embedding":[1]}')));
  mustThrow('fromJsonl deep nesting', () => g.Dataset.fromJsonl('x', enc.encode('['.repeat(200000))));
  mustThrow('fromJsonl 32 MB garbage', () => g.Dataset.fromJsonl('x', new Uint8Array(32 << 20).fill(0x5b)));
  mustThrow('fromJsonl 16 MB string then junk', () => g.Dataset.fromJsonl('x', enc.encode('{"text":"' + 'x'.repeat(16 << 20) + '","tokens":1,"embedding":[1]} junk')));
  mustThrow('fromJsonl binary truncated', () => g.Dataset.fromJsonl('x', bare, emb.subarray(0, 7), 2));
  mustThrow('fromJsonl binary too few rows', () => g.Dataset.fromJsonl('x', bare, emb.subarray(0, 8), 2));
  mustThrow('fromJsonl binary NaN', () => g.Dataset.fromJsonl('x', bare, new Uint8Array(new Float32Array([NaN, 0, 0, 1]).buffer), 2));
  mustThrow('fromJsonl binary no dim', () => g.Dataset.fromJsonl('x', bare, emb));
  mustThrow('fromJsonl binary dim 0', () => g.Dataset.fromJsonl('x', bare, emb, 0));
  mustThrow('fromJsonl binary dim 2^20', () => g.Dataset.fromJsonl('x', bare, emb, 2 ** 20));
  mustThrow('fromJsonl cFloor 0', () => g.Dataset.fromJsonl('x', jsonl, undefined, undefined, 0));
  mustThrow('fromJsonl cFloor 1.5', () => g.Dataset.fromJsonl('x', jsonl, undefined, undefined, 1.5));
  mustThrow('fromJsonl cFloor NaN', () => g.Dataset.fromJsonl('x', jsonl, undefined, undefined, NaN));
  mustThrow('synthetic cFloor -1', () => g.Dataset.synthetic(-1));
  mustThrow('nqTrivia truncated emb', () => g.Dataset.nqTrivia(nqText, emb384(2).subarray(0, 2000), nqText, emb384(2), 2));
  mustThrow('nqTrivia too few records', () => g.Dataset.nqTrivia(nqText, emb384(3), nqText, emb384(3), 3));
  mustThrow('nqTrivia perSource 0', () => g.Dataset.nqTrivia(nqText, emb384(2), nqText, emb384(2), 0));
  mustThrow('nqTrivia perSource 1e7', () => g.Dataset.nqTrivia(nqText, emb384(2), nqText, emb384(2), 1e7));
  mustThrow('nqTrivia garbage', () => g.Dataset.nqTrivia('\u0000\ud800garbage', emb384(2), nqText, emb384(2), 2));

  // Methods and getters of live datasets, including degenerate ones (one point, 1-d, duplicates).
  const datasets = {
    synthetic: () => g.Dataset.synthetic(),
    plane: () => g.Dataset.plane(),
    one: () => g.Dataset.fromJsonl('one', enc.encode('{"text":"a","tokens":3,"embedding":[1,2,3]}')),
    line: () => g.Dataset.fromJsonl('line', enc.encode('{"text":"a","tokens":3,"embedding":[1]}\n{"text":"b","tokens":4,"embedding":[2]}')),
    same: () => g.Dataset.fromJsonl('same', enc.encode('{"text":"a","tokens":3,"embedding":[1,1,1]}\n{"text":"b","tokens":3,"embedding":[1,1,1]}')),
    huge: () => g.Dataset.fromJsonl('huge', enc.encode('{"text":"a","tokens":0,"embedding":[3e38,-3e38]}\n{"text":"b","tokens":4294967295,"embedding":[-3e38,3e38]}')),
  };
  for (const [dn, make] of Object.entries(datasets)) {
    const d = make();
    for (const getter of ['name', 'size', 'dim', 'distScale', 'checksum']) probe(`${dn}.${getter}`, 'ok', () => d[getter]);
    for (const m of ['info', 'costs', 'tokens', 'texts', 'groups', 'groupNames', 'points', 'projection', 'explainedVariance']) {
      matrix(`${dn}.${m}`, [], (a) => d[m](...a));
    }
    matrix(`${dn}.project`, [new Float32Array(d.dim)], (a) => d.project(...a));
    probe(`${dn} costs in (0, 1]`, 'ok', () => { if (!d.costs().every((x) => x > 0 && x <= 1)) throw new Error('cost outside (0, 1]'); });
    probe(`${dn} distScale finite`, 'ok', () => { if (!(d.distScale > 0 && Number.isFinite(d.distScale))) throw new Error('D = ' + d.distScale); });
    probe(`${dn} projection finite`, 'ok', () => { if (!d.projection().every(Number.isFinite)) throw new Error('non-finite projection'); });
    if (d.dim > 1) mustThrow(`${dn}.project wrong dim`, () => d.project(new Float32Array(d.dim + 1)));
    mustThrow(`${dn}.project NaN`, () => d.project(new Float32Array(d.dim).fill(NaN)));
    d.free();
  }

  // ---- OnlineRun ------------------------------------------------------------------------------
  cover('OnlineRun');
  const plane = g.Dataset.plane();
  const small = { horizon: 40, n_eval: 40, seed: 1, epsilon: 0.2 };
  const ids = ['clcb-sc-ls-cont', 'greedy'];
  matrix('new OnlineRun', [plane, small, ids], (a) => new g.OnlineRun(...a));
  for (const pol of [[5], [null], ['greedy', 'nope'], 'greedy', [['greedy']], [{}], new Array(3)]) {
    mustThrow(`new OnlineRun policies ${describe(pol)}`, () => new g.OnlineRun(plane, small, pol));
  }
  mustThrow('new OnlineRun horizon 0', () => new g.OnlineRun(plane, { horizon: 0 }, ids));
  mustThrow('new OnlineRun horizon 2e6', () => new g.OnlineRun(plane, { horizon: 2e6 }, ids));
  mustThrow('new OnlineRun dataset {}', () => new g.OnlineRun({}, small, ids));
  mustThrow('new OnlineRun dataset plain object with ptr', () => new g.OnlineRun({ __wbg_ptr: 8 }, small, ids));
  mustThrow('new OnlineRun params array', () => new g.OnlineRun(plane, [1], ids));
  mustThrow('new OnlineRun without new', () => g.OnlineRun(plane, small, ids));
  {
    // 10⁶ rounds of 384-d arrivals (1.5 GB of vectors): refused before allocating, not a trap.
    const syn = g.Dataset.synthetic();
    mustThrow('new OnlineRun synthetic horizon 1e6', () => new g.OnlineRun(syn, { horizon: 1e6, n_eval: 100 }, ['greedy']));
    mustThrow('new OnlineRun synthetic n_eval 1e7', () => new g.OnlineRun(syn, { horizon: 100, n_eval: 1e7 }, ['greedy']));
    syn.free();
  }
  const run = new g.OnlineRun(plane, small, ids);
  for (const getter of ['horizon', 'round', 'policies', 'oracleLoss']) probe(`run.${getter}`, 'ok', () => run[getter]);
  const rm = (name, args) => matrix(`run.${name}`, args, (a) => run[name](...a));
  rm('step', [3]);
  for (const m of ['oracleCache', 'universe', 'counters', 'results', 'traceJson']) rm(m, []);
  for (const m of ['cache', 'centers', 'curves']) rm(m, [1]);
  rm('heatmap', [0, 4]);
  mustThrow('run.step(-1)', () => run.step(-1));
  mustThrow('run.step(NaN)', () => run.step(NaN));
  mustThrow('run.step(1, 129) (heat grid)', () => run.step(1, 129));
  mustThrow('run.step(1, "x") (heat grid)', () => run.step(1, 'x'));
  mustThrow('run.cache(2)', () => run.cache(2));
  mustThrow('run.centers(-1)', () => run.centers(-1));
  mustThrow('run.curves(1e300)', () => run.curves(1e300));
  mustThrow('run.heatmap(0, 129)', () => run.heatmap(0, 129));
  mustThrow('run.heatmap(0, 1)', () => run.heatmap(0, 1));
  mustThrow('run.heatmap(1, 8) (no kernel)', () => run.heatmap(1, 8));
  {
    // ask: a given arrival as the next round, on a run of its own (calls that succeed play rounds;
    // past the horizon every call must throw readably).
    const r3 = new g.OnlineRun(plane, { horizon: 120, n_eval: 40, seed: 1, epsilon: 0.2 }, ids);
    matrix('run.ask', [new Float32Array([0.5, 0.5]), 5, 'a question'], (a) => r3.ask(...a));
    matrix('run.roundText', [0], (a) => r3.roundText(...a));
    matrix('run.roundAnswers', [0], (a) => r3.roundAnswers(...a));
    mustThrow('run.ask wrong dim', () => r3.ask(new Float32Array(3), 5, 'q'));
    mustThrow('run.ask NaN', () => r3.ask(new Float32Array([NaN, 0.5]), 5, 'q'));
    mustThrow('run.ask [1,"a"]', () => r3.ask([1, 'a'], 5, 'q'));
    mustThrow('run.ask tokens -1', () => r3.ask([0.5, 0.5], -1, 'q'));
    mustThrow('run.ask text 5', () => r3.ask([0.5, 0.5], 3, 5));
    mustThrow('run.roundText(-1)', () => r3.roundText(-1));
    mustThrow('run.roundAnswers(-1)', () => r3.roundAnswers(-1));
    probe('run.ask until the horizon, then refused', 'ok', () => {
      while (r3.round < r3.horizon) r3.ask([0.25, 0.75], 1, 'q');
      let threw = false;
      try { r3.ask([0.25, 0.75], 1, 'q'); } catch (e) { threw = e instanceof Error; }
      if (!threw) throw new Error('ask played past T');
    });
    r3.free();
  }
  probe('run.step(2^32-1) stops at the horizon', 'ok', () => { run.step(2 ** 32 - 1); if (run.round !== 40) throw new Error('round ' + run.round); });
  probe('run.step after the horizon', 'ok', () => { if (run.step(5).t.length !== 0) throw new Error('played past T'); });
  {
    const syn = g.Dataset.synthetic();
    const r2 = new g.OnlineRun(syn, { horizon: 20, n_eval: 20 }, ['clcb-sc-ls-cont']);
    r2.step(20);
    mustThrow('synthetic run.heatmap (not 2-D)', () => r2.heatmap(0, 8));
    r2.free(); syn.free();
  }
  for (const [dn, make] of Object.entries(datasets)) {
    if (dn === 'synthetic' || dn === 'plane') continue;
    const d = make();
    probe(`OnlineRun on ${dn} dataset`, 'any', () => {
      const r = new g.OnlineRun(d, { horizon: 30, n_eval: 30, k: 1 }, ['clcb-sc-ls-cont', 'greedy', 'lru', 'threshold', 'oracle']);
      r.step(30); r.counters(); r.centers(0); r.cache(1); r.results(); r.universe(); r.oracleCache(); r.traceJson();
      return r;
    });
    d.free();
  }
  // Use after free, double free, foreign `this`, a freed dataset as argument.
  const dead = new g.OnlineRun(plane, small, ids);
  dead.free();
  mustThrow('freed run.step', () => dead.step(1));
  mustThrow('freed run.horizon', () => { const h = dead.horizon; if (h === undefined) throw new Error('undefined'); return h; });
  probe('double free', 'any', () => dead.free());
  mustThrow('OnlineRun.prototype.step on {}', () => g.OnlineRun.prototype.step.call({}, 1));
  // (Not probed: a method of one class called on an object of *another* wasm-bindgen class, e.g.
  // `Dataset.prototype.costs.call(run)`. The generated glue does not check `this`'s class, so the
  // run's pointer is read as a dataset's: a limitation of wasm-bindgen, see docs/RELIABILITY.md.)
  const gone = g.Dataset.plane();
  gone.free();
  mustThrow('freed dataset.size', () => { const s = gone.size; if (s === undefined) throw new Error('undefined'); return s; });
  mustThrow('new OnlineRun on a freed dataset', () => new g.OnlineRun(gone, small, ids));
  probe('run.free()', 'ok', () => run.free());

  // ---- OwnPolicyRun: a policy written in JavaScript -------------------------------------------
  cover('OwnPolicyRun');
  {
    const ownPlane = g.Dataset.plane();
    // LRU with a fixed threshold (www/policies/lru-threshold.js, inlined).
    const lru = () => ({
      k: 0, tau: 0, members: [], last: [],
      start(s) { this.k = s.k; this.tau = s.tau; },
      decide(a) {
        let j = -1;
        for (let i = 0; i < a.distances.length; i++) if (j < 0 || a.distances[i] < a.distances[j]) j = i;
        if (j >= 0 && a.distances[j] <= this.tau) { this.last[j] = a.round; return j; }
        return 'llm';
      },
      observe(cost, round) {
        if (this.members.length >= this.k) {
          let v = 0;
          for (let i = 1; i < this.members.length; i++) if (this.last[i] < this.last[v]) v = i;
          this.members.splice(v, 1); this.last.splice(v, 1);
        }
        this.members.push(round); this.last.push(round);
        return this.members;
      },
      explain() { return 'lru'; },
    });
    const own = { horizon: 40, n_eval: 40, seed: 1, k: 3, threshold_tau: 0.2 };
    matrix('new OwnPolicyRun', [ownPlane, own, lru()], (a) => new g.OwnPolicyRun(...a));
    for (const [hn, hv] of [...HOSTILE(), ['no decide', { observe() {} }], ['no observe', { decide() { return 'llm'; } }],
      ['decide a number', { decide: 1, observe() {} }], ['a function', () => 'llm'],
      ['a Proxy that throws', new Proxy({}, { get() { throw new Error('trap'); } })]]) {
      mustThrow(`new OwnPolicyRun policy ${hn}`, () => new g.OwnPolicyRun(ownPlane, own, hv));
    }
    const orun = new g.OwnPolicyRun(ownPlane, own, lru());
    for (const getter of ['horizon', 'round', 'stopped']) probe(`ownRun.${getter}`, 'ok', () => orun[getter]);
    matrix('ownRun.step', [3], (a) => orun.step(...a));
    matrix('ownRun.result', [], (a) => orun.result(...a));
    mustThrow('ownRun.step(-1)', () => orun.step(-1));
    mustThrow('ownRun.step(NaN)', () => orun.step(NaN));
    probe('ownRun plays to the horizon, explained', 'ok', () => {
      const fresh = new g.OwnPolicyRun(ownPlane, own, lru());
      const f = fresh.step(2 ** 32 - 1);
      const ok = fresh.round === 40 && f.stopped === null && f.notes.length === 40 && f.notes.every((n) => n === 'lru') && fresh.step(5).t.length === 0;
      fresh.free();
      if (!ok) throw new Error(`round ${f.round}, ${f.stopped}, ${f.notes.length} notes`);
    });
    // Hostile policies: each one stops in the round named, with one readable message; no trap.
    const stops = (label, policy, round, words) => probe(`own policy: ${label}`, 'ok', () => {
      const r = new g.OwnPolicyRun(ownPlane, own, policy);
      try {
        const f = r.step(40);
        const want = `the policy stopped in round ${round}: `;
        if (typeof f.stopped !== 'string' || !f.stopped.startsWith(want) || !f.stopped.includes(words) || r.stopped !== f.stopped) {
          throw new Error(`expected "${want}…${words}…", got ${f.stopped}`);
        }
        if (r.round > round + 1 || r.step(5).t.length !== 0) throw new Error('played on after its fault');
      } finally { r.free(); }
    });
    const at = (t, answer, base = lru()) => Object.assign(base, {
      decide(a) { return a.round === t ? answer(a) : lru().decide.call(this, a); },
    });
    stops('decide throws an Error', { decide() { throw new RangeError('boom'); }, observe() {} }, 0, 'decide threw RangeError: boom');
    for (const [hn, hv] of HOSTILE()) {
      if (hv === 0 || (typeof hv === 'number' && hv >= 0 && Number.isInteger(hv))) continue; // a member index
      stops(`decide throws ${hn}`, { decide() { throw hv; }, observe() {} }, 0, 'decide threw');
      stops(`decide returns ${hn}`, { decide() { return hv; }, observe() {} }, 0, 'decide must return the index of a cache member');
    }
    stops('decide returns "LLM"', { decide() { return 'LLM'; }, observe() {} }, 0, 'or "llm", got the string "LLM"');
    stops('serves from an empty cache', { decide() { return 0; }, observe() {} }, 0, 'its cache is empty');
    stops('serves a member it does not hold', { decide(a) { return a.round < 2 ? 'llm' : 2; }, observe(c, t) { return [t]; } }, 2, 'cache member 2, but its cache holds members 0 to 0');
    stops('observe throws', { decide() { return 'llm'; }, observe() { throw new Error('no'); } }, 0, 'observe threw Error: no');
    for (const [hn, hv] of [['a string', 'x'], ['an object', {}], ['[NaN]', [NaN]], ['[-1]', [-1]], ['[1.5]', [1.5]], ['["0"]', ['0']],
      ['a Uint32Array', new Uint32Array([0])], ['a Symbol', Symbol('s')], ['[undefined]', [undefined]]]) {
      stops(`observe returns ${hn}`, { decide() { return 'llm'; }, observe() { return hv; } }, 0, 'observe must return nothing');
    }
    stops('more than k', { decide() { return 'llm'; }, observe(c, t) { return t < 3 ? null : [0, 1, 2, 3]; } }, 3, 'more than k = 3');
    stops('an array of 2^31 holes', { decide() { return 'llm'; }, observe() { return new Array(2 ** 31); } }, 0, 'more than k = 3');
    stops('a round not yet arrived', { decide() { return 'llm'; }, observe(c, t) { return [t + 1]; } }, 0, 'names round 1, which has not arrived');
    stops('a round twice', { decide() { return 'llm'; }, observe(c, t) { return [t, t]; } }, 0, 'names round 0 twice');
    stops('start throws', { start() { throw new Error('setup'); }, decide() { return 'llm'; }, observe() {} }, 0, 'start threw Error: setup');
    stops('a getter on Error.message throws', { decide() { const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw new Error('again'); } }); throw e; }, observe() {} }, 0, 'decide threw Error');
    stops('a fault after 5 good rounds', at(5, () => ({})), 5, 'got an object');
    probe('own policy: explain throws or returns a non-string (ignored)', 'ok', () => {
      for (const explain of [() => { throw new Error('x'); }, () => 5, () => ({})]) {
        const r = new g.OwnPolicyRun(ownPlane, own, Object.assign(lru(), { explain }));
        const f = r.step(40);
        r.free();
        if (f.stopped !== null || f.notes.some((n) => n !== null)) throw new Error(String(f.stopped));
      }
    });
    // OwnPolicyStats: the runs of your policy measured together (the regret and sweep views).
    cover('OwnPolicyStats');
    probe('new OwnPolicyStats', 'ok', () => new g.OwnPolicyStats().free());
    const ostats = new g.OwnPolicyStats();
    const played = new g.OwnPolicyRun(ownPlane, own, lru());
    played.step(40);
    matrix('ownStats.add', [played, undefined], (a) => ostats.add(...a));
    matrix('ownStats.add at x', [played, 0.5], (a) => ostats.add(...a));
    for (const x of [NaN, Infinity, -Infinity]) mustThrow(`ownStats.add x = ${x}`, () => ostats.add(played, x));
    mustThrow('ownStats.add a Dataset', () => ostats.add(ownPlane, undefined));
    matrix('ownStats.stats', [], (a) => ostats.stats(...a));
    matrix('ownStats.theory', [], (a) => ostats.theory(...a));
    probe('ownStats: curves and finals under own-policy', 'ok', () => {
      const st = ostats.stats();
      const at = (m, x) => st.filter((s) => s.metric === m && s.x === x && s.algorithm === 'own-policy');
      if (at('final_avg_regret', 40).length !== 1 || at('final_avg_regret', 0.5).length !== 1 || !at('avg_regret', 1).length) throw new Error(JSON.stringify(st.slice(0, 3)));
    });
    // Across horizons (the Theory view's thy-horizon panel): runs added at x = their horizon T.
    matrix('ownStats.csv', ['thy-horizon'], (a) => ostats.csv(...a));
    mustThrow('ownStats.theoryAcrossHorizons with a run added at a parameter\'s value', () => ostats.theoryAcrossHorizons());
    const hstats = new g.OwnPolicyStats();
    probe('ownStats.theoryAcrossHorizons before a run: null', 'ok', () => { if (hstats.theoryAcrossHorizons() !== null) throw new Error('not null'); });
    const swept = new g.OwnPolicyStats(); // the matrix adds runs at hostile x: refused below
    matrix('ownStats.add at x = T', [played, 40], (a) => swept.add(...a));
    mustThrow('ownStats.theoryAcrossHorizons after runs added at hostile x', () => swept.theoryAcrossHorizons());
    swept.free();
    hstats.add(played, 40);
    matrix('ownStats.theoryAcrossHorizons', [], (a) => hstats.theoryAcrossHorizons(...a));
    probe('ownStats.theoryAcrossHorizons: Reg(T) of own-policy at T = 40', 'ok', () => {
      const h = hstats.theoryAcrossHorizons().horizons;
      if (h.length !== 1 || h[0].policy !== 'own-policy' || h[0].points[0][0][0] !== 40) throw new Error(JSON.stringify(h));
    });
    hstats.free();
    played.free();
    ostats.free();
    mustThrow('OwnPolicyStats.prototype.stats on {}', () => g.OwnPolicyStats.prototype.stats.call({}));
    const deadOwn = new g.OwnPolicyRun(ownPlane, own, lru());
    deadOwn.free();
    mustThrow('freed ownRun.step', () => deadOwn.step(1));
    mustThrow('OwnPolicyRun.prototype.step on {}', () => g.OwnPolicyRun.prototype.step.call({}, 1));
    probe('ownRun.free()', 'ok', () => orun.free());
    ownPlane.free();
  }

  // ---- benchmark exports (src/bindings/bench.rs) ------------------------------------------------
  // Only with cargo feature `bench` (the benchmark's package, www/pkg-bench: `wasm-pack test
  // --headless --chrome -- --features bench`); without it they must not be exported at all.
  const BENCH = ['BenchOnline', 'BenchReverseGreedy', 'BenchKrr'];
  if (!bench) {
    for (const name of BENCH.filter((n) => n in g)) {
      out.push({ label: `export ${name} without cargo feature "bench" (src/bindings/mod.rs)`, expect: 'absent',
                 outcome: 'present', message: '', healthy: true, health: '' });
    }
  } else {
    cover(...BENCH);
    // The dataset argument gets the whole hostile matrix; the parameters only values that fail
    // (a missing object means the SPEC defaults, T = 5,000: seconds per call in this build).
    matrix('new BenchOnline', [plane], (a) => new g.BenchOnline(a[0], small, ...a.slice(1)));
    for (const p of [{ horizon: 2e6 }, { k: 0 }, { horizon: 0 }, { nope: 1 }, [1], 'abc', 5]) {
      mustThrow(`new BenchOnline params ${JSON.stringify(p)}`, () => new g.BenchOnline(plane, p));
    }
    mustThrow('new BenchOnline on a plain object', () => new g.BenchOnline({ __wbg_ptr: 8 }, small));
    {
      const b = new g.BenchOnline(plane, small);
      probe('BenchOnline.horizon', 'ok', () => b.horizon);
      probe('BenchOnline.oracleLoss', 'ok', () => b.oracleLoss);
      matrix('BenchOnline.run', ['greedy'], (a) => b.run(...a));
      mustThrow('BenchOnline.run unknown policy', () => b.run('nope'));
      b.free();
      mustThrow('freed BenchOnline.run', () => b.run('greedy'));
    }
    matrix('new BenchReverseGreedy', [20], (a) => new g.BenchReverseGreedy(...a));
    for (const m of [0, -3, 2.5, 10001, 1e12, NaN]) mustThrow(`new BenchReverseGreedy ${m}`, () => new g.BenchReverseGreedy(m));
    {
      const rg = new g.BenchReverseGreedy(20);
      matrix('BenchReverseGreedy.run', [3], (a) => rg.run(...a));
      mustThrow('BenchReverseGreedy.run k 0', () => rg.run(0));
      rg.free();
    }
    matrix('new BenchKrr', [10, 5], (a) => new g.BenchKrr(...a));
    for (const [l, m] of [[0, 5], [5001, 5], [10, 5001], [2.5, 5], [10, -1], [NaN, 5]]) {
      mustThrow(`new BenchKrr ${l}, ${m}`, () => new g.BenchKrr(l, m));
    }
    {
      const kb = new g.BenchKrr(10, 5);
      mustThrow('BenchKrr.addOne before prepare', () => kb.addOne());
      probe('BenchKrr.prepare', 'ok', () => kb.prepare());
      probe('BenchKrr.addOne', 'ok', () => kb.addOne());
      mustThrow('BenchKrr.addOne twice', () => kb.addOne());
      kb.free();
    }
  }

  // ---- ExperimentRun --------------------------------------------------------------------------
  cover('ExperimentRun', 'experimentDefinition', 'quickDefinition');
  fn('experimentDefinition', ['fig-c']);
  mustThrow('experimentDefinition fig-zz', () => g.experimentDefinition('fig-zz'));
  fn('quickDefinition', ['thy-horizon']);
  mustThrow('quickDefinition fig-zz', () => g.quickDefinition('fig-zz'));
  mustThrow('quickDefinition of a built-in without quick settings', () => g.quickDefinition('sens-off-beta'));
  const spec = { id: 'mini', dataset: 'plane', measure: { kind: 'online', policies: ['greedy'] },
                 params: { horizon: 30, n_eval: 30 }, seeds: 1 };
  matrix('new ExperimentRun', [spec, plane, { k: 2 }, 1], (a) => new g.ExperimentRun(...a));
  for (const [label, s] of [
    ['fig-zz', 'fig-zz'], ['empty id', ''], ['{}', {}], ['seeds 1e12', { ...spec, seeds: 1e12 }],
    ['seeds 0', { ...spec, seeds: 0 }], ['seeds -1', { ...spec, seeds: -1 }], ['seeds 2.5', { ...spec, seeds: 2.5 }],
    ['first_seed 2^64', { ...spec, first_seed: 2 ** 64 }], ['policies []', { ...spec, measure: { kind: 'online', policies: [] } }],
    ['kind nope', { ...spec, measure: { kind: 'nope' } }], ['geometry stream 0', { ...spec, measure: { kind: 'geometry', stream: 0 } }],
    ['geometry stream 1e12', { ...spec, measure: { kind: 'geometry', stream: 1e12 } }],
    ['sweep empty', { ...spec, sweep: { param: 'k', values: [] } }], ['sweep bad', { ...spec, sweep: { param: 'k', values: [0] } }],
    ['sweep unknown', { ...spec, sweep: { param: 'nope', values: [1] } }], ['params k 0', { ...spec, params: { k: 0 } }],
    ['dataset nq', { ...spec, dataset: 'nq-trivia' }], ['unknown key', { ...spec, extra: 1 }],
    ['huge sweep × seeds', { ...spec, sweep: { param: 'k', values: Array.from({ length: 1000 }, (_, i) => i + 1) }, seeds: 100000 }],
    ['synthetic horizon 1e6', 'fig-c'],
  ]) {
    mustThrow(`new ExperimentRun ${label}`, () => new g.ExperimentRun(s, plane, label === 'synthetic horizon 1e6' ? { horizon: 1e6 } : undefined));
  }
  for (const o of [{ k: 0 }, { nope: 1 }, [1, 2], 'abc', 5, { horizon: 1e12 }]) {
    mustThrow(`new ExperimentRun overrides ${JSON.stringify(o)}`, () => new g.ExperimentRun(spec, plane, o));
  }
  for (const sd of [0, -1, 2.5, NaN, 1e300]) mustThrow(`new ExperimentRun seeds ${sd}`, () => new g.ExperimentRun(spec, plane, undefined, sd));
  {
    const syn = g.Dataset.synthetic();
    mustThrow('new ExperimentRun synthetic horizon 1e6', () => new g.ExperimentRun('fig-c', syn, { horizon: 1e6 }));
    syn.free();
  }
  const er = new g.ExperimentRun({ ...spec, seeds: 3 }, plane);
  for (const getter of ['totalUnits', 'doneUnits']) probe(`er.${getter}`, 'ok', () => er[getter]);
  for (const m of ['spec', 'report', 'reportJson', 'csv', 'summary']) matrix(`er.${m}`, [], (a) => er[m](...a));
  probe('er.runNext(callback throws)', 'any', () => er.runNext(() => { throw new Error('from the callback'); }));
  probe('er.runNext(callback re-enters)', 'any', () => er.runNext(() => { er.runNext(); return true; }));
  probe('er.runNext(callback frees)', 'any', () => er.runNext(() => { try { er.free(); } catch (_) {} return true; }));
  probe('er.runNext(5)', 'any', () => er.runNext(5));
  probe('er.runNext({})', 'any', () => er.runNext({}));
  probe('er.runNext(valid)', 'any', () => er.runNext((n) => n >= 0));
  probe('er.report after hostility', 'any', () => er.report());
  probe('er.free()', 'any', () => er.free());
  {
    // The worker pool's pair (www/js/jobs.js): runUnit on one run, addUnit on another.
    const a = new g.ExperimentRun({ ...spec, seeds: 2 }, plane), b = new g.ExperimentRun({ ...spec, seeds: 2 }, plane);
    for (const i of [-1, 2, 2.5, NaN, 1e300]) mustThrow(`er.runUnit(${i})`, () => a.runUnit(i));
    probe('er.runUnit(callback throws)', 'any', () => a.runUnit(0, () => { throw new Error('from the callback'); }));
    probe('er.runUnit(0, valid)', 'ok', () => b.runUnit(0, () => true));
    const u1 = b.runUnit(1);
    probe('er.addUnit(valid)', 'ok', () => a.addUnit(u1));
    mustThrow('er.addUnit(the same unit twice)', () => a.addUnit(u1));
    for (const [label, j] of [['not JSON', '{'], ['empty', ''], ['another experiment', u1.replace('"mini"', '"fig-a"')],
      ['an index out of range', u1.replace('"index":1', '"index":7')], ['a number', '5']]) {
      mustThrow(`er.addUnit(${label})`, () => a.addUnit(j));
    }
    probe('er.report after addUnit', 'ok', () => a.report());
    a.free();
    b.free();
  }
  // ---- reproduce and sweeps -------------------------------------------------------------------
  cover('cliCommand', 'readReport', 'sweepPresets', 'parseGrid', 'sweepDefaults');
  {
    const r = new g.ExperimentRun({ ...spec, seeds: 1 }, plane);
    r.runNext();
    const text = r.reportJson();
    r.free();
    fn('readReport', [text]);
    fn('cliCommand', [g.experimentDefinition('fig-c'), 'fig-c.json']);
    fn('sweepPresets', []);
    fn('parseGrid', ['epsilon=0.1,0.2;beta=0.5,1']);
    fn('sweepDefaults', ['beta']);
    mustThrow('sweepDefaults an unknown parameter', () => g.sweepDefaults('no_such'));
    mustThrow('readReport edited', () => g.readReport(text.replace('"n":1', '"n":2')));
    mustThrow('readReport a shard', () => g.readReport(text.replace('"engine"', '"shard":{"index":0,"count":2},"engine"')));
    mustThrow('readReport not a report', () => g.readReport('{"experiment": 3}'));
    mustThrow('parseGrid three parameters', () => g.parseGrid('a=1;b=2;c=3'));
    mustThrow('parseGrid a word', () => g.parseGrid('epsilon=0.1,x'));
    mustThrow('cliCommand an id', () => g.cliCommand('fig-c', 'x.json'));
    // frontierComparison: a two-point frontier on synthetic, one seed each.
    cover('frontierComparison');
    const syn = g.Dataset.synthetic();
    const fr = new g.ExperimentRun({ id: 'hostile-frontier', dataset: 'synthetic', seeds: 1, params: { horizon: 20, n_eval: 50, k: 3 },
      measure: { kind: 'frontier', families: [{ policy: 'greedy' }, { policy: 'lru' }] } }, syn);
    fr.runNext();
    fr.runNext();
    const frep = fr.report();
    fr.free();
    syn.free();
    fn('frontierComparison', [frep, 1]);
    mustThrow('frontierComparison an online report', () => g.frontierComparison(JSON.parse(text), 0));
    mustThrow('frontierComparison a point it does not have', () => g.frontierComparison(frep, 2));
    mustThrow('frontierComparison a fractional point', () => g.frontierComparison(frep, 0.5));
    // pairedDifference: your policy against a frontier point, per seed.
    cover('pairedDifference');
    fn('pairedDifference', [new Float64Array([0.1, -0.2, 0.05]), 'cost']);
    probe('pairedDifference words', 'ok', () => {
      const p = g.pairedDifference([-0.3, -0.31, -0.29], 'cost'), q = g.pairedDifference([0, 0], 'error_rate'), o = g.pairedDifference([0.1], 'error_rate');
      if (p.difference !== 'lower' || p.words !== 'cheaper' || q.difference !== 'identical' || o.difference !== 'not-distinguishable' || p.n !== 3) throw new Error(JSON.stringify([p, q, o]));
    });
    mustThrow('pairedDifference none', () => g.pairedDifference([], 'cost'));
    mustThrow('pairedDifference NaN', () => g.pairedDifference([0.1, NaN], 'cost'));
    mustThrow('pairedDifference another quantity', () => g.pairedDifference([0.1], 'regret'));
    // "Pick a threshold": the form's definition, its target and the answer of a small report (the
    // threshold cache over two τ, two seeds: one to choose on, one to report on).
    cover('tuneDefinition', 'tuneTarget', 'tuneThreshold', 'tuneCommand');
    fn('tuneDefinition', ['synthetic']);
    mustThrow('tuneDefinition plane (no ground truth)', () => g.tuneDefinition('plane'));
    mustThrow('tuneDefinition data whose reason is given', () => g.tuneDefinition('synthetic', 'no labels'));
    fn('tuneTarget', ['precision', 0.9]);
    for (const [k, v] of [['precision', 1.5], ['precision', 0], ['precision', NaN], ['error_rate', 1], ['error_rate', -0.1], ['error_rate', NaN], ['recall', 0.5]]) {
      mustThrow(`tuneTarget ${k} ${v}`, () => g.tuneTarget(k, v));
    }
    const syn2 = g.Dataset.synthetic();
    const tr = new g.ExperimentRun({ id: 'hostile-tune', dataset: 'synthetic', seeds: 2, params: { horizon: 20, n_eval: 50, k: 3 },
      measure: { kind: 'frontier', families: [{ policy: 'threshold', param: 'threshold_tau', values: [0.1, 0.3] }] } }, syn2);
    while (tr.runNext());
    const trep = tr.report();
    tr.free();
    syn2.free();
    fn('tuneThreshold', [trep, 'precision', 0.5]);
    mustThrow('tuneThreshold an online report', () => g.tuneThreshold(JSON.parse(text), 'precision', 0.5));
    mustThrow('tuneThreshold precision NaN', () => g.tuneThreshold(trep, 'precision', NaN));
    mustThrow('tuneThreshold error rate 1', () => g.tuneThreshold(trep, 'error_rate', 1));
    // The command under an answer: flags for the engine's tune run, a definition file otherwise.
    const tdef = g.tuneDefinition('synthetic');
    fn('tuneCommand', [tdef, 'precision', 0.9, 't.json']);
    if (g.tuneCommand(tdef, 'precision', 0.9, 't.json') !== 'csc tune-threshold --precision 0.9 --dataset synthetic') throw new Error('tuneCommand: ' + g.tuneCommand(tdef, 'precision', 0.9, 't.json'));
    if (g.tuneCommand(trep.experiment, 'error_rate', 0.01, 't.json') !== 'csc tune-threshold t.json --error-rate 0.01') throw new Error('tuneCommand of a definition: ' + g.tuneCommand(trep.experiment, 'error_rate', 0.01, 't.json'));
    mustThrow('tuneCommand precision 2', () => g.tuneCommand(tdef, 'precision', 2, 't.json'));
    mustThrow('tuneCommand no definition', () => g.tuneCommand('synthetic', 'precision', 0.9, 't.json'));
  }
  // ---- the threats view: its two definitions and the engine's reading of their reports ---------
  cover('tenantsDefinition', 'attackDefinition', 'threatFindings');
  {
    fn('tenantsDefinition', ['synthetic', 2, 0.5, ['lru', 'threshold']]);
    fn('attackDefinition', ['synthetic', ['lru', 'threshold'], [0, 0.5], 0.15]);
    for (const [label, args] of [['tenants 0', [0, 0.5]], ['tenants 257', [257, 0.5]], ['tenants 2.5', [2.5, 0.5]], ['tenants NaN', [NaN, 0.5]],
      ['tenants "2"', ['2', 0.5]], ['overlap NaN', [2, NaN]], ['overlap −1', [2, -1]], ['overlap 2', [2, 2]], ['overlap "0.5"', [2, '0.5']]]) {
      mustThrow(`tenantsDefinition ${label}`, () => g.tenantsDefinition('synthetic', ...args, ['lru']));
    }
    for (const [label, pol] of [['no policy', []], ['an unknown policy', ['nope']], ['a policy twice', ['lru', 'lru']], ['a number', [3]], ['a string', 'lru']]) {
      mustThrow(`tenantsDefinition ${label}`, () => g.tenantsDefinition('synthetic', 2, 0.5, pol));
      mustThrow(`attackDefinition ${label}`, () => g.attackDefinition('synthetic', pol, [0.1], 0.15));
    }
    for (const [label, p] of [['p 1.5', [1.5]], ['p −0.1', [-0.1]], ['p NaN', [NaN]], ['no p', []], ['p twice', [0.1, 0.1]], ['p a number', 0.1], ['p a string', ['0.1']]]) {
      mustThrow(`attackDefinition ${label}`, () => g.attackDefinition('synthetic', ['lru'], p, 0.15));
    }
    for (const d of [0, -0.1, NaN, Infinity, '0.1', null]) {
      mustThrow(`attackDefinition distance ${String(d)}`, () => g.attackDefinition('synthetic', ['lru'], [0.1], d));
    }
    mustThrow('attackDefinition plane (no ground truth)', () => g.attackDefinition('plane', ['lru'], [0.1], 0.15));
    mustThrow('tenantsDefinition an unknown dataset', () => g.tenantsDefinition('nope', 2, 0.5, ['lru']));
    // A tiny attack run on synthetic: its findings, and refusals for anything else.
    const syn = g.Dataset.synthetic();
    const spec = g.attackDefinition('synthetic', ['lru', 'threshold'], [0, 0.5], 0.15);
    const ar = new g.ExperimentRun({ ...spec, seeds: 2, params: { ...spec.params, horizon: 30, n_eval: 50 } }, syn);
    while (ar.runNext());
    const arep = ar.report();
    ar.free();
    syn.free();
    fn('threatFindings', [arep]);
    const f = g.threatFindings(arep);
    if (f.kind !== 'attack' || f.attack.length !== 4) throw new Error('threatFindings: ' + JSON.stringify(f).slice(0, 200));
    mustThrow('threatFindings an online report', () => g.threatFindings({ ...arep, experiment: { ...arep.experiment, measure: { kind: 'online', policies: ['lru'] } } }));
    mustThrow('threatFindings a number', () => g.threatFindings(5));
  }
  probe('plane.free()', 'ok', () => plane.free());

  // ---- coverage -------------------------------------------------------------------------------
  // `start` (the panic hook's installer, run once at initialisation) is idempotent.
  cover('start');
  matrix('start', [], (a) => g.start(...a));
  const harness = /^(__wbg|__wbgt|__wbgtest|__wbgbench|__wasm$|WasmBindgenTest|default$|initSync$)/;
  for (const name of Object.keys(g)) {
    if (!harness.test(name) && !covered.has(name)) {
      out.push({ label: `export ${name} has no hostile coverage in tests/wasm_hostile.rs`, expect: 'covered',
                 outcome: 'uncovered', message: '', healthy: true, health: '' });
    }
  }
  return out;
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = loadGlue)]
    fn load_glue() -> js_sys::Promise;
    #[wasm_bindgen(js_name = runHostile)]
    fn run_hostile(glue: &JsValue, bench: bool, synthetic: &js_sys::Uint8Array) -> js_sys::Array;
}

/// A settled promise's value (or rejection) and the waker of the task waiting for it.
type Shared = Rc<RefCell<(Option<Result<JsValue, JsValue>>, Option<Waker>)>>;
type Callback = Closure<dyn FnMut(JsValue)>;

/// Awaits a JS promise (a minimal `JsFuture`: the crate has no wasm-bindgen-futures dependency).
struct Await {
    state: Shared,
    _callbacks: (Callback, Callback),
}

impl Await {
    fn new(p: js_sys::Promise) -> Self {
        let state: Shared = Rc::new(RefCell::new((None, None)));
        let settle = |ok: bool| {
            let s = state.clone();
            Callback::new(move |v: JsValue| {
                let waker = {
                    let mut st = s.borrow_mut();
                    st.0 = Some(if ok { Ok(v) } else { Err(v) });
                    st.1.take()
                };
                if let Some(w) = waker {
                    w.wake();
                }
            })
        };
        let (resolve, reject) = (settle(true), settle(false));
        let _ = p.then2(&resolve, &reject);
        Await { state, _callbacks: (resolve, reject) }
    }
}

impl Future for Await {
    type Output = Result<JsValue, JsValue>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut st = self.state.borrow_mut();
        match st.0.take() {
            Some(r) => Poll::Ready(r),
            None => {
                st.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}
fn text(v: &JsValue, key: &str) -> String {
    get(v, key).as_string().unwrap_or_default()
}

/// Every export, every hostile value: no trap, no non-`Error` throw, the instance healthy after
/// each call, the must-throw cases throwing readable messages, every export covered.
#[wasm_bindgen_test]
async fn every_export_survives_hostile_values() {
    let glue = Await::new(load_glue()).await.expect("the test's own JS glue can be imported");
    // The synthetic universe's embeddings: the wasm32 build leaves them out (the page fetches the
    // package's synthetic.emb.f32); the test gives the same file.
    let synthetic = js_sys::Uint8Array::from(&include_bytes!("../data/synthetic/prompts.emb.f32")[..]);
    csc::bindings::dataset::provide_synthetic(synthetic.clone().into()).expect("the built-in embeddings");
    let report = run_hostile(&glue, cfg!(feature = "bench"), &synthetic);
    let (mut failures, mut errors, mut oks, mut must) = (Vec::new(), 0, 0, 0);
    for r in report.iter() {
        let (label, expect, outcome, message) =
            (text(&r, "label"), text(&r, "expect"), text(&r, "outcome"), text(&r, "message"));
        let healthy = get(&r, "healthy").as_bool() == Some(true);
        must += (expect == "error") as usize;
        match outcome.as_str() {
            "error" => errors += 1,
            "ok" => oks += 1,
            _ => {}
        }
        let problem = match (expect.as_str(), outcome.as_str()) {
            (_, "trap") => Some(format!("TRAPPED: {message}")),
            (_, "non-error throw") => Some(format!("threw a non-Error value: {message}")),
            (_, "uncovered") => Some("not covered".to_string()),
            (_, "present") => Some("exported, but should not be".to_string()),
            ("error", "ok") => Some(format!("returned {message} instead of throwing")),
            ("ok", "error") => Some(format!("threw {message:?} on a valid call")),
            (_, "error") if message.trim().is_empty() => Some("threw an Error without a message".to_string()),
            (_, "error") if message.contains("unreachable") || message.contains("RuntimeError") => {
                Some(format!("message is a trap's: {message}"))
            }
            _ => None,
        };
        if let Some(p) = problem {
            failures.push(format!("{label}: {p}"));
        }
        if !healthy {
            failures.push(format!("{label}: the module is broken afterwards: {}", text(&r, "health")));
        }
    }
    console_log!(
        "hostile calls: {} ({errors} threw an Error, {oks} returned; {must} must-throw cases)",
        report.length()
    );
    assert!(report.length() > 1_000, "the matrix ran ({} calls)", report.length());
    assert!(failures.is_empty(), "{} hostile calls misbehaved:\n{}", failures.len(), failures.join("\n"));
}

// ---- numerical robustness through the API ------------------------------------------------------

use csc::bindings::primitives::krr_posterior;

fn f64s(v: &JsValue, key: &str) -> Vec<f64> {
    get(v, key).dyn_into::<js_sys::Float64Array>().expect("a Float64Array").to_vec()
}

/// KRR through `krrPosterior` under duplicate points, a tiny ridge and huge length-scales: finite
/// means, variances in [0, 1], finite γ, and `jitterEvents` tells how many pivots were floored.
#[wasm_bindgen_test]
fn krr_posterior_is_finite_and_reports_jitter() {
    let dup: Vec<f32> = [0.3f32, 0.7].repeat(30);
    let y: Vec<f64> = (0..30).map(|i| 0.1 + 0.02 * i as f64).collect();
    let query = [0.3f32, 0.7, 0.0, 0.0, 1.0, 1.0, 1e3, -1e3];
    let cases = [(0.2, 1e-300, true), (0.2, 0.1, false), (1e6, 1e-300, true), (1e-6, 1e-300, true)];
    for (length, ridge, jitter) in cases {
        let r = krr_posterior(&dup, &y, 2.0, 1.0, &query, length, ridge).expect("fits");
        let (mean, sd) = (f64s(&r, "mean"), f64s(&r, "sd"));
        assert!(mean.iter().all(|m| m.is_finite()), "ℓ={length} r={ridge}: mean {mean:?}");
        assert!(sd.iter().all(|s| s.is_finite() && (0.0..=1.0).contains(s)), "sd {sd:?}");
        assert!(get(&r, "gamma").as_f64().unwrap().is_finite());
        let events = get(&r, "jitterEvents").as_f64().expect("jitterEvents is reported");
        assert_eq!(events > 0.0, jitter, "ℓ={length} r={ridge}: {events} jitter events");
    }
}
