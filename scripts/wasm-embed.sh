#!/usr/bin/env bash
# Builds the sentence-embedding package www/pkg-embed (embed/, issue 14) — a second wasm package
# the page loads only when a reader asks a question, so the engine's www/pkg stays small.
# cargo (release) → binaryen's wasm-opt on cargo's .wasm (before wasm-bindgen: Debian's
# wasm-opt 108 breaks a module only after wasm-bindgen has added its externref table) →
# wasm-bindgen --target web (the CLI scripts/setup.sh installs at Cargo.lock's version).
# The model itself comes from scripts/fetch-model.sh (www/model). Never downloads anything.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
export PATH="$HOME/.cargo/bin:$PATH"
target_dir=${CARGO_TARGET_DIR:-target}
out=www/pkg-embed
step "cargo build (embed, wasm32)" cargo build --locked --release -p csc-embed \
    --target wasm32-unknown-unknown
raw="$target_dir/wasm32-unknown-unknown/release/csc_embed.wasm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$raw" "$tmp/csc_embed.wasm"
if [ "$(wasm_cfg wasm-opt.enabled)" = true ] && command -v wasm-opt >/dev/null; then
    mapfile -t flags < <(wasm_cfg wasm-opt.flags)
    step "wasm-opt" wasm-opt "${flags[@]}" "$tmp/csc_embed.wasm" -o "$tmp/opt.wasm" &&
        mv "$tmp/opt.wasm" "$tmp/csc_embed.wasm"
fi
step "wasm-bindgen" wasm-bindgen --target web --out-dir "$out" "$tmp/csc_embed.wasm"
python3 scripts/check_wasm.py "$out/csc_embed_bg.wasm" ||
    { echo "wasm-embed.sh: $out/csc_embed_bg.wasm is not intact" >&2; exit 1; }
w="$out/csc_embed_bg.wasm"
echo "pkg-embed: $(stat -c %s "$w") bytes raw, $(gzip -9 -c "$w" | wc -c) bytes gzipped"
