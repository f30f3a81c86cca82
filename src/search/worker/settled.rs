//! The scores of positions that need no search: a finished game, a repeated position, a
//! position the oracle knows, and the draw the root's contempt sets.

use super::Worker;
use crate::core::Outcome;
use crate::search::score::{DECIDED, MATE};
use crate::search::searchable::Searchable;

impl<G: Searchable> Worker<G> {
    /// The score of a position whose value needs no search, for the side to move `ply`
    /// plies from the root: a finished game, a position that repeats an earlier one (how
    /// the repetition rule would end the cycle), or one the oracle knows. The root is
    /// always searched (it has a move to find), so only its finished game counts there.
    #[inline]
    pub(super) fn settled_score(&self, game: &G, ply: usize) -> Option<i32> {
        if let Some(outcome) = game.outcome() {
            return Some(self.outcome_score(game, outcome, ply));
        }
        if ply == 0 {
            return None;
        }
        if game.repeats_earlier_position() {
            return Some(self.repetition_score(game, ply));
        }
        self.oracle_score(game, ply)
    }

    /// The score of a finished game for the side to move, `ply` plies from the root: the
    /// sooner a win (the later a loss), the better.
    #[inline]
    pub(super) fn outcome_score(&self, game: &G, outcome: Outcome, ply: usize) -> i32 {
        match outcome {
            Outcome::Draw => self.draw_score(game),
            Outcome::Win(winner) if winner == game.side_to_move() => MATE - ply as i32,
            Outcome::Win(_) => -MATE + ply as i32,
        }
    }

    /// The score of a position that occurred before, for the side to move: how the game's
    /// repetition rule would decide the cycle, a decided game short of a proven one.
    #[inline]
    pub(super) fn repetition_score(&self, game: &G, ply: usize) -> i32 {
        match game.repetition_outcome() {
            Outcome::Draw => self.draw_score(game),
            Outcome::Win(winner) if winner == game.side_to_move() => DECIDED - ply as i32,
            Outcome::Win(_) => -DECIDED + ply as i32,
        }
    }

    /// A draw by the rules for the side to move: the contempt below zero for the root's
    /// side, as far above for the other. (A draw the oracle proves stays 0: it is the
    /// value under best play, not a way out the other side may miss.)
    #[inline]
    pub(super) fn draw_score(&self, game: &G) -> i32 {
        match game.side_to_move() == self.root_side {
            true => self.root_draw,
            false => -self.root_draw,
        }
    }

    /// The score the oracle gives the position, where it knows it (counted as a table
    /// hit).
    #[inline]
    pub(super) fn oracle_score(&self, game: &G, ply: usize) -> Option<i32> {
        let exact = self.oracle.as_deref()?.probe(game)?;
        self.counts.add_oracle_hit();
        Some(exact.raw_score(ply))
    }
}
