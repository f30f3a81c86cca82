#!/usr/bin/env bash
# The result of `ternion tables verify egaraguti --all` as a Markdown table, a row a level,
# from what it printed (one or more runs, as a check stopped part way and taken up again
# with --from-men prints them; a level checked twice keeps its last line):
#
#     ternion tables verify egaraguti --dir tables --all --threads 2 > verify.txt
#     scripts/egaraguti-verify.sh verify.txt > verify.md
set -euo pipefail

if [ $# -lt 1 ]; then
    echo "usage: $0 VERIFY_OUTPUT..." >&2
    exit 2
fi

echo "| level | positions checked | disagreements | seconds |"
echo "|---|---:|---:|---:|"
awk '
# A level line: "7v6: 981725696 positions checked (...), 0 disagreements, 359.4 s".
$1 ~ /^[0-9]+v[0-9]+:$/ && /positions checked/ {
    name = $1
    sub(/:$/, "", name)
    split(name, men, "v")
    level = men[1] "+" men[2]
    if (!(level in positions)) order[++levels] = level
    positions[level] = $2
    match($0, /[0-9]+ disagreements/)
    disagreements[level] = substr($0, RSTART, RLENGTH - 14)
    seconds[level] = $(NF - 1)
}
# Thousands separated by commas, as the docs write counts.
function commas(n,    out) {
    out = ""
    while (length(n) > 3) {
        out = "," substr(n, length(n) - 2) out
        n = substr(n, 1, length(n) - 3)
    }
    return n out
}
END {
    for (i = 1; i <= levels; i++) {
        level = order[i]
        total += positions[level]
        wrong += disagreements[level]
        time += seconds[level]
        printf "| %s | %s | %d | %s |\n", level, commas(positions[level]), disagreements[level], seconds[level]
    }
    printf "| all %d levels | %s | %d | %.0f |\n", levels, commas(sprintf("%.0f", total)), wrong, time
}
' "$@"
