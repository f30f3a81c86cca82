//! Lielow as the search sees it: captures are its tactical moves, a null move is a fair
//! test on the 8x8 board, and games get shorter as stacks leave.

use super::geometry::{Board8, Board9, Geometry};
use super::levels;
use super::weights::BoardWeights;
use super::{Lielow, LielowMove};
use crate::core::BitSet;
use crate::games::playable::Playable;
use crate::games::variant::Variant;
use crate::search::Searchable;
use crate::search::levels::Levels;

/// What the search does differently on each board.
pub trait BoardHints {
    /// Whether the search tests positions of this board with a null move: kept where a
    /// match showed a gain (8x8: +18.5 Elo over 1,500 games); on 9x9 it showed none
    /// (docs/experiments.md).
    const NULL_MOVE: bool;

    /// The board's `Skill Level` table: each board mends two of the shared ladder's levels
    /// that did not play apart with its network (`levels.rs`).
    const LEVELS: &'static Levels;
}

impl BoardHints for Board8 {
    const NULL_MOVE: bool = true;
    const LEVELS: &'static Levels = &levels::BOARD8;
}

impl BoardHints for Board9 {
    const NULL_MOVE: bool = false;
    const LEVELS: &'static Levels = &levels::BOARD9;
}

impl<G: Geometry + BoardWeights + BoardHints> Searchable for Lielow<G> {
    /// Lielow has no pass, but zugzwang is rare in it: every move adds a checker or removes
    /// a stack, so a side that stays ahead even when the opponent moves twice is very
    /// likely ahead. Each board says whether a match showed a gain.
    const NULL_MOVE_PRUNING: bool = G::NULL_MOVE;
    const ASPIRATION_WINDOW: i32 = 25;

    fn is_tactical(&self, mv: LielowMove) -> bool {
        self.captures(mv)
    }

    /// The landings on enemy stacks, in the order `generate_moves` gives them, without
    /// building the quiet moves first.
    fn generate_tactical_moves(&self, out: &mut Vec<LielowMove>) {
        if self.result.is_some() {
            return;
        }
        let moves = G::move_tables();
        let enemy = self.stacks[self.side.opponent().index()];
        for from in self.stacks[self.side.index()].squares() {
            let height = self.height[from] as usize;
            for to in (moves.reach[height][from] & enemy).squares() {
                out.push(LielowMove::on_board(from, to));
            }
        }
    }

    fn make_null_move(&mut self) {
        self.flip_side();
    }

    fn unmake_null_move(&mut self) {
        self.flip_side();
    }

    /// Games last about 40 plies from the start (self-play at 1 s + 10 ms); fewer stacks,
    /// fewer moves to come.
    fn expected_moves_left(&self) -> u32 {
        12 + (self.stacks[0].count() + self.stacks[1].count()) / 2
    }
}

impl<G: Geometry + BoardWeights + BoardHints> Playable for Lielow<G> {
    const VARIANT: Variant = G::VARIANT;
    const LEVELS: &'static Levels = G::LEVELS;
}
