//! The confidence widths of the two learners (SPEC §6): the pessimistic cost of CUCB-SC-Cont
//! (Alg. 2 line 5) and the optimistic cost of the online learners (Alg. 4 line 11).

use super::kernel::Posterior;

/// The offline width factor `B + √(ln(2m/δ)/(ℓλ))` of Alg. 2 line 5 (`m` = number of ε-net
/// centers, taken as at least 1; `λ` is the ridge per observation, the KRR ridge being `ℓλ`).
/// Requires `n_obs ≥ 1`.
pub fn offline_width_factor(n_obs: usize, m: usize, lambda: f64, b: f64, delta: f64) -> f64 {
    let m = m.max(1) as f64;
    b + (crate::portable::ln(2.0 * m / delta) / (n_obs as f64 * lambda)).sqrt()
}

/// The pessimistic cost of Alg. 2 line 5 (SPEC §6):
/// `c̄ = ĉ + β_off·(B + √(ln(2m/δ)/(ℓλ)))·σ`; with no observations `c̄ = B` (SPEC §11.3).
pub fn pessimistic_cost(
    post: &Posterior,
    n_obs: usize,
    m: usize,
    lambda: f64,
    b: f64,
    delta: f64,
    beta_off: f64,
) -> f64 {
    if n_obs == 0 {
        return b;
    }
    post.mean + beta_off * offline_width_factor(n_obs, m, lambda, b, delta) * post.sd()
}

/// The online width factor `B + R·√(2(γ + ln(2/δ)))` of Alg. 4 line 11 (SPEC §6).
pub fn online_width_factor(gamma: f64, b: f64, r_noise: f64, delta: f64) -> f64 {
    b + r_noise * (2.0 * (gamma + crate::portable::ln(2.0 / delta))).sqrt()
}

/// The optimistic cost of Alg. 4 line 11 (SPEC §6):
/// `c̲ = ĉ − β·(B + R·√(2(γ + ln(2/δ))))·σ`, with `γ` from the same `K` as the posterior; with no
/// observations `c̲ = −B`, without `β` (SPEC §11.3, Alg. 4 "Prior").
pub fn optimistic_cost(
    post: &Posterior,
    n_obs: usize,
    gamma: f64,
    b: f64,
    r_noise: f64,
    delta: f64,
    beta: f64,
) -> f64 {
    if n_obs == 0 {
        return -b;
    }
    post.mean - beta * online_width_factor(gamma, b, r_noise, delta) * post.sd()
}
