//! One list of algorithms (`csc::algorithms`): the TypeScript `PolicyId` type of the JS API
//! (generated from `PolicyKind`, tests/ts_types.rs) is exactly the engine's list of policy ids, in its order, and the page keeps no list of its own
//! (it reads `policies()` from the engine and keys results by id).
// Native only: it reads the source tree.
#![cfg(not(target_arch = "wasm32"))]

use csc::algorithms::{OfflineKind, PolicyKind};
use std::path::Path;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).expect("readable file")
}

#[test]
fn the_typescript_policy_id_type_is_the_engine_list() {
    let src = read("src/bindings/generated/types.d.ts");
    let line = src
        .lines()
        .find(|l| l.starts_with("export type PolicyId ="))
        .expect("src/bindings/generated/types.d.ts declares `export type PolicyId`");
    let want: Vec<String> = PolicyKind::ALL.iter().map(|p| format!("\"{}\"", p.info().id)).collect();
    assert_eq!(
        line,
        format!("export type PolicyId = {};", want.join(" | ")),
        "regenerate src/bindings/generated/types.d.ts (`CSC_BLESS=1 cargo test --test ts_types`)"
    );
}

/// Every `.js` file of the page, recursively (the built package `www/pkg*` excluded).
fn page_scripts(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable www/") {
        let p = e.expect("dir entry").path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() && !name.starts_with("pkg") {
            page_scripts(&p, out);
        } else if name.ends_with(".js") || name.ends_with(".mjs") {
            out.push(p);
        }
    }
}

#[test]
fn the_page_keeps_no_list_of_display_names() {
    // The display names that are not ordinary words (so their appearance in prose is unlikely)
    // must come from the engine, not be written in the page's scripts (comments and help text
    // aside: a name inside a sentence is prose, a name alone in quotes is a key).
    let names: Vec<&str> = PolicyKind::ALL
        .iter()
        .map(|p| p.info().name)
        .chain(OfflineKind::ALL.iter().map(|a| a.info().name))
        .collect();
    let mut files = Vec::new();
    page_scripts(&Path::new(env!("CARGO_MANIFEST_DIR")).join("www"), &mut files);
    assert!(!files.is_empty());
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable script");
        for name in &names {
            for q in ['\'', '"', '`'] {
                if text.contains(&format!("{q}{name}{q}")) {
                    found.push(format!("{}: {q}{name}{q}", f.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "display names used as keys in the page (use ids and `policies()`):\n{}",
        found.join("\n")
    );
}
