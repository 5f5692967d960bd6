//! The one error type of the engine. Every message is written for a person: it names the input,
//! what was wrong with it and, where it helps, what would be accepted.

use std::fmt;

/// What went wrong, in words a user of the playground or the CLI can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A configuration value is out of its domain (SPEC defaults and ranges in `config.rs`).
    InvalidParameter { name: String, reason: String },
    /// Input data (vectors, costs, files, traces) is malformed.
    InvalidData(String),
    /// A text or binary format could not be parsed.
    Parse(String),
    /// A request the engine cannot serve (unknown name, instance too large, …).
    Unsupported(String),
}

impl Error {
    pub fn param(name: &str, reason: impl Into<String>) -> Self {
        Error::InvalidParameter { name: name.to_string(), reason: reason.into() }
    }
    pub fn data(msg: impl Into<String>) -> Self {
        Error::InvalidData(msg.into())
    }
    pub fn parse(msg: impl Into<String>) -> Self {
        Error::Parse(msg.into())
    }
    pub fn unsupported(msg: impl Into<String>) -> Self {
        Error::Unsupported(msg.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidParameter { name, reason } => write!(f, "invalid parameter `{name}`: {reason}"),
            Error::InvalidData(m) => write!(f, "invalid data: {m}"),
            Error::Parse(m) => write!(f, "could not parse input: {m}"),
            Error::Unsupported(m) => write!(f, "unsupported: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// Result alias used throughout the engine.
pub type Result<T> = std::result::Result<T, Error>;
