// @ts-check
// "Why this round": one line per live panel naming what fired in a round, in
// the order the paper's algorithms run it. The facts are the engine's: the round's typed events
// (csc::live::RoundEvent, in a LiveFrame's `events`), its decision (`llm`, `acting`, `phi`, `d`,
// `nearestKey`, `wrong`) and, from the catalog (`policies()`), where the policy's steps are
// defined (`steps`); this module only words them.
/** @typedef {import('../../pkg/csc.js').LiveFrame} LiveFrame */
/** @typedef {import('../../pkg/csc.js').RoundEvent} RoundEvent */
/** @typedef {import('../../pkg/csc.js').StepRefs} StepRefs */

const f = (v) => (Number.isFinite(v) ? v.toFixed(3) : '∞');
const keys = (list) => (list.length > 4 ? `${list.slice(0, 4).join(', ')} … (${list.length})` : list.join(', '));
/** ` (ref)` when the step has a reference, else nothing. */
const cite = (ref) => (ref ? ` (${ref})` : '');

/** A frame's events by entry (`round * policies + policy`), in the order they fired. */
export function eventsByEntry(/** @type {LiveFrame} */ frame) {
  /** @type {Map<number, RoundEvent[]>} */
  const by = new Map();
  for (const { at, event } of frame.events) {
    if (!by.has(at)) by.set(at, []);
    by.get(at).push(event);
  }
  return by;
}

/**
 * The facts of round `r` (of a frame) for policy `p` of `nPol`, as `{ t, parts, text }`: `parts`
 * names what fired (`new-center`, `stage`, `swap`, `rebuilt`, `llm` or `hit`), `text` the line.
 * `events`: the entry's events (`eventsByEntry`); `steps`: where the policy's steps are defined
 * (its catalog entry); `symbol`: what its acting cost is ("c̲", "ĉ", or "" for none).
 * @param {LiveFrame} frame @param {number} r @param {number} p @param {number} nPol
 * @param {RoundEvent[]} events @param {StepRefs} steps @param {string} symbol
 */
export function whyThisRound(frame, r, p, nPol, events, steps, symbol) {
  const i = r * nPol + p;
  const t = frame.t[r], c = frame.center[i];
  const parts = [], words = [], stages = [];
  for (const e of events) {
    if (e.kind === 'new-center') { parts.push('new-center'); words.push(`new ε-net center #${e.center}${cite(steps.new_center)}`); }
    if (e.kind === 'local-stages') stages.push(`${e.advanced} local stage${e.advanced === 1 ? '' : 's'}${cite(steps.local_stages)}`);
    if (e.kind === 'global-stage') stages.push(steps.local_stages ? `the global stage${cite(steps.global_stage)}` : `its stage${cite(steps.global_stage)}`);
  }
  if (!parts.length && c >= 0) words.push(`in the cell of center #${c}`);
  if (stages.length) { parts.push('stage'); words.push(`${stages.join(' and ')} advanced`); }
  for (const e of events) {
    if (e.kind === 'switch') {
      parts.push('swap');
      const ins = e.inserted, out = e.removed;
      words.push(`switch${cite(steps.switch)}: ${ins.length ? `in the answer${ins.length === 1 ? '' : 's'} of round ${keys(ins)}` : ''}${ins.length && out.length ? '; ' : ''}${out.length ? `out round ${keys(out)}` : ''}`);
    }
    if (e.kind === 'rebuilt') { parts.push('rebuilt'); words.push('the cache was rebuilt unchanged'); }
  }
  const llm = frame.llm[i] === 1, acting = frame.acting[i], phi = frame.phi[i], d = frame.d[i], key = frame.nearestKey[i];
  const cmp = Number.isFinite(acting) ? `${symbol || 'c'} = ${f(acting)} ${llm ? '≤' : '>'} φ(d = ${f(d)}) = ${f(phi)}: ` : `d = ${f(d)}, φ = ${f(phi)}: `;
  const wrong = frame.wrong[i];
  if (llm) { parts.push('llm'); words.push(`${cmp}sent to the LLM${cite(steps.rule)}`); } else {
    parts.push('hit');
    const judged = wrong === 1 ? ' — a wrong answer (the gold answers differ)' : wrong === 0 ? ' — correct' : '';
    const refs = [steps.rule, steps.serve].filter(Boolean).join(', ');
    words.push(`${cmp}served the answer cached from round ${key}${cite(refs)}${judged}`);
  }
  return { t, parts, text: `Round ${t}: ${words.join('; ')}.` };
}
