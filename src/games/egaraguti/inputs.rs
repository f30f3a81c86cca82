//! Egara-guti's inputs for a network (`eval::network`), seen from each player's side: one
//! input for each of the perspective's own men on each of the 23 points, then one for each
//! of the other side's, 46 in all.
//!
//! Men are all alike (no kings, no promotion) and move along the lines in any direction, so
//! where each man stands is the whole position but for the side to move (the network's
//! own: its accumulator comes first in the output) and the 40-ply counter. The board is not
//! folded by its symmetries: which men share a side of the board is what decides the leaps.
//! The counter is not an input: the network is taught the tables' values, which are the
//! values at a counter of 0 (the game under best play from a fresh count), and a search
//! sees the 40-ply rule's end itself where it comes within reach.
//!
//! A capture chain removes several men at once, and the inputs of a position are few (22 at
//! most a perspective), so the evaluation's state is recomputed from the position at each
//! move rather than kept from the move's changes.

use super::EgaraGuti;
use super::board::POINTS;
use crate::core::Player;
use crate::eval::network::{Accumulator, Network};

/// The number of inputs a perspective: own men, then the other side's, on each point.
pub const INPUT_COUNT: usize = 2 * POINTS;

/// The most men on the board, and so the most inputs on a perspective.
const MOST_ON: usize = 22;

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
    }

    /// Makes `accumulator` this position's for `network` (it must be the network's).
    #[inline]
    pub fn refresh_accumulator(&self, network: &Network, accumulator: &mut Accumulator) {
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
    /// man, and the two perspectives see the same position with own and other swapped.
    #[test]
    fn inputs_are_one_per_man_and_mirror_between_the_perspectives() {
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
                    assert_eq!(seen.len(), men as usize);
                    let mut other = Vec::new();
                    game.network_inputs(perspective.opponent(), |input| other.push(input));
                    let mut swapped: Vec<usize> =
                        seen.iter().map(|&i| (i + POINTS) % INPUT_COUNT).collect();
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
