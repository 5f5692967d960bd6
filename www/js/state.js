// @ts-check
// The page state lives in the URL. The engine reads and writes it (csc::bindings::url_state, through
// decodeUrlState / encodeUrlState), so a link means exactly what the CLI would run.
import { decodeUrlState, encodeUrlState, urlStateDefaults, configFingerprint, policies } from '../pkg/csc.js';

/** @typedef {import('../pkg/csc.js').UrlState} UrlState */
/**
 * The page's application object, which main.js builds and hands to every view: the state the
 * engine decoded from the link, the data in use and named events ('change', 'checksum', 'asked',
 * 'nq-progress', 'nq-loaded').
 * @typedef {object} App
 * @property {UrlState} state
 * @property {(fn: (next: UrlState) => void, options?: { restart?: boolean }) => boolean} set
 *   changes the state through `fn` if the engine accepts the result (main.js)
 * @property {(name: string, fn: (data?: any) => void) => void} on
 * @property {(name: string, data?: any) => void} emit
 * @property {any} upload the reader's loaded data (upload.js), or null
 * @property {any} nqFiles the nq-trivia files the reader loaded (upload.js), or null
 * @property {any} linked the uploaded data the link names (`linkedUpload`), or null
 * @property {Record<string, number> | null} [fromSweep] a sweep cell's parameters, opened in the
 *   offline view (views/sweep.js, views/offline.js)
 */

/**
 * The engine's online policies, id → display name, in the engine's order (csc::algorithms through
 * `policies()`): the page keeps no list of its own. Filled when the state is first read (after the
 * wasm module is initialised).
 */
export const POLICIES = /** @type {Record<string, string>} */ ({});

/** Reads the URL: `{ state, errors, hidden }` (each unusable key of the link is an error message;
 *  `hidden`: what the page hides, the engine's `UrlState::hidden`). */
export function loadState(search = location.search) {
  if (!Object.keys(POLICIES).length) for (const p of policies()) POLICIES[p.id] = p.name;
  return decodeUrlState(search);
}

/**
 * Writes the state into the URL; returns an error message if the state is invalid. `hash`: the
 * fragment naming uploaded data (`uploadHash`), which the engine's link format does not carry.
 * `push`: a new history entry (another view: Back returns to the one before), else this entry
 * changes.
 */
export function saveState(/** @type {UrlState} */ state, hash = '', { push = false } = {}) {
  try {
    const q = encodeUrlState(state);
    const url = `${q ? `?${q}` : location.pathname}${hash ? `#${hash}` : ''}`;
    if (push) history.pushState(null, '', url); else history.replaceState(null, '', url);
    return null;
  } catch (e) {
    return e.message;
  }
}

/** The fragment of a link made with uploaded data: its file, checksum and arrival model. */
export function uploadHash(upload, arrival) {
  if (!upload) return '';
  const h = new URLSearchParams({ data: upload.file, checksum: upload.checksum, arrival: arrival.model });
  if (arrival.group_by || arrival.tenant_by) h.set('group_by', arrival.group_by || arrival.tenant_by);
  if (arrival.index) h.set('index', arrival.index);
  return h.toString();
}

/** The uploaded data a link names (`uploadHash`), or null. */
export function linkedUpload(hash = location.hash) {
  const h = new URLSearchParams(hash.replace(/^#/, ''));
  return h.get('data') ? { file: h.get('data'), checksum: h.get('checksum') || '', arrival: h.get('arrival') || 'uniform', groupBy: h.get('group_by') || '', index: h.get('index') || '' } : null;
}

export const defaultsFor = (dataset) => urlStateDefaults(dataset);
/** The link of the figure-only embed of `state` (`embed=figure`: the open view's first chart, its
 *  caption and the attribution), as an `<iframe>` for another page. */
export function figureEmbedSnippet(/** @type {UrlState} */ state, title) {
  const q = encodeUrlState({ ...state, embed: 'figure', hide: [] });
  const src = new URL(`?${q}`, location.href).href;
  const attr = (t) => t.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<iframe src="${attr(src)}" title="${attr(title)}" width="720" height="520" style="border:0; max-width:100%" loading="lazy"></iframe>`;
}
export const fingerprint = (dataset, params) => configFingerprint(dataset, params);
