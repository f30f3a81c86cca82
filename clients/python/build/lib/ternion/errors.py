"""What can go wrong with an engine, each as its own exception. Every one is an
:class:`EngineError`; after :class:`EngineTerminated`, :class:`EngineTimeout` and
:class:`ProtocolError` the engine's process is gone (killed and reaped) and the engine
object refuses further commands."""

from __future__ import annotations


class EngineError(Exception):
    """Something went wrong with an engine."""


class EngineTerminated(EngineError):
    """The engine's process ended when an answer was expected (or before a command)."""

    def __init__(self, message: str, returncode: int | None = None, stderr: str = ""):
        detail = message
        if returncode is not None:
            detail += f" (exit status {returncode})"
        if stderr:
            detail += f"; its last words on stderr: {stderr}"
        super().__init__(detail)
        self.returncode = returncode
        self.stderr = stderr


class EngineTimeout(EngineError):
    """The engine did not answer in time; it was ended."""


class ProtocolError(EngineError):
    """The engine wrote something that is not the protocol: a line too long, a flood of
    lines that are no answer, or an answer that does not read."""


class CommandRefused(EngineError):
    """The engine refused a command with ``info string error <kind>: <detail>``; the engine
    goes on (the command changed nothing, but for an illegal move in ``position``, which
    forfeits the game by the side that was to play it)."""

    def __init__(self, errors: list[str]):
        super().__init__("; ".join(errors))
        self.errors = errors


class EngineBusy(EngineError):
    """A command came while a search (an analysis, a ponder) still runs: stop it first."""
