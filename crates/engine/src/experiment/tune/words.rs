//! The answer in words: every sentence the CLI and the page print about a chosen τ.

use super::command::cosine_of;
use super::select::{Measured, TuneAnswer};
use super::target::{Target, TUNE_DELTAS};
use crate::experiment::frontier::paired::Difference;

/// A number for a sentence: up to 4 significant decimals.
fn n4(v: f64) -> String {
    crate::experiment::stats::significant(v, 4)
}

fn interval(ci: [f64; 2]) -> String {
    format!("[{}, {}]", n4(ci[0]), n4(ci[1]))
}

fn seeds_words(s: &[u64]) -> String {
    s.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

/// Whether the target holds on some seeds, with the one-sided 95% Clopper–Pearson bound it is
/// judged by next to the target, so that "does not hold" beside a hit precision above the target
/// reads as what it is: the bound, not the estimate, falls short. The bound is shown with as many
/// digits as its comparison with the target needs (never rounded onto it).
pub(super) fn verdict(m: &Measured, target: Target) -> String {
    let (which, goal, at_least) = match target {
        Target::Precision(p) => ("lower bound on hit precision", p, true),
        Target::ErrorRate(e) => ("upper bound on the error rate", e, false),
    };
    if m.counts.hits == 0 {
        return "the target does not hold there: no hit".into();
    }
    // 4 significant digits, more until the shown bound sits on the same side of the target as the
    // bound itself (the engine's one rule for numbers a verdict is read from).
    use crate::experiment::stats::{decimals_keeping_sign, fixed};
    let four = if m.bound > 0.0 { (3 - m.bound.log10().floor() as i32).clamp(0, 12) as usize } else { 4 };
    let shown = fixed(m.bound, decimals_keeping_sign(four, &[(m.bound, -goal)]));
    let relation = match (m.holds, at_least) {
        (true, true) => "at least",
        (true, false) => "at most",
        (false, true) => "below",
        (false, false) => "above",
    };
    format!(
        "the target {} there: its one-sided 95% Clopper–Pearson {which} on these seeds, {shown}, is {relation} {goal}",
        if m.holds { "holds" } else { "does not hold" }
    )
}

impl TuneAnswer {
    /// The answer in sentences: τ and its cosine with what it measured on each half, or that no τ
    /// meets the target with the best reachable; vCache's δ; the paper's policy's saving.
    pub(super) fn words(&self) -> Vec<String> {
        let t = self.target.words();
        let which = match self.target {
            Target::Precision(_) => "lower bound on hit precision",
            Target::ErrorRate(_) => "upper bound on the error rate",
        };
        let (sel, rep) = (seeds_words(&self.selection_seeds), seeds_words(&self.reporting_seeds));
        let held = |m: &Measured| {
            format!(
                "hit ratio {}, hit precision {} {} (two-sided 95% Clopper–Pearson), error rate {} {}; {}",
                n4(m.hit_ratio),
                if m.precision.is_finite() { n4(m.precision) } else { "— (no hit)".into() },
                interval(m.precision_ci),
                n4(m.error_rate),
                interval(m.error_ci),
                verdict(m, self.target)
            )
        };
        let mut out = Vec::new();
        match (&self.threshold, &self.best) {
            (Some(c), _) => {
                out.push(format!(
                    "τ = {} (cosine similarity {}): the largest hit ratio ({}) whose one-sided 95% \
                     Clopper–Pearson {which} ({}) meets {t} on the selection seeds {sel}.",
                    c.value,
                    n4(cosine_of(c.value, self.dist_scale)),
                    n4(c.selection.hit_ratio),
                    n4(c.selection.bound)
                ));
                out.push(format!("On the held-out seeds {rep}: {}.", held(&c.reporting)));
                if self.rows.last().is_some_and(|r| r.tau == c.value) {
                    out.push(format!(
                        "τ = {} is the grid's largest: a larger τ may also meet the target with more hits.",
                        c.value
                    ));
                }
            }
            (None, Some(b)) => out.push(format!(
                "No τ of the grid (0.02 to 0.6) meets {t} at 95% on the selection seeds {sel}: the \
                 closest is τ = {} (cosine similarity {}), whose one-sided 95% {which} is {} (hit \
                 precision {}, hit ratio {}); on the held-out seeds {rep}: {}.",
                b.value,
                n4(cosine_of(b.value, self.dist_scale)),
                n4(b.selection.bound),
                n4(b.selection.precision),
                n4(b.selection.hit_ratio),
                held(&b.reporting)
            )),
            (None, None) => out.push(format!(
                "No τ of the grid (0.02 to 0.6) meets {t}: the threshold cache had no hit at any τ on \
                 the selection seeds {sel}."
            )),
        }
        match &self.vcache {
            Some(v) => out.push(format!(
                "vCache meets the same target on the selection seeds at δ = {} (the largest hit ratio \
                 by the same rule): on the held-out seeds, {}.",
                v.value,
                held(&v.reporting)
            )),
            None => out.push(match &self.vcache_best {
                Some(b) => format!(
                    "No δ of vCache's sweep ({}) meets {t} at 95% on the selection seeds: the closest \
                     is δ = {}, whose one-sided 95% {which} is {} (hit precision {}, hit ratio {}).",
                    TUNE_DELTAS.map(|d| d.to_string()).join(", "),
                    b.value,
                    n4(b.selection.bound),
                    if b.selection.precision.is_finite() { n4(b.selection.precision) } else { "—".into() },
                    n4(b.selection.hit_ratio)
                ),
                None => {
                    format!("No δ of vCache's sweep meets {t}: vCache had no hit on the selection seeds.")
                }
            }),
        }
        match (&self.paper, &self.saving, &self.threshold) {
            (Some(p), Some(s), Some(c)) => {
                let saving = match s.difference {
                    Difference::Lower => format!(
                        "it saves {} per request against the threshold cache at τ = {}",
                        n4(-s.mean),
                        c.value
                    ),
                    Difference::Higher => format!(
                        "it costs {} more per request than the threshold cache at τ = {}: no saving",
                        n4(s.mean),
                        c.value
                    ),
                    Difference::Identical => {
                        format!("its realised cost is identical to the threshold cache's at τ = {}: no saving", c.value)
                    }
                    _ => format!(
                        "its realised cost is not distinguishable from the threshold cache's at τ = {}: no saving shown",
                        c.value
                    ),
                };
                // The one statement of "±" (SPEC §10: the half-width to 2 significant digits)
                let diff = crate::experiment::stats::format_interval(s.mean, s.ci95);
                let diff = if s.mean > 0.0 { format!("+{diff}") } else { diff };
                out.push(format!(
                    "CLCB-SC-LS-Cont (the paper's policy) meets the target on the selection seeds at \
                     β = {} (held-out hit precision {}, hit ratio {}; {}); {saving} \
                     (paired over the {} held-out seeds: {diff} in realised cost per request).",
                    p.value,
                    if p.reporting.precision.is_finite() {
                        n4(p.reporting.precision)
                    } else {
                        "— (no hit)".into()
                    },
                    n4(p.reporting.hit_ratio),
                    verdict(&p.reporting, self.target),
                    s.n,
                ));
            }
            (None, _, _) => out.push(format!(
                "CLCB-SC-LS-Cont (the paper's policy) meets {t} at no β of its sweep on the selection \
                 seeds: no saving to report at this target."
            )),
            _ => out.push(
                "No τ meets the target, so there is no saving of the paper's policy to report at it.".into(),
            ),
        }
        out
    }
}
