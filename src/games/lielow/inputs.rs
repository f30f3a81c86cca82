//! Lielow's inputs for a network (`eval::network`), seen from each player's side, and how a
//! move's changes turn them on and off.
//!
//! From `perspective`'s side, one input for each stack (whose it is, the perspective's own
//! or the other's; its height, 1 to n; its square, the ranks counted from the
//! perspective's own side, so that both perspectives see a position as its player does),
//! and one for each king (whose; its square). Height is a stack's reach and its worth, the
//! square its mobility and its way to the edge; the king is what the game is won by: a
//! network needs each to tell positions apart that a sum of counts cannot.

use super::geometry::Geometry;
use super::{Lielow, LielowChanges, StackOn};
use crate::core::{BitSet, Player};

/// The number of inputs on a board of side `n`: own and other stacks of every height on
/// every square, then own and other kings on every square.
pub const fn input_count(n: usize) -> usize {
    2 * n * n * n + 2 * n * n
}

/// `square` as `perspective` sees it: the second player's board turned round.
#[inline]
fn seen(n: usize, perspective: Player, square: usize) -> usize {
    match perspective {
        Player::P1 => square,
        Player::P2 => (n - 1 - square / n) * n + square % n,
    }
}

/// Whose `owner`'s piece is from `perspective`'s side: 0 own, 1 the other's.
#[inline]
fn side(perspective: Player, owner: Player) -> usize {
    usize::from(owner != perspective)
}

/// The input of `owner`'s stack of `height` on `square`, from `perspective`'s side.
#[inline]
pub fn stack_input(
    n: usize,
    perspective: Player,
    owner: Player,
    height: u8,
    square: usize,
) -> usize {
    ((side(perspective, owner) * n + usize::from(height) - 1) * n * n)
        + seen(n, perspective, square)
}

/// The input of `owner`'s king on `square`, from `perspective`'s side.
#[inline]
pub fn king_input(n: usize, perspective: Player, owner: Player, square: usize) -> usize {
    2 * n * n * n + side(perspective, owner) * n * n + seen(n, perspective, square)
}

/// Input `input` of a position, as the same input of the position mirrored left to right:
/// every input is a square of a board of side `n` (the last `n * n` of each block), and
/// its perspective's ranks are unchanged by the mirror, so only the file turns round.
#[inline]
pub fn mirrored_input(n: usize, input: usize) -> usize {
    let square = input % (n * n);
    input - square + super::mirrored_square(n, square)
}

impl<G: Geometry> Lielow<G> {
    /// Calls `on` with each input on in this position, from `perspective`'s side.
    pub fn network_inputs(&self, perspective: Player, mut on: impl FnMut(usize)) {
        for owner in Player::BOTH {
            for square in self.stacks[owner.index()].squares() {
                on(stack_input(
                    G::N,
                    perspective,
                    owner,
                    self.height[square],
                    square,
                ));
            }
            if let Some(king) = self.king(owner) {
                on(king_input(G::N, perspective, owner, king));
            }
        }
    }

    /// The inputs a move turned off and on, from `perspective`'s side: `changes` as the
    /// rules said them, `self` the position after the move. Calls `change(input, false)`
    /// for each input turned off, `change(input, true)` for each turned on.
    pub fn changed_inputs(
        &self,
        changes: &LielowChanges,
        perspective: Player,
        mut change: impl FnMut(usize, bool),
    ) {
        let mut off = |input| change(input, false);
        let stack = |stack: StackOn| {
            stack_input(
                G::N,
                perspective,
                stack.player,
                stack.height,
                usize::from(stack.square),
            )
        };
        off(stack(changes.left));
        if let Some(captured) = changes.captured {
            off(stack(captured));
        }
        if let Some(entered) = changes.entered {
            change(stack(entered), true);
        }
        for owner in Player::BOTH {
            let before = changes.kings_before[owner.index()].map(usize::from);
            let after = self.king(owner);
            if before != after {
                if let Some(square) = before {
                    change(king_input(G::N, perspective, owner, square), false);
                }
                if let Some(square) = after {
                    change(king_input(G::N, perspective, owner, square), true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::tests::random_network;
    use crate::games::lielow::geometry::{Board8, Board9};
    use crate::games::lielow::weights::BoardWeights;
    use crate::rules::Rules;

    /// Over seeded random playouts, an accumulator kept from each move's changes equals
    /// one worked out from the position's inputs.
    fn accumulator_follows_the_moves<G: Geometry>() {
        let n = G::N;
        let network = random_network(input_count(n), 16, 17);
        let mut moves = Vec::new();
        for seed in 0..20 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut game = Lielow::<G>::start();
            let fresh = |game: &Lielow<G>| {
                let [p1, p2] = Player::BOTH.map(|p| {
                    let mut on = Vec::new();
                    game.network_inputs(p, |input| on.push(input));
                    on
                });
                network.accumulator([&p1, &p2])
            };
            let mut kept = fresh(&game);
            while game.outcome().is_none() {
                moves.clear();
                game.generate_moves(&mut moves);
                let mv = moves[rng.usize(..moves.len())];
                let undo = game.make_move(mv);
                let changes = game.changes(mv, &undo);
                for perspective in Player::BOTH {
                    game.changed_inputs(&changes, perspective, |input, on| match on {
                        true => network.add(&mut kept, perspective, input),
                        false => network.remove(&mut kept, perspective, input),
                    });
                }
                assert_eq!(kept, fresh(&game), "seed {seed}, after {mv:?}");
            }
        }
    }

    #[test]
    fn an_accumulator_kept_from_the_moves_equals_one_from_the_position() {
        accumulator_follows_the_moves::<Board8>();
        accumulator_follows_the_moves::<Board9>();
    }

    #[test]
    fn the_networks_built_in_read_and_fit_the_inputs() {
        fn check<G: Geometry + BoardWeights>() {
            use crate::eval::Evaluate;
            let network = Lielow::<G>::shipped_network().expect("each board ships a network");
            assert_eq!(network.inputs(), input_count(G::N));
            assert!(network.on_terms());
            // The same network every time it is asked for: read once.
            let again = Lielow::<G>::shipped_network().expect("each board ships a network");
            assert!(std::sync::Arc::ptr_eq(&network, &again));
        }
        check::<Board8>();
        check::<Board9>();
    }

    #[test]
    fn every_input_has_a_place_of_its_own() {
        for n in [8, 9] {
            let mut seen_inputs = std::collections::HashSet::new();
            for perspective in Player::BOTH {
                seen_inputs.clear();
                for owner in Player::BOTH {
                    for square in 0..n * n {
                        for height in 1..=n as u8 {
                            assert!(seen_inputs.insert(stack_input(
                                n,
                                perspective,
                                owner,
                                height,
                                square
                            )));
                        }
                        assert!(seen_inputs.insert(king_input(n, perspective, owner, square)));
                    }
                }
                assert_eq!(seen_inputs.len(), input_count(n));
                assert!(seen_inputs.iter().all(|&i| i < input_count(n)));
            }
        }
    }
}
