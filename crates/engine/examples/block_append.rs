//! What appending `b` observations to the Cholesky factor as one block would save over `b` appends
//! one at a time — `cargo run --release --example block_append -- [ℓ] [reps]`.
//!
//! One append solves `L a = k` by forward substitution: O(ℓ²) operations that read the whole
//! packed factor (8·ℓ²/2 bytes, 16 MB at ℓ = 2,000) once per observation. A block of `b`
//! observations can share that read: for each row `j` of `L`, the `b` right-hand sides take their
//! entry `j` in turn while the row is in cache (the same dot products in the same order, hence
//! the same bits — checked below); the block's own `b×b` corner then goes row by row as before.
//! The kernel values are computed, and the factor's room reserved, before timing.
//!
//! The online kernel policies read the posterior in every round before its observation
//! (Alg. 5 line 4; Alg. 7), so between two reads there is at most one observation: their block
//! size is 1. This example measures what larger blocks would give where appends do come in runs.
// Native only (wall-clock timing).
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]
use csc_engine::krr::{GrowingCholesky, RbfKernel};
use csc_engine::space::{diameter, Metric};
use csc_engine::vector_ops::dot;
use csc_engine::workloads::clustered;
use std::time::Instant;

const BLOCKS: [usize; 6] = [1, 2, 4, 8, 16, 32];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let l: usize = args.first().map_or(2000, |s| s.parse().expect("ℓ"));
    let reps: usize = args.get(1).map_or(5, |s| s.parse().expect("reps"));
    let b_max = *BLOCKS.last().expect("blocks");
    let pts = clustered(l + b_max, 1);
    let metric = Metric::new(diameter(&pts)).expect("metric");
    let kernel = RbfKernel::new(0.2).expect("kernel");
    let k = |i: usize, j: usize| kernel.eval(&metric, pts.row(i), pts.row(j));
    let lambda = 0.1;
    let t0 = Instant::now();
    let mut base = GrowingCholesky::new(lambda);
    base.reserve(l + b_max);
    for i in 0..l {
        let cross: Vec<f64> = (0..i).map(|j| k(i, j)).collect();
        base.push(&cross, k(i, i));
    }
    println!(
        "factor of order {l} built in {:.0} ms (ridge {lambda}, RBF length 0.2, 384-d clustered points)",
        t0.elapsed().as_secs_f64() * 1e3
    );
    println!("{:>4} {:>14} {:>14} {:>8}", "b", "one at a time", "as a block", "ratio");
    for b in BLOCKS {
        // Row r of the block: kernel values against the ℓ observations and the block's first r.
        let cross: Vec<Vec<f64>> = (0..b).map(|r| (0..l + r).map(|j| k(l + r, j)).collect()).collect();
        let selfk: Vec<f64> = (0..b).map(|r| k(l + r, l + r)).collect();
        let (mut seq_ms, mut blk_ms) = (Vec::new(), Vec::new());
        for _ in 0..reps {
            // A clone has no spare capacity: make room before timing (both variants).
            let mut seq = base.clone();
            seq.reserve(b);
            let t0 = Instant::now();
            for r in 0..b {
                seq.push(&cross[r], selfk[r]);
            }
            seq_ms.push(t0.elapsed().as_secs_f64() * 1e3);

            let mut blk = base.clone();
            blk.reserve(b);
            let mut w = cross.clone();
            let t0 = Instant::now();
            for j in 0..l {
                let row = blk.row(j);
                let (head, diag) = (&row[..j], row[j]);
                for wr in w.iter_mut() {
                    wr[j] = (wr[j] - dot(head, &wr[..j])) / diag;
                }
            }
            for (r, wr) in w.iter_mut().enumerate() {
                for j in l..l + r {
                    let row = blk.row(j);
                    wr[j] = (wr[j] - dot(&row[..j], &wr[..j])) / row[j];
                }
                blk.push_solved(wr, selfk[r]);
            }
            blk_ms.push(t0.elapsed().as_secs_f64() * 1e3);
            for i in l..l + b {
                assert!(
                    seq.row(i).iter().zip(blk.row(i)).all(|(a, c)| a.to_bits() == c.to_bits()),
                    "row {i}: the block gives other bits"
                );
            }
        }
        let (s, c) = (median(&mut seq_ms), median(&mut blk_ms));
        println!("{b:>4} {s:>11.2} ms {c:>11.2} ms {:>7.2}×", s / c);
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
