//! A plain implementation of vCache written straight from SPEC §15, sharing nothing with
//! `csc_engine::online::vcache`: the differential oracle of `tests/vcache.rs`.
//!
//! Straight-line code: a linear scan for the nearest item (strict `<`, ties to the lowest
//! index), the similarity `1 − (D·d)²/2` rounded to 3 decimals, Newton–Raphson written out for
//! the 2×2 case, the separable table, the delta method, the 50-point ε grid and the LRU
//! eviction by a scan, or GDSF's (Cherkasova 1998, HPL-98-69: evict the lowest
//! `L + uses·cost`, ties to the oldest, then `L` = its priority) by a scan (`tests/gdsf.rs`). Shared with the engine on purpose, as definitions: the metric
//! (`Metric::dist`), the normal quantile `Φ⁻¹` (`csc_engine::portable::norm_quantile`, there is none
//! in std) and the random stream (ChaCha8 seeded with the run's seed, stream 7 = the engine's
//! `Purpose::Policy`). The logistic uses std's `f64::exp`, not the engine's `libm` wrapper.
#![allow(dead_code, clippy::manual_clamp, clippy::neg_cmp_op_on_partial_ord)]

use csc_engine::space::Metric;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const TABLE: [f64; 43] = [
    0.035445, 0.028285, 0.026436, 0.021349, 0.019371, 0.012615, 0.011433, 0.010228, 0.009963, 0.009253,
    0.011674, 0.013015, 0.010897, 0.011841, 0.013081, 0.010585, 0.014255, 0.012058, 0.013002, 0.011715,
    0.00839, 0.008839, 0.010628, 0.009899, 0.008033, 0.00457, 0.007335, 0.008932, 0.00729, 0.007445, 0.00761,
    0.011423, 0.011233, 0.006783, 0.005233, 0.00872, 0.010005, 0.01199, 0.00977, 0.01891, 0.01513, 0.02109,
    0.01531,
];

pub struct PlainItem {
    pub key: usize,
    pub x: Vec<f32>,
    pub label: i64,
    /// (s, y) in order.
    pub obs: Vec<(f64, bool)>,
    pub last: usize,
    /// GDSF: uses, the cost observed at admission, the priority.
    pub uses: f64,
    pub cost: f64,
    pub h: f64,
}

pub struct PlainVCache {
    pub k: usize,
    pub delta: f64,
    pub metric: Metric,
    pub items: Vec<PlainItem>,
    rng: ChaCha8Rng,
    /// Rounds that fitted by the separable convention and by the delta method.
    pub separable_fits: usize,
    pub delta_fits: usize,
    /// GDSF instead of LRU, and its clock `L`.
    pub gdsf: bool,
    pub clock: f64,
}

/// What one round did.
#[derive(Debug, PartialEq)]
pub struct PlainStep {
    pub llm: bool,
    /// The key of the nearest item (the one served on a hit), before the round's admission.
    pub nearest: Option<usize>,
    /// The cache's keys after the round, in the items' order.
    pub cache: Vec<usize>,
}

fn round(x: f64, n: i32) -> f64 {
    let m = if n == 3 { 1000.0 } else { 100000.0 };
    (x * m).round() / m
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Returns (t̂, γ, Var) or None (explore).
fn fit(obs: &[(f64, bool)]) -> Option<(f64, f64, f64)> {
    if obs.len() < 6 {
        return None;
    }
    let n_correct = obs.iter().filter(|o| o.1).count();
    if n_correct == 0 || n_correct == obs.len() {
        return None;
    }
    let mut max_wrong = f64::NEG_INFINITY;
    let mut min_correct = f64::INFINITY;
    for &(s, y) in obs {
        if y && s < min_correct {
            min_correct = s;
        }
        if !y && s > max_wrong {
            max_wrong = s;
        }
    }
    if min_correct >= max_wrong {
        let i = if obs.len() > 48 { 42 } else { obs.len() - 6 };
        return Some(((max_wrong + min_correct) / 2.0, 100.0, TABLE[i]));
    }
    let mut b0 = 0.0;
    let mut b1 = 0.0;
    let mut converged = false;
    for _ in 0..100 {
        let (mut a, mut b, mut c, mut g0, mut g1) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(s, y) in obs {
            let p = sigmoid(b0 + b1 * s);
            a += p * (1.0 - p);
            b += p * (1.0 - p) * s;
            c += p * (1.0 - p) * s * s;
            let yy = if y { 1.0 } else { 0.0 };
            g0 += yy - p;
            g1 += (yy - p) * s;
        }
        let det = a * c - b * b;
        if !(det > 0.0) {
            return None;
        }
        // eigenvalues of [[a, b], [b, c]]
        let mean = (a + c) / 2.0;
        let spread = (((a - c) / 2.0).powi(2) + b * b).sqrt();
        let (big, small) = (mean + spread, mean - spread);
        if small <= 0.0 || big / small > 1e12 {
            return None;
        }
        let step0 = (c * g0 - b * g1) / det;
        let step1 = (a * g1 - b * g0) / det;
        b0 += step0;
        b1 += step1;
        if !b0.is_finite() || !b1.is_finite() {
            return None;
        }
        if step0.abs() < 1e-10 && step1.abs() < 1e-10 {
            converged = true;
            break;
        }
    }
    if !converged {
        return None;
    }
    let gamma = if b1 > 1e-6 { b1 } else { 1e-6 };
    let mut t = -b0 / gamma;
    if t < 0.0 {
        t = 0.0;
    }
    if t > 1.0 {
        t = 1.0;
    }
    let (mut a, mut b, mut c) = (0.0, 0.0, 0.0);
    for &(s, _) in obs {
        let p = sigmoid(b0 + b1 * s);
        a += p * (1.0 - p);
        b += p * (1.0 - p) * s;
        c += p * (1.0 - p) * s * s;
    }
    let det = a * c - b * b;
    if !(det > 0.0) {
        return None;
    }
    let mean = (a + c) / 2.0;
    let spread = (((a - c) / 2.0).powi(2) + b * b).sqrt();
    if mean - spread <= 0.0 || (mean + spread) / (mean - spread) > 1e12 {
        return None;
    }
    // H⁻¹ = [[c, −b], [−b, a]] / det; g = (−1/γ, b0/γ²)
    let g0 = -1.0 / gamma;
    let g1 = b0 / (gamma * gamma);
    let mut var = (c * g0 * g0 - 2.0 * b * g0 * g1 + a * g1 * g1) / det;
    if var < 0.0 {
        var = 0.0;
    }
    if !var.is_finite() {
        return None;
    }
    Some((round(t, 3), round(gamma, 3), var))
}

fn tau(s: f64, t_hat: f64, gamma: f64, var: f64, delta: f64) -> f64 {
    let mut best = f64::INFINITY;
    let step = (1.0 - 1e-6 - 1e-6) / 49.0;
    for i in 0..50 {
        let eps = if i == 49 { 1.0 - 1e-6 } else { i as f64 * step + 1e-6 };
        let mut tp = t_hat + csc_engine::portable::norm_quantile(1.0 - eps) * var.sqrt();
        if tp < 0.0 {
            tp = 0.0;
        }
        if tp > 1.0 {
            tp = 1.0;
        }
        let alpha = (1.0 - eps) * sigmoid(gamma * (s - tp));
        let v = 1.0 - delta / (1.0 - alpha);
        if v < best {
            best = v;
        }
    }
    round(best, 5)
}

impl PlainVCache {
    pub fn new(k: usize, delta: f64, metric: Metric, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(7);
        PlainVCache {
            k,
            delta,
            metric,
            items: Vec::new(),
            rng,
            separable_fits: 0,
            delta_fits: 0,
            gdsf: false,
            clock: 0.0,
        }
    }

    fn admit(&mut self, t: usize, x: &[f32], label: i64, cost: f64) {
        if self.items.len() >= self.k {
            let mut out = 0;
            for j in 1..self.items.len() {
                let older = if self.gdsf {
                    self.items[j].h < self.items[out].h
                } else {
                    self.items[j].last < self.items[out].last
                };
                if older {
                    out = j;
                }
            }
            if self.gdsf {
                self.clock = self.items[out].h;
            }
            self.items.remove(out);
        }
        let h = self.clock + cost;
        self.items.push(PlainItem {
            key: t,
            x: x.to_vec(),
            label,
            obs: Vec::new(),
            last: t,
            uses: 1.0,
            cost,
            h,
        });
    }

    /// A use of item `j` in round `t`.
    fn touch(&mut self, j: usize, t: usize) {
        let it = &mut self.items[j];
        it.last = t;
        it.uses += 1.0;
        it.h = self.clock + it.uses * it.cost;
    }

    pub fn step(&mut self, t: usize, x: &[f32], label: i64) -> PlainStep {
        self.step_at_cost(t, x, label, 0.0)
    }

    /// A round whose LLM call, if any, is observed to cost `cost`.
    pub fn step_at_cost(&mut self, t: usize, x: &[f32], label: i64, cost: f64) -> PlainStep {
        // Step 1.
        if self.items.is_empty() {
            self.admit(t, x, label, cost);
            return PlainStep { llm: true, nearest: None, cache: self.keys() };
        }
        // Step 2.
        let mut u = 0;
        let mut best = self.metric.dist(x, &self.items[0].x);
        for j in 1..self.items.len() {
            let d = self.metric.dist(x, &self.items[j].x);
            if d < best {
                best = d;
                u = j;
            }
        }
        let nearest = Some(self.items[u].key);
        let e = self.metric.scale * best;
        let s = round(1.0 - e * e / 2.0, 3);
        // Steps 3–4.
        let mut explore = true;
        if let Some((t_hat, gamma, var)) = fit(&self.items[u].obs) {
            if gamma == 100.0 && TABLE.contains(&var) {
                self.separable_fits += 1;
            } else {
                self.delta_fits += 1;
            }
            let tau = tau(s, t_hat, gamma, var, self.delta);
            let v: f64 = self.rng.random();
            explore = v <= tau;
        }
        if !explore {
            self.touch(u, t);
            return PlainStep { llm: false, nearest, cache: self.keys() };
        }
        // Step 5.
        let y = self.items[u].label == label;
        self.items[u].obs.push((s, y));
        self.touch(u, t);
        if !y {
            self.admit(t, x, label, cost);
        }
        PlainStep { llm: true, nearest, cache: self.keys() }
    }

    pub fn keys(&self) -> Vec<usize> {
        self.items.iter().map(|i| i.key).collect()
    }
}
