//! The tiny world of the online tests (tests/online.rs, tests/live.rs): three exact query points
//! (0,0), (1,0), (0,1) with costs 0.9, 0.5, 0.1, no noise, arrivals cycling 0, 1, 2, …, `E` = one
//! of each, `D = √2`.

use csc_engine::space::Points;
use csc_engine::trace::{Queries, Trace};

pub const COST: [f64; 3] = [0.9, 0.5, 0.1];
pub const ROWS: [[f32; 2]; 3] = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];

/// The tiny world's trace of `horizon` rounds (no ground truth).
pub fn tiny_trace(horizon: usize) -> Trace {
    let idx: Vec<u32> = (0..horizon as u32).map(|t| t % 3).collect();
    Trace {
        dist_scale: 2f64.sqrt(),
        universe: Some(Points::from_rows(&ROWS).unwrap()),
        universe_cost: Some(COST.to_vec()),
        cost: idx.iter().map(|&i| COST[i as usize]).collect(),
        arrivals: Queries::Indices(idx),
        eta: vec![0.0; horizon],
        z: Vec::new(),
        eval: Queries::Indices(vec![0, 1, 2]),
        eval_cost: COST.to_vec(),
        offline: None,
        meta: serde_json::Value::Null,
        labels: Default::default(),
        tenants: None,
    }
}
