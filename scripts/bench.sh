#!/usr/bin/env bash
# Benchmarks (docs/PERFORMANCE.md): criterion natively on the engine's hot paths, then one
# table of every online policy's wall time on one seeded trace per dataset (the issue's
# workload: T = 5,000, k = 5, seed 0). Not part of CI: timings are reported, never asserted.
#
#   bash scripts/bench.sh [DATA_DIR]       DATA_DIR: the shared NQ/TriviaQA data
#                                          (default: $CSC_DATA or ../shared/data)
#   BENCH_FILTER=krr bash scripts/bench.sh  only the criterion benchmarks matching "krr"
#   SKIP_CRITERION=1 bash scripts/bench.sh  only the online table
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
export CSC_DATA="${1:-${CSC_DATA:-../shared/data}}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -z "${SKIP_CRITERION:-}" ]; then
  cargo bench --locked --bench engine -- --noplot ${BENCH_FILTER:+"$BENCH_FILTER"}
fi
cargo build --locked --release --example online_profile
for dataset in synthetic plane nq-trivia; do
  ./target/release/examples/online_profile "$dataset" "${HORIZON:-5000}" 0
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
