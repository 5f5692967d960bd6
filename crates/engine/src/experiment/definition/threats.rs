//! The threats view's two experiments (docs/SPEC-NOTES.md, "Tenants" and "Adversarial arrivals"):
//! the built-in `tenants` and `attack` at their quick settings (3 seeds, T = n_eval = 1,000) with
//! the reader's settings on top: the number of tenants N and their overlap ω, the policies, the
//! attack probabilities p and the confusable distance d, on the page's dataset. With the
//! built-ins' own settings on nq-trivia each definition is `csc run tenants --quick` (or
//! `attack`) exactly; every setting is checked here, one plain message for a bad one.

use super::builtins::SYNTHETIC_FRONTIER_K;
use super::dataset::{DatasetId, DatasetSpec};
use super::registry::quick_spec;
use super::spec::{ExperimentSpec, Measure};
use crate::error::{Error, Result};
use crate::online::PolicyKind;
use crate::stream::{check_tenants, ArrivalSpec};

/// The policies checked: at least one, none twice.
fn check_policies(policies: &[PolicyKind]) -> Result<()> {
    if policies.is_empty() {
        return Err(Error::param("policies", "name at least one policy"));
    }
    for (i, p) in policies.iter().enumerate() {
        if policies[..i].contains(p) {
            return Err(Error::param("policies", format!("`{}` is listed twice", p.label())));
        }
    }
    Ok(())
}

/// Synthetic's universe holds 50 queries: at the built-ins' k (48, 50) a cache would hold all of
/// it, so on synthetic the threat experiments take the frontier's k ([`SYNTHETIC_FRONTIER_K`]).
fn fit_k(spec: &mut ExperimentSpec) {
    let synthetic = match &spec.dataset {
        DatasetId::Synthetic => true,
        DatasetId::Spec(s) => s.builtin.as_deref() == Some("synthetic"),
        _ => false,
    };
    if synthetic {
        spec.params.k = SYNTHETIC_FRONTIER_K;
    }
}

/// The `tenants` experiment at its quick settings on `dataset` (a built-in, or a dataset object
/// naming the reader's file) with `tenants` tenants of overlap `overlap` (the `tenants` arrival
/// model; a file whose arrival is already tenants by a field keeps it) and `policies`. Each
/// policy runs under every isolation setting (the price of isolation is against `shared`).
pub fn tenants_definition(
    dataset: DatasetId,
    tenants: u32,
    overlap: f64,
    policies: Vec<PolicyKind>,
) -> Result<ExperimentSpec> {
    check_tenants(tenants, overlap)?;
    check_policies(&policies)?;
    let mut spec = quick_spec("tenants")?;
    let arrival = ArrivalSpec::Tenants { tenants: Some(tenants), overlap: Some(overlap), tenant_by: None };
    spec.dataset = match dataset {
        DatasetId::Spec(mut s) => {
            if !matches!(s.arrival, Some(ArrivalSpec::Tenants { tenant_by: Some(_), .. })) {
                s.arrival = Some(arrival);
            }
            DatasetId::Spec(s)
        }
        builtin => {
            let name = super::presets::dataset_name(&builtin);
            DatasetId::Spec(Box::new(DatasetSpec {
                builtin: Some(name),
                arrival: Some(arrival),
                ..Default::default()
            }))
        }
    };
    spec.measure = Measure::Tenants { policies };
    fit_k(&mut spec);
    spec.validate()?;
    Ok(spec)
}

/// The `attack` experiment at its quick settings on `dataset` (its own arrival model) with
/// `policies` attacked at each probability of `p` (each in [0, 1], none twice) and confusable
/// pairs nearer than `distance` (> 0). Data without ground truth is refused with the engine's one
/// message: the attacker picks queries whose gold answer differs.
pub fn attack_definition(
    dataset: DatasetId,
    policies: Vec<PolicyKind>,
    p: Vec<f64>,
    distance: f64,
) -> Result<ExperimentSpec> {
    check_policies(&policies)?;
    for (i, v) in p.iter().enumerate() {
        if !(v.is_finite() && (0.0..=1.0).contains(v)) {
            return Err(Error::param("p", format!("each attack probability must be in [0, 1], got {v}")));
        }
        if p[..i].contains(v) {
            return Err(Error::param("p", format!("{v} is listed twice")));
        }
    }
    if !(distance.is_finite() && distance > 0.0) {
        return Err(Error::param(
            "distance",
            format!("the confusable distance d must be positive, got {distance}"),
        ));
    }
    if dataset == DatasetId::Plane {
        return Err(Error::unsupported(
            "the attack sends queries whose gold answer differs from a cached one's, and the dataset plane has no ground truth; run it on data with ground truth (nq-trivia, synthetic, or your file with answers or labels)",
        ));
    }
    let mut spec = quick_spec("attack")?;
    spec.dataset = dataset;
    spec.measure = Measure::Attack { policies, p, distance };
    fit_k(&mut spec);
    spec.validate()?;
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtins_own_settings_give_the_quick_builtins() {
        let t = quick_spec("tenants").unwrap();
        let Measure::Tenants { policies } = t.measure.clone() else { panic!() };
        assert_eq!(tenants_definition(DatasetId::NqTrivia, 3, 0.5, policies).unwrap(), t);
        let a = quick_spec("attack").unwrap();
        let Measure::Attack { policies, p, distance } = a.measure.clone() else { panic!() };
        assert_eq!(attack_definition(DatasetId::NqTrivia, policies, p, distance).unwrap(), a);
    }

    #[test]
    fn every_bad_setting_is_one_plain_message() {
        let lru = || vec![PolicyKind::Lru];
        let msg = |r: Result<ExperimentSpec>| r.unwrap_err().to_string();
        assert!(msg(tenants_definition(DatasetId::NqTrivia, 0, 0.5, lru())).contains("tenants"));
        assert!(msg(tenants_definition(DatasetId::NqTrivia, 257, 0.5, lru())).contains("tenants"));
        for w in [f64::NAN, -1.0, 2.0] {
            assert!(msg(tenants_definition(DatasetId::NqTrivia, 2, w, lru())).contains("overlap"));
        }
        assert!(msg(tenants_definition(DatasetId::NqTrivia, 2, 0.5, vec![])).contains("policies"));
        let twice = vec![PolicyKind::Lru, PolicyKind::Lru];
        assert!(msg(tenants_definition(DatasetId::NqTrivia, 2, 0.5, twice)).contains("twice"));
        for p in [vec![-0.1], vec![1.5], vec![f64::NAN], vec![], vec![0.1, 0.1]] {
            assert!(msg(attack_definition(DatasetId::NqTrivia, lru(), p, 0.15)).contains("p"));
        }
        for d in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(msg(attack_definition(DatasetId::NqTrivia, lru(), vec![0.1], d)).contains("distance"));
        }
        assert!(msg(attack_definition(DatasetId::Plane, lru(), vec![0.1], 0.15)).contains("no ground truth"));
    }

    #[test]
    fn synthetic_takes_the_frontiers_k_and_a_tenants_field_is_kept() {
        let t = tenants_definition(DatasetId::Synthetic, 2, 0.0, vec![PolicyKind::Lru]).unwrap();
        assert_eq!(t.params.k, SYNTHETIC_FRONTIER_K);
        let a = attack_definition(DatasetId::Synthetic, vec![PolicyKind::Lru], vec![0.5], 0.2).unwrap();
        assert_eq!(a.params.k, SYNTHETIC_FRONTIER_K);
        let by = ArrivalSpec::Tenants { tenants: None, overlap: None, tenant_by: Some("team".into()) };
        let file =
            DatasetSpec { jsonl: Some("a.jsonl".into()), arrival: Some(by.clone()), ..Default::default() };
        let t = tenants_definition(DatasetId::Spec(Box::new(file)), 2, 0.5, vec![PolicyKind::Lru]).unwrap();
        assert_eq!(t.dataset.arrival(), Some(&by));
    }
}
