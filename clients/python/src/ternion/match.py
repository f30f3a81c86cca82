"""Engine against engine through ``ternion match``, the real referee (it keeps the rules,
the clocks and the records): :func:`play_match` runs it and reads what it wrote."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import EngineTimeoutError, MatchError

TERM_GRACE = 10.0
"""Seconds ``ternion match`` is given to end its engines after SIGTERM before SIGKILL."""


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
    movetime: float | None = None,
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
    (``"10+0.1"``, seconds), ``movetime`` seconds a move; ``options`` are ``--option``
    values (``"1:Hash=64"``).

    After ``timeout`` seconds the match is sent SIGTERM (it ends its engines), then
    SIGKILL if it has not ended within a grace, and :class:`EngineTimeoutError` is raised;
    a match that cannot start or fails raises :class:`MatchError`. Both are
    :class:`EngineError`."""
    with tempfile.TemporaryDirectory(prefix="ternion-match-") as scratch:
        records = os.path.join(scratch, "records.txt")
        argv = [ternion, "match", "--engine", engine1, "--engine", engine2]
        argv += ["--variant", variant, "--games", str(games), "--records", records]
        argv += ["--concurrency", str(concurrency)]
        milliseconds = None if movetime is None else _milliseconds(movetime)
        for flag, value in (
            ("--tc", tc),
            ("--movetime", milliseconds),
            ("--depth", depth),
            ("--nodes", nodes),
            ("--openings", openings),
            ("--seed", seed),
        ):
            if value is not None:
                argv += [flag, str(value)]
        for option in options:
            argv += ["--option", option]
        returncode, stdout, stderr = _run_match(argv, timeout)
        if returncode != 0:
            raise MatchError(f"{shlex.join(argv)} failed ({returncode})", returncode, stderr.strip()[-500:])
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
    return MatchResult(wins, draws, losses, tuple(played), stdout)


def _milliseconds(seconds: float) -> int:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds < 1e9:
        raise ValueError(f"movetime is a number of seconds above 0, not {seconds!r}")
    return max(1, round(seconds * 1000))


def _run_match(argv: list[str], timeout: float | None) -> tuple[int, str, str]:
    """Runs ``ternion match``; past ``timeout``, SIGTERM (so that it ends its engines),
    then SIGKILL after :data:`TERM_GRACE`."""
    try:
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as error:
        raise MatchError(f"{argv[0]} could not be started: {error}") from None
    with process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGTERM)
            try:
                process.communicate(timeout=TERM_GRACE)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
            raise EngineTimeoutError(f"the match did not end within {timeout} s; it was ended") from None
        except BaseException:
            process.kill()
            raise
    return process.returncode, stdout, stderr
