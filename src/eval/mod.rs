//! Static evaluation: a position's worth for the side to move, by an [`Evaluator`]: a
//! network (what every variant plays with by default) or the game's hand-written terms, a
//! weighted sum of named features (what `Use NNUE false` plays, what `ternion tune` fits,
//! and what a network may take as inputs beside its own).
//!
//! A game lists its features (each a count for the side to move, usually its own minus the
//! opponent's) and the weights it plays with, and writes a position's features into a
//! [`FeatureSink`]. The engine's evaluation is the sink that sums the features times the
//! weights as they come (no buffer, no allocation); the tuner's is the sink that keeps each
//! feature. So weights fitted to the features are exactly the evaluation the engine plays:
//! [`Evaluate::evaluate`] is provided, and no game writes the weighted sum again. A game may
//! override it with a faster version (an incremental one, say) that must equal the sum at
//! every position; the conformance suite checks that it does.
//!
//! An evaluation may keep a state from move to move (a sum of piece-square weights, a
//! network's accumulator): [`Evaluate::State`]. The search, not the position, holds it, one
//! per ply beside its stack: it works out the root's from nothing ([`Evaluate::state`]),
//! each child's from its parent's and what the move changed ([`Evaluate::update`], fed by
//! [`Rules::changes`]), and drops it on unmake. So the rules
//! carry no weights, and perft, the referee and the tables' build never pay for it.
//!
//! [`network`] holds a small efficiently updated network for any game (an accumulator a
//! perspective, integer inference, its file): a game's inputs and its trained weights are
//! the game's. Which of the two a search plays with, the hand-written terms or a network,
//! is an [`Evaluator`] the search is given: the network is another way to fill in the same
//! trait, its accumulator the evaluation's state.

pub mod network;
mod state;

use std::sync::Arc;

use self::network::{Accumulator, Network};
use crate::core::Player;
use crate::rules::Rules;

pub use self::state::{EvalState, RecomputedAccumulator};

/// What a search evaluates with: the game's hand-written terms, or a network on the game's
/// inputs (one of [`Evaluate::INPUTS`] inputs a perspective).
#[derive(Clone, Debug, Default)]
pub enum Evaluator {
    #[default]
    Terms,
    Network(Arc<Network>),
}

impl Evaluator {
    /// What `G` evaluates with unless told otherwise: the network it ships, or its terms.
    pub fn shipped<G: Evaluate>() -> Evaluator {
        G::shipped_network().map_or(Evaluator::Terms, Evaluator::Network)
    }

    /// The network, if this evaluator is one.
    pub fn network(&self) -> Option<&Network> {
        match self {
            Evaluator::Terms => None,
            Evaluator::Network(network) => Some(network),
        }
    }
}

/// Where a position's features go, one contribution at a time.
pub trait FeatureSink {
    /// Adds `value` to feature `feature`.
    fn add(&mut self, feature: usize, value: i32);
}

/// A game that can be evaluated: its hand-written terms (a weighted sum of named features)
/// and the inputs of its networks.
pub trait Evaluate: Rules {
    /// What the evaluation keeps up to date from move to move, and with it how the
    /// position is evaluated: `()` for one that works everything out at each position, an
    /// [`Accumulator`] for a network worked out afresh at each move
    /// ([`RecomputedAccumulator`]), or a game's own.
    type State: EvalState<Self>;

    /// The number of inputs of the game's network, a perspective; 0 for a game with none.
    const INPUTS: usize = 0;

    /// The version of the layout of the game's inputs, written in its network files: raised
    /// whenever an input changes meaning, so that a file trained on the old inputs is
    /// refused instead of misread.
    const INPUT_LAYOUT: u16 = 1;

    /// Calls `on` with every input of the game's network that is on in this position, from
    /// `perspective`'s side (none for a game with no network).
    fn inputs(&self, perspective: Player, on: impl FnMut(usize)) {
        let _ = (perspective, on);
    }

    /// Input `input` of a position, as the same input of its mirror ([`Rules::mirrored`]),
    /// from the same perspective: a position's mirror turns on the mirrors of its inputs.
    /// Only asked of a game that mirrors.
    fn mirrored_input(input: usize) -> usize {
        input
    }

    /// The output buckets a network of the game may have (1: none): a position's bucket
    /// picks which of the output layer's copies evaluates it, so that what counts when
    /// much material is left and what counts in an ending can be weighed apart. A network
    /// has either one output layer or this many.
    const OUTPUT_BUCKETS: usize = 1;

    /// This position's output bucket, below [`Evaluate::OUTPUT_BUCKETS`].
    fn output_bucket(&self) -> usize {
        0
    }

    /// The network the game ships, built into the binary, if it has one.
    fn shipped_network() -> Option<Arc<Network>> {
        None
    }

    /// This position's state for `evaluator`, worked out from nothing (the state's own
    /// [`EvalState::fresh`]: no game writes it here).
    #[inline]
    fn state(&self, evaluator: &Evaluator) -> Self::State {
        Self::State::fresh(self, evaluator)
    }

    /// Writes into `child` the state after a move ([`EvalState::update`]).
    #[inline]
    fn update(
        &self,
        evaluator: &Evaluator,
        parent: &Self::State,
        changes: Self::Changes,
        child: &mut Self::State,
    ) {
        Self::State::update(self, evaluator, parent, changes, child)
    }

    /// The number of features of this game.
    fn feature_count() -> usize;

    /// The name of feature `index`, for people and for the tables `ternion tune` prints.
    fn feature_name(index: usize) -> String;

    /// The weights the engine plays with, one per feature.
    fn weights() -> &'static [i32];

    /// Adds this position's features, for the side to move, to `sink`.
    fn features<S: FeatureSink + ?Sized>(&self, sink: &mut S);

    /// A static estimate of the position for the side to move, in centipawn-like units
    /// (100 is about one piece): the features' weighted sum. Only meaningful while the game
    /// is in play.
    #[inline]
    fn evaluate(&self) -> i32 {
        weighted_sum(self, Self::weights())
    }

    /// The position's value by `evaluator`, read from `state`, this position's state as the
    /// search kept it ([`EvalState::value`]): the search's way to evaluate. With the
    /// terms, the same value as [`Evaluate::evaluate`].
    #[inline]
    fn evaluate_with(&self, evaluator: &Evaluator, state: &Self::State) -> i32 {
        Self::State::value(self, evaluator, state)
    }

    /// The position's value by `evaluator`, its state worked out afresh: for a position
    /// met once, not for the search's nodes.
    fn evaluate_by(&self, evaluator: &Evaluator) -> i32 {
        self.evaluate_with(evaluator, &self.state(evaluator))
    }
}

/// The sink of the evaluation: the features' weighted sum.
pub struct WeightedSum<'a> {
    weights: &'a [i32],
    pub sum: i32,
}

impl<'a> WeightedSum<'a> {
    pub fn new(weights: &'a [i32]) -> Self {
        WeightedSum { weights, sum: 0 }
    }
}

impl FeatureSink for WeightedSum<'_> {
    #[inline]
    fn add(&mut self, feature: usize, value: i32) {
        self.sum += self.weights[feature] * value;
    }
}

/// The sink of the tuner: every feature's value, by index.
impl FeatureSink for [i32] {
    #[inline]
    fn add(&mut self, feature: usize, value: i32) {
        self[feature] += value;
    }
}

/// The evaluation of `game` with `weights`: its features' weighted sum.
#[inline]
pub fn weighted_sum<G: Evaluate>(game: &G, weights: &[i32]) -> i32 {
    let mut sink = WeightedSum::new(weights);
    game.features(&mut sink);
    sink.sum
}

/// `game`'s accumulator for `network`, worked out from its inputs.
pub fn fresh_accumulator<G: Evaluate>(game: &G, network: &Network) -> Accumulator {
    let mut accumulator = network.empty_accumulator();
    for perspective in Player::BOTH {
        game.inputs(perspective, |input| {
            network.add(&mut accumulator, perspective, input)
        });
    }
    accumulator
}

/// The accumulator `evaluator` keeps for `game`: worked out afresh for a network, empty
/// for the terms (a search with no network keeps nothing).
pub fn accumulator_for<G: Evaluate>(game: &G, evaluator: &Evaluator) -> Accumulator {
    match evaluator.network() {
        Some(network) => fresh_accumulator(game, network),
        None => Accumulator::default(),
    }
}

/// The largest evaluation a network gives, with the terms it is added to: far beyond any
/// trained network's output (a few thousand at most), and below every score the search
/// gives a result some plies away (19,000 and beyond), so that no network, however made,
/// passes for a won game or a mate.
pub const EVAL_LIMIT: i32 = 15_000;

/// `game`'s value by `evaluator` for the side to move, from the `accumulator` the search
/// kept: the network's output in the position's bucket (added to the terms for a network
/// trained on what they miss), or the terms; `terms` is called only when they are needed.
/// A network's value is held within [`EVAL_LIMIT`].
#[inline]
pub fn network_or_terms<G: Evaluate>(
    game: &G,
    evaluator: &Evaluator,
    accumulator: &Accumulator,
    terms: impl FnOnce() -> i32,
) -> i32 {
    let output = |network: &Network| {
        let bucket = match network.buckets() {
            1 => 0,
            _ => game.output_bucket(),
        };
        network.evaluate(accumulator, game.side_to_move(), bucket)
    };
    match evaluator.network() {
        Some(network) if network.on_terms() => {
            (terms() + output(network)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        }
        Some(network) => output(network).clamp(-EVAL_LIMIT, EVAL_LIMIT),
        None => terms(),
    }
}

/// The features of `game`, one value per feature.
pub fn feature_values<G: Evaluate>(game: &G) -> Vec<i32> {
    let mut values = vec![0; G::feature_count()];
    game.features(values.as_mut_slice());
    values
}
