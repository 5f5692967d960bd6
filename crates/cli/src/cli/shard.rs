//! Which shard of an experiment's units this `csc run` does: from `--shard I/N`, or named by the
//! scheduler that started it (a Slurm array task, a Kubernetes Indexed Job's pod). A pure function
//! of the flags and a lookup of environment variables, so every layout is unit-tested.
//!
//! Rules (README "Sweeps on a cluster"; what an array task sees was checked on Slurm 22.05, and the
//! layouts of the tests below are those):
//! - `--shard I/N` wins over everything.
//! - The shard *count* given explicitly — `--shards N`, else `CSC_SHARDS=N` (the templates set it) —
//!   makes the array task id (or `JOB_COMPLETION_INDEX`) the shard number itself, 0 ≤ id < N, and
//!   every id of the array must be one (`SLURM_ARRAY_TASK_MAX` < N). A re-submitted index (Slurm
//!   then reports `SLURM_ARRAY_TASK_COUNT=1`) or a list such as `--array=2,5,9` thus still runs
//!   its own shard.
//! - Without an explicit count, a Slurm array that is a range (`0-3`, `1-7:3`) gives shards
//!   0…COUNT−1 by position: `(ID − MIN) / STEP`. A list (`2,5,9`: no task can tell its position)
//!   and a lone task with an id other than 0 (a re-submitted index sees COUNT = 1 and would run
//!   every unit) are refused, asking for the count.
//! - A Kubernetes index needs the explicit count (a pod sees only its index).
//! - Slurm's variables are read before Kubernetes'.

/// A shard of the units: `index` of `count` (units `u` with `u.index % count == index`), and where
/// the choice came from, in words for the run's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
    pub source: String,
}

fn number(name: &str, value: &str, what: &str) -> Result<usize, String> {
    value.trim().parse::<usize>().map_err(|_| format!("{name}={value}: expected {what}"))
}

/// Parses `--shard I/N`.
fn explicit(s: &str) -> Result<Shard, String> {
    let bad = |e: &dyn std::fmt::Display| format!("--shard expects I/N, e.g. 0/4, got `{s}` ({e})");
    let (i, n) = s.split_once('/').ok_or_else(|| bad(&"no `/`"))?;
    let (i, n): (usize, usize) =
        (i.trim().parse().map_err(|e| bad(&e))?, n.trim().parse().map_err(|e| bad(&e))?);
    if n == 0 || i >= n {
        return Err(format!("--shard {s}: need 0 ≤ I < N (shards are numbered from 0)"));
    }
    Ok(Shard { index: i, count: n, source: "--shard".into() })
}

/// The shard this run does, or `None` for every unit. `shards` is `--shards N`; `env` looks up an
/// environment variable.
pub fn resolve(
    flag: Option<&str>,
    shards: Option<usize>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<Shard>, String> {
    if shards == Some(0) {
        return Err("--shards 0: give the number of shards, at least 1".into());
    }
    if let Some(s) = flag {
        let shard = explicit(s)?;
        if let Some(n) = shards.filter(|&n| n != shard.count) {
            return Err(format!("--shard {s} and --shards {n} disagree on the number of shards; give one"));
        }
        return Ok(Some(shard));
    }
    // the explicit count and where it came from
    let count = match (shards, env("CSC_SHARDS")) {
        (Some(n), _) => Some((n, format!("--shards {n}"))),
        (None, Some(v)) => {
            let n = number("CSC_SHARDS", &v, "the number of shards, a whole number ≥ 1")?;
            if n == 0 {
                return Err("CSC_SHARDS=0: the number of shards must be at least 1".into());
            }
            Some((n, format!("CSC_SHARDS={n}")))
        }
        (None, None) => None,
    };
    if let Some(id) = env("SLURM_ARRAY_TASK_ID") {
        return slurm(&id, count, env).map(Some);
    }
    if let Some(index) = env("JOB_COMPLETION_INDEX") {
        let i = number("JOB_COMPLETION_INDEX", &index, "a pod index, a whole number ≥ 0")?;
        let Some((n, from)) = count else {
            return Err(format!(
                "JOB_COMPLETION_INDEX={i} (a Kubernetes Indexed Job) names the shard but not how many there \
                 are: set CSC_SHARDS to the Job's completions, or pass --shards N"
            ));
        };
        if i >= n {
            return Err(format!(
                "JOB_COMPLETION_INDEX={i} is not a shard of {n} ({from}): make completions equal the shard count"
            ));
        }
        return Ok(Some(Shard {
            index: i,
            count: n,
            source: format!("JOB_COMPLETION_INDEX={i}, count from {from}"),
        }));
    }
    match count {
        Some((_, from)) => Err(format!(
            "{from} gives a shard count but nothing names this run's shard: pass --shard I/N, or run it as a \
             Slurm array task or a Kubernetes Indexed Job (unset CSC_SHARDS to run every unit)"
        )),
        None => Ok(None),
    }
}

/// A Slurm array task's shard (see the module's rules).
fn slurm(
    id: &str,
    count: Option<(usize, String)>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Shard, String> {
    let id = number("SLURM_ARRAY_TASK_ID", id, "an array task id, a whole number ≥ 0")?;
    let var = |name: &str| -> Result<Option<usize>, String> {
        env(name).map(|v| number(name, &v, "a whole number ≥ 0")).transpose()
    };
    let (min, max, step, tasks) = (
        var("SLURM_ARRAY_TASK_MIN")?,
        var("SLURM_ARRAY_TASK_MAX")?,
        var("SLURM_ARRAY_TASK_STEP")?,
        var("SLURM_ARRAY_TASK_COUNT")?,
    );
    if let Some((n, from)) = count {
        let top = max.unwrap_or(id).max(id);
        if top >= n {
            return Err(format!(
                "array task id {top} is not a shard number below {n} ({from}): with an explicit shard count \
                 the array's ids are the shard numbers, so submit --array=0-{} (or a list of them)",
                n - 1
            ));
        }
        return Ok(Shard {
            index: id,
            count: n,
            source: format!("SLURM_ARRAY_TASK_ID={id}, count from {from}"),
        });
    }
    let Some(tasks) = tasks else {
        return Err(format!(
            "SLURM_ARRAY_TASK_ID={id} without SLURM_ARRAY_TASK_COUNT: give the shard count (--shards N or \
             CSC_SHARDS=N, the array's ids then being the shard numbers)"
        ));
    };
    let (min, step) = (min.unwrap_or(0), step.unwrap_or(1));
    let max = max.unwrap_or(min + step * tasks.saturating_sub(1));
    if tasks == 1 && id != 0 {
        return Err(format!(
            "array task {id} is the array's only task (SLURM_ARRAY_TASK_COUNT=1), as when one index is \
             re-submitted: Slurm no longer tells how many shards there are, so give the count \
             (--shards N or CSC_SHARDS=N; task {id} then runs shard {id})"
        ));
    }
    let range = step >= 1
        && tasks >= 1
        && id >= min
        && max >= min
        && (id - min) % step == 0
        && (max - min) % step == 0
        && (max - min) / step + 1 == tasks;
    if !range {
        return Err(format!(
            "array task {id} of {tasks} tasks with ids {min}…{max} (step {step}) is not a range such as \
             --array=0-3 or 1-7:3 (a list like 2,5,9 does not tell a task its position): give the shard \
             count (--shards N or CSC_SHARDS=N), the ids then being the shard numbers 0…N−1"
        ));
    }
    let layout = if step == 1 { format!("{min}-{max}") } else { format!("{min}-{max}:{step}") };
    Ok(Shard {
        index: (id - min) / step,
        count: tasks,
        source: format!("SLURM_ARRAY_TASK_ID={id} of --array={layout}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(
        vars: &[(&str, &str)],
        flag: Option<&str>,
        shards: Option<usize>,
    ) -> Result<Option<Shard>, String> {
        let vars: Vec<(String, String)> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        resolve(flag, shards, &move |k| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
    }

    /// What a task of `--array` sees (SLURM.md's table): ID, COUNT, MIN, MAX, STEP.
    fn task(id: usize, count: usize, min: usize, max: usize, step: usize) -> Vec<(&'static str, String)> {
        vec![
            ("SLURM_ARRAY_TASK_ID", id.to_string()),
            ("SLURM_ARRAY_TASK_COUNT", count.to_string()),
            ("SLURM_ARRAY_TASK_MIN", min.to_string()),
            ("SLURM_ARRAY_TASK_MAX", max.to_string()),
            ("SLURM_ARRAY_TASK_STEP", step.to_string()),
        ]
    }

    fn slurm_task(
        t: &[(&'static str, String)],
        extra: &[(&str, &str)],
        shards: Option<usize>,
    ) -> Result<(usize, usize), String> {
        let mut v: Vec<(&str, &str)> = t.iter().map(|(k, v)| (*k, v.as_str())).collect();
        v.extend_from_slice(extra);
        with(&v, None, shards).map(|s| {
            let s = s.expect("a shard");
            (s.index, s.count)
        })
    }

    #[test]
    fn nothing_set_runs_every_unit() {
        assert_eq!(with(&[], None, None), Ok(None));
    }

    #[test]
    fn the_flag_wins() {
        let s =
            with(&[("SLURM_ARRAY_TASK_ID", "3"), ("CSC_SHARDS", "9")], Some("1/4"), None).unwrap().unwrap();
        assert_eq!((s.index, s.count, s.source.as_str()), (1, 4, "--shard"));
        assert_eq!(with(&[], Some("2/4"), Some(4)).unwrap().unwrap().index, 2);
        assert!(with(&[], Some("1/4"), Some(8)).unwrap_err().contains("disagree"));
        for bad in ["4/4", "0/0", "x", "1/", "/2", "-1/2", "99999999999999999999/2"] {
            assert!(with(&[], Some(bad), None).unwrap_err().contains("--shard"), "{bad}");
        }
    }

    #[test]
    fn a_plain_range_gives_shards_by_position() {
        // --array=0-3
        for id in 0..4 {
            assert_eq!(slurm_task(&task(id, 4, 0, 3, 1), &[], None), Ok((id, 4)));
        }
        // --array=1-4
        for id in 1..=4 {
            assert_eq!(slurm_task(&task(id, 4, 1, 4, 1), &[], None), Ok((id - 1, 4)));
        }
        // one task, --array=0
        assert_eq!(slurm_task(&task(0, 1, 0, 0, 1), &[], None), Ok((0, 1)));
        let s = with(&[("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_COUNT", "4")], None, None)
            .unwrap()
            .unwrap();
        assert_eq!((s.index, s.count), (2, 4), "MIN and STEP default to 0 and 1");
        assert!(s.source.contains("SLURM_ARRAY_TASK_ID=2"), "{}", s.source);
    }

    #[test]
    fn a_stepped_range_gives_shards_0_to_n() {
        // --array=1-7:3: ids 1, 4, 7
        let got: Vec<_> = [1, 4, 7].iter().map(|&id| slurm_task(&task(id, 3, 1, 7, 3), &[], None)).collect();
        assert_eq!(got, vec![Ok((0, 3)), Ok((1, 3)), Ok((2, 3))]);
        assert!(with(
            &task(4, 3, 1, 7, 3).iter().map(|(k, v)| (*k, v.as_str())).collect::<Vec<_>>(),
            None,
            None
        )
        .unwrap()
        .unwrap()
        .source
        .contains("1-7:3"));
    }

    #[test]
    fn a_requeued_task_keeps_its_shard() {
        // `scontrol requeue JOB_1`: the same environment as the first time (and SLURM_RESTART_COUNT)
        assert_eq!(slurm_task(&task(1, 4, 0, 3, 1), &[("SLURM_RESTART_COUNT", "1")], None), Ok((1, 4)));
    }

    #[test]
    fn a_list_is_refused_without_a_count_and_numbered_by_id_with_one() {
        // --array=2,5,9: COUNT 3, MIN 2, MAX 9, STEP 1
        for id in [2, 5, 9] {
            let e = slurm_task(&task(id, 3, 2, 9, 1), &[], None).unwrap_err();
            assert!(e.contains("2,5,9") && e.contains("CSC_SHARDS"), "{e}");
            assert_eq!(slurm_task(&task(id, 3, 2, 9, 1), &[("CSC_SHARDS", "10")], None), Ok((id, 10)));
        }
        // too few shards for the list's ids: every task refuses, not only the high ones
        for id in [2, 5, 9] {
            let e = slurm_task(&task(id, 3, 2, 9, 1), &[("CSC_SHARDS", "6")], None).unwrap_err();
            assert!(e.contains("task id 9") && e.contains("--array=0-5"), "{e}");
        }
    }

    #[test]
    fn a_resubmitted_index_needs_the_count_and_then_keeps_its_shard() {
        // `sbatch --array=1` after a 0-3 array: COUNT 1, MIN = MAX = 1
        let e = slurm_task(&task(1, 1, 1, 1, 1), &[], None).unwrap_err();
        assert!(e.contains("COUNT=1") && e.contains("--shards"), "{e}");
        assert_eq!(slurm_task(&task(1, 1, 1, 1, 1), &[("CSC_SHARDS", "4")], None), Ok((1, 4)));
        assert_eq!(slurm_task(&task(1, 1, 1, 1, 1), &[], Some(4)), Ok((1, 4)));
        // the explicit count wins over COUNT for every task of the full array too
        for id in 0..4 {
            assert_eq!(slurm_task(&task(id, 4, 0, 3, 1), &[("CSC_SHARDS", "4")], None), Ok((id, 4)));
        }
        // --shards wins over CSC_SHARDS
        assert_eq!(slurm_task(&task(1, 1, 1, 1, 1), &[("CSC_SHARDS", "2")], Some(4)), Ok((1, 4)));
    }

    #[test]
    fn an_explicit_count_refuses_ids_that_are_not_shard_numbers() {
        // --array=1-7:3 with CSC_SHARDS=3: ids 4 and 7 are no shard of 3, so all three refuse
        for id in [1, 4, 7] {
            let e = slurm_task(&task(id, 3, 1, 7, 3), &[("CSC_SHARDS", "3")], None).unwrap_err();
            assert!(e.contains("--array=0-2"), "{e}");
        }
        // --array=1-4 with 4 shards: id 4 is no shard of 4
        assert!(slurm_task(&task(1, 4, 1, 4, 1), &[("CSC_SHARDS", "4")], None).is_err());
    }

    #[test]
    fn layouts_that_do_not_map_are_refused() {
        // an id off the step
        assert!(slurm_task(&task(2, 3, 1, 7, 3), &[], None).unwrap_err().contains("not a range"));
        // an id below MIN
        assert!(slurm_task(&task(0, 3, 1, 3, 1), &[], None).is_err());
        // step 0
        assert!(slurm_task(&task(0, 3, 0, 2, 0), &[], None).is_err());
        // no COUNT at all
        let e = with(&[("SLURM_ARRAY_TASK_ID", "2")], None, None).unwrap_err();
        assert!(e.contains("SLURM_ARRAY_TASK_COUNT"), "{e}");
        // garbage
        for (k, v) in [("SLURM_ARRAY_TASK_ID", "x"), ("SLURM_ARRAY_TASK_ID", "-1"), ("CSC_SHARDS", "four")] {
            let mut vars = vec![("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_COUNT", "2")];
            vars.retain(|(n, _)| *n != k);
            vars.push((k, v));
            let e = with(&vars, None, None).unwrap_err();
            assert!(e.contains(k), "{e}");
        }
        let e = with(
            &[("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_COUNT", "2"), ("SLURM_ARRAY_TASK_STEP", "z")],
            None,
            None,
        )
        .unwrap_err();
        assert!(e.contains("SLURM_ARRAY_TASK_STEP"), "{e}");
        assert!(with(&[("CSC_SHARDS", "0"), ("SLURM_ARRAY_TASK_ID", "0")], None, None)
            .unwrap_err()
            .contains("at least 1"));
        assert!(with(&[], None, Some(0)).unwrap_err().contains("--shards 0"));
    }

    #[test]
    fn a_kubernetes_index_needs_the_count() {
        let e = with(&[("JOB_COMPLETION_INDEX", "2")], None, None).unwrap_err();
        assert!(e.contains("JOB_COMPLETION_INDEX=2") && e.contains("CSC_SHARDS"), "{e}");
        let s = with(&[("JOB_COMPLETION_INDEX", "2"), ("CSC_SHARDS", "4")], None, None).unwrap().unwrap();
        assert_eq!((s.index, s.count), (2, 4));
        assert!(s.source.contains("JOB_COMPLETION_INDEX=2") && s.source.contains("CSC_SHARDS=4"));
        assert_eq!(with(&[("JOB_COMPLETION_INDEX", "3")], None, Some(4)).unwrap().unwrap().index, 3);
        assert!(with(&[("JOB_COMPLETION_INDEX", "4"), ("CSC_SHARDS", "4")], None, None).is_err());
        assert!(with(&[("JOB_COMPLETION_INDEX", "x"), ("CSC_SHARDS", "4")], None, None).is_err());
        // Slurm's variables are read first
        let both =
            [("JOB_COMPLETION_INDEX", "3"), ("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "4")];
        assert_eq!(with(&both, None, None).unwrap().unwrap().index, 1);
    }

    #[test]
    fn a_count_without_an_index_is_refused() {
        assert!(with(&[("CSC_SHARDS", "4")], None, None).unwrap_err().contains("CSC_SHARDS=4"));
        assert!(with(&[], None, Some(4)).unwrap_err().contains("--shards 4"));
    }

    /// Every resolved layout covers each unit exactly once over its tasks.
    #[test]
    fn the_tasks_of_an_array_cover_every_shard_once() {
        for (ids, min, max, step) in
            [(vec![0, 1, 2, 3], 0, 3, 1), (vec![1, 4, 7], 1, 7, 3), (vec![5, 6], 5, 6, 1)]
        {
            let mut got: Vec<usize> = ids
                .iter()
                .map(|&id| slurm_task(&task(id, ids.len(), min, max, step), &[], None).unwrap().0)
                .collect();
            got.sort_unstable();
            assert_eq!(got, (0..ids.len()).collect::<Vec<_>>());
        }
    }
}
