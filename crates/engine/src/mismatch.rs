//! The mismatch cost `φ` (SPEC §3, paper §2 "Similarity and Mismatch Costs").
//!
//! `φ: R₊ → [0, 1]` must be non-decreasing. The paper's example and the SPEC default is the
//! clipped linear `φ(d) = min(ζ·d, 1)`; a clipped quadratic is offered as a second, smoother
//! choice. `d = ∞` (the empty cache) gives `φ = 1`.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// A non-decreasing mismatch cost with values in `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Phi"))]
pub enum Mismatch {
    /// `φ(d) = min(ζ·d, 1)` (SPEC §3 default, ζ = 1).
    ClippedLinear { zeta: f64 },
    /// `φ(d) = min((ζ·d)², 1)`: forgiving for near matches, same cap.
    ClippedQuadratic { zeta: f64 },
}

/// `{"kind": "clipped_linear" | "clipped_quadratic", "zeta": ζ}`, read by [`crate::json::tagged`].
impl<'de> Deserialize<'de> for Mismatch {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Zeta {
            zeta: f64,
        }
        const KINDS: &[&str] = &["clipped_linear", "clipped_quadratic"];
        let (kind, rest) = crate::json::tagged(d, "kind", KINDS, "internally tagged enum Mismatch")?;
        let Zeta { zeta } = crate::json::fields(&rest)?;
        Ok(if kind == 0 { Mismatch::ClippedLinear { zeta } } else { Mismatch::ClippedQuadratic { zeta } })
    }
}

impl Default for Mismatch {
    fn default() -> Self {
        Mismatch::ClippedLinear { zeta: 1.0 }
    }
}

// read by the web layer through this crate's one reader (`crate::json::FromJson`)
crate::json::from_json!(Mismatch);

impl Mismatch {
    /// Validates the parameters (ζ > 0 and finite).
    pub fn validate(&self) -> Result<()> {
        let zeta = match *self {
            Mismatch::ClippedLinear { zeta } | Mismatch::ClippedQuadratic { zeta } => zeta,
        };
        if !(zeta.is_finite() && zeta > 0.0) {
            return Err(Error::param(
                "zeta",
                format!("the mismatch scale ζ must be positive and finite, got {zeta}"),
            ));
        }
        Ok(())
    }

    /// `φ(d)`; `d = ∞` gives 1.
    #[inline]
    pub fn phi(&self, d: f64) -> f64 {
        match *self {
            Mismatch::ClippedLinear { zeta } => (zeta * d).min(1.0),
            Mismatch::ClippedQuadratic { zeta } => {
                let z = zeta * d;
                (z * z).min(1.0)
            }
        }
    }

    /// The smallest distance at which `φ` reaches `level` (∞ if it never does, i.e. `level > 1`):
    /// a cache item farther than this from a point cannot serve it more cheaply than `level`.
    pub fn reach(&self, level: f64) -> f64 {
        if level > 1.0 {
            return f64::INFINITY;
        }
        let level = level.max(0.0);
        match *self {
            Mismatch::ClippedLinear { zeta } => level / zeta,
            Mismatch::ClippedQuadratic { zeta } => level.sqrt() / zeta,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipped_linear_by_hand() {
        let phi = Mismatch::ClippedLinear { zeta: 2.0 };
        assert_eq!(phi.phi(0.0), 0.0);
        assert_eq!(phi.phi(0.25), 0.5);
        assert_eq!(phi.phi(0.5), 1.0);
        assert_eq!(phi.phi(3.0), 1.0);
        assert_eq!(phi.phi(f64::INFINITY), 1.0);
        assert_eq!(phi.reach(0.5), 0.25);
        let q = Mismatch::ClippedQuadratic { zeta: 2.0 };
        assert_eq!(q.phi(0.25), 0.25);
        assert_eq!(q.phi(f64::INFINITY), 1.0);
        assert!(Mismatch::ClippedLinear { zeta: 0.0 }.validate().is_err());
        assert!(Mismatch::ClippedQuadratic { zeta: f64::NAN }.validate().is_err());
    }
}
