# Shared helpers for the project's scripts (sourced, not run).

# step NAME CMD...: runs CMD with a header and its wall time; returns CMD's exit code (so
# `step … || fallback` works even under `set -e`).
step() {
    local name=$1
    shift
    echo "==> $name: $*"
    local t0=$SECONDS rc=0
    "$@" || rc=$?
    if [ $rc -eq 0 ]; then
        echo "<== $name ($((SECONDS - t0)) s)"
    else
        echo "<== $name FAILED with exit code $rc ($((SECONDS - t0)) s)"
    fi
    return $rc
}

ensure_rust_components() {
    command -v cargo >/dev/null || { echo "cargo is required (rustup: https://rustup.rs)" >&2; exit 1; }
    rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
    rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
}

# wasm_cfg SECTION.KEY: prints a value of wasm-pack.toml (lists one item per line, booleans as
# true/false). Fails with a readable message if the key is missing. Needs Python ≥ 3.11 (tomllib).
wasm_cfg() {
    python3 - "$1" <<'PY'
import sys
try:
    import tomllib
except ModuleNotFoundError:
    sys.exit("wasm-pack.toml is read with Python's tomllib: Python >= 3.11 is required")
with open("wasm-pack.toml", "rb") as f:
    value = tomllib.load(f)
for part in sys.argv[1].split("."):
    if not isinstance(value, dict) or part not in value:
        sys.exit(f"wasm-pack.toml has no key {sys.argv[1]}")
    value = value[part]
items = value if isinstance(value, list) else [value]
for v in items:
    print(str(v).lower() if isinstance(v, bool) else v)
PY
}

# resolve_tool NAME_OR_PATH: an absolute path as is, a bare name through PATH; fails if absent.
resolve_tool() {
    case $1 in
    */*) [ -x "$1" ] && echo "$1" ;;
    *) command -v "$1" ;;
    esac
}

# cargo_tool BIN CRATE VERSION: installs CRATE@VERSION with `cargo install` unless `BIN --version`
# already reports it.
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

# apt_install PACKAGE...: installs Debian packages (with sudo unless root).
apt_install() {
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    step "apt-get update" "${sudo[@]}" apt-get update -q
    step "apt-get install $*" env DEBIAN_FRONTEND=noninteractive \
        "${sudo[@]}" apt-get install -y -q --no-install-recommends "$@"
}
