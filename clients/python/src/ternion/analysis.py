"""A running search (an analysis, a ponder, the search under ``go``), read through the
engine's :class:`~ternion.channel.Channel` to its ``bestmove``.

A search is safe to cancel: a read that is cancelled (``asyncio.wait_for``,
``task.cancel()``, a Ctrl-C in the API without ``await``) sends ``stop`` and reads to the
``bestmove`` in the background, so the engine takes its next command.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable

from . import protocol
from .channel import Channel
from .errors import ProtocolError
from .protocol import BestMove, Info

STOP_TIMEOUT = 10.0
"""Seconds a stopped search is given for its ``bestmove``."""


class AnalysisComplete(Exception):
    """:meth:`Analysis.get` after the search's last ``info`` line was read."""


class Analysis:
    """A running search: iterate it (``async for info in analysis``) or :meth:`get` its
    ``info`` lines until the search ends by its limits; :meth:`stop` ends it early. Either
    way :attr:`best` is its :class:`~ternion.protocol.BestMove` once it has ended."""

    def __init__(
        self,
        channel: Channel,
        *,
        speaks_ugi: bool,
        line_timeout: float | None,
        max_noise: int,
        after: Callable[[], Awaitable[None]] | None = None,
    ):
        self._channel = channel
        self._speaks_ugi = speaks_ugi
        self._line_timeout = line_timeout
        self._max_noise = max_noise
        self._after = after
        self._lines: dict[int | None, Info] = {}
        self._strings: deque[Info] = deque(maxlen=100)
        self._reading = asyncio.Lock()
        self._stopped = False
        self._stopping: asyncio.Future[BestMove] | None = None
        self.best: BestMove | None = None

    @property
    def done(self) -> bool:
        """Whether the search has ended (its ``bestmove`` was read)."""
        return self.best is not None

    @property
    def stopping(self) -> bool:
        """Whether a cancelled read left the search being stopped in the background."""
        return self._stopping is not None and self.best is None

    @property
    def info(self) -> Info | None:
        """The latest ``info`` line of the first principal variation seen so far."""
        return self._lines.get(1) or self._lines.get(None)

    @property
    def multipv(self) -> list[Info]:
        """The latest ``info`` line of each principal variation (``MultiPV``), first to
        last."""
        return [self._lines[k] for k in sorted(self._lines, key=lambda k: k or 0)]

    def empty(self) -> bool:
        """Whether every line the engine has written so far was read: :meth:`get` would
        wait for the engine."""
        return self.best is not None or not self._channel.has_line()

    async def get(self) -> Info:
        """The next ``info`` line, by the ``line_timeout`` given (else no deadline);
        :class:`AnalysisComplete` once the search has ended."""
        info = await self._next(self._line_timeout)
        if info is None:
            raise AnalysisComplete()
        return info

    def __aiter__(self) -> AsyncIterator[Info]:
        return self

    async def __anext__(self) -> Info:
        info = await self._next(self._line_timeout)
        if info is None:
            raise StopAsyncIteration
        return info

    async def _next(self, timeout: float | None) -> Info | None:
        """The next ``info`` line within ``timeout`` seconds (``None``: no deadline), or
        ``None`` once the ``bestmove`` has come. Cancelled, the search is stopped in the
        background."""
        if self.best is not None:
            return None
        if self._stopping is not None:
            await self.settled()
            return None
        deadline = None if timeout is None else asyncio.get_running_loop().time() + timeout
        try:
            async with self._reading:
                return await self._read(deadline)
        except asyncio.CancelledError:
            self._stop_in_background(STOP_TIMEOUT)
            raise

    async def _read(self, deadline: float | None) -> Info | None:
        """Reads to the next ``info`` line (returned) or the ``bestmove`` (``None``)."""
        if self.best is not None:
            return None
        channel = self._channel
        noise = 0
        while True:
            line = await channel.line(deadline, "the search's next line")
            word = line.split(maxsplit=1)[0] if line.strip() else ""
            if word == "info":
                try:
                    info = protocol.parse_info(line, self._speaks_ugi)
                except ProtocolError as error:
                    raise await channel.fail(error) from None
                if info.string is not None:
                    self._strings.append(info)
                elif info.score is not None or info.pv:
                    self._lines[info.multipv] = info
                return info
            if word == "bestmove":
                try:
                    move, ponder = protocol.parse_bestmove(line)
                except ProtocolError as error:
                    raise await channel.fail(error) from None
                self.best = BestMove(move, ponder, tuple(self._strings) + tuple(self.multipv))
                if self._after is not None:
                    after, self._after = self._after, None
                    await after()
                return None
            noise += 1
            if noise > self._max_noise:
                raise await channel.fail(
                    ProtocolError(f"the engine wrote {noise} lines that are no search output")
                )

    async def wait(self, *, timeout: float | None = None) -> BestMove:
        """Waits for the search to end by its limits: ``timeout`` seconds in all (else no
        deadline but the ``line_timeout`` given for each line), past which the engine is
        given up. Cancelled, the search is stopped."""
        deadline = None if timeout is None else asyncio.get_running_loop().time() + timeout
        while self.best is None:
            left = self._line_timeout
            if deadline is not None:
                left = max(0.0, deadline - asyncio.get_running_loop().time())
            await self._next(left)
        return self.best

    async def stop(self, *, timeout: float = STOP_TIMEOUT) -> BestMove:
        """Ends the search and returns its move, read within ``timeout`` seconds (else the
        engine is given up). Cancelled, the stop goes on in the background."""
        if self.best is not None:
            return self.best
        if self._stopping is None:
            self._channel.usable()
            self._stop_in_background(timeout)
        return await self.settled()

    async def ponderhit(self) -> None:
        """The expected move was played: the pondering search goes on by its limits."""
        if self.best is None and not self._stopped:
            await self._channel.send("ponderhit")

    def _stop_in_background(self, timeout: float) -> None:
        if self.best is None and self._stopping is None and not self._channel.closed:
            self._stopping = asyncio.ensure_future(self._stop_and_read(timeout))
            # Retrieved here too, so a failure nobody awaits is not reported as lost.
            self._stopping.add_done_callback(lambda task: task.cancelled() or task.exception())

    async def _stop_and_read(self, timeout: float) -> BestMove:
        if not self._stopped:
            self._stopped = True
            await self._channel.send("stop")
        deadline = asyncio.get_running_loop().time() + timeout
        while self.best is None:
            async with self._reading:
                await self._read(deadline)
        return self.best

    async def settled(self) -> BestMove:
        """Waits for a search being stopped in the background to end; its move."""
        stopping = self._stopping
        assert stopping is not None
        return await asyncio.shield(stopping)

    async def __aenter__(self) -> Analysis:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        if self.best is None and not self._channel.closed:
            await self.stop()
