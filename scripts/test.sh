#!/usr/bin/env bash
# Runs every test of the project: formatting, lints, the native suite (unit, integration,
# property tests), then the WebAssembly package: lints for wasm32, the release build with its
# TypeScript declarations checked and a smoke test of exactly what ships, and the browser tests
# (tests/wasm_api.rs, tests/wasm_hostile.rs) in headless Chrome and Firefox. Installs what is
# missing first, idempotently (scripts/setup.sh). Called by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
export PATH="$HOME/.cargo/bin:$PATH"

ensure_rust_components
step "format" cargo fmt --check
step "clippy" cargo clippy --all-targets --locked -- -D warnings
step "native tests" cargo test --locked

step "setup" bash scripts/setup.sh
step "clippy (wasm32)" cargo clippy --target wasm32-unknown-unknown --locked --lib --test wasm_api --test wasm_hostile -- -D warnings
step "wasm build" bash scripts/wasm.sh
step "typescript declarations" python3 scripts/check_dts.py "$(wasm_cfg build.out-dir)/csc.d.ts"
step "built package (node)" node scripts/smoke_pkg.mjs "$(wasm_cfg build.out-dir)"
# Every export of the shipped package, through its JS glue, with every kind of JS value in every
# argument position: no call may trap the module.
step "hostile sweep of the built package (node)" node scripts/hostile_pkg.mjs "$(wasm_cfg build.out-dir)"

# Browser tests (tests/wasm_api.rs) in each browser of wasm-pack.toml, headless, with the
# installed WebDriver and wasm-bindgen test runner (never downloaded ones). This is exactly what
# `wasm-pack test --headless --<browser> --<browser>driver PATH` runs (the same environment, then
# `cargo test --target wasm32-unknown-unknown`), minus its first step, `cargo build --tests`,
# which compiles every test target for wasm32 — the native-only ones too (tests/streams.rs reads
# ../shared/data and does not compile there) — and costs minutes. Only tests/wasm_api.rs runs.
case $(wasm_cfg test.profile) in
test) profile_args=() ;;
release) profile_args=(--release) ;;
*) echo "wasm-pack.toml: test.profile must be \"test\" or \"release\"" >&2; exit 1 ;;
esac
mapfile -t browsers < <(wasm_cfg test.browsers)
for browser in "${browsers[@]}"; do
    case $browser in
    chrome) driver=(CHROMEDRIVER="$(resolve_tool "$(wasm_cfg test.chromedriver)")") ;;
    firefox) driver=(GECKODRIVER="$(resolve_tool "$(wasm_cfg test.geckodriver)")") ;;
    *) echo "wasm-pack.toml: unknown browser '$browser' (chrome or firefox)" >&2; exit 1 ;;
    esac
    step "browser tests ($browser)" env "${driver[@]}" WASM_BINDGEN_TEST_ONLY_WEB=1 \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$(command -v wasm-bindgen-test-runner)" \
        WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-180}" \
        cargo test --locked --target wasm32-unknown-unknown "${profile_args[@]}" --test wasm_api --test wasm_hostile
done

# The playground page (www/) end to end in headless Chromium: tests/e2e/run.mjs serves www/ on a
# free localhost port, plays, steps, checks the URL state, no console errors and no request to
# another origin, and saves screenshots to artifacts/. playwright-core drives the installed
# Chromium (no browser download).
if [ ! -d tests/e2e/node_modules ]; then
    step "playground e2e deps" npm ci --prefix tests/e2e --no-audit --no-fund
fi
step "playground e2e" node tests/e2e/run.mjs
