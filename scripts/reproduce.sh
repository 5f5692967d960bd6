#!/usr/bin/env bash
# Regenerates every figure and table of docs/REPRODUCTION.md: builds the CLI, runs the
# experiments (SPEC §10, the tuned variants, the sensitivity sweeps and the theory checks) into
# results/, then draws docs/figures/*.png and writes results/tables.md with tools/plot_figures.py.
#
#   bash scripts/reproduce.sh [DATA_DIR]        # DATA_DIR or $CSC_DATA: the shared NQ/TriviaQA data
#
# Environment:
#   CSC_DATA       folder of nq.jsonl, nq.emb.f32, triviaqa.jsonl, triviaqa.emb.f32 (default ../shared/data)
#   THREADS        worker threads per run (default 1: the machine this was written on was shared)
#   CSC            the csc binary the runs use (default: the one this script builds, else no build; e.g. a
#                  wrapper that times each run, as docs/PERFORMANCE.md's "Scale" did)
#   ONLY           space-separated experiment ids to run (default: all below); "none" only plots
#   FULL=1         also run krr-err on its own (the document draws it from fig-c, whose
#                  CLCB-SC-LS-Cont runs are the same)
#   PYTHON         the Python with tools/requirements.txt installed (default: a venv in
#                  target/plot-venv, created on first use)
#   SLURM=1        submit each experiment to Slurm as an array of $SHARDS shards instead
#                  (deploy/slurm/submit.sh: shards and finished units in <out>/shards/<id>/, the
#                  merge chained), wait for every merge, then plot. Run it on a login node whose
#                  folders the compute nodes share. SHARDS (default 8), LIMIT (tasks at a time
#                  per experiment, default 4); sbatch options through SBATCH_* variables.
#   QUICK=1        the quick reproduction: only the experiments that are presets of the page's
#                  Paper view, each at the quick settings the page runs (`csc run --quick`), into
#                  results-quick/ (OUT), without plotting (docs/figures are the full runs')
#   OUT            the results folder (default results, or results-quick with QUICK=1)
# A run that already has $OUT/<id>.json is skipped unless FORCE=1.
# Each run's units (of its report), wall and CPU time (/usr/bin/time: user + system), threads and
# the load average before and after are printed as it ends, and at the end as a table with the
# totals and the whole script's wall time, saved to $OUT/timing.md (docs/PERFORMANCE.md quotes it).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

DATA=${1:-${CSC_DATA:-../shared/data}}
THREADS=${THREADS:-1}
QUICK=${QUICK:-0}
OUT=${OUT:-$([ "$QUICK" = 1 ] && echo results-quick || echo results)}
mkdir -p "$OUT/logs"
t_start=$SECONDS
rm -f "$OUT/timing.tsv" # this invocation's runs only (a skipped run has no row)

if [ -z "${CSC:-}" ]; then
    cargo build --release --locked --bin csc
    CSC=$(realpath "${CARGO_TARGET_DIR:-target}/release/csc")
fi
export CSC # the binary deploy/slurm's jobs run
merges=()  # SLURM=1: "MERGE_JOB REPORT" of every submitted experiment
echo "engine: $($CSC --version), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
quick_ids=" " # QUICK=1: the Paper view's presets, and their -tuned variants
if [ "$QUICK" = 1 ]; then
    quick_ids=" $("$CSC" list --json | python3 -c 'import json, sys
print(" ".join(i for p in json.load(sys.stdin)["presets"] for i in [p["id"]] + ([p["id"] + "-tuned"] if p["tuned"] else [])))') "
fi

# run ID [extra csc args...]: one experiment into $OUT (or the --out given in the extra args). ID is
# a built-in id or the path of a JSON definition named after its id (results/defs/<id>.json).
run() {
    local exp=$1
    local id
    id=$(basename "$exp" .json)
    shift
    local dest=$OUT
    local args=("$@")
    for ((i = 0; i < ${#args[@]}; i++)); do
        [ "${args[$i]}" = "--out" ] && dest=${args[$((i + 1))]}
    done
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $id "* ]]; then
        return 0
    fi
    if [ "$QUICK" = 1 ]; then
        # presets only, and only their main runs (not the re-measured runtimes of $OUT/rt)
        [[ "$quick_ids" == *" $id "* ]] && [ "$dest" = "$OUT" ] || return 0
        args+=(--quick)
        set -- "$@" --quick
    fi
    if [ -f "$dest/$id.json" ] && [ "${FORCE:-0}" != 1 ]; then
        echo "skip $id: $dest/$id.json exists (FORCE=1 to rerun)"
        return 0
    fi
    if [ "${SLURM:-0}" = 1 ]; then
        # the same flags without --out (the shards go to $dest/shards/$id, the merge to $dest),
        # every path absolute for the compute nodes
        local pass=() skip=0 a line
        for a in "${args[@]}"; do
            if [ $skip = 1 ]; then skip=0; continue; fi
            if [ "$a" = --out ]; then skip=1; continue; fi
            pass+=("$a")
        done
        [ -f "$exp" ] && exp=$(realpath "$exp")
        line=$(deploy/slurm/submit.sh --limit "${LIMIT:-4}" "${SHARDS:-8}" "$dest/shards/$id" "$dest" \
            "$exp" --data "$(realpath -m "$DATA")" "${pass[@]}")
        echo "==> $id: $line"
        merges+=("$(sed -E 's/.*merge job ([0-9]+).*/\1/' <<<"$line") $dest/$id.json")
        return 0
    fi
    echo "==> csc run $id ${args[*]}"
    local outarg=() log load0 rc=0
    [ "$dest" = "$OUT" ] && outarg=(--out "$OUT")
    log="$OUT/logs/$id$(echo "${args[*]}" | tr -c 'a-zA-Z0-9.=\n' '_').log"
    load0=$(cut -d' ' -f1 /proc/loadavg)
    # /usr/bin/time: the run's wall and CPU (user + system, over all its threads and children)
    /usr/bin/time -o "$log.time" -f "%e %U %S" \
        nice -n 10 "$CSC" run "$exp" --threads "$THREADS" --quiet --data "$DATA" "${outarg[@]}" "$@" \
        >"$log" 2>&1 || rc=$?
    [ $rc = 0 ] || { echo "<== $id FAILED with exit code $rc (log: $log)" >&2; return $rc; }
    timing_row "$id${args[*]:+ ${args[*]}}" "$dest/$id.json" "$log.time" "$load0"
}

# timing_row LABEL REPORT TIME_FILE LOAD_BEFORE: prints "<== LABEL (…)" and appends the run's row
# (units of its report, wall and CPU seconds, threads, 1-minute load average before and after) to
# $OUT/timing.tsv, which timing_table turns into $OUT/timing.md.
timing_row() {
    local units wall user sys
    units=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["units"]))' "$2")
    read -r wall user sys <"$3"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$units" "$wall" \
        "$(echo "$user + $sys" | bc)" "$THREADS" "$4" "$(cut -d' ' -f1 /proc/loadavg)" >>"$OUT/timing.tsv"
    echo "<== $1 ($units units, wall $wall s, CPU $(echo "$user + $sys" | bc) s)"
}

# timing_table: $OUT/timing.tsv as a Markdown table with its totals, printed and saved to
# $OUT/timing.md (docs/PERFORMANCE.md, "The full reproduction, timed", is one).
timing_table() {
    [ -s "$OUT/timing.tsv" ] || return 0
    python3 - "$OUT/timing.tsv" "$1" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY' | tee "$OUT/timing.md"
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
total_wall, cores, load = int(sys.argv[2]), sys.argv[3], sys.argv[4]
print("| run | units | wall (s) | CPU (s) | threads | load before → after |")
print("|---|---:|---:|---:|---:|---|")
for label, units, wall, cpu, threads, l0, l1 in rows:
    print(f"| {label} | {units} | {float(wall):.0f} | {float(cpu):.1f} | {threads} | {l0} → {l1} |")
w = sum(float(r[2]) for r in rows)
c = sum(float(r[3]) for r in rows)
u = sum(int(r[1]) for r in rows)
print(f"| **all {len(rows)} runs** | {u} | {w:.0f} | {c:.1f} | | |")
print()
print(f"Whole script (build, runs, figures unless QUICK=1): {total_wall} s wall on {cores} cores; "
      f"load average at the end {load} (1, 5, 15 min).")
PY
}

# Geometry (paper appendix).
run geom
run geom-nq
# Offline (paper Fig. 1a, 1b and the cache-size ablation), SPEC defaults = theoretical widths.
run fig-a
run fig-b
run abl-k
# Offline with the tuned widths, and the offline sensitivity sweeps.
run fig-a-tuned
run fig-b-tuned
run sens-off-beta
run sens-off-lambda
run sens-off-length
run sens-off-zeta
run sens-off-noise
# Online synthetic (Fig. 1c, 1d; fig-d is the same run as fig-c), switch counts, online sensitivity.
# FULL=1 adds krr-err on its own (the document draws it from fig-c's CLCB-SC-LS-Cont runs).
run fig-c
run thy-switch-cont
run thy-switch
# Theorem 5.1 across horizons: the exact learner to T = 5,000 (its cost grows like T³), the
# Nyström learner (a named approximation) to 50,000.
run thy-horizon
run thy-horizon-nystrom
run sens-on-beta
run sens-on-length
run sens-on-lambda
run sens-on-epsilon
if [ "${FULL:-0}" = 1 ]; then
    run krr-err
fi
# Online nq-trivia (Fig. 1e, 1f; fig-f is the same run as fig-e: T = 5,000, 10 seeds) and the
# ε search at β = 1, 0.1.
run fig-e
run sens-nq-epsilon
run sens-nq-epsilon --set beta=0.1 --out "$OUT/nq-beta0.1"
# nq-trivia, CLCB-SC-LS-Cont tuned: β × ℓ_k chosen on held-out seeds 100–102 (T = 2,000,
# n_eval = 2,000), against the baselines on the same seeds. The tuning grid is the built-in
# nq-tune (β × ℓ_k), run here as one β sweep per ℓ_k (the layout tools/plot_figures.py reads; the
# definition of each run is the one this script used to write, and its cells those of the grid:
# tests/grid.rs); the baselines' definition is written here (not a built-in experiment).
mkdir -p "$OUT/defs"
cat >"$OUT/defs/nq-tune-ref.json" <<'JSON'
{"id": "nq-tune-ref", "title": "nq-trivia online: baselines on held-out seeds 100-102 (T = 2,000)",
 "dataset": "nq-trivia", "measure": {"kind": "online", "policies": ["clcb-sc-ls", "greedy", "lfu"]},
 "params": {"horizon": 2000, "n_eval": 2000}, "seeds": 3, "first_seed": 100}
JSON
# Runtimes re-measured (2 seeds of fig-c and fig-e; all other values equal the full runs').
run fig-c --seeds 2 --out "$OUT/rt"
run fig-e --seeds 2 --out "$OUT/rt"
for L in 0.2 0.4 0.8; do
    run nq-tune --grid 'beta=0.03,0.1,0.3,1.0' --set kernel_length=$L --out "$OUT/nq-tune/len$L"
done
run "$OUT/defs/nq-tune-ref.json" --out "$OUT/nq-tune/ref"

# SLURM=1: wait for every merge job (a merge is cancelled if a shard of its experiment failed).
if [ ${#merges[@]} -gt 0 ]; then
    echo "waiting for ${#merges[@]} merge jobs (squeue shows them)…"
    failed=0
    for m in "${merges[@]}"; do
        read -r job report <<<"$m"
        while [ -n "$(squeue -h -j "$job" -o %i 2>/dev/null)" ]; do sleep 10; done
        if [ ! -f "$report" ]; then
            echo "no $report: its merge job $job did not finish; see the logs beside its shards (re-submit a failed index with deploy/slurm/submit.sh --only I)" >&2
            failed=1
        fi
    done
    [ $failed = 0 ] || exit 1
fi

# Figures and tables (not for the quick runs: docs/figures are the full reproduction's).
if [ "$QUICK" = 1 ]; then
    echo "quick runs in $OUT (no figures drawn)"
    timing_table $((SECONDS - t_start))
    exit 0
fi
PY=${PYTHON:-}
if [ -z "$PY" ]; then
    if [ ! -x target/plot-venv/bin/python ]; then
        python3 -m venv target/plot-venv
        target/plot-venv/bin/pip install -q -r tools/requirements.txt
    fi
    PY=target/plot-venv/bin/python
fi
"$PY" tools/plot_figures.py --results "$OUT" --out docs/figures --tables "$OUT/tables.md" --csc "$CSC"
echo "figures in docs/figures, numbers in $OUT/tables.md"
timing_table $((SECONDS - t_start))
# Through Slurm the runs are the scheduler's tasks, timed by none of this script's wrappers: no table.
[ -s "$OUT/timing.tsv" ] && echo "timing: $OUT/timing.md"
# The whole reproduction (every run, nothing skipped, no ONLY): its table goes into
# docs/PERFORMANCE.md between the markers, with the machine, so that the document is always the
# script's last full measurement.
if [ -z "${ONLY:-}" ] && [ -s "$OUT/timing.tsv" ] && [ "$(wc -l <"$OUT/timing.tsv")" -ge 30 ]; then
    python3 - "$OUT/timing.md" docs/PERFORMANCE.md "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" \
        "$THREADS" <<'PY'
import re, sys, platform
table, doc, commit, threads = open(sys.argv[1]).read().strip(), sys.argv[2], sys.argv[3], sys.argv[4]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
mem = next((int(l.split()[1]) // 1024 // 1024 for l in open("/proc/meminfo") if l.startswith("MemTotal")), 0)
import os
block = (f"Measured by `scripts/reproduce.sh` itself (commit `{commit}`, THREADS={threads}; "
         f"{os.cpu_count()} cores of {cpu}, {mem} GiB, {platform.system()} {platform.release()}):\n\n{table}\n")
text = open(doc).read()
begin, end = "<!-- reproduce.sh timing: begin -->", "<!-- reproduce.sh timing: end -->"
if begin in text and end in text:
    text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: f"{begin}\n{block}{end}", text, flags=re.S)
    open(doc, "w").write(text)
    print(f"  wrote the timing into {doc}")
PY
fi
