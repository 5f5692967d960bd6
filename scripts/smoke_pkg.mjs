// Smoke test of the package exactly as it ships (www/pkg after scripts/wasm.sh, wasm-opt
// included): the browser tests (tests/wasm_api.rs) run a separate test build, so this is what
// proves the served module instantiates and computes what the native build does.
// Usage: node scripts/smoke_pkg.mjs www/pkg
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

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
const exact = here.stages.filter((s, i) => s.hash === native.stages[i].hash).map((s) => s.stage);
console.log(`${dir}: instantiates and runs; bit-identical to native in stages ${exact.join(", ")}`);
