// @ts-check
// The page's settings from one declarative table (after TF Playground's state.ts and PROPS): the
// engine's `pageControls()` (the controls of csc::bindings::url_state's key table, each link key's
// entry naming its own) lists every control — the state key it edits, its
// range or choices, its hint and reference (from the engine's lists of parameters, datasets and
// arrival models), the container it goes in and when it applies. This module builds the inputs,
// writes the state into them, turns their changes into state changes (the engine's URL codec
// validates and writes the link), decides which apply to the open view and dataset, and hides the
// parts of the page the engine says the link hides (`hidden` of decodeUrlState: `?hide=seed,k,tabs`,
// and an embedded page's controls and text besides; hide flags only ever remove).
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
 * Builds every control of the table into its container and hides what the link hides (`hidden`:
 * names of controls and of the engine's hide groups).
 * Returns `{ wire(app), show(state), restarts(a, b) }`: `wire` turns the controls' changes into
 * `app.set`, `show` writes a state into them and sets what applies, `restarts` says whether going
 * from state `a` to `b` changes a control that restarts the live run.
 * @param {string[]} hidden
 */
export function buildControls(hidden) {
  const { controls } = pageControls();
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
  applyHide(hidden, controls);

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
    restarts(a, b) {
      return controls.some((c) => c.restart && c.key !== 'arrival' && read(a, c.key) !== read(b, c.key));
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
  settings.classList.toggle('dataset-only', s.view === 'frontier' || s.view === 'threats'); // their parameters are the engine's
}

/**
 * Hides what a link names: a control (its label, marked), or a part of the page the engine names
 * (a body class `hide-<name>`; css/style.css maps it to the elements marked `data-hide="<name>"`, and
 * `controls` and `text` to every element of that class, also those the views add later). The
 * engine's URL codec has checked every name.
 */
function applyHide(names, controls) {
  for (const name of names) {
    const c = controls.find((x) => x.id === name);
    const e = c && $(c.id);
    if (e) (e.closest('label') || e).dataset.hiddenByLink = '';
    else if (!c) document.body.classList.add(`hide-${name}`);
  }
}
