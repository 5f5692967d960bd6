//! What a round's decision saw, for the page: the live view's "why this round" and "Ask a
//! question". Not part of the paper's algorithms nor of a run's metrics — an observer
//! ([`RoundObserver`]) that [`Simulation::step_observed`] calls around the policy's decision, so a
//! plain [`Simulation::step`] carries none of it.

use super::sim::{RoundObserver, Simulation, StepOutcome};
use super::Acts;
use crate::stream::Arrival;

/// What one round's decision saw ([`Simulation::step_explained`]), in the order the round
/// happened: the state before the arrival (the cache `M_{t−1}`), the switch the arrival caused
/// (Alg. 3 lines 5–11 found a new center, or a stage ended: Alg. 4), then the serving decision
/// against the cache `M_t` that serves it (Alg. 5 lines 4–6).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Explanation {
    /// Before the round: the nearest member of `M_{t−1}` and its distance (`None`: empty cache).
    pub before: Option<(u64, f64)>,
    /// `|M_{t−1}|`.
    pub before_size: usize,
    /// The members the round's switch put in (keys: the rounds whose arrivals they are), sorted.
    pub inserted: Vec<u64>,
    /// The members the round's switch took out, sorted.
    pub removed: Vec<u64>,
    /// The nearest member of the cache that served the round: its key and `d(x_t, M_t)`.
    pub nearest: Option<(u64, f64)>,
    /// The round's ε-net center (index into the policy's centers), for policies with a net.
    pub center: Option<usize>,
    /// The cost estimate the decision compared with `φ` ([`Inspect::acting_cost`](super::Inspect::acting_cost)).
    pub acting_cost: Option<f64>,
    /// What the policy did before serving, as it recorded it while it stepped (a new center,
    /// stage advances, whether Alg. 4 ran: [`Inspect::acts`](super::Inspect::acts)).
    pub acts: Acts,
    /// The sorted member keys of `M_{t−1}` (between the two hooks).
    met: Vec<u64>,
}

/// The nearest member of the simulation's current cache to `a` (its key and distance) and the
/// cache's sorted member keys.
fn cache_met(sim: &Simulation, a: &Arrival) -> (Option<(u64, f64)>, Vec<u64>) {
    let cache = sim.policy().cache();
    let near = sim.environment().metric.nearest(a.x, cache.points()).map(|(j, d)| (cache.keys()[j], d));
    let mut keys = cache.keys().to_vec();
    keys.sort_unstable();
    (near, keys)
}

impl RoundObserver for Explanation {
    fn before_decision(&mut self, sim: &Simulation, a: &Arrival) {
        let (near, keys) = cache_met(sim, a);
        self.before = near;
        self.before_size = keys.len();
        self.met = keys;
    }

    fn after_decision(&mut self, sim: &Simulation, a: &Arrival) {
        let (near, after) = cache_met(sim, a);
        let before = std::mem::take(&mut self.met);
        self.inserted = after.iter().copied().filter(|k| before.binary_search(k).is_err()).collect();
        self.removed = before.iter().copied().filter(|k| after.binary_search(k).is_err()).collect();
        self.nearest = near;
        let policy = sim.policy();
        self.center = policy.current_center();
        self.acting_cost = policy.acting_cost();
        self.acts = policy.acts();
    }
}

impl Simulation {
    /// [`step_foreign`](Self::step_foreign), also saying what the decision saw (for the page's
    /// "Ask a question"): the nearest cached member and its distance, and the acting cost at the
    /// round's center, both taken after the policy's decision and before it observes the LLM's
    /// answer — the values the decision rule compared (Alg. 5 lines 4–6). The round is played
    /// exactly as [`step_foreign`](Self::step_foreign) plays it (and so, on the trace's own
    /// arrivals, as [`step`](Self::step) does: the shared ε-net changes nothing).
    pub fn step_explained(&mut self, a: &Arrival) -> (StepOutcome, Explanation) {
        let mut why = Explanation::default();
        let o = self.step_foreign_observed(a, &mut why);
        (o, why)
    }

    /// [`step`](Self::step), also saying what the round did (for the live view's "why this
    /// round", `crate::live`): played exactly as `step` plays it, the shared ε-net kept.
    pub fn step_traced(&mut self, a: &Arrival) -> (StepOutcome, Explanation) {
        let mut why = Explanation::default();
        let o = self.step_observed(a, &mut why);
        (o, why)
    }
}
