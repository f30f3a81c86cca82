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

use std::sync::{Arc, OnceLock};

use super::board::POINTS;
use super::inputs;
use super::line_space::{HAS_HIGH_NEIGHBOUR, HAS_LOW_NEIGHBOUR, ON_LINES, to_lines, to_points};
use super::weights::WEIGHTS;
use super::{EgaraGuti, EgaraMove};
use crate::core::{BitSet, Player};
use crate::eval::network::file::{self, NetworkKind};
use crate::eval::network::{Accumulator, Network};
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
    /// The terms are worked out at each position; a network's accumulator is kept (empty
    /// when the search evaluates with the terms), recomputed at each move from the
    /// position's few inputs (`inputs.rs` says why).
    type State = Accumulator;

    const INPUTS: usize = inputs::INPUT_COUNT;

    fn inputs(&self, perspective: Player, on: impl FnMut(usize)) {
        self.network_inputs(perspective, on);
    }

    /// `egaraguti.nnue`, the network the exact tables of up to 14 men taught, read once
    /// (docs/networks.md says how it was made and why it plays instead of the terms).
    fn shipped_network() -> Option<Arc<Network>> {
        static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
        Some(Arc::clone(NETWORK.get_or_init(|| {
            file::built_in(
                include_bytes!("egaraguti.nnue"),
                NetworkKind::of::<EgaraGuti>("egaraguti"),
            )
        })))
    }

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
        let lines = LineView::of(self);
        sink.add(TEMPO, 1);
        let men = self.men_difference();
        sink.add(MEN_BY_COUNTER, men * self.quiet_plies as i32);
        sink.add(LEAD, men.signum());
        sink.add(LEAD_BY_COUNTER, men.signum() * self.quiet_plies as i32);
        self.side_features(us, 1, &lines, sink);
        self.side_features(them, -1, &lines, sink);
        sink.add(EXPOSED_OWN, lines.exposed(us));
        sink.add(EXPOSED_ENEMY, lines.exposed(them));
    }

    /// The features' weighted sum, with the points' weights summed a byte of men at a time:
    /// the same value as the provided sum (the conformance suite checks it), without a
    /// call per man.
    #[inline]
    fn evaluate(&self) -> i32 {
        let us = self.side;
        let them = us.opponent();
        let lines = LineView::of(self);
        let men = self.men_difference();
        let quiet = self.quiet_plies as i32;
        let mut sum = WEIGHTS[TEMPO]
            + WEIGHTS[MEN] * men
            + WEIGHTS[MEN_BY_COUNTER] * men * quiet
            + WEIGHTS[LEAD] * men.signum()
            + WEIGHTS[LEAD_BY_COUNTER] * men.signum() * quiet
            + WEIGHTS[STEPS] * (lines.steps(us) - lines.steps(them))
            + WEIGHTS[EXPOSED_OWN] * lines.exposed(us)
            + WEIGHTS[EXPOSED_ENEMY] * lines.exposed(them);
        sum += point_values(us, self.men[us.index()]) - point_values(them, self.men[them.index()]);
        sum
    }
}

/// The men of both sides and the empty points in line space, for the counts over every
/// man: steps and exposed men.
struct LineView {
    men: [u64; 2],
    empty: u64,
}

impl LineView {
    #[inline]
    fn of(game: &EgaraGuti) -> Self {
        let men = [to_lines(game.men[0]), to_lines(game.men[1])];
        LineView {
            men,
            empty: ON_LINES & !(men[0] | men[1]),
        }
    }

    /// The steps `player` has: each pair of a man and an empty point side by side on a line.
    #[inline]
    fn steps(&self, player: Player) -> i32 {
        let own = self.men[player.index()];
        (((own << 1) & self.empty).count_ones() + ((own >> 1) & self.empty).count_ones()) as i32
    }

    /// The men of `player` that an enemy man stands next to on a line, with the point beyond
    /// them on that line empty: men the enemy could leap over. As the weights were fitted,
    /// an enemy man counts only where the man could leap over him in turn (the line goes on
    /// past him too): one at the end of a line, a corner say, is left out. Counting him
    /// changes the bench signature and needs a refit and a match.
    #[inline]
    fn exposed(&self, player: Player) -> i32 {
        let own = self.men[player.index()];
        let enemy = self.men[player.opponent().index()];
        // The enemy on the low side of the man, the empty point on the high side; then the
        // other way round.
        let from_low = own & ((enemy & HAS_LOW_NEIGHBOUR) << 1) & (self.empty >> 1);
        let from_high = own & ((enemy & HAS_HIGH_NEIGHBOUR) >> 1) & (self.empty << 1);
        // A man exposed along two lines counts once.
        to_points(from_low | from_high).count_ones() as i32
    }
}

/// The class of `point` as `player` sees it: Black sees point `p` as White sees `22 - p`.
#[inline]
const fn class_seen(player: Player, point: usize) -> usize {
    match player {
        Player::P1 => CLASS[point] as usize,
        Player::P2 => CLASS[POINTS - 1 - point] as usize,
    }
}

/// `POINT_VALUES[player][byte][b]`: the points' weights of `player`'s men on the points
/// `8 * byte + i` for each bit `i` of `b`.
static POINT_VALUES: [[[i32; 256]; 3]; 2] =
    [point_values_of(Player::P1), point_values_of(Player::P2)];

const fn point_values_of(player: Player) -> [[i32; 256]; 3] {
    let mut table = [[0; 256]; 3];
    let mut byte = 0;
    while byte < 3 {
        let mut bits = 0;
        while bits < 256 {
            let mut i = 0;
            while i < 8 {
                let point = 8 * byte + i;
                if bits & (1 << i) != 0 && point < POINTS {
                    let class = class_seen(player, point);
                    if class > 0 {
                        table[byte][bits] += WEIGHTS[FIRST_POINT + class - 1];
                    }
                }
                i += 1;
            }
            bits += 1;
        }
        byte += 1;
    }
    table
}

/// The points' weights of `player`'s men `men`.
#[inline]
fn point_values(player: Player, men: u32) -> i32 {
    let table = &POINT_VALUES[player.index()];
    table[0][(men & 0xff) as usize]
        + table[1][((men >> 8) & 0xff) as usize]
        + table[2][((men >> 16) & 0xff) as usize]
}

impl EgaraGuti {
    /// The side to move's men less the opponent's.
    #[inline]
    fn men_difference(&self) -> i32 {
        let us = self.side;
        self.men[us.index()].count_ones() as i32
            - self.men[us.opponent().index()].count_ones() as i32
    }

    /// Adds `player`'s own features, counted `sign` times (1 for the side to move).
    fn side_features<S: FeatureSink + ?Sized>(
        &self,
        player: Player,
        sign: i32,
        lines: &LineView,
        sink: &mut S,
    ) {
        let own = self.men[player.index()];
        for point in own.squares() {
            let class = class_seen(player, point);
            if class > 0 {
                sink.add(FIRST_POINT + class - 1, sign);
            }
        }
        sink.add(MEN, sign * own.count_ones() as i32);
        sink.add(STEPS, sign * lines.steps(player));
    }

    pub(super) fn captures(mv: EgaraMove) -> bool {
        mv.captured() != 0
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{ALL_POINTS, JUMPABLE, LEAP_TO, NEIGHBOURS, NO_POINT};
    use super::*;

    /// Steps counted man by man, as the rules see them.
    fn steps_by_man(own: u32, empty: u32) -> i32 {
        own.squares()
            .map(|man| (NEIGHBOURS[man] & empty).count_ones() as i32)
            .sum()
    }

    /// Exposed men counted man by man: an enemy next to the man that the man could leap
    /// over in turn, and the point beyond the man empty.
    fn exposed_by_man(own: u32, enemy: u32, empty: u32) -> i32 {
        own.squares()
            .filter(|&man| {
                (JUMPABLE[man] & enemy).squares().any(|attacker| {
                    let to = LEAP_TO[attacker][man];
                    to != NO_POINT && empty & (1 << to) != 0
                })
            })
            .count() as i32
    }

    #[test]
    fn line_space_counts_equal_the_counts_man_by_man() {
        let mut rng = fastrand::Rng::with_seed(23);
        for _ in 0..20_000 {
            // Each point white or black with a chance of `fill / 2` percent each.
            let fill = rng.u32(0..=100);
            let (mut white, mut black) = (0u32, 0u32);
            for point in 0..POINTS {
                let roll = rng.u32(0..100);
                if roll < fill / 2 {
                    white |= 1 << point;
                } else if roll < fill {
                    black |= 1 << point;
                }
            }
            let game = EgaraGuti::from_parts([white, black], Player::P1, 0, 1);
            let lines = LineView::of(&game);
            let empty = ALL_POINTS & !(white | black);
            assert_eq!(lines.steps(Player::P1), steps_by_man(white, empty));
            assert_eq!(lines.steps(Player::P2), steps_by_man(black, empty));
            assert_eq!(
                lines.exposed(Player::P1),
                exposed_by_man(white, black, empty)
            );
            assert_eq!(
                lines.exposed(Player::P2),
                exposed_by_man(black, white, empty)
            );
            for player in Player::BOTH {
                let men = game.men(player);
                let by_man: i32 = men
                    .squares()
                    .map(|p| class_seen(player, p))
                    .filter(|&c| c > 0)
                    .map(|c| WEIGHTS[FIRST_POINT + c - 1])
                    .sum();
                assert_eq!(point_values(player, men), by_man);
            }
        }
    }
}
