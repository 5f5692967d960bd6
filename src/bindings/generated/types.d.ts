// Generated from the Rust types by ts-rs (src/bindings/typescript.rs); do not edit.
// After changing a serialised type, regenerate with `CSC_BLESS=1 cargo test --test ts_types`.

/**
 * One algorithm as the user sees it.
 */
export type AlgorithmInfo = {
  /**
   * The id: `"clcb-sc-ls-cont"`, … (the serde name of the enum variant).
   */
  id: string,
  /**
   * The paper's name, for tables and charts: `"CLCB-SC-LS-Cont"`, ….
   */
  name: string,
  /**
   * One sentence on what it does.
   */
  description: string,
  /**
   * Where the paper (or SPEC) defines it.
   */
  paper: string,
  /**
   * How charts draw it.
   */
  style: ChartStyle,
};

/**
 * One arrival model as a reader sees it (the one list, [`ARRIVALS`]: `csc list`, the page's
 * "Arrivals" menu and [`ArrivalSpec::parse`]'s message read it).
 */
export type ArrivalInfo = {
  /**
   * The name `--arrival` and the `model` of a definition take.
   */
  id: string,
  /**
   * A short label for a menu.
   */
  label: string,
  /**
   * One line: how arrivals are drawn.
   */
  doc: string,
  /**
   * The paper's numbering and/or `SPEC-NOTES#anchor` (as [`crate::config::ParamInfo`]).
   */
  reference: string,
  /**
   * Whether it applies to a user's dataset (`plane` belongs to the plane dataset).
   */
  user: boolean,
};

/**
 * An arrival model as a user names it (CLI `--arrival`, the `arrival` of a dataset object in an
 * experiment definition). Its numbers come from the parameters (`synthetic_sigma` for
 * `uniform`, `burst_mean` for `bursty`, SPEC §7); the groups of `bursty` from the record field
 * `group_by` of a user dataset (the built-in nq-trivia's groups are its two sources).
 */
export type ArrivalSpec = { "model": "uniform" } | { "model": "bursty", group_by?: string | null, } | { "model": "popularity" } | { "model": "replay", index?: string | null, index_checksum?: string | null, } | { "model": "plane" } | { "model": "tenants", tenants?: number | null, overlap?: number | null, tenant_by?: string | null, };

/**
 * One policy at one attack probability of an `attack` report.
 */
export type AttackPoint = {
  policy: PolicyId,
  p: number,
  error_rate: Interval | null,
  /**
   * Right hits over judged hits, over the seeds with a hit.
   */
  hit_precision: Interval | null,
  wrong_per_1000: Interval | null,
  cost: Interval | null,
  hit_rate: Interval | null,
  /**
   * Rounds attacked over rounds.
   */
  attack_share: Interval | null,
  /**
   * Wrong hits whose arrival lies below d from the entry that served it.
   */
  confusable_serves: Interval | null,
};

/**
 * Theorem 5.1's four terms at the run's end T, each with its `O(·)` constant set to 1 ("up to
 * constants": their shapes in T, never a bound that holds as printed), averaged over the seeds
 * that measured them ([`crate::online::theory::BoundTerms`]), beside the measured Reg(T).
 */
export type BoundAtT = {
  /**
   * Reg(T), mean over the seeds.
   */
  regret: number,
  /**
   * Cost `β_T·√(T·γ_T)`.
   */
  cost: number | null,
  /**
   * Arrival `√(m_eff·T·ln T)`.
   */
  arrival: number | null,
  /**
   * Discretisation `(1 + 2α)·L_g·√T` (α = 1).
   */
  discretisation: number | null,
  /**
   * Switching `k·m_max·ln ln T`.
   */
  switching: number | null,
  /**
   * The largest of the four: `"cost"`, `"arrival"`, `"discretisation"` or `"switching"`.
   */
  largest: string,
  /**
   * Seeds averaged.
   */
  n: number,
};

/**
 * Theorem 5.1's four terms at round t with every `O(·)` constant set to 1 ("up to
 * constants"): never a bound that holds as printed, only its shape in t.
 */
export type BoundTerms = {
  /**
   * Cost: `β_t·√(t·γ_t)` (Thm. 5.1).
   */
  cost: number | null,
  /**
   * Arrival: `√(m_eff·t·ln t)` (Thm. 5.1).
   */
  arrival: number | null,
  /**
   * Discretisation: `(1 + 2α)·L_g·√t` with `α = 1` and `L_g` the run's `lipschitz` (Thm. 5.1).
   */
  discretisation: number,
  /**
   * Switching: `k·m_max·ln ln t`, `ln ln t` taken as 0 below t = e where it is negative
   * (Thm. 5.1, Lemma 5.3).
   */
  switching: number | null,
};

/**
 * Counters of the cell baselines.
 */
export type CellDiagnostics = {
  /**
   * ε-net centers.
   */
  centers: number,
  /**
   * Costs observed (LLM calls).
   */
  observations: number,
};

/**
 * How the page draws a figure's report (www/js/views/paper.js maps each kind to its charts).
 */
export type ChartKind = "offline" | "online" | "krr-error" | "geometry" | "report";

/**
 * How a chart draws an algorithm: a colour of the Okabe–Ito palette (colour-blind safe), and a
 * marker and a dash pattern so the series stay apart in greyscale. An online method and its
 * offline counterpart share a style (CLCB-SC-LS-Cont and CUCB-SC-Cont, CLCB-SC-LS and CUCB-SC),
 * as do the baselines of the same id in both lists.
 */
export type ChartStyle = {
  /**
   * `#rrggbb`.
   */
  colour: string,
  /**
   * One of `circle`, `square`, `triangle-up`, `triangle-down`, `diamond`, `plus`, `cross`,
   * `star`, `hexagon`.
   */
  marker: string,
  /**
   * The dash pattern, on and off lengths in pixels (`[]`: solid), as canvas `setLineDash` and
   * matplotlib's `(0, (on, off, …))` take it.
   */
  dash: Array<number>,
};

/**
 * The metrics at one point of a run.
 */
export type Checkpoint = {
  /**
   * Rounds completed.
   */
  t: number,
  /**
   * `Reg(t)`.
   */
  regret: number,
  /**
   * `Reg(t)/t`.
   */
  avg_regret: number,
  /**
   * Σ realised cost so far.
   */
  realised_cost: number,
  /**
   * Realised cost per round.
   */
  avg_realised_cost: number,
  hit_rate: number,
  llm_calls: number,
  /**
   * Switches so far: rounds whose cache set differs from the previous round's (module docs).
   */
  switches: number,
  /**
   * Σ switching costs so far (SPEC §11.5: Σ `c(u)` over newly fetched members).
   */
  switch_cost: number,
  /**
   * The loss part of `Reg(t)`: `Σ_{s≤t} [L(M_s) − L(M_orc)]` (paper §5, the regret's first
   * sum; SPEC §9). `regret` = `loss_gap` + `switch_cost` up to rounding.
   */
  loss_gap: number,
  /**
   * `loss_gap / t`: the average loss gap.
   */
  avg_loss_gap: number,
  /**
   * `switch_cost / t`: the average switching cost.
   */
  avg_switch_cost: number,
  /**
   * `L(M_t)` of the current cache.
   */
  loss: number,
  /**
   * `|M_t|`: the number of items in the current cache (fewer than k for a policy that has not
   * filled it, e.g. CLCB-Frozen-Cont still in an early stage).
   */
  cache_size: number,
  /**
   * Estimation error at the policy's centers against true costs, if it estimates costs.
   */
  est_rmse: number | null,
  est_mae: number | null,
  est_max: number | null,
  /**
   * SPEC §14 error rate `E(t)`: wrong hits over rounds so far; `None` without ground truth.
   */
  error_rate: number | null,
  /**
   * SPEC §14 hit precision: correct hits over hits; `None` without ground truth or hits.
   */
  hit_precision: number | null,
  /**
   * Wrong hits so far: rounds served from the cache by a nearest item whose label is not
   * equivalent to the arrival's (SPEC §14); `None` without ground truth.
   */
  wrong_hits: number | null,
  /**
   * Time spent inside the policy so far (ms). For a policy that keeps an ε-net this includes
   * the scan of each arrival as measured once for the run's shared net: what the policy would
   * have spent scanning on its own, whichever policy did the scan.
   */
  wall_ms: number,
  /**
   * The paper's guarantee's quantities at this point ([`super::theory`]): read-only observations
   * of the run, `None` only in a default checkpoint.
   */
  theory: TheoryPoint | null,
};

/**
 * How the live view colours the arrivals (the page state's `colour`, the link's `colour=`).
 */
export type Colouring = "auto" | "decision" | "cell";

/**
 * One dataset as a reader sees it.
 */
export type DatasetEntry = {
  /**
   * The id of the CLI (`--dataset`), definitions and the page's link (`upload`: the user's file).
   */
  id: string,
  /**
   * A short label for a menu.
   */
  label: string,
  /**
   * One line: what the queries are.
   */
  doc: string,
  /**
   * Its arrival model when none is named (an id of `stream::ARRIVALS`).
   */
  arrival: string,
  /**
   * The paper's numbering and/or `SPEC-NOTES#anchor` (as `config::ParamInfo`).
   */
  reference: string,
};

/**
 * Which dataset an experiment uses: a built-in by name (`"synthetic"`, `"nq-trivia"`,
 * `"plane"`) or a dataset object ([`DatasetSpec`]): the user's files, or a built-in with a
 * chosen arrival model.
 */
export type DatasetId = "synthetic" | "nq-trivia" | "plane" | DatasetSpec;

/**
 * What a result reports about its dataset.
 */
export type DatasetInfo = {
  name: string,
  size: number,
  dim: number,
  dist_scale: number,
  checksum: string,
  /**
   * Why the dataset has no ground truth (SPEC §14), so its correctness metrics are absent;
   * not written when it has one.
   */
  no_ground_truth?: string | null,
  /**
   * What loading changed in the data (e.g. rows normalised to unit length); not written
   * when empty.
   */
  notes?: Array<string>,
};

/**
 * A dataset object of an experiment definition:
 * `{"jsonl": "my.jsonl", "embeddings": "my.emb.f32", "dim": 384, "arrival": {"model": "replay"}}`
 * or `{"builtin": "nq-trivia", "arrival": {"model": "popularity"}}`. Relative paths are read
 * from the definition's folder (CLI). `checksum`, when given, must match the loaded data (the
 * CLI fills it in, so a report names exactly the data it ran on).
 */
export type DatasetSpec = {
  builtin?: string | null,
  jsonl?: string | null,
  embeddings?: string | null,
  dim?: number | null,
  checksum?: string | null,
  arrival?: ArrivalSpec | null,
};

/**
 * A query string read leniently: the usable state and one message per key that was not used.
 */
export type DecodedUrlState = {
  state: UrlState,
  errors: Array<string>,
  /**
   * What the page hides ([`UrlState::hidden`]: an embedded page's defaults and the link's
   * `hide`; hide flags only ever remove).
   */
  hidden: Array<string>,
};

/**
 * vCache's δ at one attack probability: its error rate's interval over seeds against δ.
 */
export type DeltaCheck = {
  p: number,
  delta: number,
  error_rate: Interval,
  /**
   * `holds`, `violated`, `not decided` or `not decided (one seed)`;
   * `not decided (run incomplete)` while units are missing.
   */
  verdict: string,
  /**
   * The sentence of the CLI's report.
   */
  words: string,
};

/**
 * The outcome of the determinism workload.
 */
export type DeterminismReport = {
  seed: number,
  /**
   * First 16 hex digits of the sha256 over all stages' results, in order.
   */
  checksum: string,
  /**
   * Per-stage hashes: `stream`, `epsilon_net`, `reverse_greedy`, `krr`.
   */
  stages: Array<StageHash>,
  /**
   * `[Σ posterior means, Σ posterior variances, γ]` of the KRR stage: how far two platforms
   * whose `krr` hashes differ are apart.
   */
  krr_summary: [number, number, number],
};

/**
 * The counters of one policy.
 */
export type Diagnostics = null | LowSwitchDiagnostics | CellDiagnostics | FrozenDiagnostics | VCacheDiagnostics;

/**
 * How a point compares with the reference in one quantity (lower is better for both cost and
 * error rate).
 */
export type Difference = "reference" | "identical" | "lower" | "not-distinguishable" | "higher" | "pending";

/**
 * The direction part of a verdict.
 */
export type Direction = "holds" | "fails" | "undecided";

/**
 * How the page is embedded (the link's `embed=`): `1` the page without its controls and text
 * (plus whatever `hide` names), `figure` one chart of the open view with its caption and the
 * attribution link, sized to its iframe; no key (or `0`): not embedded.
 */
export type Embed = "page" | "figure";

/**
 * The eviction rule of the threshold cache and vCache (SPEC §9, §15), when they hold `k` entries
 * and admit another ([`crate::online::eviction`]).
 */
export type Eviction = "lru" | "gdsf";

/**
 * A complete experiment definition (also readable from JSON).
 */
export type ExperimentSpec = {
  id: string,
  title: string,
  dataset: DatasetId,
  measure: Measure,
  sweep: Sweep | null,
  /**
   * Base parameters (SPEC defaults for anything not given).
   */
  params: Params,
  seeds: number,
  /**
   * First seed (seeds are `first_seed .. first_seed + seeds`).
   */
  first_seed: number,
};

/**
 * One family of a [`Measure::Frontier`]: a policy with one parameter over values, or a point.
 */
export type Family = {
  policy: PolicyId,
  /**
   * The series' name in tables and charts (default: the policy's name); results stay keyed
   * by the policy's id (`Stat.algorithm_id`). Names must differ between families.
   */
  label?: string | null,
  /**
   * The parameter swept; `None`: a single point at the (family's) base parameters.
   */
  param?: string | null,
  values?: Array<JsonValue>,
  /**
   * Parameters set for this family only (e.g. the GPTCache preset's `threshold_cosine`).
   */
  set?: { [key in string]: JsonValue },
};

/**
 * One event of a frame as the page receives it: the entry it fired in (`round · policies +
 * policy`, the index of the frame's per-round, per-policy arrays) and what fired.
 */
export type FrameEvent = {
  at: number,
  event: RoundEvent,
};

/**
 * A frontier's points compared with one reference point (the JSON report's `frontier`).
 */
export type FrontierComparison = {
  /**
   * The reference's experiment point.
   */
  reference: number,
  /**
   * Its configuration in words.
   */
  reference_config: string,
  /**
   * [`crate::experiment::frontier::FRONTIER_METHOD`].
   */
  method: string,
  rows: Array<FrontierRow>,
  /**
   * One sentence when no point is distinguishable from the reference in either quantity
   * (only for a report that holds every unit of its experiment).
   */
  undecided: string | null,
  /**
   * One sentence when the report does not hold every unit of its experiment yet (a run in
   * progress, a cancelled run, a shard): how many it holds, and that nothing is decided.
   */
  incomplete: string | null,
  /**
   * Why a family's average regret is the same at every value of its parameter, where it is
   * ([`crate::experiment::Report::flat_regret_notes`]); none while the report is incomplete.
   */
  notes: Array<string>,
};

/**
 * One row of the comparison: a point, its intervals, and its paired differences.
 */
export type FrontierRow = {
  /**
   * The experiment point ([`crate::experiment::ExperimentSpec::family_of`]).
   */
  point: number,
  /**
   * Its configuration in words: `Threshold, threshold_tau = 0.3`.
   */
  config: string,
  /**
   * The intervals of [`crate::experiment::frontier::FRONTIER_METRICS`] in order (`None` where not measured).
   */
  intervals: Array<Interval | null>,
  /**
   * Realised cost minus the reference's.
   */
  cost: Paired | null,
  /**
   * Error rate minus the reference's (`None` without ground truth).
   */
  error: Paired | null,
};

/**
 * Counters of CLCB-Frozen-Cont.
 */
export type FrozenDiagnostics = {
  /**
   * Distinct arrivals seen.
   */
  distinct_arrivals: number,
  /**
   * The candidate pool of the current stage.
   */
  pool: number,
  /**
   * Costs observed (LLM calls).
   */
  observations: number,
  /**
   * The current stage `s`.
   */
  stage: number,
};

/**
 * A run's headline table.
 */
export type Headline = {
  /**
   * The preset the claims belong to (`fig-a`, …).
   */
  preset: string,
  /**
   * What "±" means ([`super::INTERVAL`]).
   */
  interval: string,
  /**
   * The winner, first (absent when no claim names a lowest).
   */
  lead: Lead | null,
  rows: Array<HeadlineRow>,
};

/**
 * One row of a headline table.
 */
export type HeadlineRow = {
  what: string,
  metric: string,
  /**
   * The x the claim is read at (`None` for the final value).
   */
  x: number | null,
  /**
   * The paper's number with its unit (`"73.32 %"`), or its words (`"lowest"`).
   */
  paper: string,
  /**
   * The measured number (reduction in %, ratio, value), when the claim has one.
   */
  measured: Interval | null,
  /**
   * The measured outcome in words (`"0.0110 ± 0.0009"`, `"lowest mean: Greedy"`).
   */
  measured_text: string,
  /**
   * Seeds the test used.
   */
  n: number,
  /**
   * What the evaluation found, both parts.
   */
  outcome: Outcome,
  verdict: Verdict,
  /**
   * The verdict in words ([`super::words()`]).
   */
  verdict_text: string,
  /**
   * The test and its interval, stated.
   */
  test: string,
  source: string,
  why: string,
};

/**
 * A part of the page a link may hide that is not one control. The engine names it; the page
 * maps the name to its elements (`data-hide="<name>"` in www/index.html and on the elements the
 * views add, hidden by www/css/style.css), so editing the HTML needs no wasm rebuild. `controls`
 * and `text` are broader: every element of class `controls` or `text`.
 */
export type HideGroup = {
  name: string,
  what: string,
};

/**
 * An interval over seeds: the mean and the 95% bounds (NaN, `null` in JSON, with fewer than 2
 * seeds). A ratio's bounds are not symmetric about its mean.
 */
export type Interval = {
  mean: number | null,
  lo: number | null,
  hi: number | null,
  /**
   * Seeds.
   */
  n: number,
};

/**
 * How tenants share a cache.
 */
export type Isolation = "shared" | "partitioned" | "tagged";

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

/**
 * What a practitioner sees first: the policy with the lowest mean of the table's "lowest" claim,
 * with its hit rate and realised cost.
 */
export type Lead = {
  /**
   * The winner's id.
   */
  algorithm: string,
  metric: string,
  value: Interval,
  /**
   * Its final hit rate, where the run records one (online).
   */
  hit_rate: Interval | null,
  /**
   * Its realised cost per round, where the run records one (online).
   */
  realised_cost: Interval | null,
  /**
   * It served no request from its cache on any seed.
   */
  never_hits: boolean,
  /**
   * All of it in words.
   */
  text: string,
};

/**
 * A report file read back by `readReport`: the report re-derived from its units, and its exports.
 */
export type LoadedReport = {
  report: Report,
  /**
   * The report as JSON (the CLI's `<id>.json`).
   */
  json: string,
  /**
   * The statistics as CSV (the CLI's `<id>.csv`).
   */
  csv: string,
  /**
   * The CLI's summary table.
   */
  summary: string,
};

/**
 * Counters of the low-switching learners.
 */
export type LowSwitchDiagnostics = {
  /**
   * ε-net centers `m`.
   */
  centers: number,
  /**
   * Costs observed (LLM calls).
   */
  observations: number,
  /**
   * Per-center stage advances (SPEC §11.2; Lemma 5 bounds them by `O(m log log T)`).
   */
  stage_advances: number,
  /**
   * The index of the current global stage.
   */
  global_stage: number,
};

/**
 * The magnitude part of a verdict.
 */
export type Magnitude = "matches" | "differs" | "not-stated" | "undecided";

/**
 * What an experiment measures.
 */
export type Measure = { "kind": "offline", algorithms: Array<OfflineId>, } | { "kind": "online", policies: Array<PolicyId>, } | { "kind": "geometry", stream: number, } | { "kind": "frontier", families: Array<Family>, } | { "kind": "tenants", policies: Array<PolicyId>, } | { "kind": "attack", policies: Array<PolicyId>, p: Array<number>, distance: number, };

/**
 * A reported metric by its typed id, generated from the list below (one variant per
 * entry, in its order), so that the engine names a metric by a variant a typo cannot
 * make; its serde form is the id (`MetricId` in the JS API's types).
 */
export type MetricId = "avg_regret" | "avg_loss_gap" | "avg_switch_cost" | "switches" | "hit_rate" | "avg_realised_cost" | "realised_cost" | "runtime_ms" | "gap" | "loss" | "est_rmse" | "est_mae" | "est_max" | "error_rate" | "hit_precision" | "tau_mean" | "explore_share" | "cache_size" | "gamma" | "beta_t" | "m_eff" | "m_max" | "eps_t" | "sum_tau" | "bound_cost" | "bound_arrival" | "bound_discretisation" | "bound_switching" | "theory_slope_regret" | "theory_slope_eps_t" | "theory_slope_m_eff" | "theory_slope_switches" | "theory_slope_gamma" | "cross_tenant_share" | "isolation_price" | "tenant_avg_realised_cost" | "tenant_error_rate" | "tenant_cross_share" | "wrong_per_1000" | "attack_share" | "confusable_serves";

/**
 * One metric as a reader sees it.
 */
export type MetricInfo = {
  /**
   * The observation's metric name (`final_avg_regret`, …); curves drop the `final_` prefix.
   */
  id: string,
  /**
   * The short name shown in tables and counters.
   */
  name: string,
  /**
   * One line: what it is.
   */
  definition: string,
  /**
   * Where it is defined: the paper's numbering and/or `SPEC-NOTES#anchor` (as
   * [`crate::config::ParamInfo::reference`]).
   */
  source: string,
};

/**
 * The result of `nativeDeterminismReport`: the committed native report for seed 0.
 */
export type NativeDeterminismReport = {
  /**
   * Stages that are bit-identical on every platform.
   */
  portable: Array<string>,
  seed: number,
  /**
   * First 16 hex digits of the sha256 over all stages' results, in order.
   */
  checksum: string,
  /**
   * Per-stage hashes: `stream`, `epsilon_net`, `reverse_greedy`, `krr`.
   */
  stages: Array<StageHash>,
  /**
   * `[Σ posterior means, Σ posterior variances, γ]` of the KRR stage: how far two platforms
   * whose `krr` hashes differ are apart.
   */
  krr_summary: [number, number, number],
};

/**
 * One measured number. Two observations are equal when every field is the same bits (a NaN
 * `x` or `y`, "none", equals itself).
 */
export type Observation = {
  /**
   * The algorithm's id (`"clcb-sc-ls-cont"`, [`crate::algorithms`]), or the series name for
   * series that are not algorithms (geometry). Reports written when this was the display name
   * read back as ids.
   */
  algorithm: string,
  metric: string,
  x: number | null,
  /**
   * The second parameter's value in a grid sweep ([`crate::experiment::definition::grid`]); NaN, and absent from
   * JSON, otherwise.
   */
  y?: number | null,
  value: number | null,
};

/**
 * The offline algorithms of SPEC §8: the ids of `offlineAlgorithms()` (TypeScript `OfflineId`).
 */
export type OfflineId = "cucb-sc-cont" | "cucb-sc" | "greedy" | "epsilon-greedy" | "lfu" | "oracle";

/**
 * What evaluating a claim on a run found ([`super::judge()`]); [`super::words()`] says it.
 */
export type Outcome = { "kind": "not-run" } | { "kind": "measured" } | { "kind": "calibrated", magnitude: Magnitude, } | { "kind": "identical", 
/**
 * The algorithms `ours` equals (display names).
 */
with: Array<string>, 
/**
 * Why, when the engine can name it at these settings ([`super::Identity::reason`]).
 */
reason: string | null, } | { "kind": "judged", 
/**
 * The claimed direction, with the paired interval it was read from (positive on the
 * claim's side; for "lowest", the closest competitor's); `None` for a printed number.
 */
direction: Direction | null, 
/**
 * The paired interval of the direction, when there is a direction.
 */
difference: Interval | null, magnitude: Magnitude, 
/**
 * The claimed winner's hit rate is 0 on every seed: it wins by never serving from the
 * cache (set only when the direction holds).
 */
never_hits: boolean, };

/**
 * One choice of a select.
 */
export type PageChoice = {
  value: string,
  label: string,
  /**
   * Shown but not selectable until the page enables it (the user's data before a file is loaded).
   */
  disabled: boolean,
};

/**
 * One control of the page.
 */
export type PageControl = {
  /**
   * The element's id, and its name in `?hide=`.
   */
  id: string,
  kind: PageControlKind,
  /**
   * The field of the page state it edits: `params.<id>` for a parameter, else a `UrlState`
   * field (`dataset`, `seeds`, `offline`, `full`, `p1`…`p4`, `speed`, `colour`); `arrival` is
   * the uploaded data's model, which only the link's fragment carries. A select's empty choice
   * (p3, p4: no panel) is `null` in the state.
   */
  key: string,
  /**
   * The label: a parameter's symbol (`_x` a subscript) or a name.
   */
  label: string,
  /**
   * One line under the control.
   */
  hint: string,
  /**
   * The paper's numbering and/or `SPEC-NOTES#anchor`.
   */
  reference: string,
  /**
   * The container it is built into: `[data-controls="<section>"]` in index.html.
   */
  section: string,
  min: number | null,
  max: number | null,
  step: number | null,
  choices: Array<PageChoice>,
  /**
   * A change restarts the live run at once (others apply on Reset).
   */
  restart: boolean,
  /**
   * `Some("upload")`: shown only while the user's data is the dataset.
   */
  when: string | null,
  /**
   * A number that may be left empty, meaning 0 ("automatic"; below `min`).
   */
  auto: boolean,
};

/**
 * What kind of input a control is.
 */
export type PageControlKind = "number" | "select" | "checkbox";

/**
 * The page's controls, the other parts a link may hide, and what `embed=1` hides by default.
 */
export type PageControls = {
  controls: Array<PageControl>,
  groups: Array<HideGroup>,
  embedHide: [string, string],
  /**
   * Every name `?hide=` takes.
   */
  hideNames: Array<string>,
};

/**
 * The datasets the page can play: the two built in, the nq-trivia universe of SPEC §7 (bundled
 * with the page by scripts/dist.sh, or loaded from the shared data's four files), or data the
 * user loaded (which never leaves the browser, so a link can only say that it was used).
 */
export type PageDataset = "synthetic" | "plane" | "nq-trivia" | "upload";

/**
 * The views of the page.
 */
export type PageView = "live" | "regret" | "offline" | "efficiency" | "paper" | "sweep" | "frontier" | "theory" | "threats";

/**
 * A point's paired difference against the reference in one quantity.
 */
export type Paired = {
  /**
   * The seeds both ran.
   */
  n: number,
  /**
   * Mean of (point − reference) over those seeds.
   */
  mean: number | null,
  /**
   * Half-width of its paired 95% Student-t interval (NaN for one seed).
   */
  ci95: number | null,
  difference: Difference,
  /**
   * [`Difference::words`], for the table and the hover.
   */
  words: string,
};

/**
 * One preset of the paper view (from `csc::experiment::definition::presets::Preset`).
 */
export type PaperPreset = {
  /**
   * The experiment id (`fig-a`, …).
   */
  id: string,
  /**
   * Which figure of the paper.
   */
  label: string,
  /**
   * The experiment id of its variant with tuned offline widths (`fig-a-tuned`), if it has one.
   */
  tuned: string | null,
  /**
   * How the page draws its report.
   */
  chart: ChartKind,
  /**
   * The built-in dataset it runs on.
   */
  dataset: "synthetic" | "nq-trivia" | "plane",
  /**
   * The quick settings, as an experiment request takes them.
   */
  quick: PresetQuick,
  /**
   * What the quick settings run, generated from their definition.
   */
  quickDescription: string,
  /**
   * What the full settings run, generated from their definition.
   */
  fullDescription: string,
};

/**
 * A value of a metric the paper prints, to mark on the figure that plots the metric.
 */
export type PaperValue = {
  /**
   * The claim, in words.
   */
  what: string,
  /**
   * The metric (an observation's metric name, e.g. `final_avg_regret`).
   */
  metric: string,
  /**
   * The algorithm id, or the series name, the value is of.
   */
  series: string,
  /**
   * The x it is read at; `None`: the final x (the last round or sweep value).
   */
  x: number | null,
  /**
   * The paper's number.
   */
  value: number,
  /**
   * The number as the paper prints it.
   */
  printed: string,
  /**
   * Where the paper states it.
   */
  source: string,
};

/**
 * How the page draws a parameter: a number input with this range and step (within the domain
 * `Params::validate` accepts). `more`: under "More parameters" rather than in the main grid.
 */
export type ParamControl = {
  min: number,
  max: number,
  step: number,
  more: boolean,
};

/**
 * A parameter with its default: what `csc list --json` and the page's `parameters()` give.
 */
export type ParamInfo = {
  /**
   * `Params::default()`'s value (the SPEC default).
   */
  default: JsonValue,
  /**
   * The `Params` field: the key of `--set`, the JSON configuration and the page's link.
   */
  id: string,
  /**
   * Its symbol in plain Unicode (`ε`, `ℓ_k`, `n_eval`); `_x` is a subscript.
   */
  symbol: string,
  /**
   * What it is, in a few words (a control's label).
   */
  name: string,
  /**
   * The unit of its values (empty: a pure number).
   */
  unit: string,
  /**
   * One line: what it does.
   */
  doc: string,
  /**
   * Where it is defined: the paper's numbering and/or `SPEC-NOTES#anchor`, parts joined by `; `.
   */
  reference: string,
  /**
   * The page's control, if the page shows it.
   */
  control: ParamControl | null,
};

/**
 * All parameters. Field docs give the symbol, the SPEC section and the default.
 */
export type Params = {
  /**
   * Cache size `k` (SPEC §3). Default 5.
   */
  k: number,
  /**
   * Mismatch function `φ` (SPEC §3). Default clipped linear.
   */
  phi: PhiKind,
  /**
   * Mismatch scale `ζ` (SPEC §3). Default 1.
   */
  zeta: number,
  /**
   * Floor of the min-max normalised token cost, `c_floor` (SPEC §2). Default 0.01.
   */
  c_floor: number,
  /**
   * Observation noise standard deviation `R` (SPEC §2). Default 0.05.
   */
  noise_r: number,
  /**
   * ε-net radius `ε` (SPEC §4). Default 0.4.
   */
  epsilon: number,
  /**
   * Radius `ε_o` of the net that thins the evaluation oracle's candidates (SPEC §5). Default 0.02.
   */
  eps_oracle: number,
  /**
   * Size of the evaluation sample `E`, `n_eval` (SPEC §3). Default 10,000.
   */
  n_eval: number,
  /**
   * RBF length-scale `ℓ_k` (SPEC §6). Default 0.2.
   */
  kernel_length: number,
  /**
   * Ridge `λ` (SPEC §6). Default 0.1.
   */
  lambda: number,
  /**
   * RKHS norm bound `B` (SPEC §6). Default 1.
   */
  b: number,
  /**
   * Confidence `δ` (SPEC §6). Default 0.05.
   */
  delta: number,
  /**
   * Online confidence scale `β` (SPEC §6, §13). Default 1 (the theoretical width).
   */
  beta: number,
  /**
   * Offline confidence scale `β_off` (SPEC §6, §13). Default 1 (the theoretical width).
   */
  beta_off: number,
  /**
   * Online horizon `T` (SPEC §9). Default 5,000.
   */
  horizon: number,
  /**
   * Offline log length `n` (SPEC §8). Default 1,000.
   */
  log_len: number,
  /**
   * Logging propensity `ν` (SPEC §8). Default 0.5.
   */
  propensity: number,
  /**
   * Synthetic arrival noise `σ_e` (SPEC §7); `None` = calibrated so that the median
   * arrival-to-prompt distance is 0.074.
   */
  synthetic_sigma: number | null,
  /**
   * Mean nq-trivia burst length (SPEC §7, §11.10). Default 100.
   */
  burst_mean: number,
  /**
   * Epsilon-Greedy exploration rate (SPEC §9). Default 0.1.
   */
  explore_rate: number,
  /**
   * Threshold-cache hit radius `τ` on the normalised distance (SPEC §9). Default 0.15.
   */
  threshold_tau: number,
  /**
   * Threshold-cache hit radius given as a cosine similarity `s` instead (docs/SPEC-NOTES.md):
   * when set, it overrides `threshold_tau` with `τ = √(2(1 − s))/D` on the run's dataset
   * (distance scale `D`). GPTCache's defaults are `s = 0.6`
   * ([`GPTCACHE_COSINE`]). Default `None`.
   */
  threshold_cosine: number | null,
  /**
   * vCache's error bound `δ` (SPEC §15; the reference code's default 0.01). Default 0.01.
   */
  vcache_delta: number,
  /**
   * The eviction rule of the threshold cache and vCache ([`Eviction`]): LRU, or GDSF
   * (Cherkasova 1998, HPL-98-69). GPTCache's preset keeps LRU. Default LRU.
   */
  eviction: Eviction,
  /**
   * CLCB-Frozen-Cont Lipschitz constant `L_g` (appendix Alg. 6; radius `ρ_s = e_s/(2L_g)`). Default 1.
   */
  lipschitz: number,
  /**
   * CLCB-Frozen-Cont constant `C_p` (appendix Alg. 8 line 10). Default 0.1.
   */
  c_p: number,
  /**
   * Seed of every random draw of a run.
   */
  seed: number,
};

/**
 * A frontier's P-CHR: every family, the common hit-ratio range and the notes.
 */
export type Pchr = {
  /**
   * The common hit-ratio range `[lo, hi]` of the AUCs (`null` when the families share none).
   */
  range: [number, number] | null,
  /**
   * The range in words for a chart's title (`AUC over hit ratios [0.048, 0.050]`), or that
   * the families share none.
   */
  range_words: string,
  /**
   * Why the range is what it is: the families that span it on every seed, which family's seed
   * sets each end, and where their mean curves overlap when that is wider (`null` without a
   * range).
   */
  range_note: string | null,
  families: Array<PchrFamily>,
  /**
   * How it is computed, in words.
   */
  method: string,
};

/**
 * One family's P-CHR curve (or point) and its AUC.
 */
export type PchrFamily = {
  /**
   * The series' key (`Family::key`: `threshold`, `threshold:threshold-gdsf`).
   */
  key: string,
  /**
   * The series' name.
   */
  name: string,
  /**
   * Its swept parameter (`null`: a single policy, drawn as a point).
   */
  param: string | null,
  /**
   * Points in parameter order.
   */
  points: Array<PchrPoint>,
  /**
   * The area under its curve over the common range: mean over seeds and 95% interval
   * (`null` for a single policy, or where a seed's points do not span the range).
   */
  auc: Interval | null,
  /**
   * Why there is no AUC, when a swept family has none.
   */
  note: string | null,
  /**
   * Its AUC in words for a legend: the AUC at its interval's precision and the mean hit
   * precision over the range (AUC ÷ its width), "identical on every seed" where every seed
   * gives the same area, or "no AUC" (`null` for a single policy).
   */
  words: string | null,
};

/**
 * One point of a P-CHR chart.
 */
export type PchrPoint = {
  /**
   * The experiment point (as the frontier's rows).
   */
  point: number,
  /**
   * The family's parameter value (`null` for a single policy).
   */
  x: number | null,
  /**
   * Cache-hit ratio over seeds, clipped to [0, 1].
   */
  hit_ratio: Interval,
  /**
   * Hit precision over the seeds with at least one hit, clipped to [0, 1].
   */
  precision: Interval,
};

/**
 * A non-decreasing mismatch cost with values in `[0, 1]`.
 */
export type Phi = { "kind": "clipped_linear", zeta: number, } | { "kind": "clipped_quadratic", zeta: number, };

/**
 * Which `φ` (SPEC §3).
 */
export type PhiKind = "clipped_linear" | "clipped_quadratic";

/**
 * An online policy's family: what kind of decision it makes (the page words its "why this
 * round" by it).
 */
export type PolicyFamily = "clcb" | "baseline" | "reference";

/**
 * Every online algorithm of SPEC §9: the ids of `policies()` (TypeScript `PolicyId`).
 */
export type PolicyId = "clcb-sc-ls-cont" | "clcb-frozen-cont" | "clcb-sc-ls" | "greedy" | "epsilon-greedy" | "lfu" | "lru" | "threshold" | "vcache" | "oracle" | "clcb-sc-ls-cont-nystrom";

/**
 * An online policy's catalog entry with its properties (`policies()`; the page, the simulator
 * and the CLI read them from here): one arm per policy in [`PolicyKind::policy_info`].
 */
export type PolicyInfo = {
  family: PolicyFamily,
  /**
   * Whether a run of it takes far longer than the others' (the page says so where it is
   * chosen): CLCB-Frozen-Cont refits KRR posteriors over every distinct arrival.
   */
  slow: boolean,
  /**
   * Whether it learns from ground truth (SPEC §15: vCache's judge) and so cannot run on data
   * without labels.
   */
  needs_labels: boolean,
  /**
   * Whether it grows the ε-net of Alg. 3 lines 5–11 over the arrivals (then the simulator
   * shares one net among the policies of a run, `epsilon_net::SharedNet`).
   */
  keeps_net: boolean,
  /**
   * Whether it is one of the six online algorithms the paper's online figures compare (§6, and
   * the appendix's CLCB-Frozen-Cont; SPEC §10): the benchmarks' default list.
   */
  compared: boolean,
  /**
   * Where each step its rounds explain is defined.
   */
  steps: StepRefs,
  /**
   * How it chooses its cache among its ε-net's centers, in words with the paper's reference
   * (or SPEC-NOTES' for our conventions): why a center it does not cache is left out, as the
   * live view's center details say. Empty for a policy without ε-net centers.
   */
  cache_rule: string,
  /**
   * The id: `"clcb-sc-ls-cont"`, … (the serde name of the enum variant).
   */
  id: string,
  /**
   * The paper's name, for tables and charts: `"CLCB-SC-LS-Cont"`, ….
   */
  name: string,
  /**
   * One sentence on what it does.
   */
  description: string,
  /**
   * Where the paper (or SPEC) defines it.
   */
  paper: string,
  /**
   * How charts draw it.
   */
  style: ChartStyle,
};

/**
 * The quick settings of a preset, as an experiment request takes them.
 */
export type PresetQuick = {
  seeds: number,
  /**
   * Parameters set on top of the full definition's.
   */
  overrides: { [key in string]: number },
  /**
   * The sweep's values at quick settings, when they differ from the full ones.
   */
  sweepValues?: Array<number> | null,
  /**
   * Policies the quick run leaves out.
   */
  drop: Array<PolicyId>,
};

/**
 * A finished experiment: definition, aggregated statistics and every unit's raw result.
 */
export type Report = {
  experiment: ExperimentSpec,
  /**
   * What ran, in words, generated from `experiment` ([`crate::experiment::describe`]).
   */
  description: string,
  engine: string,
  /**
   * Set on a shard's report (`csc run --shard`), absent from a whole or merged one.
   */
  shard?: ShardInfo | null,
  stats: Array<Stat>,
  units: Array<UnitResult>,
  /**
   * The paper's headline claims for this preset, each with its verdict
   * ([`crate::experiment::headline`]); absent for experiments the paper states no claim for.
   */
  headline?: Headline | null,
  /**
   * A frontier's points against its default reference, with paired differences
   * ([`crate::experiment::frontier`]); absent for other experiments.
   */
  frontier?: FrontierComparison | null,
  /**
   * The paper's online guarantee checked on the runs ([`crate::experiment::theory::report`]):
   * slopes over seeds with verdicts; absent for other measures.
   */
  theory?: TheoryReport | null,
  /**
   * A frontier's hit precision against cache-hit ratio per family, with AUCs (arXiv 2606.19719;
   * [`crate::experiment::frontier::pchr`]); absent for other experiments and without ground
   * truth.
   */
  pchr?: Pchr | null,
};

/**
 * What fired in one round for one policy, in the order the round happened (Alg. 3 → Alg. 4 →
 * Alg. 5), as the policy recorded it while it stepped ([`crate::online::Acts`]) and the
 * simulator saw its cache change ([`Explanation`]). The decision itself (Alg. 5 lines 4–6) is
 * every round's [`StepOutcome`] and [`Explanation`], not an event.
 */
export type RoundEvent = { "kind": "new-center", center: number, } | { "kind": "local-stages", advanced: number, } | { "kind": "global-stage" } | { "kind": "switch", inserted: Array<number>, removed: Array<number>, } | { "kind": "rebuilt" };

/**
 * A finished (or paused) run.
 */
export type RunResult = {
  /**
   * The policy's id (`"clcb-sc-ls-cont"`; its display name: [`crate::algorithms::name_of`]).
   */
  policy: string,
  oracle_loss: number,
  checkpoints: Array<Checkpoint>,
  last: Checkpoint,
  /**
   * The policy's counters in their JSON form, as reports record them.
   */
  diagnostics: Diagnostics,
  /**
   * Per tenant, when the stream has tenants ([`super::tenancy`]).
   */
  tenants?: Array<TenantCounts>,
};

/**
 * What an external policy is told once, before round 0.
 */
export type Setup = {
  /**
   * The cache size `k`: the most members a cache may hold.
   */
  k: number,
  /**
   * The arrivals' dimension.
   */
  dim: number,
  /**
   * The horizon `T`: rounds `0 … T−1` will be played.
   */
  horizon: number,
  /**
   * The built-in threshold cache's hit radius `τ` on this run's distance scale
   * ([`Params::resolved_threshold_tau`](crate::config::Params::resolved_threshold_tau)), for
   * a policy that wants the same one.
   */
  tau: number,
};

/**
 * Which slice of the units a shard report holds: units `u` with `u.index % count == index`.
 */
export type ShardInfo = {
  index: number,
  count: number,
};

/**
 * One stage's hash.
 */
export type StageHash = {
  stage: string,
  /**
   * First 16 hex digits of the sha256 of the stage's results.
   */
  hash: string,
};

/**
 * Mean, spread and 95% confidence interval of one point. Two stats are equal when every field
 * is the same bits (so a NaN `x` or `y`, which stands for "none", equals itself; reports are
 * compared bit for bit).
 */
export type Stat = {
  /**
   * The algorithm's id (`"clcb-sc-ls-cont"`, …; [`crate::algorithms`]), by which a reader
   * looks results up, or the series name for series that are not algorithms (geometry). The
   * display name is looked up only to draw or print ([`crate::algorithms::name_of`]). Older
   * reports, which wrote the display name here (and the id in `algorithm_id`, now ignored),
   * read back as ids.
   */
  algorithm: string,
  metric: string,
  x: number | null,
  /**
   * The second parameter's value in a grid sweep; NaN, and absent from JSON, otherwise.
   */
  y?: number | null,
  n: number,
  mean: number | null,
  std: number | null,
  /**
   * Half-width of the 95% interval (Student t; NaN for a single seed).
   */
  ci95: number | null,
};

/**
 * Where the paper (or SPEC-NOTES) defines each step of a round a policy's "why this round"
 * explains (`""`: the policy has no such step, or the paper does not define it).
 */
export type StepRefs = {
  /**
   * An arrival founds an ε-net center.
   */
  new_center: string,
  /**
   * Local stages advance.
   */
  local_stages: string,
  /**
   * The global stage (or the policy's one stage) advances.
   */
  global_stage: string,
  /**
   * The switch that changes the cache.
   */
  switch: string,
  /**
   * The decision rule: call the LLM iff the acting cost ≤ `φ(d(x_t, M_t))`.
   */
  rule: string,
  /**
   * Serving a hit from the cache.
   */
  serve: string,
  /**
   * The lower confidence bound `c̲` the rule compares with `φ`.
   */
  lcb: string,
  /**
   * `c̲` of a cell without a cost observation.
   */
  lcb_unobserved: string,
};

/**
 * A parameter swept over values (any `Params` field that [`with_param`] sets, e.g. `log_len`,
 * `epsilon`, `k`), optionally crossed with a second one (`by`) into a grid.
 */
export type Sweep = {
  param: string,
  values: Array<JsonValue>,
  /**
   * A second parameter: the sweep is then the grid of every (value, `by` value) pair.
   */
  by?: SweepAxis | null,
};

/**
 * The second parameter of a grid and its values.
 */
export type SweepAxis = {
  param: string,
  values: Array<JsonValue>,
};

/**
 * What one tenant's rounds did.
 */
export type TenantCounts = {
  /**
   * Rounds whose arrival was this tenant's.
   */
  requests: number,
  /**
   * Of those, the rounds served from the cache.
   */
  hits: number,
  /**
   * Hits whose nearest serving entry another tenant founded.
   */
  cross_hits: number,
  /**
   * Σ realised cost of its rounds (`c(x)` or `φ`).
   */
  realised_cost: number,
  /**
   * Hits whose correctness could be judged (SPEC §14) and the wrong ones.
   */
  judged_hits: number,
  wrong_hits: number,
};

/**
 * One policy under one isolation setting of a `tenants` report.
 */
export type TenantRow = {
  policy: PolicyId,
  isolation: Isolation,
  /**
   * "LRU (tagged)".
   */
  label: string,
  /**
   * Realised cost per request.
   */
  cost: Interval | null,
  /**
   * Wrong hits over requests (SPEC §14); none without ground truth.
   */
  error_rate: Interval | null,
  hit_rate: Interval | null,
  /**
   * Hits served by an entry another tenant founded, over hits; none when no seed had a hit.
   */
  cross_share: Interval | null,
  /**
   * Realised cost per request minus `shared`'s on the same seeds; none for `shared` itself.
   */
  price: Paired | null,
};

/**
 * One row of the theory table: quantity, measured, theorem, verdict, n.
 */
export type TheoryCheck = {
  quantity: TheoryQuantity,
  /**
   * [`Quantity::name`].
   */
  name: string,
  /**
   * The fitted slope with its interval, in words (`slope 0.48 ± 0.03`; m_eff adds "bounded"
   * or "still growing" when the interval says which).
   */
  measured: string,
  /**
   * [`Quantity::theorem`].
   */
  theorem: string,
  /**
   * [`Quantity::reference`].
   */
  reference: string,
  /**
   * The test the verdict is drawn by, with its numbers ([`stated_test`]).
   */
  test: string,
  verdict: TheoryVerdict,
  /**
   * [`TheoryVerdict::words_for`].
   */
  words: string,
  /**
   * The slope: mean and 95% bounds.
   */
  slope: Interval,
  /**
   * The fitted line's intercept (mean over seeds): `ln y = intercept + slope·ln t`.
   */
  intercept: number | null,
  /**
   * The fit's window `[from, to]` in t (or T across horizons).
   */
  from: number,
  to: number,
  /**
   * What the interval is over: `"seeds"` (n ≥ 2 runs) or `"checkpoints"` (one run).
   */
  over: string,
  /**
   * Seeds, or the checkpoints of the one run.
   */
  n: number,
};

/**
 * One policy's final regret against the horizon T (a sweep over `horizon`).
 */
export type TheoryHorizon = {
  policy: string,
  check: TheoryCheck,
  /**
   * Per seed, `(T, Reg(T))` at each horizon of the grid: the points fitted.
   */
  points: Array<Array<[number, number]>>,
};

/**
 * The theorem's quantities at one checkpoint.
 */
export type TheoryPoint = {
  /**
   * Rounds completed.
   */
  t: number,
  /**
   * `γ_t` ([`LearnerTheory::gamma`]).
   */
  gamma: number | null,
  /**
   * `β_t` ([`LearnerTheory::beta_t`]).
   */
  beta_t: number | null,
  /**
   * `m_eff(t)`: the effective number of ε-net centers, `exp(−Σ_u ŵ_t(u) ln ŵ_t(u))` with
   * `ŵ_t(u) = N_t(u)/t` (Assumption 1; docs/SPEC-NOTES.md "Theory diagnostics").
   */
  m_eff: number | null,
  /**
   * `m_max(t) = |S_t|`: the net's size (Lemma 5.3's `m_max`, measured).
   */
  m_max: number | null,
  /**
   * `ε_t`: the largest `d(x_s, S_s)` over the window of the last `window` rounds
   * (Assumption 1; docs/SPEC-NOTES.md "Theory diagnostics").
   */
  eps_t: number | null,
  /**
   * The rounds `ε_t` is the largest over.
   */
  window: number,
  /**
   * `Σ_u τ_u(t)` ([`LearnerTheory::sum_tau`]).
   */
  sum_tau: number | null,
  /**
   * `τ_f(t)` ([`LearnerTheory::tau_f`]).
   */
  tau_f: number | null,
  /**
   * `ln ln t` (0 below t = e), Lemma 5.3's growth.
   */
  loglog_t: number,
  /**
   * Thm. 5.1's terms up to constants.
   */
  bound: BoundTerms,
};

/**
 * What is checked.
 */
export type TheoryQuantity = "regret" | "eps_t" | "m_eff" | "switches" | "gamma" | "horizon" | "gap";

/**
 * The theory checks of an online report, or of an offline sweep of the stream length.
 */
export type TheoryReport = {
  runs: Array<TheoryRuns>,
  horizons?: Array<TheoryHorizon>,
  /**
   * An offline sweep of the stream length (fig. 2(a)): each algorithm's gap against n
   * (Theorem 4.1), in the same shape (`points`: per seed, `(n, gap)`).
   */
  offline?: Array<TheoryHorizon>,
};

/**
 * One policy's checks at one sweep value (`x` = T without a sweep), over the seeds that ran.
 */
export type TheoryRuns = {
  policy: string,
  x: number,
  checks: Array<TheoryCheck>,
  /**
   * Theorem 5.1's four terms at T beside Reg(T), for the learners that measure them (the
   * CLCB family).
   */
  bound?: BoundAtT | null,
};

/**
 * The verdicts: each check says one of them ([`judge`], module docs).
 */
export type TheoryVerdict = "consistent" | "tolerated" | "not_visible" | "faster" | "violated" | "vacuous";

/**
 * The threats view's reading of a report.
 */
export type ThreatFindings = {
  /**
   * `tenants` or `attack`.
   */
  kind: string,
  /**
   * Units the report holds, and its experiment's.
   */
  units: number,
  total: number,
  tenants: Array<TenantRow>,
  attack: Array<AttackPoint>,
  delta: Array<DeltaCheck>,
  /**
   * Pairs of universe rows nearer than `distance` whose gold answers differ (attack).
   */
  confusable_pairs: number | null,
  distance: number | null,
  /**
   * How the intervals and verdicts are made.
   */
  method: string,
};

/**
 * The answer of `csc tune-threshold` and of the page's form.
 */
export type TuneAnswer = {
  target: TuneTarget,
  /**
   * [`TUNE_BOUND`].
   */
  bound: string,
  /**
   * [`TUNE_METHOD`].
   */
  method: string,
  selection_seeds: Array<number>,
  reporting_seeds: Array<number>,
  /**
   * The dataset's distance scale `D` (SPEC §1).
   */
  dist_scale: number,
  /**
   * The chosen τ (`null` when no τ meets the target).
   */
  tau: number | null,
  /**
   * τ as a cosine similarity.
   */
  cosine: number | null,
  /**
   * The threshold cache at τ.
   */
  threshold: TuneChoice | null,
  /**
   * Where no τ meets the target: the τ whose bound comes closest, on both halves.
   */
  best: TuneChoice | null,
  /**
   * vCache's δ chosen by the same rule.
   */
  vcache: TuneChoice | null,
  /**
   * Where no δ meets the target: the δ whose bound comes closest.
   */
  vcache_best: TuneChoice | null,
  /**
   * CLCB-SC-LS-Cont's β chosen by the same rule.
   */
  paper: TuneChoice | null,
  /**
   * The paper's policy's realised cost minus the threshold cache's, paired over the reporting
   * seeds (negative: the paper's policy saves).
   */
  saving: Paired | null,
  /**
   * Every τ of the grid on the selection seeds.
   */
  rows: Array<TuneRow>,
  /**
   * The answer in words.
   */
  sentences: Array<string>,
};

/**
 * One family's chosen value (or, where none meets the target, its best) on both halves.
 */
export type TuneChoice = {
  /**
   * The family's key and name.
   */
  key: string,
  name: string,
  /**
   * The swept parameter (`threshold_tau`, `vcache_delta`, `beta`) and the chosen value.
   */
  param: string,
  value: number,
  /**
   * Its experiment point (a frontier point: the page opens it in the regret view).
   */
  point: number,
  selection: TuneMeasured,
  reporting: TuneMeasured,
};

/**
 * A point's counts over some seeds: requests, hits and wrong hits (SPEC §14).
 */
export type TuneCounts = {
  requests: number,
  hits: number,
  wrong_hits: number,
};

/**
 * What one point measured on one half of the seeds.
 */
export type TuneMeasured = {
  counts: TuneCounts,
  hit_ratio: number | null,
  /**
   * Correct hits over hits (`null` without a hit).
   */
  precision: number | null,
  /**
   * Its two-sided 95% Clopper–Pearson interval.
   */
  precision_ci: [number, number],
  /**
   * Wrong hits over requests.
   */
  error_rate: number | null,
  /**
   * Its two-sided 95% Clopper–Pearson interval.
   */
  error_ci: [number, number],
  /**
   * The one-sided 95% bound on the target's quantity.
   */
  bound: number,
  /**
   * Whether the target holds at 95% here.
   */
  holds: boolean,
  /**
   * Realised cost per request, mean over the seeds.
   */
  realised_cost: number | null,
};

/**
 * One τ of the grid on the selection seeds.
 */
export type TuneRow = {
  tau: number,
  /**
   * Its cosine similarity (`1 − (D·τ)²/2`).
   */
  cosine: number,
  hit_ratio: number | null,
  bound: number,
  meets: boolean,
};

/**
 * What the answer must meet.
 */
export type TuneTarget = { "kind": "precision", "value": number } | { "kind": "error_rate", "value": number };

/**
 * One independent piece of work.
 */
export type Unit = {
  /**
   * Position in the experiment's unit list (stable: shards are slices of it).
   */
  index: number,
  /**
   * Index into the sweep's points (a grid's cells; 0 without a sweep).
   */
  point: number,
  seed: number,
};

/**
 * What one unit produced, with its resolved configuration.
 */
export type UnitResult = {
  experiment: string,
  unit: Unit,
  params: Params,
  dataset: DatasetInfo,
  observations: Array<Observation>,
  /**
   * Per-algorithm extra detail (caches, diagnostics).
   */
  detail: JsonValue,
};

/**
 * Everything the page shows, as carried by its URL.
 */
export type UrlState = { view: PageView, dataset: PageDataset, 
/**
 * Every parameter of the run, the seed included (defaults: [`page_params`]).
 */
params: Params, 
/**
 * The live view's left and right policies.
 */
p1: PolicyId, p2: PolicyId, 
/**
 * The live view's third and fourth panels, side by side with the first two ; `None` (the link's `p3=` or no key): no panel.
 */
p3: PolicyId | null, p4: PolicyId | null, 
/**
 * The policies of the regret and efficiency views.
 */
policies: Array<PolicyId>, 
/**
 * Rounds played per animation frame in the live view.
 */
speed: number, 
/**
 * How the live view colours the arrivals (the link's `colour=`; default auto).
 */
colour: Colouring, 
/**
 * Seeds of the regret, efficiency and offline views.
 */
seeds: number, 
/**
 * The offline view's experiment (one of [`offline_experiments`]).
 */
offline: string, 
/**
 * The paper view's preset (one of [`presets`]).
 */
preset: string, 
/**
 * Run the paper preset at the paper's full settings instead of the quick ones.
 */
full: boolean, 
/**
 * Embedded in another page (an iframe): `None` not embedded.
 */
embed: Embed | null, 
/**
 * Run the paper preset with the tuned widths of docs/REPRODUCTION.md (`<preset>-tuned` of
 * `csc::experiment::builtin`, where it exists) instead of the theoretical ones.
 */
tuned: boolean, 
/**
 * Experiment workers run in parallel (www/js/jobs.js); 0 = as many as the browser has cores
 * (`navigator.hardwareConcurrency`), capped. In the link only when the user set it.
 */
workers: number, 
/**
 * Parts of the page the link hides (`hide=seed,k,tabs`: names of [`hide_names`]); an
 * embedded page hides them besides [`crate::bindings::controls::EMBED_HIDE`] ([`UrlState::hidden`]).
 */
hide: Array<string>, 
/**
 * The sweep view's base experiment: `online` (the regret view's run) or one of
 * [`crate::experiment::sweep_presets`].
 */
sweep: string, 
/**
 * The sweep view's grid, as the CLI's `--grid` text ([`Sweep::parse`], e.g.
 * `epsilon=0.1,0.2;beta=0.5,1`); empty: the base's own grid (the preset's sweep, or the
 * view's default for `online`). Checked against the base's parameters ([`Sweep::validate`]).
 */
grid: string, 
/**
 * The metric the sweep view draws (a [`crate::experiment::definition::metrics::METRICS`] id, with or
 * without `final_`); empty: the report's default.
 */
metric: string, 
/**
 * The threats view: tenants N of the `tenants` experiment (1 to 256).
 */
tenants: number, 
/**
 * Their overlap ω in [0, 1].
 */
overlap: number, 
/**
 * The isolation settings its charts draw (every run plays all three: the price of isolation
 * is against `shared`).
 */
isolations: Array<Isolation>, 
/**
 * The policies of its two experiments.
 */
threat_policies: Array<PolicyId>, 
/**
 * The attack probabilities p, each in [0, 1].
 */
attack_p: Array<number>, 
/**
 * The confusable distance d (> 0).
 */
distance: number, };

/**
 * Counters of vCache (SPEC §15, "Report τ's mean over rounds and the share of rounds explored").
 */
export type VCacheDiagnostics = {
  /**
   * Items held.
   */
  items: number,
  /**
   * Judged observations held by the items (evicted items take theirs with them).
   */
  observations: number,
  /**
   * Share of rounds that explored (called the LLM): steps 1, 2, 3 and 5.
   */
  explore_share: number,
  /**
   * Mean of the exploration probability `τ` over the rounds that computed it (step 4),
   * each clipped to [0, 1] as a probability (a negative `τ` never explores); NaN (JSON
   * `null`) if no round did.
   */
  tau_mean: number | null,
  /**
   * Rounds that computed `τ`.
   */
  tau_rounds: number,
};

/**
 * A claim's verdict, the one class of its outcome ([`Outcome::verdict`]).
 */
export type Verdict = "reproduced" | "never-serves" | "differs" | "not-reproduced" | "undecided" | "identical" | "not-run" | "measured" | "calibrated";

/** A metric's observation at the end of a run: `final_` and its id. */
export type FinalMetricId = `final_${MetricId}`;
