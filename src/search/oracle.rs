//! Exact values from outside the search: an [`Oracle`] knows some positions' results for
//! certain (Egara-guti's exact tables are one), and the search asks it at every node before
//! searching. The search names no table type: it sees only this trait.

use super::score::ORACLE_WIN;
use crate::core::Wdl;
use crate::rules::Rules;

/// What an oracle knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exact {
    /// The value for the side to move, at the position's own counters.
    pub wdl: Wdl,
    /// The plies until the capture or block that decides a win or loss (0 where unknown):
    /// the search prefers the shorter win and holds a loss out longest by it.
    pub distance: u8,
}

impl Exact {
    /// The search's raw score of this value at a node `ply` plies from the root: a result
    /// `distance` plies further, above any cycle the repetition rule decides and below a
    /// win the search proved itself (see [`ORACLE_WIN`]).
    pub fn raw_score(self, ply: usize) -> i32 {
        let win = ORACLE_WIN - ply as i32 - self.distance as i32;
        match self.wdl {
            Wdl::Win => win,
            Wdl::Draw => 0,
            Wdl::Loss => -win,
        }
    }
}

/// One legal move with the exact value it keeps for the side that plays it: `distance`
/// counts the plies from before the move to the capture, block or end that decides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactMove<M> {
    pub mv: M,
    pub exact: Exact,
}

/// A source of exact values for positions of `G`.
pub trait Oracle<G: Rules>: Send + Sync {
    /// The exact value of `game` at its own counters, where known.
    fn probe(&self, game: &G) -> Option<Exact>;

    /// Every legal move of `game` with its exact value, best first for the side to move
    /// (the quickest win, the longest loss); `None` unless the oracle knows every move.
    /// What a board shows beside the position.
    fn rank_moves(&self, game: &G) -> Option<Vec<ExactMove<G::Move>>> {
        let _ = game;
        None
    }

    /// The move the oracle plays in `game`, where it knows every move: the best value, and
    /// among equals the one that asks most of the opponent (see each oracle's own rule).
    fn choose(&self, game: &G) -> Option<ExactMove<G::Move>> {
        self.rank_moves(game)?.first().copied()
    }
}
