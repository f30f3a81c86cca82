"""The rules of ternion's games, asked of ternion itself: the legal moves of a position,
the position after some moves, whether a game is over and how. A harness can referee with
it and trust no engine's word.

A :class:`Referee` runs one ``ternion --play random`` (a process that never searches) and
asks it ``position`` and ``query`` lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .engine import Engine


@dataclass(frozen=True)
class Position:
    """A position as the rules see it."""

    variant: str
    fen: str
    turn: int
    """1 when the first player is to move, else 2."""
    legal_moves: tuple[str, ...]
    result: str | None
    """``p1win``, ``p2win``, ``draw``, or ``None`` while the game goes on."""
    reason: str | None

    @property
    def is_over(self) -> bool:
        return self.result is not None


class Referee:
    """ternion's rules for every variant. ``with Referee() as rules: ...`` ends its
    process."""

    def __init__(self, ternion: str = "ternion", *, timeout: float = 10.0):
        self._engine = Engine.start([ternion, "--play", "random"], timeout=timeout)

    def position(self, variant: str, fen: str | None = None, moves: Sequence[str] = ()) -> Position:
        """The position of ``variant`` after ``moves`` from its start (or from ``fen``).
        An illegal move raises :class:`~ternion.errors.CommandRefused` naming it."""
        engine = self._engine
        engine.position(fen, moves, variant=variant)
        return Position(
            variant=variant,
            fen=engine.fen(),
            turn=engine.turn(),
            legal_moves=tuple(engine.legal_moves()),
            result=engine.result(),
            reason=engine.reason(),
        )

    def legal_moves(self, variant: str, fen: str | None = None, moves: Sequence[str] = ()) -> list[str]:
        self._engine.position(fen, moves, variant=variant)
        return self._engine.legal_moves()

    def is_legal(self, variant: str, move: str, fen: str | None = None, moves: Sequence[str] = ()) -> bool:
        """Whether ``move`` is legal in the position after ``moves``."""
        self._engine.position(fen, moves, variant=variant)
        return self._engine.is_legal(move)

    def close(self) -> None:
        self._engine.quit()

    def __enter__(self) -> Referee:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
