//! Unit tests of the merged learner against the dense reference and the rows form.

use super::super::reference::{gamma_dense, posterior_dense};
use super::*;
use crate::space::Points;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

/// The merged learner agrees with the dense solve over every row (repeats included) at
/// observed, tracked and fresh points, and `γ` with the dense `½ log det(I + K/λ)` — across
/// the switch from rows to merged, several flushes of the deferred terms, and reuse of the
/// tracked products.
#[test]
fn merged_repeats_match_the_dense_solve() {
    let (kernel, metric) = (RbfKernel::new(0.2).unwrap(), Metric::new(1.0).unwrap());
    let lambda = 0.1;
    let mut krr = OnlineKrr::new(kernel, metric, lambda, 2).unwrap();
    let mut obs = Points::new(2).unwrap();
    let mut ys = Vec::new();
    let grid: Vec<[f32; 2]> =
        (0..23).map(|i| [(i % 7) as f32 * 0.13, (i / 7) as f32 * 0.21 + 0.02]).collect();
    let ids: Vec<usize> = [0usize, 5, 11, 22].iter().map(|&i| krr.track(&grid[i])).collect();
    let mut state = 7u64;
    for step in 0..120 {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let i = ((state >> 33) as usize % 23).min(if step < 10 { step } else { 22 });
        let x = grid[i];
        let y = 0.2 + 0.5 * ((state >> 20) % 1000) as f64 / 1000.0;
        if step % 3 == 0 {
            let _ = krr.posterior_tracked(ids[step % 4]);
            krr.add_observation_at_tracked(ids[step % 4], &x, y).unwrap();
        } else if step % 3 == 1 {
            let (_, solved) = krr.posterior_and_solve(&x);
            krr.add_observation_solved(&x, y, solved).unwrap();
        } else {
            krr.add_observation(&x, y).unwrap();
        }
        obs.push(&x).unwrap();
        ys.push(y);
        if step % 17 == 0 || step == 119 {
            let g = gamma_dense(&obs, kernel, metric, lambda);
            assert!(close(krr.gamma(), g, 1e-10), "γ {} vs {g} at {step}", krr.gamma());
            let probe = [0.31f32, 0.47];
            for (p, at) in [(krr.posterior_at(&probe), probe), (krr.posterior_at(&grid[3]), grid[3])]
                .into_iter()
                .chain(ids.iter().map(|&id| (krr.posterior_tracked(id), grid[[0, 5, 11, 22][id]])))
            {
                let d = posterior_dense(&obs, &ys, kernel, metric, lambda, &at);
                assert!(close(p.mean, d.mean, 1e-10), "mean {} vs {} at {step}", p.mean, d.mean);
                assert!(close(p.var, d.var, 1e-10), "var {} vs {} at {step}", p.var, d.var);
            }
        }
    }
    assert!(krr.is_merged());
    assert_eq!(krr.n_obs(), 120);
    assert!(krr.add_observation(&grid[0], f64::NAN).is_err());
    assert!(krr.add_observation(&[0.0], 0.1).is_err());
    assert_eq!(krr.n_obs(), 120);
}

/// Without exact repeats the learner stays the row-per-observation form.
#[test]
fn no_repeat_keeps_the_rows_form() {
    let (kernel, metric) = (RbfKernel::new(0.2).unwrap(), Metric::new(1.0).unwrap());
    let mut krr = OnlineKrr::new(kernel, metric, 0.1, 2).unwrap();
    for i in 0..10 {
        krr.add_observation(&[i as f32 * 0.1, 0.5], 0.3).unwrap();
    }
    assert!(!krr.is_merged());
    krr.add_observation(&[0.0, 0.5], 0.3).unwrap();
    assert!(krr.is_merged());
}

/// A vanishing ridge with repeats and near-duplicates keeps every posterior and `γ` finite
/// (variances in `[0, 1]`), so the LCBs Reverse Greedy receives stay finite.
#[test]
fn tiny_ridge_stays_finite() {
    let (kernel, metric) = (RbfKernel::new(0.2).unwrap(), Metric::new(1.0).unwrap());
    for ridge in [1e-15, 1e-300] {
        let mut krr = OnlineKrr::new(kernel, metric, ridge, 2).unwrap();
        let ids = [krr.track(&[0.1, 0.1]), krr.track(&[0.9, 0.9])];
        for i in 0..80 {
            let x = [0.1 + (i % 3) as f32 * 1e-6, 0.1];
            krr.add_observation(&x, 0.5 + 0.01 * (i % 7) as f64).unwrap();
            for p in
                [krr.posterior_tracked(ids[0]), krr.posterior_tracked(ids[1]), krr.posterior_at(&[0.4, 0.3])]
            {
                assert!(p.mean.is_finite() && (0.0..=1.0).contains(&p.var), "{p:?} at {i}");
            }
            assert!(krr.gamma().is_finite());
        }
        assert!(krr.is_merged());
    }
}

/// The merged learner's bits on a fixed run (repeats, flushes, tracked and fresh points): a
/// change of its arithmetic must be deliberate (and re-derive this constant, with the
/// reason in the commit). The AVX2 and portable copies of the loops perform the same
/// operations (no fused multiply-add), so the constant holds for both.
#[test]
fn merged_learner_keeps_its_bits() {
    let (kernel, metric) = (RbfKernel::new(0.2).unwrap(), Metric::new(1.0).unwrap());
    let mut krr = OnlineKrr::new(kernel, metric, 0.1, 3).unwrap();
    let pts: Vec<[f32; 3]> = (0..40).map(|i| [(i % 5) as f32 * 0.17, (i / 5) as f32 * 0.09, 0.3]).collect();
    let ids: Vec<usize> = (0..40).step_by(3).map(|i| krr.track(&pts[i])).collect();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut fnv = |w: u64| {
        for b in w.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut state = 11u64;
    for step in 0..200 {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let x = pts[(state >> 33) as usize % 40];
        let y = ((state >> 17) % 997) as f64 / 997.0;
        let id = ids[step % ids.len()];
        let p = krr.posterior_tracked(id);
        fnv(p.mean.to_bits());
        fnv(p.var.to_bits());
        krr.add_observation_at_tracked(id, &x, y).unwrap();
        fnv(krr.gamma().to_bits());
    }
    for p in krr.posterior_tracked_all() {
        fnv(p.mean.to_bits());
        fnv(p.var.to_bits());
    }
    let q = krr.posterior_at(&[0.33, 0.41, 0.2]);
    fnv(q.mean.to_bits());
    fnv(q.var.to_bits());
    assert!(krr.is_merged());
    println!("merged fingerprint {h:#018x}");
    assert_eq!(h, MERGED_FINGERPRINT);
}

const MERGED_FINGERPRINT: u64 = 0xc300_3774_312b_c454;
