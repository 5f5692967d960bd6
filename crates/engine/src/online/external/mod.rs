//! Policies from outside the engine (docs/SPEC-NOTES.md, "External policies"): a reader's own
//! caching rule — written in Rust ([`ExternalPolicy`]) or, through the web layer, in
//! JavaScript — played by the simulator on the same stream, noise and evaluation sample as the
//! paper's policies and measured by the same code (SPEC §9, §14).
//!
//! The engine asks and validates; the policy answers. Each round `t` it sees the arrival
//! ([`ExternalRound`]: its vector, `t`, its current members' rounds and distances) and answers
//! serve-from-member-`i` or call-the-LLM ([`Answer`]); after an LLM call it is told the observed
//! cost and may name a new cache (rounds of arrivals so far, at most `k`). A refused answer is a
//! typed [`PolicyError`] naming the round and the [`Fault`]; the policy then stops.

mod adapter;
mod fault;
mod interface;
mod run;
#[cfg(test)]
mod tests;

pub use adapter::External;
pub use fault::{Fault, PolicyError};
pub use interface::{Answer, ExternalPolicy, ExternalRound, Setup};
pub use run::ExternalRun;
