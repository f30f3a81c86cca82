//! Exact values from outside the search: an [`Oracle`] knows some positions' results for
//! certain (Egara-guti's exact tables are one), and the search asks it at every node before
//! searching. The search names no table type: it sees only this trait.

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

/// A source of exact values for positions of `G`.
pub trait Oracle<G: Rules>: Send + Sync {
    /// The exact value of `game` at its own counters, where known.
    fn probe(&self, game: &G) -> Option<Exact>;
}
