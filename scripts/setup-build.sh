#!/usr/bin/env bash
# Installs what BUILDING the playground bundle needs (scripts/dist.sh, scripts/serve.sh), and
# nothing else, idempotently: the wasm32 Rust target, wasm-bindgen-cli at Cargo.lock's
# wasm-bindgen version (compiled with `cargo install`, never a prebuilt download), and Debian's
# binaryen for wasm-opt. Test tools (wasm-pack, browsers, drivers, node) are scripts/setup.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

export PATH="$HOME/.cargo/bin:$PATH"
command -v cargo >/dev/null || { echo "cargo is required (rustup: https://rustup.rs)" >&2; exit 1; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    step "rust target" rustup target add wasm32-unknown-unknown
fi

bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[ -n "$bindgen_version" ] || { echo "Cargo.lock has no wasm-bindgen package" >&2; exit 1; }
# Unlocked: its own lockfile pins webpki-roots 1.0.11, which the registry lacks (the --locked
# install fails at once); the CLI is still exactly Cargo.lock's wasm-bindgen version.
cargo_tool wasm-bindgen wasm-bindgen-cli "$bindgen_version" unlocked

command -v wasm-opt >/dev/null || apt_install binaryen
resolve_tool wasm-opt >/dev/null || { echo "setup-build: wasm-opt is still missing" >&2; exit 1; }
echo "setup-build: wasm-bindgen $bindgen_version, $(wasm-opt --version)"
