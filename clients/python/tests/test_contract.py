"""The error contract, set beside python-chess's: what is raised when, in which units the
numbers are, and what the caller can see of the lines."""

import asyncio
import logging
from pathlib import Path

import pytest

import ternion
from ternion import (
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    MatchError,
    play_match,
)
from ternion import aio as ternion_aio

HERE = Path(__file__).resolve().parent


def calls(engine):
    """A call of each kind, without ``await``."""
    return [
        engine.isready,
        lambda: engine.set_option("Hash", 2),
        lambda: engine.position(moves=[]),
        engine.legal_moves,
        lambda: engine.go(nodes=100),
        engine.analysis,
        engine.stop,
    ]


def test_every_call_after_quit_says_the_engine_is_terminated(ternion):
    engine = Engine.start(ternion)
    engine.quit()
    for call in calls(engine):
        with pytest.raises(EngineTerminatedError):
            call()
    assert engine.quit() == 0


def test_every_call_after_a_failure_says_the_engine_is_terminated(fake):
    engine = Engine.start(fake("die-on-go"))
    with pytest.raises(EngineTerminatedError):
        engine.go(time=0.1)
    for call in calls(engine):
        with pytest.raises(EngineTerminatedError):
            call()
    engine.quit()


def test_every_awaited_call_after_quit_says_the_engine_is_terminated(ternion):
    async def session():
        engine = await ternion_aio.Engine.start(ternion)
        await engine.quit()
        for call in calls(engine):
            with pytest.raises(EngineTerminatedError):
                await call()

    asyncio.run(session())


def test_a_timeout_is_a_timeout_error(fake):
    assert issubclass(EngineTimeoutError, TimeoutError) and issubclass(EngineTimeoutError, EngineError)
    with Engine.start(fake("silent")) as engine:
        with pytest.raises(TimeoutError):
            engine.isready(timeout=0.3)


def test_the_names_before_0_2_remain(fake):
    assert ternion.EngineTimeout is EngineTimeoutError
    assert ternion.EngineTerminated is EngineTerminatedError
    assert ternion.CommandRefused is ternion.CommandRefusedError
    assert ternion.EngineBusy is ternion.EngineBusyError


def test_whatever_a_match_raises_is_an_engine_error(ternion, tmp_path):
    with pytest.raises(MatchError) as failed:
        play_match(ternion, "/no/such/engine", "lielow", 2, nodes=100, ternion=ternion, timeout=60)
    assert isinstance(failed.value, EngineError) and failed.value.returncode != 0
    with pytest.raises(MatchError, match="could not be started"):
        play_match(ternion, ternion, "lielow", 2, ternion=str(tmp_path / "no-ternion"))
    with pytest.raises(ValueError):
        play_match(ternion, ternion, "lielow", 2, movetime=-1, ternion=ternion)


def test_times_are_seconds_everywhere(ternion):
    result = play_match(
        ternion, ternion, "lielow", 2, movetime=0.02, openings=2, seed=1, ternion=ternion, timeout=120
    )
    assert result.wins + result.draws + result.losses == 2
    with Engine.start(ternion) as engine:
        best = engine.go(time=0.05)
        assert best.info is not None and isinstance(best.info.time, float)
        assert 0 <= best.info.time < 60


def test_options_for_one_search_are_restored_after_it(fake):
    def told(best):
        return [i.string for i in best.infos if i.string and i.string.startswith("options")][0]

    with Engine.start(fake("normal")) as engine:
        engine.set_option("Style", "wild")
        assert told(engine.go(depth=1, options={"Style": "calm", "Hash": 8})) == "options Hash=8 Style=calm"
        assert told(engine.go(depth=1)) == "options Hash=16 Style=wild"
        with pytest.raises(ValueError):
            engine.go(depth=1, options={"Hash": 1000})
        with pytest.raises(KeyError):
            engine.go(depth=1, options={"Threads": 2})
        with engine.analysis(options={"Style": "calm"}) as analysis:
            pass
        assert told(analysis.best) == "options Hash=16 Style=calm"
        assert told(engine.go(depth=1)) == "options Hash=16 Style=wild"


def test_a_misspelt_limit_is_an_error_for_mypy_and_when_called(ternion, tmp_path):
    with Engine.start(ternion) as engine:
        with pytest.raises(TypeError, match="tme"):
            engine.go(tme=0.1)  # type: ignore[call-arg]
    api = pytest.importorskip("mypy.api")
    source = tmp_path / "misspelt.py"
    source.write_text("from ternion import Engine\n\nEngine.start('ternion').go(tme=0.1)\n")
    report, _, status = api.run(["--strict", "--no-incremental", str(source)])
    assert status == 1 and '"tme"' in report


def test_every_line_is_logged_at_debug(ternion, caplog):
    with caplog.at_level(logging.DEBUG, logger="ternion.engine"):
        with Engine.start(ternion) as engine:
            engine.isready()
    logged = [r.getMessage() for r in caplog.records if r.name == "ternion.engine"]
    assert any(m.endswith("<< isready") for m in logged)
    assert any(m.endswith(">> readyok") for m in logged)
    assert any(m.endswith(">> ugiok") for m in logged)
