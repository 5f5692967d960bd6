#!/usr/bin/env bash
# Builds the engine's WebAssembly package as wasm-pack.toml says ([build]: target, out-dir,
# profile; [wasm-opt]: enabled, flags) with scripts/lib.sh's wasm_package: cargo's release .wasm,
# optimised by binaryen's wasm-opt BEFORE wasm-bindgen (Debian's wasm-opt 108 breaks
# wasm-bindgen's output), then wasm-bindgen, checked by scripts/check_wasm.py; prints the .wasm
# size raw and gzipped. Needs what scripts/setup-build.sh installs; never downloads anything.
#   bash scripts/wasm.sh                                 the page's package (wasm-pack.toml's out-dir)
#   bash scripts/wasm.sh OUT_DIR [CARGO_ARGS...]         another package, e.g. the benchmark's:
#   bash scripts/wasm.sh www/pkg-bench --features bench  (scripts/bench.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
export PATH="$HOME/.cargo/bin:$PATH"

wasm_package csc "${1:-$(wasm_cfg build.out-dir)}" -p csc "${@:2}"
