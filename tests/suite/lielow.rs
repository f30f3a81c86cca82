//! The test facts of the Lielow rules, the crown cases, and hostile text input.

use crate::common;

use common::{
    assert_moves_refused, assert_positions_refused, legal_move_strings, play, position, sorted,
};
use ternion::core::{MoveError, Outcome, Player};
use ternion::games::lielow::{Lielow8, Lielow9};
use ternion::rules::Notation;
use ternion::rules::Rules;

const START_8: &str = "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b";
const START_9: &str =
    "r1r1r1r1r1r1r1r1r1/9/r1r1r1r1r1r1r1r1r1/9/9/9/b1b1b1b1b1b1b1b1b1/9/b1b1b1b1b1b1b1b1b1 b";

/// Plays one move from `before` and returns the new position string and outcome.
fn after(before: &str, mv: &str) -> (String, Option<Outcome>) {
    let mut game: Lielow8 = position(before);
    play(&mut game, mv);
    (game.position_string(), game.outcome())
}

#[test]
fn start_positions_and_their_move_counts() {
    assert_eq!(Lielow8::start().position_string(), START_8);
    assert_eq!(Lielow9::start().position_string(), START_9);
    assert_eq!(position::<Lielow8>(START_8), Lielow8::start());
    assert_eq!(position::<Lielow9>(START_9), Lielow9::start());
    assert_eq!(Lielow8::start().count_moves(), 46);
    assert_eq!(Lielow9::start().count_moves(), 86);
    assert_eq!(Lielow8::start().side_to_move(), Player::P1);
    assert_eq!(Lielow8::start().outcome(), None);
}

#[test]
fn fact_3_capturing_the_king_wins() {
    let before = "8/8/8/3r2*4/8/3b2*4/8/8 b";
    let game: Lielow8 = position(before);
    assert_eq!(
        legal_move_strings(&game),
        sorted("d3b1 d3b3 d3b5 d3d1 d3d5 d3f1 d3f3 d3f5")
    );
    let (text, outcome) = after(before, "d3d5");
    assert_eq!(outcome, Some(Outcome::Win(Player::P1)));
    // The capturing king drops to height 1 and keeps its crown.
    assert_eq!(text, "8/8/8/3b1*4/8/8/8/8 r");
    // No other move ends the game.
    assert_eq!(after(before, "d3f5").1, None);
}

#[test]
fn fact_4_a_capturing_king_keeps_the_crown_over_a_tie() {
    let before = "7r2*/3r14/8/8/3b3*4/8/8/b2b26 b";
    let game: Lielow8 = position(before);
    assert_eq!(
        legal_move_strings(&game),
        sorted("a1a3 a1c1 a1c3 a1off b1b3 b1d1 b1d3 b1off d4a4 d4a7 d4d1 d4d7 d4g1 d4g4 d4g7")
    );
    assert_eq!(
        after(before, "d4d7"),
        ("7r2*/3b1*4/8/8/8/8/8/b2b26 r".to_owned(), None)
    );
}

#[test]
fn fact_5_the_crown_moves_to_a_unique_tallest_stack() {
    let before = "7r2*/3r14/8/8/3b3*4/8/8/b27 b";
    let game: Lielow8 = position(before);
    assert_eq!(game.count_moves(), 11);
    assert_eq!(legal_move_strings(&game).len(), 11);
    assert_eq!(
        after(before, "d4d7"),
        ("7r2*/3b14/8/8/8/8/8/b2*7 r".to_owned(), None)
    );
}

#[test]
fn fact_6_the_opponent_is_crowned_during_the_movers_turn() {
    let before = "7r1*/8/2r22r22/8/2b2*5/8/8/8 b";
    assert_eq!(
        after(before, "c4c6"),
        ("7r1/8/2b1*2r2*2/8/8/8/8/8 r".to_owned(), None)
    );
}

#[test]
fn fact_7_taking_ones_own_king_off_loses() {
    let before = "7r1*/8/8/8/8/8/8/b1*7 b";
    let game: Lielow8 = position(before);
    assert_eq!(legal_move_strings(&game), sorted("a1a2 a1b1 a1b2 a1off"));
    let (_, outcome) = after(before, "a1off");
    assert_eq!(outcome, Some(Outcome::Win(Player::P2)));
}

#[test]
fn fact_8_a_stack_of_full_height_can_only_leave() {
    let before = "7r1*/8/8/8/3b6*4/8/8/8 b";
    let game: Lielow8 = position(before);
    assert_eq!(legal_move_strings(&game), sorted("d4off"));
    assert_eq!(after(before, "d4off").1, Some(Outcome::Win(Player::P2)));
}

#[test]
fn growth_on_empty_squares_and_the_first_crown() {
    // The first move makes a height-2 stack, uniquely tallest, so Blue is crowned at once.
    let (text, _) = after(START_8, "d2d3");
    assert_eq!(text, "8/r1r1r1r1r1r1r1r1/8/8/8/3b2*4/b1b1b11b1b1b1b1/8 r");
    // A second stack of height 2 ties: the crown stays.
    let mut game = Lielow8::start();
    play(&mut game, "d2d3 a7a6 e2e3");
    assert_eq!(
        game.position_string(),
        "8/1r1r1r1r1r1r1r1/r2*7/8/8/3b2*b23/b1b1b12b1b1b1/8 r"
    );
}

#[test]
fn a_lone_stack_is_always_crowned() {
    // Red's lone stack is not marked: after any move the crown rule gives it its crown.
    let (text, outcome) = after("7r1/8/8/8/8/8/8/b1*b16 b", "b1b2");
    assert_eq!(text, "7r1*/8/8/8/8/8/1b2*6/b17 r");
    assert_eq!(outcome, None);
}

#[test]
fn off_moves_exist_at_any_distance_and_only_once() {
    // A height-3 stack on b2 leaves the board to the south-west, south, west, ... : one move.
    let game: Lielow8 = position("7r1*/8/8/8/8/8/1b3*6/8 b");
    let moves = legal_move_strings(&game);
    assert_eq!(moves.iter().filter(|m| m.ends_with("off")).count(), 1);
    assert_eq!(moves, sorted("b2b5 b2e2 b2e5 b2off"));
    // Height 1 in the middle has no off move.
    let game: Lielow8 = position("7r1*/8/8/3b1*4/8/8/8/8 b");
    assert!(!legal_move_strings(&game).contains(&"d5off".to_owned()));
}

#[test]
fn capturing_the_last_uncrowned_stack_wins() {
    // Only reachable from a given position string: Red's single stack has no crown.
    let (_, outcome) = after("8/8/8/8/8/8/r17/b1*7 b", "a1a2");
    assert_eq!(outcome, Some(Outcome::Win(Player::P1)));
}

#[test]
fn a_side_without_stacks_has_lost() {
    let game: Lielow8 = position("8/8/8/8/8/8/8/b1*7 r");
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(game.count_moves(), 0);
    assert_eq!(game.parse_move("a1a2"), Err(MoveError::GameOver));
}

#[test]
fn a_finished_game_refuses_moves() {
    let mut game: Lielow8 = position("8/8/8/3r2*4/8/3b2*4/8/8 b");
    play(&mut game, "d3d5");
    assert_eq!(game.count_moves(), 0);
    for mv in ["d5d6", "d5off", "a1a2"] {
        assert_eq!(game.parse_move(mv), Err(MoveError::GameOver), "{mv}");
    }
}

#[test]
fn position_strings_are_read_leniently_and_written_canonically() {
    // Consecutive digits add up; surrounding whitespace is ignored.
    let game: Lielow8 = position("  44/8/8/8/8/8/8/b1*61 \t b ");
    assert_eq!(game.position_string(), "8/8/8/8/8/8/8/b1*7 b");
    // The 9x9 board reads one-digit heights up to 9.
    let game: Lielow9 = position("9/9/9/9/4r9*4/9/9/9/b1*8 r");
    assert_eq!(game.position_string(), "9/9/9/9/4r9*4/9/9/9/b1*8 r");
}

#[test]
fn hostile_position_strings_are_rejected_with_a_reason() {
    let huge = "9".repeat(10_000);
    let long_garbage = format!("{START_8} {}", "x".repeat(100_000));
    let cases: Vec<(&str, &str)> = vec![
        ("", "empty"),
        ("   \t ", "empty"),
        ("8/8/8/8/8/8/8/8", "missing the side"),
        ("8/8/8/8/8/8/8/8 w", "side to move"),
        ("8/8/8/8/8/8/8/8 b", "no stacks"),
        ("8/8/8/8/8/8/8/b1*7 b r", "unexpected text"),
        (&long_garbage, "unexpected text"),
        ("8/8/8/8/8/8/8 b", "7 ranks"),
        ("8/8/8/8/8/8/8/8/8 b", "9 ranks"),
        (START_9, "9 ranks"),
        ("8/8/8/8/8/8/8/b1*6 b", "7 squares"),
        ("8/8/8/8/8/8/8/b1*8 b", "more than 8"),
        ("8/8/8/8/8/8/8/b1*1b11b1*3 b", "two crowns"),
        ("8/8/8/8/8/8/8/b07 b", "outside 1..8"),
        ("8/8/8/8/8/8/8/b97 b", "outside 1..8"),
        ("8/8/8/8/8/8/8/b 7 b", "without a height"),
        ("8/8/8/8/8/8/8/b", "without a height"),
        ("8/8/8/8/8/8/8/b1**7 b", "'*' must follow"),
        ("8/8/8/8/8/8/8/*8 b", "'*' must follow"),
        ("8/8/8/8/8/8/8/08 b", "cannot be 0"),
        ("8/8/8/8/8/8/8/g1*7 b", "unexpected character"),
        ("8/8/8/8/8/8/8/B1*7 b", "unexpected character"),
        ("8/8/8/8/8/8/8/b1*7 B", "side to move"),
        ("8/8/8/8/8/8/8/b1*é6 b", "unexpected character 'é'"),
        ("８/8/8/8/8/8/8/b1*7 b", "unexpected character"),
        ("8/8/8/8/8/8/8/b1*-7 b", "unexpected character '-'"),
        (&huge, "1 ranks given"),
        ("8/8/8/8/8/8/8/b1*99999999999999999999 b", "more than 8"),
        ("///////", "0 squares"),
        ("/////// b", "0 squares"),
    ];
    assert_positions_refused::<Lielow8>(&cases);
    // On the 9x9 board, an 8x8 string and a height above 9 are rejected too.
    assert!(Lielow9::parse_position(START_8).is_err());
    assert!(Lielow9::parse_position("9/9/9/9/9/9/9/9/b1*8 r").is_ok());
    assert!(
        Lielow9::parse_position("9/9/9/9/9/9/9/9/b0*8 r")
            .unwrap_err()
            .to_string()
            .contains("outside 1..9")
    );
}

#[test]
fn hostile_moves_are_rejected_with_a_reason() {
    let game: Lielow8 = position("7r2*/3r14/8/8/3b3*4/8/8/b2b26 b");
    let long = "a".repeat(100_000);
    let cases: Vec<(&str, &str)> = vec![
        ("d4d5", "moves exactly 3 squares"),
        ("d4e6", "moves exactly 3 squares"),
        ("d4d4", "moves exactly 3 squares"),
        ("a1b1", "moves exactly 2 squares"),
        ("a1a3x", "not a Lielow move"),
        ("c3c4", "no stack on c3"),
        ("d7d6", "holds a Red stack"),
        ("d4off", "cannot leave the board"),
        ("d4xd7", "not a Lielow move"),
        ("D4D7", "not a Lielow move"),
        ("d9d7", "not a Lielow move"),
        ("i4d7", "not a Lielow move"),
        ("d4", "not a Lielow move"),
        ("d4d", "not a Lielow move"),
        ("d4of", "not a Lielow move"),
        ("d4offf", "not a Lielow move"),
        ("d4 d7", "not a Lielow move"),
        ("d4d7\n", "not a Lielow move"),
        ("é4d7", "not a Lielow move"),
        ("d4d7é", "not a Lielow move"),
        ("0000", "not a Lielow move"),
        (&long, "not a Lielow move"),
    ];
    assert_moves_refused(&game, &cases);
    assert!(game.parse_move("a1c1").is_ok());
    // Landing on one's own stack.
    let game: Lielow8 = position("7r2*/8/8/8/8/8/8/b2*1b15 b");
    let error = game.parse_move("a1c1").unwrap_err();
    assert_eq!(
        error,
        MoveError::Illegal("c1 holds a Blue stack".to_owned())
    );
    // A square of the 9x9 board is no square of the 8x8 board.
    assert!(Lielow8::start().parse_move("i3i4").is_err());
    assert!(Lielow9::start().parse_move("i3i4").is_ok());
}

#[test]
fn a_bad_move_in_a_sequence_leaves_the_position_after_the_good_ones() {
    let mut game = Lielow8::start();
    let error = game
        .play_moves(["d2d3", "a7a6", "d3d4"])
        .expect_err("d3 holds a height-2 stack");
    assert_eq!(error.0, 3);
    let mut expected = Lielow8::start();
    play(&mut expected, "d2d3 a7a6");
    assert_eq!(game, expected);
}

#[test]
fn a_position_mirrored_left_to_right_and_its_moves() {
    let game = Lielow8::parse_position("7r2*/3r14/8/8/3b3*4/8/8/b2b26 b").unwrap();
    let mirror = game.mirrored().expect("Lielow mirrors");
    assert_eq!(mirror.position_string(), "r2*7/4r13/8/8/4b3*3/8/8/6b2b2 b");
    let mv = game.parse_move("d4a7").unwrap();
    assert_eq!(mirror.move_string(game.mirrored_move(mv)), "e4h7");
    let off = game.parse_move("a1off").unwrap();
    assert_eq!(mirror.move_string(game.mirrored_move(off)), "h1off");
    // Both starts are their own mirrors.
    assert_eq!(Lielow8::start().mirrored(), Some(Lielow8::start()));
    assert_eq!(Lielow9::start().mirrored(), Some(Lielow9::start()));
}
