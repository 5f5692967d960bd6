// @ts-check
// The page state lives in the URL. The engine reads and writes it (csc::bindings::url_state, through
// decodeUrlState / encodeUrlState), so a link means exactly what the CLI would run.
import { decodeUrlState, encodeUrlState, urlStateDefaults, configFingerprint, policies } from '../pkg/csc.js';

/**
 * The engine's online policies, id → display name, in the engine's order (csc::algorithms through
 * `policies()`): the page keeps no list of its own. Filled when the state is first read (after the
 * wasm module is initialised).
 */
export const POLICIES = {};

/** Reads the URL: `{ state, errors }` (each unusable key of the link is an error message). */
export function loadState(search = location.search) {
  if (!Object.keys(POLICIES).length) for (const p of policies()) POLICIES[p.id] = p.name;
  return decodeUrlState(search);
}

/**
 * Writes the state into the URL; returns an error message if the state is invalid. `hash`: the
 * fragment naming uploaded data (`uploadHash`), which the engine's link format does not carry.
 */
export function saveState(state, hash = '') {
  try {
    const q = encodeUrlState(state);
    history.replaceState(null, '', `${q ? `?${q}` : location.pathname}${hash ? `#${hash}` : ''}`);
    return null;
  } catch (e) {
    return e.message;
  }
}

/** The fragment of a link made with uploaded data: its file, checksum and arrival model. */
export function uploadHash(upload, arrival) {
  if (!upload) return '';
  const h = new URLSearchParams({ data: upload.file, checksum: upload.checksum, arrival: arrival.model });
  if (arrival.group_by) h.set('group_by', arrival.group_by);
  if (arrival.index) h.set('index', arrival.index);
  return h.toString();
}

/** The uploaded data a link names (`uploadHash`), or null. */
export function linkedUpload(hash = location.hash) {
  const h = new URLSearchParams(hash.replace(/^#/, ''));
  return h.get('data') ? { file: h.get('data'), checksum: h.get('checksum') || '', arrival: h.get('arrival') || 'uniform', groupBy: h.get('group_by') || '', index: h.get('index') || '' } : null;
}

export const defaultsFor = (dataset) => urlStateDefaults(dataset);
export const fingerprint = (dataset, params) => configFingerprint(dataset, params);
