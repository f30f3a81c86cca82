#!/usr/bin/env bash
# The per-level figures of an Egara-guti table build as a Markdown table, from the lines
# `ternion tables build` wrote on stderr (one or several logs of one build, in order; a
# level solved twice keeps its last line). Levels found built already print no figures.
#
#     ternion tables build egaraguti --men 22 --dir tables --threads 2 --distances 2> build.log
#     scripts/egaraguti-levels.sh build.log > levels.md
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 BUILD_LOG..." >&2
    exit 2
fi

echo "| level | positions | side to move: win/draw/loss % | longest | beyond 40 plies | seconds | peak memory |"
echo "|---|---:|---|---:|---:|---:|---:|"
grep -h ' positions in ' "$@" | awk '
{
    level = $1; sub(/:$/, "", level)
    positions = $2
    seconds = $5
    peak = "-"
    if (match($0, /peak memory [0-9.]+ GiB/)) {
        peak = substr($0, RSTART + 12, RLENGTH - 12)
    }
    shares = $0
    sub(/.*side to move /, "", shares)
    sub(/, longest.*/, "", shares)
    longest = $0
    sub(/.*longest /, "", longest)
    sub(/ plies.*/, "", longest)
    beyond = $0
    sub(/.* plies, /, "", beyond)
    sub(/ beyond.*/, "", beyond)
    if (!(level in row)) order[++n] = level
    row[level] = sprintf("| %s | %s | %s | %s | %s | %s | %s |", level, positions, shares, longest, beyond, seconds, peak)
}
END { for (i = 1; i <= n; i++) print row[order[i]] }
'
