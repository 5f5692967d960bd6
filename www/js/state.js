// The page state lives in the URL. The engine reads and writes it (csc::url_state, through
// decodeUrlState / encodeUrlState), so a link means exactly what the CLI would run.
import { decodeUrlState, encodeUrlState, urlStateDefaults, configFingerprint } from '../pkg/csc.js';

export const POLICIES = {
  'clcb-sc-ls-cont': 'CLCB-SC-LS-Cont',
  'clcb-frozen-cont': 'CLCB-Frozen-Cont',
  'clcb-sc-ls': 'CLCB-SC-LS',
  greedy: 'Greedy',
  'epsilon-greedy': 'Epsilon-Greedy',
  lfu: 'LFU',
  lru: 'LRU',
  threshold: 'Threshold',
  oracle: 'Oracle',
};

/** Reads the URL: `{ state, errors }` (each unusable key of the link is an error message). */
export function loadState(search = location.search) {
  return decodeUrlState(search);
}

/** Writes the state into the URL; returns an error message if the state is invalid. */
export function saveState(state) {
  try {
    const q = encodeUrlState(state);
    history.replaceState(null, '', q ? `?${q}` : location.pathname);
    return null;
  } catch (e) {
    return e.message;
  }
}

export const defaultsFor = (dataset) => urlStateDefaults(dataset);
export const fingerprint = (dataset, params) => configFingerprint(dataset, params);
