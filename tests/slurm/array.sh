#!/usr/bin/env bash
# The shipped Slurm templates (deploy/slurm) on a real one-node Slurm cluster: starts
# one (scripts/slurm-local.sh, stopped again on any exit), submits a small real experiment
# (sens-off-noise: 4 noise levels × 2 seeds = 8 offline units of a few seconds) as an array of 4
# shards with deploy/slurm/submit.sh, cancels one task with `scancel` while it runs (after it has
# finished one of its two units), re-submits that index with `submit.sh --only`, and lets the
# chained merge job run. Then asserts: the first merge job was cancelled (its dependency failed)
# and never ran; the re-submitted task skipped the unit already done; the merged report equals
# the unsharded run's bit for bit (cmp), with every unit exactly once.
#
#   bash tests/slurm/array.sh        # as root, with slurmctld, slurmd, slurm-client and munge
#
# Work folder: $CSC_SLURM_TEST_DIR, else $CARGO_TARGET_DIR/slurm-test (target/slurm-test). The
# cluster's own folder is $CSC_SLURM_DIR, else /tmp/csc-slurm: the munge and slurm users must be
# able to reach it, which a clone under /root would not allow.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$HOME/.cargo/bin:$PATH"
t0=$SECONDS

target=${CARGO_TARGET_DIR:-target}
work=$(realpath -m "${CSC_SLURM_TEST_DIR:-$target/slurm-test}")
cluster=${CSC_SLURM_DIR:-/tmp/csc-slurm}
rm -rf "$work/ref" "$work/shards" "$work/merged" "$work/logs"
mkdir -p "$work"

cargo build --release --locked --bin csc
CSC=$(realpath "$target/release/csc")
export CSC

fail() {
    echo "FAIL: $*" >&2
    for f in "$work"/logs/*.out; do
        [ -f "$f" ] && { echo "--- $f" >&2; tail -n 5 "$f" >&2; }
    done
    exit 1
}

# (a failed start stops what it started itself; the trap is for the cluster once up)
env_line=$(bash scripts/slurm-local.sh start "$cluster")
trap 'bash scripts/slurm-local.sh stop "$cluster"' EXIT
eval "$env_line"
echo "cluster up ($((SECONDS - t0)) s): $(sinfo -h -N -o '%N %c CPUs %t')"

id=sens-off-noise
experiment=(sens-off-noise --seeds 2 --set log_len=5000)
n=4
k=1 # the task cancelled: shard 1 holds units 1 and 5

# job_state JOB[_TASK]: the job's state, e.g. RUNNING, COMPLETED, CANCELLED ("" once forgotten)
job_state() {
    scontrol show job -o "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -n1 | cut -d= -f2 || true
}
# wait_ended JOB SECONDS: waits until JOB is neither pending nor running
wait_ended() {
    local s
    for _ in $(seq 1 $(($2 * 5))); do
        s=$(job_state "$1")
        case $s in PENDING | RUNNING | CONFIGURING | COMPLETING | SUSPENDED | REQUEUED) ;; *) return 0 ;; esac
        sleep 0.2
    done
    fail "job $1 still ${s:-?} after $2 s"
}

# The array and its merge, as a user submits them.
line=$(deploy/slurm/submit.sh --limit 2 --logs "$work/logs" "$n" "$work/shards" "$work/merged" "${experiment[@]}")
echo "$line"
job=$(sed -E 's/^array job ([0-9]+).*/\1/' <<<"$line")
merge1=$(sed -E 's/.*merge job ([0-9]+).*/\1/' <<<"$line")

# Cancel task k once it runs and has written its first unit, before its second.
units=$work/shards/$id.units
done_at_cancel=""
for _ in $(seq 1 600); do
    if [ "$(job_state "${job}_$k")" = RUNNING ]; then
        done_at_cancel=0
        for u in "$units/unit-$k.json" "$units/unit-$((k + n)).json"; do
            [ -e "$u" ] && done_at_cancel=$((done_at_cancel + 1))
        done
        if [ "$done_at_cancel" -ge 1 ]; then
            scancel "${job}_$k"
            break
        fi
    fi
    sleep 0.1
done
[ "$done_at_cancel" = 1 ] || fail "task ${job}_$k was not caught running with one of its two units done (found ${done_at_cancel:-none})"
[ ! -e "$work/shards/$id.shard-$k-of-$n.json" ] || fail "shard $k finished before it was cancelled"
echo "cancelled task ${job}_$k with 1 of its 2 units done ($((SECONDS - t0)) s)"
wait_ended "${job}_$k" 60
[ "$(job_state "${job}_$k")" = CANCELLED ] || fail "task ${job}_$k is $(job_state "${job}_$k"), not CANCELLED"

# The reference meanwhile: the same experiment unsharded, on this machine.
"$CSC" run "${experiment[@]}" --threads 1 --quiet --out "$work/ref" 2>"$work/ref.log" >/dev/null ||
    fail "the unsharded run failed: $(cat "$work/ref.log")"

# Re-submit the cancelled index; its merge also waits for the rest of the first array.
line=$(deploy/slurm/submit.sh --limit 2 --logs "$work/logs" --only "$k" --after "$job" "$n" "$work/shards" "$work/merged" "${experiment[@]}")
echo "$line"
job2=$(sed -E 's/^array job ([0-9]+).*/\1/' <<<"$line")
merge2=$(sed -E 's/.*merge job ([0-9]+).*/\1/' <<<"$line")
wait_ended "$merge2" 240
wait_ended "$merge1" 30
echo "merge done ($((SECONDS - t0)) s)"

# Every task ended as it should.
for i in $(seq 0 $((n - 1))); do
    want=COMPLETED
    [ "$i" = "$k" ] && want=CANCELLED
    [ "$(job_state "${job}_$i")" = $want ] || fail "task ${job}_$i is $(job_state "${job}_$i"), not $want"
    grep -q "shard $i of $n (from SLURM_ARRAY_TASK_ID=$i, count from CSC_SHARDS=$n)" "$work/logs/csc-shard-${job}_$i.out" ||
        fail "task ${job}_$i did not run shard $i of $n"
done
[ "$(job_state "${job2}_$k")" = COMPLETED ] || fail "the re-submitted task is $(job_state "${job2}_$k")"
grep -q "shard $k of $n (from SLURM_ARRAY_TASK_ID=$k, count from CSC_SHARDS=$n)" "$work/logs/csc-shard-${job2}_$k.out" ||
    fail "the re-submitted index (SLURM_ARRAY_TASK_COUNT=1) did not run shard $k of $n"
grep -q "skipped 1 of 2 units already done" "$work/logs/csc-shard-${job2}_$k.out" ||
    fail "the re-submitted task did not resume from the unit done before the cancel"
# The first merge was cancelled by its failed dependency, without running.
[ "$(job_state "$merge1")" = CANCELLED ] || fail "the first merge job is $(job_state "$merge1"), not CANCELLED"
[ ! -e "$work/logs/csc-merge-$merge1.out" ] || fail "the first merge job ran"
[ "$(job_state "$merge2")" = COMPLETED ] || fail "the merge job is $(job_state "$merge2")"

# The merged report is the unsharded run's, bit for bit, every unit exactly once.
for ext in json csv; do
    cmp "$work/merged/$id.$ext" "$work/ref/$id.$ext" || fail "merged $id.$ext differs from the unsharded run's"
done
indices=$(python3 -c 'import json, sys; print([u["unit"]["index"] for u in json.load(open(sys.argv[1]))["units"]])' "$work/merged/$id.json")
[ "$indices" = "[0, 1, 2, 3, 4, 5, 6, 7]" ] || fail "merged units are $indices, not 0…7 once each"
echo "PASS: 4-task array with task $k cancelled and re-submitted, merged = unsharded bit for bit ($((SECONDS - t0)) s)"
