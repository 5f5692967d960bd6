//! The threats view's keys of the link (docs/SPEC-NOTES.md, "Tenants" and "Adversarial
//! arrivals"): the number of tenants and their overlap, the isolation settings drawn, the
//! policies, the attack probabilities and the confusable distance. Each is one entry of the key
//! table ([`super::url_keys`]), read, written and checked as the engine checks the experiments'
//! settings (`csc::experiment::tenants_definition`, `attack_definition`); the three numbers are
//! the view's controls too.

use super::entry::{by_id, id_of, unless, UrlKey};
use crate::bindings::controls::{number, PageControl};
use crate::error::{Error, Result};
use crate::online::{Isolation, PolicyKind};

fn read_number(v: &str) -> std::result::Result<f64, String> {
    v.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(String::new)
}
fn numbers(v: &[f64]) -> String {
    v.iter().map(f64::to_string).collect::<Vec<_>>().join(",")
}
fn ids<T: serde::Serialize>(v: &[T]) -> String {
    v.iter().map(id_of).collect::<Vec<_>>().join(",")
}
/// A list: at least one, none twice.
fn listed<T: PartialEq>(name: &str, v: &[T], show: impl Fn(&T) -> String) -> Result<()> {
    if v.is_empty() {
        return Err(Error::param(name, "name at least one"));
    }
    for (i, x) in v.iter().enumerate() {
        if v[..i].contains(x) {
            return Err(Error::param(name, format!("`{}` is listed twice", show(x))));
        }
    }
    Ok(())
}

/// A number control of the threats view.
fn control(id: &'static str, label: &str, hint: &str, min: f64, max: Option<f64>, step: f64) -> PageControl {
    PageControl {
        section: "threats",
        reference: "SPEC-NOTES#tenants",
        min: Some(min),
        max,
        step: Some(step),
        ..number(id, id.into(), label.into(), hint.into())
    }
}

/// The threats view's keys, in the order the link writes them.
pub(super) fn threat_keys() -> Vec<UrlKey> {
    vec![
        UrlKey {
            name: "tenants",
            allowed: || "a whole number from 1 to 256".into(),
            read: |s, v| {
                s.tenants = v.parse().map_err(|_| String::new())?;
                Ok(())
            },
            write: |s, d| unless(&s.tenants, &d.tenants, || s.tenants.to_string()),
            check: |s| crate::stream::check_tenants(s.tenants, s.overlap),
            controls: || {
                vec![control(
                    "tenants",
                    "Tenants N",
                    "Each round's tenant uniform; each with its own popularity",
                    1.0,
                    Some(256.0),
                    1.0,
                )]
            },
        },
        UrlKey {
            name: "overlap",
            allowed: || "a number in [0, 1]".into(),
            read: |s, v| {
                s.overlap = read_number(v)?;
                Ok(())
            },
            write: |s, d| unless(&s.overlap.to_bits(), &d.overlap.to_bits(), || s.overlap.to_string()),
            check: |s| crate::stream::check_tenants(s.tenants, s.overlap),
            controls: || {
                vec![control(
                    "overlap",
                    "Overlap ω",
                    "Correlation of two tenants' log-popularities: 1 the same, 0 independent",
                    0.0,
                    Some(1.0),
                    0.05,
                )]
            },
        },
        UrlKey {
            name: "isolations",
            allowed: || "one or more of shared, partitioned, tagged, separated by commas, none twice".into(),
            read: |s, v| {
                s.isolations = v.split(',').map(by_id::<Isolation>).collect::<std::result::Result<_, _>>()?;
                Ok(())
            },
            write: |s, d| unless(&s.isolations, &d.isolations, || ids(&s.isolations)),
            check: |s| listed("isolations", &s.isolations, |i| i.id().to_string()),
            controls: Vec::new,
        },
        UrlKey {
            name: "threat_policies",
            allowed: || {
                let known = PolicyKind::ALL.iter().map(|p| p.info().id).collect::<Vec<_>>().join(", ");
                format!("one or more of {known}, separated by commas, none twice")
            },
            read: |s, v| {
                s.threat_policies = v
                    .split(',')
                    .map(|p| PolicyKind::parse(p).map_err(|_| String::new()))
                    .collect::<std::result::Result<_, _>>()?;
                Ok(())
            },
            write: |s, d| unless(&s.threat_policies, &d.threat_policies, || ids(&s.threat_policies)),
            check: |s| listed("threat_policies", &s.threat_policies, |p| p.label().to_string()),
            controls: Vec::new,
        },
        UrlKey {
            name: "attack_p",
            allowed: || "attack probabilities in [0, 1], separated by commas, none twice".into(),
            read: |s, v| {
                s.attack_p = v.split(',').map(read_number).collect::<std::result::Result<_, _>>()?;
                Ok(())
            },
            write: |s, d| unless(&numbers(&s.attack_p), &numbers(&d.attack_p), || numbers(&s.attack_p)),
            check: |s| {
                listed("attack_p", &s.attack_p, |p| p.to_string())?;
                match s.attack_p.iter().find(|p| !(0.0..=1.0).contains(*p)) {
                    Some(p) => Err(Error::param(
                        "attack_p",
                        format!("each attack probability must be in [0, 1], got {p}"),
                    )),
                    None => Ok(()),
                }
            },
            controls: Vec::new,
        },
        UrlKey {
            name: "distance",
            allowed: || "a number > 0".into(),
            read: |s, v| {
                s.distance = read_number(v)?;
                Ok(())
            },
            write: |s, d| unless(&s.distance.to_bits(), &d.distance.to_bits(), || s.distance.to_string()),
            check: |s| {
                if s.distance > 0.0 {
                    Ok(())
                } else {
                    Err(Error::param(
                        "distance",
                        format!("the confusable distance d must be positive, got {}", s.distance),
                    ))
                }
            },
            controls: || {
                vec![control(
                    "distance",
                    "Confusable distance d",
                    "Pairs nearer than d (normalised) whose gold answers differ",
                    0.01,
                    None,
                    0.01,
                )]
            },
        },
    ]
}
