// Smoke test of the package exactly as it ships (www/pkg after scripts/wasm.sh, wasm-opt
// included): the browser tests (tests/wasm_api.rs) run a separate test build, so this is what
// proves the served module instantiates and computes what the native build does.
// Usage: node scripts/smoke_pkg.mjs www/pkg
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { declarations, mismatches } from "./dts_shapes.mjs";

const dir = resolve(process.argv[2] ?? "www/pkg");
const csc = await import(pathToFileURL(`${dir}/csc.js`).href);
csc.initSync({ module: readFileSync(`${dir}/csc_bg.wasm`) });

const check = (ok, what) => {
  if (!ok) {
    console.error(`smoke test failed: ${what}`);
    process.exit(1);
  }
};
const throws = (f, text) => {
  try {
    f();
  } catch (e) {
    return e instanceof Error && e.message.includes(text);
  }
  return false;
};

// The page's package leaves the benchmark's exports out (src/bindings/bench.rs, cargo feature
// `bench`: only in www/pkg-bench, scripts/bench.sh).
const benchExports = Object.keys(csc).filter((name) => /^Bench/.test(name));
check(benchExports.length === 0, `the page's package exports ${benchExports.join(", ")} (benchmark only)`);

// The .wasm leaves the synthetic universe's embeddings out: the file beside it, given once per
// instance (src/bindings/dataset.rs provideSynthetic, checked by size and SHA-256).
check(throws(() => csc.Dataset.synthetic(), "have not been loaded: give them to provideSynthetic first"), "Dataset.synthetic() before provideSynthetic");
const synthetic = new Uint8Array(readFileSync(`${dir}/synthetic.emb.f32`));
const changed = synthetic.slice();
changed[1234] ^= 1;
check(throws(() => csc.provideSynthetic(changed), "are not the built-in file data/synthetic/prompts.emb.f32"), "provideSynthetic(a byte changed)");
check(throws(() => csc.provideSynthetic(synthetic.subarray(4)), "must be 76800 bytes (50 rows of 384 f32), got 76796"), "provideSynthetic(short)");
check(throws(() => csc.Dataset.synthetic(), "have not been loaded"), "Dataset.synthetic() after refused bytes");
csc.provideSynthetic(synthetic);
csc.provideSynthetic(synthetic); // again: harmless
const data = csc.Dataset.synthetic();
check(data.size === 50 && data.dim === 384 && data.points().length === 50 * 384, "Dataset.synthetic()");
check(data.projection().length === 100, "Dataset.projection()");
const net = csc.epsilonNet(new Float32Array([0, 0.18, 0.3]), 1, 0.2, 1);
check(net.centers instanceof Uint32Array && net.centers.join() === "0,2" && net.cells.join() === "0,1,1", "epsilonNet");
const rg = csc.reverseGreedy(
  new Float32Array([0, 0.1, 0.5]), 1, 1,
  new Float64Array([0.5, 0.3, 0.2]), new Float64Array([0.2, 0.05, 0.3]), 1,
);
check(rg.cache.join() === "0" && Math.abs(rg.loss - 0.075) < 1e-8, "reverseGreedy");
check(throws(() => csc.validateParams({ k: 0 }), "invalid parameter `k`"), "validateParams error");
check(throws(() => csc.epsilonNet(new Float32Array([1, 2, 3]), 2, 0.2, 1), "2-dimensional"), "epsilonNet error");
data.free();

const here = csc.determinismReport(0);
const native = csc.nativeDeterminismReport();
for (const [i, s] of here.stages.entries()) {
  if (native.portable.includes(s.stage)) {
    check(s.hash === native.stages[i].hash, `stage ${s.stage} is bit-identical to the native build`);
  }
}
here.krr_summary.forEach((v, i) => {
  const w = native.krr_summary[i];
  check(Math.abs(v - w) <= 1e-10 * Math.max(1, Math.abs(w)), "KRR summary agrees with the native build");
});
// What the exports return has exactly the keys and value kinds csc.d.ts declares: every object
// the bindings build by hand (src/bindings/types.rs, not generated), and the serialised ones
// (generated from the Rust types, tests/ts_types.rs) as a cross-check of the generator.
const decls = declarations(readFileSync(`${dir}/csc.d.ts`, "utf8"));
const shapes = [];
const shape = (name, value) => {
  const p = mismatches(decls, name, value);
  check(p.length === 0, `the value does not match its declaration in csc.d.ts:\n  ${p.slice(0, 10).join("\n  ")}`);
  shapes.push(name);
};
// The check itself sees a missing key, an extra key and a wrong kind.
const { cells: _, ...noCells } = net;
check(mismatches(decls, "EpsilonNetResult", { ...noCells, extra: 1 }).length === 2, "shape check: keys");
check(mismatches(decls, "EpsilonNetResult", { ...net, cells: new Float64Array(3) }).length === 1, "shape check: kinds");
check(mismatches(decls, "Phi", { kind: "clipped_cubic", zeta: 1 }).length === 1, "shape check: unions");
const pts = new Float32Array([0, 0.1, 0.5]);
const w = new Float64Array([0.5, 0.3, 0.2]);
const c = new Float64Array([0.2, 0.05, 0.3]);
shape("EpsilonNetResult", net);
shape("CacheResult", rg);
shape("CacheResult", csc.exactOptimum(pts, 1, 1, w, c, 1));
shape("KrrPosterior", csc.krrPosterior(pts, c, 1, 1, new Float32Array([0.2, 0.3]), 0.2, 0.1));
// vCache needs ground truth (synthetic has it); the heatmap needs 2-D data (plane).
const synth = csc.Dataset.synthetic();
const run = new csc.OnlineRun(synth, { horizon: 40, n_eval: 200 }, ["clcb-sc-ls-cont", "greedy", "vcache", "threshold"]);
shape("LiveFrame", run.step(20));
shape("LiveFrame", run.step(5, 4));
{
  // A policy written in JavaScript: its frames, explained, and one stopped by a fault.
  const own = new csc.OwnPolicyRun(synth, { horizon: 40, n_eval: 200 }, { decide: () => "llm", observe: (c, t) => [t], explain: () => "always the LLM" });
  shape("OwnPolicyFrame", own.step(20));
  const bad = new csc.OwnPolicyRun(synth, { horizon: 40, n_eval: 200 }, { decide: (a) => (a.round === 3 ? {} : "llm"), observe: () => undefined });
  const f = bad.step(40);
  shape("OwnPolicyFrame", f);
  if (!/^the policy stopped in round 3: /.test(f.stopped)) throw new Error(`OwnPolicyRun fault: ${f.stopped}`);
  own.free(); bad.free();
}
shape("AskResult", run.ask(synth.points().slice(0, synth.dim), 12, "a question"));
shape("CacheView", run.oracleCache());
for (const p of [0, 1, 2, 3]) {
  shape("CacheView", run.cache(p));
  shape("CenterDetails", run.centers(p));
  shape("Curves", run.curves(p));
}
shape("Checkpoint[]", run.counters());
shape("RunResult[]", run.results());
run.free();
shape("DatasetInfo", synth.info());
synth.free();
const plane = csc.Dataset.plane();
const planeRun = new csc.OnlineRun(plane, { horizon: 30, n_eval: 100 }, ["clcb-sc-ls-cont"]);
planeRun.step(30);
shape("Heatmap", planeRun.heatmap(0, 4));
planeRun.free();
shape("DatasetInfo", plane.info());
shape("Params", csc.defaultParams());
shape("DeterminismReport", here);
shape("NativeDeterminismReport", native);
shape("PolicyInfo[]", csc.policies());
shape("PolicyId[]", csc.policies().map((p) => p.id));
shape("AlgorithmInfo[]", csc.offlineAlgorithms());
shape("PaperPreset[]", csc.paperPresets());
shape("MetricInfo[]", csc.metrics());
shape("PaperValue[]", csc.paperValues("fig-c"));
shape("ParamInfo[]", csc.parameters());
shape("ArrivalInfo[]", csc.arrivalModels());
shape("DatasetEntry[]", csc.datasets());
shape("PageControls", csc.pageControls());
shape("UrlState", csc.urlStateDefaults("nq-trivia"));
shape("DecodedUrlState", csc.decodeUrlState("?view=sweep&p3=lru&bogus=1"));
shape("Sweep", csc.parseGrid("epsilon=0.1,0.2;beta=0.5,1"));
shape("ExperimentSpec[]", csc.sweepPresets());
for (const id of ["fig-a", "fig-c", "geom", "frontier"]) shape("ExperimentSpec", csc.experimentDefinition(id));
for (const id of ["thy-horizon", "fig-c"]) shape("ExperimentSpec", csc.quickDefinition(id));
const exp = new csc.ExperimentRun(
  { id: "smoke", dataset: "plane", measure: { kind: "online", policies: ["greedy", "lru"] }, params: { horizon: 30, n_eval: 100 }, seeds: 1 },
  plane,
);
while (exp.runNext());
shape("Report", exp.report());
shape("LoadedReport", csc.readReport(exp.reportJson()));
exp.free();
// "Pick a threshold": the form's definition, a target and the answer of a small run.
shape("ExperimentSpec", csc.tuneDefinition("synthetic"));
shape("TuneTarget", csc.tuneTarget("error_rate", 0.01));
{
  const syn = csc.Dataset.synthetic();
  const tr = new csc.ExperimentRun(
    { id: "smoke-tune", dataset: "synthetic", seeds: 2, params: { horizon: 30, n_eval: 50, k: 3 },
      measure: { kind: "frontier", families: [{ policy: "threshold", param: "threshold_tau", values: [0.1, 0.3] }] } },
    syn,
  );
  while (tr.runNext());
  shape("TuneAnswer", csc.tuneThreshold(tr.report(), "precision", 0.5));
  tr.free();
  syn.free();
}
plane.free();
console.log(`${dir}: ${shapes.length} returned objects match their declarations in csc.d.ts`);

const exact = here.stages.filter((s, i) => s.hash === native.stages[i].hash).map((s) => s.stage);
console.log(`${dir}: instantiates and runs; bit-identical to native in stages ${exact.join(", ")}`);
