//! The `plane` dataset (SPEC §7, ours): `d = 2`, arrivals from a fixed mixture of Gaussian blobs
//! in the unit square, a smooth cost surface, `D = √2`. Everything — cells, costs, the KRR fit —
//! can be drawn exactly, without projection.

use super::Dataset;
use crate::error::Result;
use crate::portable;
use crate::space::Points;
use rand::Rng;

/// One mixture component: centre, standard deviation per axis, mixing weight.
#[derive(Clone, Copy, Debug)]
pub struct Blob {
    pub center: [f64; 2],
    pub sd: f64,
    pub weight: f64,
}

/// The mixture: six blobs of different sizes and popularity.
pub const BLOBS: [Blob; 6] = [
    Blob { center: [0.20, 0.25], sd: 0.05, weight: 0.25 },
    Blob { center: [0.75, 0.20], sd: 0.07, weight: 0.20 },
    Blob { center: [0.50, 0.55], sd: 0.04, weight: 0.20 },
    Blob { center: [0.18, 0.78], sd: 0.06, weight: 0.15 },
    Blob { center: [0.80, 0.75], sd: 0.05, weight: 0.12 },
    Blob { center: [0.50, 0.92], sd: 0.03, weight: 0.08 },
];

/// `D = √2`, the diameter of the unit square (SPEC §1).
pub const DIST_SCALE: f64 = std::f64::consts::SQRT_2;

/// The expected serving cost `c(x)`: `0.01 + 0.99·s(x)` with
/// `s(x, y) = 0.5 + 0.3·sin(2πx)·cos(2πy) + 0.2·(x − 0.5)` ∈ [0.1, 0.9]; smooth, in (0, 1].
pub fn cost(p: &[f32]) -> f64 {
    use std::f64::consts::PI;
    let (x, y) = (p[0] as f64, p[1] as f64);
    let s = 0.5 + 0.3 * portable::sin(2.0 * PI * x) * portable::cos(2.0 * PI * y) + 0.2 * (x - 0.5);
    0.01 + 0.99 * s
}

/// One arrival: a blob by weight, then a Gaussian draw clamped into the unit square.
pub fn sample<R: Rng + ?Sized>(rng: &mut R) -> [f32; 2] {
    let total: f64 = BLOBS.iter().map(|b| b.weight).sum();
    let mut u = rng.random::<f64>() * total;
    let mut blob = &BLOBS[BLOBS.len() - 1];
    for b in &BLOBS {
        if u < b.weight {
            blob = b;
            break;
        }
        u -= b.weight;
    }
    let x = portable::normal(rng, blob.center[0], blob.sd).clamp(0.0, 1.0);
    let y = portable::normal(rng, blob.center[1], blob.sd).clamp(0.0, 1.0);
    [x as f32, y as f32]
}

/// The blob centres as a (display) universe with their costs and `D = √2`.
pub fn universe() -> Result<Dataset> {
    let rows: Vec<[f32; 2]> = BLOBS.iter().map(|b| [b.center[0] as f32, b.center[1] as f32]).collect();
    let points = Points::from_rows(&rows)?;
    let n = rows.len();
    let texts = (0..n).map(|i| format!("blob {}", (b'A' + i as u8) as char)).collect();
    let mut d = Dataset::new("plane", points, vec![0; n], texts, vec![0; n], vec!["plane".into()], 0.01)?;
    d.costs = rows.iter().map(|r| cost(r)).collect();
    d.dist_scale = DIST_SCALE;
    d.ground_truth = super::GroundTruth::Absent(
        "plane has no ground truth: its queries are points of the unit square, not questions (SPEC §14)"
            .into(),
    );
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn cost_surface_and_samples_stay_in_range() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for _ in 0..2000 {
            let p = sample(&mut rng);
            assert!((0.0..=1.0).contains(&p[0]) && (0.0..=1.0).contains(&p[1]));
            let c = cost(&p);
            assert!(c > 0.0 && c <= 1.0);
        }
        assert!((cost(&[0.5, 0.5]) - (0.01 + 0.99 * 0.5)).abs() < 1e-6);
        let u = universe().unwrap();
        assert_eq!(u.dist_scale, DIST_SCALE);
        assert_eq!(u.len(), 6);
    }
}
