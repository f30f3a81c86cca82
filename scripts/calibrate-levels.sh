#!/usr/bin/env bash
# The strength levels' ladder of one variant, measured: each rung plays the rung below it
# (`ternion match`, seeded 2-ply random openings, both colours) and the Elo differences add
# up to a scale whose zero is the random mover. Prints a Markdown table on stdout; each
# match's summary goes to stderr as it ends.
#
#     scripts/calibrate-levels.sh lielow [GAMES] [FULL_NODES] > ladder-lielow.md
#
# The rungs, weakest first: the random mover, the mixed movers (the greedy move 25, 50, 75
# times in 100), the greedy mover, Skill Level 0 to 19, and the full engine at FULL_NODES
# nodes a move (default 1,000,000; every level stops sooner, at its own depth and nodes). No
# rung has a clock, so a loaded machine measures the same ladder, only more slowly; a move
# may take up to an hour before the engine is held to have hung, so that the whole ladder
# can be paused (kill -STOP) for a timed measurement and go on (kill -CONT) unharmed.
# GAMES per match (default 100). A step of +inf or -inf (one side won every game) leaves the
# scale above it unknown: the rungs there are too far apart. TERNION names the binary
# (default: target/release/ternion of this checkout). The last line on stderr lists the Elo
# of levels 0 to 20 in order, as src/games/strength.rs keeps them. FIRST (an environment
# variable, default 1) skips the rungs below it and TOTAL (default 0) is then the Elo of
# rung FIRST - 1, to go on from a ladder stopped part way. LEVELS (default: 0 to 19) lists
# the levels that are rungs, for a game whose groups of levels share a player (Lerontenin:
# LEVELS="0 4 8 12 16"); a level not listed takes the Elo of the listed level below it.
set -euo pipefail

variant=${1:?usage: $0 VARIANT [GAMES] [FULL_NODES]}
games=${2:-100}
full_nodes=${3:-1000000}
here=$(cd "$(dirname "$0")/.." && pwd)
ternion=${TERNION:-$here/target/release/ternion}

# Each rung: its name, its command, its option (or nothing).
names=(random greedy:25 greedy:50 greedy:75 greedy)
commands=("$ternion --play random" "$ternion --play greedy:25" "$ternion --play greedy:50"
    "$ternion --play greedy:75" "$ternion --play greedy")
options=("" "" "" "" "")
rung_levels=(${LEVELS:-$(seq 0 19)})
for level in "${rung_levels[@]}"; do
    names+=("level $level")
    commands+=("$ternion")
    options+=("Skill Level=$level")
done
names+=("full (20)")
commands+=("$ternion")
options+=("")

echo "| rung | against the rung below: W/D/L | step (Elo, 95%) | Elo (random mover = 0) |"
echo "|---|---|---|---:|"
first=${FIRST:-1}
total=${TOTAL:-0}
if [ "$first" = 1 ]; then echo "| ${names[0]} | | | 0 |"; fi
level_elo=()
for ((i = first; i < ${#names[@]}; i++)); do
    args=(match --engine "${commands[$i]}" --engine "${commands[$((i - 1))]}"
        --variant "$variant" --games "$games" --openings 2 --seed "$i" --concurrency 2
        --nodes "$full_nodes" --timeout 3600000)
    if [ -n "${options[$i]}" ]; then args+=(--option "1:${options[$i]}"); fi
    if [ -n "${options[$((i - 1))]}" ]; then args+=(--option "2:${options[$((i - 1))]}"); fi
    summary=$("$ternion" "${args[@]}" 2>/dev/null)
    echo "${names[$i]} vs ${names[$((i - 1))]}: $(echo "$summary" | sed -n 2,3p | tr '\n' ' ')" >&2
    wdl=$(echo "$summary" | awk '/^W\/D\/L/ { print $2 }')
    step=$(echo "$summary" | awk '/^Elo/ { $NF = ""; sub(/^Elo /, ""); print }')
    elo=$(echo "$step" | awk '{ print $1 }')
    case "$elo" in
        *inf*) total=unknown ;;
        *) if [ "$total" != unknown ]; then total=$(awk -v t="$total" -v e="$elo" 'BEGIN { printf "%.0f", t + e }'); fi ;;
    esac
    echo "| ${names[$i]} | $wdl | $step | $total |"
    case "${names[$i]}" in
        level*) level_elo[${names[$i]#level }]=$total ;;
        full*) level_elo[20]=$total ;;
    esac
done
# Every level, each unlisted one with the Elo of the listed level below it.
levels=()
elo=unknown
for level in $(seq 0 20); do
    elo=${level_elo[$level]:-$elo}
    levels+=("$elo")
done
echo "levels 0 to 20: ${levels[*]}" >&2
