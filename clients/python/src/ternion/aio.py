"""The asyncio engine: one engine process, driven line by line.

Every wait that needs no search has a deadline; an engine that dies, floods, writes what
is not the protocol or does not answer in time raises an
:class:`~ternion.errors.EngineError`, and is then ended (its process group killed and
reaped). ``async with await Engine.start(...)`` always ends the process.

Every call is safe to cancel (``asyncio.wait_for``, ``task.cancel()``): a cancelled search
is stopped and read to its ``bestmove``, a cancelled command read to its answer, in the
background, and the engine takes the next command as if nothing had happened.

:mod:`ternion.engine` gives the same API without ``await``.
"""

from __future__ import annotations

import asyncio
import shlex
import weakref
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from . import protocol
from .analysis import Analysis
from .channel import QUIT_TIMEOUT, Channel
from .errors import CommandRefusedError, EngineBusyError, EngineError, ProtocolError
from .protocol import BestMove, Info, Limit, Options, OptionValue

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .protocol import LimitWords

__all__ = ["Analysis", "Command", "Engine", "Protocol"]

Command = str | Sequence[str]
Protocol = Literal["ugi", "uci", "auto"]

MAX_LINE = 4 * 1024 * 1024
"""The longest line read from an engine; a longer one is a :class:`ProtocolError`."""
MAX_NOISE = 1000
"""Lines that answer nothing (neither the awaited reply nor an ``info`` line) taken while
waiting for one reply before the engine is given up as writing garbage."""
START_TIMEOUT = 10.0
"""Seconds for the handshake (``ugi`` to ``ugiok``)."""
AUTO_WAIT = 2.0
"""Seconds ``protocol="auto"`` waits for an answer to ``ugi`` before it says ``uci``."""
COMMAND_TIMEOUT = 10.0
"""Seconds for an answer that needs no search (``isready``, ``query``, an option set)."""
SEARCH_MARGIN = 10.0
"""Seconds allowed beyond a search's own time limit for its ``bestmove``."""
UNBOUNDED_SEARCH_TIMEOUT = 300.0
"""Seconds ``go`` waits for a search bounded by depth, nodes or mate only, unless told
otherwise."""

_HANDSHAKE_WORDS = ("id", "option", "ugiok", "uciok")


@dataclass
class _Collected:
    """The ``info`` lines read while waiting for a reply."""

    infos: list[Info] = field(default_factory=list)

    def errors(self) -> list[str]:
        return protocol.error_lines(self.infos)


class Engine:
    """A UGI engine (ternion, or any engine that speaks UGI), or a UCI engine. Start one
    with :meth:`start`."""

    def __init__(self, channel: Channel, max_noise: int):
        self._channel = channel
        self.command = channel.argv
        self._max_noise = max_noise
        self._lock = asyncio.Lock()
        self._search: Analysis | None = None
        self._pending: asyncio.Future[str] | None = None
        self._values: dict[str, OptionValue] = {}
        self.id: dict[str, str] = {}
        self.options = Options()
        self.speaks_ugi = True
        """Whether the engine speaks UGI (it answered ``ugiok``); a UCI engine
        (``uciok``) has no ``query`` (it knows no rules)."""
        # Nothing the channel's tasks hold refers back here, so a forgotten engine is
        # collected, and then its process group is ended.
        self._finalizer = weakref.finalize(self, channel.abandon)

    # The process -------------------------------------------------------------------------

    @classmethod
    async def start(
        cls,
        command: Command = "ternion",
        *,
        protocol: Protocol = "ugi",
        timeout: float = START_TIMEOUT,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        max_line: int = MAX_LINE,
        max_noise: int = MAX_NOISE,
    ) -> Engine:
        """Starts ``command`` (a command line, split as a shell would, or a list of
        arguments) in a process group of its own and completes the handshake within
        ``timeout`` seconds: the engine's ``id`` and its :attr:`options` are then known.

        ``protocol``: ``"ugi"`` says ``ugi``; ``"uci"`` says ``uci`` (a strict UCI engine:
        ``ucinewgame``, ``wtime``/``btime``); ``"auto"`` says ``ugi``, then ``uci`` when
        no handshake line has come within :data:`AUTO_WAIT` seconds."""
        if protocol not in ("ugi", "uci", "auto"):
            raise ValueError(f"protocol is ugi, uci or auto, not {protocol!r}")
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ValueError("an empty engine command")
        channel = await Channel.open(argv, env=env, cwd=cwd, max_line=max_line)
        engine = cls(channel, max_noise)
        try:
            await engine._handshake(protocol, timeout)
        except BaseException:
            engine._finalizer.detach()
            await channel.kill()
            raise
        return engine

    @property
    def pid(self) -> int:
        return self._channel.pid

    @property
    def returncode(self) -> int | None:
        return self._channel.process.returncode

    # Exchanges ---------------------------------------------------------------------------

    def _deadline(self, seconds: float | None) -> float | None:
        return None if seconds is None else asyncio.get_running_loop().time() + seconds

    async def _until(
        self, first_words: Sequence[str], deadline: float | None, collected: _Collected, waiting_for: str
    ) -> str:
        """Reads lines until one starts with a word of ``first_words`` (returned), keeping
        the ``info`` lines in ``collected``."""
        noise = 0
        while True:
            line = await self._channel.line(deadline, waiting_for)
            word = line.split(maxsplit=1)[0] if line.strip() else ""
            if word in first_words:
                return line
            if word == "info":
                try:
                    collected.infos.append(protocol.parse_info(line, self.speaks_ugi))
                except ProtocolError as error:
                    raise await self._channel.fail(error) from None
                if len(collected.infos) > 100_000:
                    collected.infos = collected.infos[-1000:]
                continue
            noise += 1
            if noise > self._max_noise:
                raise await self._channel.fail(
                    ProtocolError(
                        f"the engine wrote {noise} lines that are no answer while {waiting_for} "
                        f"was awaited (the last: {line[:80]!r})"
                    )
                )

    async def _settled(self) -> None:
        """Waits for what a cancelled call left to finish in the background (a search
        being stopped, an answer being read), then checks the engine takes commands. A
        search the caller still holds makes the engine busy."""
        pending, self._pending = self._pending, None
        if pending is not None:
            try:
                await asyncio.shield(pending)
            except EngineError:
                pass  # the engine was given up: usable() says so below
        self._channel.usable()
        search = self._search
        if search is not None and not search.done:
            if search.stopping:
                try:
                    await search.settled()
                except EngineError:
                    pass  # the engine was given up: usable() says so below
            else:
                raise EngineBusyError("a search runs: stop it (or wait for it) first")
        self._channel.usable()

    async def _exchange(
        self, lines: Sequence[str], answer: Sequence[str], timeout: float, what: str
    ) -> tuple[str, _Collected]:
        """Sends ``lines`` and reads to the line that starts with a word of ``answer``.
        Cancelled after sending, the answer is read in the background, so the next
        command does not take it for its own."""
        async with self._lock:
            await self._settled()
            await self._channel.send(*lines)
            deadline = self._deadline(timeout)
            collected = _Collected()
            reading = asyncio.ensure_future(self._until(answer, deadline, collected, what))
            # Retrieved here too, so a failure nobody awaits is not reported as lost.
            reading.add_done_callback(lambda task: task.cancelled() or task.exception())
            try:
                reply = await asyncio.shield(reading)
            except asyncio.CancelledError:
                self._pending = reading
                raise
        return reply, collected

    async def _checked(self, lines: Iterable[str], timeout: float, what: str) -> list[Info]:
        """Sends ``lines`` then ``isready``; the ``info`` lines read up to ``readyok``.
        An ``info string error`` among them raises :class:`CommandRefusedError`."""
        _, collected = await self._exchange(
            [*lines, "isready"], ("readyok",), timeout, f"readyok after {what}"
        )
        if collected.errors():
            raise CommandRefusedError(collected.errors())
        return collected.infos

    # The handshake and the commands that need no search ------------------------------------

    async def _handshake(self, protocol_name: Protocol, timeout: float) -> None:
        deadline = self._deadline(timeout)
        assert deadline is not None
        await self._channel.send("uci" if protocol_name == "uci" else "ugi")
        seen: set[str] = set()
        if protocol_name != "auto":
            await self._read_handshake(deadline, seen)
            return
        first_answer_by = min(deadline, asyncio.get_running_loop().time() + AUTO_WAIT)
        if await self._read_handshake(deadline, seen, first_answer_by=first_answer_by):
            return
        # No handshake line: a UCI engine (which may have said "unknown command").
        await self._channel.send("uci")
        await self._read_handshake(deadline, seen, until="uciok")
        if "ugiok" in seen:
            # A slow UGI engine answered both: it says UGI again, as it first could.
            await self._channel.send("ugi")
            await self._read_handshake(deadline, seen, until="ugiok")

    async def _read_handshake(
        self,
        deadline: float,
        seen: set[str],
        *,
        first_answer_by: float | None = None,
        until: str | None = None,
    ) -> bool:
        """Reads the handshake to ``ugiok``/``uciok`` (or to ``until``) by ``deadline``.
        With ``first_answer_by``, returns False when no handshake line has come by then."""
        noise = 0
        while True:
            if first_answer_by is not None and not seen:
                line = await self._channel.next_line(first_answer_by)
                if line is None:
                    return False
            else:
                line = await self._channel.line(deadline, until or "ugiok")
            words = line.split()
            if not words:
                continue
            if words[0] in _HANDSHAKE_WORDS:
                seen.add(words[0])
            if words[0] in ("ugiok", "uciok") and (until is None or words[0] == until):
                self.speaks_ugi = words[0] == "ugiok"
                return True
            if words[0] == "id" and len(words) >= 2:
                self.id[words[1]] = line.split(words[1], 1)[1].strip()
            elif words[0] == "option":
                try:
                    self.options.add(protocol.parse_option(line))
                except ProtocolError:
                    noise += 1
            elif words[0] not in ("info", "ugiok", "uciok"):
                noise += 1
            if noise > self._max_noise:
                raise await self._channel.fail(
                    ProtocolError("the engine's handshake is no UGI or UCI handshake")
                )

    async def isready(self, *, timeout: float = COMMAND_TIMEOUT) -> None:
        """Waits until the engine answers ``isready``."""
        await self._checked((), timeout, "isready")

    async def configure(
        self, options: Mapping[str, OptionValue], *, timeout: float = COMMAND_TIMEOUT
    ) -> None:
        """Sets options, each checked against the kind and bounds the engine listed before
        any is sent (``KeyError``, ``ValueError``); the engine's refusal raises
        :class:`CommandRefusedError`. A large ``Hash`` can take a while: give ``timeout``
        (seconds)."""
        lines = protocol.check_values(options, self.options)
        await self._checked(lines, timeout, "setoption")
        for name, value in options.items():
            self._values[protocol.normal_name(name)] = value

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
        :class:`CommandRefusedError` (an illegal move forfeits the game by the side that
        was to play it, as the protocol says)."""
        line = protocol.position_line(fen, moves, variant)
        await self._checked((line,), timeout, "position")

    async def query(self, what: str, *, timeout: float = COMMAND_TIMEOUT) -> str:
        """The engine's ``response`` to ``query <what>``."""
        if "\n" in what or "\r" in what or not what.strip():
            raise ValueError(f"a query is one line, not {what!r}")
        if not self.speaks_ugi:
            raise EngineError(f"query {what}: a UCI engine (it said uciok) answers no query")
        line, collected = await self._exchange(
            (f"query {what}",), ("response",), timeout, f"the response to query {what}"
        )
        answer = line.split(maxsplit=1)[1].strip() if len(line.split()) > 1 else ""
        if answer == "error":
            raise CommandRefusedError(collected.errors() or [f"query {what}: error"])
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
            raise await self._channel.fail(
                ProtocolError(f"query {what} answered {answer[:80]!r}, not true or false")
            )
        return answer == "true"

    # Searches ----------------------------------------------------------------------------

    async def go(
        self,
        limit: Limit | None = None,
        *,
        searchmoves: Sequence[str] | None = None,
        options: Mapping[str, OptionValue] | None = None,
        timeout: float | None = None,
        **limits: Unpack[LimitWords],
    ) -> BestMove:
        """Searches the position within ``limit`` (or the same limits as keywords, times in
        seconds: ``go(time=0.1)``, ``go(depth=8)``, ``go(p1time=60, p2time=60, p1inc=1)``)
        and returns the :class:`~ternion.protocol.BestMove`. ``options`` are set for this
        search only (restored after it). A search with no limit would never end: use
        :meth:`analysis`. ``timeout`` (seconds) bounds the wait: by default the time limit
        and a margin, or five minutes for a depth or node limit. Cancelled, the search is
        stopped and the engine goes on."""
        limit = protocol.limit_of(limit, limits)
        if not limit.is_bounded():
            raise ValueError("a go without a limit searches until stopped: use analysis()")
        search = await self._start_search(limit, searchmoves, options, ponder=False, line_timeout=None)
        if timeout is None:
            longest = limit.longest()
            timeout = longest + SEARCH_MARGIN if longest is not None else UNBOUNDED_SEARCH_TIMEOUT
        return await search.wait(timeout=timeout)

    async def analysis(
        self,
        limit: Limit | None = None,
        *,
        searchmoves: Sequence[str] | None = None,
        options: Mapping[str, OptionValue] | None = None,
        line_timeout: float | None = None,
        **limits: Unpack[LimitWords],
    ) -> Analysis:
        """Starts a search (until stopped, or within ``limit``) and returns it: iterate it
        for its ``info`` lines as they come (or :meth:`Analysis.get`), then
        :meth:`Analysis.stop` (or leave its ``async with``). An engine whose search is done
        may rightly be silent until stopped, so lines have no deadline unless
        ``line_timeout`` (seconds) gives one; bound a wait with ``asyncio.wait_for``, which
        stops the search when it cancels."""
        limit = protocol.limit_of(limit, limits)
        return await self._start_search(limit, searchmoves, options, ponder=False, line_timeout=line_timeout)

    async def ponder(
        self,
        limit: Limit | None = None,
        *,
        searchmoves: Sequence[str] | None = None,
        options: Mapping[str, OptionValue] | None = None,
        line_timeout: float | None = None,
        **limits: Unpack[LimitWords],
    ) -> Analysis:
        """``go ponder``: searches on the opponent's time; :meth:`Analysis.ponderhit` when
        the expected move was played (the search then runs by ``limit``), or
        :meth:`Analysis.stop`."""
        limit = protocol.limit_of(limit, limits)
        return await self._start_search(limit, searchmoves, options, ponder=True, line_timeout=line_timeout)

    async def stop(self, *, timeout: float = COMMAND_TIMEOUT) -> BestMove | None:
        """Stops the running search, if any, and returns its move (``None`` when no
        search runs)."""
        self._channel.usable()
        search = self._search
        if search is None or search.done:
            return None
        return await search.stop(timeout=timeout)

    def _options_for_search(self, options: Mapping[str, OptionValue] | None) -> tuple[list[str], list[str]]:
        """The ``setoption`` lines that set ``options`` for one search, and those that
        restore what was set before (or the defaults)."""
        if not options:
            return [], []
        restore: dict[str, OptionValue] = {}
        for name in options:
            if protocol.normal_name(name) == "uci_variant":
                raise ValueError("UCI_Variant changes the game: set it with set_variant, not for one search")
            if name not in self.options:
                raise KeyError(f"the engine has no option {name!r}")
            listed = self.options[name]
            if listed.kind == "button":
                raise ValueError(f"{listed.name} is a button: it cannot be set for one search")
            before = self._values.get(protocol.normal_name(name), listed.default)
            if before is None and listed.kind == "spin":
                raise ValueError(f"{listed.name} has no default to restore after the search")
            restore[name] = before
        return protocol.check_values(options, self.options), protocol.check_values(restore, self.options)

    async def _start_search(
        self,
        limit: Limit,
        searchmoves: Sequence[str] | None,
        options: Mapping[str, OptionValue] | None,
        *,
        ponder: bool,
        line_timeout: float | None,
    ) -> Analysis:
        setting, restoring = self._options_for_search(options)
        if setting:
            await self._checked(setting, COMMAND_TIMEOUT, "setoption for a search")
        # A search without a limit says `infinite`, as UCI has it, for every engine.
        infinite = not ponder and not limit.is_bounded()
        line = protocol.go_line(
            limit, searchmoves=searchmoves, ponder=ponder, infinite=infinite, uci=not self.speaks_ugi
        )
        after: Callable[[], Awaitable[None]] | None = None
        if restoring:

            async def after() -> None:
                await self._channel.send(*restoring)

        async with self._lock:
            try:
                await self._settled()
            except BaseException:
                if after is not None:
                    await after()
                raise
            await self._channel.send(line)
            self._search = Analysis(
                self._channel,
                speaks_ugi=self.speaks_ugi,
                line_timeout=line_timeout,
                max_noise=self._max_noise,
                after=after,
            )
            return self._search

    # The end -----------------------------------------------------------------------------

    async def quit(self, *, timeout: float = QUIT_TIMEOUT) -> int | None:
        """Stops any search, sends ``quit`` and waits ``timeout`` seconds for the process to
        exit, then ends its process group (what the engine left running too) and reaps
        it. Its exit status."""
        self._finalizer.detach()
        return await self._channel.quit(timeout)

    close = quit

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.quit()

    def __repr__(self) -> str:
        name = self.id.get("name", self.command[0])
        state = "closed" if self._channel.closed else f"pid {self.pid}"
        return f"<Engine {name!r} ({state})>"
