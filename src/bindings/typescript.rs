//! The TypeScript declarations of every plain object the page receives by serde (`to_js` of a
//! Rust value), generated from the Rust types with `ts-rs`, so that a declaration cannot drift
//! from what its value serialises to. Native only: `tests/ts_types.rs` regenerates them and
//! compares them with the committed `src/bindings/generated/types.d.ts`, which `types.rs` puts
//! into the shipped `csc.d.ts` (wasm-bindgen's `typescript_custom_section`).
//!
//! Why `#[derive(TS)]` sits on engine types (`Params`, `ExperimentSpec`, `Report`, …): ts-rs reads
//! the same type and serde attributes that decide the JSON, so the description is the type's own
//! and nothing in the bindings restates a field. It is a plain-Rust description (no
//! `wasm_bindgen`, no JS) behind the engine's optional feature `ts` (each derive is
//! `cfg_attr(feature = "ts", …)`), which this crate enables natively only: the wasm build, the
//! engine alone and the CLI never compile it. This crate's own types derive it natively.
//!
//! The objects the bindings build by hand (typed arrays: `EpsilonNetResult`, `LiveFrame`, …) are
//! not serde values; they are declared in one hand-written place, `types.rs`, and checked against
//! what the exports return by `scripts/smoke_pkg.mjs`.

use ts_rs::{Config, TypeVisitor, TS};

/// Where the generated declarations are committed, relative to the crate's root.
pub const GENERATED_PATH: &str = "src/bindings/generated/types.d.ts";

/// The command that rewrites [`GENERATED_PATH`] after a change to a serialised type.
pub const BLESS: &str = "CSC_BLESS=1 cargo test --test ts_types";

/// The values the exports serialise, by the TypeScript name the exports' signatures use. Every
/// type they reach (fields, variants) is declared too.
fn roots(v: &mut Collect) {
    use super::objects::*;
    use crate::experiment::{ExperimentSpec, Report, Sweep};
    v.visit::<crate::config::Params>();
    v.visit::<crate::mismatch::Mismatch>();
    v.visit::<crate::dataset::DatasetInfo>();
    v.visit::<crate::checksum::DeterminismReport>();
    v.visit::<NativeDeterminismReport>();
    v.visit::<crate::algorithms::AlgorithmInfo>();
    v.visit::<crate::algorithms::PolicyInfo>();
    v.visit::<crate::online::PolicyKind>();
    v.visit::<crate::offline::OfflineKind>();
    v.visit::<PaperPreset>();
    v.visit::<crate::experiment::definition::metrics::MetricInfo>();
    v.visit::<crate::experiment::Metric>();
    v.visit::<crate::experiment::definition::presets::PaperValue>();
    v.visit::<crate::config::ParamEntry>();
    v.visit::<crate::stream::ArrivalInfo>();
    v.visit::<crate::dataset::DatasetEntry>();
    v.visit::<PageControls>();
    v.visit::<super::url_state::UrlState>();
    v.visit::<DecodedUrlState>();
    v.visit::<ExperimentSpec>();
    v.visit::<Sweep>();
    v.visit::<Report>();
    v.visit::<LoadedReport<'static>>();
    v.visit::<crate::online::sim::Checkpoint>();
    v.visit::<crate::online::sim::RunResult>();
    v.visit::<crate::live::FrameEvent>();
    v.visit::<crate::online::external::Setup>();
    v.visit::<crate::experiment::tune::TuneAnswer>();
    v.visit::<crate::experiment::report::threat_findings::ThreatFindings>();
}

/// Collects the declaration of every type reached, by TypeScript name.
struct Collect {
    cfg: Config,
    seen: std::collections::HashSet<std::any::TypeId>,
    decls: std::collections::BTreeMap<String, (&'static str, String)>,
    clashes: Vec<String>,
}

impl TypeVisitor for Collect {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Primitives and wrappers (`Vec`, `Option`, maps) have no declaration of their own; the
        // derive visits their type arguments separately.
        if T::output_path().is_none() || !self.seen.insert(std::any::TypeId::of::<T>()) {
            return;
        }
        let name = T::ident(&self.cfg);
        let rust = std::any::type_name::<T>();
        let text = layout(&T::docs().unwrap_or_default(), &T::decl(&self.cfg));
        // A type that stands for another (`#[ts(as = …)]`, ts-rs's `serde_json::Value`) has its
        // declaration: the same name twice is a clash only if the two declarations differ.
        match self.decls.get(&name) {
            Some((other, decl)) if *decl != text => {
                self.clashes.push(format!("`{name}` is the TypeScript name of both {other} and {rust}"))
            }
            Some(_) => {}
            None => {
                self.decls.insert(name, (rust, text));
            }
        }
        T::visit_dependencies(self);
    }
}

/// A declaration laid out for people and for wasm-bindgen: an object type one member a line
/// (with its doc comment) indented two spaces, its `};` on a line of its own. ts-rs writes members
/// without doc comments on the line that opens the object and its last member on the closing
/// line, and wasm-bindgen re-indents the custom section by lines that end in `{` and start with
/// `}`. Other declarations (unions, aliases) stay on one line.
fn layout(docs: &str, decl: &str) -> String {
    let mut out: String = docs.lines().map(|l| format!("{}\n", doc_line(l, ""))).collect();
    let object =
        decl.find(" = {").map(|at| at + 3).filter(|&open| closing(decl, open) == Some(decl.len() - 2));
    let Some(open) = object else {
        out.push_str(&format!("export {decl}\n"));
        return out;
    };
    out.push_str(&format!("export {}{{\n", &decl[..open]));
    for member in split_members(&decl[open + 1..decl.len() - 2]) {
        let (doc, body) = match member.find("*/") {
            Some(end) if member.starts_with("/*") => (&member[..end + 2], member[end + 2..].trim()),
            _ => ("", member),
        };
        for l in doc.lines() {
            out.push_str(&format!("{}\n", doc_line(l, "  ")));
        }
        out.push_str(&format!("  {body},\n"));
    }
    out.push_str("};\n");
    out
}

/// A line of a doc comment, trimmed and indented (` *` lines one space further).
fn doc_line(line: &str, indent: &str) -> String {
    let l = line.trim();
    format!("{indent}{}{l}", if l.starts_with('*') { " " } else { "" })
}

/// The byte index of the bracket closing the one at `open`.
fn closing(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in text.char_indices().skip_while(|&(i, _)| i < open) {
        match c {
            '{' | '[' | '(' | '<' => depth += 1,
            '}' | ']' | ')' | '>' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return Some(i);
        }
    }
    None
}

/// An object type's body split into its members at the commas outside brackets, strings and
/// comments, each trimmed (with its doc comment, if any).
fn split_members(body: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0usize);
    let (mut in_str, mut in_comment) = (false, false);
    let bytes = body.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'*' if in_comment && bytes.get(i + 1) == Some(&b'/') => in_comment = false,
            _ if in_comment => {}
            b'/' if !in_str && bytes.get(i + 1) == Some(&b'*') => in_comment = true,
            b'"' => in_str = !in_str,
            _ if in_str => {}
            b'{' | b'[' | b'(' | b'<' => depth += 1,
            b'}' | b']' | b')' | b'>' => depth -= 1,
            b',' if depth == 0 => {
                out.push(body[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(body[start..].trim());
    out.retain(|m| !m.is_empty());
    out
}

/// The declarations, sorted by name, with a header saying where they come from; an error names
/// two Rust types that would share a TypeScript name.
pub fn declarations() -> Result<String, String> {
    // serde-wasm-bindgen's `json_compatible` serialiser (`convert::to_js`) writes 64-bit integers
    // as numbers, not BigInts.
    let mut v = Collect {
        cfg: Config::new().with_large_int("number"),
        seen: Default::default(),
        decls: Default::default(),
        clashes: Vec::new(),
    };
    roots(&mut v);
    if !v.clashes.is_empty() {
        return Err(v.clashes.join("\n"));
    }
    let mut out = String::from(
        "// Generated from the Rust types by ts-rs (src/bindings/typescript.rs); do not edit.\n\
         // After changing a serialised type, regenerate with `",
    );
    out.push_str(BLESS);
    out.push_str("`.\n");
    for (_, (_, text)) in v.decls {
        out.push('\n');
        out.push_str(&text);
    }
    // A metric's name at the end of a run (`Metric::final_id`): `final_` and its id.
    out.push_str("\n/** A metric's observation at the end of a run: `final_` and its id. */\n");
    out.push_str("export type FinalMetricId = `final_${MetricId}`;\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_type_is_laid_out_one_member_a_line() {
        let decl = "type A = { x: number, \n/**\n * Why, and how.\n */\ny: { a: string, b: Array<[number, number]> }, \"kind\": \"p,q\", };";
        assert_eq!(
            layout("/**\n * A.\n */\n", decl),
            "/**\n * A.\n */\nexport type A = {\n  x: number,\n  /**\n   * Why, and how.\n   */\n  \
             y: { a: string, b: Array<[number, number]> },\n  \"kind\": \"p,q\",\n};\n"
        );
    }

    #[test]
    fn unions_and_aliases_stay_on_one_line() {
        let union = "type P = { \"kind\": \"a\", z: number, } | { \"kind\": \"b\", z: number, };";
        assert_eq!(layout("", union), format!("export {union}\n"));
        assert_eq!(layout("", "type K = \"a\" | \"b\";"), "export type K = \"a\" | \"b\";\n");
    }
}
