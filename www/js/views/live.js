// @ts-check
// The live stream view: the engine plays one seeded stream for two to four policies side by side
// (p1…p4) in a worker (worker.js, through rpc.js); each animation frame makes at most one request,
// answered by one engine call (OnlineRun.step: a LiveFrame of the rounds played since the last
// frame), and draws what came back: per panel the arrivals, the policy's ε-net and cache, its
// counters, a running regret and hit-rate chart (live-chart.js, fed the frame's new curve points)
// and "why this round" (why-round.js, worded from the engine's typed events of the round and the
// catalog's references). The view's state is one named object, `session`, whose `mode` is what
// the run is doing.
import { LivePanel } from './live-panel.js';
import { whyThisRound, eventsByEntry } from './why-round.js';
import { nqTriviaFiles } from '../nq-trivia.js';
import { curvesCsv, downloadText, downloadCanvas } from '../export.js';
import { uploadedData } from '../upload.js';
import { Rpc } from '../rpc.js';
import { enginePackage } from '../engine.js';
import { OwnLivePanel } from './own-policy.js';
/** @typedef {import('../state.js').App} App */

const $ = (id) => document.getElementById(id);
const HEAT_N = 48;
/** The policy keys of the panels, left to right (p3, p4: optional). */
const KEYS = ['p1', 'p2', 'p3', 'p4'];
/** The curve columns of a `Curves` (OnlineRun), appended frame by frame. */
const CURVE_COLUMNS = ['t', 'avgRegret', 'switches', 'avgRealisedCost', 'hitRate', 'loss', 'estRmse'];
/** The modes in which a run is set up and answers requests. */
const READY = ['paused', 'playing', 'stepping', 'finished'];
/** The wall time over which the live run's pace (rounds per second) is measured, and how often it is shown. */
const PACE_WINDOW_MS = 2000, PACE_SHOW_MS = 250;

/** The policies the state puts in panels, in order (an empty p3 or p4 is no panel). */
export const panelPolicies = (s) => KEYS.map((k) => s[k]).filter(Boolean);

/** @param {App} app */
export function createLiveView(app) {
  const engine = new Rpc(new URL('../worker.js', import.meta.url), {
    name: 'the engine\'s worker', startHint: 'it could not be started (is pkg/ built and served?)', wasm: enginePackage,
    onFail: (message) => failed(message),
  });
  const info = new Map(); // round → { text, answers } of a played round (null: none), for hovering
  /** The questions and gold answers of played rounds, fetched from the worker once each. */
  async function roundsInfo(rounds) {
    const want = rounds.filter((r) => !info.has(r));
    if (want.length && ready()) {
      const g = session.gen;
      const got = await engine.request('text', { rounds: want }).catch(() => null);
      if (got && g === session.gen) want.forEach((r, i) => info.set(r, { text: got.texts[i], answers: got.answers[i] }));
    }
    return rounds.map((r) => info.get(r) ?? { text: null, answers: null });
  }
  // Panels C and D are copies of panel B's markup (index.html holds A and B).
  for (const [i, letter] of [[2, 'C'], [3, 'D']]) {
    const f = /** @type {HTMLElement} */ ($('panel-1').cloneNode(true));
    Object.assign(f, { id: `panel-${i}`, hidden: true });
    f.querySelector('h2').textContent = `Policy ${letter}`;
    const c = f.querySelector('.canvas-wrap canvas');
    c.setAttribute('aria-label', c.getAttribute('aria-label').replace('policy B', `policy ${letter}`));
    c.setAttribute('aria-describedby', `tip-${i}`);
    f.querySelector('.tip').id = `tip-${i}`;
    $('panel-1').parentElement.append(f);
  }
  const panels = KEYS.map((_, i) => new LivePanel($(`panel-${i}`), roundsInfo));
  // Your own policy's panel (own-policy.js): set up on each run's stream, it follows its rounds.
  const ownPanel = new OwnLivePanel();
  /**
   * The live view's state. `mode`: 'idle' (no run yet), 'starting' (the worker sets a run up),
   * 'paused', 'playing', 'stepping' (paused, with rounds or a question the buttons asked for still
   * to play), 'finished' (the horizon is reached) or 'failed' (a message is shown; Reset starts
   * again). `gen` numbers the runs (replies of an older one are dropped); `run` is the run's setup
   * and `last` the last frame drawn; `inFlight`: a request is out (at most one); `queued` rounds
   * and a `question` wait for the next free frame; `curves` per policy, the points so far.
   */
  const session = {
    mode: 'idle', gen: 0, run: null, last: null, inFlight: false, queued: 0, question: null, init: null,
    /** @type {Record<string, number[]>[]} */ curves: [],
  };
  /** Whether the view is shown (`active`), must start a new run when it is (`stale`), or redraw (`dirty`). */
  const view = { active: false, stale: true, dirty: true };
  /** The plane's KRR surface: when it was last asked for, how often, at which grid, and for which round at which grid. */
  const heat = { at: 0, interval: 500, n: HEAT_N, round: -1, res: 0 };
  const ready = () => READY.includes(session.mode);

  // The policy selects, speed and colouring are the control table's (js/controls.js): a new
  // policy restarts the run (main.js), the speed is read every frame, a new colouring redraws.
  const status = (text) => { $('status').textContent = text; };
  // The pace while playing, beside the status: not announced (it changes several times a second).
  const paceEl = Object.assign(document.createElement('span'), { id: 'live-pace', className: 'status' });
  $('status').after(paceEl);
  /** Rounds per second of wall time over the last PACE_WINDOW_MS: `samples` are [time, round] of
   *  the frames drawn while playing (the page's clock, performance.now). */
  const pace = { samples: /** @type {[number, number][]} */ ([]), shownAt: 0 };
  function measurePace(round) {
    const now = performance.now(), s = pace.samples;
    s.push([now, round]);
    while (s.length > 2 && now - s[1][0] >= PACE_WINDOW_MS) s.shift();
    if (now - pace.shownAt < PACE_SHOW_MS || now - s[0][0] < PACE_SHOW_MS) return;
    pace.shownAt = now;
    const perSecond = (round - s[0][1]) / ((now - s[0][0]) / 1000);
    paceEl.textContent = `${Math.round(perSecond).toLocaleString('en-US')} rounds/s`;
  }
  const colourBy = () => { const v = app.state.colour; return v === 'auto' ? (session.run && session.run.dim === 2 ? 'decision' : 'cell') : v; };
  let shownColour = app.state.colour;

  function showLegend() {
    const byCell = colourBy() === 'cell';
    const item = (cls, text) => `<span class="item${text.length > 30 ? ' long' : ''}"><span class="key ${cls}"></span> ${text}</span>`;
    $('legend').innerHTML = [
      item(byCell ? 'hit cellkey' : 'hit', 'served from the cache'), item(byCell ? 'llm cellkey' : 'llm', 'sent to the LLM'),
      item('wrong', 'wrong answer served (its gold answer differs; not in the paper)'),
      item('newest', 'newest arrival'), item('density', 'older arrivals (density)'), item('center', 'ε-net center'), item('cached', 'cached center'),
      item('cell', byCell ? 'Voronoi cell of the projected centers (colour = center)' : 'Voronoi cell'),
      session.run && session.run.dim === 2 ? item('heat', 'KRR estimate ĉ: darker = costlier, greyer = less certain (σ)') : item('universe', 'universe query'),
    ].join('');
  }

  /** Moves the run to `mode` and shows it (the Play button; `data-live-mode` for the tests). */
  function to(mode) {
    if (mode !== session.mode) { pace.samples = []; paceEl.textContent = ''; } // measured while playing only
    session.mode = mode;
    const playing = mode === 'playing';
    $('play').textContent = playing ? 'Pause' : 'Play';
    $('play').setAttribute('aria-pressed', String(playing));
    document.body.dataset.liveMode = mode;
  }

  /** Play (`on`) or pause: only a ready run that has rounds left plays. */
  function setPlaying(on) {
    const m = session.mode;
    if (on && (m === 'paused' || m === 'stepping')) to('playing');
    else if (!on && m === 'playing') to(session.queued || session.question ? 'stepping' : 'paused');
  }

  function start() {
    view.stale = false;
    session.gen += 1;
    const g = session.gen;
    Object.assign(session, { run: null, last: null, inFlight: false, queued: 0, question: null, curves: [] });
    Object.assign(heat, { interval: 500, n: HEAT_N, round: -1, res: 0 });
    to('starting');
    const s = app.state;
    const policies = panelPolicies(s);
    panels.forEach((p, i) => { p.root.hidden = i >= policies.length; p.reset(); });
    /** @type {HTMLElement} */ (document.querySelector('#view-live .panels')).dataset.count = String(policies.length);
    status(s.dataset === 'plane' ? 'Setting up…' : `Computing the oracle M_orc on n_eval = ${s.params.n_eval} samples…`);
    // Uploaded data plays the arrival model chosen for it (built-ins: their SPEC §7 models).
    const up = uploadedData(app);
    const init = { dataset: s.dataset, upload: up && up.dataset, arrival: up && up.upload.arrival, params: s.params, policies, heatN: HEAT_N };
    const files = s.dataset === 'nq-trivia' ? (status('Loading the nq-trivia data…'), nqTriviaFiles(app)) : Promise.resolve(null);
    files.then((nq) => {
      if (g !== session.gen) return null;
      if (nq) status(`Computing the oracle M_orc on n_eval = ${s.params.n_eval} samples…`);
      session.init = nq ? { ...init, nq } : init;
      return engine.request('init', session.init).then((m) => { if (g === session.gen) onReady({ ...m, ids: policies }); });
    }).catch((e) => { if (g === session.gen) failed(e.message); });
    view.dirty = true;
  }

  /** Every failure ends in a message; a failed worker is gone (rpc.js) and Reset starts a fresh one. */
  function failed(message) {
    session.inFlight = false;
    // A failed request leaves a running worker's run usable; a dead worker's is gone.
    to(ready() && engine.running ? 'paused' : 'failed');
    status(`Error: ${message}`);
  }

  /** What the picture is; in a projection, what the arrivals' colour means (it follows the colouring). */
  function showProjectionNote() {
    if (!session.run) return;
    const m = session.run;
    const how = colourBy() === 'cell'
      ? "arrivals are coloured by their true nearest center (§4), so a dot of another colour inside a cell shows the projection's distortion"
      : "arrivals are coloured by their round's decision (served from the cache or sent to the LLM)";
    $('proj-note').textContent = m.dim === 2
      ? 'The plane is 2-D: this is the space itself. Dark dots are the six blob centres of the arrival mixture; the lines are the exact Voronoi cells of the ε-net centers; the shading is the KRR cost estimate ĉ(x) of kernel policies (§6; the baselines have none).'
      : `${m.caption}. The cells drawn are Voronoi cells of the projected centers, not the true ${m.dim}-d cells; ${how}.`;
  }

  function onReady(m) {
    session.run = m;
    session.curves = m.policies.map(() => Object.fromEntries(CURVE_COLUMNS.map((k) => [k, []])));
    info.clear();
    const plane = m.dim === 2;
    panels.forEach((p, i) => { if (i < m.policies.length) p.setup({ name: m.policies[i], universe: m.universe, plane, cacheRule: m.cacheRules[i] }); });
    showProjectionNote();
    $('oracle-loss').textContent = `Live stream: oracle loss L(M_orc) = ${m.oracleLoss.toFixed(4)} on n_eval = ${app.state.params.n_eval} (the run's evaluation sample); no cache L(∅) = ${m.noCacheLoss.toFixed(4)}. `
      + (m.noGroundTruth ? `Error rate: — (${m.noGroundTruth}).` : 'Error rate: wrong cache hits against the gold answers (our convention, docs/SPEC-NOTES.html#ground-truth-spec-14; the paper prices a hit by φ alone).');
    $('dataset-checksum').textContent = m.checksum;
    app.emit('checksum', m.checksum); // the fingerprint of uploaded data names its checksum
    to('paused');
    ownPanel.start(session.init, { oracleLoss: m.oracleLoss, noCacheLoss: m.noCacheLoss });
    absorb(m.frame);
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
  }

  /** A step's or a question's reply: its frame drawn, the run's mode moved on. */
  function onFrame(m) {
    session.inFlight = false;
    const run = session.run, f = m.frame;
    const now = performance.now(), n = run.policies.length, rounds = f.t.length;
    const events = eventsByEntry(f);
    panels.forEach((p, i) => {
      if (i >= n) return;
      p.addArrivals(f, i, n, now);
      const at = (rounds - 1) * n + i;
      if (rounds) p.setWhy(whyThisRound(f, rounds - 1, i, n, events.get(at) || [], run.entries[i].steps, run.actingSymbols[i]));
    });
    if (m.heatMs) {
      // The KRR surface costs about n² × t (a triangular solve per grid point for σ): keep a
      // refresh near 100 ms by coarsening the grid as observations grow.
      const used = f.heat.find(Boolean)?.n || heat.n;
      heat.n = Math.max(16, Math.min(HEAT_N, Math.floor(Math.sqrt(100 / Math.max(m.heatMs / (used * used), 1e-6)))));
      heat.interval = Math.max(400, 4 * m.heatMs);
    }
    absorb(f);
    if (session.mode === 'playing') measurePace(f.round);
    if (m.ask) app.emit('asked', m); // views/ask.js
    if (f.round >= run.horizon) { to('finished'); status(`Done: T = ${run.horizon} rounds played.`); } else if (session.mode === 'stepping' && !session.queued && !session.question) to('paused');
  }

  /** Draws a frame: its centers, surfaces and counters; its new curve points appended. */
  function absorb(f) {
    const run = session.run;
    session.last = f;
    if (f.heat) { heat.round = f.round; heat.res = f.heat.find(Boolean)?.n ?? HEAT_N; }
    panels.forEach((p, i) => {
      if (i >= run.policies.length) return;
      const c = session.curves[i];
      for (const k of CURVE_COLUMNS) c[k].push(...f.curves[i][k]);
      p.setCenters(f.centers[i]);
      if (f.heat && f.heat[i]) p.setHeat(f.heat[i]);
      p.setCounters(f.counters[i]);
      p.chart.set(c, f.counters[i], run.oracleLoss, run.noCacheLoss);
    });
    document.body.dataset.round = String(f.round);
    ownPanel.follow(f.round);
    view.dirty = true;
  }

  /** Sends `type` (a step or a question) for the current run; its reply is drawn if still current. */
  function send(type, payload) {
    session.inFlight = true;
    const g = session.gen;
    engine.request(type, payload).then((m) => { if (g === session.gen) onFrame(m); }, (e) => { if (g === session.gen) failed(e.message); });
  }

  /** Asks for `n` more rounds, with the KRR surface if it is due (`full`: at full resolution). */
  function request(n, full = false) {
    const now = performance.now();
    let wantHeat = 0;
    if (session.run.dim === 2 && now - heat.at > heat.interval) { wantHeat = full ? HEAT_N : heat.n; heat.at = now; }
    send('step', { n, heatN: wantHeat });
  }

  /** One animation frame: at most one request (so at most one engine call), then a redraw if due. */
  function frame() {
    const { mode, run, last } = session;
    if (ready() && !session.inFlight) {
      if (session.question) { send('ask', session.question); session.question = null; } else if (session.queued > 0) { const n = session.queued; session.queued = 0; request(n); } else if (mode === 'playing') request(Math.max(1, Math.round(app.state.speed)));
      // Paused: bring the surface up to date, at full resolution (playing coarsens it to keep pace).
      else if (run.dim === 2 && last && (heat.round !== last.round || heat.res < HEAT_N) && performance.now() - heat.at > heat.interval) request(0, true);
    }
    if (view.dirty && view.active) {
      view.dirty = false;
      const label = run ? run.caption : '';
      const now = performance.now();
      const shown = run ? run.policies.length : 0;
      const pulsing = panels.map((p, i) => (i < shown ? p.draw(label, colourBy(), now, run.horizon) : false)).some(Boolean);
      if (pulsing) view.dirty = true;
    }
    requestAnimationFrame(frame);
  }

  /** Queues `n` rounds from the step buttons (played by the next free frame). */
  function queue(n) {
    if (!ready() || session.mode === 'finished') return;
    session.queued += n;
    if (session.mode === 'paused') to('stepping');
  }

  // Controls.
  $('play').addEventListener('click', () => setPlaying(session.mode !== 'playing'));
  $('step-one').addEventListener('click', () => queue(1));
  $('step').addEventListener('click', () => queue(100));
  $('reset').addEventListener('click', () => start());
  document.addEventListener('keydown', (e) => {
    if (view.active && e.code === 'Space' && !['INPUT', 'SELECT', 'BUTTON', 'TEXTAREA', 'CANVAS', 'SUMMARY'].includes(document.activeElement?.tagName)) {
      e.preventDefault();
      setPlaying(session.mode !== 'playing');
    }
  });
  window.addEventListener('resize', () => { view.dirty = true; });

  // Exports: a failure is shown, never waited on forever (rpc.js times a silent worker out).
  const exportJson = async (type, name) => {
    if (!ready()) return;
    try { downloadText(`${stem()}-${name}.json`, await engine.request(type), 'application/json'); } catch (e) { status(`Error: the export failed: ${e.message}`); }
  };
  const stem = () => `csc-${app.state.dataset}-seed${app.state.params.seed}-t${session.last ? session.last.round : 0}`;
  $('export-csv').addEventListener('click', () => { if (session.last) downloadText(`${stem()}-curves.csv`, curvesCsv(session.run.policies, session.curves), 'text/csv'); });
  $('export-json').addEventListener('click', () => exportJson('results', 'results'));
  $('export-trace').addEventListener('click', () => exportJson('trace', 'trace'));
  $('export-png').addEventListener('click', async () => {
    const run = session.run;
    if (!run) return;
    for (let i = 0; i < run.policies.length; i++) await downloadCanvas(`${stem()}-${run.ids[i]}.png`, panels[i].canvas);
  });

  requestAnimationFrame(frame);
  return {
    /** Redraws in a new colouring (main.js calls it on every change). */
    show() { if (app.state.colour !== shownColour) { shownColour = app.state.colour; showLegend(); showProjectionNote(); view.dirty = true; } },
    /** Restarts the run now if the view is open, else when it is next opened. */
    restart() { if (view.active) start(); else view.stale = true; },
    /** Sets your own policy up again on the run as it stands (a new policy, or none). */
    restartOwn() {
      if (session.run && session.init) { ownPanel.start(session.init, session.run); if (session.last) ownPanel.follow(session.last.round); } else ownPanel.start(null, null);
    },
    activate() { view.active = true; view.dirty = true; if (view.stale) start(); },
    deactivate() { view.active = false; setPlaying(false); },
    /** The run's setup (`dim`, `policies`, `horizon`, …) once it is ready, else null (views/ask.js). */
    info: () => (ready() ? session.run : null),
    /** Plays a typed question (its vector, GPT-2 tokens and text) as the next round in every
     *  panel (views/ask.js); false when the run cannot take it now. */
    ask(x, tokens, text) {
      if (!ready() || session.mode === 'finished') return false;
      session.queued = 0;
      session.question = { x, tokens, text }; // sent by the next frame once no request is out
      to('stepping');
      return true;
    },
  };
}
