//! Baseline movers: a random legal move, and the move that looks best one ply ahead.
//!
//! They are the yardsticks of the strength tests, and the weak opponents `ternion --play`
//! offers to arenas and front ends (a random mover is the usual first sparring partner of a
//! new engine). They look at the root only, so a move list per call is no concern.

use std::fmt;
use std::str::FromStr;

use crate::core::Outcome;

use super::searchable::Searchable;

/// How the engine picks its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Play {
    /// The search, within the limits of `go`.
    #[default]
    Search,
    /// Any legal move, uniformly at random.
    Random,
    /// A winning move if there is one, else the move after which the static evaluation is
    /// best for the mover; ties are broken at random.
    Greedy,
    /// The greedy move with this chance in percent (1 to 99), else a random move: the rungs
    /// between the random and the greedy mover on a ladder of strengths (`greedy:50`).
    Mixed { greedy_percent: u8 },
}

impl Play {
    /// The names on the command line, in the order of the variants.
    pub const NAMES: [&'static str; 4] = ["search", "random", "greedy", "greedy:<percent>"];
}

impl FromStr for Play {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if let Some(percent) = text.strip_prefix("greedy:") {
            return match percent.parse::<u8>() {
                Ok(greedy_percent @ 1..=99) => Ok(Play::Mixed { greedy_percent }),
                _ => Err(format!(
                    "'{text}': the greedy move's chance is a percentage from 1 to 99"
                )),
            };
        }
        match text {
            "search" => Ok(Play::Search),
            "random" => Ok(Play::Random),
            "greedy" => Ok(Play::Greedy),
            _ => Err(format!(
                "unknown way to play '{text}' (expected one of: {})",
                Play::NAMES.join(", ")
            )),
        }
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Play::Search => f.write_str("search"),
            Play::Random => f.write_str("random"),
            Play::Greedy => f.write_str("greedy"),
            Play::Mixed { greedy_percent } => write!(f, "greedy:{greedy_percent}"),
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_round_trip() {
        for name in [
            "search",
            "random",
            "greedy",
            "greedy:1",
            "greedy:50",
            "greedy:99",
        ] {
            assert_eq!(
                name.parse::<Play>().map(|play| play.to_string()),
                Ok(name.into())
            );
        }
        assert_eq!(
            "best".parse::<Play>(),
            Err("unknown way to play 'best' (expected one of: search, random, greedy, greedy:<percent>)".into())
        );
        for bad in ["greedy:0", "greedy:100", "greedy:", "greedy:x"] {
            assert!(bad.parse::<Play>().is_err(), "{bad}");
        }
    }
}
