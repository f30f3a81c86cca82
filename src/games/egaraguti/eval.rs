//! Egara-guti's static evaluation, as a weighted sum of features, and its notion of a
//! tactical move.
//!
//! Features, each as (side to move) minus (opponent) unless said otherwise:
//! - men: the count decides the game at its end, so each man weighs most;
//! - steps: steps available (a side without moves loses);
//! - exposed, for each side apart: the side to move's men an enemy man could leap over, and
//!   the enemy men the side to move can leap over now (captures are compulsory, so the side
//!   to move takes first);
//! - tempo: 1 for the side to move;
//! - men by the 40-ply counter: the men's difference times the plies since the last capture,
//!   for a lead that the 40-ply rule is about to cash;
//! - lead: 1, 0 or -1 as the side to move has more, as many or fewer men: the 40-ply rule
//!   and a repetition give the game to the side with more men by any margin, so a lead of
//!   one man is worth far more than a man's share of the material;
//! - lead by the 40-ply counter: the lead times the plies since the last capture;
//! - points: a man on each point, the board folded left to right and seen from each player's
//!   own base, so that both players' tables are the same. The corners a1 and i1 have no
//!   feature of their own: they are the points the others are measured from (with one
//!   feature for every point, the points' sum would equal the men, and a fit could move
//!   weight from one to the other for ever).
//!
//! The weights are in `weights.rs`.

use super::board::{JUMPABLE, LEAP_TO, NEIGHBOURS, NO_POINT, POINTS};
use super::weights::WEIGHTS;
use super::{EgaraGuti, EgaraMove, bit};
use crate::core::{BitSet, Player};
use crate::eval::{Evaluate, FeatureSink};

const MEN: usize = 0;
const STEPS: usize = 1;
const EXPOSED_OWN: usize = 2;
const EXPOSED_ENEMY: usize = 3;
const TEMPO: usize = 4;
const MEN_BY_COUNTER: usize = 5;
const LEAD: usize = 6;
const LEAD_BY_COUNTER: usize = 7;
/// The feature of point class 1, the first of the points' features; class 0 (the corners of
/// the own base) has none.
const FIRST_POINT: usize = 8;
/// The number of features.
pub(super) const FEATURE_COUNT: usize = FIRST_POINT + CLASS_NAMES.len();

/// The class of each point seen from White's base (left and right folded together); Black
/// sees point `p` as White sees point `22 - p`.
const CLASS: [u8; POINTS] = [
    0, 1, 2, 1, 0, // a1 c1 e1 g1 i1
    3, 4, 3, // c2 e2 g2
    5, 6, 5, // d3 e3 f3
    7, // e4
    8, 9, 8, // d5 e5 f5
    10, 11, 10, // c6 e6 g6
    12, 13, 14, 13, 12, // a7 c7 e7 g7 i7
];

/// Each class by its left-hand point, seen from the player's own base (class 0, a1, has no
/// feature).
const CLASS_NAMES: [&str; 14] = [
    "c1", "e1", "c2", "e2", "d3", "e3", "e4", "d5", "e5", "c6", "e6", "a7", "c7", "e7",
];

/// The name of feature `index`.
fn feature_name(index: usize) -> String {
    match index {
        MEN => "men".into(),
        STEPS => "steps".into(),
        EXPOSED_OWN => "exposed_own".into(),
        EXPOSED_ENEMY => "exposed_enemy".into(),
        TEMPO => "tempo".into(),
        MEN_BY_COUNTER => "men_by_counter".into(),
        LEAD => "lead".into(),
        LEAD_BY_COUNTER => "lead_by_counter".into(),
        i => format!("point_{}", CLASS_NAMES[i - FIRST_POINT]),
    }
}

impl Evaluate for EgaraGuti {
    fn feature_count() -> usize {
        FEATURE_COUNT
    }

    fn feature_name(index: usize) -> String {
        feature_name(index)
    }

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn features<S: FeatureSink + ?Sized>(&self, sink: &mut S) {
        let us = self.side;
        let them = us.opponent();
        sink.add(TEMPO, 1);
        let men =
            self.men[us.index()].count_ones() as i32 - self.men[them.index()].count_ones() as i32;
        sink.add(MEN_BY_COUNTER, men * self.quiet_plies as i32);
        sink.add(LEAD, men.signum());
        sink.add(LEAD_BY_COUNTER, men.signum() * self.quiet_plies as i32);
        self.side_features(us, 1, sink);
        self.side_features(them, -1, sink);
        sink.add(EXPOSED_OWN, self.exposed(us));
        sink.add(EXPOSED_ENEMY, self.exposed(them));
    }
}

impl EgaraGuti {
    /// Adds `player`'s own features, counted `sign` times (1 for the side to move).
    fn side_features<S: FeatureSink + ?Sized>(&self, player: Player, sign: i32, sink: &mut S) {
        let own = self.men[player.index()];
        let empty = self.empty_points();
        let mut steps = 0;
        for point in own.squares() {
            steps += (NEIGHBOURS[point] & empty).count_ones() as i32;
            let seen = match player {
                Player::P1 => point,
                Player::P2 => POINTS - 1 - point,
            };
            if CLASS[seen] > 0 {
                sink.add(FIRST_POINT + CLASS[seen] as usize - 1, sign);
            }
        }
        sink.add(MEN, sign * own.count_ones() as i32);
        sink.add(STEPS, sign * steps);
    }

    /// The men of `player` that an enemy man stands next to on a line, with the point beyond
    /// them on that line empty: men the enemy could leap over. As the weights were fitted,
    /// an enemy man counts only where the man could leap over him in turn (the line goes on
    /// past him too): one at the end of a line, a corner say, is left out. Counting him
    /// changes the bench signature and needs a refit and a match.
    fn exposed(&self, player: Player) -> i32 {
        let own = self.men[player.index()];
        let enemy = self.men[player.opponent().index()];
        let empty = self.empty_points();
        own.squares()
            .filter(|&man| {
                (JUMPABLE[man] & enemy).squares().any(|attacker| {
                    let to = LEAP_TO[attacker][man];
                    to != NO_POINT && empty & bit(to as usize) != 0
                })
            })
            .count() as i32
    }

    pub(super) fn captures(mv: EgaraMove) -> bool {
        mv.captured() != 0
    }
}
