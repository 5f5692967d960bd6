#!/usr/bin/env bash
# Installs what building and testing the WebAssembly package needs, idempotently: each tool is
# checked first and installed only if missing (or, for wasm-bindgen-cli, of the wrong version).
# Nothing is downloaded as a prebuilt binary (that fails on the project's machines): Rust tools
# are compiled with `cargo install`, browsers, drivers and binaryen come from apt.
# Versions: wasm-pack.toml [tools]; wasm-bindgen-cli = Cargo.lock's wasm-bindgen.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

export PATH="$HOME/.cargo/bin:$PATH"
ensure_rust_components

# --- Rust target -------------------------------------------------------------------------------
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    step "rust target" rustup target add wasm32-unknown-unknown
fi

# --- cargo-installed tools -----------------------------------------------------------------------
# cargo_tool BIN CRATE VERSION: installs CRATE@VERSION unless `BIN --version` already reports it.
cargo_tool() {
    local bin=$1 crate=$2 version=$3 have
    have=$("$bin" --version 2>/dev/null | head -n1 | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n1 || true)
    if [ "$have" != "$version" ]; then
        echo "$bin: have '${have:-none}', need $version"
        # --locked when the crate's own lockfile resolves against this registry; some pinned
        # versions are missing from it (wasm-bindgen-cli 0.2.130's webpki-roots), then resolve anew.
        step "install $crate $version" cargo install --locked "$crate" --version "=$version" ||
            step "install $crate $version (unlocked)" cargo install "$crate" --version "=$version"
    fi
}

bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[ -n "$bindgen_version" ] || { echo "Cargo.lock has no wasm-bindgen package" >&2; exit 1; }
cargo_tool wasm-bindgen wasm-bindgen-cli "$bindgen_version"
cargo_tool wasm-pack wasm-pack "$(wasm_cfg tools.wasm-pack)"
cargo_tool geckodriver geckodriver "$(wasm_cfg tools.geckodriver)"

# --- apt packages: browsers, chromedriver, binaryen, node ----------------------------------------
missing=()
command -v chromium >/dev/null || missing+=(chromium)
resolve_tool "$(wasm_cfg test.chromedriver)" >/dev/null || missing+=(chromium-driver)
command -v firefox >/dev/null || missing+=(firefox-esr) # provides /usr/bin/firefox
command -v wasm-opt >/dev/null || missing+=(binaryen)
command -v node >/dev/null || missing+=(nodejs) # smoke test of the built package (scripts/test.sh)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    step "apt-get update" "${sudo[@]}" apt-get update -q
    step "apt-get install ${missing[*]}" env DEBIAN_FRONTEND=noninteractive \
        "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

for tool in wasm-pack wasm-bindgen wasm-bindgen-test-runner wasm-opt node chromium firefox "$(wasm_cfg test.chromedriver)" \
    "$(wasm_cfg test.geckodriver)"; do
    resolve_tool "$tool" >/dev/null || { echo "setup: $tool is still missing" >&2; exit 1; }
done
echo "setup: wasm-pack $(wasm-pack --version | awk '{print $2}'), wasm-bindgen $bindgen_version," \
    "$(wasm-opt --version), node $(node --version), $(chromium --version 2>/dev/null)," \
    "$(firefox --version 2>/dev/null)"
