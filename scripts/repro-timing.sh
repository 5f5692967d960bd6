#!/usr/bin/env bash
# Wall time of the reproduction (scripts/reproduce.sh), locally and through a one-node Slurm
# (scripts/slurm-local.sh), interleaved — local, slurm, local, slurm … — so that drifts in the
# machine's load hit both (docs/PERFORMANCE.md, "Scale (issue 26)"). A measuring tool, not a test.
#
#   bash scripts/repro-timing.sh [ROUNDS] [OUT]     # as root; ROUNDS pairs (default 2), OUT
#                                                   # default /tmp/csc-repro-timing
#
# Environment: QUICK (default 1: the Paper view's presets at their quick settings; 0: the full
# reproduction), ONLY (experiment ids, as reproduce.sh), CPUS (default 2: local `--threads` and the
# Slurm node's CPUs; every Slurm task has 1 CPU, so at most CPUS tasks run at once), SHARDS and
# LIMIT (reproduce.sh's Slurm shards per experiment and tasks at a time, default 8 and 4), CSC_DATA.
# Both ways run at the same niceness (reproduce.sh runs each local experiment under `nice -n 10`;
# the Slurm daemons are started under `nice -n 10`, which their tasks inherit). Every csc process
# is timed by a wrapper (/usr/bin/time: wall, user, system), so the CPU each way spent is summed
# over its processes. Prints one line per run and writes OUT/timing.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-2}
OUT=$(realpath -m "${2:-/tmp/csc-repro-timing}")
export QUICK=${QUICK:-1}
CPUS=${CPUS:-2}
DATA=$(realpath -m "${CSC_DATA:-../shared/data}")
cluster=$OUT/slurm
mkdir -p "$OUT"
cargo build --release --locked --bin csc >&2
BIN=$(realpath "${CARGO_TARGET_DIR:-target}/release/csc")

# The wrapper each run's csc goes through: appends "label wall user sys command" to OUT/cpu.log.
cat >"$OUT/csc-timed" <<EOF
#!/usr/bin/env bash
exec /usr/bin/time -a -o "$OUT/cpu.log" -f "\${CSC_TIMING_LABEL:-?} %e %U %S %C" "$BIN" "\$@"
EOF
chmod +x "$OUT/csc-timed"

stop_cluster() { bash scripts/slurm-local.sh stop "$cluster" >/dev/null 2>&1 || true; }
trap stop_cluster EXIT
env_line=$(nice -n 10 bash scripts/slurm-local.sh start "$cluster")
eval "$env_line"
# the node as slurm-local.sh declares it (its CPUs: the machine's)
sinfo -h -o '%n %c CPUs' >&2

echo "label,way,wall_s,cpu_s,processes,load_before,load_after" >"$OUT/timing.csv"
for r in $(seq 1 "$ROUNDS"); do
    for way in local slurm; do
        label=$way-$r
        rm -rf "${OUT:?}/$label"
        load0=$(cut -d' ' -f1 /proc/loadavg)
        t0=$(date +%s.%N)
        if [ $way = local ]; then
            CSC_TIMING_LABEL=$label CSC="$OUT/csc-timed" OUT="$OUT/$label" THREADS=$CPUS \
                bash scripts/reproduce.sh "$DATA" >"$OUT/$label.log" 2>&1
        else
            CSC_TIMING_LABEL=$label CSC="$OUT/csc-timed" OUT="$OUT/$label" SLURM=1 \
                SHARDS=${SHARDS:-8} LIMIT=${LIMIT:-4} bash scripts/reproduce.sh "$DATA" >"$OUT/$label.log" 2>&1
        fi
        t1=$(date +%s.%N)
        load1=$(cut -d' ' -f1 /proc/loadavg)
        read -r cpu n < <(awk -v l="$label" '$1 == l && !/ list / { c += $3 + $4; n++ } END { printf "%.1f %d\n", c, n }' "$OUT/cpu.log")
        wall=$(echo "$t1 - $t0" | bc)
        echo "$label,$way,$wall,$cpu,$n,$load0,$load1" | tee -a "$OUT/timing.csv"
    done
done
python3 - "$OUT/timing.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rounds = sorted({r["label"].split("-")[1] for r in rows})
ratios = []
for k in rounds:
    w = {r["way"]: float(r["wall_s"]) for r in rows if r["label"].endswith("-" + k)}
    if "local" in w and "slurm" in w:
        ratios.append(w["slurm"] / w["local"])
print("slurm / local wall time per pair: " + ", ".join(f"{x:.3f}" for x in ratios))
if ratios:
    print(f"mean {statistics.mean(ratios):.3f}, min {min(ratios):.3f}, max {max(ratios):.3f}")
PY
