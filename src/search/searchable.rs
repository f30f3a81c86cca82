//! What the search asks of a game beyond its rules and evaluation: which moves are
//! tactical, whether it may pass, which of its heuristics suit the game, and how long the
//! game has left. Every hint has a default, so a new game is searchable as soon as it can
//! be evaluated; a game overrides a hint where a match showed it gains.

use super::limits::DEFAULT_EXPECTED_MOVES;
use crate::eval::Evaluate;

/// A game the search can play: its evaluation and its search hints.
pub trait Searchable: Evaluate {
    /// Whether the search may first search late quiet moves shallower (late move
    /// reductions): on by default; a game turns it off where matches showed it gains
    /// nothing there.
    const REDUCE_LATE_MOVES: bool = true;

    /// Whether the search may test a position by letting the opponent move twice
    /// (null-move pruning): off by default, for a game whose rules make passing a poor
    /// guide to a position's worth (zugzwang, compulsory captures, passes that change the
    /// state) or where a match showed no gain. A game that turns it on overrides
    /// [`Searchable::make_null_move`] and [`Searchable::unmake_null_move`].
    const NULL_MOVE_PRUNING: bool = false;

    /// The half-width of the window around the last iteration's score in which the root
    /// is first searched (aspiration); 0 (the default) searches every root with a full
    /// window, where a match showed no gain.
    const ASPIRATION_WINDOW: i32 = 0;

    /// Whether `mv` (legal here) changes the material: a capture. The search tries these
    /// first and keeps searching them past its depth limit (quiescence).
    fn is_tactical(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// Appends the tactical moves (those [`Searchable::is_tactical`] accepts) to `out`,
    /// in generation order: what quiescence searches. The default filters the full list;
    /// a game with a cheaper way overrides it.
    fn generate_tactical_moves(&self, out: &mut Vec<Self::Move>) {
        let start = out.len();
        self.generate_moves(out);
        let mut kept = start;
        for index in start..out.len() {
            if self.is_tactical(out[index]) {
                out[kept] = out[index];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Passes the turn without moving (a null move), for null-move pruning. Called only
    /// while the game is in play and only in games with [`Searchable::NULL_MOVE_PRUNING`].
    fn make_null_move(&mut self) {}

    /// Takes back the null move just made by [`Searchable::make_null_move`].
    fn unmake_null_move(&mut self) {}

    /// How many plies a result may still take before a counter of the rules (Egara-guti's
    /// 40 quiet plies) ends the game some other way; `None` (the default) in a game
    /// without one. The transposition table's hash leaves such a counter out, so a result
    /// read back from the table is trusted only where it fits in these plies.
    fn counter_plies_left(&self) -> Option<u32> {
        None
    }

    /// About how many more moves the side to move will play in this game: how a clock with
    /// no moves to go is spread. A rough figure by the game's phase; the default suits a
    /// game of middling length.
    fn expected_moves_left(&self) -> u32 {
        DEFAULT_EXPECTED_MOVES
    }
}
