// @ts-check
// "Why this round" (issue 23, item 6): one line per live panel naming what fired in a round, in
// the order the paper's algorithms run it. The facts are the engine's events of the round
// (csc::live::RoundEvents, in OnlineRun.step's StepBatch: `events`, `localAdvances`, `inserted`,
// `removed`, `acting`, `phi`, `d`, `nearestKey`, `wrong`); this module only words them.

/** `StepBatch.events` flags (src/bindings/online_run.rs). */
export const EVENT = { NEW_CENTER: 1, LOCAL_STAGE: 2, GLOBAL_STAGE: 4, SWAP: 8 };

const f = (v) => (Number.isFinite(v) ? v.toFixed(3) : '∞');
const keys = (list) => {
  const k = Array.from(list);
  return k.length > 4 ? `${k.slice(0, 4).join(', ')} … (${k.length})` : k.join(', ');
};

/** Where the paper states a policy's serving rule and stages. */
function refs(policy) {
  if (policy === 'clcb-frozen-cont') return { rule: 'Alg. 7 l. 1–2', serve: 'Alg. 7 l. 7', stage: 'Alg. 6 l. 7–12' };
  if (policy === 'clcb-sc-ls-cont' || policy === 'clcb-sc-ls') return { rule: 'Alg. 5 l. 4–6', serve: 'Alg. 5 l. 12', stage: '' };
  return { rule: 'our convention, docs/SPEC-NOTES.html#online-spec-9', serve: '', stage: '' };
}

/**
 * The facts of round `r` (of a batch) for policy `p` of `nPol`, as `{ t, parts, text }`: `parts`
 * names what fired (`new-center`, `stage`, `swap`, `rebuilt`, `llm` or `hit`), `text` the line.
 * `policy`: its id; `symbol`: what its acting cost is ("c̲", "ĉ", or "" for none).
 */
export function whyThisRound(batch, r, p, nPol, policy, symbol) {
  const i = r * nPol + p;
  const t = batch.t[r], ev = batch.events[i], c = batch.center[i];
  const ref = refs(policy);
  const parts = [], words = [];
  if (ev & EVENT.NEW_CENTER) { parts.push('new-center'); words.push(`new ε-net center #${c} (Alg. 3 l. 5–11)`); } else if (c >= 0) words.push(`in the cell of center #${c}`);
  const stages = [];
  const local = batch.localAdvances[i];
  if (ev & EVENT.LOCAL_STAGE) stages.push(`${local} local stage${local === 1 ? '' : 's'} (Alg. 3 l. 12–15)`);
  if (ev & EVENT.GLOBAL_STAGE) stages.push(ref.stage ? `its stage (${ref.stage})` : 'the global stage (Alg. 3 l. 16–18)');
  if (stages.length) { parts.push('stage'); words.push(`${stages.join(' and ')} advanced`); }
  if (ev & EVENT.SWAP) {
    parts.push('swap');
    const ins = batch.inserted[i], out = batch.removed[i];
    words.push(`switch (Alg. 4 l. 17–18): ${ins.length ? `in the answer${ins.length === 1 ? '' : 's'} of round ${keys(ins)}` : ''}${ins.length && out.length ? '; ' : ''}${out.length ? `out round ${keys(out)}` : ''}`);
  } else if (ev & (EVENT.NEW_CENTER | EVENT.LOCAL_STAGE | EVENT.GLOBAL_STAGE) && policy.startsWith('clcb')) {
    parts.push('rebuilt'); words.push('the cache was rebuilt unchanged');
  }
  const llm = batch.llm[i] === 1, acting = batch.acting[i], phi = batch.phi[i], d = batch.d[i], key = batch.nearestKey[i];
  const cmp = Number.isFinite(acting) ? `${symbol || 'c'} = ${f(acting)} ${llm ? '≤' : '>'} φ(d = ${f(d)}) = ${f(phi)}: ` : `d = ${f(d)}, φ = ${f(phi)}: `;
  const wrong = batch.wrong[i];
  if (llm) { parts.push('llm'); words.push(`${cmp}sent to the LLM (${ref.rule})`); } else {
    parts.push('hit');
    const judged = wrong === 1 ? ' — a wrong answer (the gold answers differ)' : wrong === 0 ? ' — correct' : '';
    words.push(`${cmp}served the answer cached from round ${key} (${ref.rule}${ref.serve ? `, ${ref.serve}` : ''})${judged}`);
  }
  return { t, parts, text: `Round ${t}: ${words.join('; ')}.` };
}
