//! Lerontenin's static evaluation and its notion of a tactical move.
//!
//! Terms, each as (side to move) minus (opponent):
//! - distance: every square covered counts (the race, and the flag-fall referee, reward it);
//! - finished pieces: a piece on 98 is safe from send-backs for good;
//! - freezes: every turn a piece must still sit out is tempo lost;
//! - stuck pieces: a piece that overshoots 98 must divide, which costs turns and squares;
//! - send-back threat: the best capture the side could make next turn, as the squares it
//!   would take from the opponent (only half counts for the side not to move, who must
//!   wait a turn).

use super::army::{Army, END};
use super::{Lerontenin, LeronteninMove};
use crate::game::{BitSet, Player};

const SQUARE: i32 = 4;
const FINISHED: i32 = 30;
const FREEZE: i32 = 3;
const STUCK: i32 = 40;
const THREAT: i32 = 4;
const TEMPO: i32 = 10;

impl Lerontenin {
    pub(super) fn static_eval(&self) -> i32 {
        let us = self.core.side;
        let them = us.opponent();
        let threat = |player: Player| self.best_send_back(player) as i32 * THREAT;
        self.side_score(us) - self.side_score(them) + threat(us) - threat(them) / 2 + TEMPO
    }

    fn side_score(&self, player: Player) -> i32 {
        let army = self.army(player);
        let mut score = 0;
        for piece in army.pieces() {
            score += piece.square as i32 * SQUARE - piece.freeze as i32 * FREEZE;
            if piece.finished() {
                score += FINISHED;
            } else if !piece.label.is_single() && piece.square + piece.power > END {
                score -= STUCK;
            }
        }
        score
    }

    /// The most squares `player` could throw the opponent back by with one forward move of
    /// a piece that is free now.
    fn best_send_back(&self, player: Player) -> u32 {
        let army = self.army(player);
        let opponents = self.army(player.opponent());
        let mut best = 0;
        for index in army.free().squares() {
            let piece = army.piece(index);
            let mut steps = [piece.power, 0];
            if piece.label.is_single() {
                steps[1] = army.single_power();
            }
            for step in steps.into_iter().filter(|&s| s > 0) {
                let target = piece.square + step;
                if (1..END).contains(&target) && opponents.count_on(target) > 0 {
                    best = best.max(thrown_back(opponents, target));
                }
            }
        }
        best
    }

    pub(super) fn captures(&self, mv: LeronteninMove) -> bool {
        let LeronteninMove::Forward { piece, steps } = mv else {
            return false;
        };
        let side = self.core.side;
        let target = self.army(side).piece(piece as usize).square + steps;
        (1..END).contains(&target) && self.army(side.opponent()).count_on(target) > 0
    }
}

/// The squares a landing on `square` would take from the pieces of `army` standing there.
fn thrown_back(army: &Army, square: u8) -> u32 {
    army.pieces()
        .iter()
        .filter(|p| p.square == square)
        .map(|p| army.send_back_distance(p).min(square) as u32)
        .sum()
}
