#!/usr/bin/env bash
# Wall time of the reproduction (scripts/reproduce.sh), through a one-node Slurm
# (scripts/slurm-local.sh) and locally, interleaved — each way once per round — so that drifts in
# the machine's load hit every way (docs/PERFORMANCE.md, "Scale"). A measuring tool, not
# a test.
#
#   bash scripts/repro-timing.sh [ROUNDS] [OUT]     # as root; ROUNDS (default 2), OUT default
#                                                   # /tmp/csc-repro-timing
#
# The ways (WAYS, default "shards slurm"):
#   slurm   `SLURM=1 reproduce.sh`: every experiment an array of SHARDS shards (1 CPU per task) on a
#           node of CPUS CPUs, merges chained, all experiments submitted at once;
#   shards  the same shards and merges without the scheduler: every experiment's `csc run --shard
#           i/SHARDS` in one queue, CPUS processes at a time, each in its own session (as
#           slurmstepd starts a task: Linux's autogroup scheduler then weighs each alike), then
#           the merges — so slurm/shards is the scheduler's own overhead;
#   local   `reproduce.sh` as it runs by default: one experiment after another, each one process
#           with `--threads CPUS`.
# Environment: QUICK (default 1: the Paper view's presets at their quick settings; 0: the full
# reproduction), CSC (a csc binary to time, else the one built here), CPUS (default 2), SHARDS and LIMIT (reproduce.sh's Slurm shards per experiment and
# tasks at a time per experiment, default 8 and 4), CSC_DATA. Every way runs under `nice -n 10`
# (reproduce.sh runs each local experiment so; the Slurm daemons are started so, and their tasks
# inherit it). Every csc process is timed by a wrapper (/usr/bin/time: wall, user, system), so the
# CPU each way spent is summed over its processes. Prints one line per run, writes OUT/timing.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-2}
OUT=$(realpath -m "${2:-/tmp/csc-repro-timing}")
export QUICK=${QUICK:-1}
CPUS=${CPUS:-2}
SHARDS=${SHARDS:-8}
WAYS=${WAYS:-shards slurm}
DATA=$(realpath -m "${CSC_DATA:-../shared/data}")
cluster=$OUT/slurm
mkdir -p "$OUT"
if [ -n "${CSC:-}" ]; then
    BIN=$(realpath "$CSC")
else
    cargo build --release --locked --bin csc >&2
    BIN=$(realpath "${CARGO_TARGET_DIR:-target}/release/csc")
fi

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
# shards_way DIR: the Slurm way's shards and merges, CPUS processes at a time, without Slurm.
shards_way() {
    local dir=$1 ids
    ids=$("$BIN" list --json | python3 -c 'import json, sys
print(" ".join(i for p in json.load(sys.stdin)["presets"] if p["id"] != "krr-err"
               for i in [p["id"]] + ([p["id"] + "-tuned"] if p["tuned"] else [])))')
    for id in $ids; do
        for i in $(seq 0 $((SHARDS - 1))); do
            echo "$id $i"
        done
    done | xargs -P "$CPUS" -L 1 sh -c 'exec setsid -w nice -n 10 "$0" run "$4" --quick --shard "$5/$1" \
        --threads 1 --quiet --data "$2" --out "$3/shards/$4" >>"$3/shards.log" 2>&1' \
        "$OUT/csc-timed" "$SHARDS" "$DATA" "$dir"
    for id in $ids; do
        nice -n 10 "$OUT/csc-timed" merge --out "$dir" "$dir/shards/$id/$id".shard-*-of-"$SHARDS".json \
            >>"$dir/merge.log" 2>&1
    done
}

echo "label,way,wall_s,cpu_s,processes,load_before,load_after" >"$OUT/timing.csv"
for r in $(seq 1 "$ROUNDS"); do
    for way in $WAYS; do
        label=$way-$r
        rm -rf "${OUT:?}/$label"
        mkdir -p "$OUT/$label"
        load0=$(cut -d' ' -f1 /proc/loadavg)
        t0=$(date +%s.%N)
        export CSC_TIMING_LABEL=$label
        case $way in
        local) CSC="$OUT/csc-timed" OUT="$OUT/$label" THREADS=$CPUS \
            bash scripts/reproduce.sh "$DATA" >"$OUT/$label.log" 2>&1 ;;
        slurm) CSC="$OUT/csc-timed" OUT="$OUT/$label" SLURM=1 SHARDS=$SHARDS LIMIT=${LIMIT:-4} \
            bash scripts/reproduce.sh "$DATA" >"$OUT/$label.log" 2>&1 ;;
        shards) [ "$QUICK" = 1 ] || { echo "the shards way runs the quick presets only" >&2; exit 2; }
            shards_way "$OUT/$label" ;;
        *) echo "unknown way $way" >&2; exit 2 ;;
        esac
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
wall = {(r["way"], r["label"].rsplit("-", 1)[1]): float(r["wall_s"]) for r in rows}
ways = list(dict.fromkeys(r["way"] for r in rows))
for base in ("shards", "local"):
    if "slurm" not in ways or base not in ways:
        continue
    ratios = [wall[("slurm", k)] / wall[(base, k)] for (w, k) in wall if w == base and ("slurm", k) in wall]
    print(f"slurm / {base} wall time per round: " + ", ".join(f"{x:.3f}" for x in ratios)
          + f"; mean {statistics.mean(ratios):.3f}, min {min(ratios):.3f}, max {max(ratios):.3f}")
PY
