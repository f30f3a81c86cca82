#!/usr/bin/env bash
# The checks anyone can run, as any user (no root, no service to install): the test
# command of README.md, formatting, lints and the API docs for the default build and for
# the engine alone (--no-default-features: its crate count, no crate that builds C, its
# tests), the engine checked for macOS, Windows and WebAssembly where those targets are
# installed, and the Python client's checks. `.ci/run` runs this, then what needs root.
#
#     scripts/check.sh            # everything above (about 20 minutes on two cores)
#
# CHECK_TARGETS=required makes a missing target an error (CI installs them with `rustup
# target add aarch64-apple-darwin x86_64-pc-windows-gnu wasm32-unknown-unknown`); otherwise
# a missing one is named and skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }

step "the test suite (cargo test --release, as README.md says)"
cargo test --release

step "formatting, lints, API docs"
cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings
cargo clippy --all-targets --no-default-features -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet

step "the engine alone (--no-default-features)"
alone=target/engine-alone
crates=$(cargo tree --no-default-features -e normal --prefix none --format '{p}' |
    sed 's/ (\*)//; s/ (proc-macro)//' | sort -u | wc -l)
echo "$crates crates in the engine's tree (at most 64)"
[ "$crates" -le 64 ] || { echo "the engine alone takes $crates crates, more than 64" >&2; exit 1; }
if cargo tree --no-default-features -e normal,build --prefix none --format '{p}' | grep -E '^(cc|ring) '; then
    echo "the engine alone builds C (above)" >&2
    exit 1
fi
cargo test --release --no-default-features --target-dir "$alone"

step "the engine for other systems"
installed=$(rustup target list --installed 2>/dev/null || true)
for target in aarch64-apple-darwin x86_64-pc-windows-gnu wasm32-unknown-unknown; do
    # A browser runs the library (behind the web build's own glue), not the binary.
    what=()
    if [ "$target" = wasm32-unknown-unknown ]; then what=(--lib); fi
    if grep -qx "$target" <<<"$installed"; then
        cargo check "${what[@]}" --no-default-features --target "$target" --target-dir "$alone"
        echo "$target: the engine builds"
        if [ "$target" = wasm32-unknown-unknown ]; then
            # The web edition's crate (web/, a workspace of its own): formatted, lint-free.
            cargo fmt --manifest-path web/Cargo.toml --check
            cargo clippy --manifest-path web/Cargo.toml --target "$target" \
                --target-dir "$alone" -- -D warnings
            echo "$target: the web edition's crate builds"
        fi
    elif [ "${CHECK_TARGETS:-}" = required ]; then
        echo "$target is not installed: rustup target add $target" >&2
        exit 1
    else
        echo "$target skipped: not installed (rustup target add $target)"
    fi
done

step "the Python client"
scripts/test-python-client.sh

step "every check passed"
