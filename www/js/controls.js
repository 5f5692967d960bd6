// @ts-check
// The page's settings from one declarative table (after TF Playground's state.ts): the engine's
// `pageControls()` (csc::bindings::controls) lists every control — the state key it edits, its
// range or choices, its hint and reference (from the engine's lists of parameters, datasets and
// arrival models), the container it goes in and when it applies. This module builds the inputs,
// writes the state into them, turns their changes into state changes (the engine's URL codec
// validates and writes the link), decides which apply to the open view and dataset, and hides the
// parts of the page a link names (`?hide=seed,k,tabs`; `embed=1` alone hides controls and text).
import { pageControls } from '../pkg/csc.js';
import { defaultsFor } from './state.js';
import { citeNodes } from './cite.js';
import { presetsOf } from './presets.js';

const $ = (id) => document.getElementById(id);
/**
 * The input of control `id` (an <input> or a <select>, made by `build`), or null.
 * @param {string} id
 */
const inputOf = (id) => /** @type {HTMLInputElement | HTMLSelectElement | null} */ ($(id));

/**
 * A new `tag` element with `props` and `children`.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {object} [props]
 * @param {...(Node | string)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

/** A symbol as the paper sets it: `ℓ_k` → italic ℓ with subscript k; a word is capitalised. */
function symbolNodes(sym) {
  const [base, sub] = sym.split('_');
  if (sub !== undefined) return [el('i', {}, base), el('sub', {}, sub)];
  if ([...base].length === 1) return [el('i', {}, base)];
  return [base[0].toUpperCase() + base.slice(1)];
}

/** The value of `c.key` in state `s` (`params.k` → s.params.k). */
function read(s, key) {
  const [a, b] = key.split('.');
  return b === undefined ? s[a] : s[a][b];
}

function write(s, key, v) {
  const [a, b] = key.split('.');
  if (b === undefined) s[a] = v; else s[a][b] = v;
}

/** The element of one control, inside its label. */
function build(c) {
  const hint = el('small', {}, c.hint);
  if (c.reference) hint.append(' (', ...citeNodes(c.reference), ')');
  let input;
  if (c.kind === 'select') {
    input = el('select', { id: c.id });
    for (const o of c.choices) input.append(el('option', { value: o.value, disabled: o.disabled }, o.label));
  } else {
    input = el('input', { id: c.id, type: c.kind === 'checkbox' ? 'checkbox' : 'number' });
    for (const k of ['min', 'max', 'step']) if (c[k] != null) input[k] = String(c[k]);
  }
  const name = el('span', { className: 'name' }, ...(c.key.startsWith('params.') ? symbolNodes(c.label) : [c.label]));
  const label = c.kind === 'checkbox'
    ? el('label', { className: 'check' }, input, ' ', name, hint)
    : el('label', {}, name, ' ', input, hint);
  if (c.when) label.dataset.when = c.when;
  return label;
}

/**
 * Builds every control of the table into its container and applies the link's hide list.
 * Returns `{ wire(app), show(state) }`: `wire` turns the controls' changes into `app.set`, `show`
 * writes a state into them and sets what applies.
 */
export function buildControls(state) {
  const { controls, groups, embedHide } = pageControls();
  for (const c of controls) {
    const box = document.querySelector(`[data-controls="${c.section}"]`);
    if (box) box.append(build(c));
  }
  // "More parameters: β, T, …", from the same table.
  const summary = document.querySelector('#more-params summary');
  if (summary) {
    summary.replaceChildren('More parameters: ');
    controls.filter((c) => c.section === 'more').forEach((c, i) => summary.append(...(i ? [', '] : []), ...symbolNodes(c.label)));
  }
  applyHide(state.hide?.length ? state.hide : state.embed ? embedHide : [], controls, groups);

  return {
    wire(app) {
      for (const c of controls) {
        if (c.key === 'arrival') continue; // the uploaded data's model: upload.js reads it
        const input = inputOf(c.id);
        if (!input) continue;
        input.addEventListener('change', () => app.set((s) => {
          if (c.key === 'dataset') return switchDataset(s, input.value);
          // A select's empty choice is null in the state (p3, p4: no panel).
          const v = c.kind === 'checkbox' ? /** @type {HTMLInputElement} */ (input).checked : c.kind === 'number' ? (c.auto && input.value === '' ? 0 : Number(input.value)) : (input.value || null);
          write(s, c.key, v);
        }, { restart: c.restart }));
      }
    },
    show(s) {
      for (const c of controls) {
        const input = inputOf(c.id);
        if (!input || c.key === 'arrival') continue;
        const v = read(s, c.key);
        if (c.kind === 'checkbox') /** @type {HTMLInputElement} */ (input).checked = !!v; else input.value = c.auto && v === 0 ? '' : String(v ?? '');
      }
      for (const e of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-when]'))) e.hidden = e.dataset.when !== s.dataset;
      placeSettings(s);
    },
  };
}

/** A new dataset: parameters left at the old dataset's default take the new one's (plane has its own ε). */
function switchDataset(s, dataset) {
  const before = defaultsFor(s.dataset).params, after = defaultsFor(dataset).params;
  for (const [k, v] of Object.entries(before)) if (s.params[k] === v) s.params[k] = after[k];
  s.dataset = dataset;
}

/**
 * The run settings (dataset and parameters) sit in the open view's panel; the offline view has
 * its own, and the paper view needs only the file picker, for nq-trivia or the reader's data.
 */
function placeSettings(s) {
  const settings = $('settings');
  const slot = document.querySelector(`.slot[data-for="${s.view}"]`);
  if (slot && settings.parentElement !== slot) slot.append(settings);
  settings.hidden = !slot || (s.view === 'paper' && presetsOf().get(s.preset)?.dataset !== 'nq-trivia' && s.dataset !== 'upload');
  settings.classList.toggle('upload-only', s.view === 'paper');
  settings.classList.toggle('dataset-only', s.view === 'frontier'); // the frontier's parameters are the engine's
}

/**
 * Hides what a link names: a control (its label), a part of the page (`groups`: its elements),
 * or all controls / all text (body classes, since views add such elements later). The engine's
 * URL codec has checked every name.
 */
function applyHide(names, controls, groups) {
  const hide = (e) => { (e.matches('input, select') ? e.closest('label') || e : e).dataset.hiddenByLink = ''; };
  for (const name of names) {
    if (name === 'controls' || name === 'text') { document.body.classList.add(`hide-${name}`); continue; }
    const c = controls.find((x) => x.id === name);
    if (c) { const e = $(c.id); if (e) hide(e); continue; }
    const g = groups.find((x) => x.name === name);
    if (g?.selector) document.querySelectorAll(g.selector).forEach(hide);
  }
}
