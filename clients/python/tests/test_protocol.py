"""The protocol's lines read and written, without an engine."""

import pytest

from ternion.errors import ProtocolError
from ternion.protocol import (
    Limit,
    Option,
    Options,
    Score,
    Wdl,
    go_line,
    parse_bestmove,
    parse_info,
    parse_option,
    position_line,
)


def test_an_info_line_with_every_field_reads_whole():
    info = parse_info(
        "info depth 6 seldepth 9 multipv 2 score cp -12 wdl 20 960 20 nodes 48211 nps 2411000 "
        "time 20 hashfull 31 tbhits 4 pv d2d3 d7c6"
    )
    assert (info.depth, info.seldepth, info.multipv) == (6, 9, 2)
    assert info.score == Score(cp=-12) and not info.score.is_mate()
    assert info.wdl == Wdl(20, 960, 20) and info.wdl.expectation() == 0.5
    assert (info.nodes, info.nps, info.time, info.hashfull, info.tbhits) == (48211, 2411000, 0.02, 31, 4)
    assert info.pv == ("d2d3", "d7c6")
    mate = parse_info("info depth 3 score mate -2 pv a1a2")
    assert mate.score == Score(mate=-2) and str(mate.score) == "mate -2"
    # A UGI 1.0 engine counts plies: kept, and read in moves as UCI counts them.
    for plies, moves in [(5, 3), (1, 1), (-4, -2), (-3, -2), (-1, -1)]:
        read = parse_info(f"info depth 9 score mate {plies} pv a1a2", mate_in_plies=True)
        assert read.score == Score(mate=moves, plies=plies)
    current = parse_info("info depth 12 currmove e2e4 currmovenumber 3")
    assert (current.currmove, current.currmovenumber) == ("e2e4", 3)
    said = parse_info("info string variant lielow startpos 8/8 b")
    assert said.string == "variant lielow startpos 8/8 b"
    # Words a client does not know are skipped, as UCI clients do.
    assert parse_info("info depth 2 refutation e2e4 e7e5 score cp 1").score == Score(cp=1)


@pytest.mark.parametrize(
    "line", ["info depth x", "info score cp", "info score wdl 1", "info wdl 1 2", "bestmove e2e4"]
)
def test_an_info_line_that_does_not_read_is_a_protocol_error(line):
    with pytest.raises(ProtocolError):
        parse_info(line)


def test_bestmove_lines():
    assert parse_bestmove("bestmove d2d3") == ("d2d3", None)
    assert parse_bestmove("bestmove d2d3 ponder c7c6") == ("d2d3", "c7c6")
    assert parse_bestmove("bestmove (none)") == (None, None)
    with pytest.raises(ProtocolError):
        parse_bestmove("bestmove")


def test_options_read_with_their_kinds_bounds_and_choices():
    skill = parse_option("option name Skill Level type spin default 20 min 0 max 20")
    assert skill == Option("Skill Level", "spin", 20, 0, 20)
    variant = parse_option("option name UCI_Variant type combo default lielow var lielow var lielow9")
    assert variant.choices == ("lielow", "lielow9") and variant.default == "lielow"
    assert parse_option("option name TablePath type string default <empty>").default == ""
    assert parse_option("option name Ponder type check default false").default is False
    assert parse_option("option name ClearHash type button").kind == "button"
    for bad in [
        "option name X",
        "option name X type dial",
        "option name type spin",
        "option name X type spin min y",
    ]:
        with pytest.raises(ProtocolError):
            parse_option(bad)


def test_option_values_are_checked_before_they_are_sent():
    options = Options()
    for line in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_Variant type combo default lielow var lielow var lielow9",
        "option name Ponder type check default false",
        "option name ClearHash type button",
        "option name EvalFile type string default <empty>",
    ]:
        options.add(parse_option(line))
    assert options.setoption_line("skilllevel", 3) == "setoption name Skill Level value 3"
    assert options.setoption_line("UCI_VARIANT", "LIELOW9") == "setoption name UCI_Variant value lielow9"
    assert options.setoption_line("Ponder", True) == "setoption name Ponder value true"
    assert options.setoption_line("Clear Hash") == "setoption name ClearHash"
    assert options.setoption_line("EvalFile", "") == "setoption name EvalFile value <empty>"
    with pytest.raises(KeyError):
        options.setoption_line("Threads", 2)
    for name, value in [
        ("Skill Level", 21),
        ("Skill Level", "x"),
        ("Skill Level", True),
        ("UCI_Variant", "chess"),
        ("Ponder", "yes"),
        ("ClearHash", 1),
        ("EvalFile", "a\nquit"),
    ]:
        with pytest.raises(ValueError):
            options.setoption_line(name, value)


def test_positions_and_limits_become_their_lines():
    assert position_line() == "position startpos"
    assert position_line(moves=["d2d3", "c7c6"]) == "position startpos moves d2d3 c7c6"
    assert position_line("8/8 b", variant="lielow") == "position variant lielow fen 8/8 b"
    for bad in [dict(moves=["d2 d3"]), dict(moves=[""]), dict(fen="a\nquit"), dict(variant="a b")]:
        with pytest.raises(ValueError):
            position_line(**bad)
    limit = Limit(
        p1time=60, p2time=59.5, p1inc=1, p2inc=0.25, movestogo=5, time=0.1, depth=4, nodes=10, mate=2
    )
    assert go_line(limit, searchmoves=["a2a3"]) == (
        "go p1time 60000 p2time 59500 p1inc 1000 p2inc 250 movetime 100 movestogo 5 depth 4 "
        "nodes 10 mate 2 searchmoves a2a3"
    )
    assert go_line(Limit(), ponder=True) == "go ponder"
    assert not Limit().is_bounded() and Limit(depth=1).is_bounded()
    for bad in [dict(time=-1), dict(time=float("nan")), dict(depth=-1), dict(nodes=1.5), dict(time="1")]:
        with pytest.raises(ValueError):
            Limit(**bad).words()


def test_any_line_an_engine_writes_is_read_or_refused_as_protocol_error():
    """Seeded random lines made of the protocol's words and numbers, and of anything: each
    reads, or raises ProtocolError, never another exception."""
    import random

    rng = random.Random(72)
    words = [
        "info",
        "depth",
        "score",
        "cp",
        "mate",
        "wdl",
        "pv",
        "nodes",
        "string",
        "multipv",
        "bestmove",
        "ponder",
        "option",
        "name",
        "type",
        "spin",
        "combo",
        "var",
        "default",
        "min",
        "max",
        "-",
        "1",
        "-7",
        "x",
        "",
        "(none)",
        "\u00e9",
        "9" * 30,
    ]
    for _ in range(20000):
        if rng.random() < 0.2:
            line = "".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(0, 40)))
        else:
            line = " ".join(rng.choice(words) for _ in range(rng.randrange(0, 12)))
        for parse in (parse_info, parse_bestmove, parse_option):
            try:
                parse(line)
            except ProtocolError:
                pass
