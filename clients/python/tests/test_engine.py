"""Every command of the protocol through the sync API, against ternion."""

import pytest

from ternion import CommandRefused, Engine, EngineBusy, Limit, Score

START8 = "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b"


@pytest.fixture
def engine(ternion):
    with Engine.start(ternion) as started:
        yield started


def test_the_handshake_lists_the_options_with_kinds_and_bounds(engine):
    assert engine.id["name"].startswith("ternion") and engine.speaks_ugi
    assert engine.options["Hash"].kind == "spin" and engine.options["Hash"].min == 1
    assert "lielow9" in engine.options["UCI_Variant"].choices
    assert engine.options["skill level"].max == 20
    assert engine.options["ClearHash"].kind == "button"
    engine.isready()


def test_options_are_checked_here_and_refusals_there_raise(engine, tmp_path):
    engine.configure({"Skill Level": 5, "Ponder": True, "MultiPV": 2})
    engine.set_option("Clear Hash")
    with pytest.raises(KeyError):
        engine.set_option("Nonsense", 1)
    with pytest.raises(ValueError):
        engine.set_option("Skill Level", 99)
    # A value within the listed bounds that the engine still refuses: its words raised.
    with pytest.raises(CommandRefused, match="TablePath"):
        engine.set_option("TablePath", str(tmp_path / "no-such-tables"))
    engine.isready()


def test_positions_variants_and_the_rules_queries(engine):
    engine.set_variant("lielow")
    assert engine.variant() == "lielow"
    assert engine.fen() == START8 and engine.turn() == 1
    engine.position(moves=["d2d3"])
    assert engine.turn() == 2 and not engine.is_game_over() and engine.result() is None
    assert "c7c6" in engine.legal_moves() and engine.is_legal("c7c6") and not engine.is_legal("d2d3")
    engine.position(variant="lielow9")
    assert engine.variant() == "lielow9" and len(engine.legal_moves()) > 40
    engine.position("8/8/8/3r2*4/8/3b2*4/8/8 b", ["d3d5"], variant="lielow")
    assert engine.is_game_over() and engine.result() == "p1win"
    assert engine.reason() == "no stacks left" and engine.legal_moves() == []
    best = engine.go(depth=3)
    assert best.move is None
    with pytest.raises(CommandRefused, match="bad-fen") as refused:
        engine.position("not a position")
    assert refused.value.kinds == ["bad-fen"]
    engine.new_game()
    assert engine.fen() == START8


def test_an_illegal_move_is_refused_and_forfeits_as_the_protocol_says(engine):
    with pytest.raises(CommandRefused, match="illegal-move") as refused:
        engine.position(moves=["d2d3", "d2d3"])
    assert refused.value.kinds == ["illegal-move"]
    assert engine.is_game_over() and engine.result() == "p1win"


def test_go_with_every_limit_answers_with_typed_results(engine):
    engine.position(moves=["d2d3"])
    legal = set(engine.legal_moves())
    for limit in [
        Limit(time=0.05),
        Limit(depth=3),
        Limit(nodes=2000),
        Limit(p1time=5, p2time=5, p1inc=0.1, p2inc=0.1),
        Limit(p1time=5, p2time=0.5, movestogo=10),
        Limit(mate=1, time=0.2),
    ]:
        best = engine.go(limit)
        assert best.move in legal, limit
        assert isinstance(best.score, Score), limit
        assert best.info.depth >= 1 and best.info.nodes > 0 and best.pv[0] == best.move
    assert engine.go(depth=4).info.depth == 4
    assert engine.go(nodes=3000, searchmoves=["a7a6", "h7h6"]).move in ("a7a6", "h7h6")
    with pytest.raises(ValueError):
        engine.go()
    with pytest.raises(TypeError):
        engine.go(wtime=1000)


def test_multipv_and_wdl_are_read_per_line(engine):
    engine.configure({"MultiPV": 3, "UCI_ShowWDL": True})
    best = engine.go(depth=3)
    lines = [i for i in best.infos if i.multipv is not None]
    assert sorted(i.multipv for i in lines) == [1, 2, 3]
    assert all(i.wdl is not None and i.wdl.win + i.wdl.draw + i.wdl.loss == 1000 for i in lines)
    assert best.info.multipv == 1


def test_an_analysis_is_iterated_then_stopped(engine):
    engine.position(moves=["d2d3"])
    with engine.analysis() as analysis:
        depths = []
        for info in analysis:
            if info.depth is not None and info.score is not None:
                depths.append(info.depth)
            if len(depths) >= 4:
                break
        with pytest.raises(EngineBusy):
            engine.legal_moves()
        best = analysis.stop()
    assert depths == sorted(depths) and best.move is not None
    assert engine.legal_moves()  # the engine is free again
    # An analysis with a limit ends by itself: its iteration ends with the bestmove.
    analysis = engine.analysis(depth=3)
    assert [i.depth for i in analysis if i.score is not None][-1] == 3
    assert analysis.done and analysis.best.move is not None


def test_ponder_then_ponderhit_or_stop(engine):
    engine.set_option("Ponder", True)
    engine.position(moves=["d2d3"])
    pondering = engine.ponder(time=0.1)
    pondering.ponderhit()
    best = pondering.wait(timeout=10)
    assert best.move is not None
    pondering = engine.ponder(time=0.1)
    assert pondering.stop().move is not None
    # With Ponder on, a bestmove carries the expected reply.
    assert engine.go(depth=4).ponder is not None


def test_ternions_weak_players_answer_at_once(ternion):
    with Engine.start([ternion, "--play", "random"]) as random_player:
        random_player.position(moves=["d2d3"])
        legal = random_player.legal_moves()
        assert all(random_player.go(time=0.05).move in legal for _ in range(5))
        # An analysis of a player that does not search still ends with its move on stop.
        with random_player.analysis() as analysis:
            pass
        assert analysis.best.move in legal


def test_a_mate_is_read_in_moves_and_kept_in_plies_as_the_engine_counts_them(engine):
    # Blue wins in three plies (two of its moves); ternion after `ugi` counts plies.
    engine.position("8/2r1r1r13/2r3*2r2r21/r17/8/4b2b22/1b11b12b1b1/4b4*3 b", variant="lielow")
    best = engine.go(depth=3)
    assert best.move == "e3c3"
    assert best.score == Score(mate=2, plies=3)
