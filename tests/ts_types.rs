//! The TypeScript declarations of the serialised objects (src/bindings/generated/types.d.ts, put
//! into the shipped csc.d.ts) are exactly what ts-rs generates from the Rust types today: a
//! change to a serialised type that is not regenerated fails here, with the command that
//! regenerates them (`CSC_BLESS=1 cargo test --test ts_types`).
// Native only: ts-rs is not compiled for wasm32, and it writes the source tree.
#![cfg(not(target_arch = "wasm32"))]

use csc::bindings::typescript::{declarations, BLESS, GENERATED_PATH};
use std::path::Path;

#[test]
fn committed_declarations_are_generated_from_the_rust_types() {
    let generated = declarations().unwrap_or_else(|e| panic!("two types share a TypeScript name:\n{e}"));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(GENERATED_PATH);
    if std::env::var_os("CSC_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let committed = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; generate it with `{BLESS}`", path.display()));
    if committed != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
        panic!(
            "{GENERATED_PATH} is not what the Rust types generate (first difference at line {}):\n  \
             committed: {}\n  generated: {}\nIf the change to the Rust type is meant, regenerate it: `{BLESS}`",
            first + 1,
            committed.lines().nth(first).unwrap_or("(end of file)"),
            generated.lines().nth(first).unwrap_or("(end of file)"),
        );
    }
}

/// Every name the exports' signatures use for a serialised object is declared (a rename of a
/// Rust type's TypeScript name would otherwise leave a signature pointing at nothing).
#[test]
fn the_names_the_signatures_use_are_declared() {
    let generated = declarations().unwrap();
    for name in [
        "Params",
        "Phi",
        "PhiKind",
        "DatasetInfo",
        "StageHash",
        "DeterminismReport",
        "NativeDeterminismReport",
        "AlgorithmInfo",
        "PolicyId",
        "PaperPreset",
        "MetricInfo",
        "PaperValue",
        "ParamInfo",
        "ArrivalInfo",
        "DatasetEntry",
        "PageControl",
        "PageControls",
        "UrlState",
        "DecodedUrlState",
        "ExperimentSpec",
        "DatasetSpec",
        "ArrivalSpec",
        "Sweep",
        "Report",
        "Stat",
        "Headline",
        "HeadlineRow",
        "LoadedReport",
        "Checkpoint",
        "RunResult",
    ] {
        assert!(generated.contains(&format!("\nexport type {name} = ")), "no declaration of `{name}`");
    }
}
