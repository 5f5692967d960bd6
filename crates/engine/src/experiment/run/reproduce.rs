//! Reproducing a result: the `csc` command that regenerates a report from its definition, and a
//! report file read back (a CLI result drawn by the page, or a page export checked) with its
//! statistics re-derived from its units.

use crate::error::{Error, Result};
use crate::experiment::{builtin, ExperimentSpec, Report, ReportRecord};

/// The `csc run` command that regenerates the report of `spec` (with the same engine and data):
///
/// - a built-in experiment changed at most in its seeds, parameters and sweep: `csc run <id>`
///   with `--seeds`, `--first-seed`, one `--set key=value` per parameter that differs (values as
///   JSON, which round-trips every `f64`) and `--grid` for a numeric sweep that differs;
/// - anything else (quick settings' sweep values or dropped policies, a user's definition, the
///   user's data): `csc run <definition_file>`, where the file holds `spec` as JSON (what the
///   report's `experiment` field holds).
///
/// Built-in data is read as the CLI reads it (`--data`, `$CSC_DATA` or `../shared/data` for
/// nq-trivia); a user's files are named relative to the definition file's folder.
pub fn cli_command(spec: &ExperimentSpec, definition_file: &str) -> String {
    if let Some(args) = builtin_args(spec) {
        return std::iter::once(format!("csc run {}", spec.id)).chain(args).collect::<Vec<_>>().join(" ");
    }
    format!("csc run {}", shell_word(definition_file))
}

/// The flags that turn the built-in `spec.id` into `spec`, if seeds, parameters and a numeric
/// sweep are all that differ.
fn builtin_args(spec: &ExperimentSpec) -> Option<Vec<String>> {
    let base = builtin(&spec.id).ok()?;
    let same_otherwise = same_definition(
        &ExperimentSpec {
            seeds: base.seeds,
            first_seed: base.first_seed,
            params: base.params.clone(),
            sweep: base.sweep.clone(),
            ..spec.clone()
        },
        &base,
    );
    if !same_otherwise {
        return None;
    }
    let mut args = Vec::new();
    if !same_definition(&ExperimentSpec { sweep: spec.sweep.clone(), ..base.clone() }, &base) {
        args.push(format!("--grid {}", shell_word(&spec.sweep.as_ref()?.to_arg()?)));
    }
    args.extend(run_flags(spec, &base)?);
    Some(args)
}

/// The flags that change `base`'s seeds, first seed and parameters into `spec`'s: `--seeds`,
/// `--first-seed` and one `--set key=value` per parameter that differs (values as JSON, which
/// round-trips every `f64`), in `Params`' order. `csc run` and `csc tune-threshold` read them
/// alike.
pub(crate) fn run_flags(spec: &ExperimentSpec, base: &ExperimentSpec) -> Option<Vec<String>> {
    let mut args = Vec::new();
    if spec.seeds != base.seeds {
        args.push(format!("--seeds {}", spec.seeds));
    }
    if spec.first_seed != base.first_seed {
        args.push(format!("--first-seed {}", spec.first_seed));
    }
    let (want, have) = (serde_json::to_value(&spec.params).ok()?, serde_json::to_value(&base.params).ok()?);
    let (want, have) = (want.as_object()?, have.as_object()?);
    args.extend(
        want.iter()
            .filter(|(k, v)| have.get(*k) != Some(*v))
            .map(|(k, v)| format!("--set {}", shell_word(&format!("{k}={v}")))),
    );
    Some(args)
}

/// Whether two definitions are the same experiment, with the JSON numbers they hold (a frontier
/// family's values and settings, a sweep's values) compared by value: a definition that went
/// through JavaScript holds a family's `1.0` as the integer `1` (JSON has one number type), which
/// `serde_json::Value`'s `==` tells apart.
pub(crate) fn same_definition(a: &ExperimentSpec, b: &ExperimentSpec) -> bool {
    use serde_json::Value;
    /// The spec without its JSON numbers, and those numbers in order.
    fn split(s: &ExperimentSpec) -> (ExperimentSpec, Vec<Value>) {
        let (mut s, mut held) = (s.clone(), Vec::new());
        if let crate::experiment::Measure::Frontier { families } = &mut s.measure {
            for f in families {
                held.append(&mut f.values);
                held.extend(f.set.values_mut().map(std::mem::take));
            }
        }
        if let Some(w) = &mut s.sweep {
            held.append(&mut w.values);
            if let Some(by) = &mut w.by {
                held.append(&mut by.values);
            }
        }
        (s, held)
    }
    let ((a, x), (b, y)) = (split(a), split(b));
    a == b && x.len() == y.len() && x.iter().zip(&y).all(|(x, y)| same_by_value(x, y))
}

/// `a == b` for JSON values, except that numbers compare by value: JavaScript (one number type)
/// writes the `f64` `250.0` as `250`, which `serde_json::Value`'s `==` reads as another number.
fn same_by_value(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_by_value(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_by_value(v, w)))
        }
        _ => a == b,
    }
}

/// `w` quoted for a POSIX shell when it holds anything but plain characters.
pub(crate) fn shell_word(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_.,/=:+@".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// Reads a report file (`csc run`'s `<id>.json`, `csc merge`'s, or the page's JSON export) and
/// re-derives it from its definition and units with this engine ([`Report::new`]): the result
/// is what the page would have made of the same units. Refused, with a message saying what to do:
/// text that is not a report, a shard's report (merge the shards first), an invalid definition,
/// and statistics that differ from what the units give (an edited file, or another engine's
/// aggregation). Numbers compare by value, so a report re-saved by JavaScript still opens.
pub fn read_report(text: &str) -> Result<Report> {
    let r = ReportRecord::parse(text).map_err(|e| {
        Error::parse(format!("not a csc report ({e}); open a file written by `csc run`, `csc merge` or the page's “Report (JSON)” export"))
    })?;
    if let Some(s) = r.shard {
        return Err(Error::data(format!(
            "this is shard {} of {} of `{}`: join the shards first with `csc merge`",
            s.index, s.count, r.experiment.id
        )));
    }
    r.experiment.validate()?;
    let stated = r.stats_as_ids();
    let (count, engine) = (r.units.len(), r.engine.clone());
    let again = r.into_report();
    if !serde_json::to_value(&again.stats).is_ok_and(|v| same_by_value(&v, &stated)) {
        return Err(Error::data(format!(
            "the report's statistics differ from what its {count} units give with this engine ({}; the file says {engine}): was it edited?",
            crate::experiment::ENGINE,
        )));
    }
    Ok(again)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::BUILTIN_IDS;

    #[test]
    fn an_unchanged_builtin_is_its_id() {
        for id in BUILTIN_IDS {
            assert_eq!(cli_command(&builtin(id).unwrap(), "x.json"), format!("csc run {id}"));
        }
    }

    /// Every built-in as JavaScript gives it back (through JSON, every whole number an integer:
    /// JSON has one number type) is still its id.
    #[test]
    fn a_builtin_through_javascript_is_still_its_id() {
        fn integers(v: &mut serde_json::Value) {
            match v {
                serde_json::Value::Number(n) => {
                    if let Some(x) = n.as_f64().filter(|x| x.fract() == 0.0 && *x >= 0.0 && *x < 1e15) {
                        *v = serde_json::json!(x as u64);
                    }
                }
                serde_json::Value::Array(a) => a.iter_mut().for_each(integers),
                serde_json::Value::Object(o) => o.values_mut().for_each(integers),
                _ => {}
            }
        }
        for id in BUILTIN_IDS {
            let mut js = serde_json::to_value(builtin(id).unwrap()).unwrap();
            integers(&mut js);
            let back = ExperimentSpec::from_json(&js.to_string()).unwrap();
            assert_eq!(cli_command(&back, "x.json"), format!("csc run {id}"));
        }
    }

    #[test]
    fn seeds_and_parameters_become_flags() {
        let mut s = builtin("fig-c").unwrap();
        s.seeds = 3;
        s.first_seed = 7;
        s.params.horizon = 400;
        s.params.epsilon = 0.1 + 0.2; // 0.30000000000000004: printed so that it reads back exactly
        assert_eq!(
            cli_command(&s, "x.json"),
            "csc run fig-c --seeds 3 --first-seed 7 --set epsilon=0.30000000000000004 --set horizon=400"
        );
    }

    #[test]
    fn other_changes_need_the_definition_file() {
        let mut s = builtin("fig-c").unwrap();
        s.title = "mine".into();
        assert_eq!(cli_command(&s, "fig c.json"), "csc run 'fig c.json'");
        let mut s = builtin("fig-c").unwrap();
        let crate::experiment::Measure::Online { policies } = &mut s.measure else { unreachable!() };
        policies.truncate(2);
        assert_eq!(cli_command(&s, "fig-c-quick.json"), "csc run fig-c-quick.json");
        let mut s = builtin("fig-a").unwrap();
        s.sweep = None; // a sweep removed cannot be said with --grid
        assert_eq!(cli_command(&s, "a.json"), "csc run a.json");
    }

    #[test]
    fn a_changed_sweep_is_a_grid() {
        let mut s = builtin("fig-a").unwrap();
        s.sweep.as_mut().unwrap().values.truncate(2);
        assert_eq!(cli_command(&s, "x.json"), "csc run fig-a --grid log_len=100,200");
        let mut s = builtin("sens-on-beta").unwrap();
        s.sweep = Some(crate::experiment::Sweep::parse("beta=0.1,1;epsilon=0.3,0.5").unwrap());
        s.seeds = 2;
        assert_eq!(
            cli_command(&s, "x.json"),
            "csc run sens-on-beta --grid 'beta=0.1,1;epsilon=0.3,0.5' --seeds 2"
        );
    }

    #[test]
    fn shell_words_are_quoted() {
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word("k=0.5"), "k=0.5");
        assert_eq!(shell_word(""), "''");
    }
}
