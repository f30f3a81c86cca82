"""The asyncio engine: one engine process, driven line by line.

Every wait has a deadline; an engine that dies, floods, writes what is not the protocol or
does not answer in time raises an :class:`~ternion.errors.EngineError`, and is then killed
and reaped. ``async with await Engine.start(...)`` always ends the process.

:mod:`ternion.engine` gives the same API without ``await``.
"""

from __future__ import annotations

import asyncio
import os
import shlex
from collections import deque
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import protocol
from .errors import CommandRefused, EngineBusy, EngineError, EngineTerminated, EngineTimeout, ProtocolError
from .protocol import BestMove, Info, Limit, Options, OptionValue

Command = str | Sequence[str]

MAX_LINE = 4 * 1024 * 1024
"""The longest line read from an engine; a longer one is a :class:`ProtocolError`."""
MAX_NOISE = 1000
"""Lines that answer nothing (neither the awaited reply nor an ``info`` line) taken while
waiting for one reply before the engine is given up as writing garbage."""
QUEUE_LINES = 1024
"""Lines read ahead of the client; the engine waits when they are all unread."""
START_TIMEOUT = 10.0
"""Seconds for the handshake (``ugi`` to ``ugiok``)."""
COMMAND_TIMEOUT = 10.0
"""Seconds for an answer that needs no search (``isready``, ``query``, an option set)."""
SEARCH_MARGIN = 10.0
"""Seconds allowed beyond a search's own time limit for its ``bestmove``."""
UNBOUNDED_SEARCH_TIMEOUT = 300.0
"""Seconds a search bounded by depth, nodes or mate only may take, unless told otherwise."""
LINE_TIMEOUT = 120.0
"""Seconds an analysis waits for its next line, unless told otherwise."""
QUIT_TIMEOUT = 5.0
"""Seconds an engine is given to exit after ``quit`` before it is killed."""

_EOF = object()


@dataclass
class _Failure:
    error: EngineError


@dataclass
class _Collected:
    """The ``info`` lines read while waiting for a reply."""

    infos: list[Info] = field(default_factory=list)

    def errors(self) -> list[str]:
        return protocol.error_lines(self.infos)


class Engine:
    """A UGI engine (ternion, or any engine that speaks UGI; UCI spellings as ternion
    accepts them). Start one with :meth:`start`."""

    def __init__(self, process: asyncio.subprocess.Process, command: list[str], max_noise: int):
        self._process = process
        self.command = command
        self._max_noise = max_noise
        self._lines: asyncio.Queue[object] = asyncio.Queue(QUEUE_LINES)
        self._stderr: deque[str] = deque(maxlen=20)
        self._lock = asyncio.Lock()
        self._search: Analysis | None = None
        self._closed = False
        self._failure: EngineError | None = None
        self.id: dict[str, str] = {}
        self.options = Options()
        self.speaks_ugi = True
        """Whether the engine answered the handshake as a UGI engine (``ugiok``); one that
        answered ``uciok`` is a UCI engine, which has no ``query`` (it knows no rules)."""
        self._tasks = [
            asyncio.ensure_future(self._read_stdout()),
            asyncio.ensure_future(self._read_stderr()),
        ]

    # The process -------------------------------------------------------------------------

    @classmethod
    async def start(
        cls,
        command: Command = "ternion",
        *,
        timeout: float = START_TIMEOUT,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        max_line: int = MAX_LINE,
        max_noise: int = MAX_NOISE,
    ) -> Engine:
        """Starts ``command`` (a command line, split as a shell would, or a list of
        arguments) and completes the handshake within ``timeout`` seconds: the engine's
        ``id`` and its :attr:`options` are then known."""
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ValueError("an empty engine command")
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=dict(env) if env is not None else None,
                cwd=cwd,
                limit=max_line,
            )
        except OSError as error:
            raise EngineTerminated(f"{argv[0]} could not be started: {error}") from None
        engine = cls(process, argv, max_noise)
        try:
            await engine._handshake(timeout)
        except BaseException:
            await engine._kill()
            raise
        return engine

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def returncode(self) -> int | None:
        return self._process.returncode

    async def _read_stdout(self) -> None:
        stream = self._process.stdout
        assert stream is not None
        try:
            while True:
                try:
                    raw = await stream.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    await self._lines.put(
                        _Failure(ProtocolError("the engine wrote a line longer than its limit"))
                    )
                    return
                if not raw:
                    await self._lines.put(_EOF)
                    return
                await self._lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        except asyncio.CancelledError:
            pass

    async def _read_stderr(self) -> None:
        stream = self._process.stderr
        assert stream is not None
        try:
            while True:
                chunk = await stream.read(4096)
                if not chunk:
                    return
                for line in chunk.decode("utf-8", "replace").splitlines():
                    if line.strip():
                        self._stderr.append(line[:300])
        except asyncio.CancelledError:
            pass

    def _stderr_tail(self) -> str:
        return " | ".join(list(self._stderr)[-3:])

    async def _kill(self) -> None:
        """Ends the process at once and reaps it."""
        self._closed = True
        if self._process.returncode is None:
            try:
                self._process.kill()
            except ProcessLookupError:
                pass
        await self._reap()

    async def _reap(self) -> None:
        try:
            await asyncio.wait_for(self._process.wait(), QUIT_TIMEOUT)
        except asyncio.TimeoutError:  # pragma: no cover - a process that survives SIGKILL
            pass
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        # The process's transport holds its pipes. asyncio closes it by itself only once
        # every pipe has been read to its end; the client stops reading when it gives an
        # engine up, so it closes the transport here (asyncio's Process has no public way
        # to): no file stays open, and no loop closed later finds a transport to close.
        transport = getattr(self._process, "_transport", None)
        if transport is not None:
            transport.close()
        await asyncio.sleep(0)

    async def _fail(self, error: EngineError) -> EngineError:
        """Kills the engine and returns ``error`` to raise; later commands raise it too."""
        self._failure = error
        await self._kill()
        return error

    def _usable(self) -> None:
        if self._failure is not None:
            raise EngineTerminated(f"the engine was ended: {self._failure}")
        if self._closed:
            raise EngineTerminated("the engine was closed")

    # Lines -------------------------------------------------------------------------------

    async def _send(self, line: str) -> None:
        self._usable()
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write((line + "\n").encode())
            await asyncio.wait_for(stdin.drain(), COMMAND_TIMEOUT)
        except asyncio.TimeoutError:
            raise await self._fail(EngineTimeout(f"the engine did not read {line.split()[0]!r}")) from None
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            await self._reap_after_death()
            error = EngineTerminated(
                f"the engine ended before {line.split()[0]!r}",
                self._process.returncode,
                self._stderr_tail(),
            )
            self._failure = error
            raise error from None

    async def _reap_after_death(self) -> None:
        self._closed = True
        try:
            await asyncio.wait_for(self._process.wait(), QUIT_TIMEOUT)
        except asyncio.TimeoutError:
            pass
        await self._kill()

    async def _line(self, deadline: float | None, waiting_for: str) -> str:
        """The next line, by ``deadline`` (the loop's time)."""
        loop = asyncio.get_running_loop()
        left = None if deadline is None else max(0.0, deadline - loop.time())
        try:
            item = await asyncio.wait_for(self._lines.get(), left)
        except asyncio.TimeoutError:
            raise await self._fail(
                EngineTimeout(f"no {waiting_for} from the engine within the time allowed")
            ) from None
        if item is _EOF:
            await self._reap_after_death()
            error = EngineTerminated(
                f"the engine ended while {waiting_for} was awaited",
                self._process.returncode,
                self._stderr_tail(),
            )
            self._failure = error
            raise error
        if isinstance(item, _Failure):
            raise await self._fail(item.error)
        assert isinstance(item, str)
        return item

    async def _until(
        self, first_word: Sequence[str], deadline: float | None, collected: _Collected, waiting_for: str
    ) -> str:
        """Reads lines until one starts with a word of ``first_word`` (returned), keeping
        the ``info`` lines in ``collected``."""
        noise = 0
        while True:
            line = await self._line(deadline, waiting_for)
            word = line.split(maxsplit=1)[0] if line.strip() else ""
            if word in first_word:
                return line
            if word == "info":
                try:
                    collected.infos.append(protocol.parse_info(line, self.speaks_ugi))
                except ProtocolError as error:
                    raise await self._fail(error) from None
                if len(collected.infos) > 100_000:
                    collected.infos = collected.infos[-1000:]
                continue
            noise += 1
            if noise > self._max_noise:
                raise await self._fail(
                    ProtocolError(
                        f"the engine wrote {noise} lines that are no answer while {waiting_for} "
                        f"was awaited (the last: {line[:80]!r})"
                    )
                )

    def _deadline(self, seconds: float | None) -> float | None:
        return None if seconds is None else asyncio.get_running_loop().time() + seconds

    # The handshake and the commands that need no search ------------------------------------

    async def _handshake(self, timeout: float) -> None:
        await self._send("ugi")
        deadline = self._deadline(timeout)
        noise = 0
        while True:
            line = await self._line(deadline, "ugiok")
            words = line.split()
            if not words:
                continue
            if words[0] in ("ugiok", "uciok"):
                self.speaks_ugi = words[0] == "ugiok"
                return
            if words[0] == "id" and len(words) >= 2:
                self.id[words[1]] = line.split(words[1], 1)[1].strip()
            elif words[0] == "option":
                try:
                    self.options.add(protocol.parse_option(line))
                except ProtocolError:
                    noise += 1
            elif words[0] != "info":
                noise += 1
            if noise > self._max_noise:
                raise await self._fail(ProtocolError("the engine's handshake is no UGI handshake"))

    def _idle(self) -> None:
        self._usable()
        if self._search is not None and not self._search.done:
            raise EngineBusy("a search runs: stop it (or wait for it) first")

    async def _checked(self, lines: Iterable[str], timeout: float, what: str) -> list[Info]:
        """Sends ``lines`` then ``isready``; the ``info`` lines read up to ``readyok``.
        An ``info string error`` among them raises :class:`CommandRefused`."""
        async with self._lock:
            self._idle()
            for line in lines:
                await self._send(line)
            await self._send("isready")
            collected = _Collected()
            await self._until(("readyok",), self._deadline(timeout), collected, f"readyok after {what}")
        if collected.errors():
            raise CommandRefused(collected.errors())
        return collected.infos

    async def isready(self, *, timeout: float = COMMAND_TIMEOUT) -> None:
        """Waits until the engine answers ``isready``."""
        await self._checked((), timeout, "isready")

    async def configure(
        self, options: Mapping[str, OptionValue], *, timeout: float = COMMAND_TIMEOUT
    ) -> None:
        """Sets options, each checked against the kind and bounds the engine listed before
        any is sent (``KeyError``, ``ValueError``); the engine's refusal raises
        :class:`CommandRefused`. A large ``Hash`` can take a while: give ``timeout``."""
        lines = protocol.check_values(options, self.options)
        await self._checked(lines, timeout, "setoption")

    async def set_option(
        self, name: str, value: OptionValue = None, *, timeout: float = COMMAND_TIMEOUT
    ) -> None:
        """Sets one option (a button takes no value); see :meth:`configure`."""
        await self.configure({name: value}, timeout=timeout)

    async def set_variant(self, variant: str, *, timeout: float = COMMAND_TIMEOUT) -> None:
        """Selects a game (``lielow``, ``lielow9``, ``egaraguti``, ``lerontenin`` for
        ternion) at its start position."""
        await self.configure({"UCI_Variant": protocol.token(variant, "a variant")}, timeout=timeout)

    async def new_game(self, *, timeout: float = COMMAND_TIMEOUT) -> None:
        """``uginewgame`` (``ucinewgame`` for a UCI engine): the search forgets what it
        learned; the start position."""
        command = "uginewgame" if self.speaks_ugi else "ucinewgame"
        await self._checked((command,), timeout, command)

    async def position(
        self,
        fen: str | None = None,
        moves: Iterable[str] = (),
        *,
        variant: str | None = None,
        timeout: float = COMMAND_TIMEOUT,
    ) -> None:
        """Sets the position: the start (or the position string ``fen``), then ``moves``;
        in ``variant`` when given. A bad position string or an illegal move raises
        :class:`CommandRefused` (an illegal move forfeits the game by the side that was to
        play it, as the protocol says)."""
        line = protocol.position_line(fen, moves, variant)
        await self._checked((line,), timeout, "position")

    async def query(self, what: str, *, timeout: float = COMMAND_TIMEOUT) -> str:
        """The engine's ``response`` to ``query <what>``."""
        if "\n" in what or "\r" in what or not what.strip():
            raise ValueError(f"a query is one line, not {what!r}")
        if not self.speaks_ugi:
            raise EngineError(f"query {what}: a UCI engine (it said uciok) answers no query")
        async with self._lock:
            self._idle()
            await self._send(f"query {what}")
            collected = _Collected()
            line = await self._until(
                ("response",), self._deadline(timeout), collected, f"the response to query {what}"
            )
        answer = line.split(maxsplit=1)[1].strip() if len(line.split()) > 1 else ""
        if answer == "error":
            raise CommandRefused(collected.errors() or [f"query {what}: error"])
        return answer

    async def legal_moves(self) -> list[str]:
        """The legal moves of the position, in the engine's stable order."""
        answer = await self.query("legalmoves")
        return [] if answer in ("none", "") else answer.split()

    async def is_legal(self, move: str) -> bool:
        return await self._boolean(f"islegal {protocol.token(move, 'a move')}")

    async def turn(self) -> int:
        """1 when the first player is to move, else 2."""
        return 1 if await self._boolean("p1turn") else 2

    async def is_game_over(self) -> bool:
        return await self._boolean("gameover")

    async def result(self) -> str | None:
        """``p1win``, ``p2win``, ``draw``, or ``None`` while the game goes on."""
        answer = await self.query("result")
        return None if answer == "none" else answer

    async def reason(self) -> str | None:
        """Why the game is over, in words (ternion's extension), or ``None``."""
        answer = await self.query("reason")
        return None if answer == "none" else answer

    async def fen(self) -> str:
        """The position string of the position."""
        return await self.query("fen")

    async def variant(self) -> str:
        return await self.query("variant")

    async def _boolean(self, what: str) -> bool:
        answer = await self.query(what)
        if answer not in ("true", "false"):
            raise await self._fail(ProtocolError(f"query {what} answered {answer[:80]!r}, not true or false"))
        return answer == "true"

    # Searches ----------------------------------------------------------------------------

    async def go(
        self,
        limit: Limit | None = None,
        *,
        searchmoves: Sequence[str] | None = None,
        timeout: float | None = None,
        **limits: Any,
    ) -> BestMove:
        """Searches the position within ``limit`` (or the same limits as keywords:
        ``go(time=0.1)``, ``go(depth=8)``, ``go(p1time=60, p2time=60, p1inc=1)``) and
        returns the :class:`~ternion.protocol.BestMove`. A search with no limit would never
        end: use :meth:`analysis`. ``timeout`` bounds the wait (by default the time limit
        and a margin, or five minutes for a depth or node limit)."""
        limit = _limit(limit, limits)
        if not limit.is_bounded():
            raise ValueError("a go without a limit searches until stopped: use analysis()")
        search = await self._start_search(limit, searchmoves, ponder=False)
        if timeout is None:
            longest = limit.longest()
            timeout = longest + SEARCH_MARGIN if longest is not None else UNBOUNDED_SEARCH_TIMEOUT
        return await search.wait(timeout=timeout)

    async def analysis(
        self,
        limit: Limit | None = None,
        *,
        searchmoves: Sequence[str] | None = None,
        line_timeout: float = LINE_TIMEOUT,
        **limits: Any,
    ) -> Analysis:
        """Starts a search (until stopped, or within ``limit``) and returns it: iterate it
        for its ``info`` lines as they come, then :meth:`Analysis.stop` (or leave its
        ``async with``). ``line_timeout`` bounds the wait for each line."""
        limit = _limit(limit, limits)
        return await self._start_search(limit, searchmoves, ponder=False, line_timeout=line_timeout)

    async def ponder(
        self,
        limit: Limit | None = None,
        *,
        searchmoves: Sequence[str] | None = None,
        line_timeout: float = LINE_TIMEOUT,
        **limits: Any,
    ) -> Analysis:
        """``go ponder``: searches on the opponent's time; :meth:`Analysis.ponderhit` when
        the expected move was played (the search then runs by ``limit``), or
        :meth:`Analysis.stop`."""
        limit = _limit(limit, limits)
        return await self._start_search(limit, searchmoves, ponder=True, line_timeout=line_timeout)

    async def _start_search(
        self,
        limit: Limit,
        searchmoves: Sequence[str] | None,
        *,
        ponder: bool,
        line_timeout: float = LINE_TIMEOUT,
    ) -> Analysis:
        async with self._lock:
            self._idle()
            # A search without a limit says `infinite`, as UCI has it, for every engine.
            infinite = not ponder and not limit.is_bounded()
            line = protocol.go_line(limit, searchmoves=searchmoves, ponder=ponder, infinite=infinite)
            await self._send(line)
            self._search = Analysis(self, line_timeout)
            return self._search

    # The end -----------------------------------------------------------------------------

    async def quit(self, *, timeout: float = QUIT_TIMEOUT) -> int | None:
        """Stops any search, sends ``quit`` and waits ``timeout`` seconds for the process to
        exit, then kills it; the process is reaped either way. Its exit status."""
        if self._closed:
            return self._process.returncode
        self._closed = True
        try:
            if self._process.returncode is None and self._process.stdin is not None:
                self._process.stdin.write(b"stop\nquit\n")
                await asyncio.wait_for(self._process.stdin.drain(), timeout)
            await asyncio.wait_for(self._process.wait(), timeout)
        except (asyncio.TimeoutError, BrokenPipeError, ConnectionResetError, RuntimeError):
            pass
        await self._kill()
        return self._process.returncode

    close = quit

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.quit()

    def __repr__(self) -> str:
        name = self.id.get("name", self.command[0])
        state = "closed" if self._closed else f"pid {self._process.pid}"
        return f"<Engine {name!r} ({state})>"


class Analysis:
    """A running search: iterate it (``async for info in analysis``) for its ``info``
    lines until the search ends by its limits; :meth:`stop` ends it early. Either way
    :attr:`best` is its :class:`~ternion.protocol.BestMove` once it has ended."""

    def __init__(self, engine: Engine, line_timeout: float):
        self._engine = engine
        self._line_timeout = line_timeout
        self._infos: dict[int | None, Info] = {}
        self._strings: list[Info] = []
        self.best: BestMove | None = None
        self._stopped = False

    @property
    def done(self) -> bool:
        return self.best is not None

    @property
    def info(self) -> Info | None:
        """The last ``info`` line of the first principal variation seen so far."""
        return self._infos.get(1) or self._infos.get(None)

    def __aiter__(self) -> AsyncIterator[Info]:
        return self

    async def __anext__(self) -> Info:
        info = await self._next(self._line_timeout)
        if info is None:
            raise StopAsyncIteration
        return info

    async def _next(self, timeout: float) -> Info | None:
        """The next ``info`` line, or ``None`` once the ``bestmove`` has come."""
        if self.best is not None:
            return None
        engine = self._engine
        deadline = engine._deadline(timeout)
        noise = 0
        while True:
            line = await engine._line(deadline, "the search's next line")
            word = line.split(maxsplit=1)[0] if line.strip() else ""
            if word == "info":
                try:
                    info = protocol.parse_info(line, engine.speaks_ugi)
                except ProtocolError as error:
                    raise await engine._fail(error) from None
                if info.string is not None:
                    self._strings = (self._strings + [info])[-100:]
                elif info.score is not None or info.pv:
                    self._infos[info.multipv] = info
                return info
            if word == "bestmove":
                try:
                    move, ponder = protocol.parse_bestmove(line)
                except ProtocolError as error:
                    raise await engine._fail(error) from None
                infos = tuple(self._strings) + tuple(
                    self._infos[k] for k in sorted(self._infos, key=lambda k: k or 0)
                )
                self.best = BestMove(move, ponder, infos)
                engine._search = None
                return None
            noise += 1
            if noise > engine._max_noise:
                raise await engine._fail(
                    ProtocolError(f"the engine wrote {noise} lines that are no search output")
                )

    async def wait(self, *, timeout: float = UNBOUNDED_SEARCH_TIMEOUT) -> BestMove:
        """Waits at most ``timeout`` seconds in all for the search to end by its limits."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self.best is None:
            left = deadline - asyncio.get_running_loop().time()
            await self._next(max(0.0, left))
        return self.best

    async def stop(self, *, timeout: float = COMMAND_TIMEOUT) -> BestMove:
        """Ends the search and returns its move."""
        if self.best is None:
            if not self._stopped:
                self._stopped = True
                await self._engine._send("stop")
            await self.wait(timeout=timeout)
        assert self.best is not None
        return self.best

    async def ponderhit(self) -> None:
        """The expected move was played: the pondering search goes on by its limits."""
        if self.best is None:
            await self._engine._send("ponderhit")

    async def __aenter__(self) -> Analysis:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        if self.best is None and not self._engine._closed:
            await self.stop()


def _limit(limit: Limit | None, words: Mapping[str, Any]) -> Limit:
    if limit is not None and words:
        raise ValueError("give a Limit or limit keywords, not both")
    if limit is not None:
        return limit
    try:
        return Limit(**words)
    except TypeError as error:
        raise TypeError(f"not a limit of go: {error}") from None
