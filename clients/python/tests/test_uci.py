"""Any UGI or UCI engine: ``protocol="ugi" | "uci" | "auto"``, and each engine spoken to
in its own words."""

import pytest

from ternion import Engine, EngineError, EngineTimeoutError
from ternion import aio as ternion_aio


@pytest.mark.parametrize("protocol", ["uci", "auto"])
def test_a_strict_uci_engine_is_driven_in_its_own_words(fake, protocol):
    with Engine.start(fake("strict-uci"), protocol=protocol) as engine:
        assert not engine.speaks_ugi and engine.id["name"] == "fake strict-uci"
        engine.new_game()  # ucinewgame: uginewgame would end it
        engine.position(moves=["e2e4"])
        best = engine.go(p1time=10, p2time=10, p1inc=0.1, p2inc=0.1)  # wtime btime winc binc
        assert best.move == "e2e4"
        assert best.score.mate == 2 and best.score.plies is None  # UCI counts moves
        with pytest.raises(EngineError, match="UCI engine"):
            engine.legal_moves()


def test_a_strict_uci_engine_never_answers_ugi(fake):
    with pytest.raises(EngineTimeoutError):
        Engine.start(fake("strict-uci"), protocol="ugi", timeout=1)


def test_auto_waits_out_a_slow_ugi_engine_and_keeps_it_speaking_ugi(fake, monkeypatch):
    monkeypatch.setattr(ternion_aio, "AUTO_WAIT", 0.2)
    with Engine.start(fake("slow-ugi"), protocol="auto") as engine:
        assert engine.speaks_ugi
        engine.isready()
        assert engine.go(depth=1).move == "e2e4"


@pytest.mark.parametrize("protocol, ugi", [("ugi", True), ("uci", False), ("auto", True)])
def test_ternion_speaks_either(ternion, protocol, ugi):
    with Engine.start(ternion, protocol=protocol) as engine:
        assert engine.speaks_ugi == ugi
        engine.set_variant("lielow")
        engine.new_game()
        best = engine.go(p1time=5, p2time=5, p1inc=0.05, p2inc=0.05)
        assert best.move is not None and best.score is not None
        if ugi:
            assert best.move in engine.legal_moves()


def test_an_unknown_protocol_is_refused():
    with pytest.raises(ValueError, match="ugi, uci or auto"):
        Engine.start("ternion", protocol="xboard")  # type: ignore[arg-type]
