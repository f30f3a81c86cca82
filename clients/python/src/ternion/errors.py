"""What can go wrong with an engine, each as its own exception. Every one is an
:class:`EngineError`. After :class:`EngineTerminatedError`, :class:`EngineTimeoutError` and
:class:`ProtocolError` the engine's process is gone (its process group ended and reaped),
and every later call on the engine raises :class:`EngineTerminatedError`.

The names before 0.2 (``EngineTerminated``, ``EngineTimeout``, ``CommandRefused``,
``EngineBusy``) stay as aliases.
"""

from __future__ import annotations


class EngineError(Exception):
    """Something went wrong with an engine."""


class EngineTerminatedError(EngineError):
    """The engine's process ended when an answer was expected, or the engine was quit or
    given up before the call."""

    def __init__(self, message: str, returncode: int | None = None, stderr: str = ""):
        detail = message
        if returncode is not None:
            detail += f" (exit status {returncode})"
        if stderr:
            detail += f"; its last words on stderr: {stderr}"
        super().__init__(detail)
        self.returncode = returncode
        self.stderr = stderr


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer in time; it was ended. Also a :class:`TimeoutError`, so
    ``except TimeoutError`` catches it beside ``asyncio.wait_for``'s."""


class ProtocolError(EngineError):
    """The engine wrote something that is not the protocol: a line too long, a flood of
    lines that are no answer, or an answer that does not read."""


class CommandRefusedError(EngineError):
    """The engine refused a command with ``info string error <kind>: <detail>``; the engine
    goes on (the command changed nothing, but for an illegal move in ``position``, which
    forfeits the game by the side that was to play it)."""

    def __init__(self, errors: list[str]):
        super().__init__("; ".join(errors))
        self.errors = errors
        """Each refusal as the engine wrote it: ``error <kind>: <detail>``."""
        self.kinds = [_kind(error) for error in errors]
        """Each refusal's ``<kind>`` (``bad-fen``, ``illegal-move``, ``bad-option-value``,
        ...), the word to branch on; the details are for people."""


def _kind(error: str) -> str:
    words = error.split(maxsplit=1)
    kind = words[1] if len(words) > 1 and words[0] == "error" else error
    return kind.split(":", 1)[0].strip()


class EngineBusyError(EngineError):
    """A command came while a search the caller holds (an analysis, a ponder) still runs:
    stop it (:meth:`ternion.aio.Analysis.stop`, or the engine's ``stop()``) first."""


class MatchError(EngineError):
    """``ternion match`` failed: it could not start, or it ended with a failure status
    (``returncode``; ``stderr`` holds its last words)."""

    def __init__(self, message: str, returncode: int | None = None, stderr: str = ""):
        super().__init__(f"{message}: {stderr}" if stderr else message)
        self.returncode = returncode
        self.stderr = stderr


# The names before 0.2.
EngineTerminated = EngineTerminatedError
EngineTimeout = EngineTimeoutError
CommandRefused = CommandRefusedError
EngineBusy = EngineBusyError
