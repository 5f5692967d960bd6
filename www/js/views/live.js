// The live stream view: the engine plays one seeded stream for two policies side by side in a
// worker (worker.js); each animation frame asks for a batch of rounds and draws what came back.
import { POLICIES } from '../state.js';
import { LivePanel } from './live-panel.js';
import { nqTriviaFiles } from '../nq-trivia.js';
import { curvesCsv, downloadText, downloadCanvas } from '../export.js';
import { uploadedData } from '../upload.js';

const $ = (id) => document.getElementById(id);
const HEAT_N = 48;

export function createLiveView(app) {
  let worker = null; // the engine's worker (replaced if it fails or its instance traps)
  const texts = new Map(); // round → its question (null: none), for hovering
  /** The questions of played rounds (`roundText`), fetched from the worker once each. */
  async function textsOf(rounds) {
    const want = rounds.filter((r) => !texts.has(r));
    if (want.length && worker) {
      const g = gen;
      const got = await new Promise((resolve, reject) => {
        const id = nextId++; waiters.set(id, { resolve, reject }); worker.postMessage({ type: 'text', id, rounds: want });
      }).catch(() => null);
      if (got && g === gen) want.forEach((r, i) => texts.set(r, got[i]));
    }
    return rounds.map((r) => texts.get(r) ?? null);
  }
  const panels = [new LivePanel($('panel-0'), textsOf), new LivePanel($('panel-1'), textsOf)];
  let gen = 0, ready = false, playing = false, inFlight = false, pendingSteps = 0, pendingAsk = null;
  let info = null, last = null, dirty = true, active = false, started = false, stale = false;
  let lastHeatAt = 0, heatInterval = 500, heatN = HEAT_N, heatRound = -1, heatRes = 0;
  const waiters = new Map();
  let nextId = 1;

  for (const sel of [$('p1'), $('p2')]) for (const [id, name] of Object.entries(POLICIES)) sel.add(new Option(name, id));
  const status = (text) => { $('status').textContent = text; };
  const colourBy = () => { const v = $('colour-by').value; return v === 'auto' ? (info && info.dim === 2 ? 'decision' : 'cell') : v; };

  function showLegend() {
    const byCell = colourBy() === 'cell';
    const item = (cls, text) => `<span class="item${text.length > 30 ? ' long' : ''}"><span class="key ${cls}"></span> ${text}</span>`;
    $('legend').innerHTML = [
      item(byCell ? 'hit cellkey' : 'hit', 'served from the cache'), item(byCell ? 'llm cellkey' : 'llm', 'sent to the LLM'),
      item('wrong', 'wrong answer served (its gold answer differs; not in the paper)'),
      item('newest', 'newest arrival'), item('center', 'ε-net center'), item('cached', 'cached center'),
      item('cell', byCell ? 'Voronoi cell of the projected centers (colour = center)' : 'Voronoi cell'),
      info && info.dim === 2 ? item('heat', 'KRR estimate ĉ: darker = costlier, greyer = less certain (σ)') : item('universe', 'universe query'),
    ].join('');
  }

  function setPlaying(on) {
    playing = on && ready && !(last && last.round >= info.horizon);
    $('play').textContent = playing ? 'Pause' : 'Play';
    $('play').setAttribute('aria-pressed', String(playing));
  }

  function start() {
    started = true;
    stale = false;
    gen += 1;
    ready = false; inFlight = false; pendingSteps = 0; pendingAsk = null; last = null; info = null;
    heatN = HEAT_N; heatInterval = 500; heatRound = -1; heatRes = 0;
    setPlaying(false);
    const s = app.state;
    status(s.dataset === 'plane' ? 'Setting up…' : `Computing the oracle M_orc on n_eval = ${s.params.n_eval} samples…`);
    if (!worker) spawn();
    // Uploaded data plays the arrival model chosen for it (built-ins: their SPEC §7 models).
    const up = uploadedData(app);
    const init = { type: 'init', gen, dataset: s.dataset, upload: up && up.dataset, arrival: up && up.upload.arrival, params: s.params, policies: [s.p1, s.p2], heatN: HEAT_N };
    if (s.dataset === 'nq-trivia') {
      status('Loading the nq-trivia data…');
      const g = gen;
      nqTriviaFiles(app).then((nq) => {
        if (g !== gen) return;
        status(`Computing the oracle M_orc on n_eval = ${s.params.n_eval} samples…`);
        worker.postMessage({ ...init, nq });
      }, (e) => { if (g === gen) failed(e.message, false); });
    } else worker.postMessage(init);
    for (const p of panels) p.reset();
    dirty = true;
  }

  /** Every failure ends in a message. A worker that cannot start or whose instance trapped is
   *  dropped, and a fresh one starts the run again on Reset; every pending export request is
   *  answered with the error. */
  function failed(message, replace) {
    if (replace && worker) { worker.terminate(); worker = null; }
    inFlight = false; ready = !replace && info !== null; setPlaying(false);
    for (const w of waiters.values()) w.reject(new Error(message));
    waiters.clear();
    status(`Error: ${message}`);
  }

  function spawn() {
    worker = new Worker(new URL('../worker.js', import.meta.url), { type: 'module' });
    worker.onerror = (ev) => { ev.preventDefault(); failed(`the engine's worker failed: ${ev.message || 'it could not be started (is pkg/ built and served?)'}`, true); };
    worker.onmessageerror = () => failed('a message from the engine\'s worker could not be read', true);
    worker.onmessage = onMessage;
  }

  function onMessage(ev) {
    const m = ev.data;
    if (m.type === 'results' || m.type === 'trace') { const w = waiters.get(m.id); if (w) { waiters.delete(m.id); w.resolve(m.json); } return; }
    if (m.type === 'text') { const w = waiters.get(m.id); if (w) { waiters.delete(m.id); w.resolve(m.texts); } return; }
    if (m.type === 'error' && m.id !== undefined) {
      const w = waiters.get(m.id);
      if (w) { waiters.delete(m.id); w.reject(new Error(m.message)); }
      if (m.trapped) failed(m.message, true);
      return;
    }
    if (m.type === 'error' && m.trapped) { failed(m.message, true); return; }
    if (m.gen !== gen) return;
    if (m.type === 'error') { failed(m.message, false); return; }
    const now = performance.now();
    if (m.type === 'ready') {
      info = m;
      texts.clear();
      const plane = m.dim === 2;
      panels.forEach((p, i) => p.setup({ name: m.policies[i], universe: m.universe, plane }));
      $('proj-note').textContent = plane
        ? 'The plane is 2-D: this is the space itself. Dark dots are the six blob centres of the arrival mixture; the lines are the exact Voronoi cells of the ε-net centers; the shading is the KRR cost estimate ĉ(x) of kernel policies (§6; the baselines have none).'
        : `These queries are ${m.dim}-dimensional: the picture is a 2-D PCA projection (${(100 * (m.explained[0] + m.explained[1])).toFixed(0)} % of the variance). The cells drawn are Voronoi cells of the projected centers, not the true ${m.dim}-d cells; arrivals are coloured by their true nearest center (§4), so a dot of another colour inside a cell shows the projection's distortion.`;
      $('oracle-loss').textContent = `Live stream: oracle loss L(M_orc) = ${m.oracleLoss.toFixed(4)} on n_eval = ${app.state.params.n_eval} (the run's evaluation sample). `
        + (m.noGroundTruth ? `Error rate: — (${m.noGroundTruth}).` : 'Error rate: wrong cache hits against the gold answers (our convention, docs/SPEC-NOTES.html#ground-truth-spec-14; the paper prices a hit by φ alone).');
      $('dataset-checksum').textContent = m.checksum;
      app.emit('checksum', m.checksum); // the fingerprint of uploaded data names its checksum
      ready = true;
      absorb(m);
      showLegend();
      const a = m.arrival;
      const model = a ? `, ${a.model} arrivals${a.group_by ? ` grouped by ${a.group_by}` : ''}${a.index ? ` in the order of ${a.index}` : ''}` : '';
      status(`Ready: ${m.size} queries, T = ${m.horizon}${model} (set up in ${(m.initMs / 1000).toFixed(1)} s).`);
      document.body.dataset.arrival = a ? a.model : '';
      // An embedded view has no Play button: it plays — unless the reader asked the system for
      // reduced motion (prefers-reduced-motion), when it steps once and waits.
      if (app.state.embed) {
        if (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches) $('step').click();
        else setPlaying(true);
      }
      return;
    }
    if (m.type === 'batch') {
      inFlight = false;
      panels.forEach((p, i) => p.addArrivals(m.batch, i, info.policies.length, now));
      if (m.heatMs) {
        // The KRR surface costs about n² × t (a triangular solve per grid point for σ): keep a
        // refresh near 100 ms by coarsening the grid as observations grow.
        const used = m.heat.find(Boolean)?.n || heatN;
        heatN = Math.max(16, Math.min(HEAT_N, Math.floor(Math.sqrt(100 / Math.max(m.heatMs / (used * used), 1e-6)))));
        heatInterval = Math.max(400, 4 * m.heatMs);
      }
      absorb(m);
      if (m.ask) app.emit('asked', m); // views/ask.js
      if (m.round >= info.horizon) { setPlaying(false); status(`Done: T = ${info.horizon} rounds played.`); }
    }
  }
  spawn();

  function absorb(m) {
    last = m;
    if (m.heat) { heatRound = m.round; heatRes = m.heat.find(Boolean)?.n ?? HEAT_N; }
    panels.forEach((p, i) => {
      p.setCenters(m.centers[i]);
      if (m.heat && m.heat[i]) p.setHeat(m.heat[i]);
      p.setCounters(m.counters[i]);
    });
    document.body.dataset.round = String(m.round);
    dirty = true;
  }

  /** Asks for `n` more rounds, with the KRR surface if it is due (`full`: at full resolution). */
  function request(n, full = false) {
    inFlight = true;
    const now = performance.now();
    let wantHeat = 0;
    if (info.dim === 2 && now - lastHeatAt > heatInterval) { wantHeat = full ? HEAT_N : heatN; lastHeatAt = now; }
    worker.postMessage({ type: 'step', gen, n, heatN: wantHeat });
  }

  function frame() {
    if (ready && !inFlight) {
      if (pendingAsk) { inFlight = true; worker.postMessage({ type: 'ask', gen, ...pendingAsk }); pendingAsk = null; }
      else if (pendingSteps > 0) { const n = pendingSteps; pendingSteps = 0; request(n); }
      else if (playing) request(Math.max(1, Math.round(app.state.speed)));
      // Paused: bring the surface up to date, at full resolution (playing coarsens it to keep pace).
      else if (info.dim === 2 && last && (heatRound !== last.round || heatRes < HEAT_N) && performance.now() - lastHeatAt > heatInterval) request(0, true);
    }
    if (dirty && active) {
      dirty = false;
      const label = info ? (info.dim === 2 ? 'plane (2-D, exact)' : `PCA projection of ${info.dim}-d`) : '';
      const now = performance.now();
      const pulsing = panels.map((p) => p.draw(label, colourBy(), now)).some(Boolean);
      if (pulsing) dirty = true;
    }
    requestAnimationFrame(frame);
  }

  // Controls.
  $('play').addEventListener('click', () => setPlaying(!playing));
  $('step').addEventListener('click', () => { if (ready) pendingSteps += 100; });
  $('reset').addEventListener('click', () => start());
  $('colour-by').addEventListener('change', () => { showLegend(); dirty = true; });
  document.addEventListener('keydown', (e) => {
    if (active && e.code === 'Space' && !['INPUT', 'SELECT', 'BUTTON', 'TEXTAREA', 'CANVAS', 'SUMMARY'].includes(document.activeElement?.tagName)) {
      e.preventDefault();
      setPlaying(!playing);
    }
  });
  window.addEventListener('resize', () => { dirty = true; });

  // Exports.
  const ask = (type) => new Promise((resolve, reject) => {
    if (!worker) { reject(new Error('the engine is not running: press Reset')); return; }
    const id = nextId++; waiters.set(id, { resolve, reject }); worker.postMessage({ type, id });
  });
  /** Downloads what `ask(type)` returns; a failure is shown, never waited on forever. */
  const exportJson = async (type, name) => {
    if (!ready) return;
    try { downloadText(`${stem()}-${name}.json`, await ask(type), 'application/json'); }
    catch (e) { status(`Error: the export failed: ${e.message}`); }
  };
  const stem = () => `csc-${app.state.dataset}-seed${app.state.params.seed}-t${last ? last.round : 0}`;
  $('export-csv').addEventListener('click', () => { if (last) downloadText(`${stem()}-curves.csv`, curvesCsv(info.policies, last.curves), 'text/csv'); });
  $('export-json').addEventListener('click', () => exportJson('results', 'results'));
  $('export-trace').addEventListener('click', () => exportJson('trace', 'trace'));
  $('export-png').addEventListener('click', async () => {
    for (const [i, p] of panels.entries()) await downloadCanvas(`${stem()}-${[app.state.p1, app.state.p2][i]}.png`, p.canvas);
  });

  requestAnimationFrame(frame);
  return {
    /** Restarts the run now if the view is open, else when it is next opened. */
    restart() { if (active) start(); else stale = true; },
    activate() { active = true; dirty = true; if (!started || stale) start(); },
    deactivate() { active = false; setPlaying(false); },
    /** The run's setup (`dim`, `policies`, `horizon`, …) once it is ready, else null (views/ask.js). */
    info: () => (ready ? info : null),
    /** Plays a typed question (its vector, GPT-2 tokens and text) as the next round in both
     *  panels (views/ask.js); false when the run cannot take it now. */
    ask(x, tokens, text) {
      if (!ready || !worker || (last && last.round >= info.horizon)) return false;
      setPlaying(false);
      pendingSteps = 0;
      pendingAsk = { x, tokens, text }; // sent by the next frame once no batch is in flight
      return true;
    },
  };
}
