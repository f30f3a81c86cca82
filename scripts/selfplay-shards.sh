#!/usr/bin/env bash
# Self-play data for a network generation, in shards that survive being stopped: run it
# again and it plays only the shards not yet done.
#
#     scripts/selfplay-shards.sh [--slurm] [--dir DIR] <variant>
#
# Settings, from the environment (a run's settings are fixed by its first start; only
# SHARDS may change later, to make the run longer):
#     SHARDS=150 GAMES=10000        shards, and games a shard
#     NODES=6000 OPENINGS=8 SEED=1  nodes a move, random opening plies, the run's seed
#                                   (shard k plays with seed SEED * 1000000 + k)
#     EVAL_FILE=                    the network the games are played with (default: the
#                                   one built into the binary)
#     JOBS=<cores>                  shards played at once here (one process each)
#     TERNION=target/release/ternion  the binary; copied into DIR/bin first, so that
#                                   rebuilding the checkout does not disturb the run
#
# DIR is --dir, else $TERNION_DATA/selfplay/<variant>, else
# ~/ternion-data/selfplay/<variant>: outside the work tree, never committed.
#
# Here, every process runs at `nice -n 19`; `kill -STOP -<pgid>` pauses the whole run
# (for a timed match), `kill -CONT -<pgid>` goes on; the process group is printed at the
# start. With --slurm, the shards not yet done are submitted as one array job (a task a
# shard) and the script waits for it; DIR must be on storage every node shares.
#
# In DIR: settings.txt (the run's settings), manifest.txt (a line a finished shard:
# shard, file, seed, games, positions, nodes, openings, variant, the engine's commit,
# the binary's and the network's sha256, the data's sha256), shard-<k>.txt (the
# positions, as `ternion selfplay` writes them) and shard-<k>.log. A shard is written
# under a temporary name and renamed when whole, then added to the manifest: a run killed
# at any moment leaves no half shard in the manifest, and a renamed shard that missed its
# manifest line is played again. A shard whose file is gone or whose checksum no longer
# matches is reported by `--check` (and played again once its line is removed).
set -euo pipefail

usage() {
    sed -n '2,35p' "$0" >&2
    exit 2
}

slurm="" dir="" task="" check=""
while [ $# -gt 0 ]; do
    case "$1" in
        --slurm) slurm=1; shift ;;
        --dir) dir="${2:?--dir DIR}"; shift 2 ;;
        --task) task="${SLURM_ARRAY_TASK_ID:?a Slurm array task}"; shift ;;
        --check) check=1; shift ;;
        -h | --help) usage ;;
        -*) echo "unknown option $1" >&2; usage ;;
        *) break ;;
    esac
done
[ $# -eq 1 ] || usage
variant="$1"
dir="${dir:-${TERNION_DATA:-$HOME/ternion-data}/selfplay/$variant}"
shards="${SHARDS:-150}" games="${GAMES:-10000}" nodes="${NODES:-6000}"
openings="${OPENINGS:-8}" seed="${SEED:-1}" eval_file="${EVAL_FILE:-}"
jobs="${JOBS:-$(nproc)}"
here="$(cd "$(dirname "$0")/.." && pwd)"

hash_of() { sha256sum "$1" | cut -d' ' -f1; }

# Whether shard $1 has its manifest line.
done_shard() {
    [ -f "$dir/manifest.txt" ] && grep -q "^shard=$1 " "$dir/manifest.txt"
}

# Plays shard $1 with the binary $2 (network arguments in $network_args), then renames
# it into place and appends its manifest line.
play_shard() {
    local k="$1" binary="$2"
    local file="shard-$k.txt" tmp="$dir/shard-$k.txt.tmp.$$" log="$dir/shard-$k.log"
    local shard_seed=$((seed * 1000000 + k))
    rm -f "$dir/shard-$k.txt.tmp."*
    "$binary" selfplay "$variant" --games "$games" --nodes "$nodes" --openings "$openings" \
        --seed "$shard_seed" "${network_args[@]}" --out "$tmp" 2> "$log"
    local positions
    positions=$(wc -l < "$tmp")
    local sum
    sum=$(hash_of "$tmp")
    mv "$tmp" "$dir/$file"
    # One write, so that shards finishing together never mix their lines.
    printf 'shard=%s file=%s seed=%s games=%s positions=%s nodes=%s openings=%s variant=%s commit=%s binary=%s network=%s sha256=%s\n' \
        "$k" "$file" "$shard_seed" "$games" "$positions" "$nodes" "$openings" "$variant" \
        "$commit" "$binary_hash" "$network" "$sum" >> "$dir/manifest.txt"
}

# The totals of the manifest: shards and positions.
totals() {
    awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^positions=/) { n++; p += substr($i, 11) } }
         END { printf "%d shards done, %d positions\n", n, p }' "$dir/manifest.txt" 2>/dev/null ||
        echo "0 shards done, 0 positions"
}

# Checks every manifest line against its file.
check_manifest() {
    local bad=0 line file sum
    [ -f "$dir/manifest.txt" ] || { echo "no manifest in $dir"; return 0; }
    while read -r line; do
        file=$(tr ' ' '\n' <<< "$line" | sed -n 's/^file=//p')
        sum=$(tr ' ' '\n' <<< "$line" | sed -n 's/^sha256=//p')
        if [ ! -f "$dir/$file" ]; then
            echo "missing: $file"; bad=1
        elif [ "$(hash_of "$dir/$file")" != "$sum" ]; then
            echo "damaged: $file"; bad=1
        fi
    done < "$dir/manifest.txt"
    totals
    return "$bad"
}

mkdir -p "$dir/bin"
if [ -n "$check" ]; then
    check_manifest
    exit $?
fi

if [ -n "$task" ]; then
    # Everything a task needs was fixed by the submitting run and passed in the environment.
    binary="${RUN_BINARY:?}" commit="${RUN_COMMIT:?}" binary_hash="${RUN_BINARY_HASH:?}"
    network="${RUN_NETWORK:?}"
    network_args=()
    [ -n "${RUN_EVAL_FILE:-}" ] && network_args=(--eval-file "$RUN_EVAL_FILE")
    done_shard "$task" || play_shard "$task" "$binary"
    exit 0
fi

# The settings of the run, fixed at its first start.
network="shipped" network_args=()
if [ -n "$eval_file" ]; then
    network="$(hash_of "$eval_file")"
    cp "$eval_file" "$dir/bin/network-${network:0:12}.nnue"
    network_args=(--eval-file "$dir/bin/network-${network:0:12}.nnue")
fi
settings="variant=$variant games=$games nodes=$nodes openings=$openings seed=$seed network=$network"
if [ -f "$dir/settings.txt" ]; then
    if [ "$(cat "$dir/settings.txt")" != "$settings" ]; then
        echo "$dir holds a run with other settings: $(cat "$dir/settings.txt")" >&2
        exit 1
    fi
else
    echo "$settings" > "$dir/settings.txt"
fi

source_binary="${TERNION:-$here/target/release/ternion}"
binary_hash="$(hash_of "$source_binary")"
binary="$dir/bin/ternion-${binary_hash:0:12}"
[ -x "$binary" ] || { cp "$source_binary" "$binary.tmp.$$" && mv "$binary.tmp.$$" "$binary"; }
commit="$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
if [ "$commit" != unknown ] && [ -n "$(git -C "$here" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit-modified"
fi

pending=()
for k in $(seq 0 $((shards - 1))); do
    done_shard "$k" || pending+=("$k")
done
echo "$dir: $(totals | cut -d, -f1) of $shards, ${#pending[@]} to play"
[ ${#pending[@]} -gt 0 ] || { totals; exit 0; }

if [ -n "$slurm" ]; then
    export RUN_BINARY="$binary" RUN_COMMIT="$commit" RUN_BINARY_HASH="$binary_hash" \
        RUN_NETWORK="$network" RUN_EVAL_FILE="${network_args[1]:-}" SHARDS="$shards" \
        GAMES="$games" NODES="$nodes" OPENINGS="$openings" SEED="$seed"
    list=$(IFS=,; echo "${pending[*]}")
    sbatch --parsable --wait --job-name="selfplay-$variant" --array="$list" \
        --output="$dir/slurm-%a.out" "$here/scripts/selfplay-shards.sh" --dir "$dir" \
        --task "$variant" > /dev/null || true
    totals
    exit 0
fi

group=$(ps -o pgid= $$ | tr -d ' ')
echo "process group $group (pause: kill -STOP -$group, go on: kill -CONT -$group)"
renice -n 19 -p $$ > /dev/null
# Where the kernel groups each session's processes (autogroup), nice only orders a
# session's own processes: a run started in a session of its own (setsid) would take an
# equal share beside a match in another. Its group is made the nicest there too.
if [ "$(ps -o sid= $$ | tr -d ' ')" = "$$" ] && [ -w /proc/$$/autogroup ]; then
    echo 19 > /proc/$$/autogroup 2> /dev/null || true
fi
for j in $(seq 0 $((jobs - 1))); do
    (
        for ((i = j; i < ${#pending[@]}; i += jobs)); do
            play_shard "${pending[$i]}" "$binary"
        done
    ) &
done
wait
totals
