// A learned threshold: LRU eviction, but the hit radius τ is learned from the costs the LLM
// reveals. A hit at distance d is charged φ(d); an LLM call costs c. So serving is worth it when
// d is small against the typical cost: τ follows a running mean of the observed costs, scaled by
// `scale` (a radius per unit of cost), starting from the threshold cache's τ times `gain`.

/** Its parameter: how far the learned radius stands from the threshold cache's at a mean cost of 0.5. */
export const params = {
  gain: { default: 1, min: 0, max: 4, what: 'τ at a mean cost of 0.5, as a multiple of the threshold cache\'s τ' },
};

export default class LearnedThreshold {
  start({ k, tau, params = {} }) {
    this.k = k;
    this.tau0 = tau;
    this.scale = ((params.gain ?? 1) * tau) / 0.5; // gain·τ₀ at a mean cost of 0.5
    this.meanCost = 0.5;
    this.n = 0;
    this.members = [];
    this.lastUse = [];
    this.why = '';
  }

  get tau() { return this.scale * this.meanCost; }

  decide({ round, members, distances }) {
    let j = -1;
    for (let i = 0; i < distances.length; i++) if (j < 0 || distances[i] < distances[j]) j = i;
    const tau = this.tau;
    if (j >= 0 && distances[j] <= tau) {
      this.lastUse[j] = round;
      this.why = `nearest member (round ${members[j]}) at ${distances[j].toFixed(3)} ≤ learned τ = ${tau.toFixed(3)}: served`;
      return j;
    }
    this.why = `nothing within learned τ = ${tau.toFixed(3)} (mean cost ${this.meanCost.toFixed(3)} over ${this.n} calls): LLM`;
    return 'llm';
  }

  observe(cost, round) {
    this.n += 1;
    this.meanCost += (cost - this.meanCost) / (this.n + 1); // the prior 0.5 counts as one call
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
