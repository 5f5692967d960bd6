// LRU with a fixed threshold: the threshold cache of production semantic caches, written as your
// own policy. Serve from the nearest member when it is within τ (ties: the lowest index), else
// call the LLM and admit the arrival, evicting the least recently used member (ties: the oldest)
// when k are held. It equals the built-in threshold cache (LRU eviction) round by round; with
// `threshold` set (a sweep of it), it is the threshold cache at τ = that value.

/** Its parameter: no default, so τ is the page's threshold cache's unless a sweep sets it. */
export const params = {
  threshold: { min: 0, max: 4, what: 'the hit radius τ (unset: the threshold cache\'s τ on this run)' },
};

export default class LruThreshold {
  start({ k, tau, params = {} }) {
    this.k = k;
    this.tau = params.threshold ?? tau;
    this.members = []; // rounds of the cached arrivals, in admission order
    this.lastUse = []; // each member's last round of admission or use
    this.why = '';
  }

  decide({ round, members, distances }) {
    let j = -1;
    for (let i = 0; i < distances.length; i++) if (j < 0 || distances[i] < distances[j]) j = i;
    if (j >= 0 && distances[j] <= this.tau) {
      this.lastUse[j] = round;
      this.why = `nearest member (round ${members[j]}) at ${distances[j].toFixed(3)} ≤ τ = ${this.tau.toFixed(3)}: served from the cache`;
      return j;
    }
    this.why = `no member within τ = ${this.tau.toFixed(3)}: sent to the LLM, then admitted`;
    return 'llm';
  }

  observe(cost, round) {
    if (this.members.length >= this.k) {
      let victim = 0;
      for (let i = 1; i < this.members.length; i++) if (this.lastUse[i] < this.lastUse[victim]) victim = i;
      this.members.splice(victim, 1);
      this.lastUse.splice(victim, 1);
    }
    this.members.push(round);
    this.lastUse.push(round);
    return this.members;
  }

  explain() { return this.why; }
}
