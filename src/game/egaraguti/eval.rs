//! Egara-guti's static evaluation and its notion of a tactical move.
//!
//! Terms, each as (side to move) minus (opponent):
//! - men: the count decides the game at its end, so each man weighs most;
//! - mobility: steps available, a small bonus each (a side without moves loses);
//! - exposure: men an enemy man could leap over right now, a penalty each;
//! - centre: men on the apex and the two rank lines around it, which reach both triangles.

use super::board::{JUMPABLE, LEAP_TO, NEIGHBOURS};
use super::{EgaraGuti, EgaraMove, bit};
use crate::game::{BitSet, Player};

const MAN: i32 = 100;
const STEP: i32 = 4;
const EXPOSED: i32 = 25;
const APEX: i32 = 8;
const NEAR_APEX: i32 = 4;
const TEMPO: i32 = 5;

/// d3 e3 f3 and d5 e5 f5.
const NEAR_APEX_POINTS: u32 = 0b111 << 8 | 0b111 << 12;
/// e4.
const APEX_POINT: u32 = 1 << 11;

impl EgaraGuti {
    pub(super) fn static_eval(&self) -> i32 {
        let us = self.side;
        self.side_score(us) - self.side_score(us.opponent()) + TEMPO
    }

    fn side_score(&self, player: Player) -> i32 {
        let own = self.men[player.index()];
        let enemy = self.men[player.opponent().index()];
        let empty = self.empty_points();
        let steps: u32 = own
            .squares()
            .map(|p| (NEIGHBOURS[p] & empty).count_ones())
            .sum();
        // An own man is exposed when an enemy man stands next to it on a line and the point
        // beyond it, on the same line, is empty.
        let exposed = own
            .squares()
            .filter(|&man| {
                (JUMPABLE[man] & enemy).squares().any(|attacker| {
                    let to = LEAP_TO[attacker][man];
                    to != super::board::NO_POINT && empty & bit(to as usize) != 0
                })
            })
            .count() as i32;
        own.count_ones() as i32 * MAN + steps as i32 * STEP - exposed * EXPOSED
            + (own & APEX_POINT).count_ones() as i32 * APEX
            + (own & NEAR_APEX_POINTS).count_ones() as i32 * NEAR_APEX
    }

    pub(super) fn captures(mv: EgaraMove) -> bool {
        mv.captured() != 0
    }
}
