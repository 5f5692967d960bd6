// @ts-check
// "Ask a question": the reader types a question; the embedding worker
// (embed-worker.js) embeds it in the browser and counts its GPT-2 tokens, and the live run plays
// it as its next arrival in every panel (OnlineRun.ask). The answer says, per policy, where it
// met (the cache before the round, M_{t−1}: its nearest question, d and φ), where it landed
// (its ε-net cell, or a new center), the switch the round made, and the decision with its reason
// against the cache that served it: the acting cost c̲ compared with φ (the LLM iff c̲ ≤ φ), with
// why c̲ can be negative and why a repeated question can go to the LLM again. Where the paper
// defines each step comes from the policy's catalog entry (`steps`, csc::algorithms), as in the
// live view's "why this round". Then the five nearest questions of the universe. Nothing leaves
// the page.
// Until the embedding package and the model are served (scripts/serve.sh builds them after the
// page), the panel says what it waits for, keeps Ask disabled and looks again every few seconds;
// once they are there it works, without a reload.
import { citeText } from '../cite.js';
import { ASK_PARTS, ASK_STATUS } from '../embed-files.js';

import { Rpc } from '../rpc.js';
/** @typedef {import('../state.js').App} App */

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const num = (v) => (Number.isFinite(v) ? v.toFixed(3) : '∞');
const q = (t) => (t ? `“${esc(t)}”` : '(a question without text)');
/** A paper reference in parentheses (`; ref` inside one), or nothing where the entry has none. */
const cite = (ref) => (ref ? ` (${ref})` : '');
const also = (ref) => (ref ? `; ${ref}` : '');

/** How often a page served without Ask's files looks for them again. */
const ASK_POLL_MS = 3000;

/** The names of the parts of Ask (ASK_PARTS) the server does not have yet, from its ASK_STATUS
 *  (never cached). Without that file every part counts as there: the embedding worker then says
 *  what is wrong, if anything. */
async function missingParts() {
  let parts = {};
  try {
    const res = await fetch(new URL(ASK_STATUS, document.baseURI), { cache: 'no-store' });
    if (res.ok) parts = (await res.json()).parts || {};
  } catch { /* unreadable: as without the file */ }
  return ASK_PARTS.filter((p) => parts[p.id] === false).map((p) => p.name);
}

/** @param {App} app */
export function createAskView(app, live) {
  const status = (t) => { $('ask-status').textContent = t; };
  const bar = /** @type {HTMLProgressElement} */ ($('ask-progress'));
  /** The embedding worker (embed-worker.js, through rpc.js); the model's load comes as notes.
   *  Downloading 45 MB may be slow, but any note keeps the request alive. */
  const embedder = new Rpc(new URL('../embed-worker.js', import.meta.url), {
    name: 'the embedding worker', startHint: 'it could not be started (is pkg-embed/ built and served? scripts/wasm-embed.sh)',
    onNote: (m) => {
      if (m.type === 'progress') {
        // Bytes of every model file (the weights too) against the sum of their served sizes
        // (embed-worker.js); without a total the bar runs indeterminate.
        bar.hidden = false;
        if (m.total) { bar.max = m.total; bar.value = Math.min(m.loaded, m.total); } else bar.removeAttribute('value');
        status(m.preparing ? 'Preparing the model…' : `Loading the model… ${(m.loaded / 1e6).toFixed(1)}${m.total ? ` of ${(m.total / 1e6).toFixed(1)}` : ''} MB`);
      } else if (m.type === 'loaded') {
        bar.hidden = true;
        status(`The model is ready (${m.fromCache ? 'from this browser\'s cache' : `${(m.bytes / 1e6).toFixed(1)} MB downloaded`}, ${(m.loadMs / 1000).toFixed(1)} s).`);
        document.body.dataset.askLoadMs = m.loadMs.toFixed(0);
        document.body.dataset.askModelCached = String(m.fromCache);
      }
    },
  });
  const embed = (text) => embedder.request('embed', { text });
  const go = /** @type {HTMLButtonElement} */ ($('ask-go'));

  // Waiting for the embedding package and the model: Ask stays disabled and the status names
  // what is missing, until a look finds everything (document.body.dataset.askReady: the browser
  // test's signal).
  let ready = false;
  const look = async () => {
    const missing = await missingParts();
    if (!missing.length) {
      ready = true;
      go.disabled = false;
      document.body.dataset.askReady = 'true';
      if (document.body.dataset.askWaited) status(`Ask is ready: ${ASK_PARTS.map((p) => p.name).join(' and ')} have arrived.`);
      return;
    }
    document.body.dataset.askReady = 'false';
    document.body.dataset.askWaited = 'true';
    go.disabled = true;
    const says = `Ask is waiting for ${missing.join(' and ')}: this server does not have ${missing.length > 1 ? 'them' : 'it'} yet `
      + '(scripts/serve.sh builds them after the page and prints their progress). It starts working here by itself once they arrive; everything else works now.';
    if ($('ask-status').textContent !== says) status(says); // unchanged: not announced again (aria-live)
    setTimeout(look, ASK_POLL_MS);
  };
  look();

  // A reader about to ask: load the model now if it is already in the browser's cache (a later
  // visit), so the answer comes within a second; a first download waits for the Ask button.
  $('ask-text').addEventListener('focus', function preload() {
    if (!ready) return; // looked for again on the next focus
    $('ask-text').removeEventListener('focus', preload);
    embedder.request('preload').catch(() => {});
  });

  let pending = null;
  $('ask-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = /** @type {HTMLInputElement} */ ($('ask-text')).value.trim();
    if (!ready) return; // the status says what Ask waits for
    if (!text) { status('Type a question first.'); return; }
    const info = live.info();
    if (!info) { status('The live run is not ready yet: wait for “Ready”, then ask.'); return; }
    if (info.dim === 2) { status('The plane holds points, not questions: choose nq-trivia, synthetic or your own data to ask one.'); return; }
    go.disabled = true;
    const t0 = performance.now();
    try {
      const m = await embed(text);
      if (m.x.length !== info.dim) throw new Error(`the model gives ${m.x.length}-d vectors and this dataset has ${info.dim}-d ones: ask on a dataset embedded with all-MiniLM-L6-v2`);
      pending = { text, tokens: m.tokens, embedMs: m.embedMs, t0 };
      // For the end-to-end test and its timings (with askLoadMs, askMs).
      document.body.dataset.askEmbedMs = m.embedMs.toFixed(1);
      status(`Embedded in ${m.embedMs.toFixed(0)} ms (${m.tokens} GPT-2 tokens); playing it…`);
      if (!live.ask(m.x, m.tokens, text)) { pending = null; status('The run has no round left: press Reset, then ask again.'); }
    } catch (err) {
      status(`Could not ask: ${err && err.message ? err.message : err}`);
    } finally {
      go.disabled = false;
      bar.hidden = true;
    }
  });

  app.on('asked', (m) => {
    const a = m.frame, w = m.ask, info = live.info();
    const asked = pending || { text: '', tokens: 0, t0: performance.now() };
    pending = null;
    const round = a.t[0];
    const lines = info.policies.map((name, i) => {
      const steps = info.entries[i].steps;
      // 1. The state the question met: the cache M_{t−1}, before this round changed anything.
      const before = a.beforeKey[i] < 0 ? 'Its cache was empty'
        : `Its cache held ${a.beforeSize[i]} question${a.beforeSize[i] === 1 ? '' : 's'}; the nearest was ${q(w.beforeText[i])}, d = ${num(a.beforeD[i])}, φ(d) = ${num(a.beforePhi[i])}`;
      // 2. Where it landed in the ε-net.
      const c = a.center[i];
      const count = Number.isFinite(w.centerCount[i]) ? `, which has now seen ${w.centerCount[i]} arrival${w.centerCount[i] === 1 ? '' : 's'}, this one included` : '';
      const cell = c < 0 ? 'It keeps no ε-net'
        : w.founded[i] ? `The question <b>founded a new center</b> (no center within ε${also(steps.new_center)})`
          : `It landed in the cell of center #${c}, ${q(w.centerText[i])}${count}`;
      // 3. The switch this round made, if any (a new center forces one; so do stage ends).
      const ins = w.inserted[i], out = w.removed[i];
      const named = (keys, texts) => [...keys].map((k, j) => (k === round ? 'this question' : q(texts[j]))).join(', ');
      const sw = !ins.length && !out.length ? 'The cache did not change this round'
        : `The cache switched this round${w.founded[i] ? ` (a new center forces a switch${also(steps.new_center)}; the switch chooses the cache${also(steps.switch)})` : cite(steps.switch)}: ${ins.length ? `in ${named(ins, w.insertedText[i])}` : ''}${ins.length && out.length ? '; ' : ''}${out.length ? `out ${named(out, w.removedText[i])}` : ''}`;
      // 4. The decision against the cache that serves the round, M_t (`steps.rule`): the LLM iff
      // the acting cost is ≤ φ. The CLCB policies act on a lower confidence bound c̲, the
      // count-based baselines on the center's mean cost ĉ (SPEC §11.8).
      const acting = a.acting[i], sym = a.actingSymbol[i];
      const served = a.nearestKey[i] < 0 ? 'the cache serving it is empty (φ = 1)'
        : `against the cache that serves it, the nearest is ${a.nearestKey[i] === round ? 'this question itself' : q(w.nearestText[i])}, d = ${num(a.d[i])}, φ(d) = ${num(a.phi[i])}`;
      const predicted = Number.isFinite(acting) ? acting <= a.phi[i] : null;
      const rule = Number.isFinite(acting) ? ` because ${sym} = ${num(acting)} ${predicted ? '≤' : '>'} φ = ${num(a.phi[i])}${cite(steps.rule)}` : '';
      const decision = a.llm[i]
        ? `<b class="llm">sent to the LLM</b>${rule}, cost c = ${num(a.cost)}`
        : `<b class="hit">served</b> with the answer cached for ${q(w.nearestText[i])}${rule}, cost φ = ${num(a.phi[i])}`;
      // Why a bound can be negative, and why the same question can go to the LLM again.
      const notes = [];
      if (Number.isFinite(acting) && acting < 0 && sym === 'c̲') {
        notes.push(`c̲ is a lower confidence bound, ĉ − β·width·σ${cite(steps.lcb)}: while the cell has few cost observations the width exceeds the estimate, so c̲ falls below 0 (with none, c̲ = −B${also(steps.lcb_unobserved)}). A negative c̲ is ≤ every φ ≥ 0, so the policy calls the LLM to learn the cost.`);
      }
      if (Number.isFinite(acting) && acting === 0 && sym === 'ĉ') notes.push(`ĉ = 0: the cell has no cost observation yet, so the baseline calls the LLM (${citeText('SPEC-NOTES#online-spec-9')}).`);
      if (a.llm[i] && a.d[i] === 0) {
        notes.push(`The same question is cached (d = 0, so φ = 0), yet it goes to the LLM: serving it needs ${sym || 'the acting cost'} > 0, and ${sym} = ${num(acting)}. Asked again, it is served only once its cell's observations lift ${sym} above 0.`);
      } else if (!a.llm[i] && a.d[i] === 0) {
        notes.push(`The same question is cached (d = 0, φ = 0) and ${sym} = ${num(acting)} > 0: served at no mismatch.`);
      }
      const attrs = `data-policy="${i}" data-llm="${Boolean(a.llm[i])}"${predicted == null ? '' : ` data-predicted-llm="${predicted}"`}`;
      return `<li ${attrs}><b>${esc(name)}</b>: ${before}. ${cell}. ${sw}. Then, ${served}: ${decision}.${notes.map((n) => ` <span class="note">${esc(n)}</span>`).join('')}</li>`;
    });
    const uni = a.universe.text.map((t, j) => `<li>${q(t)} <span class="muted">d = ${num(a.universe.d[j])}</span></li>`);
    const ms = performance.now() - asked.t0;
    $('ask-out').innerHTML = `
      <p>Round ${round}: ${q(asked.text)}, ${asked.tokens} GPT-2 tokens, cost c = ${num(a.cost)}. Each policy, in the order the round happened:</p>
      <ul class="ask-policies">${lines.join('')}</ul>
      <p>The five nearest questions of the universe:</p><ol class="ask-universe">${uni.join('')}</ol>`;
    document.body.dataset.askMs = ms.toFixed(0);
    status(`Played as round ${a.t[0]} in every panel (${ms.toFixed(0)} ms from Ask).`);
  });
}
