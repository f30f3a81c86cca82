#!/usr/bin/env bash
# The strength levels' ladder of one variant, measured: each rung plays the rung below it
# (`ternion match`, seeded 2-ply random openings, both colours) and the Elo differences add
# up to a scale whose zero is the random mover. Prints a Markdown table on stdout; each
# match's summary goes to stderr as it ends.
#
#     scripts/calibrate-levels.sh lielow [GAMES] [MOVETIME_MS] > ladder-lielow.md
#
# The rungs, weakest first: the random mover, the mixed movers (the greedy move 25, 50, 75
# times in 100), the greedy mover, Skill Level 0 to 19, and the full engine, each search at
# MOVETIME_MS a move (default 100; the levels stop sooner at their own depth and nodes).
# GAMES per match (default 100). A step of +inf or -inf (one side won every game) leaves the
# scale above it unknown: the rungs there are too far apart. TERNION names the binary
# (default: target/release/ternion of this checkout).
set -euo pipefail

variant=${1:?usage: $0 VARIANT [GAMES] [MOVETIME_MS]}
games=${2:-100}
movetime=${3:-100}
here=$(cd "$(dirname "$0")/.." && pwd)
ternion=${TERNION:-$here/target/release/ternion}

# Each rung: its name, its command, its option (or nothing).
names=(random greedy:25 greedy:50 greedy:75 greedy)
commands=("$ternion --play random" "$ternion --play greedy:25" "$ternion --play greedy:50"
    "$ternion --play greedy:75" "$ternion --play greedy")
options=("" "" "" "" "")
for level in $(seq 0 19); do
    names+=("level $level")
    commands+=("$ternion")
    options+=("Skill Level=$level")
done
names+=("full (20)")
commands+=("$ternion")
options+=("")

echo "| rung | against the rung below: W/D/L | step (Elo, 95%) | Elo (random mover = 0) |"
echo "|---|---|---|---:|"
echo "| ${names[0]} | | | 0 |"
total=0
for ((i = 1; i < ${#names[@]}; i++)); do
    args=(match --engine "${commands[$i]}" --engine "${commands[$((i - 1))]}"
        --variant "$variant" --games "$games" --openings 2 --seed "$i" --concurrency 2
        --movetime "$movetime")
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
done
