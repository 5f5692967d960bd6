//! What the live and batch classes share: their TypeScript types, the JS argument types and the
//! limits of a run held in the page. The classes are `OnlineRun` (`online_run.rs`, the live
//! view) and `ExperimentRun` (`experiment_run.rs`, SPEC §10 in workers), re-exported here.

use super::convert::{js_err, JsResult};
use crate::error::Error;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_SIM: &'static str = r#"
/** What `OnlineRun.step(n)` played: per round, and per policy in `policies` order (policy-major
 *  within a round: index `round * policies.length + p`). */
export interface StepBatch {
  /** Round index of each played round (from 0). */
  t: Uint32Array;
  /** 2-D position of each arrival (`[x0, y0, x1, y1, …]`): the plane itself for 2-D data, else the dataset's PCA projection. */
  xy: Float64Array;
  /** ε-net center of the arrival per round and policy (−1 for policies without a net). */
  center: Int32Array;
  /** 1 if the policy called the LLM, 0 if it served from its cache. */
  llm: Uint8Array;
  /** 1 if the policy's cache changed in that round. */
  switched: Uint8Array;
  /** What the round cost the policy: `c(x)` for an LLM call, `φ(d(x, M))` for a hit. */
  realised: Float64Array;
  /** SPEC §14, per round and policy: 1 if a hit served a wrong answer, 0 a correct one, −1 for an
   *  LLM call or where the data has no ground truth. */
  wrong: Int8Array;
  /** What fired per round and policy (`csc::live::RoundEvents`), as flags: 1 a new ε-net center
   *  (Alg. 3 lines 5–11), 2 local stages advanced (lines 12–15; how many: `localAdvances`), 4 the
   *  global stage advanced (lines 16–18; CLCB-Frozen-Cont: its stage, Alg. 6), 8 the switch
   *  changed the cache (Alg. 4 lines 17–18: `inserted`, `removed`). */
  events: Uint8Array;
  localAdvances: Uint32Array;
  /** As the policy decided: the round key of the nearest member of its cache `M_t` (−1: empty
   *  cache; for a hit, the cached answer served, Alg. 5 line 12). */
  nearestKey: Int32Array;
  /** `d(x, M_t)` to that member (`Infinity` for an empty cache) and `φ(d)`. */
  d: Float64Array;
  phi: Float64Array;
  /** The acting cost at the round's center when it decided (`c̲` for the CLCB policies; it calls
   *  the LLM iff `c̲ ≤ φ`, Alg. 5 lines 4–6), `NaN` for policies without one. */
  acting: Float64Array;
  /** The members (round keys) the round's switch put in and took out (Alg. 3 lines 5–11: a new
   *  center forces a switch; Alg. 4 at a stage's end), sorted. */
  inserted: Uint32Array[];
  removed: Uint32Array[];
}

/** What `OnlineRun.ask(x, tokens, text)` played (issue 14, "Ask a question"): one round, as a
 *  `StepBatch`, plus what explains each policy's decision. */
export interface AskResult extends StepBatch {
  /** `c(x)`: the token count min-max normalised over the dataset (SPEC §2), clamped to `[c_floor, 1]`. */
  cost: number;
  /** Per policy: what `acting` is, `"c̲"` (a lower confidence bound: the CLCB family) or `"ĉ"`
   *  (a center's mean cost: the baselines); `""` for policies without one. */
  actingSymbol: string[];
  /** Per policy, before the question's round changed anything: the round key of the nearest
   *  member of the cache it met, `M_{t−1}` (−1: empty), `d`, `φ(d)`, and `|M_{t−1}|`. */
  beforeKey: Int32Array;
  beforeD: Float64Array;
  beforePhi: Float64Array;
  beforeSize: Uint32Array;
  /** The five universe questions nearest to `x`: row, `d`, text. */
  universe: { index: Uint32Array; d: Float64Array; text: string[] };
}

/** The metrics of one policy at one point of a run (Rust: `csc::online::sim::Checkpoint`). */
export interface Checkpoint {
  t: number; regret: number; avg_regret: number; realised_cost: number; avg_realised_cost: number;
  hit_rate: number; llm_calls: number; switches: number; switch_cost: number;
  /** The regret's loss part `Σ[L(M_s) − L(M_orc)]`, and it and `switch_cost` per round. */
  loss_gap: number; avg_loss_gap: number; avg_switch_cost: number; loss: number;
  cache_size: number; est_rmse: number | null; est_mae: number | null; est_max: number | null;
  /** SPEC §14: wrong hits / t, correct hits / hits, wrong hits; null without ground truth (precision: or hits). */
  error_rate: number | null; hit_precision: number | null; wrong_hits: number | null; wall_ms: number;
}

/** A policy's ε-net centers as it sees them (for hovering a center). */
export interface CenterDetails {
  /** Round whose arrival created each center. */
  keys: Uint32Array;
  xy: Float64Array;
  count: Float64Array;
  /** `ŵ = N_f / t`. */
  weight: Float64Array;
  /** KRR or empirical mean of the cost. */
  estimate: Float64Array;
  /** The cost the policy acts on (LCB for the CLCB family, mean for the baselines). */
  actingCost: Float64Array;
  /** Posterior standard deviation (KRR policies; NaN otherwise). */
  sd: Float64Array;
  cached: Uint8Array;
  /** For cached centers: how much `L̂` would rise without it. */
  contribution: Float64Array;
}

/** The recorded curves of one policy (about 200 points over the horizon). */
export interface Curves {
  t: Float64Array; avgRegret: Float64Array; switches: Float64Array; avgRealisedCost: Float64Array;
  hitRate: Float64Array; loss: Float64Array; estRmse: Float64Array;
}

/** A cache: its members' keys (arrival rounds) and 2-D positions. */
export interface CacheView { keys: Uint32Array; xy: Float64Array; }

/** A KRR cost surface on an `n × n` grid over the unit square (row-major, y outer). */
export interface Heatmap { n: number; mean: Float64Array; sd: Float64Array; }

/** One policy's finished run (Rust: `csc::online::sim::RunResult`). */
export interface RunResult {
  /** The policy's id (its display name: `policies()`). */
  policy: PolicyId; oracle_loss: number; checkpoints: Checkpoint[]; last: Checkpoint;
  diagnostics: Record<string, number> | null;
}

/** Online algorithm ids: the ids of `policies()` (checked against `csc::algorithms` by tests/catalog.rs). */
export type PolicyId = "clcb-sc-ls-cont" | "clcb-frozen-cont" | "clcb-sc-ls" | "greedy" | "epsilon-greedy" | "lfu" | "lru" | "threshold" | "vcache" | "oracle";

/** An experiment definition (Rust: `csc::experiment::ExperimentSpec`). */
export interface ExperimentSpec {
  id: string; title?: string; dataset: "synthetic" | "nq-trivia" | "plane" | DatasetSpec;
  measure: { kind: "offline"; algorithms: string[] } | { kind: "online"; policies: PolicyId[] }
    | { kind: "frontier"; families: { policy: PolicyId; label?: string; param?: string; values?: number[]; set?: Partial<Params> }[] };
  sweep?: { param: string; values: number[]; by?: { param: string; values: number[] } } | null;
  params?: Partial<Params>; seeds: number; first_seed?: number;
}

/** Options of `Dataset.fromJsonl` (all but `onProgress` for user data only) and `Dataset.nqTrivia`. */
export interface LoadOptions {
  /** The record field whose values are the groups of the `bursty` arrival model. */
  groupBy?: string | null;
  /** An index file of arrivals for `replay`: one record id (or row number from 0) per line. */
  replayIndex?: Uint8Array | number[] | null;
  /** The index file's name, for messages. */
  replayIndexName?: string | null;
  /** Called as the distance scale is measured: rows compared so far, of all rows. */
  onProgress?: ((rowsDone: number, rows: number) => void) | null;
  /** `Dataset.nqTrivia` only: the text of nq.answers.jsonl and triviaqa.answers.jsonl (both or
   *  neither), the gold answers of SPEC §14; without them the correctness metrics are absent. */
  nqAnswers?: string | null;
  tqAnswers?: string | null;
}

/** An arrival model by name with its parameters (Rust: `csc::stream::ArrivalSpec`; SPEC §7). */
/** A dataset object of a definition (Rust: `csc::experiment::DatasetSpec`): the user's files
 *  (named, with their checksum) or a built-in, with an arrival model. */
export interface DatasetSpec {
  builtin?: "synthetic" | "nq-trivia" | "plane"; jsonl?: string; embeddings?: string; dim?: number;
  checksum?: string; arrival?: ArrivalSpec;
}

export type ArrivalSpec =
  | { model: "uniform" | "popularity" | "plane" }
  | { model: "bursty"; group_by?: string }
  | { model: "replay"; index?: string; index_checksum?: string };

/** One aggregated point: mean, standard deviation and 95% CI half-width over seeds. */
/** `algorithm`: the algorithm's id (display name: `policies()`, `offlineAlgorithms()`), or a series name (geometry). */
export interface Stat { algorithm: string; metric: string; x: number | null; y?: number | null; n: number; mean: number | null; std: number | null; ci95: number | null; }

/** A finished experiment (Rust: `csc::experiment::Report`); `units` holds every seed's raw result. */
/** One claim of the paper checked against a run (Rust: `csc::experiment::HeadlineRow`). */
export interface HeadlineRow {
  what: string; metric: string; x: number | null; paper: string; measured: number | null; ci95: number | null;
  unit: string; measured_text: string; n: number;
  verdict: "reproduced" | "not-reproduced" | "not-distinguishable" | "not-run" | "measured";
  verdict_text: string; test: string; source: string; why: string; identical: string | null;
}
/** A preset's headline table: each claim with its verdict; `interval` says what "±" means. */
export interface Headline { preset: string; interval: string; rows: HeadlineRow[]; }
export interface Report {
  experiment: ExperimentSpec;
  /** What ran, in words, generated from `experiment`. */
  description: string;
  engine: string; stats: Stat[]; units: unknown[];
  /** The paper's claims for this preset with verdicts; absent for other experiments. */
  headline?: Headline;
}
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "PolicyId[]")]
    pub type JsPolicyIds;
    #[wasm_bindgen(typescript_type = "ExperimentSpec | string")]
    pub type JsExperiment;
    #[wasm_bindgen(typescript_type = "(roundsDone: number) => boolean")]
    pub type JsProgress;
}

/// Largest horizon an `OnlineRun` accepts (it keeps the generated stream in memory).
pub const MAX_LIVE_HORIZON: usize = 1_000_000;

/// The limits of a run held in the page: at most [`MAX_LIVE_HORIZON`] rounds, and a stream
/// that fits the browser's memory ([`super::convert::stream_fits`]). Shared by `OnlineRun` and
/// the benchmark's `BenchOnline`.
pub(crate) fn live_run_fits(params: &crate::config::Params, dim: usize) -> JsResult<()> {
    if params.horizon > MAX_LIVE_HORIZON {
        return Err(js_err(Error::param(
            "horizon",
            format!("a live run holds at most {MAX_LIVE_HORIZON} rounds, got {}", params.horizon),
        )));
    }
    super::convert::stream_fits(params, dim)
}

pub use super::experiment_run::{experiment_definition, JsExperimentRun};
pub use super::online_run::JsOnlineRun;
