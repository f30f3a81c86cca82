"""Drive ternion, or any UGI or UCI game engine, from Python.

- :class:`Engine` (here, without ``await``) and :class:`ternion.aio.Engine` (asyncio), with
  the same names: start an engine, set options, set positions, search, query the rules;
  every failure its own exception (:mod:`ternion.errors`), every call safe to cancel.
- :class:`Referee`: ternion's rules asked of ternion, to referee without trusting an engine.
- :func:`play_match`: engine against engine through ``ternion match``.

    >>> from ternion import Engine
    >>> with Engine.start("ternion") as engine:
    ...     engine.set_variant("lielow")
    ...     engine.position(moves=["d2d3"])
    ...     best = engine.go(time=0.1)
    ...     print(best.move, best.score)
"""

from .analysis import AnalysisComplete
from .engine import Analysis, Engine
from .errors import (
    CommandRefused,
    CommandRefusedError,
    EngineBusy,
    EngineBusyError,
    EngineError,
    EngineTerminated,
    EngineTerminatedError,
    EngineTimeout,
    EngineTimeoutError,
    MatchError,
    ProtocolError,
)
from .match import GameRecord, MatchResult, play_match, read_records
from .protocol import BestMove, Info, Limit, LimitWords, Option, Score, Wdl
from .referee import Position, Referee

__all__ = [
    "Analysis",
    "AnalysisComplete",
    "BestMove",
    "CommandRefused",
    "CommandRefusedError",
    "Engine",
    "EngineBusy",
    "EngineBusyError",
    "EngineError",
    "EngineTerminated",
    "EngineTerminatedError",
    "EngineTimeout",
    "EngineTimeoutError",
    "GameRecord",
    "Info",
    "Limit",
    "LimitWords",
    "MatchError",
    "MatchResult",
    "Option",
    "Position",
    "ProtocolError",
    "Referee",
    "Score",
    "Wdl",
    "play_match",
    "read_records",
]

__version__ = "0.2.0"
