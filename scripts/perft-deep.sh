#!/usr/bin/env bash
# Every perft count in tests/data, however deep (minutes), plus the headline figures.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release
cargo test --release --test suite perft:: -- --ignored --nocapture
./target/release/ternion perft lielow 6
./target/release/ternion perft lielow9 5
./target/release/ternion perft egaraguti 16
./target/release/ternion perft lerontenin 11
