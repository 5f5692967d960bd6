#!/usr/bin/env bash
# Builds the sentence-embedding package www/pkg-embed (embed/) — a second wasm package
# the page loads only when a reader asks a question, so the engine's www/pkg stays small.
# scripts/lib.sh's wasm_package, as for the engine: cargo (release) → binaryen's wasm-opt on
# cargo's .wasm (before wasm-bindgen: Debian's wasm-opt 108 breaks a module only after
# wasm-bindgen has added its externref table) → wasm-bindgen --target web (the CLI
# scripts/setup-build.sh installs at Cargo.lock's version).
# The model itself comes from scripts/fetch-model.sh (www/model). Never downloads anything.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
export PATH="$HOME/.cargo/bin:$PATH"
out=www/pkg-embed
wasm_package csc_embed "$out" -p csc-embed
