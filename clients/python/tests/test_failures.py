"""Engines that die, hang, flood or write garbage: each raises its own clear exception
within its timeout, and the process is gone (killed and reaped) afterwards."""

import os
import time

import pytest
from conftest import children

from ternion import Engine, EngineError, EngineTerminated, EngineTimeout, ProtocolError


def gone(pid):
    """Whether the process is neither running nor a zombie."""
    return not os.path.exists(f"/proc/{pid}")


def test_a_command_that_cannot_start_says_so():
    with pytest.raises(EngineTerminated, match="could not be started"):
        Engine.start(["/no/such/engine"])
    with pytest.raises(ValueError):
        Engine.start([])


def test_an_engine_that_dies_raises_with_its_last_words(fake):
    engine = Engine.start(fake("die-on-go"))
    pid = engine.pid
    with pytest.raises(EngineTerminated, match="cannot search") as raised:
        engine.go(time=0.1)
    assert raised.value.returncode == 3
    assert gone(pid)
    with pytest.raises(EngineTerminated):
        engine.isready()
    engine.quit()


@pytest.mark.parametrize(
    "mode, call, error",
    [
        ("no-handshake", None, EngineTimeout),
        ("silent", lambda e: e.isready(timeout=0.5), EngineTimeout),
        ("silent", lambda e: e.go(time=0.1, timeout=0.5), EngineTimeout),
        ("silent", lambda e: e.query("fen", timeout=0.5), EngineTimeout),
        ("flood", lambda e: e.go(time=0.1, timeout=1), EngineTimeout),
        ("long-line", lambda e: e.go(time=0.1, timeout=20), ProtocolError),
        ("bad-bestmove", lambda e: e.go(time=0.1), ProtocolError),
        ("garbage", None, ProtocolError),
    ],
)
def test_each_misbehaviour_raises_its_error_and_ends_the_engine(fake, mode, call, error):
    before = children()
    started = time.monotonic()
    with pytest.raises(error):
        if call is None:
            Engine.start(fake(mode), timeout=1)
        else:
            with Engine.start(fake(mode)) as engine:
                call(engine)
    assert time.monotonic() - started < 30
    assert children() == before, "a process was left behind"


def test_an_engine_that_ignores_quit_is_killed_and_reaped(fake):
    engine = Engine.start(fake("deaf"))
    pid = engine.pid
    started = time.monotonic()
    status = engine.quit(timeout=0.5)
    assert status is not None and status < 0  # killed by a signal
    assert time.monotonic() - started < 5 and gone(pid)


def test_a_uci_spelling_engine_is_driven_too(fake):
    with Engine.start(fake("uci")) as engine:
        assert engine.id["name"] == "fake uci"
        assert engine.options["Style"].choices == ("calm", "wild")
        engine.set_option("Style", "wild")
        engine.new_game()  # sent as ucinewgame
        assert engine.go(depth=1).move == "e2e4"
        assert not engine.speaks_ugi
        with pytest.raises(EngineError, match="UCI engine"):
            engine.legal_moves()
        engine.isready()  # nothing was sent: the engine goes on


def test_a_forgotten_engine_is_ended_when_collected(ternion):
    engine = Engine.start(ternion)
    pid = engine.pid
    del engine
    import gc

    gc.collect()
    deadline = time.monotonic() + 10
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(pid)
