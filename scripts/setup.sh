#!/usr/bin/env bash
# Installs what building (scripts/setup-build.sh) and testing the WebAssembly package need,
# idempotently: each tool is checked first and installed only if missing (or, for
# wasm-bindgen-cli, of the wrong version).
# Nothing is downloaded as a prebuilt binary (that fails on the project's machines): Rust tools
# are compiled with `cargo install`, browsers, drivers and binaryen come from apt.
# Versions: wasm-pack.toml [tools]; wasm-bindgen-cli = Cargo.lock's wasm-bindgen.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

export PATH="$HOME/.cargo/bin:$PATH"
ensure_rust_components

# --- what building needs (Rust target, wasm-bindgen-cli, wasm-opt): scripts/setup-build.sh -----
bash scripts/setup-build.sh
bindgen_version=$(wasm-bindgen --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n1)

# --- test tools ------------------------------------------------------------------------------------
cargo_tool wasm-pack wasm-pack "$(wasm_cfg tools.wasm-pack)"
cargo_tool geckodriver geckodriver "$(wasm_cfg tools.geckodriver)"

# --- apt packages: browsers, chromedriver, node ----------------------------------------
missing=()
command -v chromium >/dev/null || missing+=(chromium)
resolve_tool "$(wasm_cfg test.chromedriver)" >/dev/null || missing+=(chromium-driver)
command -v firefox >/dev/null || missing+=(firefox-esr) # provides /usr/bin/firefox
command -v node >/dev/null || missing+=(nodejs) # smoke test of the built package (scripts/test.sh)
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"

for tool in wasm-pack wasm-bindgen wasm-bindgen-test-runner wasm-opt node chromium firefox "$(wasm_cfg test.chromedriver)" \
    "$(wasm_cfg test.geckodriver)"; do
    resolve_tool "$tool" >/dev/null || { echo "setup: $tool is still missing" >&2; exit 1; }
done
echo "setup: wasm-pack $(wasm-pack --version | awk '{print $2}'), wasm-bindgen $bindgen_version," \
    "$(wasm-opt --version), node $(node --version), $(chromium --version 2>/dev/null)," \
    "$(firefox --version 2>/dev/null)"
