#!/usr/bin/env bash
# Scale curves, natively (docs/PERFORMANCE.md, "Scale"): for each horizon T and every
# online policy of the engine (`PolicyKind::ALL`, printed by `examples/scale.rs policies`), one
# process runs the set-up (dataset, trace, oracle) and that policy alone, so that its peak resident
# set is that run's; one more process per T runs the set-up alone. Runs one at a time. A measuring
# tool, not a test (timings are never asserted).
#
#   bash scripts/scale.sh [OUT]          OUT defaults to /tmp/csc-scale-native
#
# Environment: CSC_DATA (nq-trivia's directory), DATASET (nq-trivia), SEED (0),
# HORIZONS ("1000 2000 5000 10000 20000 50000"), POLICIES (default: every id of the engine),
# TIMEOUT (seconds per process, default 3600; a run past it is recorded as "timeout").
# Writes OUT/runs.jsonl (one object per process: the example's JSON plus /usr/bin/time's wall,
# user and system seconds and maximum resident set), OUT/scale.csv and prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/csc-scale-native}
DATASET=${DATASET:-nq-trivia}
SEED=${SEED:-0}
HORIZONS=${HORIZONS:-"1000 2000 5000 10000 20000 50000"}
TIMEOUT=${TIMEOUT:-3600}
mkdir -p "$OUT"
cargo build --release --example scale >&2
BIN=${CARGO_TARGET_DIR:-target}/release/examples/scale
POLICIES=${POLICIES:-$("$BIN" policies | tr '\n' ' ')}
RUNS=$OUT/runs.jsonl
: >"$RUNS"
for T in $HORIZONS; do
  for P in setup $POLICIES; do
    TIMEF=$(mktemp)
    set +e
    LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
    JSON=$(/usr/bin/time -o "$TIMEF" -f '%e %U %S %M' timeout "$TIMEOUT" "$BIN" "$DATASET" "$T" "$SEED" "$P")
    RC=$?
    set -e
    read -r WALL USER SYS MAXKB < <(tail -n1 "$TIMEF")
    rm -f "$TIMEF"
    if [ "$RC" -ne 0 ] || [ -z "$JSON" ]; then
      STATUS=$([ "$RC" -eq 124 ] && echo timeout || echo "exit $RC")
      JSON="{\"dataset\":\"$DATASET\",\"horizon\":$T,\"seed\":$SEED,\"policy\":\"$P\",\"status\":\"$STATUS\"}"
    fi
    LINE=$(printf '%s' "$JSON" | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
d.setdefault("status", "ok")
d["time_v"] = {"wall_s": float(sys.argv[1]), "user_s": float(sys.argv[2]), "sys_s": float(sys.argv[3]), "max_rss_kib": int(sys.argv[4])}
d["loadavg_before"] = sys.argv[5]
print(json.dumps(d))' "${WALL:-0}" "${USER:-0}" "${SYS:-0}" "${MAXKB:-0}" "$LOAD0")
    echo "$LINE" >>"$RUNS"
    echo "$LINE" >&2
  done
done
python3 - "$RUNS" "$OUT/scale.csv" <<'EOF'
import csv, json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
fields = ["policy", "horizon", "status", "setup_wall_s", "setup_cpu_s", "run_wall_s", "run_cpu_s",
          "process_cpu_s", "peak_rss_mib", "setup_peak_rss_mib", "loadavg"]
out = []
for r in rows:
    run, setup, tv = r.get("run") or {}, r.get("setup") or {}, r["time_v"]
    out.append({
        "policy": r["policy"], "horizon": r["horizon"], "status": r["status"],
        "setup_wall_s": round(setup.get("wall_ms", float("nan")) / 1e3, 3),
        "setup_cpu_s": round(setup.get("cpu_ms", float("nan")) / 1e3, 3),
        "run_wall_s": round(run.get("wall_ms", float("nan")) / 1e3, 3),
        "run_cpu_s": round(run.get("cpu_ms", float("nan")) / 1e3, 3),
        "process_cpu_s": round(tv["user_s"] + tv["sys_s"], 2),
        "peak_rss_mib": round(tv["max_rss_kib"] / 1024, 1),
        "setup_peak_rss_mib": round(setup.get("hwm_kib", float("nan")) / 1024, 1),
        "loadavg": r.get("loadavg", r["loadavg_before"]).split()[0],
    })
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields)
    w.writeheader()
    w.writerows(out)
print("| policy | T | policy wall s | policy CPU s | peak RSS MiB | set-up CPU s | load |")
print("|---|---:|---:|---:|---:|---:|---:|")
for o in out:
    print(f"| {o['policy']} | {o['horizon']:,} | {o['run_wall_s']} | {o['run_cpu_s']} | {o['peak_rss_mib']} | {o['setup_cpu_s']} | {o['loadavg']} |"
          if o["status"] == "ok" else f"| {o['policy']} | {o['horizon']:,} | {o['status']} | | | | |")
EOF
