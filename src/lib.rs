//! # csc — continuous semantic caching for LLM serving
//!
//! A faithful engine for the paper in `shared/paper/continuous-semantic-caching.tex` with every
//! open detail settled by `shared/SPEC.md` (cited as "SPEC §n"). Plain Rust: no wasm-bindgen in
//! the engine; the browser bindings live in a separate, thin module.
//!
//! Map of the paper's concepts to modules:
//! - query space and the normalised metric (SPEC §1): [`space`]
//! - mismatch cost `φ` (SPEC §3): [`mismatch`]; losses and the serving rule (eqs. 1, 2, 4): [`loss`]
//! - ε-net and Voronoi cells (SPEC §4): [`epsilon_net`]
//! - the oracle, Continuous Reverse Greedy (Alg. 1) and the exact optimum (SPEC §5): [`reverse_greedy`]
//! - kernel ridge regression and confidence bounds (SPEC §6): [`krr`]
//! - configuration with the SPEC defaults: [`config`]

pub mod config;
pub mod epsilon_net;
pub mod error;
pub mod krr;
pub mod loss;
pub mod mismatch;
pub mod reverse_greedy;
pub mod space;

pub use error::{Error, Result};
