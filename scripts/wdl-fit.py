#!/usr/bin/env python3
"""Fits the model from a score to a win/draw/loss expectation that `UCI_ShowWDL` prints,
to the lines `ternion selfplay` writes (`<result> <position> ; <score>`, both from the
first player's side):

    win  = 1 / (1 + exp((a - score) / b))
    loss = 1 / (1 + exp((a + score) / b))
    draw = 1 - win - loss

by the largest likelihood of the games' results, `a` (at least 0: the width of the drawn
band) and `b` (the spread) searched on a grid and then refined. Prints `a b` and the
positions used, for src/protocol/wdl.rs (`model`).

    scripts/wdl-fit.py lielow.txt [more.txt ...]
"""
import math
import sys


def read(paths):
    points = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as data:
            for line in data:
                if " ; " not in line:
                    continue
                head, score = line.rsplit(" ; ", 1)
                result = head.split(" ", 1)[0]
                try:
                    score = int(score)
                except ValueError:
                    continue
                if abs(score) >= 3000 or result not in ("1", "0", "0.5"):
                    continue
                points.append((score, result))
    return points


def likelihood(points, a, b):
    total = 0.0
    for score, result in points:
        win = 1 / (1 + math.exp(min(700, (a - score) / b)))
        loss = 1 / (1 + math.exp(min(700, (a + score) / b)))
        p = {"1": win, "0": loss, "0.5": 1 - win - loss}[result]
        total += math.log(max(p, 1e-9))
    return total


def fit(points):
    best = max(
        ((a, b) for a in range(0, 801, 25) for b in range(20, 801, 20)),
        key=lambda ab: likelihood(points, *ab),
    )
    a, b = best
    step = 10.0
    while step >= 0.5:
        moved = False
        for da, db in ((step, 0), (-step, 0), (0, step), (0, -step)):
            na, nb = max(0.0, a + da), max(1.0, b + db)
            if likelihood(points, na, nb) > likelihood(points, a, b):
                a, b, moved = na, nb, True
        if not moved:
            step /= 2
    return a, b


if __name__ == "__main__":
    points = read(sys.argv[1:])
    if not points:
        sys.exit("no lines with a score")
    a, b = fit(points)
    draws = sum(1 for _, r in points if r == "0.5") / len(points)
    print(f"a {a:.1f} b {b:.1f} from {len(points)} positions ({draws:.1%} drawn)")
