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
# 1234567 as 1,234,567.
function thousands(n,    out) {
    out = ""
    while (length(n) > 3) {
        out = "," substr(n, length(n) - 2) out
        n = substr(n, 1, length(n) - 3)
    }
    return n out
}
{
    # The level as the rules document names it (5+4); its tables keep the v (5v4).
    level = $1; sub(/:$/, "", level); sub(/v/, "+", level)
    positions = thousands($2)
    seconds = $5
    peak = "-"
    if (match($0, /peak memory [0-9.]+ GiB/)) {
        peak = substr($0, RSTART + 12, RLENGTH - 12)
    }
    shares = $0
    sub(/.*side to move /, "", shares)
    sub(/, longest.*/, "", shares)
    gsub(/%, /, "%; ", shares)
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
