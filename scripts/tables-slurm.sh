#!/usr/bin/env bash
# Egara-guti's tables built and checked through Slurm, level by level.
#
#     scripts/tables-slurm.sh build <dir> <men>     # every level of at most <men> men
#     scripts/tables-slurm.sh verify <dir> <men>    # every position of those levels
#
# What can run at once: the levels of one number of men depend only on fewer men, so a
# build is one array job a number of men, a task a level (`tables build --shard i/n`: the
# levels whose place in the list leaves i when divided by n), each array waiting for the
# one below it; levels already built are kept, so a build stopped part way goes on where
# it stopped. A check reads only what is built: every number of men is a task of one array
# job (`tables verify --all --from-men m --to-men m`), all at once. Each waits for its last
# job and exits with the highest status of its tasks (1: a disagreement).
#
# Settings, from the environment: BUILD="--distances --threads 2" (the build's arguments
# besides the men, the directory and the shard), VERIFY="--threads 2", TERNION (the binary,
# at the same path on every node; default target/release/ternion of this checkout). <dir>
# must be on storage every node shares. The tasks' output goes to <dir>/slurm/.
set -euo pipefail

[ $# -eq 3 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
command="$1" dir="$2" men="$3"
ternion="${TERNION:-$(cd "$(dirname "$0")/.." && pwd)/target/release/ternion}"
build_args="${BUILD:---distances --threads 2}"
verify_args="${VERIFY:---threads 2}"
most_a_side=11
mkdir -p "$dir/slurm"
dir="$(cd "$dir" && pwd)"

# The levels of `total` men: the pairs a + b = total with a >= b >= 1 and a <= 11.
levels_of() {
    local total="$1" least=$(($1 - most_a_side))
    [ "$least" -ge 1 ] || least=1
    echo $((total / 2 - least + 1))
}

case "$command" in
    build)
        after=()
        for total in $(seq 2 "$men"); do
            count=$(levels_of "$total")
            wait_here=()
            [ "$total" -lt "$men" ] || wait_here=(--wait)
            # shellcheck disable=SC2086 # the build's arguments are words
            job=$(sbatch --parsable --kill-on-invalid-dep=yes "${after[@]}" "${wait_here[@]}" \
                --job-name="tables-$total" --array="0-$((count - 1))" \
                --output="$dir/slurm/build-$total-%a.out" \
                --wrap="exec '$ternion' tables build egaraguti --men $total --dir '$dir' \
                    --shard \$SLURM_ARRAY_TASK_ID/$count $build_args")
            after=(--dependency="afterok:${job%%;*}")
        done
        "$ternion" tables sums egaraguti --dir "$dir" | wc -l | sed 's/$/ table files/'
        ;;
    verify)
        # shellcheck disable=SC2086 # the check's arguments are words
        sbatch --wait --job-name=tables-verify --array="2-$men" \
            --output="$dir/slurm/verify-%a.out" \
            --wrap="exec '$ternion' tables verify egaraguti --dir '$dir' --all \
                --from-men \$SLURM_ARRAY_TASK_ID --to-men \$SLURM_ARRAY_TASK_ID $verify_args" \
            > /dev/null
        cat "$dir"/slurm/verify-*.out | grep -v "^[0-9]* levels"
        ;;
    *)
        sed -n '2,20p' "$0" >&2
        exit 2
        ;;
esac
