//! Lerontenin's inputs for a network (`eval::network`), seen from each player's side.
//!
//! From `perspective`'s side, "own" being the perspective's pieces and "other" the
//! opponent's, one input for each of:
//! - a piece on a square: whose, its kind (the SINGLE, or a fixed power 1 to 7) and its
//!   square (0 to 98, the end included). Both armies run the same track, so a piece's square
//!   says how far it is from home and, beside the other army's, who can land on whom; its
//!   power says how fast it goes and which squares it can reach. A fragment of a division is
//!   a piece of its power: what it came from changes nothing it can do. Two pieces of one
//!   kind on one square turn their input on twice;
//! - a frozen piece: whose, its kind and the turns of freeze it has left (1 to 7): a
//!   frozen piece loses turns of the race and cannot flee a piece behind it;
//! - the SINGLE's step: whose, and the step `P(c)` its move counter gives it next (1 to 7):
//!   the SINGLE's reach, and how far a send-back throws it;
//! - the descent counter of rule 13: whose, and its value (0 to 6): the side behind steers
//!   into the draw the completed sequence gives, and the counter is how near it is.
//!
//! The side to move is the network's own (its accumulator comes first in the output).
//!
//! A move changes few pieces, but every turn the mover's frozen pieces thaw by one, and a
//! send-back freezes several: the inputs of a position are few (a few dozen a perspective),
//! so the evaluation's state is recomputed from the position at each move rather than kept
//! from the move's changes.

use super::Lerontenin;
use super::army::{END, MAX_PIECES};
use crate::core::Player;
use crate::eval::RecomputedAccumulator;
use crate::eval::network::{Accumulator, Network};

/// A piece's kinds: the SINGLE (0), whose step varies, then each fixed power 1 to 7.
const KINDS: usize = 8;
/// Squares a piece can stand on: 0 (before the track) to the end.
const SQUARES: usize = END as usize + 1;
/// Freezes, 1 to 7 turns.
const FREEZES: usize = 7;
/// The SINGLE's steps, 1 to 7.
const STEPS: usize = 7;
/// The descent counter's values while the game goes on, 0 to 6 (7 ends it).
const DESCENTS: usize = 7;

/// Where each group of inputs starts, a side's block following the other's.
const PIECES: usize = 0;
const FROZEN: usize = PIECES + 2 * KINDS * SQUARES;
const SINGLE_STEP: usize = FROZEN + 2 * KINDS * FREEZES;
const DESCENT: usize = SINGLE_STEP + 2 * STEPS;

/// The number of inputs a perspective.
pub const INPUT_COUNT: usize = DESCENT + 2 * DESCENTS;

/// The most inputs on in a position: every piece divided down to power 1, each frozen, and
/// the two counters, a side.
const MOST_ON: usize = 2 * (2 * MAX_PIECES + 2);

impl Lerontenin {
    /// Calls `on` with each input on in this position, from `perspective`'s side.
    pub fn network_inputs(&self, perspective: Player, mut on: impl FnMut(usize)) {
        self.each_input(|first, second| match perspective {
            Player::P1 => on(first),
            Player::P2 => on(second),
        });
    }

    /// Calls `on(first, second)` with each input on in this position, as the first player
    /// and as the second see it: the same input with its own and other blocks swapped.
    #[inline(always)]
    fn each_input(&self, mut on: impl FnMut(usize, usize)) {
        for owner in Player::BOTH {
            // The block of `size` inputs of `owner`'s side, from each perspective.
            let (own, other) = (owner.index(), 1 - owner.index());
            let mut on_in = |start: usize, size: usize, offset: usize| {
                on(start + own * size + offset, start + other * size + offset)
            };
            let army = self.army(owner);
            for piece in army.pieces() {
                let kind = match piece.label.is_single() {
                    true => 0,
                    false => usize::from(piece.power),
                };
                on_in(
                    PIECES,
                    KINDS * SQUARES,
                    kind * SQUARES + usize::from(piece.square),
                );
                if piece.freeze > 0 {
                    let freeze = usize::from(piece.freeze.min(FREEZES as u8)) - 1;
                    on_in(FROZEN, KINDS * FREEZES, kind * FREEZES + freeze);
                }
            }
            on_in(SINGLE_STEP, STEPS, usize::from(army.single_power()) - 1);
            let descent = usize::from(self.descent(owner)).min(DESCENTS - 1);
            on_in(DESCENT, DESCENTS, descent);
        }
    }
}

impl RecomputedAccumulator for Lerontenin {
    /// Makes `accumulator` this position's for `network` (it must be the network's), in
    /// one walk of the pieces for both perspectives.
    #[inline]
    fn refresh_accumulator(&self, network: &Network, accumulator: &mut Accumulator) {
        let mut inputs = [[0usize; MOST_ON]; 2];
        let mut count = 0;
        self.each_input(|first, second| {
            inputs[0][count] = first;
            inputs[1][count] = second;
            count += 1;
        });
        for perspective in Player::BOTH {
            network.refresh(
                accumulator,
                perspective,
                &inputs[perspective.index()][..count],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn the_network_built_in_reads_and_fits_the_inputs() {
        use crate::eval::Evaluate;
        let network = Lerontenin::shipped_network().expect("Lerontenin ships a network");
        assert_eq!(network.inputs(), INPUT_COUNT);
        let again = Lerontenin::shipped_network().expect("Lerontenin ships a network");
        assert!(std::sync::Arc::ptr_eq(&network, &again));
    }

    /// Every input of every position of seeded random playouts is in range, the two
    /// perspectives see the same position with own and other swapped, and each side has
    /// exactly one SINGLE step and one descent input on.
    #[test]
    fn inputs_are_in_range_and_mirror_between_the_perspectives() {
        let mut rng = fastrand::Rng::with_seed(11);
        for _ in 0..20 {
            let mut game = Lerontenin::start();
            let mut moves = Vec::new();
            for _ in 0..400 {
                if game.outcome().is_some() {
                    break;
                }
                let mut seen: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
                for perspective in Player::BOTH {
                    game.network_inputs(perspective, |input| {
                        assert!(input < INPUT_COUNT, "input {input}");
                        seen[perspective.index()].push(input);
                    });
                }
                // The other perspective's view: the same inputs with the sides' blocks
                // swapped.
                let swap = |input: usize| {
                    let (start, block) = match input {
                        i if i < FROZEN => (PIECES, KINDS * SQUARES),
                        i if i < SINGLE_STEP => (FROZEN, KINDS * FREEZES),
                        i if i < DESCENT => (SINGLE_STEP, STEPS),
                        _ => (DESCENT, DESCENTS),
                    };
                    let offset = input - start;
                    start + (offset + block) % (2 * block)
                };
                let mut mirrored: Vec<usize> = seen[0].iter().map(|&i| swap(i)).collect();
                let mut second = seen[1].clone();
                mirrored.sort_unstable();
                second.sort_unstable();
                assert_eq!(mirrored, second);
                for whose in 0..2 {
                    let steps = (SINGLE_STEP + whose * STEPS..SINGLE_STEP + (whose + 1) * STEPS)
                        .filter(|i| seen[0].contains(i))
                        .count();
                    let descents = (DESCENT + whose * DESCENTS..DESCENT + (whose + 1) * DESCENTS)
                        .filter(|i| seen[0].contains(i))
                        .count();
                    assert_eq!((steps, descents), (1, 1));
                }
                moves.clear();
                game.generate_moves(&mut moves);
                let mv = moves[rng.usize(..moves.len())];
                game.make_move(mv);
            }
        }
    }
}
