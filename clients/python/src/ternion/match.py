"""Engine against engine through ``ternion match``, the real referee (it keeps the rules,
the clocks and the records): :func:`play_match` runs it and reads what it wrote."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class GameRecord:
    """One game as ``ternion match --records`` writes it."""

    number: int
    variant: str
    p1: str
    p2: str
    result: str
    """``p1win``, ``p2win`` or ``draw``."""
    reason: str
    """``rules`` when the game ended by the rules, else how it was lost (``time``,
    ``illegal``, ``crash``, ...)."""
    opening: tuple[str, ...]
    start: str
    final: str
    moves: tuple[str, ...]
    tags: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class MatchResult:
    """The first engine's wins, draws and losses, every game, and the summary
    ``ternion match`` printed."""

    wins: int
    draws: int
    losses: int
    games: tuple[GameRecord, ...]
    summary: str

    @property
    def score(self) -> float:
        played = self.wins + self.draws + self.losses
        return (self.wins + self.draws / 2) / played if played else 0.0


def read_records(text: str) -> list[GameRecord]:
    """The games of a ``--records`` file."""
    games = []
    for block in text.strip().split("\n\n"):
        tags: dict[str, str] = {}
        moves: list[str] = []
        for line in block.strip().splitlines():
            if line.startswith("[") and line.endswith("]") and " " in line:
                name, value = line[1:-1].split(" ", 1)
                tags[name] = value.strip().strip('"')
            elif line.strip():
                moves += line.split()
        if not tags:
            continue
        games.append(
            GameRecord(
                number=int(tags.get("Game", "0")),
                variant=tags.get("Variant", ""),
                p1=tags.get("P1", ""),
                p2=tags.get("P2", ""),
                result=tags.get("Result", ""),
                reason=tags.get("Reason", ""),
                opening=tuple(tags.get("Opening", "").split()),
                start=tags.get("Start", ""),
                final=tags.get("Final", ""),
                moves=tuple(moves),
                tags=tags,
            )
        )
    return games


def play_match(
    engine1: str,
    engine2: str,
    variant: str,
    games: int,
    *,
    tc: str | None = None,
    movetime: int | None = None,
    depth: int | None = None,
    nodes: int | None = None,
    openings: int | None = None,
    seed: int | None = None,
    concurrency: int = 1,
    options: Sequence[str] = (),
    ternion: str = "ternion",
    timeout: float | None = None,
) -> MatchResult:
    """Plays ``games`` games of ``variant`` between two engine command lines, both colours
    in turn, from ``openings`` random plies chosen by ``seed``, with ``ternion match``
    refereeing, and returns the results from ``engine1``'s side. ``tc`` is a clock
    (``"10+0.1"``, seconds), ``movetime`` milliseconds a move; ``options`` are
    ``--option`` values (``"1:Hash=64"``). The match is ended and ``TimeoutExpired``
    raised after ``timeout`` seconds."""
    with tempfile.TemporaryDirectory(prefix="ternion-match-") as scratch:
        records = os.path.join(scratch, "records.txt")
        argv = [ternion, "match", "--engine", engine1, "--engine", engine2]
        argv += ["--variant", variant, "--games", str(games), "--records", records]
        argv += ["--concurrency", str(concurrency)]
        for flag, value in (
            ("--tc", tc),
            ("--movetime", movetime),
            ("--depth", depth),
            ("--nodes", nodes),
            ("--openings", openings),
            ("--seed", seed),
        ):
            if value is not None:
                argv += [flag, str(value)]
        for option in options:
            argv += ["--option", option]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{shlex.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
        with open(records, encoding="utf-8") as file:
            played = read_records(file.read())
    wins = draws = losses = 0
    for game in played:
        first_is_p1 = game.number % 2 == 1
        if game.result == "draw":
            draws += 1
        elif (game.result == "p1win") == first_is_p1:
            wins += 1
        else:
            losses += 1
    return MatchResult(wins, draws, losses, tuple(played), done.stdout)
