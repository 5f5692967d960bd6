//! The engine's import graph has no cycle, between modules or between files
//! (docs/ARCHITECTURE.md).
//!
//! Reads every `src/**/*.rs` and builds the **file graph**: each file is a node, with an edge to
//! every file that defines an item its code names. Paths are followed in all their forms —
//! `crate::a::b`, `super::x`, `self::y`, a child module's `child::z`, `use` trees with groups
//! (`use super::{a, b::{c, d}}`), and modules nested inline (`mod reference { … }` belongs to its
//! file). A path resolves to the file of the deepest module it names; a name that module imports
//! (`pub use spec::ExperimentSpec` in `experiment/mod.rs`) is followed to where it is defined, so
//! a parent that only re-exports its children is a facade, not a dependency (its `pub use` makes
//! an edge only if the file's own code uses the name). Comments, strings and character literals
//! are skipped, so a doc link is not a dependency. Folding each file into its top-level module
//! gives the **module graph**. The test fails naming the first cycle at either level.
//!
//! `bindings` (the wasm32 API over the engine) and the binary's `cli`/`main` sit on top and are
//! not part of the engine graph; `lib.rs` only declares modules (its re-exports are followed).
// Native only: it reads the source tree.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;
/// A module's path from the crate root (`["krr", "reference"]`; the root is `[]`).
type ModPath = Vec<String>;

/// Top-level modules outside the engine graph: the JS bindings and the binary.
const OUTSIDE: [&str; 4] = ["bindings", "cli", "main", "lib"];

// ---------------------------------------------------------------------------------------------
// Lexing: identifiers and punctuation of the code, without comments, strings or characters.

fn lex(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let (mut i, mut out) = (0, Vec::new());
    let ident_start = |ch: char| ch.is_alphabetic() || ch == '_';
    let ident_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' || ((ch == 'r' || ch == 'b') && raw_string_at(&c, i).is_some()) {
            i = skip_string(&c, i);
        } else if ch == '\'' {
            // a character literal ('x', '\n', '\u{..}') or a lifetime ('a)
            if next == Some('\\') {
                i += 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if ident_start(ch) {
            let s = i;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            out.push(c[s..i].iter().collect());
        } else if ch.is_ascii_digit() {
            while i < c.len()
                && (ident_char(c[i]) || c[i] == '.' && c.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
            {
                i += 1;
            }
        } else if ch == ':' && next == Some(':') {
            out.push("::".into());
            i += 2;
        } else {
            out.push(ch.to_string());
            i += 1;
        }
    }
    out
}

/// At `i`, the number of `#` of a raw or byte string's opening (`r"`, `r#"`, `b"`, `br#"`), if
/// one starts there.
fn raw_string_at(c: &[char], i: usize) -> Option<usize> {
    if i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_') {
        return None;
    }
    let mut j = i + 1;
    if c[i] == 'b' && c.get(j) == Some(&'r') {
        j += 1;
    }
    let hashes = c[j..].iter().take_while(|&&x| x == '#').count();
    (c.get(j + hashes) == Some(&'"')).then_some(hashes)
}

/// The index just after the string starting at `i`.
fn skip_string(c: &[char], i: usize) -> usize {
    match raw_string_at(c, i) {
        Some(h) if c[i] == 'r' || c.get(i + 1) == Some(&'r') => {
            let mut j = i + c[i..].iter().position(|&x| x == '"').expect("an opening quote") + 1;
            loop {
                if j >= c.len() {
                    return j;
                }
                if c[j] == '"' && c[j + 1..].iter().take(h).filter(|&&x| x == '#').count() == h {
                    return j + 1 + h;
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i + c[i..].iter().position(|&x| x == '"').expect("an opening quote") + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            j + 1
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reading paths.

/// One path a file names, in the module it is written in.
#[derive(Debug)]
struct Ref {
    file: String,
    module: ModPath,
    segs: Vec<String>,
    kind: Kind,
}

#[derive(Debug, PartialEq)]
enum Kind {
    /// A path in the code.
    Code,
    /// A `use` leaf: the name it binds (none for a glob) and whether it is `pub`.
    Use { name: Option<String>, public: bool },
}

/// The leaves of the `use` tree at `t[*i..]` (after `use`), up to its `;`: each with its full
/// path and the name it binds (`None` for `*`).
fn use_tree(t: &[String], i: &mut usize, prefix: &[String], out: &mut Vec<(Vec<String>, Option<String>)>) {
    let mut path = prefix.to_vec();
    if t.get(*i).is_some_and(|s| s == "::") {
        *i += 1;
    }
    while let Some(tok) = t.get(*i) {
        match tok.as_str() {
            "{" => {
                *i += 1;
                while t.get(*i).is_some_and(|s| s != "}") {
                    use_tree(t, i, &path, out);
                    if t.get(*i).is_some_and(|s| s == ",") {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            "*" => {
                *i += 1;
                out.push((path, None));
                return;
            }
            _ => {
                path.push(tok.clone());
                *i += 1;
                if t.get(*i).is_some_and(|s| s == "::") {
                    *i += 1;
                    continue;
                }
                let mut name = tok.clone();
                if t.get(*i).is_some_and(|s| s == "as") {
                    name = t[*i + 1].clone();
                    *i += 2;
                }
                if path.last().is_some_and(|s| s == "self") {
                    path.pop();
                    name = path.last().cloned().unwrap_or_default();
                }
                out.push((path, Some(name)));
                return;
            }
        }
    }
}

/// What one file declares and names: its inline modules, its `mod x;` children and every path.
fn read_file(
    file: &str,
    base: &[String],
    text: &str,
    modules: &mut BTreeMap<ModPath, String>,
    refs: &mut Vec<Ref>,
) {
    let t = lex(text);
    let ident = |s: &str| s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_');
    // the inline modules open at each brace depth
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        let module: ModPath = base.iter().cloned().chain(stack.iter().map(|(_, m)| m.clone())).collect();
        let tok = t[i].as_str();
        match tok {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if stack.last().is_some_and(|(d, _)| *d == depth) {
                    stack.pop();
                }
            }
            "mod" if t.get(i + 2).is_some_and(|s| s == "{") => {
                let name = t[i + 1].clone();
                let mut inner = module.clone();
                inner.push(name.clone());
                modules.insert(inner, file.to_string());
                stack.push((depth, name));
                depth += 1;
                i += 3;
                continue;
            }
            "use" => {
                let public = i > 0 && (t[i - 1] == "pub" || (t[i - 1] == ")" && i >= 4 && t[i - 4] == "pub"));
                let mut j = i + 1;
                let mut leaves = Vec::new();
                use_tree(&t, &mut j, &[], &mut leaves);
                for (segs, name) in leaves {
                    refs.push(Ref {
                        file: file.into(),
                        module: module.clone(),
                        segs,
                        kind: Kind::Use { name, public },
                    });
                }
                i = j;
                continue;
            }
            _ if ident(tok) && t.get(i + 1).is_some_and(|s| s == "::") && (i == 0 || t[i - 1] != "::") => {
                // a path in the code: `crate::a::b`, `super::x`, `self::y` or `child::z`
                let mut segs = vec![tok.to_string()];
                let mut j = i + 1;
                while t.get(j).is_some_and(|s| s == "::") && t.get(j + 1).is_some_and(|s| ident(s)) {
                    segs.push(t[j + 1].clone());
                    j += 2;
                }
                refs.push(Ref { file: file.into(), module, segs, kind: Kind::Code });
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

/// The module path a file defines: `online/sim.rs` → `online::sim`, `online/mod.rs` → `online`,
/// `lib.rs` → the root.
fn file_module(rel: &str) -> ModPath {
    let mut parts: Vec<String> = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// Where each file's paths lead: `files` maps a path under `src/` (`online/sim.rs`) to its text.
/// The graph's nodes are the files; an edge `a → b` means `a` names an item defined in `b`.
fn file_graph(files: &BTreeMap<String, String>) -> Graph {
    let mut modules: BTreeMap<ModPath, String> = files.keys().map(|f| (file_module(f), f.clone())).collect();
    let mut refs = Vec::new();
    for (f, text) in files {
        read_file(f, &file_module(f), text, &mut modules, &mut refs);
    }
    // a path as written → the absolute path it means (None: another crate, a local name)
    let absolute = |module: &ModPath, segs: &[String]| -> Option<ModPath> {
        let (first, rest) = segs.split_first()?;
        match first.as_str() {
            "crate" => Some(rest.to_vec()),
            "self" => Some(module.iter().chain(rest).cloned().collect()),
            "super" => {
                let mut m = module.clone();
                let mut rest = segs;
                while rest.first().is_some_and(|s| s == "super") {
                    m.pop()?;
                    rest = &rest[1..];
                }
                Some(m.into_iter().chain(rest.iter().cloned()).collect())
            }
            _ => {
                let mut child = module.clone();
                child.push(first.clone());
                modules.contains_key(&child).then(|| module.iter().chain(segs).cloned().collect())
            }
        }
    };
    // the names each module imports (`use x::y as z;` → z ↦ x::y), for following re-exports
    let mut imports: BTreeMap<ModPath, BTreeMap<String, ModPath>> = BTreeMap::new();
    for r in &refs {
        if let (Kind::Use { name: Some(n), .. }, Some(abs)) = (&r.kind, absolute(&r.module, &r.segs)) {
            imports.entry(r.module.clone()).or_default().insert(n.clone(), abs);
        }
    }
    // an absolute path → the file that defines what it names
    fn resolve(
        p: &[String],
        modules: &BTreeMap<ModPath, String>,
        imports: &BTreeMap<ModPath, BTreeMap<String, ModPath>>,
        hops: usize,
    ) -> Option<String> {
        let k = (0..=p.len()).rev().find(|&k| modules.contains_key(&p[..k]))?;
        if let (Some(name), false) = (p.get(k), hops > 16) {
            if let Some(target) = imports.get(&p[..k]).and_then(|m| m.get(name)) {
                let full: Vec<String> = target.iter().chain(&p[k + 1..]).cloned().collect();
                if full != p {
                    if let Some(f) = resolve(&full, modules, imports, hops + 1) {
                        return Some(f);
                    }
                }
            }
        }
        Some(modules[&p[..k]].clone())
    }
    let tokens: BTreeMap<&String, Vec<String>> = files.iter().map(|(f, t)| (f, lex(t))).collect();
    let mut g: Graph = files.keys().map(|f| (f.clone(), BTreeSet::new())).collect();
    for r in &refs {
        if let Kind::Use { name: Some(n), public: true } = &r.kind {
            // a re-export is an edge only if the file's own code uses the name
            if tokens[&r.file].iter().filter(|tok| *tok == n).count() < 2 {
                continue;
            }
        }
        let Some(abs) = absolute(&r.module, &r.segs) else { continue };
        if let Some(target) = resolve(&abs, &modules, &imports, 0) {
            if target != r.file {
                g.get_mut(&r.file).expect("a read file").insert(target);
            }
        }
    }
    g
}

/// The module graph: the file graph folded into top-level modules.
fn module_graph(files: &Graph) -> Graph {
    let top = |f: &str| file_module(f).first().cloned().unwrap_or_else(|| "lib".into());
    let mut g = Graph::new();
    for (f, deps) in files {
        let m = top(f);
        let out = g.entry(m.clone()).or_default();
        out.extend(deps.iter().map(|d| top(d)).filter(|d| *d != m));
    }
    g
}

/// The engine's source files (`bindings`, `cli`, `main` and `lib` are left out of the graph, but
/// `lib.rs` is read so `crate::Error` resolves through its re-export).
fn engine_files() -> (Graph, Graph) {
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
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src");
    let mut paths = Vec::new();
    rs_files(&src, &mut paths);
    let files: BTreeMap<String, String> = paths
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).expect("under src/").to_string_lossy().replace('\\', "/");
            (rel, std::fs::read_to_string(p).expect("readable source"))
        })
        .collect();
    let mut g = file_graph(&files);
    g.retain(|f, _| !OUTSIDE.contains(&file_module(f).first().map_or("lib", |s| s.as_str())));
    let modules = module_graph(&g);
    (g, modules)
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

/// The failure message for the cycles of a file graph and its module graph, if any.
fn cycles(files: &Graph, modules: &Graph) -> Option<String> {
    if let Some(c) = find_cycle(modules) {
        return Some(format!(
            "the engine's modules form an import cycle: {} (docs/ARCHITECTURE.md)",
            c.join(" → ")
        ));
    }
    find_cycle(files)
        .map(|c| format!("the engine's files form an import cycle: {} (docs/ARCHITECTURE.md)", c.join(" → ")))
}

// ---------------------------------------------------------------------------------------------

fn graph(edges: &[(&str, &str)]) -> Graph {
    let mut g = Graph::new();
    for (a, b) in edges {
        g.entry(a.to_string()).or_default().insert(b.to_string());
    }
    g
}

fn tree(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files.iter().map(|(f, t)| (f.to_string(), t.to_string())).collect()
}

fn edges(g: &Graph, from: &str) -> Vec<String> {
    g[from].iter().cloned().collect()
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
fn paths_are_read_from_code_not_comments_or_strings() {
    let files = tree(&[
        ("lib.rs", "pub mod a; pub mod b; pub mod c; pub mod d; pub mod e; pub use e::{Error, Result};"),
        ("a.rs", "use crate::b::X;\n/// see [`crate::c::Y`]\nfn f() -> crate::Result<()> { let s = \"crate::d::Z\"; let c = '{'; /* crate::d */ g(s, c) } // crate::d\n"),
        ("b.rs", "pub struct X;"),
        ("c.rs", "pub struct Y;"),
        ("d.rs", "pub struct Z;"),
        ("e.rs", "pub struct Error; pub type Result<T> = std::result::Result<T, Error>;"),
    ]);
    let g = file_graph(&files);
    assert_eq!(edges(&g, "a.rs"), vec!["b.rs", "e.rs"]);
}

#[test]
fn file_paths_follow_super_self_groups_nested_modules_and_reexports() {
    let files = tree(&[
        ("lib.rs", "pub mod s; pub mod k;"),
        ("s/mod.rs", "mod x; mod y; mod z; mod w; pub use x::X; pub use y::{Y, Why as W2};"),
        ("s/x.rs", "pub struct X;"),
        ("s/y.rs", "pub struct Y; pub struct Why;"),
        // `super::X` is defined in x.rs (re-exported by mod.rs); a group reaches y.rs
        ("s/z.rs", "use super::{X, y::{self}};\nfn f(_: X) { self::g(); }\nfn g() {}"),
        ("s/w.rs", "fn f() -> super::W2 { crate::k::reference::make() }"),
        (
            "k.rs",
            "pub mod reference { pub fn make() {} }\n#[cfg(test)] mod tests { use super::*; }\nmod merged;",
        ),
        ("k/merged.rs", "#[cfg(test)]\nmod tests { use super::super::reference::make; }"),
    ]);
    let g = file_graph(&files);
    assert_eq!(edges(&g, "s/z.rs"), vec!["s/x.rs", "s/y.rs"]);
    assert_eq!(edges(&g, "s/w.rs"), vec!["k.rs", "s/y.rs"]);
    assert_eq!(edges(&g, "k/merged.rs"), vec!["k.rs"]);
    // a parent that only declares and re-exports its children depends on none of them
    assert!(g["s/mod.rs"].is_empty(), "{g:?}");
}

#[test]
fn a_planted_file_cycle_is_reported_and_a_clean_tree_passes() {
    let cyclic = tree(&[
        ("lib.rs", "pub mod m;"),
        ("m/mod.rs", "mod a; mod b; pub use a::run;"),
        ("m/a.rs", "use super::b::draw;\npub fn run() { draw() }\npub struct Model;"),
        ("m/b.rs", "use super::{a::Model};\npub fn draw() { let _ = Model; }"),
    ]);
    let g = file_graph(&cyclic);
    let msg = cycles(&g, &module_graph(&g)).expect("the cycle a ↔ b is found");
    assert!(msg.contains("files") && msg.contains("m/a.rs → m/b.rs → m/a.rs"), "{msg}");
    // the same with the shared type in its own file: no cycle
    let clean = tree(&[
        ("lib.rs", "pub mod m;"),
        ("m/mod.rs", "mod a; mod b; mod model; pub use a::run;"),
        ("m/model.rs", "pub struct Model;"),
        ("m/a.rs", "use super::b::draw;\npub fn run() { draw() }"),
        ("m/b.rs", "use super::model::Model;\npub fn draw() { let _ = Model; }"),
    ]);
    let g = file_graph(&clean);
    assert_eq!(cycles(&g, &module_graph(&g)), None);
    // a cycle between two top-level modules is named at the module level
    let modules = tree(&[
        ("lib.rs", "pub mod p; pub mod q;"),
        ("p/mod.rs", "mod inner;"),
        ("p/inner.rs", "fn f() { crate::q::g() }"),
        ("q.rs", "pub fn g() {} fn h() { let _ = crate::p::inner::f; }"),
    ]);
    let g = file_graph(&modules);
    let msg = cycles(&g, &module_graph(&g)).expect("p ↔ q is found");
    assert!(msg.contains("modules") && msg.contains("p → q → p"), "{msg}");
}

#[test]
fn the_engine_import_graph_is_acyclic() {
    let (files, modules) = engine_files();
    // the graph is real: it has the engine's modules and their known edges
    for m in ["config", "online", "experiment", "space", "krr", "stream"] {
        assert!(modules.contains_key(m), "module `{m}` not found in {modules:?}");
    }
    assert!(modules["online"].contains("krr") && modules["experiment"].contains("online"), "{modules:?}");
    assert!(files["online/low_switch.rs"].iter().any(|f| f.starts_with("krr")), "{files:?}");
    if let Some(msg) = cycles(&files, &modules) {
        panic!("{msg}");
    }
    for (f, d) in &files {
        println!("{f} → {}", d.iter().cloned().collect::<Vec<_>>().join(", "));
    }
}
