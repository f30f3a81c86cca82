#!/bin/sh
# Builds ternion's web edition: a folder of static files that any static host serves (a
# project page, a club's site, `python3 -m http.server`), in which the board plays against
# the engine compiled to WebAssembly, running in the visitor's browser.
#
#   scripts/build-web.sh [OUT]      (OUT: target/web when not given)
#
# OUT receives index.html (the board of `ternion gui`, set to use the worker), worker.js
# (the engine's protocol pipe), ternion_web.js (the glue wasm-bindgen writes) and
# ternion_web_bg.wasm. Needs the wasm32-unknown-unknown target and wasm-bindgen's command
# at the crate's version: both are installed here when missing (rustup, cargo install).
# docs/web.md says how to host it and drive the worker.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$root/target/web"}
# The glue and the crate must be one version: web/Cargo.toml pins the crate to it.
bindgen_version=0.2.130
build_dir=${CARGO_TARGET_DIR:-"$root/target"}/wasm

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $bindgen_version" ]; then
    # Not --locked: the lock file of that release names a crate version the registry has
    # since withdrawn.
    cargo install wasm-bindgen-cli --version "$bindgen_version"
fi

# With WebAssembly's 128-bit vectors, which every browser of the last years runs (Chrome and
# Firefox since 2021, Safari since 2023): the network's sums are vectorised, as natively.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128" \
cargo build --release --target wasm32-unknown-unknown \
    --manifest-path "$root/web/Cargo.toml" --target-dir "$build_dir"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" \
    "$build_dir/wasm32-unknown-unknown/release/ternion_web.wasm"
sed 's/data-engine="server"/data-engine="worker"/' "$root/src/gui/page.html" > "$out/index.html"
grep -q 'data-engine="worker"' "$out/index.html"
cp "$root/web/worker.js" "$out/worker.js"

echo "the web edition is in $out:"
ls -l "$out" | awk 'NR > 1 { printf "  %9d  %s\n", $5, $9; total += $5 } END { printf "  %9d  in all\n", total }'
