//! # csc — continuous semantic caching for LLM serving, in the browser
//!
//! The web layer over the engine (`csc-engine`, crates/engine): the JavaScript API compiled for
//! `wasm32` ([`bindings`]), the page's URL state and control table (plain Rust, also compiled and
//! tested natively). The engine's modules are re-exported, so `csc::krr`, `csc::online`, … name
//! the engine's.

pub use csc_engine::*;

pub mod bindings;
