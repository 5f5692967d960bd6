//! vCache (SPEC §15).

pub mod fit;
