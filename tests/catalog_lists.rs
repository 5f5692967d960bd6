//! The engine's lists of parameters, arrival models and datasets (`csc::config::PARAMETERS`,
//! `csc::stream::ARRIVALS`, `csc::dataset::DATASETS`) and the page's control table
//! (`csc::bindings::controls`): they cover what the engine accepts, every value round-trips through
//! `with_param` and the URL codec, and every reference a reader is shown names the paper's own
//! numbering (checked against `../shared/paper/continuous-semantic-caching.tex`: sections,
//! algorithms and their line counts, equations, figures) or an anchor of `docs/SPEC-NOTES.md`.
//! A missing paper fails the test (`$CSC_PAPER` names it when `../shared` is elsewhere).
#![cfg(not(target_arch = "wasm32"))]

use csc::bindings::controls::{self, HIDE_GROUPS};
use csc::bindings::url_state::{check_hide, hide_names, page_controls};
use csc::bindings::url_state::{decode, decode_lossy, encode, PageDataset, UrlState};
use csc::config::{param_list, with_param, Params, PARAMETERS};
use csc::dataset::DATASETS;
use csc::experiment::definition::metrics::METRICS;
use csc::experiment::definition::spec::slug;
use csc::stream::{ArrivalSpec, ARRIVALS};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A valid value other than the page default for each parameter the page does not draw (a new
/// parameter without a control must be added here, or the test fails).
fn sample(id: &str) -> Option<Value> {
    Some(match id {
        "phi" => json!("clipped_quadratic"),
        "zeta" => json!(2.5),
        "c_floor" => json!(0.05),
        "eps_oracle" => json!(0.05),
        "b" => json!(2.0),
        "delta" => json!(0.1),
        "beta_off" => json!(0.25),
        "log_len" => json!(500),
        "propensity" => json!(0.3),
        "synthetic_sigma" => json!(0.01),
        "burst_mean" => json!(50.0),
        "explore_rate" => json!(0.2),
        "threshold_cosine" => json!(0.6),
        "eviction" => json!("gdsf"),
        "lipschitz" => json!(2.0),
        "c_p" => json!(0.2),
        _ => return None,
    })
}

#[test]
fn the_parameter_list_is_every_field_of_params_once_with_its_default() {
    let defaults = serde_json::to_value(Params::default()).unwrap();
    let fields: BTreeSet<&str> = defaults.as_object().unwrap().keys().map(String::as_str).collect();
    let listed: Vec<&str> = PARAMETERS.iter().map(|p| p.id).collect();
    assert_eq!(listed.iter().copied().collect::<BTreeSet<_>>(), fields, "the list and Params differ");
    assert_eq!(listed.len(), fields.len(), "a parameter is listed twice: {listed:?}");
    for p in param_list() {
        assert_eq!(Some(&p.default), defaults.get(p.info.id), "{}", p.info.id);
        assert!(
            !p.info.symbol.is_empty() && !p.info.name.is_empty() && !p.info.doc.is_empty(),
            "{}",
            p.info.id
        );
        assert!(!p.info.doc.contains("SPEC §"), "{}: a bare SPEC section in its doc", p.info.id);
    }
}

/// Every parameter, at each end of its control's range or at a sample value, is accepted by
/// `with_param` and survives the URL codec (decoded from `?id=v`, re-encoded, decoded again).
#[test]
fn every_parameter_round_trips_through_with_param_and_the_url_codec() {
    for p in PARAMETERS {
        let values: Vec<Value> = match p.control {
            Some(c) => {
                assert!(c.min < c.max && c.step > 0.0, "{}", p.id);
                vec![json!(c.min), json!(c.max)]
            }
            None => {
                vec![sample(p.id).unwrap_or_else(|| panic!("`{}`: no control and no sample value", p.id))]
            }
        };
        for v in values {
            // Counts are whole numbers in JSON.
            let v = match v.as_f64() {
                Some(x) if x.fract() == 0.0 && !matches!(p.id, "zeta" | "b" | "burst_mean" | "lipschitz") => {
                    json!(x as u64)
                }
                _ => v,
            };
            let base = csc::bindings::url_state::page_params(PageDataset::Synthetic);
            let set = with_param(&base, p.id, &v).unwrap_or_else(|e| panic!("{} = {v}: {e}", p.id));
            let got = serde_json::to_value(&set).unwrap()[p.id].clone();
            let text = match &v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let s = decode(&format!("{}={text}", p.id)).unwrap_or_else(|e| panic!("{} = {text}: {e}", p.id));
            assert_eq!(s.params, set, "{} = {text}", p.id);
            assert_eq!(decode(&encode(&s).unwrap()).unwrap(), s, "{}", p.id);
            assert_eq!(got.as_f64().map(|x| x as f32), v.as_f64().map(|x| x as f32), "{}", p.id);
        }
        // Just outside a control's range is either refused by the engine or merely outside the
        // page's input (which the engine still accepts); never a panic.
        let _ = decode(&format!("{}=-1", p.id));
    }
}

#[test]
fn arrival_models_are_the_ones_the_engine_parses() {
    for a in ARRIVALS {
        let spec = ArrivalSpec::parse(a.id, None).unwrap_or_else(|e| panic!("{}: {e}", a.id));
        let tag = serde_json::to_value(&spec).unwrap()["model"].clone();
        assert_eq!(tag, json!(a.id), "the list's id is not the definition's `model`");
    }
    let e = ArrivalSpec::parse("zipf", None).unwrap_err().to_string();
    for a in ARRIVALS {
        assert!(e.contains(a.id), "{e}");
    }
    for d in DATASETS {
        assert!(ARRIVALS.iter().any(|a| a.id == d.arrival), "{}: arrival {}", d.id, d.arrival);
    }
}

#[test]
fn datasets_are_the_page_datasets_of_the_url_codec() {
    let ids: Vec<&str> = DATASETS.iter().map(|d| d.id).collect();
    for id in &ids {
        let s = decode(&format!("dataset={id}")).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(serde_json::to_value(s.dataset).unwrap(), json!(id));
    }
    for d in [PageDataset::Synthetic, PageDataset::Plane, PageDataset::NqTrivia, PageDataset::Upload] {
        let id = serde_json::to_value(d).unwrap();
        assert!(ids.contains(&id.as_str().unwrap()), "{id} is not in DATASETS");
    }
    let e = decode("dataset=mnist").unwrap_err().to_string();
    assert!(ids.iter().all(|id| e.contains(id)), "{e}");
}

/// The page's table: one control per id, every parameter with a control in it, every key a
/// field of the page state, every select's default among its choices, and the hide names unique.
#[test]
fn the_control_table_covers_the_page_state() {
    let table = page_controls();
    let ids: Vec<&str> = table.iter().map(|c| c.id).collect();
    let names = hide_names();
    assert_eq!(names.iter().collect::<BTreeSet<_>>().len(), names.len(), "a hide name twice: {names:?}");
    for p in PARAMETERS.iter().filter(|p| p.control.is_some()) {
        assert!(ids.contains(&p.id), "{} has a control but is not in the table", p.id);
    }
    let state = serde_json::to_value(UrlState::defaults(PageDataset::Synthetic)).unwrap();
    for c in &table {
        let value = match c.key.strip_prefix("params.") {
            Some(k) => state["params"].get(k).cloned(),
            None if c.key == "arrival" => Some(json!("uniform")),
            None => state.get(&c.key).cloned(),
        };
        let value = value.unwrap_or_else(|| panic!("{}: `{}` is not a field of the page state", c.id, c.key));
        if !c.choices.is_empty() {
            // An empty choice stands for `null` (p3, p4: no panel; js/controls.js).
            assert!(
                c.choices.iter().any(|o| json!(o.value) == value || (o.value.is_empty() && value.is_null())),
                "{}: default {value} not a choice",
                c.id
            );
        }
        // Every choice of a select of the link's state is a value the URL codec accepts.
        if c.kind == controls::Kind::Select && !c.key.starts_with("params.") && c.key != "arrival" {
            for o in &c.choices {
                decode(&format!("{}={}", c.key, o.value))
                    .unwrap_or_else(|e| panic!("{} = `{}`: {e}", c.id, o.value));
            }
        }
        if let (Some(min), Some(v)) = (c.min, value.as_f64().filter(|&v| !(c.auto && v == 0.0))) {
            assert!(v >= min && c.max.is_none_or(|m| v <= m), "{}: default {v} outside its range", c.id);
        }
    }
    assert!(HIDE_GROUPS.iter().all(|g| !ids.contains(&g.name)), "a group is named like a control");
    assert!(controls::EMBED_HIDE.iter().all(|n| names.contains(n)));
}

#[test]
fn hide_flags_are_validated_and_round_trip() {
    let s = decode("embed=1&hide=seed,k,controls").unwrap();
    assert_eq!(s.hide, ["seed", "k", "controls"]);
    assert_eq!(s.embed, Some(csc::bindings::url_state::Embed::Page));
    assert_eq!(encode(&s).unwrap(), "embed=1&hide=seed,k,controls");
    // Hide flags only ever remove: embedded, the link's names add to what embedding hides.
    assert_eq!(s.hidden(), ["controls", "text", "seed", "k"]);
    assert_eq!(decode("hide=seed").unwrap().hidden(), ["seed"]);
    assert_eq!(encode(&UrlState::defaults(PageDataset::Synthetic)).unwrap(), "");
    let e = decode("hide=seed,kapa").unwrap_err().to_string();
    assert!(e.contains("`hide`") && e.contains("unknown name `kapa`") && e.contains("epsilon"), "{e}");
    assert!(decode("hide=k,k").unwrap_err().to_string().contains("twice"));
    // A bad hide list leaves the rest of the link usable.
    let (s, errors) = decode_lossy("k=3&hide=nope");
    assert_eq!((s.params.k, s.hide.len(), errors.len()), (3, 0, 1));
    assert!(check_hide(&names_of(&hide_names())).is_ok());
    assert_eq!(decode("hide=").unwrap().hide, Vec::<String>::new());
}

fn names_of(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------------------------
// References.

/// What the paper numbers: its sections (`2`, `2.1`, `A`, `A.2`), the numbered lines of each
/// algorithm, and how many equations and figures it has.
struct Outline {
    sections: BTreeSet<String>,
    alg_lines: Vec<usize>,
    equations: usize,
    figures: usize,
}

fn outline() -> Outline {
    // `$CSC_PAPER`, else the paper beside the shared data (`../shared`, as tests/citation.rs).
    let path = std::env::var_os("CSC_PAPER")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/paper/continuous-semantic-caching.tex"));
    let tex = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the paper is needed ({}): {e}", path.display()));
    let (mut sec, mut sub, mut appendix) = (0usize, 0usize, false);
    let mut o = Outline { sections: BTreeSet::new(), alg_lines: vec![], equations: 0, figures: 0 };
    let mut in_alg = false;
    let name = |n: usize, appendix: bool| {
        if appendix {
            ((b'A' + n as u8 - 1) as char).to_string()
        } else {
            n.to_string()
        }
    };
    for line in tex.lines().map(str::trim_start).filter(|l| !l.starts_with('%')) {
        if line.starts_with("\\appendix") {
            (appendix, sec) = (true, 0);
        } else if line.starts_with("\\section{") {
            (sec, sub) = (sec + 1, 0);
            o.sections.insert(name(sec, appendix));
        } else if line.starts_with("\\subsection{") {
            sub += 1;
            o.sections.insert(format!("{}.{sub}", name(sec, appendix)));
        } else if line.starts_with("\\begin{algorithm}") {
            in_alg = true;
            o.alg_lines.push(0);
        } else if line.starts_with("\\end{algorithm}") {
            in_alg = false;
        } else if in_alg
            && !line.starts_with("\\Statex")
            && [
                "\\State",
                "\\If",
                "\\ElsIf",
                "\\Else",
                "\\EndIf",
                "\\For",
                "\\EndFor",
                "\\While",
                "\\EndWhile",
                "\\Return",
            ]
            .iter()
            .any(|c| line.starts_with(c))
        {
            *o.alg_lines.last_mut().unwrap() += 1;
        }
        o.equations += line.matches("\\begin{align}").count() + line.matches("\\begin{equation}").count();
        o.figures += line.matches("\\begin{figure").count();
    }
    o
}

fn notes_anchors() -> BTreeSet<String> {
    let md = std::fs::read_to_string(root().join("docs/SPEC-NOTES.md")).unwrap();
    md.lines().filter(|l| l.starts_with('#')).map(|l| slug(l.trim_start_matches('#').trim())).collect()
}

fn numbers(s: &str) -> Vec<usize> {
    s.split(|c: char| !c.is_ascii_digit()).filter(|t| !t.is_empty()).map(|t| t.parse().unwrap()).collect()
}

/// Checks one reference (`§2.1; Alg. 4, line 11; SPEC-NOTES#anchor`); returns what is wrong.
fn check_reference(r: &str, o: &Outline, anchors: &BTreeSet<String>) -> Result<(), String> {
    if r.contains("SPEC §") || r.contains("SPEC-NOTES.md") {
        return Err("names a SPEC section instead of the paper's numbering or a SPEC-NOTES anchor".into());
    }
    for part in r.split("; ") {
        if let Some(rest) = part.strip_prefix("SPEC-NOTES#") {
            let anchor = rest.split(' ').next().unwrap();
            if !anchors.contains(anchor) {
                return Err(format!("no heading of docs/SPEC-NOTES.md has the anchor `{anchor}`"));
            }
            continue;
        }
        if part.contains("(arXiv ") {
            continue; // another paper, by its arXiv number
        }
        let mut last_alg: Option<usize> = None;
        let mut recognised = false;
        for token in part.split(", ") {
            let t = token.trim_start_matches("appendix ").trim_start_matches("Appendix ");
            if let Some(s) = t.strip_prefix('§') {
                let s = s.split(' ').next().unwrap();
                if !o.sections.contains(s) {
                    return Err(format!("the paper has no §{s}"));
                }
            } else if t.starts_with("A.") {
                let s = t.split(' ').next().unwrap();
                if !o.sections.contains(s) {
                    return Err(format!("the paper has no appendix {s}"));
                }
            } else if t.starts_with("Alg. ") || t.starts_with("Algs. ") {
                let ns = numbers(t);
                if ns.iter().any(|&n| n == 0 || n > o.alg_lines.len()) {
                    return Err(format!("the paper has {} algorithms: `{t}`", o.alg_lines.len()));
                }
                last_alg = ns.first().copied();
            } else if t.starts_with("line ") || t.starts_with("lines ") {
                let a = last_alg.ok_or(format!("`{t}` follows no algorithm"))?;
                if numbers(t).iter().any(|&n| n == 0 || n > o.alg_lines[a - 1]) {
                    return Err(format!("Alg. {a} has {} lines: `{t}`", o.alg_lines[a - 1]));
                }
            } else if t.starts_with("eq. ") || t.starts_with("eqs. ") {
                if numbers(t).iter().any(|&n| n == 0 || n > o.equations) {
                    return Err(format!("the paper has {} numbered equations: `{t}`", o.equations));
                }
            } else if t.starts_with("Fig. ") || t.starts_with("Figs. ") {
                let n = numbers(t.split('(').next().unwrap());
                if n.iter().any(|&n| n == 0 || n > o.figures) {
                    return Err(format!("the paper has {} figures: `{t}`", o.figures));
                }
            } else if recognised {
                continue; // words after a reference (`Reg(T)`, `the serving rule`)
            } else if token == "appendix" || token == "Appendix" {
            } else {
                return Err(format!("`{token}` is not the paper's numbering (§, eq., Alg., Fig., appendix)"));
            }
            recognised = true;
        }
    }
    Ok(())
}

#[test]
fn every_reference_names_the_papers_numbering_or_a_spec_notes_anchor() {
    let (o, anchors) = (outline(), notes_anchors());
    // The outline read from the .tex is the paper's (so the checks below mean something).
    assert!(
        o.sections.contains("5.1") && o.sections.contains("A.2") && !o.sections.contains("9"),
        "{:?}",
        o.sections
    );
    assert_eq!(o.alg_lines.len(), 8, "{:?}", o.alg_lines);
    assert_eq!(o.alg_lines[3], 19, "Alg. 4's numbered lines (algpseudocode numbers End lines too)");
    let mut refs: Vec<(String, String)> = vec![];
    refs.extend(PARAMETERS.iter().map(|p| (format!("parameter {}", p.id), p.reference.to_string())));
    refs.extend(ARRIVALS.iter().map(|a| (format!("arrival {}", a.id), a.reference.to_string())));
    refs.extend(DATASETS.iter().map(|d| (format!("dataset {}", d.id), d.reference.to_string())));
    // A control of the page itself (workers) cites nothing; every other reference is checked.
    let controls = page_controls();
    refs.extend(
        controls
            .iter()
            .filter(|c| !c.reference.is_empty())
            .map(|c| (format!("control {}", c.id), c.reference.to_string())),
    );
    assert!(controls.iter().filter(|c| c.key.starts_with("params.")).all(|c| !c.reference.is_empty()));
    refs.extend(METRICS.iter().map(|m| (format!("metric {}", m.id), m.source.to_string())));
    refs.extend(
        csc::algorithms::PolicyKind::catalog()
            .iter()
            .map(|a| (format!("policy {}", a.id), a.paper.to_string())),
    );
    refs.extend(
        csc::algorithms::OfflineKind::catalog()
            .iter()
            .map(|a| (format!("offline {}", a.id), a.paper.to_string())),
    );
    let mut bad = vec![];
    for (what, r) in &refs {
        if let Err(e) = check_reference(r, &o, &anchors) {
            bad.push(format!("{what}: `{r}`: {e}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The checker catches what it should.
    for wrong in
        ["SPEC §9", "§9", "Alg. 9", "Alg. 4, line 20", "eq. (99)", "SPEC-NOTES#nowhere", "line 3", "Table 1"]
    {
        assert!(check_reference(wrong, &o, &anchors).is_err(), "{wrong} passed");
    }
}

/// The page's own text (index.html and its modules) names the paper's sections only: a `§N`
/// that the paper does not have is a SPEC section shown to a reader.
#[test]
fn the_page_shows_no_spec_section_as_a_reference() {
    let o = outline();
    let mut files = vec![root().join("www/index.html")];
    for dir in ["www/js", "www/js/views"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "js") {
                files.push(p);
            }
        }
    }
    let mut bad = vec![];
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") || code.starts_with("/*") || code.starts_with('*') {
                continue; // comments are for developers
            }
            if line.contains("SPEC §") {
                bad.push(format!("{}:{}: SPEC §", f.display(), i + 1));
            }
            for (j, _) in line.match_indices('§') {
                let num: String = line[j + '§'.len_utf8()..]
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                let num = num.trim_end_matches('.');
                if !num.is_empty() && !o.sections.contains(num) {
                    bad.push(format!("{}:{}: §{num}", f.display(), i + 1));
                }
            }
        }
    }
    assert!(bad.is_empty(), "references to sections the paper does not have:\n{}", bad.join("\n"));
}

/// The page's link and controls: `eviction=gdsf` round-trips, a bad rule is one plain message
/// naming the choices, and the select under More parameters offers both rules.
#[test]
fn the_link_and_the_page_select_the_rule() {
    let s = decode("eviction=gdsf").unwrap();
    assert_eq!(s.params.eviction, csc::config::Eviction::Gdsf);
    assert_eq!(decode(&encode(&s).unwrap()).unwrap(), s);
    for bad in ["eviction=NaN", "eviction=lfu", "eviction=1"] {
        let e = decode(bad).unwrap_err().to_string();
        assert!(
            e.contains("`eviction`") && e.contains("lru or gdsf") && e.lines().count() == 1,
            "{bad}: {e}"
        );
    }
    let c = page_controls().into_iter().find(|c| c.id == "eviction").expect("an eviction control");
    assert_eq!((c.key.as_str(), c.section), ("params.eviction", "more"));
    assert_eq!(c.choices.iter().map(|c| c.value).collect::<Vec<_>>(), ["lru", "gdsf"]);
}

/// The offline view's experiments are read from the engine's figure records: the three offline
/// figures of the paper, in the records' order.
#[test]
fn the_offline_experiments_are_the_offline_figures() {
    assert_eq!(csc::bindings::url_state::offline_experiments(), ["fig-a", "fig-b", "abl-k"]);
}
