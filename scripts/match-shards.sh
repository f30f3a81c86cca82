#!/usr/bin/env bash
# One match split into shards, each a `ternion match --shard i/n` run wherever a batch
# scheduler puts it, the records merged by `ternion stats` into the summary of the whole.
#
# As a Slurm array job (one shard per task; all tasks write to a shared directory):
#
#     sbatch --array=0-15 scripts/match-shards.sh shard runs/m1 -- --engine ... --games 20000
#     scripts/match-shards.sh merge runs/m1          # once every task is done
#
# With GNU parallel over ssh (each host with the engines at the same paths):
#
#     parallel -S host1,host2 --sshdelay 0.1 scripts/match-shards.sh shard runs/m1 {}/16 \
#         -- --engine ... --games 20000 ::: $(seq 0 15)
#
# Or here, every shard as a local process (what the tests run):
#
#     scripts/match-shards.sh local 4 runs/m1 -- --engine ... --games 200
#
# TERNION names the ternion binary (default: target/release/ternion of this checkout).
# Everything after `--` goes to `ternion match` as it is; the records are
# <dir>/records-<i>-of-<n>.txt and each shard's summary <dir>/summary-<i>-of-<n>.txt (with
# `local`, each shard's progress lines go to <dir>/progress-<i>-of-<n>.log).
set -euo pipefail

ternion="${TERNION:-$(cd "$(dirname "$0")/.." && pwd)/target/release/ternion}"

usage() {
    echo "usage: $0 shard <dir> [<i>/<n>] -- <match arguments>" >&2
    echo "       $0 local <n> <dir> -- <match arguments>" >&2
    echo "       $0 merge <dir> [<stats arguments>]" >&2
    exit 2
}

# Runs shard $1 (i/n) into directory $2 with the match arguments that follow.
run_shard() {
    local shard="$1" dir="$2"
    shift 2
    local name="${shard%/*}-of-${shard#*/}"
    mkdir -p "$dir"
    "$ternion" match "$@" --shard "$shard" --records "$dir/records-$name.txt" \
        > "$dir/summary-$name.txt"
}

[ $# -ge 2 ] || usage
command="$1"
shift
case "$command" in
    shard)
        dir="$1"
        shift
        if [ "${1:-}" != "--" ]; then
            shard="$1"
            shift
        else
            # A Slurm array task: its index of the array's count.
            : "${SLURM_ARRAY_TASK_ID:?give i/n, or run as a Slurm array task}"
            shard="$SLURM_ARRAY_TASK_ID/${SLURM_ARRAY_TASK_COUNT:?}"
        fi
        [ "${1:-}" = "--" ] || usage
        shift
        run_shard "$shard" "$dir" "$@"
        ;;
    local)
        count="$1" dir="$2"
        shift 2
        [ "${1:-}" = "--" ] || usage
        shift
        pids=()
        mkdir -p "$dir"
        for ((i = 0; i < count; i++)); do
            run_shard "$i/$count" "$dir" "$@" 2> "$dir/progress-$i-of-$count.log" &
            pids+=("$!")
        done
        for pid in "${pids[@]}"; do
            wait "$pid"
        done
        "$ternion" stats "$dir"/records-*.txt
        ;;
    merge)
        dir="$1"
        shift
        "$ternion" stats "$dir"/records-*.txt "$@"
        ;;
    *) usage ;;
esac
