// @ts-check
// The Frontier view's "Your policy on the frontier": your policy at its declared defaults and, when
// the Sweep view's form names one of its parameters, at each of those values (the link's
// `own_param`, `own_values`), played on the frontier's own settings (its dataset, parameters, T and
// seeds: the same streams, noise and evaluation samples as every frontier point). Each is a point
// of the frontier chart (mean ± 95% interval both ways, the engine's OwnPolicyStats) and a row with
// its paired difference in realised cost and in error rate against the reference the frontier's
// picker names, per seed, in the engine's words (`pairedDifference`, as every frontier row's):
// "cheaper" or "dearer" only when the interval excludes 0.
import { formatInterval, pairedDifference } from '../../pkg/csc.js';
import { OWN_KEY, fmtPaired, labelOf, styleFields } from '../report.js';
import { sweepValues } from '../own-params.js';
import { uploadedData } from '../upload.js';
import { nqTriviaFiles } from '../nq-trivia.js';
import { own, ownDeclared, ownSweep } from './own-policy.js';
/** @typedef {import('../state.js').App} App */
/** @typedef {import('../../pkg/csc.js').Paired} Paired */

const el = (tag, attrs = {}, text = '') => Object.assign(document.createElement(tag), attrs, text ? { textContent: text } : {});

/** The final metric of unit `u` (a frontier unit records each once). */
const valueOf = (u, metric) => u.observations.find((o) => o.metric === metric)?.value;

/**
 * @param {App} app
 * @param {Element} after where the section goes (after it)
 * @param {{ experiment: () => any, shown: () => any, reference: () => number | null, referenceName?: () => string, redraw: () => void }} frontier
 */
export function createOwnFrontier(app, after, frontier) {
  const section = el('section', { className: 'own-frontier controls panel own', hidden: true });
  section.setAttribute('aria-labelledby', 'own-frontier-title');
  const h = el('h2', { id: 'own-frontier-title', className: 'panel-title' }, 'Your policy on the frontier');
  const intro = el('p', { className: 'text' }, 'Your policy at its declared defaults and at each value of the parameter the Sweep view\'s "Sweep your policy\'s parameters" names, played on the frontier\'s settings and seeds (the same streams as every point above): drawn on the chart, and compared seed by seed with the reference picked above.');
  const bar = el('div', { className: 'row buttons' });
  const go = el('button', { type: 'button', className: 'primary own-frontier-run' }, 'Place your policy');
  const status = el('span', { className: 'status own-frontier-status', role: 'status' });
  bar.append(go, status);
  const table = el('table', { className: 'numbers own-frontier-table', hidden: true });
  section.append(h, intro, bar, table);
  after.after(section);

  /** The result: per configuration its label, statistics and per-seed last checkpoints. */
  let result = null;
  let gen = 0;
  const say = (text, bad = false) => { status.textContent = text; status.classList.toggle('bad', bad); };

  async function run() {
    const g = ++gen;
    result = null;
    fill();
    frontier.redraw();
    try {
      const f = frontier.experiment();
      if (!f.experiment) throw new Error(f.message);
      const spec = f.experiment, s = app.state, up = uploadedData(app);
      // The configurations: defaults, then the sweep form's values (checked against the declaration).
      /** @type {(number | null)[]} */
      let values = [null];
      const param = own.sweep.own_param;
      if (param) values = [null, ...sweepValues(await ownDeclared(), param, own.sweep.own_values)];
      const nq = s.dataset === 'nq-trivia' ? await nqTriviaFiles(app) : null;
      const init = { dataset: s.dataset, upload: up && up.dataset, arrival: up && up.upload.arrival, params: spec.params, ...(nq ? { nq } : {}) };
      const seeds = Array.from({ length: spec.seeds }, (_, i) => spec.first_seed + i);
      go.disabled = true;
      say(`Playing your policy (${values.length} configuration${values.length === 1 ? '' : 's'} × ${seeds.length} seeds) on the frontier's settings…`);
      const out = await ownSweep(init, seeds, param, values, (p) => {
        if (g === gen && p.round % 500 === 0) say(`${p.value == null ? 'defaults' : `${param} = ${p.value}`}, seed ${p.seed}: round ${p.round}…`);
      }, { byIndex: true }).done;
      if (g !== gen) return;
      if (out.stopped) throw new Error(out.stopped);
      result = { param, values, seeds, stats: out.stats, lasts: out.lasts, experiment: spec };
      say(`Your policy at ${values.map((v) => (v == null ? 'its defaults' : `${param} = ${v}`)).join(', ')}, on seeds ${seeds[0]}…${seeds.at(-1)} of the frontier.`);
      fill();
      frontier.redraw();
    } catch (e) {
      if (g === gen) say(e.message, true);
    } finally {
      if (g === gen) go.disabled = false;
    }
  }
  go.addEventListener('click', run);

  const labelAt = (i) => (result.values[i] == null ? 'Your policy (defaults)' : `Your policy, ${result.param} = ${result.values[i]}`);
  const statAt = (metric, i) => result.stats.find((st) => st.metric === metric && st.x === i);
  const ci = (st) => (st && st.ci95 != null && st.n >= 3 ? st.ci95 : 0);

  /** Configuration i's paired differences against frontier point `ref` of `report`. */
  function paired(report, ref, i) {
    const mine = result.lasts.filter((l) => l.value === result.values[i]);
    const units = new Map(report.units.filter((u) => u.unit.point === ref).map((u) => [u.unit.seed, u]));
    /** @param {'cost' | 'error_rate'} q */
    const of = (q) => {
      const d = [];
      for (const l of mine) {
        const u = units.get(l.seed);
        const a = q === 'cost' ? l.last.avg_realised_cost : l.last.error_rate, b = u && valueOf(u, q === 'cost' ? 'final_avg_realised_cost' : 'final_error_rate');
        if (u && a != null && b != null) d.push(a - b);
      }
      return d.length ? pairedDifference(d, q) : null;
    };
    return { cost: of('cost'), error: of('error_rate') };
  }

  /** The table: each configuration's intervals and its paired differences against the reference. */
  function fill() {
    const report = frontier.shown(), ref = frontier.reference();
    const ok = result && report && ref != null && JSON.stringify(report.experiment.params) === JSON.stringify(result.experiment.params) && report.experiment.seeds === result.experiment.seeds;
    table.hidden = !ok;
    table.replaceChildren();
    if (!ok) return;
    const refName = report.frontier?.rows?.find((r) => r.point === ref)?.config ?? `point ${ref}`;
    table.createCaption().textContent = `Your policy: mean ± 95% half-width over seeds, and its paired difference (per seed, then mean ± 95% half-width) against ${frontier.referenceName?.() ?? refName}`;
    const heads = ['configuration', 'realised cost', 'error rate', 'cost − reference', 'error rate − reference'];
    const head = table.createTHead().insertRow();
    for (const t of heads) head.append(el('th', { scope: 'col' }, t));
    const body = table.createTBody();
    result.values.forEach((v, i) => {
      const tr = body.insertRow();
      tr.dataset.value = v == null ? 'defaults' : String(v);
      tr.append(el('th', { scope: 'row' }, labelAt(i)));
      const c = statAt('final_avg_realised_cost', i), e = statAt('final_error_rate', i);
      const d = paired(report, ref, i);
      /** @type {any} */ (tr).paired = d; // the engine's paired differences as they came (tests read them)
      const cells = [formatInterval(c?.mean ?? null, c?.ci95), formatInterval(e?.mean ?? null, e?.ci95), fmtPaired(d.cost), fmtPaired(d.error)];
      cells.forEach((text, j) => {
        const td = tr.insertCell();
        td.textContent = text;
        td.dataset.label = heads[j + 1];
        if (j >= 2) td.className = `paired ${(j === 2 ? d.cost : d.error)?.difference ?? ''}`;
      });
    });
  }

  return {
    /** Your policy's points for the frontier chart (none before it ran on the report's settings). */
    series(report) {
      if (!result || !report || JSON.stringify(report.experiment.params) !== JSON.stringify(result.experiment.params)) return [];
      const points = result.values.map((_, i) => {
        const c = statAt('final_avg_realised_cost', i), e = statAt('final_error_rate', i);
        if (!c || !e || c.mean == null || e.mean == null) return null;
        return { x: e.mean, y: c.mean, lo: c.mean - ci(c), hi: c.mean + ci(c), xlo: e.mean - ci(e), xhi: e.mean + ci(e), n: c.n, meta: labelAt(i) };
      }).filter(Boolean);
      return points.length ? [{ key: OWN_KEY, label: labelOf(OWN_KEY), ...styleFields(OWN_KEY), points }] : [];
    },
    show() { section.hidden = !own.code; },
    /** The reference or the report changed: the table again. */
    refresh: fill,
  };
}
