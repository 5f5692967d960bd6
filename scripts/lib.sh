# Shared helpers for the project's scripts (sourced, not run).

# step NAME CMD...: runs CMD with a header and its wall time.
step() {
    local name=$1
    shift
    echo "==> $name: $*"
    local t0=$SECONDS
    "$@"
    echo "<== $name ($((SECONDS - t0)) s)"
}

ensure_rust_components() {
    command -v cargo >/dev/null || { echo "cargo is required (rustup: https://rustup.rs)" >&2; exit 1; }
    rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
    rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
}
