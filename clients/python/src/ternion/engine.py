"""The engine without ``await``: the same names as :mod:`ternion.aio`, each call run on an
event loop of the engine's own, in a thread of its own. ``with Engine.start(...) as
engine:`` always ends the process; so does :meth:`Engine.quit`, and, as a last resort, the
engine object being collected.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Coroutine, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from . import aio
from .protocol import BestMove, Info, Limit, Options, OptionValue

T = TypeVar("T")


class _Loop:
    """An event loop running in a daemon thread, for one engine."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="ternion-engine", daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

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
    def start(cls, command: aio.Command = "ternion", **options: Any) -> Engine:
        """Starts ``command`` and completes the handshake (see
        :meth:`ternion.aio.Engine.start` for the keywords)."""
        loop = _Loop()
        try:
            core = loop.run(aio.Engine.start(command, **options))
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
        timeout: float | None = None,
        **limits: Any,
    ) -> BestMove:
        return self._run(self._core.go(limit, searchmoves=searchmoves, timeout=timeout, **limits))

    def analysis(
        self,
        limit: Limit | None = None,
        *,
        searchmoves: Sequence[str] | None = None,
        line_timeout: float = aio.LINE_TIMEOUT,
        **limits: Any,
    ) -> Analysis:
        started = self._core.analysis(limit, searchmoves=searchmoves, line_timeout=line_timeout, **limits)
        return Analysis(self._run(started), self._loop)

    def ponder(
        self,
        limit: Limit | None = None,
        *,
        searchmoves: Sequence[str] | None = None,
        line_timeout: float = aio.LINE_TIMEOUT,
        **limits: Any,
    ) -> Analysis:
        started = self._core.ponder(limit, searchmoves=searchmoves, line_timeout=line_timeout, **limits)
        return Analysis(self._run(started), self._loop)

    def quit(self, *, timeout: float = aio.QUIT_TIMEOUT) -> int | None:
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
    def done(self) -> bool:
        return self._core.done

    def __iter__(self) -> Iterator[Info]:
        return self

    def __next__(self) -> Info:
        try:
            return self._loop.run(self._core.__anext__())
        except StopAsyncIteration:
            raise StopIteration from None

    def wait(self, *, timeout: float = aio.UNBOUNDED_SEARCH_TIMEOUT) -> BestMove:
        return self._loop.run(self._core.wait(timeout=timeout))

    def stop(self, *, timeout: float = aio.COMMAND_TIMEOUT) -> BestMove:
        return self._loop.run(self._core.stop(timeout=timeout))

    def ponderhit(self) -> None:
        self._loop.run(self._core.ponderhit())

    def __enter__(self) -> Analysis:
        return self

    def __exit__(self, *_exc: object) -> None:
        if not self._core.done and not self._loop.loop.is_closed():
            self.stop()
