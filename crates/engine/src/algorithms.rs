//! The one list of the engine's algorithms (SPEC §8 offline, §9 online; paper §4, §5 and the
//! appendix): each entry's id (used in JSON, the CLI, the URL and the JS API), display name,
//! description and paper reference, and the enums [`PolicyKind`] and [`OfflineKind`] generated
//! from it with their naming (`id`, `label`, `parse`).
//!
//! Results (observations, statistics, CSV, JSON) are keyed by the id; the display name and the
//! [`Style`] (colour, marker, dash) are only for what is drawn or printed for people — the page
//! reads them from `policies()` / `offlineAlgorithms()`, `tools/plot_figures.py` from
//! `csc list --json`.
//!
//! Adding an algorithm is one entry in a `catalog!` invocation below (plus its implementation in
//! `online` or `offline`); the bindings export the list (`policies()`, `offlineAlgorithms()`), the
//! TypeScript `PolicyId` type is generated from [`PolicyKind`] (tests/ts_types.rs) and the page reads it.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// One algorithm as the user sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AlgorithmInfo {
    /// The id: `"clcb-sc-ls-cont"`, … (the serde name of the enum variant).
    pub id: &'static str,
    /// The paper's name, for tables and charts: `"CLCB-SC-LS-Cont"`, ….
    pub name: &'static str,
    /// One sentence on what it does.
    pub description: &'static str,
    /// Where the paper (or SPEC) defines it.
    pub paper: &'static str,
    /// How charts draw it.
    pub style: Style,
}

/// How a chart draws an algorithm: a colour of the Okabe–Ito palette (colour-blind safe), and a
/// marker and a dash pattern so the series stay apart in greyscale. An online method and its
/// offline counterpart share a style (CLCB-SC-LS-Cont and CUCB-SC-Cont, CLCB-SC-LS and CUCB-SC),
/// as do the baselines of the same id in both lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ChartStyle"))]
pub struct Style {
    /// `#rrggbb`.
    pub colour: &'static str,
    /// One of `circle`, `square`, `triangle-up`, `triangle-down`, `diamond`, `plus`, `cross`,
    /// `star`, `hexagon`.
    pub marker: &'static str,
    /// The dash pattern, on and off lengths in pixels (`[]`: solid), as canvas `setLineDash` and
    /// matplotlib's `(0, (on, off, …))` take it.
    pub dash: &'static [u8],
}

const fn style(colour: &'static str, marker: &'static str, dash: &'static [u8]) -> Style {
    Style { colour, marker, dash }
}

/// The styles: the Okabe–Ito colours (blue, vermillion, bluish green, reddish purple, orange, sky
/// blue, black; its yellow darkened to `#8C6D00` to show on white) and grey.
const PAPER: Style = style("#0072B2", "circle", &[]);
const DISCRETE: Style = style("#D55E00", "square", &[6, 3]);
const GREEDY: Style = style("#009E73", "triangle-up", &[2, 2]);
const EPSILON_GREEDY: Style = style("#CC79A7", "triangle-down", &[8, 3, 2, 3]);
const LFU: Style = style("#E69F00", "diamond", &[10, 4]);
const FROZEN: Style = style("#56B4E9", "plus", &[4, 2, 1, 2]);
/// The paper's colour (the same method), its own marker and a dotted line (another learner).
const NYSTROM: Style = style("#0072B2", "diamond", &[2, 3]);
const LRU: Style = style("#8C6D00", "hexagon", &[1, 3]);
const THRESHOLD: Style = style("#999999", "star", &[12, 3, 3, 3]);
const ORACLE: Style = style("#000000", "cross", &[3, 3]);
const VCACHE: Style = style("#882255", "pentagon", &[14, 4, 2, 4, 2, 4]);

/// The display name of the algorithm whose id is `id` (either list), if there is one.
pub fn name_of(id: &str) -> Option<&'static str> {
    info_of(id).map(|i| i.name)
}

/// The entry (either list) whose id is `id`.
pub fn info_of(id: &str) -> Option<AlgorithmInfo> {
    PolicyKind::ALL
        .iter()
        .map(PolicyKind::info)
        .chain(OfflineKind::ALL.iter().map(OfflineKind::info))
        .find(|i| i.id == id)
}

/// A result key as written by reports of before results were keyed by id: a display name becomes
/// its id; anything else (an id, a series name) is kept.
pub fn key_from_legacy(key: String) -> String {
    let found = PolicyKind::ALL
        .iter()
        .map(PolicyKind::info)
        .chain(OfflineKind::ALL.iter().map(OfflineKind::info))
        .find(|i| i.name == key);
    found.map_or(key, |i| i.id.to_string())
}

/// Defines an enum of algorithms from the list of its entries: the variants (serde names = ids),
/// `ALL` in list order, and `info()`.
macro_rules! catalog {
    ($(#[$meta:meta])* $name:ident as $ts_name:literal, $what:literal {
        $($(#[$vmeta:meta])* $variant:ident = $id:literal, $label:literal, $style:ident, $desc:literal, $paper:literal;)+
    }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS))]
        #[cfg_attr(feature = "ts", ts(rename = $ts_name))]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $id)] $variant,)+
        }

        impl $name {
            /// Every variant, in the list's order.
            pub const ALL: [$name; [$($id),+].len()] = [$($name::$variant),+];

            /// The entry of the list.
            pub const fn info(&self) -> AlgorithmInfo {
                match self {
                    $($name::$variant => AlgorithmInfo { id: $id, name: $label, description: $desc, paper: $paper, style: $style },)+
                }
            }

            /// Every entry of the list, in order.
            pub fn catalog() -> Vec<AlgorithmInfo> {
                $name::ALL.iter().map($name::info).collect()
            }

            /// The paper's name.
            pub fn label(&self) -> &'static str {
                self.info().name
            }

            /// The id (`clcb-sc-ls-cont`, …).
            pub fn id(&self) -> String {
                self.info().id.to_string()
            }

            /// Parses an id or a paper name, case-insensitively; the error lists the known ids.
            pub fn parse(s: &str) -> Result<Self> {
                parse_named(&$name::ALL, |k| k.info(), s, $what)
            }
        }
    };
}

catalog! {
    /// Every online algorithm of SPEC §9: the ids of `policies()` (TypeScript `PolicyId`).
    PolicyKind as "PolicyId", "online algorithm" {
        /// Algs. 3–5.
        ClcbScLsCont = "clcb-sc-ls-cont", "CLCB-SC-LS-Cont", PAPER,
            "The paper's method: an incremental ε-net, kernel ridge regression lower confidence bounds shared across cells, and Continuous Reverse Greedy at low-switching stage ends.",
            "Algs. 3–5; §5.2";
        /// Appendix Algs. 6–8.
        ClcbFrozenCont = "clcb-frozen-cont", "CLCB-Frozen-Cont", FROZEN,
            "The appendix's variant: the cache is frozen within stages of doubling length and rebuilt from KRR lower confidence bounds over the arrivals seen so far.",
            "appendix A.2, Algs. 6–8";
        /// The discrete predecessor: per-cell means and Hoeffding LCBs, same stages.
        ClcbScLs = "clcb-sc-ls", "CLCB-SC-LS", DISCRETE,
            "The discrete predecessor: the same ε-net and stages, each cell's own empirical mean with a Hoeffding lower bound, no kernel.",
            "§6 (baseline: the discrete predecessor); SPEC-NOTES#online-spec-9";
        Greedy = "greedy", "Greedy", GREEDY,
            "Caches the top-k cells by arrival count × empirical mean cost, recomputed every round.",
            "§6 (baseline); SPEC-NOTES#online-spec-9";
        EpsilonGreedy = "epsilon-greedy", "Epsilon-Greedy", EPSILON_GREEDY,
            "Greedy, but each round with probability explore_rate a uniformly random set of k cells.",
            "§6 (baseline); SPEC-NOTES#online-spec-9";
        Lfu = "lfu", "LFU", LFU,
            "Caches the k most frequently requested cells.",
            "§6 (baseline); SPEC-NOTES#online-spec-9";
        Lru = "lru", "LRU", LRU,
            "Caches the k most recently requested cells.",
            "§6 (baseline); SPEC-NOTES#online-spec-9";
        /// Production semantic cache: hit iff `d ≤ τ`, admit every miss, LRU eviction.
        Threshold = "threshold", "Threshold", THRESHOLD,
            "A production-style semantic cache: a hit iff the nearest cached query is within τ, every miss admitted, least recently used evicted.",
            "§6 (baseline); SPEC-NOTES#online-spec-9";
        /// vCache (Schroeder et al., arXiv 2502.03771): per-item logistic thresholds learnt from
        /// judged explores, exploiting only within the error bound `δ` (SPEC §15).
        VCache = "vcache", "vCache", VCACHE,
            "A verified semantic cache: each cached item fits a logistic model of correctness against similarity from judged explores (ground truth labels), and a hit is served only when the error rate stays within vcache_delta; capacity k, least recently used evicted.",
            "vCache (arXiv 2502.03771); SPEC-NOTES#vcache-spec-15";
        /// The evaluation oracle's cache `M_orc`, served by eq. 1 with true costs (reference).
        Oracle = "oracle", "Oracle", ORACLE,
            "The reference: the evaluation oracle's cache M_orc, served with the true costs (regret 0 by construction).",
            "Alg. 1; SPEC-NOTES#evaluation-sample-and-oracle";
        /// Algs. 3–5 with an approximate learner: KRR over the ε-net centers as inducing points
        /// (`krr::nystrom`), not the paper's; for horizons the exact learner cannot reach.
        ClcbScLsContNystrom = "clcb-sc-ls-cont-nystrom", "CLCB-SC-LS-Cont (Nyström)", NYSTROM,
            "The paper's method with an approximate learner, not the paper's: kernel ridge regression restricted to the ε-net centers as inducing points (Nyström), so each round costs O(m²) for m centers instead of growing with every observation; its error against the exact learner is measured.",
            "Algs. 3–5 with the Nyström learner; SPEC-NOTES#an-approximate-learner-over-the-centers";
    }
}

catalog! {
    /// The offline algorithms of SPEC §8: the ids of `offlineAlgorithms()` (TypeScript `OfflineId`).
    OfflineKind as "OfflineId", "offline algorithm" {
        CucbScCont = "cucb-sc-cont", "CUCB-SC-Cont", PAPER,
            "The paper's offline method: KRR on the logged costs, pessimistic upper confidence bounds at the ε-net centers, Continuous Reverse Greedy.",
            "Alg. 2; §4";
        CucbSc = "cucb-sc", "CUCB-SC", DISCRETE,
            "The discrete predecessor: each cell's own empirical mean plus a Hoeffding width, unobserved cells at 1, Reverse Greedy.",
            "§6 (baseline: the discrete predecessor); SPEC-NOTES#offline-spec-8";
        Greedy = "greedy", "Greedy", GREEDY,
            "The top-k cells by estimated weight × empirical mean cost.",
            "§6 (baseline); SPEC-NOTES#offline-spec-8";
        EpsilonGreedy = "epsilon-greedy", "Epsilon-Greedy", EPSILON_GREEDY,
            "Greedy, but each slot is with probability explore_rate a uniformly random remaining cell.",
            "§6 (baseline); SPEC-NOTES#offline-spec-8";
        Lfu = "lfu", "LFU", LFU,
            "The k most frequent cells of the log.",
            "§6 (baseline); SPEC-NOTES#offline-spec-8";
        Oracle = "oracle", "Oracle", ORACLE,
            "The evaluation oracle's cache M_orc itself (gap 0 by construction).",
            "Alg. 1; SPEC-NOTES#evaluation-sample-and-oracle";
    }
}

/// An online policy's family: what kind of decision it makes (the page words its "why this
/// round" by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "PolicyFamily"))]
pub enum Family {
    /// The CLCB family (Algs. 3–8 and the discrete CLCB-SC-LS): acts on a lower confidence bound
    /// `c̲` of the cost.
    #[serde(rename = "clcb")]
    Clcb,
    /// A baseline of §6 (SPEC §9, §15): acts on a point estimate, a similarity threshold or a
    /// learnt verifier.
    #[serde(rename = "baseline")]
    Baseline,
    /// The reference `M_orc`, served with the true costs.
    #[serde(rename = "reference")]
    Reference,
}

/// Where the paper (or SPEC-NOTES) defines each step of a round a policy's "why this round"
/// explains (`""`: the policy has no such step, or the paper does not define it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StepRefs {
    /// An arrival founds an ε-net center.
    pub new_center: &'static str,
    /// Local stages advance.
    pub local_stages: &'static str,
    /// The global stage (or the policy's one stage) advances.
    pub global_stage: &'static str,
    /// The switch that changes the cache.
    pub switch: &'static str,
    /// The decision rule: call the LLM iff the acting cost ≤ `φ(d(x_t, M_t))`.
    pub rule: &'static str,
    /// Serving a hit from the cache.
    pub serve: &'static str,
    /// The lower confidence bound `c̲` the rule compares with `φ`.
    pub lcb: &'static str,
    /// `c̲` of a cell without a cost observation.
    pub lcb_unobserved: &'static str,
}

/// An online policy's catalog entry with its properties (`policies()`; the page, the simulator
/// and the CLI read them from here): one arm per policy in [`PolicyKind::policy_info`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PolicyInfo {
    #[serde(flatten)]
    pub info: AlgorithmInfo,
    pub family: Family,
    /// Whether a run of it takes far longer than the others' (the page says so where it is
    /// chosen): CLCB-Frozen-Cont refits KRR posteriors over every distinct arrival.
    pub slow: bool,
    /// Whether it learns from ground truth (SPEC §15: vCache's judge) and so cannot run on data
    /// without labels.
    pub needs_labels: bool,
    /// Whether it grows the ε-net of Alg. 3 lines 5–11 over the arrivals (then the simulator
    /// shares one net among the policies of a run, `epsilon_net::SharedNet`).
    pub keeps_net: bool,
    /// Whether it is one of the six online algorithms the paper's online figures compare (§6, and
    /// the appendix's CLCB-Frozen-Cont; SPEC §10): the benchmarks' default list.
    pub compared: bool,
    /// Where each step its rounds explain is defined.
    pub steps: StepRefs,
    /// How it chooses its cache among its ε-net's centers, in words with the paper's reference
    /// (or SPEC-NOTES' for our conventions): why a center it does not cache is left out, as the
    /// live view's center details say. Empty for a policy without ε-net centers.
    pub cache_rule: &'static str,
}

/// The low-switching learners' cache: Reverse Greedy at each stage end, on the acting costs.
const REVERSE_GREEDY_AT_STAGE_ENDS: &str =
    "Continuous Reverse Greedy (Alg. 1), run on the acting costs at the last stage end (Alg. 4 l. 17–18), kept k others";
/// The ε-net and stages of Alg. 3 (its lines 5–11 grow the net, 12–18 advance stages).
const NET: &str = "Alg. 3 l. 5–11";
/// SPEC-NOTES' definitions of the baselines (their rule and their cache).
const BASELINE_RULE: &str = "our convention, docs/SPEC-NOTES.html#online-spec-9";
/// CLCB-Frozen-Cont's `ĉ^LCB` (Alg. 7 l. 2 uses it; the paper does not define it, SPEC-NOTES does:
/// `ĉ − β·β_t·σ`, and `−B` before any observation).
const FROZEN_LCB: &str = "our reading, docs/SPEC-NOTES.html#online-spec-9";
/// No step of this kind.
const NO_STEPS: StepRefs = StepRefs {
    new_center: "",
    local_stages: "",
    global_stage: "",
    switch: "",
    rule: "",
    serve: "",
    lcb: "",
    lcb_unobserved: "",
};

impl PolicyKind {
    /// The catalog entry with every property: one arm per policy (exhaustive, so that a new policy
    /// must state each).
    #[rustfmt::skip]
    pub const fn policy_info(&self) -> PolicyInfo {
        use Family::{Baseline, Clcb, Reference};
        let info = self.info();
        match self {
            PolicyKind::ClcbScLsCont => PolicyInfo { info, family: Clcb, slow: false, needs_labels: false, keeps_net: true, compared: true, steps: LOW_SWITCH, cache_rule: REVERSE_GREEDY_AT_STAGE_ENDS },
            PolicyKind::ClcbScLsContNystrom => PolicyInfo { info, family: Clcb, slow: false, needs_labels: false, keeps_net: true, compared: false, steps: LOW_SWITCH, cache_rule: REVERSE_GREEDY_AT_STAGE_ENDS },
            PolicyKind::ClcbFrozenCont => PolicyInfo { info, family: Clcb, slow: true, needs_labels: false, keeps_net: false, compared: true, steps: FROZEN_STEPS, cache_rule: "Continuous Reverse Greedy (Alg. 1), run at its last switch (Alg. 6 l. 8–13), kept k others" },
            PolicyKind::ClcbScLs => PolicyInfo { info, family: Clcb, slow: false, needs_labels: false, keeps_net: true, compared: true, steps: LOW_SWITCH_DISCRETE, cache_rule: REVERSE_GREEDY_AT_STAGE_ENDS },
            PolicyKind::Greedy => PolicyInfo { info, family: Baseline, slow: false, needs_labels: false, keeps_net: true, compared: true, steps: CELL_BASELINE, cache_rule: "Greedy keeps the k cells with the largest count × mean cost (our convention, docs/SPEC-NOTES.html#online-spec-9)" },
            PolicyKind::EpsilonGreedy => PolicyInfo { info, family: Baseline, slow: false, needs_labels: false, keeps_net: true, compared: true, steps: CELL_BASELINE, cache_rule: "Epsilon-Greedy keeps Greedy's k cells (largest count × mean cost), or k random cells with probability ε (our convention, docs/SPEC-NOTES.html#online-spec-9)" },
            PolicyKind::Lfu => PolicyInfo { info, family: Baseline, slow: false, needs_labels: false, keeps_net: true, compared: true, steps: CELL_BASELINE, cache_rule: "LFU keeps the k most requested cells (our convention, docs/SPEC-NOTES.html#online-spec-9)" },
            PolicyKind::Lru => PolicyInfo { info, family: Baseline, slow: false, needs_labels: false, keeps_net: true, compared: false, steps: CELL_BASELINE, cache_rule: "LRU keeps the k cells requested most recently (our convention, docs/SPEC-NOTES.html#online-spec-9)" },
            PolicyKind::Threshold => PolicyInfo { info, family: Baseline, slow: false, needs_labels: false, keeps_net: false, compared: false, steps: OWN_RULE, cache_rule: "" },
            PolicyKind::VCache => PolicyInfo { info, family: Baseline, slow: false, needs_labels: true, keeps_net: false, compared: false, steps: OWN_RULE, cache_rule: "" },
            PolicyKind::Oracle => PolicyInfo { info, family: Reference, slow: false, needs_labels: false, keeps_net: false, compared: false, steps: StepRefs { rule: "Alg. 1", ..NO_STEPS }, cache_rule: "Continuous Reverse Greedy (Alg. 1) on the true costs kept k others" },
        }
    }

    /// The policy's family.
    pub const fn family(&self) -> Family {
        self.policy_info().family
    }

    /// Whether a run of it takes far longer than the others'.
    pub const fn slow(&self) -> bool {
        self.policy_info().slow
    }

    /// Whether it learns from ground truth and so cannot run on data without labels.
    pub const fn needs_labels(&self) -> bool {
        self.policy_info().needs_labels
    }

    /// Whether it grows the ε-net of Alg. 3 lines 5–11 over the arrivals.
    pub const fn keeps_net(&self) -> bool {
        self.policy_info().keeps_net
    }

    /// Where each step of its rounds is defined.
    pub const fn steps(&self) -> StepRefs {
        self.policy_info().steps
    }

    /// Its cache rule ([`PolicyInfo::cache_rule`]) for a run whose cache holds `k` items: the
    /// symbol `k` replaced by the number ("kept 10 others"; "kept 1 other"), as the live view's
    /// center details say it.
    pub fn cache_rule_for(&self, k: usize) -> String {
        let mut out: Vec<String> = Vec::new();
        let mut singular_next = false;
        for word in self.policy_info().cache_rule.split(' ') {
            if word == "k" {
                out.push(k.to_string());
                singular_next = k == 1;
                continue;
            }
            // The plural the number governs ("k others", "k cells", "k random cells").
            match (singular_next, word.strip_suffix('s')) {
                (true, Some(one)) if matches!(word, "others" | "cells") => {
                    out.push(one.to_string());
                    singular_next = false;
                }
                _ => out.push(word.to_string()),
            }
        }
        out.join(" ")
    }

    /// The six online algorithms the paper's online figures compare (§6, and the appendix's
    /// CLCB-Frozen-Cont; SPEC §10), in the list's order: the benchmarks' default list.
    pub fn compared() -> Vec<PolicyKind> {
        PolicyKind::ALL.iter().copied().filter(|k| k.policy_info().compared).collect()
    }
}

/// The low-switching learners' steps (Algs. 3–5).
const LOW_SWITCH: StepRefs = StepRefs {
    new_center: NET,
    local_stages: "Alg. 3 l. 12–15",
    global_stage: "Alg. 3 l. 16–18",
    switch: "Alg. 4 l. 17–18",
    rule: "Alg. 5 l. 4–6",
    serve: "Alg. 5 l. 12",
    lcb: "Alg. 4 l. 11",
    lcb_unobserved: "Alg. 4 l. 15",
};
/// CLCB-SC-LS: the same stages and rule, with each cell's Hoeffding bound for the LCB.
const LOW_SWITCH_DISCRETE: StepRefs =
    StepRefs { lcb: BASELINE_RULE, lcb_unobserved: BASELINE_RULE, ..LOW_SWITCH };
/// The count-based cell baselines: the shared ε-net, their own rule.
const CELL_BASELINE: StepRefs = StepRefs { new_center: NET, rule: BASELINE_RULE, ..NO_STEPS };
/// The threshold cache and vCache: their own rule, no net or stages.
const OWN_RULE: StepRefs = StepRefs { rule: BASELINE_RULE, ..NO_STEPS };
/// CLCB-Frozen-Cont's steps (appendix Algs. 6–8).
const FROZEN_STEPS: StepRefs = StepRefs {
    global_stage: "Alg. 6 l. 7–12",
    switch: "Alg. 6 l. 8–13",
    rule: "Alg. 7 l. 1–2",
    serve: "Alg. 7 l. 7",
    lcb: FROZEN_LCB,
    lcb_unobserved: FROZEN_LCB,
    ..NO_STEPS
};

/// The variant of `all` whose id or display name is `s` (case-insensitive); `what` names the kind
/// in the error, which lists the known ids.
fn parse_named<T: Copy>(all: &[T], info: fn(&T) -> AlgorithmInfo, s: &str, what: &str) -> Result<T> {
    let t = s.trim().to_ascii_lowercase();
    all.iter().copied().find(|k| info(k).id == t || info(k).name.to_ascii_lowercase() == t).ok_or_else(|| {
        let ids: Vec<&str> = all.iter().map(|k| info(k).id).collect();
        Error::unsupported(format!("unknown {what} `{s}`; known: {}", ids.join(", ")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every policy with ε-net centers to inspect says how it chooses its cache; the learners and
    /// the oracle by Reverse Greedy (Alg. 1), the baselines by their own score, never by Reverse
    /// Greedy (the live view's center details showed Reverse Greedy for every policy).
    #[test]
    fn every_policy_with_centers_says_how_it_chooses_its_cache() {
        for k in PolicyKind::ALL {
            let i = k.policy_info();
            let has_centers = i.keeps_net || matches!(k, PolicyKind::ClcbFrozenCont | PolicyKind::Oracle);
            assert_eq!(!i.cache_rule.is_empty(), has_centers, "{k:?}: {:?}", i.cache_rule);
            let by_reverse_greedy = matches!(i.family, Family::Clcb | Family::Reference);
            assert_eq!(
                i.cache_rule.contains("Reverse Greedy (Alg. 1)"),
                by_reverse_greedy && has_centers,
                "{k:?}"
            );
        }
        assert!(PolicyKind::Lfu.policy_info().cache_rule.contains("most requested"));
        assert!(PolicyKind::Greedy.policy_info().cache_rule.contains("count × mean cost"));
    }

    /// A run's cache rule names its k, never the symbol (the live view's center details said
    /// "kept k others").
    #[test]
    fn a_runs_cache_rule_names_its_k() {
        for kind in PolicyKind::ALL {
            let rule = kind.policy_info().cache_rule;
            for k in [1, 10, 250] {
                let got = kind.cache_rule_for(k);
                assert!(!got.split(' ').any(|w| w == "k"), "{kind:?}: {got}");
                let has_k = rule.split(' ').any(|w| w == "k");
                assert_eq!(got.contains(&format!(" {k} ")), has_k, "{kind:?}: {got}");
                if !has_k {
                    assert_eq!(got, rule);
                }
            }
        }
        assert!(PolicyKind::ClcbScLsCont.cache_rule_for(10).ends_with("(Alg. 4 l. 17–18), kept 10 others"));
        assert!(PolicyKind::Oracle.cache_rule_for(1).ends_with("on the true costs kept 1 other"));
        assert_eq!(
            PolicyKind::EpsilonGreedy.cache_rule_for(1),
            "Epsilon-Greedy keeps Greedy's 1 cell (largest count × mean cost), or 1 random cell with probability ε (our convention, docs/SPEC-NOTES.html#online-spec-9)"
        );
        assert!(PolicyKind::Lfu.cache_rule_for(50).starts_with("LFU keeps the 50 most requested cells"));
    }

    #[test]
    fn every_algorithm_has_a_style_shared_only_with_its_counterpart() {
        let all: Vec<AlgorithmInfo> =
            PolicyKind::catalog().into_iter().chain(OfflineKind::catalog()).collect();
        for a in &all {
            assert!(a.style.colour.len() == 7 && a.style.colour.starts_with('#'), "{a:?}");
            assert_eq!(info_of(a.id).map(|i| i.style), Some(a.style), "{a:?}: one style per id");
            assert_eq!(key_from_legacy(a.name.to_string()), a.id);
        }
        let online: Vec<Style> = PolicyKind::ALL.iter().map(|p| p.info().style).collect();
        for (i, s) in online.iter().enumerate() {
            assert!(!online[..i].contains(s), "two policies drawn alike: {s:?}");
        }
        assert_eq!(OfflineKind::CucbScCont.info().style, PolicyKind::ClcbScLsCont.info().style);
        assert_eq!(key_from_legacy("universe".into()), "universe");
    }

    #[test]
    fn ids_are_the_serde_names_and_unique() {
        for p in PolicyKind::ALL {
            assert_eq!(serde_json::to_value(p).unwrap(), p.info().id);
            assert_eq!(serde_json::from_value::<PolicyKind>(p.info().id.into()).unwrap(), p);
            assert_eq!(PolicyKind::parse(p.label()).unwrap(), p);
        }
        for a in OfflineKind::ALL {
            assert_eq!(serde_json::to_value(a).unwrap(), a.info().id);
            assert_eq!(OfflineKind::parse(&a.id().to_uppercase()).unwrap(), a);
        }
        let mut ids: Vec<_> = PolicyKind::ALL.iter().map(|p| p.info().id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), PolicyKind::ALL.len());
        let e = PolicyKind::parse("nope").unwrap_err().to_string();
        assert!(
            e.contains("unknown online algorithm `nope`") && e.contains("clcb-sc-ls-cont, clcb-frozen-cont"),
            "{e}"
        );
    }

    #[test]
    fn the_properties_are_those_the_paper_and_spec_give() {
        use PolicyKind::*;
        // SPEC §10: the online figures compare these six (the appendix's Frozen variant included).
        assert_eq!(
            PolicyKind::compared(),
            [ClcbScLsCont, ClcbFrozenCont, ClcbScLs, Greedy, EpsilonGreedy, Lfu]
        );
        // SPEC §15: only vCache learns from a judge.
        let labelled: Vec<_> = PolicyKind::ALL.into_iter().filter(PolicyKind::needs_labels).collect();
        assert_eq!(labelled, [VCache]);
        // Alg. 3 lines 5–11's ε-net: the low-switching learners and the cell baselines.
        let nets: Vec<_> = PolicyKind::ALL.into_iter().filter(PolicyKind::keeps_net).collect();
        assert_eq!(nets, [ClcbScLsCont, ClcbScLs, Greedy, EpsilonGreedy, Lfu, Lru, ClcbScLsContNystrom]);
        let clcb: Vec<_> = PolicyKind::ALL.into_iter().filter(|k| k.family() == Family::Clcb).collect();
        assert_eq!(clcb, [ClcbScLsCont, ClcbFrozenCont, ClcbScLs, ClcbScLsContNystrom]);
        assert_eq!(ClcbScLsCont.steps().lcb, "Alg. 4 l. 11");
        assert_eq!(ClcbScLsCont.steps().lcb_unobserved, "Alg. 4 l. 15");
        for k in PolicyKind::ALL {
            // every CLCB policy says where its bound comes from; no other policy has one
            assert_eq!(k.family() == Family::Clcb, !k.steps().lcb.is_empty(), "{k:?}");
            assert_eq!(k.policy_info().info, k.info());
        }
    }
}
