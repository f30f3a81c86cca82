//! Lerontenin's static evaluation, as a weighted sum of features, and its notion of a
//! tactical move.
//!
//! The race is counted in turns, not squares. A side finishes no sooner than the total of
//! the moves its pieces still need (one piece moves per turn), and no sooner than its slowest
//! piece can get home: a piece that advanced `s` squares waits `s` turns, so a piece of power
//! `p` moves at most once every `p + 1` turns. Terms, each as (side to move) minus
//! (opponent):
//! - turns needed: the larger of those two bounds, with the total of moves as a small second
//!   term so that every move forward counts; each piece's moves and turns are the exact
//!   minima of [`race`], divisions included (two features: the turns, and the moves);
//! - send-back threat: the best capture the side can make, counted as the moves and squares
//!   it would cost the opponent, by an attacker that gets its turn before its victims can
//!   leave (free now, or thawing sooner);
//! - exposure: how close each piece is to an enemy piece behind it that can land on it;
//! - parts: the most finished parts the side's pieces can still become. Equal pieces throw
//!   each other back until the state repeats, and rule 14 then gives the game to the larger
//!   square total, where every finished part counts 98: most games between fair players end
//!   so, and the side with more parts wins them whoever stands in front. So a division splits
//!   into the parts that will get stuck and split again, at the cost of a few moves of the
//!   race;
//! - tempo: 1 for the side to move;
//! - freezes: the pieces frozen, and the turns of freeze they have left.
//!
//! The send-back threat counts the moves and squares a capture costs by fixed rates, and the
//! exposure is taken in quarters: each is one feature. The weights are in `weights.rs`.
//!
//! Both are computed at every evaluation: skipping them where the race alone stands far
//! above beta (lazy evaluation) was measured and played no better (docs/experiments.md).
//!
//! The engine plays with a network instead (`lerontenin.nnue`, alone, on the inputs of
//! `inputs.rs`; docs/networks.md says how it was made): these terms stay for `Use NNUE`
//! false, for the tuner, and for the greedy mover.

use std::sync::{Arc, OnceLock};

use super::army::{Army, END, Piece};
use super::inputs;
use super::race;
use super::weights::WEIGHTS;
use super::{Lerontenin, LeronteninMove};
use crate::core::Player;
use crate::eval::network::file::{self, NetworkKind};
use crate::eval::network::{Accumulator, Network};
use crate::eval::{Evaluate, FeatureSink};

const PARTS: usize = 0;
const TURNS: usize = 1;
const MOVES: usize = 2;
const THREAT: usize = 3;
const SAFETY: usize = 4;
const TEMPO: usize = 5;
const FROZEN: usize = 6;
const FREEZE_TURNS: usize = 7;
/// The features' names, in their order.
pub(super) const FEATURE_NAMES: [&str; 8] = [
    "parts",
    "turns_needed",
    "moves_needed",
    "send_back_threat",
    "safety_quarters",
    "tempo",
    "frozen_pieces",
    "freeze_turns",
];

/// What a send-back costs the victim: a move for the piece (about a turn of the race), and
/// a little for each square.
const THREAT_PIECE: i32 = 30;
const THREAT_SQUARE: i32 = 2;
/// The exposure is counted in these units.
const EXPOSURE_DIVISOR: i32 = 4;

impl Evaluate for Lerontenin {
    /// The terms are worked out at each position; a network's accumulator is kept (empty
    /// when the search evaluates with the terms), recomputed at each move from the
    /// position's few inputs (`inputs.rs` says why).
    type State = Accumulator;

    const INPUTS: usize = inputs::INPUT_COUNT;

    fn inputs(&self, perspective: Player, on: impl FnMut(usize)) {
        self.network_inputs(perspective, on);
    }

    /// `lerontenin.nnue`, read once (docs/networks.md says how it was made).
    fn shipped_network() -> Option<Arc<Network>> {
        static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
        Some(Arc::clone(NETWORK.get_or_init(|| {
            file::built_in(
                include_bytes!("lerontenin.nnue"),
                NetworkKind::of::<Lerontenin>("lerontenin"),
            )
        })))
    }

    fn feature_count() -> usize {
        FEATURE_NAMES.len()
    }

    fn feature_name(index: usize) -> String {
        FEATURE_NAMES[index].into()
    }

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn features<S: FeatureSink + ?Sized>(&self, sink: &mut S) {
        let us = self.core.side;
        let them = us.opponent();
        sink.add(TEMPO, 1);
        self.side_features(us, 1, sink);
        self.side_features(them, -1, sink);
        sink.add(THREAT, self.best_send_back(us) - self.best_send_back(them));
        sink.add(
            SAFETY,
            (self.exposure(them) - self.exposure(us)) / EXPOSURE_DIVISOR,
        );
    }
}

impl Lerontenin {
    /// The fewest moves `player`'s pieces need, all together, to finish.
    pub(super) fn moves_needed(&self, player: Player) -> u32 {
        let army = self.army(player);
        army.pieces()
            .iter()
            .filter(|p| p.square < END)
            .map(|piece| {
                if piece.label.is_single() {
                    race::single_moves_to_finish(piece.square, army.single_moves)
                } else {
                    race::moves_to_finish(piece.power, piece.square)
                }
            })
            .sum()
    }

    /// The race (turns and moves still needed), the most finished parts the pieces can
    /// still become, finished ones included, and the freezes, in one pass over the army,
    /// counted `sign` times (1 for the side to move).
    fn side_features<S: FeatureSink + ?Sized>(&self, player: Player, sign: i32, sink: &mut S) {
        let army = self.army(player);
        let mut total_moves = 0;
        let mut slowest = 0;
        let mut parts = 0;
        let mut frozen = 0;
        let mut freeze_turns = 0;
        for piece in army.pieces() {
            if piece.finished() {
                parts += 1;
                continue;
            }
            frozen += (piece.freeze > 0) as i32;
            freeze_turns += piece.freeze as i32;
            let (moves, turns, most_parts) = if piece.label.is_single() {
                let count = army.single_moves;
                (
                    race::single_moves_to_finish(piece.square, count),
                    race::single_turns_to_finish(piece.square, count),
                    1,
                )
            } else {
                (
                    race::moves_to_finish(piece.power, piece.square),
                    race::turns_to_finish(piece.power, piece.square),
                    race::most_parts(piece.power, piece.square),
                )
            };
            total_moves += moves as i32;
            slowest = slowest.max(piece.freeze as i32 + turns as i32);
            parts += most_parts as i32;
        }
        sink.add(PARTS, sign * parts);
        sink.add(TURNS, sign * total_moves.max(slowest));
        sink.add(MOVES, sign * total_moves);
        sink.add(FROZEN, sign * frozen);
        sink.add(FREEZE_TURNS, sign * freeze_turns);
    }

    /// The most `player` could cost the opponent with one forward move: each piece thrown
    /// back costs about a move, each square a little more. An attacker need not be free now:
    /// it counts when it is lined up on a square (its step away) and gets its turn before the
    /// pieces standing there can leave, which is how equal pieces end up chasing each other.
    fn best_send_back(&self, player: Player) -> i32 {
        let army = self.army(player);
        let opponents = self.army(player.opponent());
        // The attacker's turn k comes before the victim's turn k when the attacker is to move.
        let attacker_first = self.core.side == player;
        let mut best = 0;
        for attacker in army.pieces().iter().filter(|p| p.square < END) {
            let mut steps = [attacker.power, 0];
            if attacker.label.is_single() {
                steps[1] = army.single_power();
            }
            for step in steps.into_iter().filter(|&s| s > 0) {
                let target = attacker.square + step;
                if !(1..END).contains(&target) || opponents.count_on(target) == 0 {
                    continue;
                }
                let caught = |victim: &&Piece| {
                    victim.square == target
                        && if attacker_first {
                            attacker.freeze <= victim.freeze
                        } else {
                            attacker.freeze < victim.freeze
                        }
                };
                let cost: i32 = opponents
                    .pieces()
                    .iter()
                    .filter(caught)
                    .map(|p| cost_of_send_back(opponents, p))
                    .sum();
                best = best.max(cost);
            }
        }
        best
    }

    /// How exposed `player`'s pieces are to being thrown back later: a piece is in the line
    /// of an enemy piece behind it whose steps can land on its square (a fixed-power piece
    /// only ever stands on squares its power divides, unless thrown back from near 0, so the
    /// lines are few), the nearer the more. Each piece counts its worst line: its cost
    /// divided by the fewest moves any enemy needs to land on it.
    fn exposure(&self, player: Player) -> i32 {
        let army = self.army(player);
        let lines = Lines::of(self.army(player.opponent()));
        let mut total = 0;
        for piece in army
            .pieces()
            .iter()
            .filter(|p| p.square < END && p.square > 0)
        {
            if let Some(fewest) = lines.fewest_moves_onto(piece.square) {
                total += cost_of_send_back(army, piece) / i32::from(fewest);
            }
        }
        total
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

/// Where an army's pieces stand, by power, to find the enemy nearest in moves behind a
/// square without walking every pair of pieces (that walk was a third of Lerontenin's
/// search time).
struct Lines {
    /// The squares of the pieces of fixed power `p`, at index `p` (1 to 7).
    by_power: [u128; 8],
    /// The squares of the SINGLE, which can step 1 at any time and so reaches every square.
    single: u128,
}

impl Lines {
    fn of(army: &Army) -> Lines {
        let mut lines = Lines {
            by_power: [0; 8],
            single: 0,
        };
        for piece in army.pieces().iter().filter(|p| p.square < END) {
            let bit = 1u128 << piece.square;
            match piece.label.is_single() {
                true => lines.single |= bit,
                false => lines.by_power[piece.power as usize] |= bit,
            }
        }
        lines
    }

    /// The fewest moves in which one of these pieces, standing behind `square`, lands on
    /// it; `None` when none can.
    fn fewest_moves_onto(&self, square: u8) -> Option<u8> {
        let behind = (1u128 << square) - 1;
        let nearest = |set: u128| (set != 0).then(|| square - (127 - set.leading_zeros()) as u8);
        let mut fewest = nearest(self.single & behind);
        // Indexed over constant bounds, the loop unrolls with constant divisors: an
        // iterator over the two tables ran 20% slower (Lerontenin's search, timed side by side).
        #[allow(clippy::needless_range_loop)]
        for power in 1..8 {
            // The line holds only squares behind `square`.
            let in_line = self.by_power[power] & IN_LINE[power][square as usize];
            if let Some(gap) = nearest(in_line) {
                let moves = gap / power as u8;
                fewest = Some(fewest.map_or(moves, |f| f.min(moves)));
            }
        }
        fewest
    }
}

/// `IN_LINE[p][s]`: the squares a whole number of steps of `p` behind `s` (those of its
/// residue modulo `p`).
static IN_LINE: [[u128; END as usize]; 8] = in_line_table();

const fn in_line_table() -> [[u128; END as usize]; 8] {
    let mut table = [[0; END as usize]; 8];
    let mut power = 1;
    while power < 8 {
        let mut square = 0;
        while square < END as usize {
            let mut below = square % power;
            while below < square {
                table[power][square] |= 1 << below;
                below += power;
            }
            square += 1;
        }
        power += 1;
    }
    table
}

/// What being thrown back costs `piece` of `army`.
fn cost_of_send_back(army: &Army, piece: &Piece) -> i32 {
    THREAT_PIECE + army.send_back_distance(piece).min(piece.square) as i32 * THREAT_SQUARE
}
