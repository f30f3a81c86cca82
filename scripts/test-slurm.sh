#!/usr/bin/env bash
# The cluster path against a real Slurm of one node (scripts/slurm-local.sh), as CI runs it:
#
# 1. a match of 4 shards at fixed nodes, submitted with sbatch, has the same summary as the
#    same match's shards run here as processes;
# 2. a tiny generation submitted with `network-generation.sh --slurm` gives the same data
#    and the same network, byte for byte, as the same generation run here;
# 3. that network loads with `setoption name EvalFile`;
# 4. Egara-guti's tables of up to 6 men built through Slurm, level by level, have the sums
#    of the same build run here, and check out through Slurm.
#
#     scripts/test-slurm.sh        (as root, after `cargo build --release`)
#
# Whatever happens, the daemons it started are stopped and its files removed at the end.
# Prints the seconds of the generation here and through Slurm: the scheduler's cost.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
ternion="${TERNION:-$root/target/release/ternion}"
work="$(mktemp -d)"
cleanup() {
    "$root/scripts/slurm-local.sh" down > /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "test-slurm: $*" >&2
    exit 1
}

"$root/scripts/slurm-local.sh" up
export TERNION="$ternion"

# 1. A match in 4 shards, here and through sbatch.
match=(--engine "$ternion" --engine "$ternion --play greedy" --variant lielow --nodes 400
    --openings 4 --games 16 --seed 5)
"$root/scripts/match-shards.sh" local 4 "$work/here" -- "${match[@]}" > "$work/here.txt"
sbatch --wait --array=0-3 --output="$work/slurm-%a.out" \
    "$root/scripts/match-shards.sh" shard "$work/slurm" -- "${match[@]}" > /dev/null
"$root/scripts/match-shards.sh" merge "$work/slurm" > "$work/slurm.txt"
grep -q "16 games" "$work/here.txt" || fail "the match here did not play its 16 games"
diff "$work/here.txt" "$work/slurm.txt" || fail "the match through Slurm differs"
echo "test-slurm: a 4-shard match through sbatch has the summary of the match run here"

# 2. A tiny generation, here and through Slurm.
export GAMES=24 NODES=300 SEED=3 SHARDS=2 MATCH="--nodes 300 --games 8" MATCH_SHARDS=4 \
    TRAIN="--hidden 16 --epochs 2 --on-terms"
started=$(date +%s)
"$root/scripts/network-generation.sh" lielow "$work/gen-here" > /dev/null 2>&1 ||
    fail "the generation here failed"
here_seconds=$(($(date +%s) - started))
started=$(date +%s)
"$root/scripts/network-generation.sh" --slurm lielow "$work/gen-slurm" > /dev/null 2>&1 ||
    fail "the generation through Slurm failed"
slurm_seconds=$(($(date +%s) - started))
for i in 0 1; do
    cmp "$work/gen-here/data-$i-of-2.txt" "$work/gen-slurm/data-$i-of-2.txt" ||
        fail "self-play shard $i differs through Slurm"
done
cmp "$work/gen-here/lielow.nnue" "$work/gen-slurm/lielow.nnue" ||
    fail "the network trained through Slurm differs"
[ -s "$work/gen-slurm/match.txt" ] || fail "no match summary through Slurm"
echo "test-slurm: the generation through Slurm has the data and the network of the one here" \
    "($here_seconds s here, $slurm_seconds s through Slurm)"

# 3. Its network loads.
loaded=$(printf 'ugi\nsetoption name EvalFile value %s\nisready\nquit\n' \
    "$work/gen-slurm/lielow.nnue" | "$ternion")
grep -q "info string EvalFile .*: a network of lielow, 1152 inputs x 16 hidden" <<< "$loaded" ||
    fail "the network did not load: $loaded"
echo "test-slurm: its network loads with EvalFile"

# 4. The tables, through Slurm and here.
"$root/scripts/tables-slurm.sh" build "$work/tables-slurm" 6 > /dev/null
"$ternion" tables build egaraguti --men 6 --dir "$work/tables-here" --distances > /dev/null 2>&1
diff <("$ternion" tables sums egaraguti --dir "$work/tables-here") \
    <("$ternion" tables sums egaraguti --dir "$work/tables-slurm") ||
    fail "the tables built through Slurm differ"
"$root/scripts/tables-slurm.sh" verify "$work/tables-slurm" 6 > "$work/verify.txt" ||
    fail "the check through Slurm failed: $(cat "$work/verify.txt")"
grep -q "3v3: .* 0 disagreements" "$work/verify.txt" || fail "the check missed 3v3"
echo "test-slurm: the tables built through Slurm are the tables built here, and check out"
