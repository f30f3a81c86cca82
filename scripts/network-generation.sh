#!/usr/bin/env bash
# One generation of a variant's network: self-play data from the engine as it is (with the
# last generation's network, if given), a network trained on it, and a match of the engine
# with the new network against the engine as it was.
#
#     scripts/network-generation.sh <variant> <dir> [<last network>]
#
# Settings, from the environment (the defaults are those of docs/networks.md):
#     GAMES=100000 NODES=4000 SEED=1       self-play: games, nodes a move, seed
#     SHARDS=1                             self-play in this many shards at once (local
#                                          processes; on a cluster, run `ternion selfplay
#                                          --shard i/n` as scripts/match-shards.sh does)
#     TRAIN="--hidden 32 --on-terms"       extra arguments of `ternion train` (add
#                                          --hold-out-block 8192 for Lerontenin, whose
#                                          games write hundreds of positions each)
#     MATCH="--tc 2+0.02 --games 400"      the match (seeded random openings, both colours,
#                                          stopped early by the sequential test)
#     TERNION=target/release/ternion       the binary; it is copied into <dir> first, so
#                                          rebuilding the checkout does not disturb the run
#
# Writes into <dir>: ternion (the copy), data-<i>-of-<n>.txt, selfplay-<i>-of-<n>.log,
# train.log, <variant>.nnue, match.txt, and times.txt (the seconds of each step).
set -euo pipefail

[ $# -ge 2 ] || { sed -n '2,22p' "$0" >&2; exit 2; }
variant="$1" dir="$2" last="${3:-}"
games="${GAMES:-100000}" nodes="${NODES:-4000}" seed="${SEED:-1}" shards="${SHARDS:-1}"
train_args="${TRAIN:---hidden 32 --on-terms}"
match_args="${MATCH:---tc 2+0.02 --games 400}"
source_binary="${TERNION:-$(cd "$(dirname "$0")/.." && pwd)/target/release/ternion}"

mkdir -p "$dir"
cp "$source_binary" "$dir/ternion"
ternion="$dir/ternion"
eval_args=()
option_last=()
if [ -n "$last" ]; then
    eval_args=(--eval-file "$last")
    option_last=(--option "2:EvalFile=$last")
fi
: > "$dir/times.txt"
step() { echo "$1 $(( $(date +%s) - $2 ))" >> "$dir/times.txt"; }

start=$(date +%s)
for i in $(seq 0 $((shards - 1))); do
    "$ternion" selfplay "$variant" --games "$games" --nodes "$nodes" --seed "$seed" \
        --shard "$i/$shards" "${eval_args[@]}" --out "$dir/data-$i-of-$shards.txt" \
        2> "$dir/selfplay-$i-of-$shards.log" &
done
wait
step selfplay "$start"

start=$(date +%s)
# shellcheck disable=SC2086 # the extra arguments are words
"$ternion" train "$variant" --data "$dir"/data-*-of-"$shards".txt --out "$dir/$variant.nnue" \
    --seed "$seed" $train_args 2> "$dir/train.log" | tee -a "$dir/train.log"
step train "$start"

start=$(date +%s)
# shellcheck disable=SC2086
"$ternion" match --engine "$ternion" --engine "$ternion" --variant "$variant" \
    --option "1:EvalFile=$dir/$variant.nnue" "${option_last[@]}" --openings 4 --seed "$seed" \
    --concurrency 2 --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 $match_args \
    2> "$dir/match.log" | tee "$dir/match.txt"
step match "$start"
