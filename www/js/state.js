// The page state, mirrored in the query string so a link (or an iframe with embed=1) restores it.

export const POLICIES = {
  'clcb-sc-ls-cont': 'CLCB-SC-LS-Cont',
  'clcb-frozen-cont': 'CLCB-Frozen-Cont (slow)',
  'clcb-sc-ls': 'CLCB-SC-LS',
  greedy: 'Greedy',
  'epsilon-greedy': 'Epsilon-Greedy',
  lfu: 'LFU',
  lru: 'LRU',
  threshold: 'Threshold',
  oracle: 'Oracle',
};

/** The recorded curves (keys of `Curves`) with their axis labels. */
export const METRICS = {
  avgRegret: 'average regret R(t)/t',
  avgRealisedCost: 'average realised cost',
  hitRate: 'hit rate',
  switches: 'cache switches',
  loss: 'loss L(M_t)',
  estRmse: 'cost-estimate RMSE',
};

export const DEFAULTS = {
  view: 'live', dataset: 'synthetic', seed: 0, p1: 'clcb-sc-ls-cont', p2: 'greedy', speed: 5,
  k: 5, epsilon: 0.4, beta: 1, horizon: 2000, n_eval: 1000, metric: 'avgRegret', embed: false,
};

const NUMERIC = ['seed', 'speed', 'k', 'epsilon', 'beta', 'horizon', 'n_eval'];

export function readState(search = location.search) {
  const q = new URLSearchParams(search);
  const s = { ...DEFAULTS };
  for (const key of NUMERIC) {
    if (q.has(key)) {
      const v = Number(q.get(key));
      if (Number.isFinite(v)) s[key] = v;
    }
  }
  if (q.get('dataset') === 'plane' || q.get('dataset') === 'synthetic') s.dataset = q.get('dataset');
  if (q.get('view') === 'live' || q.get('view') === 'regret') s.view = q.get('view');
  for (const key of ['p1', 'p2']) if (q.get(key) in POLICIES) s[key] = q.get(key);
  if (q.get('metric') in METRICS) s.metric = q.get('metric');
  s.embed = q.get('embed') === '1';
  return s;
}

export function writeState(s) {
  const q = new URLSearchParams();
  for (const key of ['view', 'dataset', 'seed', 'p1', 'p2', 'speed', 'k', 'epsilon', 'beta', 'horizon', 'n_eval', 'metric']) {
    if (s[key] !== DEFAULTS[key]) q.set(key, String(s[key]));
  }
  if (s.embed) q.set('embed', '1');
  const qs = q.toString();
  history.replaceState(null, '', qs ? `?${qs}` : location.pathname);
}

/** The engine parameters of a state. */
export function runParams(s) {
  return { seed: s.seed, k: s.k, epsilon: s.epsilon, beta: s.beta, horizon: s.horizon, n_eval: s.n_eval };
}
