//! The quantities of the paper's online guarantee, measured on a run: Theorem 5.1's four bound
//! terms, the information gain `γ_t` and confidence multiplier `β_t` of the concentration
//! (Lemma 5.2, §5.3), Assumption 1's `m_eff` and `ε_t`, and Lemma 5.3's `Σ_u τ_u` beside `log log t`.
//!
//! Read-only observations: the simulator feeds [`TheoryProbe`] the ε-net assignment it already
//! has each round (O(1) per round) and asks the policy for its learner's state
//! ([`super::Policy::theory`]) only at checkpoints. No decision of any policy reads them.
//! The definitions of `ε_t` and `m_eff` are in docs/SPEC-NOTES.md ("Theory diagnostics").

use crate::epsilon_net::Assignment;
use serde::Serialize;

/// What a learner knows of the theorem's quantities (at a checkpoint).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LearnerTheory {
    /// `γ_t = ½ log det(I + K_t/λ)` over the learner's observations (§5.3, before Lemma 5.2),
    /// from its own factorisation; `None` for a learner without a kernel model.
    pub gamma: Option<f64>,
    /// `β_t = B + R·√(2(γ_t + ln(2/δ)))` (Lemma 5.2's radius without
    /// `σ_{t,λ}(x)`), with the run's `δ`; the policy's widths are `β·β_t` (SPEC §6's scale).
    pub beta_t: Option<f64>,
    /// `Σ_{u∈S_t} τ_u(t)`: the local stage indices summed over the centers (Lemma 5.3).
    pub sum_tau: Option<u64>,
    /// `τ_f(t)`: the global stage index (Lemma 5.3).
    pub tau_f: Option<u32>,
}

/// Theorem 5.1's four terms at round t with every `O(·)` constant set to 1 ("up to
/// constants"): never a bound that holds as printed, only its shape in t.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BoundTerms {
    /// Cost: `β_t·√(t·γ_t)` (Thm. 5.1).
    pub cost: Option<f64>,
    /// Arrival: `√(m_eff·t·ln t)` (Thm. 5.1).
    pub arrival: Option<f64>,
    /// Discretisation: `(1 + 2α)·L_g·√t` with `α = 1` and `L_g` the run's `lipschitz` (Thm. 5.1).
    pub discretisation: f64,
    /// Switching: `k·m_max·ln ln t`, `ln ln t` taken as 0 below t = e where it is negative
    /// (Thm. 5.1, Lemma 5.3).
    pub switching: Option<f64>,
}

/// The theorem's quantities at one checkpoint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TheoryPoint {
    /// Rounds completed.
    pub t: usize,
    /// `γ_t` ([`LearnerTheory::gamma`]).
    pub gamma: Option<f64>,
    /// `β_t` ([`LearnerTheory::beta_t`]).
    pub beta_t: Option<f64>,
    /// `m_eff(t)`: the effective number of ε-net centers, `exp(−Σ_u ŵ_t(u) ln ŵ_t(u))` with
    /// `ŵ_t(u) = N_t(u)/t` (Assumption 1; docs/SPEC-NOTES.md "Theory diagnostics").
    pub m_eff: Option<f64>,
    /// `m_max(t) = |S_t|`: the net's size (Lemma 5.3's `m_max`, measured).
    pub m_max: Option<usize>,
    /// `ε_t`: the largest `d(x_s, S_s)` over the window of the last `window` rounds
    /// (Assumption 1; docs/SPEC-NOTES.md "Theory diagnostics").
    pub eps_t: Option<f64>,
    /// The rounds `ε_t` is the largest over.
    pub window: usize,
    /// `Σ_u τ_u(t)` ([`LearnerTheory::sum_tau`]).
    pub sum_tau: Option<u64>,
    /// `τ_f(t)` ([`LearnerTheory::tau_f`]).
    pub tau_f: Option<u32>,
    /// `ln ln t` (0 below t = e), Lemma 5.3's growth.
    pub loglog_t: f64,
    /// Thm. 5.1's terms up to constants.
    pub bound: BoundTerms,
}

/// `ln ln t`, 0 where it is not positive (t ≤ e: rounds 0, 1 and 2).
pub fn loglog(t: usize) -> f64 {
    let t = t as f64;
    if t <= 1.0 {
        return 0.0;
    }
    crate::portable::ln(crate::portable::ln(t)).max(0.0)
}

/// `m_eff = exp(H(ŵ))`, `ŵ(u) = N(u)/Σ N` (the Hill number of order 1 of the arrival weights over
/// the centers): `m` when every center has the same weight, 1 when one holds them all; a center
/// hit once among t arrivals counts about `ln t/t` towards the entropy. `None` with no arrivals.
pub fn effective_number(counts: &[u64]) -> Option<f64> {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return None;
    }
    let n = total as f64;
    let h: f64 = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let w = c as f64 / n;
            -w * crate::portable::ln(w)
        })
        .sum();
    Some(crate::portable::exp(h))
}

/// What the simulator records each round for the theory view: the running maximum of
/// `d(x_s, S_s)` in the current window, and whether every round had the shared net's assignment.
/// O(1) per round. The per-center counts `N_t(u)` are not kept here: they are the policy's own
/// net's ([`super::Policy::net_counts`]), which receives the same assignments (exactly equal while
/// every round is observed; the probe reports no net quantity once one is not).
#[derive(Clone, Debug, Default)]
pub struct TheoryProbe {
    /// `max d(x_s, S_s)` over the rounds of the current window, and how many rounds it has.
    window_max: f64,
    window_rounds: usize,
    /// The last completed window's maximum and length (reported while the current one is empty).
    last_max: Option<(f64, usize)>,
    /// Whether every round so far was observed (a round without an assignment — a policy
    /// without a net, or an asked question — ends the net quantities).
    complete: bool,
}

impl TheoryProbe {
    pub fn new(keeps_net: bool) -> Self {
        TheoryProbe { complete: keeps_net, ..TheoryProbe::default() }
    }

    /// Round s's assignment to the net (Alg. 3 lines 5–11): `d(x_s, S_s)` is its distance, 0
    /// for an arrival that founded a center.
    pub fn observe(&mut self, a: Option<&Assignment>) {
        let Some(a) = a.filter(|_| self.complete) else {
            self.complete = false;
            return;
        };
        self.window_max = self.window_max.max(a.distance);
        self.window_rounds += 1;
    }

    /// Ends the current window (the simulator calls it after each recorded checkpoint).
    pub fn close_window(&mut self) {
        if self.window_rounds > 0 {
            self.last_max = Some((self.window_max, self.window_rounds));
        }
        self.window_max = 0.0;
        self.window_rounds = 0;
    }

    /// The point at round `t` from the learner's state and its net's per-center counts `N_t(u)`
    /// ([`super::Policy::net_counts`]); `k` and `lipschitz` scale the switching and
    /// discretisation terms.
    pub fn point(
        &self,
        t: usize,
        learner: LearnerTheory,
        counts: Option<&[u64]>,
        k: usize,
        lipschitz: f64,
    ) -> TheoryPoint {
        let (m_eff, m_max, eps) = match counts.filter(|_| self.complete) {
            Some(counts) => {
                let eps = if self.window_rounds > 0 {
                    Some((self.window_max, self.window_rounds))
                } else {
                    self.last_max
                };
                (effective_number(counts), Some(counts.len()), eps)
            }
            None => (None, None, None),
        };
        let tf = t as f64;
        let ll = loglog(t);
        let bound = BoundTerms {
            cost: match (learner.beta_t, learner.gamma) {
                (Some(b), Some(g)) => Some(b * (tf * g.max(0.0)).sqrt()),
                _ => None,
            },
            arrival: m_eff.map(|m| (m * tf * crate::portable::ln(tf.max(1.0))).sqrt()),
            discretisation: 3.0 * lipschitz * tf.sqrt(),
            switching: m_max.map(|m| k as f64 * m as f64 * ll),
        };
        TheoryPoint {
            t,
            gamma: learner.gamma,
            beta_t: learner.beta_t,
            m_eff,
            m_max,
            eps_t: eps.map(|(e, _)| e),
            window: eps.map_or(0, |(_, w)| w),
            sum_tau: learner.sum_tau,
            tau_f: learner.tau_f,
            loglog_t: ll,
            bound,
        }
    }
}

#[cfg(test)]
mod sim_tests;

#[cfg(test)]
mod tests {
    use super::*;

    fn a(center: usize, is_new: bool, distance: f64) -> Assignment {
        Assignment { center, is_new, distance }
    }

    /// Hand-computed: counts (2, 1, 1) of 4 arrivals, ŵ = (½, ¼, ¼):
    /// H = ½ ln 2 + 2·¼ ln 4 = 1.5 ln 2, m_eff = 2^1.5 = 2.828427…
    #[test]
    fn effective_number_by_hand() {
        let m = effective_number(&[2, 1, 1]).unwrap();
        assert!((m - 2f64.powf(1.5)).abs() < 1e-12, "{m}");
        assert!((effective_number(&[5, 5, 5, 5]).unwrap() - 4.0).abs() < 1e-12);
        assert!((effective_number(&[7]).unwrap() - 1.0).abs() < 1e-15);
        assert_eq!(effective_number(&[]), None);
        assert_eq!(effective_number(&[0, 0]), None);
    }

    /// Rounds: new center 0; 0.3 to center 0; new center 1; 0.1 to 1 (window closes);
    /// 0.05 to 0. ε over the first window is 0.3 (4 rounds); then 0.05 (1 round); an empty window
    /// reports the last closed one. The net's counts are then (3, 2): m_max = 2,
    /// m_eff = exp(H(0.6, 0.4)).
    #[test]
    fn probe_by_hand() {
        let mut p = TheoryProbe::new(true);
        for s in [a(0, true, 0.0), a(0, false, 0.3), a(1, true, 0.0), a(1, false, 0.1)] {
            p.observe(Some(&s));
        }
        let learner = LearnerTheory { gamma: Some(2.0), beta_t: Some(3.0), sum_tau: Some(4), tau_f: Some(2) };
        // The policy's net's counts after these rounds: (2, 2).
        let q = p.point(4, learner, Some(&[2, 2]), 5, 1.0);
        assert_eq!((q.eps_t, q.window, q.m_max), (Some(0.3), 4, Some(2)));
        assert!((q.m_eff.unwrap() - 2.0).abs() < 1e-12);
        p.close_window();
        let q = p.point(4, learner, Some(&[2, 2]), 5, 1.0);
        assert_eq!((q.eps_t, q.window), (Some(0.3), 4), "an empty window reports the last one");
        p.observe(Some(&a(0, false, 0.05)));
        let q = p.point(5, learner, Some(&[3, 2]), 5, 1.0);
        assert_eq!((q.eps_t, q.window), (Some(0.05), 1));
        let h = -(0.6f64 * 0.6f64.ln() + 0.4 * 0.4f64.ln());
        assert!((q.m_eff.unwrap() - h.exp()).abs() < 1e-12);
        // Bound terms at t = 5: cost 3·√(5·2), arrival √(m_eff·5·ln 5), discretisation 3·√5,
        // switching 5·2·ln ln 5.
        assert!((q.bound.cost.unwrap() - 3.0 * 10f64.sqrt()).abs() < 1e-12);
        assert!((q.bound.arrival.unwrap() - (h.exp() * 5.0 * 5f64.ln()).sqrt()).abs() < 1e-12);
        assert!((q.bound.discretisation - 3.0 * 5f64.sqrt()).abs() < 1e-12);
        assert!((q.bound.switching.unwrap() - 10.0 * 5f64.ln().ln()).abs() < 1e-12);
        assert_eq!((q.sum_tau, q.tau_f, q.gamma, q.beta_t), (Some(4), Some(2), Some(2.0), Some(3.0)));
    }

    #[test]
    fn a_round_without_an_assignment_ends_the_net_quantities() {
        let mut p = TheoryProbe::new(true);
        p.observe(Some(&a(0, true, 0.0)));
        p.observe(None);
        p.observe(Some(&a(0, false, 0.1)));
        let q = p.point(3, LearnerTheory::default(), Some(&[2]), 5, 1.0);
        assert_eq!((q.m_eff, q.m_max, q.eps_t), (None, None, None));
        assert_eq!(q.bound.cost, None);
        let mut none = TheoryProbe::new(false);
        none.observe(Some(&a(0, true, 0.0)));
        assert_eq!(none.point(1, LearnerTheory::default(), Some(&[1]), 5, 1.0).m_max, None);
        // Without the policy's counts (a policy without a net) there are none either.
        let mut all = TheoryProbe::new(true);
        all.observe(Some(&a(0, true, 0.0)));
        assert_eq!(all.point(1, LearnerTheory::default(), None, 5, 1.0).m_eff, None);
    }

    #[test]
    fn loglog_is_zero_below_e() {
        assert_eq!(loglog(0), 0.0);
        assert_eq!(loglog(2), 0.0);
        assert!((loglog(3) - 3f64.ln().ln()).abs() < 1e-12);
        assert!((loglog(1000) - 1000f64.ln().ln()).abs() < 1e-12);
    }
}
