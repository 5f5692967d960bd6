//! No file-level import cycle in the engine (crates/engine/src) or in the web layer (src/),
//! counting re-exports (docs/ARCHITECTURE.md). The layers themselves are crates, so Cargo keeps
//! them apart (the engine cannot name the web layer or the CLI); what Cargo cannot see is the
//! graph of files inside a crate, which this test reads.
//!
//! It builds the **file graph** of a crate's `src/`: each file is a node, with an edge to every
//! file that defines an item its code names or re-exports. Paths are followed in all their forms
//! — `crate::a::b`, `super::x`, `self::y`, a child module's `child::z`, `use` trees with groups
//! (`use super::{a, b::{c, d}}`), and modules nested inline (`mod reference { … }` belongs to its
//! file). A path resolves to the file of the deepest module it names; a name that module imports
//! (`pub use spec::ExperimentSpec` in `experiment/mod.rs`) is followed to where it is defined.
//! A `pub use` is an edge like any other (the parent that re-exports a child depends on it, so a
//! child must not name its parent's own items). Files are read with `syn`, so comments, strings
//! and doc links are no paths; a macro's tokens are scanned for `a::b` paths. The test fails
//! naming the first cycle.
// Native only: it reads the source tree.
#![cfg(not(target_arch = "wasm32"))]

use proc_macro2::{Ident, Spacing, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::{self, Visit};
use syn::UseTree;

type Graph = BTreeMap<String, BTreeSet<String>>;
/// A module's path from the crate root (`["krr", "reference"]`; the root is `[]`).
type ModPath = Vec<String>;

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
    /// A `use` leaf (`pub` or not): the name it binds (none for a glob).
    Use { name: Option<String> },
}

/// The leaves of a `use` tree: each with its full path and the name it binds (`None` for `*`).
fn use_tree(t: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, Option<String>)>) {
    match t {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_tree(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) if n.ident == "self" => out.push((prefix.clone(), prefix.last().cloned())),
        UseTree::Name(n) => out.push((with(prefix, &n.ident), Some(n.ident.to_string()))),
        UseTree::Rename(r) if r.ident == "self" => out.push((prefix.clone(), Some(r.rename.to_string()))),
        UseTree::Rename(r) => out.push((with(prefix, &r.ident), Some(r.rename.to_string()))),
        UseTree::Glob(_) => out.push((prefix.clone(), None)),
        UseTree::Group(g) => g.items.iter().for_each(|t| use_tree(t, prefix, out)),
    }
}

fn with(prefix: &[String], last: &Ident) -> Vec<String> {
    prefix.iter().cloned().chain([last.to_string()]).collect()
}

/// Reads one file's syntax tree (syn: comments, strings and doc links are no paths): its inline
/// modules and every path of two or more segments, in the code, in `use` trees and in macros'
/// tokens (`a::b` sequences).
struct Reader<'a> {
    file: &'a str,
    module: ModPath,
    modules: &'a mut BTreeMap<ModPath, String>,
    refs: &'a mut Vec<Ref>,
}

impl Reader<'_> {
    fn push(&mut self, segs: Vec<String>, kind: Kind) {
        self.refs.push(Ref { file: self.file.into(), module: self.module.clone(), segs, kind });
    }

    fn tokens(&mut self, tokens: TokenStream) {
        let t: Vec<TokenTree> = tokens.into_iter().collect();
        let colons = |i: usize| {
            matches!((t.get(i), t.get(i + 1)), (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':')
        };
        let mut i = 0;
        while i < t.len() {
            match &t[i] {
                TokenTree::Group(g) => self.tokens(g.stream()),
                TokenTree::Ident(first) if colons(i + 1) && !(i >= 2 && colons(i - 2)) => {
                    let mut segs = vec![first.to_string()];
                    while let (true, Some(TokenTree::Ident(next))) = (colons(i + 1), t.get(i + 3)) {
                        segs.push(next.to_string());
                        i += 3;
                    }
                    self.push(segs, Kind::Code);
                }
                _ => {}
            }
            i += 1;
        }
    }
}

impl<'ast> Visit<'ast> for Reader<'_> {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if let Some((_, items)) = &m.content {
            self.module.push(m.ident.to_string());
            self.modules.insert(self.module.clone(), self.file.into());
            items.iter().for_each(|item| self.visit_item(item));
            self.module.pop();
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut leaves = Vec::new();
        use_tree(&u.tree, &mut Vec::new(), &mut leaves);
        for (segs, name) in leaves {
            self.push(segs, Kind::Use { name });
        }
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.leading_colon.is_none() && p.segments.len() > 1 {
            self.push(p.segments.iter().map(|s| s.ident.to_string()).collect(), Kind::Code);
        }
        visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.visit_path(&m.path);
        self.tokens(m.tokens.clone());
    }
}

/// What one file declares and names: its inline modules and every path.
fn read_file(
    file: &str,
    base: &[String],
    text: &str,
    modules: &mut BTreeMap<ModPath, String>,
    refs: &mut Vec<Ref>,
) {
    let tree = syn::parse_file(text).unwrap_or_else(|e| panic!("{file} does not parse: {e}"));
    Reader { file, module: base.to_vec(), modules, refs }.visit_file(&tree);
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
        if let (Kind::Use { name: Some(n) }, Some(abs)) = (&r.kind, absolute(&r.module, &r.segs)) {
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
    let mut g: Graph = files.keys().map(|f| (f.clone(), BTreeSet::new())).collect();
    for r in &refs {
        let Some(abs) = absolute(&r.module, &r.segs) else { continue };
        if let Some(target) = resolve(&abs, &modules, &imports, 0) {
            if target != r.file {
                g.get_mut(&r.file).expect("a read file").insert(target);
            }
        }
    }
    g
}

/// The file graph of a crate's sources under `dir` (relative to the workspace root): its paths
/// `online/sim.rs`, `bindings/simulation.rs`, … (`lib.rs` is read too, so `crate::Error`
/// resolves through its re-export).
fn crate_files(dir: &str) -> Graph {
    fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("a readable source folder") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                rs_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut paths = Vec::new();
    rs_files(&src, &mut paths);
    let files: BTreeMap<String, String> = paths
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).expect("under src/").to_string_lossy().replace('\\', "/");
            (rel, std::fs::read_to_string(p).expect("readable source"))
        })
        .collect();
    file_graph(&files)
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

/// The failure message for a cycle of the file graph of `name`, if there is one.
fn cycles(name: &str, files: &Graph) -> Option<String> {
    find_cycle(files)
        .map(|c| format!("the {name}'s files form an import cycle: {} (docs/ARCHITECTURE.md)", c.join(" → ")))
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
    // a re-export is an edge: the parent depends on the children it re-exports
    assert_eq!(edges(&g, "s/mod.rs"), vec!["s/x.rs", "s/y.rs"]);
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
    let msg = cycles("engine", &g).expect("the cycle a ↔ b is found");
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
    assert_eq!(cycles("engine", &g), None);
}

/// The shape `bindings/simulation.rs` had: a file that re-exports the classes built on it.
#[test]
fn a_cycle_through_a_reexport_is_reported() {
    let reexporting = tree(&[
        ("lib.rs", "pub mod b;"),
        ("b/mod.rs", "pub mod shared; pub mod run;"),
        ("b/shared.rs", "pub struct Limits;\npub use super::run::Run;"),
        ("b/run.rs", "use super::shared::Limits;\npub struct Run(Limits);"),
    ]);
    let g = file_graph(&reexporting);
    let msg = cycles("web layer", &g).expect("run ↔ shared is found");
    assert!(msg.contains("b/run.rs → b/shared.rs → b/run.rs"), "{msg}");
    // without the re-export, the class builds on the shared file one way
    let one_way = tree(&[
        ("lib.rs", "pub mod b;"),
        ("b/mod.rs", "pub mod shared; pub mod run;"),
        ("b/shared.rs", "pub struct Limits;"),
        ("b/run.rs", "use super::shared::Limits;\npub struct Run(Limits);"),
    ]);
    assert_eq!(cycles("web layer", &file_graph(&one_way)), None);
}

fn assert_acyclic(name: &str, files: &Graph) {
    if let Some(msg) = cycles(name, files) {
        panic!("{msg}");
    }
    for (f, d) in files {
        println!("{f} → {}", d.iter().cloned().collect::<Vec<_>>().join(", "));
    }
}

#[test]
fn the_engine_files_import_one_way() {
    let files = crate_files("crates/engine/src");
    // the graph is real: it has the engine's files and their known edges
    assert!(files["online/low_switch.rs"].iter().any(|f| f.starts_with("krr")), "{files:?}");
    assert!(files["experiment/run/runner.rs"].iter().any(|f| f.starts_with("online/")), "{files:?}");
    assert_acyclic("engine", &files);
}

#[test]
fn the_web_layer_files_import_one_way() {
    let files = crate_files("src");
    // the graph is real: both run classes build on the shared file, which names neither
    for class in ["bindings/online_run.rs", "bindings/experiment_run.rs"] {
        assert!(files[class].contains("bindings/simulation.rs"), "{files:?}");
        assert!(!files["bindings/simulation.rs"].contains(class), "{files:?}");
    }
    assert_acyclic("web layer", &files);
}

// ---------------------------------------------------------------------------------------------
// The declared module graph.

/// The group labels at the left of docs/ARCHITECTURE.md's graph (words, not modules).
const GROUPS: [&str; 6] = ["leaves", "geometry", "data", "evaluation", "learning", "experiments"];

/// The engine's module graph as a document declares it: the first code block after the heading
/// "## The engine's module graph". A line `a, b ───→ c, d` says modules a and b may use c and d
/// (lines without an arrow that follow continue the list); the `leaves` line names modules that
/// use no other. A group label at the left of a line is no module.
fn declared_graph(doc: &str) -> Graph {
    let after = doc.split_once("## The engine's module graph").expect("the module graph's heading").1;
    let block = after.split("```").nth(1).expect("the module graph's code block");
    let names = |s: &str| -> Vec<String> {
        s.split(|c: char| c == ',' || c.is_whitespace())
            .map(|w| w.trim_matches('─'))
            .filter(|w| !w.is_empty() && !GROUPS.contains(w))
            .map(String::from)
            .collect()
    };
    let mut g = Graph::new();
    let mut current: Vec<String> = Vec::new();
    for line in block.lines().skip(1) {
        if let Some((left, right)) = line.split_once('→') {
            current = names(left);
            for m in &current {
                g.entry(m.clone()).or_default().extend(names(right));
            }
        } else if line.trim_start().starts_with("leaves") {
            for m in names(line) {
                g.entry(m).or_default();
            }
            current.clear();
        } else {
            for m in &current {
                g.entry(m.clone()).or_default().extend(names(line));
            }
        }
    }
    g
}

/// The module of a file of a crate's `src/`: its first path segment (`krr/cholesky.rs` → `krr`);
/// `None` for the crate root.
fn module_of(file: &str) -> Option<String> {
    let first = file.split('/').next()?.trim_end_matches(".rs");
    (first != "lib" && first != "main").then(|| first.to_string())
}

/// Where the modules' imports and the declared graph disagree, one sentence each: an import the
/// graph does not allow, an arrow no file uses, a module missing from the graph or declared but
/// absent. Test files (`tests.rs`, `*_tests.rs`) may use more.
fn graph_faults(declared: &Graph, files: &Graph) -> Vec<String> {
    let mut used = Graph::new();
    for (f, targets) in files {
        let Some(m) = module_of(f) else { continue };
        if f.ends_with("/tests.rs") || f.ends_with("_tests.rs") {
            continue;
        }
        let deps = used.entry(m.clone()).or_default();
        for t in targets {
            if let Some(n) = module_of(t).filter(|n| *n != m) {
                deps.insert(n);
            }
        }
    }
    let mut faults = Vec::new();
    for (m, deps) in &used {
        let Some(allowed) = declared.get(m) else {
            faults.push(format!("module `{m}` is not in the declared graph"));
            continue;
        };
        for d in deps.difference(allowed) {
            let by: Vec<&str> = files
                .iter()
                .filter(|(f, t)| {
                    module_of(f).as_ref() == Some(m) && t.iter().any(|t| module_of(t).as_ref() == Some(d))
                })
                .map(|(f, _)| f.as_str())
                .collect();
            faults.push(format!("`{m}` uses `{d}` ({}), which its arrow does not allow", by.join(", ")));
        }
        for d in allowed.difference(deps) {
            faults.push(format!("`{m}` is declared to use `{d}`, which none of its files uses"));
        }
    }
    for m in declared.keys().filter(|m| !used.contains_key(*m)) {
        faults.push(format!("module `{m}` is declared but has no file"));
    }
    faults
}

#[test]
fn the_declared_graph_is_read_from_its_block() {
    let doc = "# A\n\n## The engine's module graph\n\ntext\n\n```\n leaves   error   space\n geometry loss ──→ error,\n                   space\n          a, b ──→ loss\n```\n";
    let g = declared_graph(doc);
    let want = graph(&[("loss", "error"), ("loss", "space"), ("a", "loss"), ("b", "loss")]);
    let mut want = want;
    want.entry("error".into()).or_default();
    want.entry("space".into()).or_default();
    assert_eq!(g, want);
}

#[test]
fn an_import_the_declared_graph_does_not_allow_fails() {
    let declared = graph(&[("loss", "space")]);
    let mut declared = declared;
    declared.entry("space".into()).or_default();
    let files = file_graph(&tree(&[
        ("lib.rs", "pub mod loss; pub mod space;"),
        ("space.rs", "pub struct P;"),
        ("loss.rs", "use crate::space::P;\npub fn f(_: P) {}"),
    ]));
    assert_eq!(graph_faults(&declared, &files), Vec::<String>::new());
    // space starts using loss: an arrow the document does not draw
    let files = file_graph(&tree(&[
        ("lib.rs", "pub mod loss; pub mod space;"),
        ("space.rs", "pub struct P;\npub fn g() { crate::loss::f(P) }"),
        ("loss/mod.rs", "use crate::space::P;\npub fn f(_: P) {}"),
    ]));
    let faults = graph_faults(&declared, &files);
    assert_eq!(faults, vec!["`space` uses `loss` (space.rs), which its arrow does not allow".to_string()]);
    // an arrow nothing uses is stale
    let mut stale = declared.clone();
    stale.get_mut("loss").unwrap().insert("error".into());
    stale.entry("error".into()).or_default();
    let files = file_graph(&tree(&[
        ("lib.rs", "pub mod loss; pub mod space;"),
        ("space.rs", "pub struct P;"),
        ("loss.rs", "use crate::space::P;\npub fn f(_: P) {}"),
    ]));
    let faults = graph_faults(&stale, &files);
    assert!(faults.iter().any(|f| f.contains("`loss` is declared to use `error`")), "{faults:?}");
    assert!(faults.iter().any(|f| f.contains("`error` is declared but has no file")), "{faults:?}");
}

#[test]
fn the_engine_imports_only_what_its_declared_graph_allows() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ARCHITECTURE.md"))
        .expect("docs/ARCHITECTURE.md");
    let declared = declared_graph(&doc);
    assert!(declared.len() > 20 && declared["online"].contains("krr"), "{declared:?}");
    let faults = graph_faults(&declared, &crate_files("crates/engine/src"));
    assert!(
        faults.is_empty(),
        "docs/ARCHITECTURE.md's engine graph and the imports disagree:\n{}",
        faults.join("\n")
    );
}
