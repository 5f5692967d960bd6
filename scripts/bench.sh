#!/usr/bin/env bash
# Benchmarks (docs/PERFORMANCE.md): criterion natively on the engine's hot paths, then every online
# policy's wall time on one seeded trace per dataset (the issue's workload: T = 5,000, k = 5,
# seed 0), natively and then in headless Chromium (tests/e2e/bench.mjs: the same workloads in
# WebAssembly, the live view's frame times, time to interactive, the .wasm size and the memory of a
# 10⁶-round run), ending with ONE table: workload | native ms | wasm ms | wasm/native. Not part of
# CI (scripts/test.sh does not call it): timings are reported, never asserted. Takes ~30 min.
#
#   bash scripts/bench.sh [DATA_DIR]       DATA_DIR: the shared NQ/TriviaQA data
#                                          (default: $CSC_DATA or ../shared/data)
#   BENCH_FILTER=krr bash scripts/bench.sh  only the criterion benchmarks matching "krr"
#   SKIP_CRITERION=1 bash scripts/bench.sh  no criterion run (the table then takes the native
#                                          Reverse Greedy / KRR figures from target/criterion)
#   SKIP_BROWSER=1 bash scripts/bench.sh    only the native part
#   SKIP_WASM_BUILD=1                       use www/pkg and www/pkg-bench as they are (else
#                                          scripts/wasm.sh rebuilds both)
#   HORIZON=2000, BENCH_DATASETS=synthetic,plane, BENCH_POLICIES=greedy,lfu: a smaller workload
#   (tests/e2e/bench.mjs documents its other knobs: BENCH_ONLY, BENCH_REPS, FRAME_SECONDS, TTI_LOADS)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
export CSC_DATA="${1:-${CSC_DATA:-../shared/data}}"
export HORIZON="${HORIZON:-5000}"
datasets="${BENCH_DATASETS:-synthetic,plane,nq-trivia}"
export BENCH_DATASETS="$datasets"
policies=()
if [ -n "${BENCH_POLICIES:-}" ]; then IFS=, read -r -a policies <<<"$BENCH_POLICIES"; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "code: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' + uncommitted changes in src/')"
if [ -z "${SKIP_CRITERION:-}" ]; then
  cargo bench --locked --bench engine -- --noplot ${BENCH_FILTER:+"$BENCH_FILTER"}
fi
cargo build --locked --release --example online_profile --example bench_memory
IFS=, read -r -a ds_list <<<"$datasets"
for dataset in "${ds_list[@]}"; do
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
  ./target/release/examples/online_profile "$dataset" "$HORIZON" 0 ${policies[@]+"${policies[@]}"} | tee -a "$tmp/native.txt"
done
./target/release/examples/bench_memory 1000000 greedy lfu >"$tmp/native-memory.json"
echo "load after the native runs: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${SKIP_BROWSER:-}" ]; then exit 0; fi

# The browser half: the same trace and parameters in WebAssembly, then the combined table. Two
# packages: the page's www/pkg (time to interactive, frames, memory, size) and the benchmark's
# www/pkg-bench, the only one with the benchmark-only exports of src/bindings/bench.rs (cargo
# feature `bench`), swept with hostile values first as the page's is in scripts/test.sh.
if [ -z "${SKIP_WASM_BUILD:-}" ]; then
  bash scripts/wasm.sh
  bash scripts/wasm.sh www/pkg-bench --features bench
fi
node scripts/hostile_pkg.mjs www/pkg-bench
if [ ! -d tests/e2e/node_modules ]; then
  npm ci --prefix tests/e2e --no-audit --no-fund
fi
mkdir -p artifacts
node tests/e2e/bench.mjs "$CSC_DATA" --native "$tmp/native.txt" --native-memory "$tmp/native-memory.json" \
  --criterion target/criterion --json artifacts/bench.json
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
