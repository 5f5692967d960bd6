// The playground: wires controls, URL state, the engine worker and the views.
import { POLICIES, DEFAULTS, METRICS, readState, writeState, runParams } from './state.js';
import { LivePanel } from './live.js';
import { lineChart } from './charts.js';
import { curvesCsv, downloadText, downloadCanvas } from './export.js';

const $ = (id) => document.getElementById(id);
const state = readState();
if (state.embed) document.body.classList.add('embed');

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const panels = [new LivePanel($('panel-0'), 0), new LivePanel($('panel-1'), 1)];
const HEAT_N = 48;

let gen = 0;
let ready = false;
let playing = false;
let inFlight = false;
let pendingSteps = 0;
let info = null; // what the worker said on 'ready'
let last = null; // the latest snapshot
let lastHeatAt = 0;
let heatInterval = 500;
let heatN = HEAT_N; // grid of the KRR surface; coarser as its cost grows
let heatRound = -1; // the round the drawn surface belongs to
let dirty = true;
const waiters = new Map();
let nextId = 1;

// ----- controls -------------------------------------------------------------------------------
for (const sel of [$('p1'), $('p2')]) {
  for (const [id, name] of Object.entries(POLICIES)) sel.add(new Option(name, id));
}
const FIELDS = ['dataset', 'p1', 'p2', 'speed', 'seed', 'k', 'epsilon', 'beta', 'horizon', 'n_eval', 'metric'];
function showState() {
  for (const f of FIELDS) $(f).value = String(state[f]);
  // A link with changed model parameters shows them.
  if (['k', 'epsilon', 'beta', 'horizon', 'n_eval'].some((f) => state[f] !== DEFAULTS[f])) $('params').open = true;
  showView();
}
function readField(f) {
  const el = $(f);
  if (el.tagName === 'SELECT') return el.value;
  const v = Number(el.value);
  return Number.isFinite(v) && el.value !== '' ? v : state[f];
}
for (const f of FIELDS) {
  $(f).addEventListener('change', () => {
    state[f] = readField(f);
    writeState(state);
    // Dataset and policies restart the run at once; numeric parameters wait for Reset.
    if (f === 'dataset' || f === 'p1' || f === 'p2' || f === 'seed') start();
    dirty = true;
  });
}
function showView() {
  $('view-live').hidden = state.view !== 'live';
  $('view-regret').hidden = state.view !== 'regret';
  document.querySelectorAll('.tabs button').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.view === state.view)));
  dirty = true;
}
document.querySelectorAll('.tabs button').forEach((b) => b.addEventListener('click', () => {
  state.view = b.dataset.view;
  writeState(state);
  showView();
}));

function setPlaying(on) {
  playing = on && ready && !(last && last.round >= info.horizon);
  $('play').textContent = playing ? 'Pause' : 'Play';
  $('play').setAttribute('aria-pressed', String(playing));
}
$('play').addEventListener('click', () => setPlaying(!playing));
$('step').addEventListener('click', () => { if (ready) { pendingSteps += 100; } });
$('reset').addEventListener('click', () => start());
document.addEventListener('keydown', (e) => {
  if (e.code === 'Space' && !['INPUT', 'SELECT', 'BUTTON', 'TEXTAREA'].includes(document.activeElement?.tagName)) {
    e.preventDefault();
    setPlaying(!playing);
  }
});

// ----- the engine -----------------------------------------------------------------------------
function status(text) { $('status').textContent = text; }

function start() {
  gen += 1;
  ready = false;
  inFlight = false;
  pendingSteps = 0;
  setPlaying(false);
  last = null;
  info = null;
  heatN = HEAT_N;
  heatInterval = 500;
  heatRound = -1;
  const policies = [state.p1, state.p2];
  status(state.dataset === 'plane' ? 'Setting up…' : `Computing the oracle M_orc on n_eval = ${state.n_eval} samples (a few seconds)…`);
  worker.postMessage({ type: 'init', gen, dataset: state.dataset, params: runParams(state), policies, heatN: HEAT_N });
  for (const p of panels) p.reset();
  dirty = true;
}

worker.onmessage = (ev) => {
  const m = ev.data;
  if (m.type === 'results' || m.type === 'trace') {
    const w = waiters.get(m.id);
    if (w) { waiters.delete(m.id); w(m.json); }
    return;
  }
  if (m.gen !== gen) return;
  if (m.type === 'error') {
    inFlight = false;
    ready = info !== null;
    setPlaying(false);
    status(`Error: ${m.message}`);
    return;
  }
  if (m.type === 'ready') {
    info = m;
    const plane = m.dim === 2;
    panels.forEach((p, i) => p.setup({ name: m.policies[i], universe: m.universe, plane }));
    $('heat-key').hidden = !plane;
    $('proj-note').textContent = plane
      ? 'The plane dataset is 2-D: what you see is the space itself (grey dots: the six blob centres of the arrival mixture), and the shading is the KRR estimate ĉ(x) of the cost (SPEC §6) of the kernel policies (the CLCB family; the baselines have none).'
      : `The synthetic queries are 384-dimensional: this is a 2-D PCA projection (axes show ${(100 * (m.explained[0] + m.explained[1])).toFixed(0)} % of the variance). Distances are not preserved, and ε-net cells are not 2-D Voronoi cells.`;
    $('oracle-loss').textContent = `L(M_orc) = ${m.oracleLoss.toFixed(4)}`;
    ready = true;
    absorb(m);
    status(`Ready: ${m.size} queries, horizon T = ${m.horizon} (set up in ${(m.initMs / 1000).toFixed(1)} s).`);
    return;
  }
  if (m.type === 'batch') {
    inFlight = false;
    const nPol = info.policies.length;
    panels.forEach((p, i) => p.addArrivals(m.batch, i, nPol));
    if (m.heatMs) {
      // The KRR surface costs about n² × t (its posterior sd needs a triangular solve per grid
      // point): keep each refresh near 100 ms by coarsening the grid as observations grow.
      const used = m.heat.find(Boolean)?.n || heatN;
      const perPoint = m.heatMs / (used * used);
      heatN = Math.max(16, Math.min(HEAT_N, Math.floor(Math.sqrt(100 / Math.max(perPoint, 1e-6)))));
      heatInterval = Math.max(500, 4 * m.heatMs);
    }
    absorb(m);
    if (m.round >= info.horizon) { setPlaying(false); status(`Done: T = ${info.horizon} rounds played.`); }
  }
};

function absorb(m) {
  last = m;
  if (m.heat) heatRound = m.round;
  panels.forEach((p, i) => {
    p.setCenters(m.centers[i]);
    if (m.heat && m.heat[i]) p.setHeat(m.heat[i]);
    p.setCounters(m.counters[i]);
  });
  document.body.dataset.round = String(m.round);
  dirty = true;
}

function request(n) {
  inFlight = true;
  const now = performance.now();
  let wantHeat = 0;
  if (info.dim === 2 && now - lastHeatAt > heatInterval) { wantHeat = heatN; lastHeatAt = now; }
  worker.postMessage({ type: 'step', gen, n, heatN: wantHeat });
}

// ----- drawing --------------------------------------------------------------------------------
function drawChart() {
  if (!last || !info) return;
  const key = state.metric;
  const fmt = (y) => (y.length && Number.isFinite(y[y.length - 1]) ? ` — ${+y[y.length - 1].toPrecision(4)}` : '');
  lineChart($('regret-chart'), info.policies.map((name, i) => ({ label: `${name}${fmt(last.curves[i][key])}`, x: last.curves[i].t, y: last.curves[i][key] })),
    { xLabel: 'round t', yLabel: METRICS[key], xMax: info.horizon });
}

function frame() {
  if (ready && !inFlight) {
    if (pendingSteps > 0) { const n = pendingSteps; pendingSteps = 0; request(n); }
    else if (playing) request(Math.max(1, Math.round(state.speed)));
    else if (info.dim === 2 && last && heatRound !== last.round && performance.now() - lastHeatAt > heatInterval) {
      request(0); // paused with a stale surface: bring it up to date
    }
  }
  if (dirty) {
    dirty = false;
    if (state.view === 'live') {
      const label = info ? (info.dim === 2 ? 'plane (2-D)' : 'PCA projection of 384-d') : '';
      panels.forEach((p) => p.draw(label));
    } else drawChart();
  }
  requestAnimationFrame(frame);
}
window.addEventListener('resize', () => { dirty = true; });

// ----- export ---------------------------------------------------------------------------------
function ask(type) {
  return new Promise((resolve) => { const id = nextId++; waiters.set(id, resolve); worker.postMessage({ type, id }); });
}
const stem = () => `csc-${state.dataset}-seed${state.seed}-t${last ? last.round : 0}`;
$('export-csv').addEventListener('click', () => {
  if (last) downloadText(`${stem()}-curves.csv`, curvesCsv(info.policies, last.curves), 'text/csv');
});
$('export-json').addEventListener('click', async () => {
  if (ready) downloadText(`${stem()}-results.json`, await ask('results'), 'application/json');
});
$('export-trace').addEventListener('click', async () => {
  if (ready) downloadText(`${stem()}-trace.json`, await ask('trace'), 'application/json');
});
$('export-png').addEventListener('click', async () => {
  if (state.view === 'live') {
    for (const [i, p] of panels.entries()) await downloadCanvas(`${stem()}-${[state.p1, state.p2][i]}.png`, p.canvas);
  } else await downloadCanvas(`${stem()}-regret.png`, $('regret-chart'));
});

showState();
start();
requestAnimationFrame(frame);
