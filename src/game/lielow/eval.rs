//! Lielow's static evaluation and its notion of a tactical move.
//!
//! Terms, each as (side to move) minus (opponent):
//! - material: every stack is worth a base value plus a little per checker, since a stack is
//!   a piece that can capture, and height is reach;
//! - king exposure: each enemy stack that could land on the king's square next move is a
//!   large penalty (the king is lost to such a capture);
//! - mobility: the number of legal moves, a small bonus per move.
//!
//! Crown prospects are left to the search: the crown follows the uniquely tallest stack, so
//! the height term already rewards growing one.

use super::geometry::Geometry;
use super::{Lielow, LielowMove};
use crate::game::{BitSet, Player};

const STACK: i32 = 100;
const CHECKER: i32 = 12;
const KING_ATTACKER: i32 = 180;
const MOBILITY: i32 = 3;
const TEMPO: i32 = 10;

impl<G: Geometry> Lielow<G> {
    pub(super) fn static_eval(&self) -> i32 {
        let us = self.side;
        self.side_score(us) - self.side_score(us.opponent()) + TEMPO
    }

    fn side_score(&self, player: Player) -> i32 {
        let own = self.stacks[player.index()];
        let checkers: i32 = own.squares().map(|s| self.height[s] as i32).sum();
        let material = own.count() as i32 * STACK + checkers * CHECKER;
        let mobility = self.mobility(player) as i32 * MOBILITY;
        material + mobility - self.king_attackers(player) as i32 * KING_ATTACKER
    }

    /// How many enemy stacks could land on `player`'s king next move. Reach is symmetric:
    /// a stack of height h on s reaches k exactly when k's height-h reach contains s.
    fn king_attackers(&self, player: Player) -> u32 {
        let Some(king) = self.king(player) else {
            return 0;
        };
        let enemy = self.stacks[player.opponent().index()];
        let tables = G::tables();
        (1..=G::N)
            .map(|h| (enemy & self.by_height[h] & tables.reach[h][king]).count())
            .sum()
    }

    pub(super) fn captures(&self, mv: LielowMove) -> bool {
        mv.to().is_some_and(|to| self.height[to] != 0)
    }
}
