//! Lerontenin as the search sees it: send-backs are its tactical moves, late move
//! reductions are off, its skill levels are its own, and the clock is spread over a race of
//! hundreds of turns.

use super::{Lerontenin, LeronteninMove, levels};
use crate::games::playable::Playable;
use crate::games::variant::Variant;
use crate::search::Searchable;
use crate::search::levels::Levels;

/// The turns of a side in an endgame of duels, beyond what its race needs (for the clock).
const ENDGAME_TURNS: u32 = 100;

impl Searchable for Lerontenin {
    // Late move reductions reach a ply deeper here, but no match showed a gain (two forms
    // measured), nor did a ply more at nodes of two moves: see docs/experiments.md.
    const REDUCE_LATE_MOVES: bool = false;

    fn is_tactical(&self, mv: LeronteninMove) -> bool {
        self.captures(mv)
    }

    /// The send-backs, found without generating every move and filtering.
    fn generate_tactical_moves(&self, out: &mut Vec<LeronteninMove>) {
        if self.core.result.is_none() {
            self.core.for_each_send_back(|mv| out.push(mv));
        }
    }

    /// Twice the moves the side to move's pieces still need by the fastest splits (one
    /// piece moves a turn: the send-backs to come, the passes of frozen armies and the
    /// extra parts of splitting for the square totals), and an endgame's worth more: the
    /// last pieces fight duels of send-backs and waiting moves that no count of squares
    /// foresees. From the start this gives about 610 turns; self-play games last 800 to
    /// 1,200 plies at 1 s a game, and over such games this estimate fell short of the
    /// turns still to come by at most 1.6x, where the count alone fell short by up to 5x
    /// in the endgame.
    fn expected_moves_left(&self) -> u32 {
        self.moves_needed(self.core.side) * 2 + ENDGAME_TURNS
    }
}

impl Playable for Lerontenin {
    const VARIANT: Variant = Variant::Lerontenin;
    const LEVELS: &'static Levels = &levels::LEVELS;
}
