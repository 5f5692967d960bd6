//! The paper's headline claims per figure (paper §6 and its appendix; SPEC §10), with the reason
//! each may differ (docs/REPRODUCTION.md, "Where we differ"): each figure's record
//! ([`crate::experiment::definition::presets::Preset::claims`]) names its function here; [`crate::experiment::headline`] evaluates
//! them, and [`crate::experiment::definition::presets::headline`] is a run's table; [`crate::experiment::definition::presets::paper_values`], the
//! numbers the paper prints for a metric, which the page marks on its figures. Claims name algorithms by their ids' enums
//! ([`PolicyKind`], [`OfflineKind`]), never by strings.

use crate::experiment::headline::{At, Claim, Comparison, Identity, Series};
use crate::experiment::Metric;
use crate::offline::OfflineKind;
use crate::online::PolicyKind;

/// Which widths a figure's run uses: the analysis' (SPEC defaults) or the ones tuned on held-out
/// seeds (docs/REPRODUCTION.md); the claims say why a tuned run may differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Widths {
    Theoretical,
    Tuned,
}

const OFF_WHY: &str = "Where we differ 1–3: the paper's offline widths are unstated; at the theoretical widths c̄ saturates, and Greedy is strong on this data.";
const OFF_TUNED_WHY: &str =
    "Where we differ 1–2: tuned widths (β_off, λ chosen on held-out seeds) can move the gap either way.";
const ON_WHY: &str = "Where we differ 4, 6: our synthetic prompts are not the paper's, and its widths, λ and ℓ_k are unstated.";
const NQ_WHY: &str = "Where we differ 5, 6: nq-trivia is dominated by switching costs; at β = 1 every LCB is negative and the cache keeps its first items.";
const RUNTIME_WHY: &str = "Where we differ 4: our discrete baselines are much faster than the paper's must have been; runtimes depend on the machine.";

const CONT: Series = Series::Offline(OfflineKind::CucbScCont);
const CUCB: Series = Series::Offline(OfflineKind::CucbSc);
const CLCB: Series = Series::Policy(PolicyKind::ClcbScLsCont);
const CLCB_LS: Series = Series::Policy(PolicyKind::ClcbScLs);
const GREEDY: Series = Series::Policy(PolicyKind::Greedy);

/// The offline figures' two claims at `x`: the paper's reduction against CUCB-SC, and the lowest
/// gap.
fn offline(
    widths: Widths,
    x: f64,
    what: &'static str,
    lowest: &'static str,
    paper: &'static str,
) -> Vec<Claim> {
    let why = match widths {
        Widths::Theoretical => OFF_WHY,
        Widths::Tuned => OFF_TUNED_WHY,
    };
    vec![
        Claim {
            what,
            metric: Metric::Gap.id(),
            at: At::X(x),
            comparison: Comparison::Below { ours: CONT, baseline: CUCB },
            paper: Some(paper),
            source: "§6, Fig. 2",
            why,
            identical: Some(Identity::SaturatedUpperBounds),
        },
        Claim {
            what: lowest,
            metric: Metric::Gap.id(),
            at: At::X(x),
            comparison: Comparison::Lowest { ours: CONT },
            paper: None,
            source: "§6",
            why,
            identical: Some(Identity::SaturatedUpperBounds),
        },
    ]
}

/// Fig. 2(a): at stream length 100 CUCB-SC-Cont's gap is 73.32 % below CUCB-SC's (§6).
pub fn fig_a(widths: Widths) -> Vec<Claim> {
    offline(
        widths,
        100.0,
        "CUCB-SC-Cont gap below CUCB-SC at stream length 100",
        "CUCB-SC-Cont has the lowest gap at stream length 100",
        "73.32",
    )
}

/// Fig. 2(b): at ε = 0.4 CUCB-SC-Cont's gap is 52.95 % below CUCB-SC's (§6).
pub fn fig_b(widths: Widths) -> Vec<Claim> {
    offline(
        widths,
        0.4,
        "CUCB-SC-Cont gap below CUCB-SC at ε = 0.4",
        "CUCB-SC-Cont has the lowest gap at ε = 0.4",
        "52.95",
    )
}

/// Fig. 2(c, d): the online claims on synthetic data (§6).
pub fn online_synthetic(_: Widths) -> Vec<Claim> {
    online(false)
}

/// Fig. 2(e, f): the online claims on nq-trivia (§6).
pub fn online_nq(_: Widths) -> Vec<Claim> {
    online(true)
}

fn online(nq: bool) -> Vec<Claim> {
    let why = if nq { NQ_WHY } else { ON_WHY };
    // The §6 claims on the final average regret.
    let regret = |what, comparison, paper, identical| Claim {
        what,
        metric: Metric::AvgRegret.final_id(),
        at: At::Final,
        comparison,
        paper,
        source: "§6",
        why,
        identical,
    };
    let same = Some(Identity::NegativeLcbs);
    let mut v = vec![regret(
        "CLCB-SC-LS-Cont final average regret",
        Comparison::Value { ours: CLCB },
        Some(if nq { "0.0061" } else { "0.0083" }),
        None,
    )];
    if nq {
        v.push(regret(
            "… below Greedy",
            Comparison::Below { ours: CLCB, baseline: GREEDY },
            Some("63.27"),
            same,
        ));
    }
    v.push(regret(
        "… below CLCB-SC-LS",
        Comparison::Below { ours: CLCB, baseline: CLCB_LS },
        Some(if nq { "43.14" } else { "72.41" }),
        same,
    ));
    v.push(regret("… the lowest final average regret", Comparison::Lowest { ours: CLCB }, None, same));
    v.push(Claim {
        what: if nq {
            "runtime of CLCB-SC-LS-Cont relative to CLCB-SC-LS (the paper: “a nearly identical latency of approximately 250 seconds”)"
        } else {
            "runtime of CLCB-SC-LS-Cont relative to CLCB-SC-LS"
        },
        metric: Metric::RuntimeMs.id(),
        at: At::Final,
        comparison: Comparison::Ratio { ours: CLCB, baseline: CLCB_LS },
        // Synthetic: "a runtime increase of 47.8%". On nq-trivia the paper states no ratio, only
        // "a nearly identical latency of approximately 250 seconds": measured, not judged.
        paper: if nq { None } else { Some("1.478") },
        source: if nq { "§6, Fig. 2(f)" } else { "§6, Fig. 2(d)" },
        why: RUNTIME_WHY,
        identical: None,
    });
    for (what, metric) in [
        ("… its average loss gap Σ[L(M_s) − L(M_orc)]/T", Metric::AvgLossGap.final_id()),
        ("… its average switching cost Σ switch/T", Metric::AvgSwitchCost.final_id()),
        ("… its realised cost per round", Metric::AvgRealisedCost.final_id()),
        ("… its hit rate", Metric::HitRate.final_id()),
        ("… its cache switches", Metric::Switches.final_id()),
    ] {
        v.push(Claim {
            what,
            metric,
            at: At::Final,
            comparison: Comparison::Measured { ours: CLCB },
            paper: None,
            source: "§6 (not stated)",
            why: "",
            identical: None,
        });
    }
    v
}

/// Appendix Figs. 5–6: the lowest true loss at every k, and the gap at k = 20.
pub fn abl_k(_: Widths) -> Vec<Claim> {
    vec![
        Claim {
            what: "CUCB-SC-Cont has the lowest true loss at every k",
            metric: Metric::Loss.id(),
            at: At::Every,
            comparison: Comparison::Lowest { ours: CONT },
            paper: None,
            source: "Appendix, Fig. 6",
            why: OFF_WHY,
            identical: Some(Identity::SaturatedUpperBounds),
        },
        Claim {
            what: "CUCB-SC-Cont gap below CUCB-SC at k = 20",
            metric: Metric::Gap.id(),
            at: At::X(20.0),
            comparison: Comparison::Below { ours: CONT, baseline: CUCB },
            paper: None,
            source: "Appendix, Fig. 5",
            why: OFF_WHY,
            identical: Some(Identity::SaturatedUpperBounds),
        },
    ]
}

/// Appendix Fig. 12: the KRR estimate's error at the centers falls, then plateaus above 0.
pub fn krr_err(_: Widths) -> Vec<Claim> {
    vec![
        Claim {
            what: "KRR RMSE at the centers falls over rounds",
            metric: Metric::EstRmse.id(),
            at: At::Final,
            comparison: Comparison::Falls { ours: CLCB },
            paper: None,
            source: "Appendix, Fig. 12",
            why: "",
            identical: None,
        },
        Claim {
            what: "… and plateaus above 0 (final RMSE)",
            metric: Metric::EstRmse.id(),
            at: At::Final,
            comparison: Comparison::Measured { ours: CLCB },
            paper: None,
            source: "Appendix, Fig. 12",
            why: "",
            identical: None,
        },
    ]
}

/// Appendix Figs. 8–11: the medians of the distance distributions the paper prints.
pub fn geom(_: Widths) -> Vec<Claim> {
    let claim = |what: &'static str, series: &'static str, metric: &'static str, paper: &'static str| {
        Claim {
        what,
        metric,
        at: At::X(0.5),
        // σ_e is calibrated to the arrival-to-source median (SPEC §7): that row checks the
        // calibration; the others are consequences of the prompts and σ_e.
        comparison: if metric == "distance_to_universe" {
            Comparison::Calibrated { ours: Series::Named(series) }
        } else {
            Comparison::Value { ours: Series::Named(series) }
        },
        paper: Some(paper),
        source: "Appendix, Figs. 8–11",
        why: "Where we differ 6: our synthetic prompts are not the paper's; σ_e is calibrated to the paper's 0.074 arrival-to-source median.",
        identical: None,
    }
    };
    vec![
        claim("median pairwise distance among stream queries", "stream", "pairwise_distance", "0.88"),
        claim("median pairwise distance in the universe", "universe", "pairwise_distance", "0.88"),
        claim("median nearest-neighbour distance in the stream", "stream", "nn_distance", "0.074"),
        claim(
            "median distance from a stream query to the universe",
            "stream",
            "distance_to_universe",
            "0.074",
        ),
    ]
}

/// No claims (a figure record of a test fixture).
pub fn none(_: Widths) -> Vec<Claim> {
    Vec::new()
}
