//! Lerontenin's static evaluation and its notion of a tactical move.
//!
//! The race is counted in turns, not squares. A side finishes no sooner than the total of
//! the moves its pieces still need (one piece moves per turn), and no sooner than its slowest
//! piece can get home: a piece that advanced `s` squares waits `s` turns, so a piece of power
//! `p` moves at most once every `p + 1` turns. Terms, each as (side to move) minus
//! (opponent):
//! - turns needed: the larger of those two bounds (a piece whose power does not divide its
//!   distance must divide on the way, which costs about two more moves), with the total of
//!   moves as a small second term so that every move forward counts;
//! - send-back threat: the best capture the side could make next turn, counted as the moves
//!   and squares it would cost the opponent (half for the side not to move, who must wait).

use super::army::{Army, END, Piece};
use super::{Lerontenin, LeronteninMove};
use crate::game::{BitSet, Player};

/// One turn of the race.
const TURN: i32 = 30;
/// One move still needed, beyond what the turns count.
const MOVE: i32 = 8;
/// A division on the way: the turn it takes and an extra move of the parts.
const DIVISION_MOVES: i32 = 2;
/// The SINGLE's average step (it chooses 1 or P(c), which cycles through 1..7).
const SINGLE_STEP: i32 = 3;
const THREAT_PIECE: i32 = TURN;
const THREAT_SQUARE: i32 = 2;
const TEMPO: i32 = 20;

impl Lerontenin {
    pub(super) fn static_eval(&self) -> i32 {
        let us = self.core.side;
        let them = us.opponent();
        let threat = |player: Player| self.best_send_back(player);
        self.side_score(us) - self.side_score(them) + threat(us) - threat(them) / 2 + TEMPO
    }

    fn side_score(&self, player: Player) -> i32 {
        let army = self.army(player);
        let mut total_moves = 0;
        let mut slowest = 0;
        for piece in army.pieces() {
            let moves = moves_needed(piece);
            total_moves += moves;
            if moves > 0 {
                let step = if piece.label.is_single() {
                    SINGLE_STEP
                } else {
                    piece.power as i32
                };
                slowest = slowest.max(piece.freeze as i32 + (moves - 1) * (step + 1) + 1);
            }
        }
        -(total_moves.max(slowest) * TURN + total_moves * MOVE)
    }

    /// The most `player` could cost the opponent with one forward move of a piece that is
    /// free now: each piece thrown back costs about a move, each square a little more.
    fn best_send_back(&self, player: Player) -> i32 {
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
                    best = best.max(cost_of_send_back(opponents, target));
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

/// The moves a piece still needs to finish.
fn moves_needed(piece: &Piece) -> i32 {
    let distance = (END - piece.square) as i32;
    if distance == 0 {
        return 0;
    }
    let step = if piece.label.is_single() {
        SINGLE_STEP
    } else {
        piece.power as i32
    };
    let moves = (distance + step - 1) / step;
    if piece.label.is_single() || distance % step == 0 {
        moves
    } else {
        moves + DIVISION_MOVES
    }
}

/// What a landing on `square` would cost the pieces of `army` standing there.
fn cost_of_send_back(army: &Army, square: u8) -> i32 {
    army.pieces()
        .iter()
        .filter(|p| p.square == square)
        .map(|p| THREAT_PIECE + army.send_back_distance(p).min(square) as i32 * THREAT_SQUARE)
        .sum()
}
