#!/usr/bin/env bash
# What more search threads buy on this machine: the bench positions searched to their
# fixed depths on 1 thread and on N, runs alternating so that both see the same noise.
# Prints, per position, the median time to depth on each and the speed-up, then the
# median speed-up over the positions and the median nps of each.
#
#     scripts/threads-speedup.sh [threads (default 2)] [runs (default 7)] [depth]
#
# TERNION names the ternion binary (default: target/release/ternion of this checkout).
# Run it on a quiet machine: every thread wants a core of its own.
set -euo pipefail

ternion="${TERNION:-$(cd "$(dirname "$0")/.." && pwd)/target/release/ternion}"
threads="${1:-2}"
runs="${2:-7}"
depth="${3:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for run in $(seq 1 "$runs"); do
    for t in 1 "$threads"; do
        # shellcheck disable=SC2086 # an empty depth is no argument
        "$ternion" bench $depth --threads "$t" >"$work/run-$run-$t.txt"
    done
done

# "<position> <variant> depth <d> time <ms> nodes ..." lines, and "<N> nodes <M> nps".
awk -v threads="$threads" '
    function median(list,    n, i, j, v, tmp) {
        n = split(list, v, " ")
        for (i = 1; i <= n; i++)
            for (j = i + 1; j <= n; j++)
                if (v[j] + 0 < v[i] + 0) { tmp = v[i]; v[i] = v[j]; v[j] = tmp }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    {
        split(FILENAME, part, "-")
        t = part[3]; sub(/\.txt$/, "", t)
    }
    $5 == "time" {
        name[$1] = $2 " depth " $4
        times[$1, t] = times[$1, t] " " $6
        if ($1 > positions) positions = $1
    }
    $2 == "nodes" && $4 == "nps" { nps[t] = nps[t] " " $3 }
    END {
        printf "%-3s %-24s %10s %10s %8s\n", "#", "position", "1 thread", threads " threads", "speed-up"
        for (p = 1; p <= positions; p++) {
            one = median(times[p, 1]); many = median(times[p, threads])
            ratio = many > 0 ? one / many : 0
            ratios = ratios " " ratio
            printf "%-3s %-24s %8d ms %8d ms %7.2fx\n", p, name[p], one, many, ratio
        }
        printf "median speed-up to depth: %.2fx\n", median(ratios)
        printf "median nps: %d on 1 thread, %d on %d (%.2fx)\n", median(nps[1]),
            median(nps[threads]), threads, median(nps[threads]) / median(nps[1])
    }
' "$work"/run-*.txt
