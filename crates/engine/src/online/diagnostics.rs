//! What a policy reports about itself at the end of a run (SPEC §9 metrics, §11.2 stage
//! counters): typed counters, one struct per learner family. The unit runner records them as
//! metrics (`final_centers`, `final_global_stage`, `final_stage_advances`) and reports keep their
//! JSON form (the same keys).

use serde::Serialize;

/// The counters of one policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(untagged)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Diagnostics {
    /// A policy without counters (Threshold, Oracle); JSON `null`.
    #[default]
    None,
    /// The low-switching learners (CLCB-SC-LS-Cont, CLCB-SC-LS; Algs. 3–5).
    LowSwitch(LowSwitchDiagnostics),
    /// The cell baselines (Greedy, Epsilon-Greedy, LFU, LRU).
    Cells(CellDiagnostics),
    /// CLCB-Frozen-Cont (appendix Algs. 6–8).
    Frozen(FrozenDiagnostics),
    /// vCache (SPEC §15).
    VCache(VCacheDiagnostics),
}

/// Counters of the low-switching learners.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LowSwitchDiagnostics {
    /// ε-net centers `m`.
    pub centers: usize,
    /// Costs observed (LLM calls).
    pub observations: usize,
    /// Per-center stage advances (SPEC §11.2; Lemma 5 bounds them by `O(m log log T)`).
    pub stage_advances: u64,
    /// The index of the current global stage.
    pub global_stage: u32,
}

/// Counters of the cell baselines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CellDiagnostics {
    /// ε-net centers.
    pub centers: usize,
    /// Costs observed (LLM calls).
    pub observations: u64,
}

/// Counters of CLCB-Frozen-Cont.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FrozenDiagnostics {
    /// Distinct arrivals seen.
    pub distinct_arrivals: usize,
    /// The candidate pool of the current stage.
    pub pool: usize,
    /// Costs observed (LLM calls).
    pub observations: usize,
    /// The current stage `s`.
    pub stage: u32,
}

/// Counters of vCache (SPEC §15, "Report τ's mean over rounds and the share of rounds explored").
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct VCacheDiagnostics {
    /// Items held.
    pub items: usize,
    /// Judged observations held by the items (evicted items take theirs with them).
    pub observations: usize,
    /// Share of rounds that explored (called the LLM): steps 1, 2, 3 and 5.
    pub explore_share: f64,
    /// Mean of the exploration probability `τ` over the rounds that computed it (step 4),
    /// each clipped to [0, 1] as a probability (a negative `τ` never explores); NaN (JSON
    /// `null`) if no round did.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub tau_mean: f64,
    /// Rounds that computed `τ`.
    pub tau_rounds: u64,
}

impl Diagnostics {
    /// ε-net centers, for the policies that keep a net.
    pub fn centers(&self) -> Option<usize> {
        match self {
            Diagnostics::LowSwitch(d) => Some(d.centers),
            Diagnostics::Cells(d) => Some(d.centers),
            _ => None,
        }
    }

    /// Costs observed, for the learning policies.
    pub fn observations(&self) -> Option<u64> {
        match self {
            Diagnostics::LowSwitch(d) => Some(d.observations as u64),
            Diagnostics::Cells(d) => Some(d.observations),
            Diagnostics::Frozen(d) => Some(d.observations as u64),
            Diagnostics::VCache(d) => Some(d.observations as u64),
            Diagnostics::None => None,
        }
    }

    /// The low-switching learners' stage counters: `(global stage, stage advances)`.
    pub fn stages(&self) -> Option<(u32, u64)> {
        match self {
            Diagnostics::LowSwitch(d) => Some((d.global_stage, d.stage_advances)),
            _ => None,
        }
    }

    /// vCache's `(τ mean, share of rounds explored)`.
    pub fn vcache(&self) -> Option<(f64, f64)> {
        match self {
            Diagnostics::VCache(d) => Some((d.tau_mean, d.explore_share)),
            _ => None,
        }
    }

    /// The JSON form (an object of the counters, `null` for none), as reports record it.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("diagnostics serialise")
    }
}
