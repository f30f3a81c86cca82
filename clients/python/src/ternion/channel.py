"""One engine process and its lines: the line reader under :mod:`ternion.aio`.

A :class:`Channel` starts the process in a process group of its own, writes lines to it,
reads its lines ahead into a bounded buffer and hands them out one at a time, each wait by a
deadline. Reading is safe to cancel: a wait that is cancelled takes no line, so the next
reader finds every line in order. Every line written and read is logged at DEBUG on the
``ternion.engine`` logger.

The channel knows nothing of the protocol's meaning, and nothing refers from it back to
the engine object, so an engine that is forgotten can be collected (and ended) while the
channel's reader tasks still run; an engine whose loop closes is ended by those tasks.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections import deque
from collections.abc import Mapping, Sequence

from .errors import EngineError, EngineTerminatedError, EngineTimeoutError, ProtocolError

logger = logging.getLogger("ternion.engine")

QUEUE_LINES = 1024
"""Lines read ahead of the client; the engine waits when they are all unread."""
QUIT_TIMEOUT = 5.0
"""Seconds an engine is given to exit after ``quit`` before it is killed."""
SEND_TIMEOUT = 10.0
"""Seconds the engine is given to take a line written to it."""

_EOF = object()


class Channel:
    """The process of one engine and its lines. Start one with :meth:`open`."""

    def __init__(self, process: asyncio.subprocess.Process, argv: list[str]):
        self.process = process
        self.argv = argv
        self.failure: EngineError | None = None
        """Why the engine was given up, once it was."""
        self.closed = False
        """Whether the process was ended (quit, given up, or abandoned)."""
        self._items: deque[object] = deque()
        self._readable = asyncio.Event()
        self._room = asyncio.Event()
        self._room.set()
        self._stderr: deque[str] = deque(maxlen=20)
        self._tasks = [
            asyncio.ensure_future(_read_stdout(self)),
            asyncio.ensure_future(_read_stderr(self)),
        ]

    @classmethod
    async def open(
        cls,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None,
        cwd: str | os.PathLike[str] | None,
        max_line: int,
    ) -> Channel:
        """Starts ``argv`` in a new session (its own process group, so that ending the
        engine ends whatever it started too)."""
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=dict(env) if env is not None else None,
                cwd=cwd,
                limit=max_line,
                start_new_session=os.name == "posix",
            )
        except OSError as error:
            raise EngineTerminatedError(f"{argv[0]} could not be started: {error}") from None
        logger.debug("%d started: %s", process.pid, " ".join(argv))
        return cls(process, list(argv))

    @property
    def pid(self) -> int:
        return self.process.pid

    # Writing -----------------------------------------------------------------------------

    def usable(self) -> None:
        """Raises :class:`EngineTerminatedError` once the engine is given up or closed."""
        if self.failure is not None:
            raise EngineTerminatedError(f"the engine was ended: {self.failure}")
        if self.closed:
            raise EngineTerminatedError("the engine was closed")

    async def send(self, *lines: str) -> None:
        """Writes ``lines`` at once (a cancellation cannot split them), then waits for the
        engine to take them."""
        self.usable()
        stdin = self.process.stdin
        assert stdin is not None
        for line in lines:
            logger.debug("%d << %s", self.pid, line)
        what = lines[0].split()[0] if lines and lines[0].split() else "a line"
        try:
            stdin.write("".join(line + "\n" for line in lines).encode())
            await asyncio.wait_for(stdin.drain(), SEND_TIMEOUT)
        except asyncio.TimeoutError:
            raise await self.fail(EngineTimeoutError(f"the engine did not read {what!r}")) from None
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            raise await self._died(f"the engine ended before {what!r}") from None

    # Reading -----------------------------------------------------------------------------

    def has_line(self) -> bool:
        """Whether a line (or the end of the output) waits to be read."""
        return bool(self._items)

    async def next_line(self, deadline: float | None) -> str | None:
        """The next line, or ``None`` when ``deadline`` (the loop's time) passes first;
        the engine is given up when its output ended or did not read."""
        loop = asyncio.get_running_loop()
        while not self._items:
            self._readable.clear()
            left = None if deadline is None else max(0.0, deadline - loop.time())
            try:
                # Waiting on the event (not on a queue's get) takes nothing: a cancelled
                # or timed-out wait leaves every line for the next reader.
                await asyncio.wait_for(self._readable.wait(), left)
            except asyncio.TimeoutError:
                return None
        item = self._items.popleft()
        if len(self._items) < QUEUE_LINES:
            self._room.set()
        if item is _EOF:
            self._items.appendleft(item)
            raise await self._died("the engine ended")
        if isinstance(item, EngineError):
            raise await self.fail(item)
        assert isinstance(item, str)
        return item

    async def line(self, deadline: float | None, waiting_for: str) -> str:
        """The next line by ``deadline``; past it the engine is given up
        (:class:`EngineTimeoutError`)."""
        try:
            line = await self.next_line(deadline)
        except EngineTerminatedError as error:
            raise EngineTerminatedError(
                f"the engine ended while {waiting_for} was awaited", error.returncode, error.stderr
            ) from None
        if line is None:
            raise await self.fail(
                EngineTimeoutError(f"no {waiting_for} from the engine within the time allowed")
            )
        return line

    def _put(self, item: object) -> None:
        self._items.append(item)
        self._readable.set()
        if len(self._items) >= QUEUE_LINES:
            self._room.clear()

    def stderr_tail(self) -> str:
        return " | ".join(list(self._stderr)[-3:])

    # The end -----------------------------------------------------------------------------

    async def fail(self, error: EngineError) -> EngineError:
        """Gives the engine up: ends it, and returns ``error`` to raise; every later call
        raises :class:`EngineTerminatedError` naming it."""
        if self.failure is None:
            self.failure = error
        await self.kill()
        return error

    async def _died(self, what: str) -> EngineError:
        """The engine's output ended: reaps it, and returns the error to raise."""
        self.closed = True
        await self._wait_exit(QUIT_TIMEOUT)
        error = EngineTerminatedError(what, self.process.returncode, self.stderr_tail())
        if self.failure is None:
            self.failure = error
        await self.kill()
        return error

    async def quit(self, timeout: float) -> int | None:
        """Sends ``stop`` and ``quit``, gives the process ``timeout`` seconds to exit, then
        ends its process group (what it left running too) and reaps it."""
        if not self.closed and self.process.returncode is None and self.process.stdin is not None:
            self.closed = True
            logger.debug("%d << stop, quit", self.pid)
            try:
                self.process.stdin.write(b"stop\nquit\n")
                await asyncio.wait_for(self.process.stdin.drain(), timeout)
            except (asyncio.TimeoutError, BrokenPipeError, ConnectionResetError, RuntimeError):
                pass
            await self._wait_exit(timeout)
        await self.kill()
        return self.process.returncode

    async def _wait_exit(self, timeout: float) -> None:
        """Waits for the process itself to exit. (``Process.wait`` also waits for its pipes
        to close, which a child it left running may hold open.)"""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.process.returncode is None and loop.time() < deadline:
            await asyncio.sleep(0.01)

    async def kill(self) -> None:
        """Ends the process group at once, reaps the process and closes its pipes."""
        self.closed = True
        self.end_group()
        try:
            await asyncio.wait_for(self.process.wait(), QUIT_TIMEOUT)
        except asyncio.TimeoutError:  # pragma: no cover - a process that survives SIGKILL
            pass
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.close_transport()
        await asyncio.sleep(0)

    def end_group(self) -> None:
        """SIGKILL to the engine's process group (the engine and what it started); no
        ``await``, so a finalizer may call it."""
        try:
            if os.name == "posix":
                os.killpg(self.process.pid, signal.SIGKILL)
            elif self.process.returncode is None:  # pragma: no cover - not POSIX
                self.process.kill()
        except (ProcessLookupError, PermissionError):
            pass

    def close_transport(self) -> None:
        # The process's transport holds its pipes. asyncio closes it by itself only once
        # every pipe has been read to its end; the client stops reading when it gives an
        # engine up, so it closes the transport here (asyncio's Process has no public way
        # to): no file stays open, and no loop closed later finds a transport to close.
        transport = getattr(self.process, "_transport", None)
        if transport is not None:
            transport.close()

    def abandon(self) -> None:
        """The engine object was collected without being quit: end the process group. The
        reader tasks then see the output end and close the transport."""
        if not self.closed:
            self.closed = True
            logger.debug("%d abandoned: ended", self.pid)
            self.end_group()


async def _read_stdout(channel: Channel) -> None:
    stream = channel.process.stdout
    assert stream is not None
    try:
        while True:
            await channel._room.wait()
            try:
                raw = await stream.readline()
            except (ValueError, asyncio.LimitOverrunError):
                channel._put(ProtocolError("the engine wrote a line longer than its limit"))
                return
            if not raw:
                logger.debug("%d >> (the end of its output)", channel.pid)
                channel._put(_EOF)
                break
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            logger.debug("%d >> %s", channel.pid, line)
            channel._put(line)
    except asyncio.CancelledError:
        if channel.closed:
            return
        # The loop is closing with the engine still running (asyncio.run cancels every
        # task as it ends): the engine must not outlive its loop.
        channel.closed = True
        channel.end_group()
    if channel.closed:
        # The engine was abandoned (or its loop is closing): reap it and close its pipes.
        try:
            await asyncio.wait_for(channel.process.wait(), QUIT_TIMEOUT)
        except (asyncio.TimeoutError, asyncio.CancelledError):  # pragma: no cover
            pass
        channel.close_transport()


async def _read_stderr(channel: Channel) -> None:
    stream = channel.process.stderr
    assert stream is not None
    try:
        while True:
            chunk = await stream.read(4096)
            if not chunk:
                return
            for line in chunk.decode("utf-8", "replace").splitlines():
                if line.strip():
                    channel._stderr.append(line[:300])
    except asyncio.CancelledError:
        pass
