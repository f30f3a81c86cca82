//! Baseline movers: a random legal move, and the move that looks best one ply ahead.
//!
//! They are the yardsticks of the strength tests, and the weak opponents that `ternion
//! --play` offers to arenas and front ends through the [`Mover`](super::mover::Mover) (a
//! random mover is the usual first sparring partner of a new engine). They look at the
//! root only, so a move list per call is no concern.

use crate::core::Outcome;

use super::searchable::Searchable;

/// The greedy move with a chance of `greedy_percent` in 100, else a random one, both from
/// `rng`; `None` when the game is over.
pub fn mixed_move<G: Searchable>(
    game: &G,
    greedy_percent: u8,
    rng: &mut fastrand::Rng,
) -> Option<G::Move> {
    mixed_among(game, &legal_moves(game), greedy_percent, rng)
}

/// A legal move drawn uniformly from `rng`; `None` when the game is over.
pub fn random_move<G: Searchable>(game: &G, rng: &mut fastrand::Rng) -> Option<G::Move> {
    random_among::<G>(&legal_moves(game), rng)
}

/// The move that looks best one ply ahead: a win first, a loss last, a draw as 0, any other
/// position by the opponent's static evaluation, negated. Ties are broken by `rng`, so that
/// two greedy games from one position need not be the same. `None` when the game is over.
pub fn greedy_move<G: Searchable>(game: &G, rng: &mut fastrand::Rng) -> Option<G::Move> {
    greedy_among(game, &legal_moves(game), rng)
}

/// Every legal move of `game`.
fn legal_moves<G: Searchable>(game: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    moves
}

/// [`mixed_move`] among `moves` (legal in `game`: all of them, or `go searchmoves`).
pub fn mixed_among<G: Searchable>(
    game: &G,
    moves: &[G::Move],
    greedy_percent: u8,
    rng: &mut fastrand::Rng,
) -> Option<G::Move> {
    match rng.u8(0..100) < greedy_percent {
        true => greedy_among(game, moves, rng),
        false => random_among::<G>(moves, rng),
    }
}

/// [`random_move`] among `moves`.
pub fn random_among<G: Searchable>(moves: &[G::Move], rng: &mut fastrand::Rng) -> Option<G::Move> {
    (!moves.is_empty()).then(|| moves[rng.usize(..moves.len())])
}

/// [`greedy_move`] among `moves` (legal in `game`).
pub fn greedy_among<G: Searchable>(
    game: &G,
    moves: &[G::Move],
    rng: &mut fastrand::Rng,
) -> Option<G::Move> {
    let values = one_ply_values(game, moves, G::evaluate);
    let best = values.iter().copied().max()?;
    let ties: Vec<G::Move> = moves
        .iter()
        .zip(&values)
        .filter(|&(_, &value)| value == best)
        .map(|(&mv, _)| mv)
        .collect();
    Some(ties[rng.usize(..ties.len())])
}

/// Of `moves` (legal in `game`), the one that looks best one ply ahead by `evaluate` (a
/// static evaluation for the side to move), the first of equals: the answer of last resort
/// when a search has not finished an iteration in time. `None` when `moves` is empty.
pub fn one_ply_best<G: Searchable>(
    game: &G,
    moves: &[G::Move],
    evaluate: impl Fn(&G) -> i32,
) -> Option<G::Move> {
    let values = one_ply_values(game, moves, evaluate);
    let best = values.iter().copied().max()?;
    let at = values.iter().position(|&value| value == best)?;
    Some(moves[at])
}

/// Each of `moves`' value for the side to move in `game`, one ply ahead: a win is worth the
/// most, a loss the least, a draw 0, any other position `evaluate`'s value for whoever moves
/// there, from the mover's side.
fn one_ply_values<G: Searchable>(
    game: &G,
    moves: &[G::Move],
    evaluate: impl Fn(&G) -> i32,
) -> Vec<i32> {
    let me = game.side_to_move();
    let mut scratch = game.clone();
    moves
        .iter()
        .map(|&mv| {
            let undo = scratch.make_move(mv);
            let value = match scratch.outcome() {
                Some(Outcome::Win(winner)) if winner == me => i32::MAX,
                Some(Outcome::Win(_)) => i32::MIN,
                Some(Outcome::Draw) => 0,
                None if scratch.side_to_move() == me => evaluate(&scratch),
                None => -evaluate(&scratch),
            };
            scratch.unmake_move(mv, undo);
            value
        })
        .collect()
}
