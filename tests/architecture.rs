//! The engine's module graph has no cycle (docs/ARCHITECTURE.md).
//!
//! Reads every `src/**/*.rs`, attributes each file to its top-level module (`src/online/sim.rs`
//! → `online`), collects the `crate::X` paths its code names (comments are skipped, so a doc link
//! is not a dependency; `use crate::{a, b}` counts both) and checks that the graph over the
//! engine's modules is acyclic. `bindings` (the wasm32 API over the engine) and the binary's
//! `cli`/`main` sit on top and are not part of the engine graph; `lib.rs` only declares modules.
// Native only: it reads the source tree.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Modules outside the engine graph: the JS bindings and the binary.
const OUTSIDE: [&str; 4] = ["bindings", "cli", "main", "lib"];

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable src/") {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file under `src/` belongs to.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src/");
    let first = rel.components().next().expect("non-empty").as_os_str().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_string()
}

/// The code of a file without its comments (`//…` to the end of the line; block comments are not
/// used in this crate's code).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            // keep `//` inside a string such as "http://…" only when a quote precedes it
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules named by `crate::…` paths in `code`.
fn crate_refs(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // e.g. `mycrate::`
        }
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a, b::c, d}`: the first segment of each item (nesting is not used here)
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let id = ident(item.trim());
                if !id.is_empty() {
                    out.insert(id);
                }
            }
        } else {
            let id = ident(rest);
            if !id.is_empty() {
                out.insert(id);
            }
        }
    }
    out
}

/// The dependency graph over the engine's top-level modules.
fn engine_graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    let mut g = Graph::new();
    for f in &files {
        let m = module_of(&src, f);
        if OUTSIDE.contains(&m.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("readable source");
        let deps = g.entry(m.clone()).or_default();
        for r in crate_refs(&code(&text)) {
            // `crate::Error`, `crate::Result` are re-exports of `error`
            let r = if r == "Error" || r == "Result" { "error".to_string() } else { r };
            if r != m {
                deps.insert(r);
            }
        }
    }
    g
}

/// A cycle of `g` as a path `a → b → … → a`, if there is one (depth-first search; nodes that are
/// only targets count as leaves).
fn find_cycle(g: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        g: &Graph,
        n: &str,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(n) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = path.iter().position(|p| p == n).expect("an open node is on the path");
                let mut cycle = path[start..].to_vec();
                cycle.push(n.to_string());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(n.to_string(), Mark::Open);
        path.push(n.to_string());
        for d in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(g, d, marks, path) {
                return Some(c);
            }
        }
        path.pop();
        marks.insert(n.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for n in g.keys() {
        if let Some(c) = visit(g, n, &mut marks, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

fn graph(edges: &[(&str, &str)]) -> Graph {
    let mut g = Graph::new();
    for (a, b) in edges {
        g.entry(a.to_string()).or_default().insert(b.to_string());
    }
    g
}

#[test]
fn the_cycle_finder_finds_cycles_and_only_cycles() {
    let dag = graph(&[("a", "b"), ("b", "c"), ("a", "c"), ("d", "a")]);
    assert_eq!(find_cycle(&dag), None);
    let cyc = graph(&[("a", "b"), ("b", "c"), ("c", "d"), ("d", "b"), ("x", "a")]);
    assert_eq!(find_cycle(&cyc).unwrap(), vec!["b", "c", "d", "b"]);
    assert_eq!(find_cycle(&graph(&[("s", "s")])).unwrap(), vec!["s", "s"]);
}

#[test]
fn crate_paths_are_read_from_code_not_comments() {
    let text = "use crate::space::Points;\n/// see [`crate::online::Round`]\nuse crate::{error::Result, trace};\nlet x = crate::portable::ln(2.0); // crate::stages\n";
    let refs = crate_refs(&code(text));
    assert_eq!(refs.into_iter().collect::<Vec<_>>(), vec!["error", "portable", "space", "trace"]);
}

#[test]
fn the_engine_module_graph_is_acyclic() {
    let g = engine_graph();
    // the graph is real: it has the engine's modules and their known edges
    for m in ["config", "online", "experiment", "space", "krr", "stream"] {
        assert!(g.contains_key(m), "module `{m}` not found in {g:?}");
    }
    assert!(g["online"].contains("krr") && g["experiment"].contains("online"), "{g:?}");
    if let Some(c) = find_cycle(&g) {
        panic!("the engine's modules form an import cycle: {} (docs/ARCHITECTURE.md)", c.join(" → "));
    }
    let modules: Vec<_> = g
        .iter()
        .map(|(m, d)| format!("{m} → {}", d.iter().cloned().collect::<Vec<_>>().join(", ")))
        .collect();
    println!("{}", modules.join("\n"));
}
