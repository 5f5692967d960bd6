//! Running the `csc` binary from integration tests: a scratch folder per test and the binary run
//! in it with `CSC_DATA` pointing nowhere, so no test finds the shared data by accident.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh scratch folder `csc-{prefix}-{pid}-{name}` (removed at the start of the next run).
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("csc-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `csc args` in `cwd`.
pub fn csc(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_csc"))
        .args(args)
        .current_dir(cwd)
        .env("CSC_DATA", cwd.join("no-such-data"))
        .output()
        .expect("the csc binary runs")
}
