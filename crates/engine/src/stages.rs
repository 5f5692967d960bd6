//! The low-switching stage mechanism shared by every LS variant (Alg. 3 lines 12–18; SPEC §11.2).
//!
//! Each tracked unit (an ε-net center, or the single global unit `f`) has a current stage `τ`
//! with its member count `|T(·, τ)|` and the total size of its previous stages `Σ_prev`. A stage
//! ends when `|T| ≥ 1 + √((T/m)·Σ_prev)`, evaluated exactly in integers as
//! `|T| − 1 ≥ 0 ∧ (|T| − 1)²·m ≥ T·Σ_prev` (`m = m_t` locally, `m = 1` globally).

/// One unit's stage bookkeeping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stage {
    /// `τ`, from 1.
    pub index: u32,
    /// `|T(·, τ)|`: members of the current stage.
    pub current: u64,
    /// `Σ_{τ' < τ} |T(·, τ')|`.
    pub previous: u64,
}

impl Stage {
    /// A unit in its first stage with no members (Alg. 3 lines 2 and 8).
    pub fn new() -> Self {
        Stage { index: 1, current: 0, previous: 0 }
    }

    /// Adds one member to the current stage (Alg. 5 lines 2 and 10).
    pub fn add(&mut self) {
        self.current += 1;
    }

    /// Whether the stage limit is reached for horizon `horizon` and `m` units (SPEC §11.2).
    pub fn limit_reached(&self, horizon: u64, m: u64) -> bool {
        if self.current == 0 {
            return false; // |T| − 1 < 0
        }
        let a = (self.current - 1) as u128;
        a * a * m as u128 >= horizon as u128 * self.previous as u128
    }

    /// Starts the next stage (Alg. 3 lines 14 and 17).
    pub fn advance(&mut self) {
        self.previous += self.current;
        self.current = 0;
        self.index += 1;
    }
}

/// Local stages of every center plus the global stage (Alg. 3).
#[derive(Clone, Debug, Default)]
pub struct StageClock {
    horizon: u64,
    local: Vec<Stage>,
    global: Stage,
    /// Stage advances so far (local + global), for the switch-count analysis (Lemma 5).
    pub advances: u64,
    /// What the last [`check`](Self::check) advanced: local stages (Alg. 3 lines 12–15) and
    /// whether the global one did (lines 16–18).
    pub last: (u64, bool),
}

impl StageClock {
    pub fn new(horizon: usize) -> Self {
        StageClock {
            horizon: horizon as u64,
            local: Vec::new(),
            global: Stage::new(),
            advances: 0,
            last: (0, false),
        }
    }

    /// Registers a new center (Alg. 3 line 8).
    pub fn add_center(&mut self) {
        self.local.push(Stage::new());
    }

    /// Checks every local limit with `m_t` centers and the global limit; every unit that triggers
    /// advances (SPEC §11.2). Returns whether any did (the `Switch` flag).
    pub fn check(&mut self) -> bool {
        let m = self.local.len() as u64;
        let mut local = 0;
        for s in &mut self.local {
            if s.limit_reached(self.horizon, m) {
                s.advance();
                local += 1;
            }
        }
        let global = self.global.limit_reached(self.horizon, 1);
        if global {
            self.global.advance();
        }
        self.advances += local + u64::from(global);
        self.last = (local, global);
        local > 0 || global
    }

    /// Every round enters the global stage (Alg. 5 line 2).
    pub fn record_round(&mut self) {
        self.global.add();
    }

    /// Only LLM calls enter a center's stage (Alg. 5 line 10).
    pub fn record_llm_call(&mut self, center: usize) {
        self.local[center].add();
    }

    pub fn local(&self, center: usize) -> &Stage {
        &self.local[center]
    }
    pub fn global(&self) -> &Stage {
        &self.global
    }

    /// `Σ_{u∈S_t} τ_u`: the local stage indices summed over the centers (the switching lemma's
    /// first quantity; each center starts in stage 1). O(1): `m` plus the local advances.
    pub fn sum_tau(&self) -> u64 {
        self.local.len() as u64 + self.advances - u64::from(self.global.index - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Σ_u τ_u counts each center's stage index (from 1), whatever the global stage did:
    /// three centers, the first advanced twice and the second once → 3 + 2 + 1 = 6.
    #[test]
    fn sum_tau_by_hand() {
        let mut c = StageClock::new(100);
        for _ in 0..3 {
            c.add_center();
        }
        assert_eq!(c.sum_tau(), 3);
        c.record_round();
        c.record_llm_call(0);
        c.record_llm_call(1);
        c.check(); // both first stages end at one member; so does the global one
        assert_eq!((c.local(0).index, c.local(1).index, c.local(2).index, c.global().index), (2, 2, 1, 2));
        c.record_llm_call(0);
        c.record_llm_call(0);
        c.check(); // center 0: (2 − 1)²·3 = 3 ≥ 100·1? no — stays
        c.record_llm_call(0);
        for _ in 0..20 {
            c.record_llm_call(0);
        }
        c.check(); // center 0: 23 members, 22²·3 = 1452 ≥ 100·1 → stage 3
        let sum: u64 = (0..3).map(|u| u64::from(c.local(u).index)).sum();
        assert_eq!(sum, 6);
        assert_eq!(c.sum_tau(), sum);
    }

    #[test]
    fn thresholds_by_hand() {
        // First stage (Σ_prev = 0): ends as soon as it has one member.
        let mut s = Stage::new();
        assert!(!s.limit_reached(100, 4));
        s.add();
        assert!(s.limit_reached(100, 4));
        s.advance();
        assert_eq!((s.index, s.previous, s.current), (2, 1, 0));
        // Second stage, T = 100, m = 4: needs |T| ≥ 1 + √(25·1) = 6.
        for _ in 0..5 {
            s.add();
        }
        assert!(!s.limit_reached(100, 4));
        s.add();
        assert!(s.limit_reached(100, 4));
        // Global (m = 1), T = 100, Σ_prev = 1: |T| ≥ 1 + √100 = 11.
        let mut g = Stage { index: 2, current: 10, previous: 1 };
        assert!(!g.limit_reached(100, 1));
        g.add();
        assert!(g.limit_reached(100, 1));
    }

    #[test]
    fn global_stages_grow_like_log_log() {
        // The global clock alone over T rounds: the number of stages is O(log log T).
        for &t in &[1_000u64, 100_000, 10_000_000] {
            let mut c = StageClock::new(t as usize);
            let mut switches = 0;
            for _ in 0..t {
                if c.check() {
                    switches += 1;
                }
                c.record_round();
            }
            let bound = 2.0 * (t as f64).ln().ln() + 3.0;
            assert!((switches as f64) <= bound, "T = {t}: {switches} switches > {bound}");
        }
    }
}
