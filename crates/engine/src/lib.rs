//! # csc-engine — continuous semantic caching for LLM serving
//!
//! A faithful engine for the paper in `shared/paper/continuous-semantic-caching.tex` with every
//! open detail settled by `shared/SPEC.md` (cited as "SPEC §n"). Plain Rust: no wasm-bindgen in
//! the engine; the browser bindings are the web layer (the workspace's root crate `csc`), the
//! command line is `crates/cli`.
//!
//! Map of the paper's concepts to modules:
//! - query space and the normalised metric (SPEC §1): [`space`]
//! - mismatch cost `φ` (SPEC §3): [`mismatch`]; losses and the serving rule (eqs. 1, 2, 4): [`loss`]
//! - ε-net and Voronoi cells (SPEC §4): [`epsilon_net`]
//! - the oracle, Continuous Reverse Greedy (Alg. 1) and the exact optimum (SPEC §5): [`reverse_greedy`]
//! - the evaluation oracle `M_orc` and `L(M)` on the sample `E` (SPEC §3, §5): [`oracle`]
//! - kernel ridge regression and confidence bounds (SPEC §6): [`krr`]
//! - datasets (SPEC §2, §7): [`dataset`]; arrival streams: [`stream`]; replayable traces (SPEC §12): [`trace`]
//! - the offline setting (SPEC §8, Alg. 2 and baselines): [`offline`]
//! - online policies (SPEC §9, Algs. 3–8, baselines) and the simulator: [`online`]; the shared
//!   low-switching stage mechanism (SPEC §11.2): [`stages`]
//! - configuration with the SPEC defaults: [`config`]
//! - ground truth, answer normalisation and equivalence (SPEC §14): [`answers`]

pub mod adversary;
pub mod algorithms;
pub mod answers;
pub mod checksum;
pub mod clock;
pub mod config;
pub mod dataset;
pub mod epsilon_net;
pub mod error;
pub mod experiment;
pub mod json;
pub mod krr;
pub mod live;
pub mod loss;
pub mod mismatch;
pub mod neighbours;
pub mod offline;
pub mod online;
pub mod oracle;
pub mod order;
pub mod portable;
pub mod projection;
pub mod reverse_greedy;
pub mod space;
pub mod stages;
pub mod stream;
pub mod trace;
pub mod vector_ops;
pub mod workloads;

pub use error::{Error, Result};

/// The commit the engine was built from (`build.rs`; `unknown` outside a git checkout): shown
/// beside the crate version by `csc --version` and the page's footer.
pub const COMMIT: &str = env!("CSC_COMMIT");

/// The engine's version and commit, as `csc --version` prints them: `0.1.0 (commit 0123456789ab)`.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("CSC_COMMIT"), ")");
