// Hostile sweep of the package exactly as it ships (www/pkg after scripts/wasm.sh), through its
// real JS glue: every export — every function, class constructor, static method, method and
// getter, found by walking the module namespace and the classes' prototypes, so a new export
// cannot be missed — is called with values of every JS type in every argument position (the
// other arguments valid), with every position given the same value, and (methods, getters) with
// each value as `this`. After each call the module must still work (a cheap call gives its known
// answer), and a throw must be an `Error` with a message. A trap (WebAssembly.RuntimeError) fails
// the sweep. tests/wasm_hostile.rs checks the same from Rust, where types are already right;
// this checks the boundary itself (release glue does not check argument types).
// The embedding package (www/pkg-embed, scripts/wasm-embed.sh) is swept the same way, with the
// model of scripts/fetch-model.sh (www/model) loaded once.
// The benchmark's package (www/pkg-bench: the engine with cargo feature `bench`, which adds the
// Bench* classes of src/bindings/bench.rs) is swept like the engine's (scripts/bench.sh).
// Usage: node scripts/hostile_pkg.mjs www/pkg
//        node scripts/hostile_pkg.mjs www/pkg-bench
//        node scripts/hostile_pkg.mjs www/pkg-embed [www/model]
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = resolve(process.argv[2] ?? 'www/pkg');
const EMBED = existsSync(`${dir}/csc_embed.js`);
// The engine (for its sweep, and for live objects of a foreign class in the embedding's).
const engineDir = EMBED ? resolve(dir, '../pkg') : dir;
const csc = await import(pathToFileURL(`${engineDir}/csc.js`).href);
csc.initSync({ module: readFileSync(`${engineDir}/csc_bg.wasm`) });
// The synthetic universe's embeddings, the file beside the .wasm (src/bindings/dataset.rs).
const syntheticBytes = new Uint8Array(readFileSync(`${engineDir}/synthetic.emb.f32`));
csc.provideSynthetic(syntheticBytes);
const t0 = performance.now();

// ---- Valid arguments of every export (the baseline each hostile value is swapped into). ----
const f32 = (...v) => new Float32Array(v);
const f64 = (...v) => new Float64Array(v);
const enc = (s) => new TextEncoder().encode(s);
const emb = (seed) => new Uint8Array(new Float32Array(384).map((_, i) => Math.sin(seed + i * 0.37)).buffer);
const jsonl = '{"text": "a", "tokens": 3, "embedding": [1, 0]}\n{"text": "b", "tokens": 5, "embedding": [0, 1]}\n';
const spec = {
  id: 'hostile', dataset: 'plane', measure: { kind: 'online', policies: ['greedy'] },
  params: { horizon: 20, n_eval: 50 }, seeds: 1000,
};
const small = { horizon: 30, n_eval: 50 };
/** A valid policy object: calls the LLM, then caches the arrival (k = 1 is never exceeded). */
const ownPolicy = () => ({ decide: (a) => (a.distances.length && a.distances[0] < 0.05 ? 0 : 'llm'), observe: (c, t) => [t] });
const plane = () => csc.Dataset.plane();
/** An OwnPolicyRun of `ownPolicy` played to its horizon. */
const playedOwn = () => { const r = new csc.OwnPolicyRun(plane(), small, ownPolicy()); r.step(30); return r; };

// Per function: its valid arguments. Per class: how to make an instance, the constructor's
// valid arguments (a function: they may hold objects to free) and each method's.
const FUNCTIONS = {
  version: () => [],
  commit: () => [],
  start: () => [], // the panic hook's installer (run once at start-up; idempotent)
  defaultParams: () => [],
  policies: () => [],
  offlineAlgorithms: () => [],
  paperPresets: () => [],
  metrics: () => [],
  parameters: () => [],
  arrivalModels: () => [],
  datasets: () => [],
  pageControls: () => [],
  validateParams: () => [{ k: 3 }],
  determinismReport: () => [0],
  nativeDeterminismReport: () => [],
  epsilonNet: () => [f32(0, 0.18, 0.3), 1, 0.2, 1],
  reverseGreedy: () => [f32(0, 0.1, 0.5), 1, 1, f64(0.5, 0.3, 0.2), f64(0.2, 0.05, 0.3), 1, { kind: 'clipped_linear', zeta: 1 }, new Uint32Array([0])],
  exactOptimum: () => [f32(0, 0.1, 0.5), 1, 1, f64(0.5, 0.3, 0.2), f64(0.2, 0.05, 0.3), 1, undefined],
  discretisedLoss: () => [f32(0, 0.1, 0.5), 1, 1, f64(0.5, 0.3, 0.2), f64(0.2, 0.05, 0.3), new Uint32Array([0]), undefined],
  expectedLoss: () => [f32(0, 0.5), f64(0.2, 0.3), f32(0.1), 1, 1, undefined],
  krrPosterior: () => [f32(0, 0.5), f64(0.2, 0.3), 1, 1, f32(0.25), 0.2, 0.1],
  decodeUrlState: () => ['?k=3&seed=2'],
  encodeUrlState: () => [csc.urlStateDefaults('plane')],
  urlStateDefaults: () => ['plane'],
  configFingerprint: () => ['synthetic', csc.defaultParams()],
  // The loader: once initialised, both return the instance whatever they are given.
  initSync: () => [{ module: new Uint8Array(8) }],
  default: () => [undefined],
  experimentDefinition: () => ['fig-c'],
  quickDefinition: () => ['thy-horizon'],
  paperValues: () => ['fig-c'],
  sweepPresets: () => [],
  parseGrid: () => ['epsilon=0.1,0.2;beta=0.5,1'],
  sweepDefaults: () => ['beta'],
  cliCommand: () => [csc.experimentDefinition('fig-c'), 'fig-c.json'],
  readReport: () => [smallReport()],
  frontierDefinition: () => ['synthetic', 2000],
  frontierComparison: () => [frontierReport(), 1],
  pairedDifference: () => [f64(0.1, -0.2, 0.05), 'cost'],
  tuneDefinition: () => ['synthetic'],
  tuneTarget: () => ['precision', 0.9],
  tuneThreshold: () => [tuneReport(), 'precision', 0.5],
  tuneCommand: () => [csc.tuneDefinition('synthetic'), 'precision', 0.9, 't.json'],
  formatInterval: () => [48.66667, 16.54154],
  formatDifference: () => [-0.0031, 0.0012],
  formatBounds: () => [0.012, 0, 0.0424],
  provideSynthetic: () => [syntheticBytes],
  intervalWords: () => [],
  sizedLabel: () => ['CLCB-Frozen-Cont', 1, 5],
  sizedLabelNote: () => [5],
  runtimeGrowth: () => [[100, 200, 400, 800], f64(1, 4, 16, 64)],
  tenantsDefinition: () => ['synthetic', 2, 0.5, ['greedy', 'lru']],
  attackDefinition: () => ['synthetic', ['greedy', 'lru'], [0, 0.2], 0.15],
  threatFindings: () => [threatReport()],
};
/** A finished tenants report on synthetic (two tenants, one seed, 20 rounds), for threatFindings. */
let threatRep = null;
function threatReport() {
  if (!threatRep) {
    const spec = csc.tenantsDefinition('synthetic', 2, 0.5, ['greedy', 'lru']);
    const d = csc.Dataset.synthetic(), r = new csc.ExperimentRun({ ...spec, seeds: 1, params: { ...spec.params, horizon: 20, n_eval: 50 } }, d);
    while (r.runNext());
    threatRep = r.report();
    r.free();
    d.free();
  }
  return threatRep;
}
/** A finished two-point frontier report on synthetic (one seed each), for frontierComparison. */
let frontierRep = null;
function frontierReport() {
  if (!frontierRep) {
    const d = csc.Dataset.synthetic(), r = new csc.ExperimentRun({ id: 'hostile-frontier', dataset: 'synthetic', seeds: 1,
      params: { horizon: 20, n_eval: 50, k: 3 }, measure: { kind: 'frontier', families: [{ policy: 'greedy' }, { policy: 'lru' }] } }, d, undefined, 1);
    r.runNext();
    r.runNext();
    frontierRep = r.report();
    r.free();
    d.free();
  }
  return frontierRep;
}
/** A finished report of the threshold cache over two τ on synthetic (two seeds), for tuneThreshold. */
let tuneRep = null;
function tuneReport() {
  if (!tuneRep) {
    const d = csc.Dataset.synthetic(), r = new csc.ExperimentRun({ id: 'hostile-tune', dataset: 'synthetic', seeds: 2,
      params: { horizon: 20, n_eval: 50, k: 3 }, measure: { kind: 'frontier', families: [{ policy: 'threshold', param: 'threshold_tau', values: [0.1, 0.3] }] } }, d);
    while (r.runNext());
    tuneRep = r.report();
    r.free();
    d.free();
  }
  return tuneRep;
}
/** A finished report's JSON (one unit of a 20-round run on the plane data), for readReport. */
let reportText = null;
function smallReport() {
  if (!reportText) {
    const d = plane(), r = new csc.ExperimentRun({ ...spec, seeds: 1 }, d, undefined, 1);
    r.runNext();
    reportText = r.reportJson();
    r.free();
    d.free();
  }
  return reportText;
}
const CLASSES = {
  Dataset: {
    make: () => csc.Dataset.synthetic(),
    ctor: null, // no constructor: `new Dataset()` is still swept
    statics: {
      synthetic: () => [0.02],
      plane: () => [],
      fromJsonl: () => ['mine', enc(jsonl), undefined, undefined, 0.01, { replayIndex: enc('1\n0\n1\n'), replayIndexName: 'log.txt', onProgress: () => {} }],
      nqTrivia: () => ['{"text": "q", "tokens": 4}\n', emb(1), '{"text": "r", "tokens": 6}\n', emb(2), 1, 0.01, { onProgress: () => {} }],
    },
    methods: { project: () => [new Float32Array(384 * 2).fill(0.1)] },
  },
  OnlineRun: {
    make: () => new csc.OnlineRun(plane(), small, ['clcb-sc-ls-cont', 'greedy']),
    ctor: () => [plane(), small, ['greedy', 'lru'], { model: 'plane' }],
    methods: { step: () => [3], cache: () => [1], centers: () => [0], curves: () => [0], heatmap: () => [0, 4], ask: () => [new Float32Array([0.3, 0.7]), 12, 'a question'], roundText: () => [0], roundAnswers: () => [0] },
  },
  // A policy written in JavaScript (a fresh one each call: a policy keeps its cache).
  OwnPolicyRun: {
    make: () => new csc.OwnPolicyRun(plane(), small, ownPolicy()),
    ctor: () => [plane(), small, ownPolicy(), { model: 'plane' }],
    methods: { step: () => [3] },
  },
  // Your policy's runs measured together: a run played to T is added.
  OwnPolicyStats: {
    make: () => new csc.OwnPolicyStats(),
    ctor: () => [],
    methods: { add: () => [playedOwn(), 0.5], stats: () => [], theory: () => [], csv: () => ['thy-horizon'], theoryAcrossHorizons: () => [] },
  },
  ExperimentRun: {
    make: () => new csc.ExperimentRun(spec, plane(), undefined, undefined),
    ctor: () => [spec, plane(), { k: 2 }, 3],
    methods: {
      runNext: () => [() => true],
      runUnit: () => [0, () => true],
      // A unit's result as another run of the same experiment computes it (the worker pool).
      addUnit: () => [new csc.ExperimentRun(spec, plane(), undefined, undefined).runUnit(0, undefined)],
    },
  },
  BenchOnline: {
    make: () => new csc.BenchOnline(plane(), { horizon: 20, n_eval: 50 }),
    ctor: () => [plane(), { horizon: 20, n_eval: 50 }],
    methods: { run: () => ['greedy'] },
  },
  BenchReverseGreedy: {
    make: () => new csc.BenchReverseGreedy(12),
    ctor: () => [12],
    methods: { run: () => [3] },
  },
  BenchKrr: {
    make: () => { const b = new csc.BenchKrr(6, 3); b.prepare(); return b; },
    ctor: () => [6, 3],
    methods: {},
  },
};

// ---- The package swept: its module, each export's valid arguments, and its health check. ----
async function embeddingPackage() {
  const emb = await import(pathToFileURL(`${dir}/csc_embed.js`).href);
  emb.initSync({ module: readFileSync(`${dir}/csc_embed_bg.wasm`) });
  const model = resolve(process.argv[3] ?? resolve(dir, '../model'));
  const files = [readFileSync(`${model}/model.f16.safetensors`), readFileSync(`${model}/tokenizer.json`), readFileSync(`${model}/config.json`, 'utf8')];
  const shared = emb.Embedder.load(...files); // one instance for the methods (loading takes a second)
  return {
    module: emb,
    functions: { gpt2Tokens: () => ['who wrote the declaration of independence'], initSync: () => [{ module: new Uint8Array(8) }], default: () => [undefined] },
    classes: {
      Embedder: {
        make: () => shared, keep: true, // not freed between methods
        fresh: () => emb.Embedder.load(...files), // for free and Symbol.dispose
        ctor: null,
        statics: { load: () => [...files] }, // a fresh array: the sweep writes into it
        methods: { embed: () => [['a question', 'another']] },
      },
    },
    healthy: () => emb.gpt2Tokens('Hello world') === 2 && shared.embed(['ok']).length === 384,
  };
}
const ENGINE = {
  module: csc, functions: FUNCTIONS, classes: CLASSES,
  healthy: () => {
    const net = csc.epsilonNet(new Float32Array([0, 0.18, 0.3]), 1, 0.2, 1);
    return csc.version().length > 0 && net.centers.join() === '0,2' && net.cells.join() === '0,1,1';
  },
};
const pkg = EMBED ? await embeddingPackage() : ENGINE;

// ---- Values of every JS type. A function, so objects (freed ones included) are fresh. ----
const HUGE = 'x'.repeat(10 * 2 ** 20);
// A live object of another class than expected (a class of every build of the engine).
const otherClass = new csc.ExperimentRun(spec, plane(), undefined, undefined);
function hostileValues() {
  const freed = csc.Dataset.plane();
  freed.free();
  const live = csc.Dataset.plane();
  return [
    ['undefined', undefined], ['null', null], ['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity],
    ['0', 0], ['-0', -0], ['-1', -1], ['1', 1], ['2', 2], ['0.5', 0.5], ['7', 7], ['1e308', 1e308], ['-1e308', -1e308],
    ['2^32', 2 ** 32], ['2^53', 2 ** 53], ['5e-324', Number.MIN_VALUE],
    ["''", ''], ["'plane'", 'plane'], ["'greedy'", 'greedy'], ["'12'", '12'], ['lone surrogate', 'a\uD800b'],
    ['10 MB string', HUGE], ['true', true], ['false', false],
    ['{}', {}], ['[]', []], ['[1,2,3]', [1, 2, 3]], ['[junk]', ['a', null, {}, [], NaN, undefined, Symbol('s'), 1n]],
    ['[NaN]', [NaN]], ['sparse array', new Array(5)], ['{length: 2^30}', { length: 2 ** 30 }], ['{length: -1}', { length: -1 }],
    ['Int8Array', new Int8Array([1, -2, 3])], ['Uint8Array', new Uint8Array([1, 2, 3])],
    ['Uint8ClampedArray', new Uint8ClampedArray([1, 2, 3])], ['Int16Array', new Int16Array([1, -2, 3])],
    ['Uint16Array', new Uint16Array([1, 2, 3])], ['Int32Array', new Int32Array([1, -2, 3])],
    ['Uint32Array', new Uint32Array([1, 2, 3])], ['Float32Array', new Float32Array([0.1, NaN, 3])],
    ['Float64Array', new Float64Array([0.1, 0.2, Infinity])], ['BigInt64Array', new BigInt64Array([1n, -2n])],
    ['BigUint64Array', new BigUint64Array([1n, 2n])], ['empty Float32Array', new Float32Array(0)],
    ['ArrayBuffer', new ArrayBuffer(16)], ['DataView', new DataView(new ArrayBuffer(16))],
    ['function', () => 1], ['throwing function', () => { throw new Error('boom'); }],
    ['Symbol', Symbol('s')], ['BigInt', 10n], ['huge BigInt', 2n ** 70n],
    ['Date', new Date(0)], ['RegExp', /x/], ['Map', new Map([[1, 2]])], ['Promise', Promise.resolve(1)],
    ['throwing valueOf', { valueOf() { throw new Error('valueOf'); }, toString() { throw new Error('toString'); } }],
    ['{kind: 1}', { kind: 1, zeta: 'x' }], ['{k: -1}', { k: -1 }], ['freed Dataset', freed], ['live Dataset', live],
    ['live ExperimentRun', otherClass],
  ];
}
const dispose = (v) => { if (v && typeof v.free === 'function' && v.__wbg_ptr) v.free(); };

// ---- The sweep. ----
const stats = { calls: 0, traps: 0, threw: 0, returned: 0, badThrows: 0, broken: 0 };
const problems = [];
const healthy = pkg.healthy;
function call(what, label, fn) {
  stats.calls++;
  let result;
  try {
    result = fn();
    stats.returned++;
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      stats.traps++;
      problems.push(`TRAP ${what} with ${label}: ${e.message}`);
    } else if (!(e instanceof Error) || !e.message) {
      stats.badThrows++;
      problems.push(`threw a non-Error ${what} with ${label}: ${String(e)}`);
    } else {
      stats.threw++;
    }
  }
  dispose(result);
  let ok = false;
  try { ok = healthy(); } catch { /* counted below */ }
  if (!ok) {
    stats.broken++;
    problems.push(`module no longer works after ${what} with ${label}`);
    if (stats.broken > 20) finish();
  }
}
/** Positions: each argument in turn (others valid), then all of them at once. */
function sweepArgs(what, arity, baseline, invoke) {
  for (let i = 0; i < arity; i++) {
    for (const [label, v] of hostileValues()) {
      const args = baseline();
      const old = args[i];
      args[i] = v;
      call(`${what} arg ${i}`, label, () => invoke(args));
      for (const a of args) if (a !== v) dispose(a);
      if (old !== v) dispose(old);
    }
  }
  if (arity > 1) {
    for (const [label, v] of hostileValues()) call(`${what} (all args)`, label, () => invoke(Array(arity).fill(v)));
  }
}

// Every baseline must itself succeed (else the sweep would only ever test the first check).
function baselineOk(what, fn) {
  try { dispose(fn()); } catch (e) { problems.push(`the valid arguments of ${what} are refused: ${e.message}`); }
}

const isClass = (v) => typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v));
const missing = [];
const swept = [];
for (const [name, value] of Object.entries(pkg.module)) {
  if (typeof value !== 'function') continue;
  if (!isClass(value)) {
    const base = pkg.functions[name];
    if (!base) { missing.push(`function ${name}`); continue; }
    swept.push(name);
    baselineOk(name, () => value(...base()));
    sweepArgs(name, Math.max(value.length, base().length), base, (args) => value(...args));
    continue;
  }
  const def = pkg.classes[name];
  if (!def) { missing.push(`class ${name}`); continue; }
  swept.push(name);
  // Constructor.
  const ctorBase = def.ctor || (() => []);
  if (def.ctor) baselineOk(`new ${name}`, () => new value(...ctorBase()));
  sweepArgs(`new ${name}`, Math.max(value.length, ctorBase().length, 1), ctorBase, (args) => new value(...args));
  // Static methods.
  for (const s of Object.getOwnPropertyNames(value)) {
    if (['length', 'name', 'prototype', '__wrap'].includes(s) || typeof value[s] !== 'function') continue;
    const base = def.statics?.[s];
    if (!base && value[s].length > 0) { missing.push(`${name}.${s}`); continue; }
    baselineOk(`${name}.${s}`, () => value[s](...(base ? base() : [])));
    sweepArgs(`${name}.${s}`, value[s].length, base || (() => []), (args) => value[s](...args));
  }
  // Methods and getters, on a live instance, then with every value as `this`.
  for (const m of Object.getOwnPropertyNames(value.prototype)) {
    if (m === 'constructor') continue;
    const d = Object.getOwnPropertyDescriptor(value.prototype, m);
    const fn = d.get || d.value;
    if (typeof fn !== 'function') continue;
    const base = def.methods?.[m];
    if (!base && fn.length > 0) { missing.push(`${name}.prototype.${m}`); continue; }
    if (m === 'free' || m === '__destroy_into_raw') {
      // Freeing twice, or a value that is not a `name`, must not trap either.
      const inst = (def.fresh || def.make)();
      call(`${name}.${m}`, 'a live instance', () => fn.call(inst));
      call(`${name}.${m}`, 'the same instance again', () => fn.call(inst));
    } else {
      const inst = def.make();
      const b = base || (() => []);
      baselineOk(`${name}.${m}`, () => { const r = fn.call(inst, ...b()); return r === inst ? undefined : r; });
      sweepArgs(`${name}.${m}`, fn.length, b, (args) => fn.call(inst, ...args));
      if (!def.keep) dispose(inst);
    }
    for (const [label, v] of hostileValues()) {
      if (v && v.__wbg_ptr && !(v instanceof value)) continue; // another class's live object: see below
      call(`${name}.${m} this`, label, () => fn.call(v, ...(base ? base() : [])));
    }
  }
  // Symbol.dispose, if the glue defines it.
  if (Symbol.dispose && typeof value.prototype[Symbol.dispose] === 'function') {
    const inst = (def.fresh || def.make)();
    call(`${name}[Symbol.dispose]`, 'twice', () => { inst[Symbol.dispose](); inst[Symbol.dispose](); });
  }
}

// Fields of the object arguments: every value in each field of fromJsonl's and
// nqTrivia's `options` and of OnlineRun's `arrival`, the other fields valid.
for (const [label, v] of hostileValues()) {
  for (const key of ['groupBy', 'replayIndex', 'replayIndexName', 'onProgress']) {
    const options = { replayIndex: enc('1\n0\n'), replayIndexName: 'log.txt', [key]: v };
    call(`Dataset.fromJsonl options.${key}`, label, () => csc.Dataset.fromJsonl('mine', enc(jsonl), undefined, undefined, 0.01, options));
  }
  call('Dataset.nqTrivia options.onProgress', label, () => csc.Dataset.nqTrivia('{"text": "q", "tokens": 4}\n', emb(1), '{"text": "r", "tokens": 6}\n', emb(2), 1, 0.01, { onProgress: v }));
  for (const arrival of [{ model: v }, { model: 'bursty', group_by: v }, { model: 'replay', index: v }, { model: 'plane', extra: v }]) {
    call(`new OnlineRun arrival ${Object.keys(arrival).join('+')}`, label, () => new csc.OnlineRun(plane(), small, ['greedy'], arrival));
  }
}
// a progress callback that re-enters the module
call('Dataset.fromJsonl options.onProgress', 're-entering', () => csc.Dataset.fromJsonl('mine', enc(jsonl), undefined, undefined, 0.01, { onProgress: () => csc.Dataset.synthetic().free() }));

function finish() {
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  for (const p of problems.slice(0, 40)) console.error(p);
  if (problems.length > 40) console.error(`… and ${problems.length - 40} more`);
  for (const m of missing) console.error(`no valid arguments known for ${m}: add them to scripts/hostile_pkg.mjs`);
  console.log(`hostile sweep of ${swept.length} exports (${swept.join(', ')}): ${stats.calls} calls in ${secs} s — ` +
    `${stats.returned} returned, ${stats.threw} threw an Error, ${stats.traps} trapped, ` +
    `${stats.badThrows} threw a non-Error, ${stats.broken} left the module broken`);
  const ok = !problems.length && !missing.length;
  process.exit(ok ? 0 : 1);
}
finish();
