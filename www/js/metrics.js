// @ts-check
// The engine's one list of reported metrics (csc::experiment::metrics, `metrics()`): a one-line
// definition with the paper's reference for every metric the page shows, on hover, focus and tap
// (a focusable element whose definition CSS shows; css/style.css `.def`).
import { metrics } from '../pkg/csc.js';
import { citeText } from './cite.js';

let list;
const byId = () => (list ??= new Map(metrics().map((m) => [m.id, m])));

/** The entry of a metric id (`final_` values share their curve's entry), or undefined. */
export const metricInfo = (id) => byId().get(String(id).replace(/^final_/, ''));

/** The definition of `id` as one line: "definition (reference)", conventions named by their notes' anchor. */
export const definitionOf = (id) => {
  const m = metricInfo(id);
  return m ? `${m.definition} (${citeText(m.source)})` : '';
};

/** Makes `el` show the definition of metric `id` on hover, keyboard focus and tap. */
export function defineMetric(el, id) {
  const text = definitionOf(id);
  if (!text) return el;
  el.classList.add('def');
  el.tabIndex = 0;
  el.dataset.def = text;
  el.setAttribute('aria-description', text);
  return el;
}
