#!/usr/bin/env bash
# One generation of a variant's network: self-play data from the engine as it is (with the
# last generation's network, if given), a network trained on it, and a match of the engine
# with the new network against the engine as it was.
#
#     scripts/network-generation.sh [--slurm] <variant> <dir> [<last network>]
#
# Settings, from the environment (the defaults are those of docs/networks.md):
#     GAMES=100000 NODES=4000 SEED=1       self-play: games, nodes a move, seed
#     SHARDS=1                             self-play in this many shards at once
#     TRAIN="--hidden 32 --on-terms"       extra arguments of `ternion train` (add
#                                          --hold-out-block 8192 for Lerontenin, whose
#                                          games write hundreds of positions each)
#     MATCH="--tc 2+0.02 --games 400"      the match (seeded random openings, both colours;
#                                          here stopped early by the sequential test)
#     MATCH_SHARDS=4                       with --slurm, the match's shards
#     TERNION=target/release/ternion       the binary; it is copied into <dir> first, so
#                                          rebuilding the checkout does not disturb the run
#
# Here, the shards of the self-play are local processes. With --slurm, the whole generation
# is submitted to Slurm and the script waits for its last job: the self-play as an array
# job (a task a shard), the training as a job after it, the match as an array job of
# MATCH_SHARDS tasks (scripts/match-shards.sh; every game played, no early stop) and the
# merge of its records. <dir> must then be on storage every node shares, and the binary is
# run from <dir>. The same seeds and nodes give the same data and the same network either
# way (tests: scripts/test-slurm.sh).
#
# Writes into <dir>: ternion (the copy), data-<i>-of-<n>.txt, selfplay-<i>-of-<n>.log,
# train.log, <variant>.nnue, <variant>.ckpt (the training's state after each epoch: the
# training step run again goes on from it), match.txt (with --slurm: the merged summary,
# the shards' records in match/), and times.txt (the seconds of each step; with --slurm,
# of each task and the whole generation from submission to the merge).
set -euo pipefail

usage() {
    sed -n '2,32p' "$0" >&2
    exit 2
}

slurm=""
if [ "${1:-}" = "--slurm" ]; then
    slurm=1
    shift
fi
task=""
if [ "${1:-}" = "--task" ]; then
    # A step run by Slurm: --task <step> <variant> <dir> [<last network>].
    task="${2:?}"
    shift 2
fi
[ $# -ge 2 ] || usage
variant="$1" dir="$2" last="${3:-}"
games="${GAMES:-100000}" nodes="${NODES:-4000}" seed="${SEED:-1}" shards="${SHARDS:-1}"
train_args="${TRAIN:---hidden 32 --on-terms}"
match_args="${MATCH:---tc 2+0.02 --games 400}"
match_shards="${MATCH_SHARDS:-4}"
eval_args=()
option_last=()
if [ -n "$last" ]; then
    eval_args=(--eval-file "$last")
    option_last=(--option "2:EvalFile=$last")
fi

# Appends "<step> <seconds since $2>" to times.txt.
step() { echo "$1 $(( $(date +%s) - $2 ))" >> "$dir/times.txt"; }

selfplay_shard() {
    local i="$1" ternion="$dir/ternion"
    "$ternion" selfplay "$variant" --games "$games" --nodes "$nodes" --seed "$seed" \
        --shard "$i/$shards" "${eval_args[@]}" --out "$dir/data-$i-of-$shards.txt" \
        2> "$dir/selfplay-$i-of-$shards.log"
}

train() {
    # shellcheck disable=SC2086 # the extra arguments are words
    "$dir/ternion" train "$variant" --data "$dir"/data-*-of-"$shards".txt \
        --out "$dir/$variant.nnue" --checkpoint "$dir/$variant.ckpt" --seed "$seed" \
        $train_args 2>> "$dir/train.log" |
        tee -a "$dir/train.log"
}

# The match's arguments, a line each, with $1 games at once, but its shards' and the
# sequential test.
match_arguments() {
    # shellcheck disable=SC2206 # the extra arguments are words
    local extra=($match_args)
    printf '%s\n' --engine "$dir/ternion" --engine "$dir/ternion" --variant "$variant" \
        --option "1:EvalFile=$dir/$variant.nnue" "${option_last[@]}" --openings 4 \
        --seed "$seed" --concurrency "$1" "${extra[@]}"
}

if [ -n "$task" ]; then
    start=$(date +%s)
    case "$task" in
        selfplay)
            i="${SLURM_ARRAY_TASK_ID:?a Slurm array task}"
            selfplay_shard "$i"
            step "selfplay-$i-of-$shards" "$start"
            ;;
        train)
            train > /dev/null
            step train "$start"
            ;;
        match)
            mapfile -t arguments < <(match_arguments 1)
            TERNION="$dir/ternion" "$SCRIPTS/match-shards.sh" shard "$dir/match" -- \
                "${arguments[@]}"
            step "match-$SLURM_ARRAY_TASK_ID-of-$match_shards" "$start"
            ;;
        merge)
            TERNION="$dir/ternion" "$SCRIPTS/match-shards.sh" merge "$dir/match" \
                > "$dir/match.txt"
            ;;
        *) usage ;;
    esac
    exit 0
fi

mkdir -p "$dir"
source_binary="${TERNION:-$(cd "$(dirname "$0")/.." && pwd)/target/release/ternion}"
cp "$source_binary" "$dir/ternion"
: > "$dir/times.txt"

if [ -n "$slurm" ]; then
    # Each step is this script again (Slurm runs a copy of it, so the scripts' directory and
    # the settings go in the environment); a step whose step before failed is cancelled,
    # so that the wait below ends.
    SCRIPTS="$(cd "$(dirname "$0")" && pwd)"
    export SCRIPTS GAMES="$games" NODES="$nodes" SEED="$seed" SHARDS="$shards" \
        TRAIN="$train_args" MATCH="$match_args" MATCH_SHARDS="$match_shards"
    self="$SCRIPTS/network-generation.sh"
    submit() { sbatch --parsable --kill-on-invalid-dep=yes "$@"; }
    submitted=$(date +%s)
    selfplay=$(submit --job-name="selfplay-$variant" --array="0-$((shards - 1))" \
        --output="$dir/slurm-selfplay-%a.out" "$self" --task selfplay "$variant" "$dir" "$last")
    training=$(submit --job-name="train-$variant" --dependency="afterok:$selfplay" \
        --output="$dir/slurm-train.out" "$self" --task train "$variant" "$dir" "$last")
    matches=$(submit --job-name="match-$variant" --dependency="afterok:$training" \
        --array="0-$((match_shards - 1))" --output="$dir/slurm-match-%a.out" \
        "$self" --task match "$variant" "$dir" "$last")
    submit --wait --job-name="merge-$variant" --dependency="afterok:$matches" \
        --output="$dir/slurm-merge.out" "$self" --task merge "$variant" "$dir" "$last" \
        > /dev/null
    step generation "$submitted"
    tail -n 1 "$dir/train.log"
    cat "$dir/match.txt"
    exit 0
fi

start=$(date +%s)
for i in $(seq 0 $((shards - 1))); do
    selfplay_shard "$i" &
done
wait
step selfplay "$start"

start=$(date +%s)
train
step train "$start"

start=$(date +%s)
mapfile -t arguments < <(match_arguments 2)
"$dir/ternion" match "${arguments[@]}" \
    --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 2> "$dir/match.log" | tee "$dir/match.txt"
step match "$start"
