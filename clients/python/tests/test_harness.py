"""A harness's life: a thousand positions searched through the client, then nothing left
behind, no process and no open file; and ternion's own weak players as opponents."""

import random

from conftest import children, open_files

from ternion import Engine, Referee, play_match


def test_a_thousand_positions_leave_no_process_and_no_open_file(ternion):
    before_files, before_children = open_files(), children()
    rng = random.Random(72)
    searched = 0
    with Referee(ternion) as rules:
        for variant in ["lielow", "lielow9", "egaraguti", "lerontenin"]:
            with Engine.start(ternion) as engine:
                engine.set_variant(variant)
                while searched < 250 * (["lielow", "lielow9", "egaraguti", "lerontenin"].index(variant) + 1):
                    moves = []
                    for _ in range(rng.randrange(0, 12)):
                        legal = rules.legal_moves(variant, moves=moves)
                        if not legal:
                            break
                        moves.append(rng.choice(legal))
                    engine.position(moves=moves)
                    best = engine.go(nodes=200)
                    position = rules.position(variant, moves=moves)
                    assert (best.move is None) == position.is_over
                    if best.move is not None:
                        assert best.move in position.legal_moves
                    searched += 1
    assert searched == 1000
    assert children() == before_children
    assert open_files() == before_files


def test_the_referee_plays_a_game_by_the_rules(ternion):
    with Referee(ternion) as rules:
        moves = []
        position = rules.position("lielow")
        while not position.is_over:
            moves.append(position.legal_moves[len(moves) % len(position.legal_moves)])
            position = rules.position("lielow", moves=moves)
        assert position.result in ("p1win", "p2win") and position.reason
        assert not rules.is_legal("lielow", "d2d3", moves=moves)
        assert rules.position("egaraguti").turn == 1


def test_play_match_reads_the_referees_records(ternion):
    result = play_match(
        ternion,
        f"{ternion} --play random",
        "lielow",
        4,
        nodes=500,
        openings=2,
        seed=3,
        ternion=ternion,
        timeout=120,
    )
    assert (result.wins, result.draws, result.losses) == (4, 0, 0)
    assert [g.number for g in result.games] == [1, 2, 3, 4]
    assert all(g.reason == "rules" and g.moves for g in result.games)
    assert result.games[1].p1.endswith("--play random)") and result.score == 1.0
    assert "W/D/L 4/0/0" in result.summary
