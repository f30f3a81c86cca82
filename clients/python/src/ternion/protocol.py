"""The protocol's lines as Python values: what an engine writes, parsed into typed results,
and what a client writes, built from Python values. No I/O here: the engines in
:mod:`ternion.aio` and :mod:`ternion.engine` read and write the lines.

The protocol is UGI (the Universal Game Interface of the cutegames arena), a superset of
UCI; ternion's own description is ``protocol/PROTOCOL.md`` in its repository.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from .errors import ProtocolError

OptionValue = str | int | bool | None


@dataclass(frozen=True)
class Score:
    """A score from the side to move's point of view: centipawns, or a proven win
    (``mate > 0``, in moves of the side to move, as UCI counts) or loss (``mate < 0``).
    ``plies`` is the same win or loss in plies when the engine counted plies (a UGI 1.0
    engine, after ``ugi``: "Mate in <x> plies"); a UCI engine's are not known (``None``)."""

    cp: int | None = None
    mate: int | None = None
    plies: int | None = None

    def is_mate(self) -> bool:
        return self.mate is not None

    def __str__(self) -> str:
        return f"mate {self.mate}" if self.mate is not None else f"cp {self.cp}"


@dataclass(frozen=True)
class Wdl:
    """Win, draw and loss chances per mille, from the side to move's point of view."""

    win: int
    draw: int
    loss: int

    def expectation(self) -> float:
        """The expected score, 0 to 1."""
        return (self.win + self.draw / 2) / 1000


@dataclass(frozen=True)
class Info:
    """One ``info`` line of a search. Every field is ``None`` when the line did not carry
    it; ``string`` holds the text of an ``info string`` line."""

    depth: int | None = None
    seldepth: int | None = None
    multipv: int | None = None
    score: Score | None = None
    wdl: Wdl | None = None
    nodes: int | None = None
    nps: int | None = None
    time: float | None = None
    """Seconds since the search began (the line's ``time``, which is in milliseconds)."""
    hashfull: int | None = None
    tbhits: int | None = None
    currmove: str | None = None
    currmovenumber: int | None = None
    pv: tuple[str, ...] = ()
    string: str | None = None
    lowerbound: bool = False
    upperbound: bool = False


@dataclass(frozen=True)
class BestMove:
    """The answer to a ``go``: the move (``None`` when the game is over: ``bestmove
    (none)``), the expected reply when the engine gave one, and the search's ``info``
    lines (the last of each ``multipv`` line, and every ``info string``)."""

    move: str | None
    ponder: str | None = None
    infos: tuple[Info, ...] = ()

    @property
    def info(self) -> Info | None:
        """The last ``info`` line of the first principal variation that had a score."""
        for info in reversed(self.infos):
            if info.score is not None and (info.multipv in (None, 1)):
                return info
        return None

    @property
    def score(self) -> Score | None:
        info = self.info
        return info.score if info else None

    @property
    def pv(self) -> tuple[str, ...]:
        info = self.info
        return info.pv if info else ()


@dataclass(frozen=True)
class Option:
    """An option the engine listed in its handshake: its kind (``spin``, ``check``,
    ``combo``, ``button``, ``string``), default, bounds and choices."""

    name: str
    kind: str
    default: OptionValue = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def checked(self, value: OptionValue) -> str:
        """``value`` written as the option takes it; ``ValueError`` when the option cannot
        take it (out of bounds, not one of the choices, not a boolean)."""
        if self.kind == "button":
            if value is not None and value is not True:
                raise ValueError(f"{self.name} is a button: it takes no value")
            return ""
        if self.kind == "check":
            if isinstance(value, bool):
                return "true" if value else "false"
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower()
            raise ValueError(f"{self.name} takes true or false, not {value!r}")
        if self.kind == "spin":
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise ValueError(f"{self.name} takes a whole number, not {value!r}")
            try:
                number = int(value)
            except ValueError:
                raise ValueError(f"{self.name} takes a whole number, not {value!r}") from None
            if (self.min is not None and number < self.min) or (self.max is not None and number > self.max):
                raise ValueError(f"{self.name} takes {self.min} to {self.max}, not {number}")
            return str(number)
        text = "" if value is None else str(value)
        if "\n" in text or "\r" in text:
            raise ValueError(f"{self.name}: a value cannot hold a line break")
        if self.kind == "combo":
            match = [c for c in self.choices if c.lower() == text.lower()]
            if not match:
                raise ValueError(f"{self.name} takes one of {', '.join(self.choices)}, not {text!r}")
            return match[0]
        return text if text != "" else "<empty>"


@dataclass(frozen=True)
class Limit:
    """The limits of a ``go``, in seconds (as floats) and counts. With several, the first
    reached ends the search; with none, the search runs until it is stopped.
    ``p1time``/``p2time`` are the clocks of the first and second player (UCI's
    ``wtime``/``btime``), ``p1inc``/``p2inc`` their increments."""

    time: float | None = None
    """Seconds for this move (``movetime``)."""
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    p1time: float | None = None
    p2time: float | None = None
    p1inc: float | None = None
    p2inc: float | None = None
    movestogo: int | None = None

    def words(self, uci: bool = False) -> list[str]:
        """The limit as ``go`` words; with ``uci``, the clocks as UCI spells them
        (``wtime btime winc binc``)."""
        words: list[str] = []
        for name in ("p1time", "p2time", "p1inc", "p2inc"):
            seconds = getattr(self, name)
            if seconds is not None:
                words += [_UCI_CLOCKS[name] if uci else name, str(_milliseconds(name, seconds))]
        if self.time is not None:
            words += ["movetime", str(_milliseconds("time", self.time))]
        for name in ("movestogo", "depth", "nodes", "mate"):
            count = getattr(self, name)
            if count is not None:
                if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                    raise ValueError(f"{name} must be a whole number of at least 0, not {count!r}")
                words += [name, str(count)]
        return words

    def is_bounded(self) -> bool:
        """Whether the search ends by itself (some limit is set)."""
        return bool(self.words())

    def longest(self, side_to_move: int | None = None) -> float | None:
        """The most seconds the search may take by its time limits, when they bound it."""
        candidates: list[float] = []
        if self.time is not None:
            candidates.append(self.time)
        clock = {1: self.p1time, 2: self.p2time}.get(side_to_move or 0)
        if clock is not None:
            candidates.append(clock)
        elif side_to_move is None:
            candidates += [c for c in (self.p1time, self.p2time) if c is not None]
        return max(candidates) if candidates else None


_UCI_CLOCKS = {"p1time": "wtime", "p2time": "btime", "p1inc": "winc", "p2inc": "binc"}


class LimitWords(TypedDict, total=False):
    """A :class:`Limit`'s fields as keywords (``go(time=0.1)``): a misspelt one is an
    error for a type checker and a ``TypeError`` when called."""

    time: float
    depth: int
    nodes: int
    mate: int
    p1time: float
    p2time: float
    p1inc: float
    p2inc: float
    movestogo: int


def limit_of(limit: Limit | None, words: Mapping[str, Any]) -> Limit:
    """The limit given either as a :class:`Limit` or as keywords."""
    if limit is not None and words:
        raise ValueError("give a Limit or limit keywords, not both")
    if limit is not None:
        return limit
    try:
        return Limit(**words)
    except TypeError as error:
        raise TypeError(f"not a limit of go: {error}") from None


def _milliseconds(name: str, seconds: float) -> int:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise ValueError(f"{name} must be a number of seconds, not {seconds!r}")
    if math.isnan(seconds) or math.isinf(seconds) or seconds < 0:
        raise ValueError(f"{name} must be a number of seconds of at least 0, not {seconds!r}")
    return int(round(seconds * 1000))


def token(word: str, what: str) -> str:
    """``word`` checked to be one protocol word (a move, a variant name)."""
    if not isinstance(word, str) or not word or any(c.isspace() for c in word):
        raise ValueError(f"{what} must be one word without spaces, not {word!r}")
    return word


def position_line(fen: str | None = None, moves: Iterable[str] = (), variant: str | None = None) -> str:
    """The ``position`` line for the start (or ``fen``) and ``moves``, in ``variant`` when
    given."""
    words = ["position"]
    if variant is not None:
        words += ["variant", token(variant, "a variant")]
    if fen is None:
        words.append("startpos")
    else:
        if not isinstance(fen, str) or not fen.strip() or "\n" in fen or "\r" in fen:
            raise ValueError(f"a position string must be one line, not {fen!r}")
        words += ["fen", fen.strip()]
    moves = [token(m, "a move") for m in moves]
    if moves:
        words += ["moves", *moves]
    return " ".join(words)


def go_line(
    limit: Limit | None = None,
    *,
    searchmoves: Sequence[str] | None = None,
    ponder: bool = False,
    infinite: bool = False,
    uci: bool = False,
) -> str:
    """The ``go`` line (UCI's clock words with ``uci``)."""
    words = ["go"]
    if limit is not None:
        words += limit.words(uci)
    if searchmoves:
        words += ["searchmoves", *(token(m, "a move") for m in searchmoves)]
    if ponder:
        words.append("ponder")
    if infinite:
        words.append("infinite")
    return " ".join(words)


_INT_FIELDS = {
    "depth",
    "seldepth",
    "multipv",
    "nodes",
    "nps",
    "hashfull",
    "tbhits",
    "currmovenumber",
}


def moves_of_plies(plies: int) -> int:
    """A mate in ``plies`` plies as UCI counts it, in moves of the side to move: a win in
    5 plies is 3, a loss in 4 plies -2 (and in 3 plies, -2 too)."""
    return (plies + 1) // 2 if plies > 0 else -((-plies + 1) // 2)


def parse_info(line: str, mate_in_plies: bool = False) -> Info:
    """An ``info`` line as an :class:`Info`. Words it does not know are skipped, as UCI
    clients do; a known word with a value that does not read is a :class:`ProtocolError`.
    ``mate_in_plies``: the engine counts a mate in plies (UGI 1.0, after ``ugi``), which
    :class:`Score` keeps as ``plies`` beside its ``mate`` in moves."""
    words = line.split()
    if not words or words[0] != "info":
        raise ProtocolError(f"not an info line: {line[:120]!r}")
    if len(words) > 1 and words[1] == "string":
        return Info(string=line.split("string", 1)[1].strip())
    values: dict[str, Any] = {}
    at = 1
    try:
        while at < len(words):
            word = words[at]
            if word == "time":
                values[word] = int(words[at + 1]) / 1000
                at += 2
            elif word in _INT_FIELDS:
                values[word] = int(words[at + 1])
                at += 2
            elif word == "score":
                kind, number = words[at + 1], int(words[at + 2])
                if kind == "cp":
                    values["score"] = Score(cp=number)
                elif kind == "mate" and mate_in_plies:
                    values["score"] = Score(mate=moves_of_plies(number), plies=number)
                elif kind == "mate":
                    values["score"] = Score(mate=number)
                else:
                    raise ProtocolError(f"a score of kind {kind!r}: {line[:120]!r}")
                at += 3
            elif word in ("lowerbound", "upperbound"):
                values[word] = True
                at += 1
            elif word == "wdl":
                values["wdl"] = Wdl(int(words[at + 1]), int(words[at + 2]), int(words[at + 3]))
                at += 4
            elif word == "currmove":
                values["currmove"] = words[at + 1]
                at += 2
            elif word == "pv":
                values["pv"] = tuple(words[at + 1 :])
                at = len(words)
            elif word == "string":
                values["string"] = " ".join(words[at + 1 :])
                at = len(words)
            else:
                at += 1
    except (IndexError, ValueError):
        raise ProtocolError(f"an info line that does not read: {line[:120]!r}") from None
    return Info(**values)


def parse_bestmove(line: str) -> tuple[str | None, str | None]:
    """The move and the ponder move of a ``bestmove`` line."""
    words = line.split()
    if len(words) < 2 or words[0] != "bestmove":
        raise ProtocolError(f"a bestmove line without a move: {line[:120]!r}")
    move = None if words[1] in ("(none)", "0000", "none") else words[1]
    ponder = None
    if len(words) >= 4 and words[2] == "ponder":
        ponder = words[3]
    return move, ponder


def parse_option(line: str) -> Option:
    """An ``option name <name> type <kind> [default <x>] [min <n>] [max <n>] [var <c>]...``
    line. The name may hold spaces (``Skill Level``)."""
    words = line.split()
    if len(words) < 5 or words[0] != "option" or words[1] != "name" or "type" not in words[2:]:
        raise ProtocolError(f"an option line that does not read: {line[:120]!r}")
    at = words.index("type", 2)
    name = " ".join(words[2:at])
    kind = words[at + 1] if at + 1 < len(words) else ""
    if not name or kind not in ("check", "spin", "combo", "button", "string"):
        raise ProtocolError(f"an option line that does not read: {line[:120]!r}")
    rest = words[at + 2 :]
    default: OptionValue = None
    low = high = None
    choices: list[str] = []
    keys = {"default", "min", "max", "var"}
    i = 0
    try:
        while i < len(rest):
            key = rest[i]
            j = i + 1
            while j < len(rest) and rest[j] not in keys:
                j += 1
            value = " ".join(rest[i + 1 : j])
            if key == "default":
                default = value
            elif key == "min":
                low = int(value)
            elif key == "max":
                high = int(value)
            elif key == "var":
                choices.append(value)
            i = j
    except ValueError:
        raise ProtocolError(f"an option line that does not read: {line[:120]!r}") from None
    if kind == "check":
        default = default == "true"
    elif kind == "spin" and default is not None:
        try:
            default = int(default)
        except ValueError:
            raise ProtocolError(f"an option line that does not read: {line[:120]!r}") from None
    elif kind == "string" and default == "<empty>":
        default = ""
    return Option(name, kind, default, low, high, tuple(choices))


def normal_name(name: str) -> str:
    """An option name as ternion matches it: in any case, with or without spaces between
    its words (``Clear Hash`` is ``ClearHash``)."""
    return "".join(name.split()).lower()


@dataclass
class Options(Mapping[str, Option]):
    """The options of the handshake, looked up as the engine matches names."""

    listed: dict[str, Option] = field(default_factory=dict)

    def add(self, option: Option) -> None:
        self.listed[normal_name(option.name)] = option

    def __getitem__(self, name: str) -> Option:
        return self.listed[normal_name(name)]

    def __iter__(self) -> Iterator[str]:
        return (option.name for option in self.listed.values())

    def __len__(self) -> int:
        return len(self.listed)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and normal_name(name) in self.listed

    def setoption_line(self, name: str, value: OptionValue = None) -> str:
        """The ``setoption`` line for ``name`` and ``value``, checked against the option's
        kind and bounds; ``KeyError`` for an option the engine did not list."""
        if name not in self:
            raise KeyError(f"the engine has no option {name!r}")
        option = self[name]
        written = option.checked(value)
        if option.kind == "button":
            return f"setoption name {option.name}"
        return f"setoption name {option.name} value {written}"


def error_lines(infos: Iterable[Info]) -> list[str]:
    """The ``info string error ...`` texts among ``infos``."""
    return [i.string for i in infos if i.string is not None and i.string.startswith("error")]


def check_values(values: Mapping[str, OptionValue], options: Options) -> list[str]:
    """The ``setoption`` lines for ``values``, every one checked before any is sent."""
    return [options.setoption_line(name, value) for name, value in values.items()]
