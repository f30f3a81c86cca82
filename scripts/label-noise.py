#!/usr/bin/env python3
"""How far self-play's labels are from a deeper search's: the trade of nodes a move
against positions an hour (docs/experiments.md, "Nodes a move for generation 4").

    scripts/label-noise.py <ternion> <variant> <data file> [--positions 400]
        [--nodes 1500,3000,6000,12000] [--reference 200000] [--scale 115]

Takes positions spread evenly over a `ternion selfplay` data file, scores each with
`ternion analyze --nodes N` for every N and once with the reference's nodes, and prints
for each N the mean squared gap between the expected results `sigmoid(score / K)` of the
label and of the reference (K the data's scale, as `ternion train` fits it), and how often
the two disagree on who is ahead. Positions the reference finds decided (|score| >= 3000,
or a mate) are left out, as self-play leaves them out.
"""

import argparse
import math
import subprocess


def score_of(ternion, variant, position, nodes):
    """The last reported score of a search of `nodes`, in centipawns (None: a mate)."""
    done = subprocess.run(
        [ternion, "analyze", variant, "--fen", position, "--nodes", str(nodes)],
        capture_output=True,
        text=True,
        check=True,
    )
    score = None
    for line in done.stdout.splitlines():
        words = line.split()
        if words[:1] == ["info"] and "score" in words:
            at = words.index("score")
            score = int(words[at + 2]) if words[at + 1] == "cp" else None
    return score


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ternion")
    parser.add_argument("variant")
    parser.add_argument("data")
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--nodes", default="1500,3000,6000,12000")
    parser.add_argument("--reference", type=int, default=200_000)
    parser.add_argument("--scale", type=float, default=115.0)
    args = parser.parse_args()
    with open(args.data) as data:
        lines = [line for line in data if line.strip()]
    step = max(1, len(lines) // args.positions)
    positions = [line.split(" ", 1)[1].rsplit(" ; ", 1)[0] for line in lines[::step]]
    positions = positions[: args.positions]
    counts = [int(n) for n in args.nodes.split(",")]
    sigmoid = lambda cp: 1.0 / (1.0 + math.exp(-cp / args.scale))
    gaps = {n: [] for n in counts}
    flips = {n: 0 for n in counts}
    used = 0
    for position in positions:
        reference = score_of(args.ternion, args.variant, position, args.reference)
        if reference is None or abs(reference) >= 3000:
            continue
        labels = {n: score_of(args.ternion, args.variant, position, n) for n in counts}
        if any(label is None for label in labels.values()):
            continue
        used += 1
        for n, label in labels.items():
            gaps[n].append((sigmoid(label) - sigmoid(reference)) ** 2)
            flips[n] += (label > 0) != (reference > 0)
    print(f"{used} positions of {len(positions)}, reference {args.reference} nodes, K {args.scale}")
    for n in counts:
        mean = sum(gaps[n]) / max(1, len(gaps[n]))
        print(f"{n:>7} nodes: mean squared gap {mean:.5f}, sign differs {flips[n] / max(1, used):.1%}")


if __name__ == "__main__":
    main()
