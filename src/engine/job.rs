//! What `go` asks of a search: its limits, and how the move is chosen.

use crate::search::Limits;
use crate::search::mover::Mover;

/// What `go` asks of a search, beyond its limits.
#[derive(Clone, Debug, Default)]
pub struct SearchJob {
    pub limits: Limits,
    /// Root moves to consider, in notation, each legal here ([`Session::legal_among`](super::Session::legal_among)
    /// checked them; empty: all).
    pub searchmoves: Vec<String>,
    /// The number of best root moves to report (MultiPV), at least 1.
    pub multipv: usize,
    /// Whether the best move may carry the expected reply.
    pub ponder_move: bool,
    /// How to choose the move: the full search, a weakened level (a narrower search and a
    /// move drawn among its best lines) or a baseline, with the session's seeded draws.
    pub mover: Mover,
    /// `TablePlay`: where the exact tables know every move, the full engine plays their
    /// choice at once instead of searching (not in analysis: `go infinite`, `searchmoves`,
    /// several lines).
    pub tables_first: bool,
    /// `Contempt`: how far below zero the search scores a draw by the rules for the side it
    /// moves for, in centipawns.
    pub contempt: i32,
}
