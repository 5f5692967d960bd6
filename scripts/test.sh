#!/usr/bin/env bash
# Runs every test of the project: formatting, lints, the native suite (unit, integration,
# property tests). Installs what is missing first, idempotently. Called by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

ensure_rust_components
step "format" cargo fmt --check
step "clippy" cargo clippy --all-targets --locked -- -D warnings
step "native tests" cargo test --locked
