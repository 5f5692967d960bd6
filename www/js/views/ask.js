// "Ask a question" (issue 14): the reader types a question; the embedding worker
// (embed-worker.js) embeds it in the browser and counts its GPT-2 tokens, and the live run plays
// it as its next arrival in both panels (OnlineRun.ask). The answer says, per policy, where it
// landed (its ε-net cell and that center's question, or that it founded a new center), the
// nearest cached question with d and φ(d), and the decision with its reason: the acting cost c̲
// compared with φ (Alg. 5 lines 4–6: the LLM iff c̲ ≤ φ). Then the five nearest questions of
// the universe. Nothing leaves the page.

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const num = (v) => (Number.isFinite(v) ? v.toFixed(3) : '∞');
const q = (t) => (t ? `“${esc(t)}”` : '(a question without text)');

export function createAskView(app, live) {
  let worker = null, nextId = 1;
  const waiters = new Map();
  const status = (t) => { $('ask-status').textContent = t; };
  const bar = $('ask-progress');

  function spawn() {
    worker = new Worker(new URL('../embed-worker.js', import.meta.url), { type: 'module' });
    const fail = (message) => {
      worker.terminate(); worker = null;
      for (const w of waiters.values()) w.reject(new Error(message));
      waiters.clear();
    };
    worker.onerror = (ev) => { ev.preventDefault(); fail(`the embedding worker failed: ${ev.message || 'it could not be started (is pkg-embed/ built and served? scripts/wasm-embed.sh)'}`); };
    worker.onmessageerror = () => fail('a message from the embedding worker could not be read');
    worker.onmessage = ({ data: m }) => {
      if (m.type === 'progress') {
        bar.hidden = false;
        bar.value = m.total ? m.loaded / m.total : 0;
        status(m.preparing ? 'Preparing the model…' : `Loading the model… ${(m.loaded / 1e6).toFixed(1)}${m.total ? ` of ${(m.total / 1e6).toFixed(1)}` : ''} MB`);
        return;
      }
      if (m.type === 'loaded') {
        bar.hidden = true;
        status(`The model is ready (${m.fromCache ? 'from this browser\'s cache' : `${(m.bytes / 1e6).toFixed(1)} MB downloaded`}, ${(m.loadMs / 1000).toFixed(1)} s).`);
        document.body.dataset.askLoadMs = m.loadMs.toFixed(0);
        document.body.dataset.askModelCached = String(m.fromCache);
        return;
      }
      const w = waiters.get(m.id);
      if (!w) return;
      waiters.delete(m.id);
      if (m.type === 'error') w.reject(new Error(m.message)); else w.resolve(m);
    };
  }
  const embed = (text) => new Promise((resolve, reject) => {
    if (!worker) spawn();
    const id = nextId++;
    waiters.set(id, { resolve, reject });
    worker.postMessage({ type: 'embed', id, text });
  });

  // A reader about to ask: load the model now if it is already in the browser's cache (a later
  // visit), so the answer comes within a second; a first download waits for the Ask button.
  $('ask-text').addEventListener('focus', () => { if (!worker) spawn(); worker.postMessage({ type: 'preload' }); }, { once: true });

  let pending = null;
  $('ask-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('ask-text').value.trim();
    if (!text) { status('Type a question first.'); return; }
    const info = live.info();
    if (!info) { status('The live run is not ready yet: wait for “Ready”, then ask.'); return; }
    if (info.dim === 2) { status('The plane holds points, not questions: choose nq-trivia, synthetic or your own data to ask one.'); return; }
    $('ask-go').disabled = true;
    const t0 = performance.now();
    try {
      const m = await embed(text);
      if (m.x.length !== info.dim) throw new Error(`the model gives ${m.x.length}-d vectors and this dataset has ${info.dim}-d ones: ask on a dataset embedded with all-MiniLM-L6-v2`);
      pending = { text, tokens: m.tokens, embedMs: m.embedMs, t0 };
      // For the end-to-end test and the closing figures (with askLoadMs, askMs).
      document.body.dataset.askEmbedMs = m.embedMs.toFixed(1);
      status(`Embedded in ${m.embedMs.toFixed(0)} ms (${m.tokens} GPT-2 tokens); playing it…`);
      if (!live.ask(m.x, m.tokens, text)) { pending = null; status('The run has no round left: press Reset, then ask again.'); }
    } catch (err) {
      status(`Could not ask: ${err && err.message ? err.message : err}`);
    } finally {
      $('ask-go').disabled = false;
      bar.hidden = true;
    }
  });

  app.on('asked', (m) => {
    const a = m.batch, w = m.ask, info = live.info();
    const asked = pending || { text: '', tokens: 0, t0: performance.now() };
    pending = null;
    const lines = info.policies.map((name, i) => {
      const c = a.center[i];
      const cell = c < 0 ? 'keeps no ε-net'
        : w.founded[i] ? 'it <b>founded a new center</b> (no center within ε)' : `it landed in the cell of center #${c}, ${q(w.centerText[i])}`;
      const near = a.nearestKey[i] < 0 ? 'the cache was empty (φ = 1)'
        : `nearest cached question ${q(w.nearestText[i])}, d = ${num(a.d[i])}, φ(d) = ${num(a.phi[i])}`;
      // The CLCB policies act on a lower confidence bound c̲ (Algs. 5, 7), the count-based
      // baselines on the center's mean cost ĉ (SPEC §11.8): the LLM iff that is ≤ φ.
      const acting = a.acting[i], sym = a.actingSymbol[i];
      const rule = Number.isFinite(acting)
        ? ` because ${sym} = ${num(acting)} ${a.llm[i] ? '≤' : '>'} φ = ${num(a.phi[i])}`
        : '';
      const decision = a.llm[i]
        ? `<b class="llm">sent to the LLM</b>${rule}, cost c = ${num(a.cost)}`
        : `<b class="hit">served</b> with the answer cached for ${q(w.nearestText[i])}${rule}, cost φ = ${num(a.phi[i])}`;
      return `<li data-policy="${i}" data-llm="${a.llm[i]}"><b>${esc(name)}</b>: ${cell}; ${near}. ${decision}.</li>`;
    });
    const uni = a.universe.text.map((t, j) => `<li>${q(t)} <span class="muted">d = ${num(a.universe.d[j])}</span></li>`);
    const ms = performance.now() - asked.t0;
    $('ask-out').innerHTML = `
      <p>Round ${a.t[0]}: ${q(asked.text)}, ${asked.tokens} GPT-2 tokens, cost c = ${num(a.cost)}.</p>
      <ul class="ask-policies">${lines.join('')}</ul>
      <p>The five nearest questions of the universe:</p><ol class="ask-universe">${uni.join('')}</ol>`;
    document.body.dataset.askMs = ms.toFixed(0);
    status(`Played as round ${a.t[0]} in both panels (${ms.toFixed(0)} ms from Ask).`);
  });
}
