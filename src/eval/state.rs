//! The evaluation's state, which the search keeps from move to move beside its stack
//! ([`Evaluate::State`]), and the two states every game but Lielow uses: none, for a game
//! evaluated by its terms alone, and a network's [`Accumulator`] worked out afresh at each
//! move from a game's few inputs.
//!
//! A state says how it is made, how a move changes it and what value it gives, so that the
//! game's [`Evaluate`] has nothing to write: choosing the state is choosing them. A game
//! with network inputs cannot take the empty state: it would play without its network
//! (a compile-time check); and the conformance suite checks that every game's value by a
//! network is the network's own, from an accumulator worked out from nothing.

use std::fmt::Debug;

use super::network::{Accumulator, Network};
use super::{Evaluate, Evaluator, accumulator_for, network_or_terms};

/// What an evaluation of `G` keeps up to date from move to move.
pub trait EvalState<G: Evaluate>: Clone + PartialEq + Debug + Send + 'static {
    /// `game`'s state for `evaluator`, worked out from nothing.
    fn fresh(game: &G, evaluator: &Evaluator) -> Self;

    /// Writes into `child` the state after a move: `parent` is the state before it (both
    /// for `evaluator`), `changes` what it changed, and `game` the position after it. Must
    /// equal [`EvalState::fresh`] of `game` (the conformance suite checks it along its
    /// playouts).
    fn update(
        game: &G,
        evaluator: &Evaluator,
        parent: &Self,
        changes: G::Changes,
        child: &mut Self,
    );

    /// `game`'s value by `evaluator` for the side to move, read from `state`, its state.
    fn value(game: &G, evaluator: &Evaluator, state: &Self) -> i32;
}

/// No state: the terms are worked out at each position. Only for a game without network
/// inputs, which has no network to play with.
impl<G: Evaluate> EvalState<G> for () {
    #[inline]
    fn fresh(_: &G, _: &Evaluator) {
        const {
            assert!(
                G::INPUTS == 0,
                "a game with network inputs keeps an accumulator, or it plays without its network"
            )
        }
    }

    #[inline]
    fn update(_: &G, _: &Evaluator, _: &(), _: G::Changes, _: &mut ()) {}

    #[inline]
    fn value(game: &G, _: &Evaluator, _: &()) -> i32 {
        game.evaluate()
    }
}

/// A game whose network's accumulator is worked out afresh at every move from the
/// position's few inputs, cheaper there than following a move's changes: its state is the
/// [`Accumulator`] alone (empty when the search evaluates with the terms).
pub trait RecomputedAccumulator: Evaluate {
    /// Makes `accumulator` this position's for `network` (it must be the network's).
    fn refresh_accumulator(&self, network: &Network, accumulator: &mut Accumulator);
}

impl<G: RecomputedAccumulator> EvalState<G> for Accumulator {
    fn fresh(game: &G, evaluator: &Evaluator) -> Accumulator {
        accumulator_for(game, evaluator)
    }

    #[inline]
    fn update(game: &G, evaluator: &Evaluator, _: &Accumulator, _: G::Changes, child: &mut Self) {
        if let Some(network) = evaluator.network() {
            game.refresh_accumulator(network, child);
        }
    }

    /// The network's output (added to the terms for a network trained on what they miss),
    /// or the terms.
    #[inline]
    fn value(game: &G, evaluator: &Evaluator, state: &Accumulator) -> i32 {
        network_or_terms(game, evaluator, state, || game.evaluate())
    }
}
