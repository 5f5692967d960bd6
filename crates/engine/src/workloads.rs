//! The seeded benchmark instances (docs/PERFORMANCE.md; no paper section) shared by the native
//! benchmarks (`benches/engine.rs`) and the browser benchmark (`src/bindings/bench.rs`), so that
//! both time exactly the same work.
//!
//! Data: 384-dimensional unit vectors clustered like sentence embeddings — 50 random unit
//! "prompt" directions, each point one of them plus N(0, 0.01²) noise per coordinate,
//! renormalised — from a seeded ChaCha8 generator.

use crate::space::Points;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal, StandardNormal};

/// Dimension of the clustered vectors (all-MiniLM-L6-v2's).
pub const DIM: usize = 384;
/// Number of "prompt" directions.
pub const PROMPTS: usize = 50;
/// Per-coordinate noise around a prompt direction.
pub const NOISE_SD: f64 = 0.01;

/// A unit vector (f64, then stored as f32).
fn normalise(v: &mut [f64]) {
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.iter_mut().for_each(|x| *x /= n);
}

/// `n` clustered unit vectors: one of [`PROMPTS`] random directions plus Gaussian noise,
/// renormalised.
pub fn clustered(n: usize, seed: u64) -> Points {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let prompts: Vec<Vec<f64>> = (0..PROMPTS)
        .map(|_| {
            let mut v: Vec<f64> = (0..DIM).map(|_| StandardNormal.sample(&mut rng)).collect();
            normalise(&mut v);
            v
        })
        .collect();
    let noise = Normal::new(0.0, NOISE_SD).expect("a valid normal");
    let mut data = Vec::with_capacity(n * DIM);
    for _ in 0..n {
        let p = &prompts[rng.random_range(0..PROMPTS)];
        let mut v: Vec<f64> = p.iter().map(|x| x + noise.sample(&mut rng)).collect();
        normalise(&mut v);
        data.extend(v.iter().map(|&x| x as f32));
    }
    Points::from_flat(DIM, data).expect("finite points")
}

/// Reverse Greedy weights `1/m` and costs uniform in (0.01, 1].
pub fn weights_costs(m: usize, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let costs = (0..m).map(|_| 1.0 - 0.99 * rng.random::<f64>()).collect();
    (vec![1.0 / m as f64; m], costs)
}
