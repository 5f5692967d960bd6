#!/usr/bin/env bash
# Submits a csc experiment as a Slurm array of N shards (array.sbatch) and its merge
# (merge.sbatch) chained with --dependency=afterok; prints the two job ids.
#
#   deploy/slurm/submit.sh [options] N SHARDS_DIR OUT EXPERIMENT [csc run flags...]
#
#   N            number of shards (array indices 0…N−1; CSC_SHARDS=N for every task)
#   SHARDS_DIR   shared folder for the shard reports and finished units of this experiment
#   OUT          folder for the merged report <id>.json / .csv
# Options:
#   --limit L    at most L tasks at a time (default 4: --array=0-(N-1)%L)
#   --only LIST  submit only these indices (e.g. 2 or 2,5): a failed or cancelled task's shard,
#                which resumes from its finished units; the new merge joins every shard
#   --after JOB  the merge also waits for JOB to end (the first array, when --only re-submits
#                one of its indices while the others still run)
#   --logs DIR   folder of the jobs' output (default SHARDS_DIR/logs)
# Any other sbatch option goes through SBATCH_* environment variables (SBATCH_PARTITION,
# SBATCH_TIMELIMIT, SBATCH_ACCOUNT…). CSC names the csc binary (default: csc on PATH).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
limit=4
only=""
after=""
logs=""
while [ $# -gt 0 ]; do
    case $1 in
    --limit) limit=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --after) after=$2; shift 2 ;;
    --logs) logs=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "submit.sh: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -lt 4 ]; then
    echo "usage: submit.sh [--limit L] [--only LIST] [--after JOB] [--logs DIR] N SHARDS_DIR OUT EXPERIMENT [csc run flags...]" >&2
    exit 2
fi
n=$1
shards_dir=$(realpath -m "$2")
out=$(realpath -m "$3")
shift 3
case $n in
'' | *[!0-9]* | 0) echo "submit.sh: N must be a number of shards ≥ 1, got '$n'" >&2; exit 2 ;;
esac
logs=$(realpath -m "${logs:-$shards_dir/logs}")
mkdir -p "$shards_dir" "$out" "$logs"
array=${only:-0-$((n - 1))}
job=$(sbatch --parsable --array="$array%$limit" --export=ALL,CSC_SHARDS="$n" \
    --output="$logs/csc-shard-%A_%a.out" "$here/array.sbatch" "$shards_dir" "$@")
job=${job%%;*}
dep=afterok:$job${after:+,afterany:$after}
merge=$(sbatch --parsable --dependency="$dep" --kill-on-invalid-dep=yes \
    --output="$logs/csc-merge-%j.out" "$here/merge.sbatch" "$shards_dir" "$n" "$out")
merge=${merge%%;*}
echo "array job $job (--array=$array%$limit, $n shards), merge job $merge ($dep)"
