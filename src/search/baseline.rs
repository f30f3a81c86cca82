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
    match rng.u8(0..100) < greedy_percent {
        true => greedy_move(game, rng),
        false => random_move(game, rng),
    }
}

/// A legal move drawn uniformly from `rng`; `None` when the game is over.
pub fn random_move<G: Searchable>(game: &G, rng: &mut fastrand::Rng) -> Option<G::Move> {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    (!moves.is_empty()).then(|| moves[rng.usize(..moves.len())])
}

/// The move that looks best one ply ahead: a win first, a loss last, a draw as 0, any other
/// position by the opponent's static evaluation, negated. Ties are broken by `rng`, so that
/// two greedy games from one position need not be the same. `None` when the game is over.
pub fn greedy_move<G: Searchable>(game: &G, rng: &mut fastrand::Rng) -> Option<G::Move> {
    let me = game.side_to_move();
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    let mut scratch = game.clone();
    let values: Vec<i32> = moves
        .iter()
        .map(|&mv| {
            let undo = scratch.make_move(mv);
            let value = match scratch.outcome() {
                Some(Outcome::Win(winner)) if winner == me => i32::MAX,
                Some(Outcome::Win(_)) => i32::MIN,
                Some(Outcome::Draw) => 0,
                None => -scratch.evaluate(),
            };
            scratch.unmake_move(mv, undo);
            value
        })
        .collect();
    let best = values.iter().copied().max()?;
    let ties: Vec<G::Move> = moves
        .iter()
        .zip(&values)
        .filter(|&(_, &value)| value == best)
        .map(|(&mv, _)| mv)
        .collect();
    Some(ties[rng.usize(..ties.len())])
}
