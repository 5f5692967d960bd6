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

/// A script's code without its comments (`/* … */` blocks and `//` to the end of a line, not
/// inside `://` of a link): comments may cite the paper, code may not carry its facts.
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
    }
    out.push_str(rest);
    out.lines()
        .map(|l| {
            let cut = l.match_indices("//").find(|(i, _)| *i == 0 || !l[..*i].ends_with(':')).map(|(i, _)| i);
            cut.map_or(l, |i| &l[..i])
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a script hard-codes of the catalog: algorithm ids in quotes (`'clcb-sc-ls'`), tests of an
/// id's prefix (`startsWith('clcb`), and paper line references (`Alg. 5 l. 4–6`, `Alg. 3 lines`).
fn hard_coded(code: &str) -> Vec<String> {
    let ids: Vec<&str> = PolicyKind::ALL
        .iter()
        .map(|p| p.info().id)
        .chain(OfflineKind::ALL.iter().map(|a| a.info().id))
        .collect();
    let mut found = Vec::new();
    for id in &ids {
        for q in ['\'', '"', '`'] {
            if code.contains(&format!("{q}{id}{q}")) {
                found.push(format!("{q}{id}{q}"));
            }
        }
    }
    for prefix in ["clcb", "cucb"] {
        for q in ['\'', '"', '`'] {
            if code.contains(&format!("startsWith({q}{prefix}")) {
                found.push(format!("startsWith({q}{prefix}"));
            }
        }
    }
    // "Alg. N l." / "Alg. N line(s)" / "Alg. N, line" / "Algs. N–M lines"
    let bytes: Vec<char> = code.chars().collect();
    let text: String = bytes.iter().collect();
    for (i, _) in text.match_indices("Alg") {
        let tail: String = text[i..].chars().take(24).collect();
        let after = tail.trim_start_matches("Algs. ").trim_start_matches("Alg. ");
        if after.len() == tail.len() {
            continue;
        }
        let rest = after.trim_start_matches(|c: char| c.is_ascii_digit() || c == '–' || c == '-');
        let rest = rest.trim_start_matches(',').trim_start();
        if rest.len() < after.len() && (rest.starts_with("l.") || rest.starts_with("line")) {
            found.push(tail);
        }
    }
    found
}

#[test]
fn the_page_hard_codes_no_algorithm_id_or_paper_line() {
    // The page takes algorithm properties (family, "slow", whether it is one of the paper's
    // compared policies, the paper reference of each step a round explains) from the catalog
    // (`policies()`).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    page_scripts(&root.join("www/js"), &mut files);
    assert!(files.len() > 10, "the page's scripts are found");
    let mut bad = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        let found = hard_coded(&code_of(&std::fs::read_to_string(f).expect("readable script")));
        if !found.is_empty() {
            bad.push(format!("{rel}: {}", found.join(", ")));
        }
    }
    assert!(
        bad.is_empty(),
        "read algorithm properties from `policies()` (csc::algorithms):\n{}",
        bad.join("\n")
    );
    // The scan finds what it looks for.
    assert_eq!(hard_coded("if (id === 'clcb-frozen-cont') x = 'Alg. 7 l. 1–2';").len(), 2);
    assert_eq!(hard_coded("p.startsWith('clcb') ? 'Algs. 3–5 lines' : ''").len(), 2);
    assert!(hard_coded(&code_of("// Alg. 5 lines 4–6 and 'greedy'\nconst u = 'https://x'; /* 'lfu' */"))
        .is_empty());
}
