//! The test facts of the Egara-guti rules, positions of our own for every rule, and hostile
//! text input.

use crate::common;

use common::{
    assert_moves_refused, assert_positions_refused, legal_move_strings, play, position, sorted,
};
use ternion::core::{MoveError, Outcome, Player};
use ternion::games::egaraguti::EgaraGuti;
use ternion::rules::Notation;
use ternion::rules::Rules;

const START: &str = "bbbbb/bbb/bbb/1/www/www/wwwww w 0 1";

fn after(before: &str, moves: &str) -> EgaraGuti {
    let mut game: EgaraGuti = position(before);
    play(&mut game, moves);
    game
}

fn moves_of(text: &str) -> Vec<String> {
    legal_move_strings(&position::<EgaraGuti>(text))
}

#[test]
fn fact_1_2_the_start() {
    let start = EgaraGuti::start();
    assert_eq!(start.position_string(), START);
    assert_eq!(position::<EgaraGuti>(START), start);
    assert_eq!(legal_move_strings(&start), sorted("d3e4 e3e4 f3e4"));
    assert_eq!(start.side_to_move(), Player::P1);
    // The counters are optional when reading.
    assert_eq!(
        position::<EgaraGuti>("bbbbb/bbb/bbb/1/www/www/wwwww w"),
        start
    );
    assert_eq!(
        position::<EgaraGuti>("bbbbb/bbb/bbb/1/www/www/wwwww w 0"),
        start
    );
}

#[test]
fn fact_3_a_capture_is_compulsory() {
    let game = after(START, "e3e4 e5e3");
    assert_eq!(
        game.position_string(),
        "bbbbb/bbb/b1b/1/wbw/www/wwwww w 0 2"
    );
    assert_eq!(legal_move_strings(&game), sorted("e2e4"));
    let error = game.parse_move("d3e4").unwrap_err();
    assert_eq!(error, MoveError::Illegal("a capture is compulsory".into()));
}

#[test]
fn fact_4_and_5_replies() {
    assert_eq!(
        legal_move_strings(&after(START, "e3e4 e5e3 e2e4")),
        sorted("d5e5 e6e5 f5e5")
    );
    // c6c2 runs along one of the extra vertical lines.
    assert_eq!(
        legal_move_strings(&after(START, "d3e4 f5d3 c2e4")),
        sorted("c6c2 e5f5 g6f5")
    );
}

#[test]
fn fact_6_and_7_chains_must_continue_and_may_turn() {
    let both = "5/3/3/1/3/1b1/wb1b1 w 0 1";
    assert_eq!(moves_of(both), sorted("a1e1e3 a1e1i1"));
    let game = after(both, "a1e1e3");
    assert_eq!(game.men(Player::P2).count_ones(), 1, "two men captured");
    assert_eq!(game.position_string(), "5/3/3/1/1w1/3/3b1 b 0 1");

    let one = "5/3/3/1/3/1b1/wb1bb w 0 1";
    assert_eq!(moves_of(one), sorted("a1e1e3"));
    let game: EgaraGuti = position(one);
    assert_eq!(
        game.parse_move("a1e1"),
        Err(MoveError::Illegal(
            "the capture is not complete: the man on e1 must leap again".into()
        ))
    );
    assert_eq!(
        game.parse_move("a1e1i1"),
        Err(MoveError::Illegal(
            "e1i1 lands on i1, which is occupied".into()
        ))
    );
}

#[test]
fn fact_8_two_chains_over_the_same_men_back_to_the_start() {
    let text = "5/3/3/w/b1b/1b1/5 w 0 1";
    assert_eq!(moves_of(text), sorted("e4c2g2e4 e4g2c2e4"));
    for chain in ["e4c2g2e4", "e4g2c2e4"] {
        let game = after(text, chain);
        assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)), "{chain}");
        // The man is back on its start point, every black man gone.
        assert_eq!(game.position_string(), "5/3/3/w/3/3/5 b 0 1", "{chain}");
    }
}

#[test]
fn fact_9_leaps_through_the_apex() {
    assert_eq!(moves_of("5/3/3/b/w1w/www/wwwww w 0 1"), sorted("d3f5 f3d5"));
}

#[test]
fn a_chain_that_turns_onto_a_diagonal() {
    // c1 leaps up the extra line over c2 to c6, then down the diagonal over d5 to e4.
    let text = "5/3/b2/1/3/b2/1w3 w 0 1";
    assert_eq!(moves_of(text), sorted("c1c6e4"));
    let game = after(text, "c1c6e4");
    assert_eq!(game.position_string(), "5/3/3/w/3/3/5 b 0 1");
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)));
}

#[test]
fn the_forty_ply_rule_one_ply_before_at_and_after() {
    // White has two men, Black one: at the limit White wins on count.
    let game = after("5/3/3/1/3/3/ww2b w 38 1", "c1e1");
    assert_eq!(game.quiet_plies(), 39);
    assert_eq!(game.outcome(), None, "39 quiet plies: still playing");
    let game = after("5/3/3/1/3/3/ww2b b 39 1", "i1g1");
    assert_eq!(game.quiet_plies(), 40);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(game.count_moves(), 0);
    let game: EgaraGuti = position("5/3/3/1/3/3/ww2b w 41 9");
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)));
    // Equal men: a draw.
    let game = after("5/3/3/1/3/3/w3b w 39 1", "a1c1");
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    // A capture on the 40th ply resets the count instead.
    let game = after("5/3/3/1/1b1/1w1/w4 b 39 1", "e3e1");
    assert_eq!(game.quiet_plies(), 0);
    assert_eq!(game.outcome(), None);
    let game = after("5/3/3/1/3/3/wwb2 w 39 1", "c1g1");
    assert_eq!(game.quiet_plies(), 0);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win(Player::P1)),
        "all captured"
    );
}

#[test]
fn threefold_repetition_ends_the_game_on_count() {
    let mut game: EgaraGuti = position("5/3/3/1/3/3/w3b w 0 1");
    let shuffle = ["a1c1", "i1g1", "c1a1", "g1i1"];
    for (ply, mv) in shuffle.iter().cycle().take(7).enumerate() {
        play(&mut game, mv);
        assert_eq!(game.outcome(), None, "after ply {}", ply + 1);
    }
    play(&mut game, "g1i1");
    // The start position is back for the third time: one man each, a draw.
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert_eq!(game.count_moves(), 0);
    assert_eq!(game.parse_move("a1c1"), Err(MoveError::GameOver));
    // History starts at the position given: the same string read afresh is in play.
    let again: EgaraGuti = position(&game.position_string());
    assert_eq!(again.outcome(), None);
}

#[test]
fn a_side_without_men_has_lost() {
    let game: EgaraGuti = position("5/3/3/1/3/3/w4 b 0 1");
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(game.count_moves(), 0);
    let game: EgaraGuti = position("5/3/3/1/3/3/w4 w 0 1");
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(game.count_moves(), 0);
}

#[test]
fn a_blocked_side_loses_before_men_are_counted() {
    // White's only man on a1: both neighbours and both landing points are taken.
    let game: EgaraGuti = position("5/3/3/1/b2/b2/wbb2 w 0 1");
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P2)));
    assert_eq!(game.count_moves(), 0);
    // Eleven white men, ten black, White to move and blocked, at the 40-ply limit: the
    // count would favour White, but having no move comes first.
    let game: EgaraGuti = position("1bbb1/bbb/bbb/b/www/www/wwwww w 40 1");
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P2)));
}

#[test]
fn fullmove_grows_after_blacks_move_whoever_starts() {
    let game = after("bbbbb/bbb/bbb/1/www/www/wwwww b 0 1", "e5e4");
    assert_eq!(
        game.position_string(),
        "bbbbb/bbb/b1b/b/www/www/wwwww w 1 2"
    );
}

#[test]
fn hostile_position_strings_are_rejected_with_a_reason() {
    let long = format!("{START} {}", "x".repeat(100_000));
    let cases: Vec<(&str, &str)> = vec![
        ("", "empty"),
        ("bbbbb/bbb/bbb/1/www/www", "6 ranks"),
        ("bbbbb/bbb/bbb/1/www/www/wwwww/1 w", "8 ranks"),
        (
            "bbbb/bbb/bbb/1/www/www/wwwww w",
            "rank 7: 4 points, expected 5",
        ),
        ("bbbbbb/bbb/bbb/1/www/www/wwwww w", "rank 7: more than 5"),
        ("bbbbb/bbb/bbb/2/www/www/wwwww w", "rank 4: more than 1"),
        ("bbbbb/bbb/bbb//www/www/wwwww w", "rank 4: 0 points"),
        ("bbbbb/bbb/bbb/0/www/www/wwwww w", "cannot be 0"),
        ("bbbbb/bbb/bbb/b/www/www/wwwww w", "Black has 12 men"),
        ("bbbbb/bbb/bbb/w/www/www/wwwww w", "White has 12 men"),
        ("5/3/3/1/3/3/5 w", "no men"),
        ("bbbbb/bbb/bbb/1/www/www/wwwww", "missing the side"),
        ("bbbbb/bbb/bbb/1/www/www/wwwww x", "side to move"),
        ("bbbbb/bbb/bbb/1/www/www/wwwww W", "side to move"),
        ("bbbbb/bbb/bbb/1/www/www/wwwww w -1", "cannot be negative"),
        ("bbbbb/bbb/bbb/1/www/www/wwwww w 0 -3", "cannot be negative"),
        ("bbbbb/bbb/bbb/1/www/www/wwwww w x", "must be a number"),
        ("bbbbb/bbb/bbb/1/www/www/wwwww w 1.5", "must be a number"),
        ("bbbbb/bbb/bbb/1/www/www/wwwww w +1", "must be a number"),
        (
            "bbbbb/bbb/bbb/1/www/www/wwwww w 99999999999999999999",
            "too large",
        ),
        ("bbbbb/bbb/bbb/1/www/www/wwwww w 0 99999999999", "too large"),
        ("bbbbb/bbb/bbb/1/www/www/wwwww w 0 0", "starts at 1"),
        ("bbbbb/bbb/bbb/1/www/www/wwwww w 0 1 x", "unexpected text"),
        (&long, "unexpected text"),
        (
            "bbbbb/bbb/bbb/1/www/www/wwwwW w",
            "unexpected character 'W'",
        ),
        (
            "bbbbb/bbb/bbb/1/www/www/wwwwé w",
            "unexpected character 'é'",
        ),
        (
            "bbbbb/bbb/bbb/1/www/www/wwww\u{0} w",
            "unexpected character '?'",
        ),
        ("ｂbbbb/bbb/bbb/1/www/www/wwwww w", "unexpected character"),
    ];
    assert_positions_refused::<EgaraGuti>(&cases);
}

#[test]
fn hostile_moves_are_rejected_with_a_reason() {
    let game: EgaraGuti = position("5/3/3/1/3/1b1/wb1bb w 0 1");
    let long = "a1".repeat(50_000);
    let cases: Vec<(&str, &str)> = vec![
        ("c1a1", "no White man on c1"),
        ("e2e4", "no White man on e2"),
        ("a1e3", "not a step or a leap along a line"),
        ("a1g1", "not a step or a leap along a line"),
        ("a1d3", "not a capture: no Black man on c2"),
        ("a1c2", "a capture is compulsory"),
        ("a1c1", "c1 is occupied"),
        ("a1e1", "not complete"),
        ("a1e1e2", "e1e2 is a step"),
        ("a1e1i1", "occupied"),
        ("a1e1e3e1", "not a capture"),
        ("a1", "not an Egara-guti move"),
        ("a1e", "not an Egara-guti move"),
        ("a1b1", "not an Egara-guti move"),
        ("A1E1E3", "not an Egara-guti move"),
        ("a1-e1", "not an Egara-guti move"),
        ("a1e1e3 ", "not an Egara-guti move"),
        ("a1é1", "not an Egara-guti move"),
        ("0000", "not an Egara-guti move"),
        (&long, "not an Egara-guti move"),
    ];
    assert_moves_refused(&game, &cases);
    // A step followed by more is no move; a step onto a man neither.
    let start = EgaraGuti::start();
    assert!(
        start
            .parse_move("e3e4e5")
            .unwrap_err()
            .to_string()
            .contains("a step is a whole move")
    );
    assert!(
        start
            .parse_move("e2e3")
            .unwrap_err()
            .to_string()
            .contains("e3 is occupied")
    );
}

#[test]
fn the_board_tables_match_the_rules_table() {
    use ternion::games::egaraguti::board::{LINES, NAMES, NEIGHBOURS};
    let table = include_str!("../data/egaraguti-board.txt");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), NAMES.len());
    for (index, row) in rows.iter().enumerate() {
        assert_eq!(row[0], NAMES[index], "point order");
        let mut expected: Vec<&str> = row[3..].to_vec();
        expected.sort();
        let mut actual: Vec<&str> = (0..NAMES.len())
            .filter(|&p| NEIGHBOURS[index] & (1 << p) != 0)
            .map(|p| NAMES[p])
            .collect();
        actual.sort();
        assert_eq!(actual, expected, "neighbours of {}", row[0]);
    }
    // The eleven lines, as the rules list them.
    let lines: Vec<String> = LINES
        .iter()
        .map(|line| {
            line.iter()
                .map(|&p| NAMES[p as usize])
                .collect::<Vec<_>>()
                .join("-")
        })
        .collect();
    let expected = "a1-c1-e1-g1-i1; c2-e2-g2; d3-e3-f3; d5-e5-f5; c6-e6-g6; a7-c7-e7-g7-i7; \
                    e1-e2-e3-e4-e5-e6-e7; a1-c2-d3-e4-f5-g6-i7; i1-g2-f3-e4-d5-c6-a7; \
                    c1-c2-c6-c7; g1-g2-g6-g7";
    assert_eq!(lines.join("; "), expected);
}
