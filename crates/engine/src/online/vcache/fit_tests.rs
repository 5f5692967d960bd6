//! Hand-computed checks of SPEC §15's fit and exploration probability. The reference values
//! come from a closed form (the two-point case) or from an independent pure-Python
//! implementation (Newton–Raphson in `math`, `statistics.NormalDist().inv_cdf`), quoted here.

use super::*;

fn obs(v: &[(f64, u8)]) -> Vec<Observation> {
    v.iter().map(|&(s, y)| Observation { s, correct: y == 1 }).collect()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

#[test]
fn rounding_is_half_away_from_zero() {
    assert_eq!(round_to(2.5, 1.0), 3.0);
    assert_eq!(round_to(-2.5, 1.0), -3.0);
    assert_eq!(round_to(0.12346, 1e3), 0.123);
    assert_eq!(round_to(0.98000004, 1e5), 0.98);
    // s = 1 − (D·d)²/2: D = 2, d = 0.5 → 0.5; D = √2, d = 1 → 0 (orthogonal rows).
    assert_eq!(similarity(2.0, 0.5), 0.5);
    assert_eq!(similarity(std::f64::consts::SQRT_2, 1.0), 0.0);
    assert_eq!(similarity(1.0, 0.0), 1.0);
    assert_eq!(similarity(1.0, 0.3), 0.955);
}

#[test]
fn epsilon_grid_spans_the_open_unit_interval() {
    assert_eq!(grid_epsilon(0), 1e-6);
    assert_eq!(grid_epsilon(GRID_POINTS - 1), 1.0 - 1e-6);
    let step = (1.0 - 2e-6) / 49.0;
    assert!((grid_epsilon(1) - grid_epsilon(0) - step).abs() < 1e-15);
    assert!((1..GRID_POINTS).all(|i| grid_epsilon(i) > grid_epsilon(i - 1)));
}

#[test]
fn too_few_or_one_label_explores() {
    assert_eq!(fit(&obs(&[(0.9, 1), (0.8, 0), (0.7, 1), (0.6, 0), (0.5, 1)])), Err(NoFit::TooFew));
    assert_eq!(fit(&obs(&[(0.9, 1); 8])), Err(NoFit::OneLabel));
    assert_eq!(fit(&obs(&[(0.9, 0); 6])), Err(NoFit::OneLabel));
}

/// Two distinct similarities: the MLE reproduces the empirical frequencies, 1/3 at s = 0.2 and
/// 2/3 at s = 0.8, so `b1 = 2 ln 2 / 0.6`, `t̂ = 0.5`, and with `H = (2/3)·[[2, 1], [1, 0.68]]`
/// and `g = −(1, 0.5)/γ` the delta method gives `Var(t̂) = 0.75/γ² = 0.0675/ln²2`.
#[test]
fn two_point_fit_has_a_closed_form() {
    let o = obs(&[(0.2, 1), (0.2, 0), (0.2, 0), (0.8, 1), (0.8, 1), (0.8, 0)]);
    let ln2 = std::f64::consts::LN_2;
    let (b0, b1) = logistic_mle(&o).unwrap();
    assert!(close(b1, 2.0 * ln2 / 0.6, 1e-12), "b1 = {b1}");
    assert!(close(b0, -0.5 * b1, 1e-12), "b0 = {b0}");
    let f = fit(&o).unwrap();
    assert!(!f.separable);
    assert_eq!((f.t_hat, f.gamma), (0.5, 2.31));
    assert!(close(f.var, 0.0675 / (ln2 * ln2), 1e-10), "var = {}", f.var);
    // τ from the Python reference at δ = 0.01 and 0.1.
    for (s, t01, t1) in
        [(0.3, 0.98747, 0.87465), (0.5, 0.98626, 0.86263), (0.9, 0.98206, 0.82063), (0.99, 0.98023, 0.80228)]
    {
        assert_eq!(exploration_probability(s, &f, 0.01), t01, "s = {s}");
        assert_eq!(exploration_probability(s, &f, 0.1), t1, "s = {s}");
    }
}

/// Ten overlapping observations against the Python reference (5 Newton steps there too).
#[test]
fn ten_point_fit_matches_an_independent_newton() {
    let o = obs(&[
        (0.91, 1),
        (0.42, 0),
        (0.77, 1),
        (0.65, 0),
        (0.83, 0),
        (0.58, 1),
        (0.95, 1),
        (0.71, 1),
        (0.49, 0),
        (0.88, 1),
    ]);
    let (b0, b1) = logistic_mle(&o).unwrap();
    assert!(close(b0, -5.596673498707821, 1e-9) && close(b1, 8.539834757599051, 1e-9), "{b0} {b1}");
    let f = fit(&o).unwrap();
    assert_eq!((f.t_hat, f.gamma), (0.655, 8.54));
    assert!(close(f.var, 0.009192432175959993, 1e-8), "var = {}", f.var);
    for (s, a, b) in [(0.6, 0.98744, 0.93722), (0.8, 0.97967, 0.89834), (0.95, 0.96249, 0.81243)] {
        assert_eq!(exploration_probability(s, &f, 0.01), a, "s = {s}");
        assert_eq!(exploration_probability(s, &f, 0.05), b, "s = {s}");
    }
}

#[test]
fn separable_case_takes_the_midpoint_and_the_table() {
    // A tie at the boundary (0.6 wrong and correct) is separable.
    let o = obs(&[(0.5, 0), (0.6, 0), (0.6, 1), (0.7, 1), (0.8, 1), (0.9, 1)]);
    let f = fit(&o).unwrap();
    assert_eq!(f, Fit { t_hat: 0.6, gamma: 100.0, var: 0.035445, separable: true });
    // Not rounded: (0.512 + 0.6125…) / 2 stays as is.
    let o = obs(&[(0.512, 0), (0.3, 0), (0.613, 1), (0.7, 1), (0.8, 1), (0.9, 1), (0.95, 1)]);
    assert_eq!(fit(&o).unwrap().t_hat, (0.512 + 0.613) / 2.0);
    assert_eq!(fit(&o).unwrap().var, 0.028285);
    let table = |n: usize| {
        let mut v = vec![(0.1, 0)];
        v.extend(std::iter::repeat_n((0.9, 1), n - 1));
        fit(&obs(&v)).unwrap().var
    };
    assert_eq!(
        (table(6), table(26), table(31), table(47), table(48)),
        (0.035445, 0.00839, 0.00457, 0.02109, 0.01531)
    );
    assert_eq!((table(49), table(500)), (0.01531, 0.01531));
    // τ at the separable fit, from the Python reference.
    let f = Fit { t_hat: 0.6, gamma: 100.0, var: 0.035445, separable: true };
    assert_eq!(exploration_probability(0.9, &f, 0.01), 0.90262);
    assert_eq!(exploration_probability(0.7, &f, 0.01), 0.97395);
    let f = Fit { t_hat: 0.6, gamma: 100.0, var: 0.01531, separable: true };
    assert_eq!(exploration_probability(1.0, &f, 0.01), 0.51003);
}

/// With `γ = 0`, `σ = 1/2` whatever `s`: `τ = 1 − δ/(1 − (1 − 1e-6)/2) = 0.98000004 → 0.98`.
#[test]
fn flat_model_explores_almost_always() {
    let f = Fit { t_hat: 0.5, gamma: 0.0, var: 0.01, separable: false };
    assert_eq!(exploration_probability(0.5, &f, 0.01), 0.98);
    // A decreasing fit (b1 < 0) floors γ at 1e-6, which rounds to 0.
    let o = obs(&[(0.9, 0), (0.8, 0), (0.85, 1), (0.3, 1), (0.4, 1), (0.35, 0), (0.2, 1)]);
    let f = fit(&o).unwrap();
    assert_eq!(f.gamma, 0.0);
    assert!(f.t_hat == 0.0 || f.t_hat == 1.0, "{f:?}");
}

#[test]
fn degenerate_inputs_never_panic() {
    // All observations at one similarity (where H would be singular) count as separable:
    // min s(correct) = max s(wrong).
    let o = obs(&[(0.7, 1), (0.7, 0), (0.7, 1), (0.7, 0), (0.7, 1), (0.7, 0)]);
    assert_eq!(fit(&o), Ok(Fit { t_hat: 0.7, gamma: 100.0, var: 0.035445, separable: true }));
    let o = obs(&[(f64::NAN, 1), (0.7, 0), (0.7, 1), (0.2, 0), (0.9, 1), (0.5, 0)]);
    assert!(fit(&o).is_err() || fit(&o).unwrap().var.is_finite());
}
