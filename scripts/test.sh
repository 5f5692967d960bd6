#!/usr/bin/env bash
# Runs the project's tests, in layers: `bash scripts/test.sh [LAYER…]`, LAYER one of
#   native   formatting, lints, the native suite (unit, integration, property tests), the fixture preset
#   slurm    sweeps as Slurm job arrays on a one-node cluster (needs root)
#   wasm     the WebAssembly package: lints for wasm32, the release build (www/pkg) with its
#            TypeScript declarations checked, a smoke test and a hostile sweep of exactly what ships
#   browser  the browser tests (tests/wasm_api.rs, tests/wasm_hostile.rs) in headless Chrome and Firefox
#   e2e      the page end to end in headless Chromium (on the www/pkg the wasm layer built) and the
#            companion-site bundle
#   embed    the sentence-embedding package and crate (csc-embed): "Ask a question"
#   all      every layer above, in that order (the default: what CI runs and the README names)
# Each layer prints its wall time. Installs what is missing first, idempotently (scripts/setup.sh).
# Called by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
export PATH="$HOME/.cargo/bin:$PATH"

# The test tools (wasm-pack, browsers, drivers; scripts/setup.sh), once per invocation.
set_up=
setup_once() {
[ -n "$set_up" ] || step "setup" bash scripts/setup.sh
set_up=1
}

layer_native() {
ensure_rust_components
step "format" cargo fmt --check
step "chart module (node)" node --experimental-detect-module --test tests/charts/
step "clippy" cargo clippy --all-targets --locked -- -D warnings
# The native suite crate by crate, each with its time: the engine's own tests
# (crates/engine/tests: the differential, property and hand-computed tests of the paper's
# machinery), the web layer's (the catalog against the page, the URL state, the TypeScript types,
# the module graph), the CLI's and the docs renderer's. The engine is built with the `ts` feature
# the web layer enables, so the four share one build of it.
step "native tests: engine (csc-engine)" cargo test --locked -p csc-engine --features ts
step "native tests: web layer (csc)" cargo test --locked -p csc
step "native tests: command line (csc-cli)" cargo test --locked -p csc-cli
step "native tests: docs renderer (csc-doc)" cargo test --locked -p csc-doc
# Adding a paper preset is one entry: a feature-gated fixture entry shows in the URL codec and csc list.
step "fixture preset" cargo test --locked -p csc-cli --features fixture-preset --test fixture_preset
# Adding a link key is one entry: the feature-gated fixture key in parse, encode, hide flags, controls.
step "fixture key" cargo test --locked -p csc --lib --features fixture-key url_state
}

# Sweeps as Slurm job arrays (deploy/slurm, docs/USAGE.md, "Sweeps on a cluster"): a real
# one-node Slurm cluster started here (scripts/slurm-local.sh, always stopped again), the shipped
# array template submitted with one task cancelled while it runs and re-submitted, merged =
# unsharded bit for bit (tests/slurm/array.sh). Needs root; Debian's Slurm and munge are installed
# when missing (~20 s). Measured on a loaded 2-core machine: 70–95 s once the release CLI is built;
# a cold release build of the CLI adds about 2–3.5 min.
layer_slurm() {
local missing=()
for tool in slurmctld slurmd sbatch munged; do
    command -v "$tool" >/dev/null || missing=(slurmctld slurmd slurm-client munge)
done
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
step "slurm array (one-node cluster)" bash tests/slurm/array.sh
}

layer_wasm() {
ensure_rust_components
setup_once
step "clippy (wasm32)" cargo clippy --target wasm32-unknown-unknown --locked -p csc --lib --test wasm_api --test wasm_hostile -- -D warnings
step "wasm build" bash scripts/wasm.sh
step "typescript declarations" python3 scripts/check_dts.py "$(wasm_cfg build.out-dir)/csc.d.ts"
step "built package (node)" node scripts/smoke_pkg.mjs "$(wasm_cfg build.out-dir)"
# Every export of the shipped package, through its JS glue, with every kind of JS value in every
# argument position: no call may trap the module.
step "hostile sweep of the built package (node)" node scripts/hostile_pkg.mjs "$(wasm_cfg build.out-dir)"
}

# Browser tests (tests/wasm_api.rs, tests/wasm_hostile.rs) in each browser of wasm-pack.toml,
# headless, with exactly the command a wasm-bindgen user types: `wasm-pack test --headless
# --chrome` (and `--firefox`). It compiles every test target for wasm32 (the native-only ones are
# empty there: `#![cfg(not(target_arch = "wasm32"))]`) and runs each with wasm-bindgen's test
# runner. Nothing is downloaded: wasm-pack takes `chromedriver` / `geckodriver` from PATH when
# there (checked below to be the installed ones of wasm-pack.toml) and the `wasm-bindgen` on PATH
# when its version is Cargo.lock's (scripts/setup.sh installs it, with wasm-bindgen-test-runner
# next to it). Measured: cold, the first browser compiles every test target and example for wasm32
# twice (`cargo build --tests`, then `cargo test`'s own profile): 16 + 4 min on a loaded 2-core
# machine; once built, about a minute per browser.
layer_browser() {
ensure_rust_components
setup_once
local profile_args browsers browser driver want
case $(wasm_cfg test.profile) in
test) profile_args=() ;;
release) profile_args=(--release) ;;
*) echo "wasm-pack.toml: test.profile must be \"test\" or \"release\"" >&2; exit 1 ;;
esac
mapfile -t browsers < <(wasm_cfg test.browsers)
for browser in "${browsers[@]}"; do
    case $browser in
    chrome) driver=chromedriver ;;
    firefox) driver=geckodriver ;;
    *) echo "wasm-pack.toml: unknown browser '$browser' (chrome or firefox)" >&2; exit 1 ;;
    esac
    want=$(resolve_tool "$(wasm_cfg "test.$driver")") || { echo "$driver is not installed (scripts/setup.sh)" >&2; exit 1; }
    if [ "$(command -v "$driver")" != "$want" ]; then
        echo "wasm-pack would use $(command -v "$driver" || echo 'a downloaded') $driver, not $want: put it first on PATH" >&2
        exit 1
    fi
    step "browser tests ($browser)" env WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-300}" \
        wasm-pack test --headless "--$browser" "${profile_args[@]}"
done
}

# The playground page (www/) end to end in headless Chromium: tests/e2e/run.mjs serves www/ on a
# free localhost port, plays, steps, checks the URL state, no console errors and no request to
# another origin, and saves screenshots to artifacts/. playwright-core drives the installed
# Chromium (no browser download). Its npm dependencies (playwright-core, axe-core, typescript) are
# installed when node_modules lacks any package of tests/e2e/package-lock.json at its version, so
# one added later reaches an existing checkout too.
layer_e2e() {
[ -f "$(wasm_cfg build.out-dir)/csc.js" ] || { echo "e2e tests the built package: run the wasm layer first (bash scripts/test.sh wasm e2e)" >&2; return 1; }
setup_once
if ! node -e 'const want = require("./tests/e2e/package-lock.json").packages, have = require("./tests/e2e/node_modules/.package-lock.json").packages;
for (const k of Object.keys(want)) if (k && have[k]?.version !== want[k].version) process.exit(1);' 2>/dev/null; then
    step "playground e2e deps" npm ci --prefix tests/e2e --no-audit --no-fund
fi
# The page's modules (// @ts-check, JSDoc) type-checked against the built www/pkg/csc.d.ts
# (www/jsconfig.json; no build step), and wrong uses of its exports shown to be caught.
step "page type-check (tsc)" node tests/e2e/node_modules/typescript/bin/tsc -p www/jsconfig.json
step "page type-check catches wrong uses" node tests/e2e/tscheck.mjs
step "playground e2e" node tests/e2e/run.mjs
step "the page's smaller faults e2e" node tests/e2e/faults.mjs
step "experiment figures e2e" node tests/e2e/charts.mjs
# The live view explaining its rounds (why this round, running charts, four panels, nq-trivia at
# T = 5,000 from ../shared/data or $CSC_DATA, the hover on a wrong hit): tests/e2e/live.mjs.
step "live view e2e" node tests/e2e/live.mjs
step "your own policy e2e (live and regret views, shared link, hostile policies)" node tests/e2e/own_policy.mjs
step "your own policy in the regret, theory, sweep and frontier views (charts, declared parameters)" node tests/e2e/own_policy_views.mjs
# Reproduce from the page: CLI result → page → JSON export, and the page's command run by the CLI.
step "reproduce e2e" node tests/e2e/reproduce.mjs
# The sweep view: a 3 × 3 grid equal, cell for cell, to the CLI's --grid run of its command.
step "sweep e2e" node tests/e2e/sweep.mjs
step "frontier e2e (nq-trivia, against the CLI)" node tests/e2e/frontier.mjs
# "Pick a threshold": the form's answer on nq-trivia equals `csc tune-threshold`, bit for bit.
step "tune-threshold e2e (nq-trivia, against the CLI)" node tests/e2e/tune.mjs
step "theory view e2e (synthetic, nq-trivia, thy-horizon against the CLI)" node tests/e2e/theory.mjs
step "threats view e2e (synthetic, plane, your data, nq-trivia against the CLI)" node tests/e2e/threats.mjs
step "controls e2e" node tests/e2e/controls.mjs
step "navigation e2e (hide flags, history, URL errors, figure embed)" node tests/e2e/navigation.mjs
# The engine is fetched and compiled once per page, its module posted to the workers (engine.js).
step "compile once e2e" node tests/e2e/compile_once.mjs
# The fixture preset of the "fixture preset" step in the page: a package built with cargo feature
# fixture-preset (into a temporary directory, served as pkg/), its paper view's menu, URL and run.
# Measured warm on a 2-core machine: 60 s for that build at load 7, 110–125 s at load 10–12 (the
# engine crate recompiled with the feature, then wasm-opt), 10–15 s for the checks.
step "fixture preset e2e" node tests/e2e/fixture_preset.mjs
step "fixture key e2e" node tests/e2e/fixture_key.mjs

# The companion-site bundle (scripts/dist.sh: dist/ with the nq-trivia data of ../shared/data or
# $CSC_DATA; fails without it) embedded in an iframe on another origin from a sub-path
# (tests/e2e/embed.mjs), with the worker pool's report checked against one worker's.
step "bundle" bash scripts/dist.sh
step "embedding e2e" node tests/e2e/embed.mjs
# axe-core in every view, the live view after asking a question (the bundle step built the
# embedding package and the model in www/).
step "accessibility e2e (axe-core, every view)" node tests/e2e/a11y.mjs
# Every Paper-view preset at quick settings: no excluded number reads "reproduced", identical pairs
# read "identical", a zero-hit win is flagged (fig-e on the
# bundle's nq-trivia, so it runs after the bundle step).
step "verdicts e2e (on the bundle)" env SITE=dist node tests/e2e/verdicts.mjs
# Every view at 1440, 768 and 390 px on the bundle: nothing cut off, no reference label over a
# series, axe's WCAG A/AA rules at each width.
step "layout e2e (every view, three widths, on the bundle)" env SITE=dist node tests/e2e/layout.mjs

}

# The sentence-embedding package and crate ("Ask a question"; embed/, a wasm package of its own,
# www/pkg-embed): the bundle's pkg-embed/ and model/ (scripts/dist.sh builds them; built here
# when the e2e layer has not), the embedding worker type-checked, every export swept with hostile
# JS values in Node as the engine's are, the package in headless Chrome and Firefox against
# ../shared/data (min cosine ≥ 0.99999 over 200 NQ questions, edge texts, 2,000 GPT-2 token
# counts; tests/e2e/embed_browsers.mjs), the live view's question box end to end on the bundle's
# nq-trivia (tests/e2e/ask.mjs), and the crate's own native tests (embed/tests/native.rs, with the
# model the bundle fetched). Measured on a 2-core machine: the crate's first native build (candle
# and tokenizers) 37 min at load 10–12; warm 14 s.
layer_embed() {
setup_once
[ -f dist/pkg-embed/csc_embed.js ] && [ -d dist/model ] || step "bundle" bash scripts/dist.sh
[ -d tests/e2e/node_modules ] || step "playground e2e deps" npm ci --prefix tests/e2e --no-audit --no-fund
step "embedding worker type-check (tsc)" node tests/e2e/node_modules/typescript/bin/tsc -p www/jsconfig.embed.json
step "hostile sweep of the embedding package (node)" node scripts/hostile_pkg.mjs dist/pkg-embed dist/model
step "embedding package (Chrome, Firefox)" node tests/e2e/embed_browsers.mjs
step "ask a question e2e" node tests/e2e/ask.mjs
step "ask arriving after the page e2e (serve.sh)" node tests/e2e/ask_later.mjs
step "embedding crate (native)" cargo test --locked -p csc-embed
}

layers=()
for l in "${@:-all}"; do
    case $l in
    all) layers+=(native slurm wasm browser e2e embed) ;;
    native | slurm | wasm | browser | e2e | embed) layers+=("$l") ;;
    *) echo "unknown layer '$l': use native, slurm, wasm, browser, e2e, embed or all" >&2; exit 2 ;;
    esac
done
for layer in "${layers[@]}"; do
    t0=$SECONDS
    echo "=== layer $layer"
    "layer_$layer"
    echo "=== layer $layer passed ($((SECONDS - t0)) s)"
done
