//! TypeScript declarations of the plain objects that cross the boundary, appended to the
//! generated `csc.d.ts`; the exports name them with `unchecked_return_type` and, for optional
//! object parameters, the imported types below, so no signature of the API is `any`.
//!
//! Two kinds, two sources:
//! - objects serialised from a Rust value by serde (`Params`, `Report`, `UrlState`, …): their
//!   declarations are generated from the Rust types by ts-rs (`typescript.rs`) into
//!   `generated/types.d.ts`, included here; `tests/ts_types.rs` fails when it is stale;
//! - objects the bindings build field by field (typed arrays: `EpsilonNetResult`, `LiveFrame`,
//!   …) and the options objects they read by hand (`LoadOptions`): declared in `TS_HAND_BUILT`
//!   below, the one hand-written place; `scripts/smoke_pkg.mjs` calls each export that returns one
//!   and checks the object's keys and value kinds against the interface in the shipped `csc.d.ts`.
//!   (The benchmark's own objects stay in `bench.rs`.)

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

/// The declarations generated from the Rust types (`typescript.rs`, `tests/ts_types.rs`).
#[wasm_bindgen(typescript_custom_section)]
const TS_GENERATED: &'static str = include_str!("generated/types.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const TS_HAND_BUILT: &'static str = r#"
// Objects the bindings build by hand (not serde values); scripts/smoke_pkg.mjs checks them.

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

/** One frame of the live run (`OnlineRun.step(n, heatN)`, the page's one engine call per
 *  animation frame): what changed since the last frame and the views the page draws. Per round,
 *  and per policy in `policies` order (policy-major within a round: entry `round * policies.length + p`). */
export interface LiveFrame {
  /** Rounds played so far. */
  round: number;
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
  /** As the policy decided: the round key of the nearest member of its cache `M_t` (−1: empty
   *  cache; for a hit, the cached answer served). */
  nearestKey: Int32Array;
  /** `d(x, M_t)` to that member (`Infinity` for an empty cache) and `φ(d)`. */
  d: Float64Array;
  phi: Float64Array;
  /** The acting cost at the round's center when it decided (it calls the LLM iff it is ≤ φ),
   *  `NaN` for policies without one. */
  acting: Float64Array;
  /** What fired (`csc::live::RoundEvent`), sparse: each with the entry it fired in, in the
   *  order the rounds happened. */
  events: FrameEvent[];
  /** Every policy's counters now. */
  counters: Checkpoint[];
  /** Per policy, the curve points recorded since the last frame (append them). */
  curves: Curves[];
  /** Per policy, its ε-net centers now. */
  centers: CenterDetails[];
  /** Per policy, its KRR cost surface when asked for (`heatN`, 2-D data; `null` for policies
   *  without a kernel model), else `null`. */
  heat: (Heatmap | null)[] | null;
}

/** What a policy written in JavaScript is shown each round (`OwnPolicy.decide`; docs/JS-API.md,
 *  "Your own policy"). Valid during the call only: copy `x` (`Float32Array.from(a.x)`) to keep it. */
export interface OwnPolicyArrival {
  /** The round, from 0. */
  round: number;
  /** The arrival's vector: a view of the engine's memory, read it during the call. */
  x: Float32Array;
  /** The policy's cache members in the order it named them: the round of each member's arrival. */
  members: Uint32Array;
  /** `d(x, member)` on the run's distance scale (SPEC §3), one per member, in that order. */
  distances: Float64Array;
}

/** A caching policy written in JavaScript: the default export of its module (an object, or a
 *  class the page instantiates with `new`). Every answer is validated by the engine; a throw, a
 *  wrong type, a member it does not hold, more than `k` members, a round not yet arrived or
 *  named twice stops it with one message naming the round. */
export interface OwnPolicy {
  /** Told once before round 0: `k`, the dimension, `T` and the threshold cache's `τ`. */
  start?(setup: Setup): void;
  /** Serve from member `i` (its index in `arrival.members`) or call the LLM (`"llm"`). */
  decide(arrival: OwnPolicyArrival): number | "llm";
  /** After an LLM call in `round`: its observed cost `c(x) + η`. Return nothing to keep the
   *  cache, or its new members as rounds `≤ round` (at most `k`, none twice); the new cache
   *  serves from the next round. */
  observe(cost: number, round: number): number[] | undefined | null | void;
  /** A short sentence on the last decision (the live view's "why this round"). */
  explain?(): string;
}

/** The rounds `OwnPolicyRun.step(n)` played: per round the policy's decision, as a `LiveFrame`
 *  gives them for one policy, its explanations, its counters and curve points, and its fault. */
export interface OwnPolicyFrame {
  /** Rounds played so far. */
  round: number;
  /** Round index of each played round (from 0). */
  t: Uint32Array;
  /** 1 if it called the LLM, 0 if it served from its cache. */
  llm: Uint8Array;
  /** 1 if the cache serving the round differs from the previous round's. */
  switched: Uint8Array;
  /** What the round cost: `c(x)` for an LLM call, `φ(d(x, m))` for a hit from member `m`. */
  realised: Float64Array;
  /** SPEC §14: 1 a wrong answer served, 0 a correct one, −1 an LLM call or no ground truth. */
  wrong: Int8Array;
  /** Its `explain()` after each round (`null`: none); empty when it has no `explain`. */
  notes: (string | null)[];
  /** Its counters now. */
  counters: Checkpoint;
  /** The curve points recorded since the last frame (append them). */
  curves: Curves;
  /** Why it stopped ("the policy stopped in round 7: …"), or `null`. */
  stopped: string | null;
}

/** What `OnlineRun.ask(x, tokens, text)` played ("Ask a question"): one round, as a
 *  `LiveFrame`, plus what explains each policy's decision. */
export interface AskResult extends LiveFrame {
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

/** Recorded curve points of one policy (about 200 over the horizon; a `LiveFrame` carries the new ones). */
export interface Curves {
  t: Float64Array; avgRegret: Float64Array; switches: Float64Array; avgRealisedCost: Float64Array;
  hitRate: Float64Array; loss: Float64Array; estRmse: Float64Array;
}

/** A cache: its members' keys (arrival rounds) and 2-D positions. */
export interface CacheView { keys: Uint32Array; xy: Float64Array; }

/** A KRR cost surface on an `n × n` grid over the unit square (row-major, y outer). */
export interface Heatmap { n: number; mean: Float64Array; sd: Float64Array; }

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
"#;
