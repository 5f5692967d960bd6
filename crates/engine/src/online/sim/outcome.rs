//! What a run measures (SPEC §9, §14): the metrics at a checkpoint, what one round did, a
//! finished run, and the names tables give a policy that never filled its cache.

use crate::online::Diagnostics;
use serde::Serialize;

/// The metrics at one point of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Checkpoint {
    /// Rounds completed.
    pub t: usize,
    /// `Reg(t)`.
    pub regret: f64,
    /// `Reg(t)/t`.
    pub avg_regret: f64,
    /// Σ realised cost so far.
    pub realised_cost: f64,
    /// Realised cost per round.
    pub avg_realised_cost: f64,
    pub hit_rate: f64,
    pub llm_calls: u64,
    /// Switches so far: rounds whose cache set differs from the previous round's (module docs).
    pub switches: u64,
    /// Σ switching costs so far (SPEC §11.5: Σ `c(u)` over newly fetched members).
    pub switch_cost: f64,
    /// The loss part of `Reg(t)`: `Σ_{s≤t} [L(M_s) − L(M_orc)]` (paper §5, the regret's first
    /// sum; SPEC §9). `regret` = `loss_gap` + `switch_cost` up to rounding.
    pub loss_gap: f64,
    /// `loss_gap / t`: the average loss gap.
    pub avg_loss_gap: f64,
    /// `switch_cost / t`: the average switching cost.
    pub avg_switch_cost: f64,
    /// `L(M_t)` of the current cache.
    pub loss: f64,
    /// `|M_t|`: the number of items in the current cache (fewer than k for a policy that has not
    /// filled it, e.g. CLCB-Frozen-Cont still in an early stage).
    pub cache_size: usize,
    /// Estimation error at the policy's centers against true costs, if it estimates costs.
    pub est_rmse: Option<f64>,
    pub est_mae: Option<f64>,
    pub est_max: Option<f64>,
    /// SPEC §14 error rate `E(t)`: wrong hits over rounds so far; `None` without ground truth.
    pub error_rate: Option<f64>,
    /// SPEC §14 hit precision: correct hits over hits; `None` without ground truth or hits.
    pub hit_precision: Option<f64>,
    /// Wrong hits so far: rounds served from the cache by a nearest item whose label is not
    /// equivalent to the arrival's (SPEC §14); `None` without ground truth.
    pub wrong_hits: Option<u64>,
    /// Time spent inside the policy so far (ms). For a policy that keeps an ε-net this includes
    /// the scan of each arrival as measured once for the run's shared net: what the policy would
    /// have spent scanning on its own, whichever policy did the scan.
    pub wall_ms: f64,
    /// The paper's guarantee's quantities at this point ([`super::theory`]): read-only observations
    /// of the run, `None` only in a default checkpoint.
    pub theory: Option<crate::online::theory::TheoryPoint>,
}

/// What one round did (for the live view).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StepOutcome {
    pub t: usize,
    pub llm: bool,
    /// Whether this round is a switch (counted in [`Checkpoint::switches`]).
    pub switched: bool,
    /// `φ(d(x_t, M_t))`.
    pub phi: f64,
    /// What this round cost: `c(x_t)` or `φ`.
    pub realised: f64,
    /// SPEC §14: for a cache hit whose labels are known, whether the answer served was wrong;
    /// `None` for an LLM call, or where there is no ground truth to judge by.
    pub wrong: Option<bool>,
}

/// A finished (or paused) run.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunResult {
    /// The policy's id (`"clcb-sc-ls-cont"`; its display name: [`crate::algorithms::name_of`]).
    pub policy: String,
    pub oracle_loss: f64,
    pub checkpoints: Vec<Checkpoint>,
    pub last: Checkpoint,
    /// The policy's counters in their JSON form, as reports record them.
    #[cfg_attr(feature = "ts", ts(as = "Diagnostics"))]
    pub diagnostics: serde_json::Value,
    /// The same counters, typed.
    #[serde(skip)]
    pub counters: Diagnostics,
    /// Per tenant, when the stream has tenants ([`super::tenancy`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub tenants: Option<Vec<crate::online::TenantCounts>>,
}

/// A policy's name for tables and charts: as is when its cache holds `k` items, otherwise with
/// its actual size (`size` may be a mean over seeds), e.g. "CLCB-Frozen-Cont (1 item)" — so that
/// a policy that never filled its cache is not read as a k-item policy.
pub fn sized_label(label: &str, size: f64, k: usize) -> String {
    if size.is_nan() || size >= k as f64 {
        return label.to_string();
    }
    if size.fract() == 0.0 {
        format!("{label} ({size} item{})", if size == 1.0 { "" } else { "s" })
    } else {
        format!("{label} ({size:.1} items)")
    }
}

/// What a name written by [`sized_label`] means, for the table or figure that shows one
/// ("(1 item)" after CLCB-Frozen-Cont at β = 1, docs/SPEC-NOTES.md, "CLCB-Frozen-Cont"):
/// "“(n items)” after a policy's name: its cache held n items at the end of the run (the mean
/// over the seeds of a report), fewer than k = 5; it never filled its cache."
pub fn sized_label_note(k: usize) -> String {
    format!(
        "“(n items)” after a policy's name: its cache held n items at the end of the run (the mean \
         over the seeds of a report), fewer than k = {k}; it never filled its cache."
    )
}
