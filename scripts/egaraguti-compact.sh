#!/usr/bin/env bash
# The per-level sizes and probe costs of Egara-guti's compact tables as a Markdown table,
# from what `ternion tables compact` printed on stdout and what `ternion tables bench`
# printed for the packed set and for the compact one.
#
#     ternion tables compact egaraguti --dir tables --out compact > compact.txt
#     ternion tables bench egaraguti --dir tables > bench-packed.txt
#     ternion tables bench egaraguti --dir compact > bench-compact.txt
#     scripts/egaraguti-compact.sh compact.txt bench-packed.txt bench-compact.txt > sizes.md
#
# A level's row adds up its tables (both ways round); its probe costs are the mean of its
# tables' (each measured on as many positions).
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 COMPACT_OUTPUT PACKED_BENCH COMPACT_BENCH" >&2
    exit 2
fi

echo "| level | entries | values, packed -> compact (MB) | bits a value | distances, packed -> compact (MB) | bits a distance | probe, packed -> compact (ns) |"
echo "|---|---:|---|---:|---|---:|---|"
awk '
# The level of a table: the larger side first, as the rules document names it (5+4).
function level(table,    men) {
    sub(/:$/, "", table)
    split(table, men, "v")
    if (men[1] + 0 < men[2] + 0) return men[2] "+" men[1]
    return men[1] "+" men[2]
}
FILENAME == ARGV[1] && $1 ~ /^[0-9]+v[0-9]+$/ {
    l = level($1)
    if (!(l in entries)) order[++levels] = l
    entries[l] += $2; packed[l] += $3; compact[l] += $4; dpacked[l] += $6; dcompact[l] += $7
}
FILENAME == ARGV[2] && / probes, / { l = level($1); before[l] += $4; tables[l]++ }
FILENAME == ARGV[3] && / probes, / { l = level($1); after[l] += $4 }
END {
    for (i = 1; i <= levels; i++) {
        l = order[i]
        printf "| %s | %d | %.1f -> %.2f | %.3f | %.1f -> %.2f | %.3f | %.0f -> %.0f |\n",
            l, entries[l], packed[l] / 1e6, compact[l] / 1e6, compact[l] * 8 / entries[l],
            dpacked[l] / 1e6, dcompact[l] / 1e6, dcompact[l] * 8 / entries[l],
            before[l] / tables[l], after[l] / tables[l]
    }
}' "$1" "$2" "$3"
