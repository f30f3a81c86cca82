"""The engine without ``await``: the same names as :mod:`ternion.aio`, each call run on an
event loop of the engine's own, in a thread of its own. ``with Engine.start(...) as
engine:`` always ends the process; so does :meth:`Engine.quit`, and, as a last resort, the
engine object being collected.

A call interrupted by Ctrl-C (or any exception raised in the waiting thread) is cancelled
as :mod:`ternion.aio` cancels: a search is stopped and read to its ``bestmove`` in the
background, and the ``KeyboardInterrupt`` reaches the caller as itself. The engine takes
the next command.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import weakref
from collections.abc import Coroutine, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from . import aio
from .analysis import STOP_TIMEOUT
from .channel import QUIT_TIMEOUT
from .errors import EngineError, EngineTerminatedError
from .protocol import BestMove, Info, Limit, Options, OptionValue

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .protocol import LimitWords

T = TypeVar("T")

CANCEL_TIMEOUT = 1.0
"""Seconds an interrupted call is given to hand its work to the background."""


class _Loop:
    """An event loop running in a daemon thread, for one engine."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="ternion-engine", daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self.loop.is_closed():
            coroutine.close()
            raise EngineTerminatedError("the engine was closed")
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result()
        except BaseException:
            # A KeyboardInterrupt (or another signal's exception) came while waiting: the
            # call is cancelled as asyncio cancels, then the exception goes on as itself.
            if not future.done():
                future.cancel()
                concurrent.futures.wait([future], CANCEL_TIMEOUT)
            raise

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()


def _end(loop: _Loop, core: aio.Engine) -> None:
    """Ends the engine and its loop (the engine object was closed or collected)."""
    if loop.loop.is_closed():
        return
    try:
        loop.run(core.quit())
    finally:
        loop.stop()


class Engine:
    """A UGI engine driven from ordinary code. Start one with :meth:`start`; see
    :class:`ternion.aio.Engine` for what each method does."""

    def __init__(self, core: aio.Engine, loop: _Loop):
        self._core = core
        self._loop = loop
        self._finalizer = weakref.finalize(self, _end, loop, core)

    @classmethod
    def start(
        cls,
        command: aio.Command = "ternion",
        *,
        protocol: aio.Protocol = "ugi",
        timeout: float = aio.START_TIMEOUT,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        max_line: int = aio.MAX_LINE,
        max_noise: int = aio.MAX_NOISE,
    ) -> Engine:
        """Starts ``command`` and completes the handshake (see
        :meth:`ternion.aio.Engine.start` for the keywords)."""
        loop = _Loop()
        try:
            core = loop.run(
                aio.Engine.start(
                    command,
                    protocol=protocol,
                    timeout=timeout,
                    env=env,
                    cwd=cwd,
                    max_line=max_line,
                    max_noise=max_noise,
                )
            )
        except BaseException:
            loop.stop()
            raise
        return cls(core, loop)

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self._loop.run(coroutine)

    @property
    def id(self) -> dict[str, str]:
        return self._core.id

    @property
    def options(self) -> Options:
        return self._core.options

    @property
    def speaks_ugi(self) -> bool:
        """Whether the engine answered ``ugiok`` (a UCI engine, ``uciok``, has no queries)."""
        return self._core.speaks_ugi

    @property
    def pid(self) -> int:
        return self._core.pid

    @property
    def returncode(self) -> int | None:
        return self._core.returncode

    @property
    def command(self) -> list[str]:
        return self._core.command

    def isready(self, *, timeout: float = aio.COMMAND_TIMEOUT) -> None:
        self._run(self._core.isready(timeout=timeout))

    def configure(self, options: Mapping[str, OptionValue], *, timeout: float = aio.COMMAND_TIMEOUT) -> None:
        self._run(self._core.configure(options, timeout=timeout))

    def set_option(
        self, name: str, value: OptionValue = None, *, timeout: float = aio.COMMAND_TIMEOUT
    ) -> None:
        self._run(self._core.set_option(name, value, timeout=timeout))

    def set_variant(self, variant: str, *, timeout: float = aio.COMMAND_TIMEOUT) -> None:
        self._run(self._core.set_variant(variant, timeout=timeout))

    def new_game(self, *, timeout: float = aio.COMMAND_TIMEOUT) -> None:
        self._run(self._core.new_game(timeout=timeout))

    def position(
        self,
        fen: str | None = None,
        moves: Sequence[str] = (),
        *,
        variant: str | None = None,
        timeout: float = aio.COMMAND_TIMEOUT,
    ) -> None:
        self._run(self._core.position(fen, moves, variant=variant, timeout=timeout))

    def query(self, what: str, *, timeout: float = aio.COMMAND_TIMEOUT) -> str:
        return self._run(self._core.query(what, timeout=timeout))

    def legal_moves(self) -> list[str]:
        return self._run(self._core.legal_moves())

    def is_legal(self, move: str) -> bool:
        return self._run(self._core.is_legal(move))

    def turn(self) -> int:
        return self._run(self._core.turn())

    def is_game_over(self) -> bool:
        return self._run(self._core.is_game_over())

    def result(self) -> str | None:
        return self._run(self._core.result())

    def reason(self) -> str | None:
        return self._run(self._core.reason())

    def fen(self) -> str:
        return self._run(self._core.fen())

    def variant(self) -> str:
        return self._run(self._core.variant())

    def go(
        self,
        limit: Limit | None = None,
        *,
        searchmoves: Sequence[str] | None = None,
        options: Mapping[str, OptionValue] | None = None,
        timeout: float | None = None,
        **limits: Unpack[LimitWords],
    ) -> BestMove:
        """See :meth:`ternion.aio.Engine.go` (times in seconds)."""
        return self._run(
            self._core.go(limit, searchmoves=searchmoves, options=options, timeout=timeout, **limits)
        )

    def analysis(
        self,
        limit: Limit | None = None,
        *,
        searchmoves: Sequence[str] | None = None,
        options: Mapping[str, OptionValue] | None = None,
        line_timeout: float | None = None,
        **limits: Unpack[LimitWords],
    ) -> Analysis:
        """See :meth:`ternion.aio.Engine.analysis` (times in seconds)."""
        started = self._core.analysis(
            limit, searchmoves=searchmoves, options=options, line_timeout=line_timeout, **limits
        )
        return Analysis(self._run(started), self._loop)

    def ponder(
        self,
        limit: Limit | None = None,
        *,
        searchmoves: Sequence[str] | None = None,
        options: Mapping[str, OptionValue] | None = None,
        line_timeout: float | None = None,
        **limits: Unpack[LimitWords],
    ) -> Analysis:
        """See :meth:`ternion.aio.Engine.ponder` (times in seconds)."""
        started = self._core.ponder(
            limit, searchmoves=searchmoves, options=options, line_timeout=line_timeout, **limits
        )
        return Analysis(self._run(started), self._loop)

    def stop(self, *, timeout: float = aio.COMMAND_TIMEOUT) -> BestMove | None:
        """Stops the running search, if any: its move."""
        return self._run(self._core.stop(timeout=timeout))

    def quit(self, *, timeout: float = QUIT_TIMEOUT) -> int | None:
        """Ends the engine (see :meth:`ternion.aio.Engine.quit`) and its loop thread."""
        if self._loop.loop.is_closed():
            return self._core.returncode
        try:
            return self._run(self._core.quit(timeout=timeout))
        finally:
            self._finalizer.detach()
            self._loop.stop()

    close = quit

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        return repr(self._core)


class Analysis:
    """A running search, iterated for its ``info`` lines (see
    :class:`ternion.aio.Analysis`)."""

    def __init__(self, core: aio.Analysis, loop: _Loop):
        self._core = core
        self._loop = loop

    @property
    def best(self) -> BestMove | None:
        return self._core.best

    @property
    def info(self) -> Info | None:
        return self._core.info

    @property
    def multipv(self) -> list[Info]:
        return self._core.multipv

    @property
    def done(self) -> bool:
        return self._core.done

    def empty(self) -> bool:
        return self._core.empty()

    def get(self) -> Info:
        """The next ``info`` line; :class:`~ternion.analysis.AnalysisComplete` once the
        search has ended."""
        return self._loop.run(self._core.get())

    def __iter__(self) -> Iterator[Info]:
        return self

    def __next__(self) -> Info:
        try:
            return self._loop.run(self._core.__anext__())
        except StopAsyncIteration:
            raise StopIteration from None

    def wait(self, *, timeout: float | None = None) -> BestMove:
        return self._loop.run(self._core.wait(timeout=timeout))

    def stop(self, *, timeout: float = STOP_TIMEOUT) -> BestMove:
        return self._loop.run(self._core.stop(timeout=timeout))

    def ponderhit(self) -> None:
        self._loop.run(self._core.ponderhit())

    def __enter__(self) -> Analysis:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_rest: object) -> None:
        if self._core.done or self._loop.loop.is_closed():
            return
        try:
            self.stop()
        except EngineError:
            if kind is None:
                raise
            # The exception that left the block (a KeyboardInterrupt) goes on as itself.
