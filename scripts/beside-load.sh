#!/usr/bin/env bash
# Runs a command beside N busy processes (`yes > /dev/null`), the load of the timing
# figures in docs/time.md, and stops them when it ends (or is interrupted).
#
#     scripts/beside-load.sh <n> <command> [<argument>...]
#
# For example, the movetime figure beside six busy processes on two cores:
#     scripts/beside-load.sh 6 target/release/ternion bench --latency
set -euo pipefail

[ $# -ge 2 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
n="$1"
shift
busy=()
stop_busy() { [ ${#busy[@]} -eq 0 ] || kill "${busy[@]}" 2> /dev/null || true; }
trap stop_busy EXIT
for _ in $(seq 1 "$n"); do
    yes > /dev/null &
    busy+=($!)
done
"$@"
