// Scale curves in the browser (docs/PERFORMANCE.md, "Scale"): the in-page half of
// scripts/scale.sh. A measuring tool, not a test (not in scripts/test.sh; timings are never
// asserted). For each horizon T and each online policy, a fresh headless Chromium opens the served
// page and starts a Web Worker that runs what the page's experiment worker (www/js/exp-worker.js)
// runs: `Dataset.nqTrivia` on the six shared files (gold answers included, which vCache needs), then
// an `ExperimentRun` of one unit — nq-trivia, seed 0, SPEC defaults, horizon T, that one policy —
// with `runUnit`. Recorded per run:
//   - wall time of the dataset load and of `runUnit` (performance.now() in the worker; `runUnit`
//     includes the unit's set-up: trace, evaluation sample, oracle);
//   - the CPU time of Chromium's whole process tree over the run (/proc/PID/stat utime + stime,
//     summed over this script's descendants before and after: dataset load and `runUnit`);
//   - the worker's WebAssembly linear memory (`memory.buffer.byteLength`; it never shrinks, so its
//     final size is the run's peak) after start-up, after the dataset and at the end;
//   - the peak resident set of the busiest Chromium process (VmHWM, the renderer running the worker);
//   - the error the engine reported, verbatim, if the run failed (a plain message or a trap).
// There is no policy-free run in the page: the set-up alone is read from the `oracle` policy's run
// (the oracle's cache is the set-up's M_orc; serving it is one nearest-member query per round).
//
//   node tests/e2e/scale.mjs [DATA_DIR] [--json OUT]
//   env: HORIZONS (1000,2000,5000,10000,20000,50000), POLICIES (every id of the engine's
//        `policies()` list), RUN_TIMEOUT (seconds per run, 1800)
import { writeFile, mkdtemp } from 'node:fs/promises';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, requirePkg, NQ_FILES } from './harness.mjs';
import { serveStatic } from './static_server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); if (i < 0) return null; const v = args[i + 1]; args.splice(i, 2); return v; };
const jsonOut = opt('--json');
const dataDir = path.resolve(args[0] || process.env.CSC_DATA || path.join(root, '../shared/data'));
const list = (v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : null);
const HORIZONS = (list(process.env.HORIZONS) || ['1000', '2000', '5000', '10000', '20000', '50000']).map(Number);
const RUN_TIMEOUT = Number(process.env.RUN_TIMEOUT || 1800) * 1000;
const FILES = NQ_FILES;
const MiB = 2 ** 20;

requirePkg(www);
for (const f of FILES) {
  if (!existsSync(path.join(dataDir, f))) {
    console.error(`scale: ${f} is not in ${dataDir}; pass the data directory or set CSC_DATA`);
    process.exit(1);
  }
}

const WORKER = '/__e2e__/scale-worker.js';
const WORKER_SOURCE = `
import init, { Dataset, ExperimentRun, experimentDefinition, policies } from '/pkg/csc.js';
self.onmessage = async ({ data: m }) => {
  let ds = null, run = null;
  const wasm = await init().catch((e) => { self.postMessage({ type: 'error', stage: 'init', message: String(e && e.message || e) }); });
  if (!wasm) return;
  const mem = () => wasm.memory.buffer.byteLength;
  const out = { type: 'done', memStart: mem() };
  try {
    if (m.listPolicies) { self.postMessage({ type: 'policies', ids: policies().map((p) => p.id) }); return; }
    const bytes = await Promise.all(${JSON.stringify(FILES)}.map(async (f) => new Uint8Array(await (await fetch('/__data__/' + f)).arrayBuffer())));
    const text = (b) => new TextDecoder().decode(b);
    const [nq, nqEmb, tq, tqEmb, nqAns, tqAns] = bytes;
    let t0 = performance.now();
    ds = Dataset.nqTrivia(text(nq), nqEmb, text(tq), tqEmb, undefined, undefined, { nqAnswers: text(nqAns), tqAnswers: text(tqAns) });
    out.loadMs = performance.now() - t0;
    out.memLoaded = mem();
    // The page's online experiment on nq-trivia (fig-e), reduced to one unit: seed 0, horizon T,
    // this one policy; SPEC defaults otherwise (fig-e's base parameters are the defaults).
    const spec = experimentDefinition('fig-e');
    spec.id = 'scale';
    spec.seeds = 1;
    spec.first_seed = 0;
    spec.params.horizon = m.horizon;
    spec.measure = { kind: 'online', policies: [m.policy] };
    self.postMessage({ type: 'start' });
    t0 = performance.now();
    run = new ExperimentRun(spec, ds, undefined, 1);
    const json = run.runUnit(0, undefined);
    out.runMs = performance.now() - t0;
    const r = JSON.parse(json);
    // the final average regret, to compare with the native run's (same trace, same policy)
    const regret = r.observations.filter((o) => o.metric === 'avg_regret').sort((a, b) => a.x - b.x).pop();
    out.avgRegret = regret ? regret.value : null;
  } catch (e) {
    out.type = 'error';
    out.message = String(e && e.message ? e.message : e);
    out.name = e && e.constructor ? e.constructor.name : typeof e;
  } finally {
    out.memEnd = mem();
    try { if (run) run.free(); if (ds) ds.free(); } catch { /* a trapped instance */ }
    self.postMessage(out);
  }
};
`;
const PAGE = '/__e2e__/scale.html';
const PAGE_SOURCE = `<!doctype html><meta charset="utf-8"><title>scale</title>
<script type="module">
window.runScale = (m) => new Promise((resolve) => {
  const w = new Worker('${WORKER}', { type: 'module' });
  w.onmessage = ({ data }) => { if (data.type === 'start') { window.started = performance.now(); return; } resolve(data); w.terminate(); };
  w.onerror = (e) => { resolve({ type: 'error', message: 'worker error: ' + (e.message || e.type) }); w.terminate(); };
  w.postMessage(m);
});
</script>`;

const tmp = await mkdtemp(path.join(os.tmpdir(), 'csc-scale-'));
writeFileSync(path.join(tmp, 'worker.js'), WORKER_SOURCE);
writeFileSync(path.join(tmp, 'page.html'), PAGE_SOURCE);
const extra = Object.fromEntries(FILES.map((f) => [`/__data__/${f}`, path.join(dataDir, f)]));
extra[WORKER] = path.join(tmp, 'worker.js');
extra[PAGE] = path.join(tmp, 'page.html');
const { server, origin } = await serveStatic(www, extra);

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Process `rootPid` and its descendants (pids). */
function tree(rootPid) {
  const kids = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(d));
    } catch { /* gone */ }
  }
  const out = [], todo = [rootPid];
  while (todo.length) { const p = todo.pop(); out.push(p); todo.push(...(kids.get(p) || [])); }
  return out;
}
const TICK = 100; // USER_HZ on Linux
/** CPU seconds (utime + stime) so far of this script's descendants (the one Chromium running, its
 *  renderer and helpers), and their largest VmHWM in KiB. */
function usage() {
  let cpu = 0, hwm = 0;
  for (const p of tree(process.pid).filter((p) => p !== process.pid)) {
    try {
      const s = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      cpu += (Number(f[11]) + Number(f[12])) / TICK;
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) hwm = Math.max(hwm, Number(m[1]));
    } catch { /* gone */ }
  }
  return { cpu, hwm };
}

async function inFreshBrowser(fn) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(origin + PAGE);
    await page.waitForFunction(() => typeof window.runScale === 'function').catch(() => {});
    return await fn(page);
  } finally { await browser.close(); }
}

const policies = list(process.env.POLICIES) || await inFreshBrowser((page) => page.evaluate(() => window.runScale({ listPolicies: true }))).then((r) => {
  if (r.type !== 'policies') throw new Error(`policies(): ${r.message}`);
  return r.ids;
});

const rows = [];
for (const horizon of HORIZONS) {
  for (const policy of policies) {
    const before = load();
    const row = await inFreshBrowser(async (page) => {
      const u0 = usage();
      let timer;
      const timeout = new Promise((r) => { timer = setTimeout(() => r({ type: 'timeout' }), RUN_TIMEOUT); });
      const r = await Promise.race([page.evaluate((m) => window.runScale(m), { horizon, policy }), timeout]);
      clearTimeout(timer); // else the pending timer keeps node alive after the last run
      const u1 = usage();
      return { ...r, cpuS: u1.cpu - u0.cpu, peakRssKiB: u1.hwm };
    }).catch((e) => ({ type: 'error', message: `browser: ${e.message.split('\n')[0]}` }));
    const out = { policy, horizon, status: row.type === 'done' ? 'ok' : row.type, loadBefore: before, loadAfter: load(), ...row };
    delete out.type;
    rows.push(out);
    console.log(JSON.stringify(out));
  }
}
server.close();

const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '');
console.log('\n| policy | T | runUnit wall s | Chromium CPU s | wasm memory MiB | renderer peak RSS MiB | load | note |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(`| ${r.policy} | ${r.horizon.toLocaleString('en')} | ${f(r.runMs / 1e3)} | ${f(r.cpuS, 1)} | ${f(r.memEnd / MiB, 0)} | ${f(r.peakRssKiB / 1024, 0)} | ${r.loadAfter.split(' ')[0]} | ${r.status === 'ok' ? '' : `${r.status}: ${r.message || ''}`} |`);
}
if (jsonOut) await writeFile(jsonOut, JSON.stringify(rows, null, 1));
