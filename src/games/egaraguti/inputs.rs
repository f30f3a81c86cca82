//! Egara-guti's inputs for a network (`eval::network`), seen from each player's side: one
//! input for each of the perspective's own men on each of the 23 points, one for each of
//! the other side's, and one for each value of the 40-ply counter, 86 in all.
//!
//! Men are all alike (no kings, no promotion) and move along the lines in any direction, so
//! where each man stands is the whole position but for the side to move (the network's
//! own: its accumulator comes first in the output) and the counter. The board is not
//! folded by its symmetries: which men share a side of the board is what decides the leaps.
//! The counter (the plies since the last capture, 0 to 39) says how long a lead in men has
//! to hold before the 40-ply rule gives the game to it, and whether a win that needs more
//! plies is still a win: the same input for both perspectives.
//!
//! A capture chain removes several men at once, and the inputs of a position are few (23 at
//! most a perspective), so the evaluation's state is recomputed from the position at each
//! move rather than kept from the move's changes.

use super::board::POINTS;
use super::{EgaraGuti, QUIET_PLY_LIMIT};
use crate::core::Player;
use crate::eval::RecomputedAccumulator;
use crate::eval::network::{Accumulator, Network};

/// Where the counter's inputs start, after own men and the other side's on each point.
const COUNTER: usize = 2 * POINTS;
/// The number of inputs a perspective.
pub const INPUT_COUNT: usize = COUNTER + QUIET_PLY_LIMIT as usize;

/// The most inputs on a perspective: a man on every point but one, and the counter.
const MOST_ON: usize = 22 + 1;

impl EgaraGuti {
    /// Calls `on` with each input on in this position, from `perspective`'s side.
    pub fn network_inputs(&self, perspective: Player, mut on: impl FnMut(usize)) {
        for owner in Player::BOTH {
            let block = if owner == perspective { 0 } else { POINTS };
            let mut men = self.men(owner);
            while men != 0 {
                on(block + men.trailing_zeros() as usize);
                men &= men - 1;
            }
        }
        on(COUNTER + self.quiet_plies().min(QUIET_PLY_LIMIT - 1) as usize);
    }
}

impl RecomputedAccumulator for EgaraGuti {
    #[inline]
    fn refresh_accumulator(&self, network: &Network, accumulator: &mut Accumulator) {
        for perspective in Player::BOTH {
            let mut inputs = [0usize; MOST_ON];
            let mut count = 0;
            self.network_inputs(perspective, |input| {
                inputs[count] = input;
                count += 1;
            });
            network.refresh(accumulator, perspective, &inputs[..count]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// Every input of every position of seeded random playouts is in range, one for each
    /// man and one for the counter, and the two perspectives see the same position with own
    /// and other swapped.
    #[test]
    fn inputs_are_the_men_and_the_counter_and_mirror_between_the_perspectives() {
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..20 {
            let mut game = EgaraGuti::start();
            let mut moves = Vec::new();
            while game.outcome().is_none() {
                for perspective in Player::BOTH {
                    let mut seen = Vec::new();
                    game.network_inputs(perspective, |input| seen.push(input));
                    assert!(seen.iter().all(|&input| input < INPUT_COUNT));
                    let men = (game.men(Player::P1) | game.men(Player::P2)).count_ones();
                    assert_eq!(seen.len(), men as usize + 1);
                    let counter = COUNTER + game.quiet_plies() as usize;
                    assert_eq!(
                        seen.iter().filter(|&&i| i >= COUNTER).collect::<Vec<_>>(),
                        [&counter]
                    );
                    let mut other = Vec::new();
                    game.network_inputs(perspective.opponent(), |input| other.push(input));
                    let swap = |i: usize| match i < COUNTER {
                        true => (i + POINTS) % COUNTER,
                        false => i,
                    };
                    let mut swapped: Vec<usize> = seen.iter().map(|&i| swap(i)).collect();
                    swapped.sort_unstable();
                    other.sort_unstable();
                    assert_eq!(swapped, other);
                }
                moves.clear();
                game.generate_moves(&mut moves);
                let mv = moves[rng.usize(..moves.len())];
                game.make_move(mv);
            }
        }
    }
}
