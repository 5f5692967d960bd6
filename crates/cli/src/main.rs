//! `csc`: the native experiment runner (SPEC §10). Runs any experiment by id or from a JSON
//! definition over N seeds in parallel, with a progress bar, and writes JSON + CSV; `--shard i/n`
//! runs a deterministic slice and `merge` joins slices. Also writes and replays traces (SPEC §12).

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    if let Err(e) = cli::main() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
