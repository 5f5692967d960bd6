//! Unit tests of the KRR learner against the dense reference.

use super::reference::{gamma_dense, posterior_dense};
use super::*;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

fn plane() -> (RbfKernel, Metric) {
    (RbfKernel::new(0.2).unwrap(), Metric::new(1.0).unwrap())
}

#[test]
fn kernel_values_and_validation() {
    let (k, m) = plane();
    assert_eq!(k.of_distance(0.0), 1.0);
    assert!(close(k.of_distance(0.2), (-0.5f64).exp(), 1e-15));
    assert!(close(k.eval(&m, &[0.0, 0.0], &[0.25, 0.5]), (-0.3125f64 / 0.08).exp(), 1e-15));
    assert_eq!(RbfKernel::default(), k);
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(
            matches!(RbfKernel::new(bad), Err(Error::InvalidParameter { name, .. }) if name == "kernel_length")
        );
    }
}

#[test]
fn one_observation_by_hand() {
    let (k, m) = plane();
    let (r, y) = (0.1, 0.7);
    let mut krr = Krr::new(k, m, r, 2).unwrap();
    assert_eq!(krr.posterior_at(&[0.5, 0.5]), Posterior::PRIOR);
    krr.add_observation(&[0.0, 0.0], y).unwrap();
    let p = krr.posterior_at(&[0.0, 0.0]);
    assert!(close(p.mean, y / (1.0 + r), 1e-14));
    assert!(close(p.var, 1.0 - 1.0 / (1.0 + r), 1e-14));
    // a point at normalised distance 0.25
    let kap = (-0.0625f64 / 0.08).exp();
    let q = krr.posterior_at(&[0.25, 0.0]);
    assert!(close(q.mean, kap * y / (1.0 + r), 1e-14));
    assert!(close(q.var, 1.0 - kap * kap / (1.0 + r), 1e-14));
    // γ for one observation with r = λ is ½ ln(1 + 1/λ)
    assert!(close(krr.gamma(), 0.5 * (1.0 + 1.0 / r).ln(), 1e-14));
    assert!(close(krr.gamma(), 1.1989476363991853, 1e-14));
}

#[test]
fn two_observations_by_hand() {
    let (k, m) = plane();
    let (r, y1, y2) = (0.05, 0.3, 0.9);
    let mut krr = Krr::new(k, m, r, 2).unwrap();
    krr.add_observation(&[0.0, 0.0], y1).unwrap();
    krr.add_observation(&[0.25, 0.0], y2).unwrap();
    let id = krr.track(&[0.5, 0.0]);
    let k12 = (-0.0625f64 / 0.08).exp();
    let (k1, k2) = ((-0.25f64 / 0.08).exp(), k12); // x at distance 0.5 and 0.25
                                                   // (K + rI)⁻¹ = 1/det · [[1+r, −k12], [−k12, 1+r]]
    let det = (1.0 + r) * (1.0 + r) - k12 * k12;
    let (i11, i12) = ((1.0 + r) / det, -k12 / det);
    let mean = k1 * (i11 * y1 + i12 * y2) + k2 * (i12 * y1 + i11 * y2);
    let var = 1.0 - (k1 * k1 * i11 + 2.0 * k1 * k2 * i12 + k2 * k2 * i11);
    for p in [krr.posterior_at(&[0.5, 0.0]), krr.posterior_tracked(id)] {
        assert!(close(p.mean, mean, 1e-13), "{} vs {mean}", p.mean);
        assert!(close(p.var, var, 1e-13), "{} vs {var}", p.var);
    }
    let g = 0.5 * ((1.0 + 1.0 / r).powi(2) - (k12 / r).powi(2)).ln();
    assert!(close(krr.gamma(), g, 1e-13));
    assert!(close(gamma_dense(krr.observations(), k, m, r), g, 1e-13));
    let d = posterior_dense(krr.observations(), krr.targets(), k, m, r, &[0.5, 0.0]);
    assert!(close(d.mean, mean, 1e-13) && close(d.var, var, 1e-13));
}

#[test]
fn growing_cholesky_matches_nalgebra() {
    let a = nalgebra::DMatrix::from_row_slice(3, 3, &[1.0, 0.5, 0.2, 0.5, 1.0, 0.3, 0.2, 0.3, 1.0]);
    let r = 0.1;
    let mut g = GrowingCholesky::new(r);
    for i in 0..3 {
        let cross: Vec<f64> = (0..i).map(|j| a[(i, j)]).collect();
        g.push(&cross, a[(i, i)]);
    }
    let l = (a + nalgebra::DMatrix::identity(3, 3) * r).cholesky().unwrap().l();
    for i in 0..3 {
        for j in 0..=i {
            assert!(close(g.row(i)[j], l[(i, j)], 1e-14));
        }
    }
    assert_eq!(g.jitter_events(), 0);
    let mut b = vec![1.0, 2.0, 3.0];
    g.solve_lower_in_place(&mut b);
    let lb = &l * nalgebra::DVector::from_vec(b);
    assert!((lb - nalgebra::DVector::from_vec(vec![1.0, 2.0, 3.0])).norm() < 1e-13);
}

/// Reusing the posterior's solve for the observation at the same point gives the same
/// learner, bit for bit (factor, targets, γ, posteriors), including across duplicates; a
/// stale solve falls back to the full step.
#[test]
fn observation_with_reused_solve_is_identical() {
    let (kernel, metric) = plane();
    let mut plain = Krr::new(kernel, metric, 0.1, 2).unwrap();
    let mut reuse = plain.clone();
    let xs: [[f32; 2]; 6] = [[0.1, 0.2], [0.4, 0.4], [0.1, 0.2], [0.9, 0.05], [0.33, 0.71], [0.4, 0.4]];
    for (i, x) in xs.iter().enumerate() {
        let y = 0.1 + 0.13 * i as f64;
        let (post, solved) = reuse.posterior_and_solve(x);
        assert_eq!(post, plain.posterior_at(x));
        if i == 4 {
            // An observation in between makes the solve stale: the full step is taken.
            reuse.add_observation(&[0.5, 0.5], 0.2).unwrap();
            plain.add_observation(&[0.5, 0.5], 0.2).unwrap();
        }
        reuse.add_observation_solved(x, y, solved).unwrap();
        plain.add_observation(x, y).unwrap();
        assert_eq!(reuse.cholesky().packed, plain.cholesky().packed);
        assert_eq!(reuse.a, plain.a);
        assert_eq!(reuse.gamma().to_bits(), plain.gamma().to_bits());
    }
}

/// Observing at a tracked point through its projection gives the same learner as the full
/// step, bit for bit (factor, targets, γ, posteriors), including duplicates, a point whose
/// projection lags several observations behind, and a point that is not the tracked one.
#[test]
fn observation_at_a_tracked_point_is_identical() {
    let (kernel, metric) = plane();
    let mut plain = Krr::new(kernel, metric, 0.1, 2).unwrap();
    let mut reuse = plain.clone();
    let xs: [[f32; 2]; 7] =
        [[0.1, 0.2], [0.4, 0.4], [0.1, 0.2], [0.9, 0.05], [0.33, 0.71], [0.4, 0.4], [0.1, 0.2]];
    let ids = [reuse.track(&xs[0]), reuse.track(&xs[1]), reuse.track(&xs[3]), reuse.track(&xs[4])];
    let id_of = |x: &[f32; 2]| match x {
        [a, _] if *a == 0.1 => ids[0],
        [a, _] if *a == 0.4 => ids[1],
        [a, _] if *a == 0.9 => ids[2],
        _ => ids[3],
    };
    for (i, x) in xs.iter().enumerate() {
        let y = 0.1 + 0.13 * i as f64;
        if i % 2 == 0 {
            assert_eq!(reuse.posterior_tracked(id_of(x)), plain.posterior_at(x));
        }
        if i == 4 {
            // An observation at a point that is not the tracked one: the full step.
            reuse.add_observation_at_tracked(ids[0], &[0.5, 0.5], 0.2).unwrap();
            plain.add_observation(&[0.5, 0.5], 0.2).unwrap();
        }
        reuse.add_observation_at_tracked(id_of(x), x, y).unwrap();
        plain.add_observation(x, y).unwrap();
        assert_eq!(reuse.cholesky().packed, plain.cholesky().packed);
        assert_eq!(reuse.a, plain.a);
        assert_eq!(reuse.gamma().to_bits(), plain.gamma().to_bits());
    }
    assert!(reuse.add_observation_at_tracked(ids[0], &xs[0], f64::NAN).is_err());
    assert_eq!(reuse.n_obs(), plain.n_obs());
}

/// After `reserve(n)`, the next `n` observations move neither the factor nor a projection.
#[test]
fn reserve_prevents_reallocation() {
    let (kernel, metric) = plane();
    let mut krr = Krr::new(kernel, metric, 0.1, 2).unwrap();
    let id = krr.track(&[0.2, 0.2]);
    krr.add_observation(&[0.1, 0.1], 0.3).unwrap();
    krr.posterior_tracked(id);
    let mut grown = krr.clone();
    grown.reserve(3);
    let (factor, proj) = (grown.chol.packed.as_ptr(), grown.tracked[id].v.as_ptr());
    for (i, x) in [[0.5f32, 0.5], [0.9, 0.1], [0.3, 0.7]].iter().enumerate() {
        grown.add_observation(x, 0.1 * i as f64).unwrap();
        krr.add_observation(x, 0.1 * i as f64).unwrap();
        assert_eq!(grown.posterior_tracked(id), krr.posterior_tracked(id));
    }
    assert_eq!((grown.chol.packed.as_ptr(), grown.tracked[id].v.as_ptr()), (factor, proj));
}

#[test]
fn bounds_on_fixed_numbers() {
    let p = Posterior { mean: 0.3, var: 0.04 };
    assert!(close(p.sd(), 0.2, 1e-15));
    // 0.3 + (1 + √(ln 200 / 1))·0.2
    assert!(close(pessimistic_cost(&p, 10, 5, 0.1, 1.0, 0.05, 1.0), 0.9603614826002731, 1e-14));
    assert!(close(offline_width_factor(10, 5, 0.1, 1.0, 0.05), 3.301807413001365, 1e-14));
    assert_eq!(pessimistic_cost(&Posterior::PRIOR, 0, 5, 0.1, 1.0, 0.05, 2.0), 1.0);
    // 0.3 − (1 + 0.05·√(2(2 + ln 40)))·0.2
    assert!(close(online_width_factor(2.0, 1.0, 0.05, 0.05), 1.168654668688921, 1e-14));
    assert!(close(optimistic_cost(&p, 3, 2.0, 1.0, 0.05, 0.05, 1.0), 0.06626906626221579, 1e-14));
    assert_eq!(optimistic_cost(&Posterior::PRIOR, 0, 0.0, 1.0, 0.05, 0.05, 3.0), -1.0);
    // β scales the width, β = 0 is the plain mean
    assert_eq!(optimistic_cost(&p, 3, 2.0, 1.0, 0.05, 0.05, 0.0), 0.3);
}

#[test]
fn rejects_bad_input() {
    let (k, m) = plane();
    for bad in [0.0, -0.1, f64::NAN, f64::INFINITY] {
        assert!(Krr::new(k, m, bad, 2).is_err());
    }
    assert!(Krr::new(RbfKernel { length_scale: -1.0 }, m, 0.1, 2).is_err());
    assert!(Krr::new(k, m, 0.1, 0).is_err());
    let mut krr = Krr::new(k, m, 0.1, 2).unwrap();
    assert!(krr.add_observation(&[0.0], 0.5).is_err());
    assert!(krr.add_observation(&[0.0, f32::NAN], 0.5).is_err());
    assert!(krr.add_observation(&[0.0, 0.0], f64::INFINITY).is_err());
    assert!(krr.add_observation(&[0.0, 0.0], f64::NAN).is_err());
    assert_eq!(krr.n_obs(), 0);
    assert_eq!(krr.gamma(), 0.0);
    let pts = Points::from_rows(&[[0.0f32, 0.0]]).unwrap();
    assert!(Krr::fit(k, m, 0.1, &pts, &[0.1, 0.2]).is_err());
}

#[test]
fn duplicates_with_tiny_ridge_jitter_and_stay_finite() {
    let (k, m) = plane();
    let mut krr = Krr::new(k, m, 1e-15, 2).unwrap();
    let id = krr.track(&[0.1, 0.1]);
    for i in 0..6 {
        krr.add_observation(&[0.1, 0.1], 0.5 + 0.01 * i as f64).unwrap();
    }
    assert!(krr.jitter_events() >= 1);
    let p = krr.posterior_tracked(id);
    assert!(p.mean.is_finite() && p.var.is_finite() && p.var >= 0.0);
    assert!(krr.gamma().is_finite());
    assert_eq!(p, krr.posterior_at(&[0.1, 0.1]));
}
