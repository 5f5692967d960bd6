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

# cargo_tool BIN CRATE VERSION [unlocked]: installs CRATE@VERSION with `cargo install` unless
# `BIN --version` already reports it; with the crate's own lockfile (--locked), or resolved anew
# with `unlocked` for a crate whose lockfile pins versions this registry lacks (wasm-bindgen-cli
# 0.2.130's lockfile pins webpki-roots 1.0.11: the locked install fails, scripts/setup-build.sh).
# Either way the crate itself is exactly VERSION.
cargo_tool() {
    local bin=$1 crate=$2 version=$3 have locked=(--locked) how=""
    [ "${4:-}" != unlocked ] || { locked=(); how=" (unlocked)"; }
    have=$("$bin" --version 2>/dev/null | head -n1 | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n1 || true)
    if [ "$have" != "$version" ]; then
        echo "$bin: have '${have:-none}', need $version"
        step "install $crate $version$how" cargo install "${locked[@]}" "$crate" --version "=$version"
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

# wasm_size FILE: "N bytes raw, M bytes gzipped" (gzip -9).
wasm_size() {
    echo "$(stat -c %s "$1") bytes raw, $(gzip -9 -c "$1" | wc -c) bytes gzipped"
}

# wasm_package NAME OUT_DIR [CARGO_ARGS...]: builds the wasm-bindgen package of the library whose
# .wasm is NAME (csc, csc_embed) into OUT_DIR as wasm-pack.toml says ([build] target and profile,
# [wasm-opt]): cargo build for wasm32 (CARGO_ARGS added: -p csc-embed, --features bench) →
# binaryen's wasm-opt on cargo's .wasm, BEFORE wasm-bindgen (Debian 12's wasm-opt 108 run on
# wasm-bindgen's output corrupts its externref table export, binaryen #4711; on cargo's output
# there is no such table yet) → wasm-bindgen → scripts/check_wasm.py on what ships. Prints the
# .wasm size at each stage. Used by scripts/wasm.sh, wasm-embed.sh and dist.sh.
wasm_package() {
    local name=$1 out=$2 profile target dir raw flags
    shift 2
    profile=$(wasm_cfg build.profile)
    target=$(wasm_cfg build.target)
    case $profile in dev) dir=debug ;; *) dir=$profile ;; esac
    step "cargo build (wasm32, $profile)" cargo build --locked --lib --profile "$profile" \
        --target wasm32-unknown-unknown "$@"
    raw="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/$dir/$name.wasm"
    [ -f "$raw" ] || { echo "wasm_package: $raw was not produced" >&2; return 1; }
    echo "cargo's $name.wasm: $(wasm_size "$raw")"
    if [ "$(wasm_cfg wasm-opt.enabled)" = true ]; then
        mapfile -t flags < <(wasm_cfg wasm-opt.flags)
        step "wasm-opt (before wasm-bindgen)" wasm-opt "${flags[@]}" "$raw" -o "${raw%.wasm}.opt.wasm"
        raw="${raw%.wasm}.opt.wasm"
        echo "wasm-opt output: $(wasm_size "$raw")"
    fi
    step "wasm-bindgen" wasm-bindgen --target "$target" --out-dir "$out" --out-name "$name" "$raw"
    python3 scripts/check_wasm.py "$out/${name}_bg.wasm" ||
        { echo "wasm_package: $out/${name}_bg.wasm is not intact" >&2; return 1; }
    echo "$out/${name}_bg.wasm: $(wasm_size "$out/${name}_bg.wasm")"
    # The engine's wasm32 build leaves the synthetic universe's embeddings out (data, fetched once
    # by the page: www/js/engine.js); the package carries the file beside its .wasm, for
    # `provideSynthetic` (crates/engine/src/dataset/synthetic.rs checks it by SHA-256).
    if [ "$name" = csc ]; then
        cp data/synthetic/prompts.emb.f32 "$out/synthetic.emb.f32"
        echo "$out/synthetic.emb.f32: $(wasm_size "$out/synthetic.emb.f32")"
    fi
}
