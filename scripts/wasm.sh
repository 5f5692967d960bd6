#!/usr/bin/env bash
# Builds the WebAssembly package as wasm-pack.toml says ([build]: target, out-dir, profile), runs
# binaryen's wasm-opt over it ([wasm-opt]: enabled, flags) — keeping the result only if it is
# intact (scripts/check_wasm.py) — and prints the .wasm size raw and gzipped. Needs what scripts/setup.sh installs; never downloads anything (wasm-pack runs in
# `no-install` mode with its own wasm-opt step off, so it uses the wasm-bindgen on PATH).
#   bash scripts/wasm.sh                                 the page's package (wasm-pack.toml's out-dir)
#   bash scripts/wasm.sh OUT_DIR [CARGO_ARGS...]         another package, e.g. the benchmark's:
#   bash scripts/wasm.sh www/pkg-bench --features bench  (scripts/bench.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
export PATH="$HOME/.cargo/bin:$PATH"

# profile_flag PROFILE: the wasm-pack flag selecting a cargo profile.
profile_flag() {
    case $1 in
    release | profiling | dev) echo "--$1" ;;
    *) echo "--profile=$1" ;;
    esac
}

target=$(wasm_cfg build.target)
out_dir=${1:-$(wasm_cfg build.out-dir)}
cargo_args=("${@:2}")
profile=$(wasm_cfg build.profile)
step "wasm-pack build" wasm-pack build --mode no-install --no-opt --target "$target" \
    --out-dir "$out_dir" "$(profile_flag "$profile")" -- ${cargo_args[@]+"${cargo_args[@]}"}

wasm="$out_dir/csc_bg.wasm"
[ -f "$wasm" ] || { echo "wasm.sh: $wasm was not produced" >&2; exit 1; }
size() { echo "$(stat -c %s "$1") bytes raw, $(gzip -9 -c "$1" | wc -c) bytes gzipped"; }
echo "wasm-bindgen output: $(size "$wasm")"
if [ "$(wasm_cfg wasm-opt.enabled)" = true ]; then
    mapfile -t flags < <(wasm_cfg wasm-opt.flags)
    step "wasm-opt" wasm-opt "${flags[@]}" "$wasm" -o "$wasm.opt"
    # binaryen <= 108 (Debian 12's) corrupts wasm-bindgen's externref table export (binaryen
    # #4711): the module would fail at start-up. Ship wasm-opt's output only if it is intact.
    if python3 scripts/check_wasm.py "$wasm.opt"; then
        echo "wasm-opt output: $(size "$wasm.opt")"
        mv "$wasm.opt" "$wasm"
    else
        echo "wasm.sh: $(wasm-opt --version) broke the module (see scripts/check_wasm.py);" \
            "keeping wasm-bindgen's unoptimised output"
        rm -f "$wasm.opt"
    fi
fi
python3 scripts/check_wasm.py "$wasm"
echo "$wasm: $(size "$wasm")"
