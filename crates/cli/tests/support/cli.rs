//! Running the `csc` binary from integration tests: a scratch folder per test and the binary run
//! in it with `CSC_DATA` pointing nowhere, so no test finds the shared data by accident, and with
//! none of the scheduler variables a shard is taken from (a test suite run inside a Slurm array
//! task would otherwise shard every `csc run`).
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The environment variables `csc run` takes its shard from (src/cli/shard.rs).
#[allow(dead_code)]
pub const SHARD_VARS: [&str; 7] = [
    "CSC_SHARDS",
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX",
];

/// A fresh scratch folder `csc-{prefix}-{pid}-{name}` (removed at the start of the next run).
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("csc-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `csc args` in `cwd`.
#[allow(dead_code)]
pub fn csc(args: &[&str], cwd: &Path) -> Output {
    csc_env(args, cwd, &[])
}

/// Runs `csc args` in `cwd` with the environment variables `env` set.
#[allow(dead_code)]
pub fn csc_env(args: &[&str], cwd: &Path, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_csc"));
    c.args(args).current_dir(cwd).env("CSC_DATA", cwd.join("no-such-data"));
    for v in SHARD_VARS {
        c.env_remove(v);
    }
    c.envs(env.iter().copied()).output().expect("the csc binary runs")
}
