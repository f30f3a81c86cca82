//! Helpers shared by the integration tests.

#![allow(dead_code)] // each test crate uses its own part of these helpers

pub mod conformance;
pub mod engine;
pub mod perft_data;

use ternion::games::Playable;

/// The sorted notations of all legal moves, for comparing against the rules' lists.
pub fn legal_move_strings<G: Playable>(game: &G) -> Vec<String> {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&mv| game.move_string(mv)).collect();
    texts.sort();
    texts
}

/// Splits a space-separated list and sorts it.
pub fn sorted(list: &str) -> Vec<String> {
    let mut items: Vec<String> = list.split_whitespace().map(str::to_owned).collect();
    items.sort();
    items
}

/// Parses a position, panicking with the parser's reason if it is rejected.
pub fn position<G: Playable>(text: &str) -> G {
    G::parse_position(text).unwrap_or_else(|e| panic!("{text:?} rejected: {e}"))
}

/// Plays space-separated moves, panicking with the reason on the first bad one.
pub fn play<G: Playable>(game: &mut G, moves: &str) {
    game.play_moves(moves.split_whitespace())
        .unwrap_or_else(|(ply, e)| panic!("move {ply} of {moves:?} rejected: {e}"));
}

/// The longest error message a bad input may get: one line for a terminal or a log.
const MAX_ERROR_LEN: usize = 240;

/// Checks that every `(text, reason)` position string is refused with a one-line error that
/// mentions `reason`, and that an empty one is refused as `Empty`.
pub fn assert_positions_refused<G: Playable>(cases: &[(&str, &str)]) {
    for &(text, reason) in cases {
        let Err(error) = G::parse_position(text) else {
            panic!("{text:?} was accepted");
        };
        assert_one_line(text, &error.to_string(), reason);
        if text.trim().is_empty() {
            assert_eq!(error, ternion::core::PositionError::Empty);
        }
    }
}

/// Checks that every `(text, reason)` move is refused in `game` with a one-line error that
/// mentions `reason`, and that an empty move is refused as `Empty`.
pub fn assert_moves_refused<G: Playable>(game: &G, cases: &[(&str, &str)]) {
    for &(text, reason) in cases {
        let Err(error) = game.parse_move(text) else {
            panic!("{text:?} was accepted");
        };
        assert_one_line(text, &error.to_string(), reason);
    }
    assert_eq!(game.parse_move(""), Err(ternion::core::MoveError::Empty));
}

fn assert_one_line(text: &str, message: &str, reason: &str) {
    assert!(
        message.contains(reason),
        "{text:?}: {message:?} lacks {reason:?}"
    );
    assert!(
        !message.contains('\n') && message.len() < MAX_ERROR_LEN,
        "{text:?}: the error must be one short line: {message:?}"
    );
}

/// The words of a `ternion match` between two engine command lines in `variant`, then
/// `rest`: what every match the tests play starts with.
pub fn match_args<'a>(
    first: &'a str,
    second: &'a str,
    variant: &'a str,
    rest: &[&'a str],
) -> Vec<&'a str> {
    let mut words = vec!["--engine", first, "--engine", second, "--variant", variant];
    words.extend_from_slice(rest);
    words
}
