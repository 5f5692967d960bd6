//! The one list of the engine's algorithms (SPEC §8 offline, §9 online; paper §4, §5 and the
//! appendix): each entry's id (used in JSON, the CLI, the URL and the JS API), display name,
//! description and paper reference, and the enums [`PolicyKind`] and [`OfflineKind`] generated
//! from it with their naming (`id`, `label`, `parse`).
//!
//! Adding an algorithm is one entry in a `catalog!` invocation below (plus its implementation in
//! `online` or `offline`); the bindings export the list (`policies()`, `offlineAlgorithms()`), the
//! TypeScript `PolicyId` type is checked against it (scripts/check_dts.py) and the page reads it.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// One algorithm as the user sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AlgorithmInfo {
    /// The id: `"clcb-sc-ls-cont"`, … (the serde name of the enum variant).
    pub id: &'static str,
    /// The paper's name, for tables and charts: `"CLCB-SC-LS-Cont"`, ….
    pub name: &'static str,
    /// One sentence on what it does.
    pub description: &'static str,
    /// Where the paper (or SPEC) defines it.
    pub paper: &'static str,
}

/// Defines an enum of algorithms from the list of its entries: the variants (serde names = ids),
/// `ALL` in list order, and `info()`.
macro_rules! catalog {
    ($(#[$meta:meta])* $name:ident, $what:literal {
        $($(#[$vmeta:meta])* $variant:ident = $id:literal, $label:literal, $desc:literal, $paper:literal;)+
    }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $id)] $variant,)+
        }

        impl $name {
            /// Every variant, in the list's order.
            pub const ALL: [$name; [$($id),+].len()] = [$($name::$variant),+];

            /// The entry of the list.
            pub const fn info(&self) -> AlgorithmInfo {
                match self {
                    $($name::$variant => AlgorithmInfo { id: $id, name: $label, description: $desc, paper: $paper },)+
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
    /// Every online algorithm of SPEC §9.
    PolicyKind, "online algorithm" {
        /// Algs. 3–5.
        ClcbScLsCont = "clcb-sc-ls-cont", "CLCB-SC-LS-Cont",
            "The paper's method: an incremental ε-net, kernel ridge regression lower confidence bounds shared across cells, and Continuous Reverse Greedy at low-switching stage ends.",
            "Algs. 3–5 (§5)";
        /// Appendix Algs. 6–8.
        ClcbFrozenCont = "clcb-frozen-cont", "CLCB-Frozen-Cont",
            "The appendix's variant: the cache is frozen within stages of doubling length and rebuilt from KRR lower confidence bounds over the arrivals seen so far.",
            "Appendix Algs. 6–8";
        /// The discrete predecessor: per-cell means and Hoeffding LCBs, same stages.
        ClcbScLs = "clcb-sc-ls", "CLCB-SC-LS",
            "The discrete predecessor: the same ε-net and stages, each cell's own empirical mean with a Hoeffding lower bound, no kernel.",
            "SPEC §9 (discrete predecessor of Alg. 3)";
        Greedy = "greedy", "Greedy",
            "Caches the top-k cells by arrival count × empirical mean cost, recomputed every round.",
            "SPEC §9 baseline";
        EpsilonGreedy = "epsilon-greedy", "Epsilon-Greedy",
            "Greedy, but each round with probability explore_rate a uniformly random set of k cells.",
            "SPEC §9 baseline";
        Lfu = "lfu", "LFU",
            "Caches the k most frequently requested cells.",
            "SPEC §9 baseline";
        Lru = "lru", "LRU",
            "Caches the k most recently requested cells.",
            "SPEC §9 baseline";
        /// Production semantic cache: hit iff `d ≤ τ`, admit every miss, LRU eviction.
        Threshold = "threshold", "Threshold",
            "A production-style semantic cache: a hit iff the nearest cached query is within τ, every miss admitted, least recently used evicted.",
            "SPEC §9 baseline";
        /// vCache (Schroeder et al., arXiv 2502.03771): per-item logistic thresholds learnt from
        /// judged explores, exploiting only within the error bound `δ` (SPEC §15).
        VCache = "vcache", "vCache",
            "A verified semantic cache: each cached item fits a logistic model of correctness against similarity from judged explores (ground truth labels), and a hit is served only when the error rate stays within vcache_delta; capacity k, least recently used evicted.",
            "Schroeder et al., arXiv 2502.03771, Alg. 1; SPEC §15";
        /// The evaluation oracle's cache `M_orc`, served by eq. 1 with true costs (reference).
        Oracle = "oracle", "Oracle",
            "The reference: the evaluation oracle's cache M_orc, served with the true costs (regret 0 by construction).",
            "Alg. 1 on the evaluation sample (SPEC §5)";
    }
}

catalog! {
    /// The offline algorithms of SPEC §8.
    OfflineKind, "offline algorithm" {
        CucbScCont = "cucb-sc-cont", "CUCB-SC-Cont",
            "The paper's offline method: KRR on the logged costs, pessimistic upper confidence bounds at the ε-net centers, Continuous Reverse Greedy.",
            "Alg. 2 (§4)";
        CucbSc = "cucb-sc", "CUCB-SC",
            "The discrete predecessor: each cell's own empirical mean plus a Hoeffding width, unobserved cells at 1, Reverse Greedy.",
            "SPEC §8 (discrete predecessor of Alg. 2)";
        Greedy = "greedy", "Greedy",
            "The top-k cells by estimated weight × empirical mean cost.",
            "SPEC §8 baseline";
        EpsilonGreedy = "epsilon-greedy", "Epsilon-Greedy",
            "Greedy, but each slot is with probability explore_rate a uniformly random remaining cell.",
            "SPEC §8 baseline";
        Lfu = "lfu", "LFU",
            "The k most frequent cells of the log.",
            "SPEC §8 baseline";
        Oracle = "oracle", "Oracle",
            "The evaluation oracle's cache M_orc itself (gap 0 by construction).",
            "Alg. 1 on the evaluation sample (SPEC §5)";
    }
}

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
}
