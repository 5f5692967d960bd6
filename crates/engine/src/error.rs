//! The one error type of the engine (no paper section: engineering). Every message is written for a
//! person: it names the input, what was wrong with it and, where it helps, what would be accepted.

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
    /// A problem in one input file, stated once: the file, where in it (`line 7`,
    /// `row 6 = line 7`; empty when the whole file is at fault), and what was expected with the
    /// fix. Never nested: [`Error::in_file`] names the file instead of adding a prefix.
    File { file: String, at: String, msg: String },
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
    /// A problem at `at` (e.g. `line 7`) of a file not yet named (see [`Error::in_file`]).
    pub fn at(at: impl Into<String>, msg: impl Into<String>) -> Self {
        Error::File { file: String::new(), at: at.into(), msg: msg.into() }
    }
    /// The same problem, attributed to `file`: a [`Error::File`] gets its file name (once; an
    /// already named file keeps its own), any other error becomes one without its kind prefix.
    pub fn in_file(self, file: &str) -> Self {
        match self {
            Error::File { file: f, at, msg } if f.is_empty() => Error::File { file: file.into(), at, msg },
            e @ Error::File { .. } => e,
            Error::InvalidData(m) | Error::Parse(m) | Error::Unsupported(m) => {
                Error::File { file: file.into(), at: String::new(), msg: m }
            }
            e @ Error::InvalidParameter { .. } => e,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidParameter { name, reason } => write!(f, "invalid parameter `{name}`: {reason}"),
            Error::InvalidData(m) => write!(f, "invalid data: {m}"),
            Error::Parse(m) => write!(f, "could not parse input: {m}"),
            Error::Unsupported(m) => write!(f, "unsupported: {m}"),
            Error::File { file, at, msg } => match (file.is_empty(), at.is_empty()) {
                (false, false) => write!(f, "{file}, {at}: {msg}"),
                (false, true) => write!(f, "{file}: {msg}"),
                (true, false) => write!(f, "{at}: {msg}"),
                (true, true) => write!(f, "{msg}"),
            },
        }
    }
}

impl std::error::Error for Error {}

/// Result alias used throughout the engine.
pub type Result<T> = std::result::Result<T, Error>;
