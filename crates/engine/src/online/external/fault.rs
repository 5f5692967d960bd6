//! What stops an external policy (docs/SPEC-NOTES.md, "External policies"): the engine's
//! validation of its answers, or the policy's own failure, and the round it happened in.

use std::fmt;

/// Why an external policy's answer was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// The policy failed on its own terms (a JavaScript exception, an answer of the wrong type,
    /// a time limit): its words, or the host's.
    Policy(String),
    /// It served from member `member` of a cache of `size` members.
    NoSuchMember { member: usize, size: usize },
    /// Its new cache has `size` members, more than the run's `k`.
    TooMany { size: usize, k: usize },
    /// Its new cache names round `key`, which has not arrived yet (round `t` is being played).
    NotArrived { key: u64, t: usize },
    /// Its new cache names round `key` twice.
    Duplicate { key: u64 },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Policy(m) => write!(f, "{m}"),
            Fault::NoSuchMember { member, size } => match size {
                0 => write!(f, "it served from cache member {member}, but its cache is empty"),
                _ => write!(
                    f,
                    "it served from cache member {member}, but its cache holds members 0 to {}",
                    size - 1
                ),
            },
            Fault::TooMany { size, k } => {
                write!(f, "its new cache has {size} members, more than k = {k}")
            }
            Fault::NotArrived { key, t } => write!(
                f,
                "its new cache names round {key}, which has not arrived (only rounds 0 to {t} have)"
            ),
            Fault::Duplicate { key } => write!(f, "its new cache names round {key} twice"),
        }
    }
}

/// An external policy stopped in round `round` (numbered from 0, as the policy sees it).
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyError {
    pub round: usize,
    pub fault: Fault,
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the policy stopped in round {}: {}", self.round, self.fault)
    }
}

impl std::error::Error for PolicyError {}
