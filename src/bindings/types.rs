//! TypeScript declarations of the plain objects that cross the boundary. They are appended to the
//! generated `csc.d.ts`; the exports name them with `unchecked_return_type` and, for optional
//! object parameters, the imported types below, so no signature of the API is `any`. Keep each interface in step
//! with the Rust value it describes (named in its doc line).

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A `Phi` object from JS (typed in the `.d.ts`; checked when read, as any input is). As an
    /// `Option<JsPhi>` parameter it is optional in TypeScript (`phi?: Phi | null`).
    #[wasm_bindgen(typescript_type = "Phi")]
    pub type JsPhi;

    /// A partial `Params` object from JS (missing keys take their defaults).
    #[wasm_bindgen(typescript_type = "Partial<Params>")]
    pub type JsPartialParams;
}

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Which mismatch cost `φ` (SPEC §3); `Params.phi` and `Phi.kind`. */
export type PhiKind = "clipped_linear" | "clipped_quadratic";

/**
 * The mismatch cost `φ` (SPEC §3): `clipped_linear` is `min(ζ·d, 1)`, `clipped_quadratic` is
 * `min((ζ·d)², 1)`. Optional wherever accepted; the default is `{ kind: "clipped_linear", zeta: 1 }`.
 * (Rust: `csc::mismatch::Mismatch`.)
 */
export interface Phi {
  kind: PhiKind;
  /** `ζ > 0`. */
  zeta: number;
}

/**
 * Every parameter of a run with its SPEC default (Rust: `csc::config::Params`). The keys are
 * those of the engine's JSON configuration. `defaultParams()` gives all of them;
 * `validateParams()` accepts any subset and returns the resolved set.
 */
export interface Params {
  /** Cache size `k` (SPEC §3). Default 5. */
  k: number;
  /** Mismatch function `φ` (SPEC §3). Default `"clipped_linear"`. */
  phi: PhiKind;
  /** Mismatch scale `ζ` (SPEC §3). Default 1. */
  zeta: number;
  /** Floor of the normalised token cost `c_floor` (SPEC §2). Default 0.01. */
  c_floor: number;
  /** Observation noise standard deviation `R` (SPEC §2). Default 0.05. */
  noise_r: number;
  /** ε-net radius `ε` (SPEC §4). Default 0.4. */
  epsilon: number;
  /** Radius `ε_o` of the oracle's candidate net (SPEC §5). Default 0.02. */
  eps_oracle: number;
  /** Evaluation sample size `n_eval` (SPEC §3). Default 10000. */
  n_eval: number;
  /** RBF length scale `ℓ_k` (SPEC §6). Default 0.2. */
  kernel_length: number;
  /** Ridge `λ` (SPEC §6). Default 0.1. */
  lambda: number;
  /** RKHS norm bound `B` (SPEC §6). Default 1. */
  b: number;
  /** Confidence `δ` (SPEC §6). Default 0.05. */
  delta: number;
  /** Online confidence scale `β` (SPEC §6, §13). Default 1. */
  beta: number;
  /** Offline confidence scale `β_off` (SPEC §6, §13). Default 1. */
  beta_off: number;
  /** Online horizon `T` (SPEC §9). Default 5000. */
  horizon: number;
  /** Offline log length `n` (SPEC §8). Default 1000. */
  log_len: number;
  /** Logging propensity `ν` (SPEC §8). Default 0.5. */
  propensity: number;
  /** Synthetic arrival noise `σ_e` (SPEC §7); `null` = calibrated to a median distance of 0.074. */
  synthetic_sigma: number | null;
  /** Mean nq-trivia burst length (SPEC §7). Default 100. */
  burst_mean: number;
  /** Epsilon-Greedy exploration rate (SPEC §9). Default 0.1. */
  explore_rate: number;
  /** Threshold-cache hit radius `τ` (SPEC §9). Default 0.15. */
  threshold_tau: number;
  /** Threshold-cache radius as a cosine similarity `s`: when set it overrides `threshold_tau`
   * with `τ = √(2(1 − s))/D` (GPTCache's defaults: 0.6). Default `null`. */
  threshold_cosine: number | null;
  /** vCache's error bound `δ` (SPEC §15). Default 0.01. */
  vcache_delta: number;
  /** CLCB-Frozen-Cont Lipschitz constant `L_g`. Default 1. */
  lipschitz: number;
  /** CLCB-Frozen-Cont constant `C_p`. Default 0.1. */
  c_p: number;
  /** Seed of every random draw of a run (a safe integer ≥ 0). Default 0. */
  seed: number;
}

/** What a result reports about its dataset (Rust: `csc::dataset::DatasetInfo`). */
export interface DatasetInfo {
  name: string;
  size: number;
  dim: number;
  /** `D`: distances are `‖x − y‖ / D`. */
  dist_scale: number;
  /** First 16 hex digits of the sha256 of the dimension, vectors and token counts. */
  checksum: string;
  /** Why the dataset has no ground truth (SPEC §14); absent when it has one. */
  no_ground_truth?: string;
  /** What loading changed or found in the data (e.g. rows not of unit norm); absent when none. */
  notes?: string[];
}

/** The result of `epsilonNet`. */
export interface EpsilonNetResult {
  /** Indices of the points that became centers, in arrival order (center id = position here). */
  centers: Uint32Array;
  /** For each point, the id of the center it was assigned to on arrival (SPEC §11.1). */
  assignment: Uint32Array;
  /** For each point, its distance to that center (0 for the centers themselves). */
  distances: Float64Array;
  /** For each point, the id of its nearest final center: its Voronoi cell. */
  cells: Uint32Array;
}

/** A chosen cache: the result of `reverseGreedy` and `exactOptimum` (Rust: `Outcome`). */
export interface CacheResult {
  /** Indices of the cached points, ascending. */
  cache: Uint32Array;
  /** `L̂(cache)`, the discretised loss (eq. 4). */
  loss: number;
  /** Points in the order Reverse Greedy removed them (empty for the exact optimum). */
  removed: Uint32Array;
}

/** The result of `krrPosterior`, one entry per query point (SPEC §6). */
export interface KrrPosterior {
  /** Posterior mean `ĉ(x)`. */
  mean: Float64Array;
  /** Posterior standard deviation `σ(x)`. */
  sd: Float64Array;
  /** Information gain `γ = ½ log det(I + K/r)` of the observations (ridge `r`). */
  gamma: number;
  /** Pivots of the Cholesky factor floored to stay positive (duplicate points with a tiny ridge,
   *  huge length-scales): 0 normally; when > 0 the fit used a small diagonal jitter. */
  jitterEvents: number;
}

/** One stage of the determinism workload with the hash of its results. */
export interface StageHash {
  stage: "stream" | "epsilon_net" | "reverse_greedy" | "krr";
  hash: string;
}

/** The result of `determinismReport` (Rust: `csc::checksum::DeterminismReport`). */
export interface DeterminismReport {
  seed: number;
  /** First 16 hex digits of the sha256 of every result's bit pattern. */
  checksum: string;
  stages: StageHash[];
  /** `[Σ posterior means, Σ posterior variances, γ]` of the KRR stage. */
  krr_summary: [number, number, number];
}

/** The result of `nativeDeterminismReport`: the committed native report for seed 0. */
export interface NativeDeterminismReport extends DeterminismReport {
  /** Stages that are bit-identical on every platform. */
  portable: StageHash["stage"][];
}
"#;
