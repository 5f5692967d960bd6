// Browser benchmark (the browser half of scripts/bench.sh) in headless Chromium. Timings are
// reported, never asserted. Serves www/ (plus the shared NQ/TriviaQA files under /__data__/, for the
// benchmark only) on a free localhost port and measures:
//   1. www/bench.html: the workloads of examples/online_profile.rs (per dataset one seeded trace,
//      T = 5,000, k = 5, seed 0, SPEC defaults: set-up, then each online policy to the horizon) and
//      of benches/engine.rs (Reverse Greedy on 5,000 candidates, k = 5; one KRR observation at
//      ℓ = 2,000 with 500 tracked centers), in a Web Worker, timed with performance.now();
//   2. the live view's frame intervals (requestAnimationFrame) while streaming;
//   3. time to interactive from localhost (navigation start → the page's ready mark), cold loads;
//   4. the page's .wasm size (www/pkg, without the benchmark's exports), raw and gzipped;
//   5. wasm memory at 10³, 10⁴, 10⁵, 10⁶ rounds of the long run of tests/e2e/long_run.mjs.
//   6. the frontier view: the quick frontier on nq-trivia (66 units: k = 50, T = 1,000,
//      3 seeds), loaded as a reader would (the six files, gold answers included), on the page's
//      worker pool with 2 workers (the `workers` setting): first run and a second, warm one.
//   7. the Theory view: `thy-horizon` at its quick settings (CLCB-SC-LS-Cont, one run
//      per T = 250 … 2,000, 3 seeds, 12 units) on synthetic, on the page's worker pool with 2
//      workers, timed from the click on its Run to the report: a first run and a second, warm one.
// With the native figures (online_profile's output, criterion's estimates, bench_memory's JSON) it
// prints one table: workload | native ms | wasm ms | wasm/native.
//
//   node tests/e2e/bench.mjs [DATA_DIR] [--native FILE] [--native-memory FILE] [--criterion DIR] [--json OUT]
//   env: BENCH_DATASETS (synthetic,plane,nq-trivia), BENCH_POLICIES (default: the engine's `compared` policies, the six of the paper's online figures),
//        HORIZON (5000), BENCH_REPS (5: Reverse Greedy and KRR repetitions), BENCH_ONLY (any of
//        online,primitives,frames,tti,memory,frontier,theory), FRONTIER_WORKERS (2: also the theory
//        view's), FRAME_SECONDS (5), TTI_LOADS (5)
import { writeFile, stat } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { longRun } from './long_run.mjs';
import { serveStatic } from './static_server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); if (i < 0) return null; const v = args[i + 1]; args.splice(i, 2); return v; };
const nativeFile = opt('--native');
const nativeMemoryFile = opt('--native-memory');
const criterionDir = opt('--criterion') || path.join(root, 'target', 'criterion');
const jsonOut = opt('--json');
const dataDir = path.resolve(args[0] || process.env.CSC_DATA || path.join(root, '../shared/data'));
const env = process.env;
const list = (v, d) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : d);
const DATASETS = list(env.BENCH_DATASETS, ['synthetic', 'plane', 'nq-trivia']);
const POLICIES = list(env.BENCH_POLICIES, undefined); // undefined: the worker's default (the engine's list)
const HORIZON = Number(env.HORIZON || 5000);
const REPS = Number(env.BENCH_REPS || 5);
const ONLY = list(env.BENCH_ONLY, ['online', 'primitives', 'frames', 'tti', 'memory', 'frontier', 'theory']);
const FRONTIER_WORKERS = Number(env.FRONTIER_WORKERS || 2);
const FRAME_SECONDS = Number(env.FRAME_SECONDS || 5);
const TTI_LOADS = Number(env.TTI_LOADS || 5);
const DATA_FILES = ['nq.jsonl', 'nq.emb.f32', 'triviaqa.jsonl', 'triviaqa.emb.f32'];
const MiB = 2 ** 20;

// The page's package (time to interactive, frames, memory, size) and the benchmark's own, which
// alone has the benchmark exports (src/bindings/bench.rs, cargo feature `bench`).
if (!existsSync(path.join(www, 'pkg', 'csc.js'))) {
  console.error('www/pkg is missing: build it first (bash scripts/wasm.sh)');
  process.exit(1);
}
const benchPkg = path.join(www, 'pkg-bench', 'csc.js');
if ((ONLY.includes('online') || ONLY.includes('primitives')) &&
    (!existsSync(benchPkg) || !readFileSync(benchPkg, 'utf8').includes('BenchOnline'))) {
  console.error('www/pkg-bench is missing or has no benchmark exports: build it (bash scripts/wasm.sh www/pkg-bench --features bench)');
  process.exit(1);
}
if (DATASETS.includes('nq-trivia') && !DATA_FILES.every((f) => existsSync(path.join(dataDir, f)))) {
  console.error(`bench: the NQ/TriviaQA files are not in ${dataDir}; pass the data directory or set BENCH_DATASETS`);
  process.exit(1);
}

// www/ and, read-only, the four data files under /__data__/ (never copied into the repository).
const { server, origin } = await serveStatic(
  www, Object.fromEntries(DATA_FILES.map((f) => [`/__data__/${f}`, path.join(dataDir, f)])));

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN; };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Polls `fn` in the page (page.waitForFunction would evaluate a string, which the CSP forbids).
async function waitFor(page, fn, arg, timeout = 120000) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(fn, arg)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${fn.toString().slice(0, 80)}`);
    await sleep(100);
  }
}

const browser = await chromium.launch({
  executablePath: env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const out = { machine: { load: [] }, browser: browser.version(), online: [], primitives: {}, frames: [], tti: null, size: null, memory: null, frontier: null, theory: null };
const note = (what) => { const l = load(); out.machine.load.push({ what, load: l }); return l; };
const errors = [];
const foreign = [];
async function newPage(context = browser) {
  const page = await context.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { const u = r.url(); if (!u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:')) foreign.push(u); });
  return page;
}
console.log(`browser benchmark: Chromium ${out.browser}, ${origin}, load ${note('start')}`);

try {
  // 1. Engine workloads in the benchmark page's worker.
  const tasks = [];
  if (ONLY.includes('online')) tasks.push({ kind: 'online', datasets: DATASETS, policies: POLICIES, params: { horizon: HORIZON, seed: 0, k: 5 }, dataUrl: '/__data__/' });
  if (ONLY.includes('primitives')) {
    tasks.push({ kind: 'reverse-greedy', m: 5000, k: 5, reps: REPS });
    tasks.push({ kind: 'krr', l: 2000, tracked: 500, reps: REPS });
  }
  if (tasks.length) {
    const page = await newPage();
    await page.goto(`${origin}/bench.html`);
    await waitFor(page, () => document.body.dataset.ready === 'true');
    await page.evaluate((t) => { window.cscBench.start(t).catch(() => {}); }, tasks);
    let seen = 0, finished = false;
    while (!finished) {
      await sleep(500);
      const events = await page.evaluate((n) => window.cscBench.events.slice(n), seen);
      seen += events.length;
      for (const e of events) {
        const l = load();
        const memNote = e.mem ? `, wasm memory ${(e.mem / MiB).toFixed(1)} MiB` : '';
        if (e.type === 'error') throw new Error(`benchmark worker: ${e.message}`);
        if (e.type === 'done') { finished = true; continue; }
        if (e.type === 'fetch') console.log(`  ${e.dataset}: ${(e.bytes / MiB).toFixed(1)} MiB fetched in ${e.ms.toFixed(0)} ms`);
        if (e.type === 'load') console.log(`  ${e.dataset}: ${e.size} × ${e.dim} loaded in ${e.ms.toFixed(0)} ms (load ${l})`);
        if (e.type === 'setup') { out.online.push({ dataset: e.dataset, what: 'setup', ms: e.ms, load: l, mem: e.mem }); console.log(`  ${e.dataset}: trace + oracle ${e.ms.toFixed(0)} ms (load ${l}${memNote})`); }
        if (e.type === 'net') { out.online.push({ dataset: e.dataset, what: 'net', ms: e.ms, load: l, mem: e.mem }); console.log(`  ${e.dataset}: shared ε-net ${e.ms.toFixed(0)} ms, ${e.centers} centers (load ${l})`); }
        if (e.type === 'policy') {
          out.online.push({ dataset: e.dataset, what: e.policy, id: e.id, ms: e.ms, avgRegret: e.avgRegret, switches: e.switches, load: l, mem: e.mem });
          console.log(`  ${e.dataset}: ${e.policy.padEnd(18)} ${e.ms.toFixed(1).padStart(9)} ms  avg regret ${e.avgRegret.toFixed(6)}  switches ${String(e.switches).padStart(5)} (load ${l}${memNote})`);
        }
        if (e.type === 'rg-build') { out.primitives.rgBuild = { ms: e.ms, load: l }; console.log(`  ${e.m} candidates + distance matrix: ${e.ms.toFixed(0)} ms (load ${l})`); }
        if (e.type === 'rg') { (out.primitives.rg ||= []).push({ ms: e.ms, loss: e.loss, load: l }); console.log(`  reverse greedy m = ${e.m}, k = ${e.k}: ${e.ms.toFixed(1)} ms, loss ${e.loss} (load ${l})`); }
        if (e.type === 'krr-build') { out.primitives.krrBuild = { ms: e.ms, load: l }; console.log(`  krr grown to ℓ = ${e.l - 1} with ${e.tracked} tracked: ${e.ms.toFixed(0)} ms (load ${l})`); }
        if (e.type === 'krr') { (out.primitives.krr ||= []).push({ ms: e.ms, load: l }); console.log(`  krr observation ${e.nObs} + refresh of ${e.tracked}: ${e.ms.toFixed(2)} ms (load ${l}${memNote})`); }
      }
    }
    await page.close();
  }

  // 2. Live view frame intervals while streaming (speed = rounds per animation frame).
  if (ONLY.includes('frames')) {
    const SPEED = 20;
    const configs = [
      { label: 'synthetic, Greedy | LFU', query: `?p1=greedy&p2=lfu&horizon=20000&speed=${SPEED}` },
      { label: 'synthetic, CLCB-SC-LS-Cont | Greedy (default pair)', query: `?horizon=20000&speed=${SPEED}` },
      { label: 'plane, CLCB-SC-LS-Cont | Greedy (KRR heatmap)', query: `?dataset=plane&horizon=20000&speed=${SPEED}` },
    ];
    // rAF timestamps for `ms`, the round shown before and after, and long animation frames.
    const sample = (ms) => new Promise((resolve) => {
      const stamps = [];
      const loaf = [];
      let obs = null;
      try { obs = new PerformanceObserver((l) => loaf.push(...l.getEntries().map((e) => e.duration))); obs.observe({ type: 'long-animation-frame' }); } catch { obs = null; }
      const r0 = Number(document.body.dataset.round || 0);
      const f = (now) => {
        stamps.push(now);
        if (now - stamps[0] < ms) requestAnimationFrame(f);
        else { if (obs) obs.disconnect(); resolve({ stamps, r0, r1: Number(document.body.dataset.round || 0), loaf: obs ? loaf : null }); }
      };
      requestAnimationFrame(f);
    });
    const summarise = (s) => {
      const iv = s.stamps.slice(1).map((t, i) => t - s.stamps[i]);
      const secs = (s.stamps.at(-1) - s.stamps[0]) / 1e3;
      return { frames: iv.length, median: median(iv), p95: quantile(iv, 0.95), max: Math.max(...iv), fps: iv.length / secs,
        qps: (s.r1 - s.r0) / secs, rounds: s.r1 - s.r0, longFrames: s.loaf ? s.loaf.length : null, longestFrame: s.loaf && s.loaf.length ? Math.max(...s.loaf) : null };
    };
    for (const c of configs) {
      const page = await newPage();
      await page.goto(`${origin}/${c.query}`);
      await waitFor(page, () => /^Ready/.test(document.getElementById('status').textContent), null, 180000);
      const idle = summarise(await page.evaluate(sample, 2000));
      await page.click('#play');
      await sleep(500);
      const l = load();
      const play = summarise(await page.evaluate(sample, FRAME_SECONDS * 1000));
      const ended = await page.evaluate(() => /^Done/.test(document.getElementById('status').textContent));
      await page.close();
      out.frames.push({ ...c, speed: SPEED, idle, play, ended, load: l });
      console.log(`  frames, ${c.label}: idle median ${idle.median.toFixed(1)} ms; streaming ${SPEED} rounds/frame: median ${play.median.toFixed(1)} ms, ` +
        `p95 ${play.p95.toFixed(1)} ms, max ${play.max.toFixed(0)} ms, ${play.fps.toFixed(1)} frames/s, ${play.qps.toFixed(0)} queries/s` +
        `${play.longFrames === null ? '' : `, ${play.longFrames} frames > 50 ms`}${ended ? ' (horizon reached)' : ''} (load ${l})`);
    }
  }

  // 3. Time to interactive: navigation start → `csc-ready` (wasm initialised, controls wired, main.js)
  //    and → the live status "Ready" (the worker's run is set up: Play works). Cold: a new context each time.
  if (ONLY.includes('tti')) {
    const loads = [];
    for (let i = 0; i < TTI_LOADS; i++) {
      const context = await browser.newContext();
      const page = await newPage(context);
      await page.addInitScript(() => {
        const mo = new MutationObserver(() => {
          const s = document.getElementById('status');
          if (s && /^Ready/.test(s.textContent)) { window.__liveReady = performance.now(); mo.disconnect(); }
        });
        mo.observe(document, { subtree: true, childList: true, characterData: true });
      });
      await page.goto(`${origin}/`);
      await waitFor(page, () => window.__liveReady !== undefined, null, 120000);
      loads.push(await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const fcp = performance.getEntriesByName('first-contentful-paint')[0];
        const ready = performance.getEntriesByName('csc-ready')[0];
        return { domContentLoaded: nav.domContentLoadedEventEnd, fcp: fcp ? fcp.startTime : null, ready: ready ? ready.startTime : null, live: window.__liveReady };
      }));
      await context.close();
    }
    const l = load();
    const pick = (k) => median(loads.map((x) => x[k]).filter((x) => x !== null));
    out.tti = { loads, median: { domContentLoaded: pick('domContentLoaded'), fcp: pick('fcp'), ready: pick('ready'), live: pick('live') }, load: l };
    console.log(`  time to interactive (median of ${loads.length} cold loads): controls ready ${out.tti.median.ready.toFixed(0)} ms ` +
      `(${loads.map((x) => x.ready.toFixed(0)).join(', ')}), live run ready ${out.tti.median.live.toFixed(0)} ms, first contentful paint ${out.tti.median.fcp.toFixed(0)} ms (load ${l})`);
  }

  // 4. Size of what ships.
  {
    const wasm = readFileSync(path.join(www, 'pkg', 'csc_bg.wasm'));
    const js = readFileSync(path.join(www, 'pkg', 'csc.js'));
    out.size = { wasmRaw: wasm.length, wasmGzip: gzipSync(wasm, { level: 9 }).length, jsGzip: gzipSync(js, { level: 9 }).length };
    console.log(`  csc_bg.wasm: ${out.size.wasmRaw} bytes raw, ${out.size.wasmGzip} gzipped; csc.js ${out.size.jsGzip} gzipped`);
  }

  // 5. Memory over a 10⁶-round run (long_run.mjs's run, sampled at 10³…10⁶ rounds).
  if (ONLY.includes('memory')) {
    const page = await newPage();
    await page.goto(`${origin}/`);
    const r = await longRun(page, { milestones: [1e3, 1e4, 1e5, 1e6], timeout: 600000 });
    await page.close();
    const l = load();
    out.memory = { wasm: r, load: l };
    console.log(`  memory, ${r.rounds} rounds of ${r.policies.join(', ')}: wasm ${(r.memStart / MiB).toFixed(1)} MiB before, ${(r.memInit / MiB).toFixed(1)} after set-up, ` +
      Object.entries(r.memAt).map(([k, v]) => `${(v / MiB).toFixed(1)} at ${k}`).join(', ') + ` (load ${l})`);
  }

  // 6. The frontier view's quick frontier on nq-trivia, on the page's worker pool.
  if (ONLY.includes('frontier')) {
    const files = [...DATA_FILES, 'nq.answers.jsonl', 'triviaqa.answers.jsonl'];
    if (!files.every((f) => existsSync(path.join(dataDir, f)))) throw new Error(`bench: the frontier needs ${files.join(', ')} in ${dataDir}`);
    const page = await newPage();
    // Loaded from the live view (so the page never looks for a bundle), then the Frontier tab.
    await page.goto(`${origin}/?workers=${FRONTIER_WORKERS}`);
    await waitFor(page, () => document.body.dataset.ready === 'true');
    await page.setInputFiles('#file', files.map((name) => ({ name, mimeType: 'application/octet-stream', buffer: readFileSync(path.join(dataDir, name)) })));
    await waitFor(page, () => /^Loaded nq-trivia/.test(document.getElementById('upload-msg').textContent), null, 600000);
    await page.click('.tabs [data-view=frontier]');
    const finished = () => ['done', 'error'].includes(document.querySelector('[data-job=frontier]').dataset.status);
    const status = () => document.querySelector('[data-job=frontier] .status').textContent;
    // The first run starts when the view opens; its status gives its time (whole s).
    await waitFor(page, finished, null, 3600000);
    const first = await page.evaluate(status);
    if (!/^Done/.test(first)) throw new Error(`frontier: ${first}`);
    const l1 = load();
    // A second, warm run (Run again), timed here from the click to the end.
    const t0 = Date.now();
    await page.click('[data-job=frontier] .run');
    await waitFor(page, () => document.querySelector('[data-job=frontier]').dataset.status === 'running', null, 10000);
    await waitFor(page, finished, null, 3600000);
    const ms = Date.now() - t0;
    const second = await page.evaluate(status);
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    await page.close();
    const l = load();
    out.frontier = { workers: FRONTIER_WORKERS, cores, first, firstLoad: l1, secondMs: ms, second, load: l };
    console.log(`  frontier view, quick frontier on nq-trivia, ${FRONTIER_WORKERS} workers (${cores} cores reported): first run "${first}" (load ${l1}); second run ${(ms / 1000).toFixed(1)} s, "${second}" (load ${l})`);
  }

  // 7. The Theory view's quick thy-horizon on synthetic, on the page's worker pool.
  if (ONLY.includes('theory')) {
    const page = await newPage();
    // The view's own run (the regret view's) kept tiny, so that only thy-horizon is timed.
    await page.goto(`${origin}/?view=theory&dataset=synthetic&seeds=1&horizon=300&n_eval=300&policies=greedy&workers=${FRONTIER_WORKERS}`);
    const finished = (j) => ['done', 'error'].includes(document.querySelector(`[data-job=${j}]`).dataset.status);
    const status = () => document.querySelector('[data-job=theory-horizon] .status').textContent;
    await waitFor(page, finished, 'theory', 600000);
    const runs = [];
    for (const which of ['first', 'second']) {
      const l0 = load();
      const t0 = Date.now();
      await page.click('[data-job=theory-horizon] .run');
      await waitFor(page, () => document.querySelector('[data-job=theory-horizon]').dataset.status === 'running', null, 10000);
      await waitFor(page, finished, 'theory-horizon', 3600000);
      const ms = Date.now() - t0;
      const said = await page.evaluate(status);
      if (!/^Done/.test(said)) throw new Error(`thy-horizon: ${said}`);
      runs.push({ which, ms, status: said, loadBefore: l0, load: load() });
    }
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    await page.close();
    out.theory = { workers: FRONTIER_WORKERS, cores, runs };
    console.log(`  theory view, thy-horizon quick on synthetic, ${FRONTIER_WORKERS} workers (${cores} cores reported): ` +
      runs.map((r) => `${r.which} run ${(r.ms / 1000).toFixed(1)} s, "${r.status}" (load ${r.loadBefore} → ${r.load})`).join('; '));
  }
} finally {
  await browser.close();
  server.close();
}
note('end');

// ---- The combined table --------------------------------------------------------------------
// Native online figures: examples/online_profile.rs's output (one block per dataset).
const native = {};
if (nativeFile && existsSync(nativeFile)) {
  let ds = null;
  for (const line of readFileSync(nativeFile, 'utf8').split('\n')) {
    let m = line.match(/^(\S+): T = (\d+), seed (\d+); trace \+ oracle (\d+) ms/);
    if (m) { ds = m[1]; native[ds] = { horizon: Number(m[2]), setup: Number(m[4]), policies: {} }; continue; }
    m = line.match(/^shared ε-net\s+([\d.]+) ms/);
    if (m && ds) { native[ds].net = Number(m[1]); continue; }
    m = line.match(/^(\S+)\s+([\d.]+) ms\s+avg regret ([-\d.e]+)\s+switches\s+(\d+)/);
    if (m && ds) native[ds].policies[m[1]] = { ms: Number(m[2]), avgRegret: Number(m[3]), switches: Number(m[4]) };
  }
}
// Native primitives: criterion's median of the benchmarks with the same instances.
async function criterion(id) {
  const f = path.join(criterionDir, id, 'new', 'estimates.json');
  if (!existsSync(f)) return null;
  const ageMin = (Date.now() - (await stat(f)).mtimeMs) / 60000;
  return { ms: JSON.parse(readFileSync(f, 'utf8')).median.point_estimate / 1e6, ageMin };
}
const fmt = (x, d = 1) => (x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(d));
const rows = [];
const row = (workload, nat, wasm, extra = '', wasmLoad = '') =>
  rows.push(`| ${workload} | ${fmt(nat)} | ${fmt(wasm)} | ${nat && wasm ? (wasm / nat).toFixed(2) : '—'} | ${extra} | ${wasmLoad} |`);
let mismatches = 0;
for (const e of out.online) {
  const n = native[e.dataset];
  if (e.what === 'setup') { row(`${e.dataset}: trace + oracle`, n ? n.setup : null, e.ms, '', e.load); continue; }
  if (e.what === 'net') { row(`${e.dataset}: shared ε-net`, n ? n.net : null, e.ms, '(same trace)', e.load); continue; }
  const np = n && n.policies[e.what];
  let same = '';
  if (np) {
    const eq = np.avgRegret.toFixed(6) === e.avgRegret.toFixed(6) && np.switches === e.switches;
    if (!eq) mismatches++;
    same = `${eq ? 'same' : 'DIFFERENT'}: regret ${np.avgRegret.toFixed(6)} / ${e.avgRegret.toFixed(6)}, switches ${np.switches} / ${e.switches}`;
  } else {
    same = `wasm: regret ${e.avgRegret.toFixed(6)}, switches ${e.switches}`;
  }
  row(`${e.dataset}: ${e.what}`, np ? np.ms : null, e.ms, same, e.load);
}
if (out.primitives.rg) {
  const c = await criterion('reverse_greedy/fast/5000');
  const ms = out.primitives.rg.map((x) => x.ms);
  row('reverse_greedy/fast/5000 (k = 5)', c && c.ms, median(ms), `wasm median of ${ms.length} (${fmt(Math.min(...ms))}–${fmt(Math.max(...ms))}); native: criterion median${c && c.ageMin > 120 ? `, from a run ${Math.round(c.ageMin / 60)} h old` : ''}`, out.primitives.rg.at(-1).load);
  const d = await criterion('distance_matrix/build/5000');
  row('distance_matrix/build/5000', d && d.ms, out.primitives.rgBuild.ms, 'wasm: one build, with generating the 5,000 points', out.primitives.rgBuild.load);
}
if (out.primitives.krr) {
  const c = await criterion('krr/add_one_refresh_500_tracked/2000');
  const ms = out.primitives.krr.map((x) => x.ms);
  row('krr/add_one_refresh_500_tracked/2000', c && c.ms, median(ms), `wasm median of ${ms.length} (${fmt(Math.min(...ms), 2)}–${fmt(Math.max(...ms), 2)}); native: criterion median${c && c.ageMin > 120 ? `, from a run ${Math.round(c.ageMin / 60)} h old` : ''}`, out.primitives.krr.at(-1).load);
  row('krr growth to ℓ = 1,999, 500 tracked (wasm set-up)', null, out.primitives.krrBuild.ms, 'native: krr/growth_500_tracked/2000 grows to 2,000', out.primitives.krrBuild.load);
}
console.log(`\n== native vs WebAssembly (Chromium ${out.browser}); load average (1, 5, 15 min) at start ${out.machine.load[0].load}, at end ${out.machine.load.at(-1).load}`);
if (rows.length) {
  console.log('| workload | native ms | wasm ms | wasm/native | same workload? | load (wasm) |');
  console.log('|---|---:|---:|---:|---|---|');
  for (const r of rows) console.log(r);
}
for (const f of out.frames) {
  console.log(`- live view frames, ${f.label}, ${f.speed} rounds/frame: median ${fmt(f.play.median)} ms, p95 ${fmt(f.play.p95)} ms ` +
    `(${fmt(f.play.fps)} frames/s, ${fmt(f.play.qps, 0)} queries/s achieved${f.play.longFrames === null ? '' : `, ${f.play.longFrames} long frames`}; idle page: median ${fmt(f.idle.median)} ms) (load ${f.load})`);
}
if (out.tti) {
  console.log(`- time to interactive, localhost, median of ${out.tti.loads.length} cold loads: controls ready (wasm initialised) ${fmt(out.tti.median.ready, 0)} ms, ` +
    `live run ready (Play works) ${fmt(out.tti.median.live, 0)} ms, first contentful paint ${fmt(out.tti.median.fcp, 0)} ms (load ${out.tti.load})`);
}
console.log(`- csc_bg.wasm: ${(out.size.wasmRaw / 1024).toFixed(0)} KiB raw, ${(out.size.wasmGzip / 1024).toFixed(0)} KiB gzipped (zlib level 9); csc.js ${(out.size.jsGzip / 1024).toFixed(0)} KiB gzipped`);
if (out.memory) {
  const r = out.memory.wasm;
  const at = r.memAt;
  console.log(`- memory, ${r.rounds.toLocaleString('en')}-round run (${r.policies.join(', ')}, 50 prompts × 8-d, n_eval ${r.params.n_eval}): wasm linear memory ` +
    `${(r.memStart / MiB).toFixed(1)} MiB at start, ${(r.memInit / MiB).toFixed(1)} MiB after set-up (trace held in full: ${((r.memInit - r.memStart) / r.rounds).toFixed(1)} bytes per round of horizon), then ` +
    Object.entries(at).map(([k, v]) => `${(v / MiB).toFixed(1)} MiB at ${Number(k).toExponential(0)}`).join(', ') +
    `: ${((at[1e6] - at[1e3]) / (1e6 - 1e3)).toFixed(2)} bytes/round while streaming (load ${out.memory.load})`);
}
if (nativeMemoryFile && existsSync(nativeMemoryFile)) {
  try {
    const m = JSON.parse(readFileSync(nativeMemoryFile, 'utf8').trim().split('\n').at(-1));
    out.nativeMemory = m;
    const at = m.at;
    const first = Number(Object.keys(at)[0]), last = Number(Object.keys(at).at(-1));
    console.log(`- memory natively (counting allocator, same run): heap ${(m.afterDataset / MiB).toFixed(2)} MiB with the data, +${((m.afterTrace - m.afterDataset) / m.rounds).toFixed(1)} bytes/round for the trace, ` +
      `+${((m.afterEnv - m.afterTrace) / MiB).toFixed(1)} MiB evaluation oracle, +${((m.afterSims - m.afterEnv) / m.rounds).toFixed(1)} bytes/round for ${m.policies.length} simulations; while streaming ` +
      Object.entries(at).map(([k, v]) => `${(v / MiB).toFixed(2)} MiB at ${Number(k).toExponential(0)}`).join(', ') +
      `: ${((at[last] - at[first]) / (last - first)).toFixed(3)} bytes/round; peak ${(m.peak / MiB).toFixed(1)} MiB`);
  } catch (e) {
    console.log(`- native memory: could not read ${nativeMemoryFile}: ${e.message}`);
  }
}
if (out.frontier) {
  const f = out.frontier;
  console.log(`- frontier view, quick frontier on nq-trivia (66 units), ${f.workers} workers: first run ${f.first.replace(/^Done: /, '')} (load ${f.firstLoad}); second run ${(f.secondMs / 1000).toFixed(1)} s (load ${f.load})`);
}
if (out.theory) {
  const t = out.theory;
  console.log(`- theory view, thy-horizon quick on synthetic (12 units), ${t.workers} workers: ` +
    t.runs.map((r) => `${r.which} run ${(r.ms / 1000).toFixed(1)} s (load ${r.load})`).join(', '));
}
if (errors.length) console.log(`console errors: ${errors.join(' | ')}`);
if (foreign.length) console.log(`requests to another origin: ${foreign.join(' ')}`);
if (mismatches) console.log(`${mismatches} workload(s) gave different results natively and in wasm: their ratios compare different work`);
if (jsonOut) await writeFile(jsonOut, JSON.stringify(out, null, 1));
process.exit(errors.length || foreign.length ? 1 : 0);
