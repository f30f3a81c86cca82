//! A small efficiently updated network (NNUE) for any game: sparse inputs, one accumulator
//! layer per perspective kept up to date move by move, a clipped ReLU (or its square), one
//! output.
//!
//! The shape is the one the strongest engines of board games start from (Stockfish's
//! first networks, Bullet's `(inputs -> hidden) x 2 -> 1`): each perspective (the first
//! player's and the second's) has its own accumulator, the sum of the input layer's
//! columns of the inputs that are on, plus a bias; the side to move's accumulator comes
//! first in the output layer, the other second. A network may put a small second layer
//! between the two (`(inputs -> hidden) x 2 -> layer 2 -> 1`, clipped ReLU again): it
//! learns how the units combine, which a sum of them cannot, at the cost of a dense
//! product at each evaluation (never at a move: the accumulator stays the same). Inference is integer: the accumulator is
//! `i16` (weights quantised by [`QA`]), the output layer's weights by [`QB`], and the
//! output is scaled into the engine's score units by [`SCALE`], so the search's margins
//! keep their meaning. Which inputs a game has, and which a move turns on or off, is the
//! game's (its inputs are documented beside its evaluation); this module knows no game.
//!
//! - [`mod@file`]: the network's file: a header (variant, shape, checksum) and the weights.
//! - [`activation`]: what a unit passes on (the clipped ReLU or its square) and the
//!   output's sums over it.

pub mod accumulator;
pub mod activation;
pub mod file;

pub use self::accumulator::{Accumulator, MAX_HIDDEN};
pub use self::activation::Activation;
use crate::core::Player;

/// The input layer's quantisation: a weight of 1.0 is `QA`; the clipped ReLU clips the
/// accumulator to `0..=QA`.
pub const QA: i32 = 255;
/// The output layer's quantisation: a weight of 1.0 is `QB`.
pub const QB: i32 = 256;
/// Centipawns per unit of the float model's output.
pub const SCALE: i32 = 400;
/// The second layer's quantisation: a weight of 1.0 is `Q2`; its sums are in `QA * Q2`
/// units, and each of its units, clipped to `0..=QA` after division by `Q2`, is an
/// activation as the first layer's are.
pub const Q2: i32 = 256;
/// The trainer keeps every float weight and bias within this, so that the quantised
/// accumulator fits `i16`.
pub const WEIGHT_CLIP: f32 = 1.98;
/// The largest quantised weight (and first-layer bias) the trainer writes: the clip at the
/// largest of `QA`, `QB` and `Q2`, rounded. A file with a larger one is refused.
pub const MAX_WEIGHT: i16 = 507;
/// The largest quantised bias in `QA * QB` or `QA * Q2` units (the output's and the second
/// layer's) the trainer writes.
pub const MAX_BIAS: i32 = 129_255;

/// The most output buckets a network has.
pub const MAX_BUCKETS: usize = 16;

/// The most units a perspective a network with a second layer has (its activations are
/// gathered on the stack).
pub const MAX_HIDDEN_BELOW_LAYER2: usize = 512;

/// A network's units a perspective are a multiple of this: a rule of the shape, not a
/// vector width. The accumulator's loops are plain Rust over chunks of this many units, so
/// that the compiler writes them as vector instructions of whatever width the target has,
/// with no remainder.
pub const HIDDEN_MULTIPLE: usize = 16;

/// A network's weights, quantised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    inputs: usize,
    hidden: usize,
    /// `inputs` columns of `hidden` weights each: the column of input `i` starts at
    /// `i * hidden`.
    input_weights: Vec<i16>,
    input_bias: Vec<i16>,
    /// The second layer, if there is one.
    layer2: Option<Layer2>,
    /// The output layer's copies, one an output bucket, each without a second layer the
    /// side to move's `hidden` weights, then the other side's, and with one a weight for
    /// each of its units.
    output_weights: Vec<i16>,
    /// The output layer's bias, one an output bucket.
    output_bias: Vec<i32>,
    /// The output buckets: 1, or the game's [`crate::eval::Evaluate::OUTPUT_BUCKETS`].
    buckets: usize,
    /// Whether the network's output is added to the game's hand-written evaluation (a
    /// network trained on what the terms miss) rather than standing alone.
    on_terms: bool,
    /// What the first layer's units pass on to the output (the clipped ReLU under a
    /// second layer).
    activation: Activation,
}

/// A second layer: `units` units, each with a row of `2 * hidden` weights over both
/// perspectives' activations (the side to move's first), quantised by [`Q2`], and a bias
/// in `QA * Q2` units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer2 {
    pub units: usize,
    pub weights: Vec<i16>,
    pub bias: Vec<i32>,
}

/// Why weights do not make a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError(pub String);

impl Network {
    /// A network of `inputs` inputs and `hidden` units a perspective from its quantised
    /// weights; the lengths must fit the shape.
    pub fn new(
        inputs: usize,
        hidden: usize,
        input_weights: Vec<i16>,
        input_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
    ) -> Result<Network, ShapeError> {
        let fits = inputs > 0
            && hidden > 0
            && hidden <= MAX_HIDDEN
            && hidden.is_multiple_of(HIDDEN_MULTIPLE)
            && Some(input_weights.len()) == inputs.checked_mul(hidden)
            && input_bias.len() == hidden
            && output_weights.len() == 2 * hidden;
        if !fits {
            return Err(ShapeError(format!(
                "weights of {}, {} and {} do not make {inputs} inputs x {hidden} hidden \
                 (a multiple of {HIDDEN_MULTIPLE}, at most {MAX_HIDDEN})",
                input_weights.len(),
                input_bias.len(),
                output_weights.len()
            )));
        }
        Ok(Network {
            inputs,
            hidden,
            input_weights,
            input_bias,
            layer2: None,
            output_weights,
            output_bias: vec![output_bias],
            buckets: 1,
            on_terms: false,
            activation: Activation::ClippedRelu,
        })
    }

    /// This network with `layer2` between its accumulators and its output, whose weights
    /// become `output_weights` (one a unit of the second layer).
    pub fn with_layer2(
        mut self,
        layer2: Layer2,
        output_weights: Vec<i16>,
    ) -> Result<Network, ShapeError> {
        if self.activation != Activation::ClippedRelu {
            return Err(ShapeError(
                "a second layer takes the clipped ReLU's activations only".into(),
            ));
        }
        let fits = layer2.units > 0
            && self.hidden <= MAX_HIDDEN_BELOW_LAYER2
            && Some(layer2.weights.len()) == layer2.units.checked_mul(2 * self.hidden)
            && layer2.bias.len() == layer2.units
            && output_weights.len() == layer2.units;
        if !fits {
            return Err(ShapeError(format!(
                "second-layer weights of {}, {} and {} do not make 2 x {} -> {} -> 1 (at most \
                 {MAX_HIDDEN_BELOW_LAYER2} units a perspective below it)",
                layer2.weights.len(),
                layer2.bias.len(),
                output_weights.len(),
                self.hidden,
                layer2.units
            )));
        }
        self.layer2 = Some(layer2);
        self.output_weights = output_weights;
        Ok(self)
    }

    /// The second layer, if the network has one.
    pub fn layer2(&self) -> Option<&Layer2> {
        self.layer2.as_ref()
    }

    /// This network with `buckets` copies of its output layer (after its second layer, if
    /// it has one): `output_weights` the copies one after the other, `output_bias` one a
    /// copy.
    pub fn with_buckets(
        mut self,
        buckets: usize,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, ShapeError> {
        let per_bucket = self.outputs_per_bucket();
        let fits = (1..=MAX_BUCKETS).contains(&buckets)
            && Some(output_weights.len()) == buckets.checked_mul(per_bucket)
            && output_bias.len() == buckets;
        if !fits {
            return Err(ShapeError(format!(
                "output weights of {} and {} biases do not make {buckets} buckets of \
                 {per_bucket} (1 to {MAX_BUCKETS} buckets)",
                output_weights.len(),
                output_bias.len()
            )));
        }
        self.buckets = buckets;
        self.output_weights = output_weights;
        self.output_bias = output_bias;
        Ok(self)
    }

    /// The output layer's weights a bucket: one for each unit below it.
    #[inline(always)]
    fn outputs_per_bucket(&self) -> usize {
        self.layer2
            .as_ref()
            .map_or(2 * self.hidden, |layer2| layer2.units)
    }

    /// This network with the first layer's units passing on `activation`; a network with a
    /// second layer keeps the clipped ReLU.
    pub fn with_activation(mut self, activation: Activation) -> Result<Network, ShapeError> {
        if self.layer2.is_some() && activation != Activation::ClippedRelu {
            return Err(ShapeError(format!(
                "a second layer takes the clipped ReLU's activations only, not {}",
                activation.name()
            )));
        }
        self.activation = activation;
        Ok(self)
    }

    /// What the first layer's units pass on.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// The output buckets (1: none).
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The shape in words: "1152 inputs x 32 hidden", then the second layer's units and
    /// the output buckets where there are some.
    pub fn shape_words(&self) -> String {
        let mut words = format!("{} inputs x {} hidden", self.inputs, self.hidden);
        if let Some(layer2) = &self.layer2 {
            words += &format!(" x {} second-layer units", layer2.units);
        }
        if self.buckets > 1 {
            words += &format!(", {} output buckets", self.buckets);
        }
        if self.activation != Activation::ClippedRelu {
            words += &format!(", {}", self.activation.name());
        }
        words
    }

    /// This network, its output added to the hand-written evaluation (`true`) or alone.
    pub fn with_terms(mut self, on_terms: bool) -> Network {
        self.on_terms = on_terms;
        self
    }

    /// Whether the output is added to the hand-written evaluation.
    pub fn on_terms(&self) -> bool {
        self.on_terms
    }

    pub fn inputs(&self) -> usize {
        self.inputs
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// An accumulator with no input on: the biases, for both perspectives.
    pub fn empty_accumulator(&self) -> Accumulator {
        Accumulator::of_bias(&self.input_bias)
    }

    /// Input `input`'s column of weights.
    #[inline(always)]
    fn column(&self, input: usize) -> &[i16] {
        &self.input_weights[input * self.hidden..(input + 1) * self.hidden]
    }

    /// Input `input`'s column of `N` weights (`N` is `self.hidden`).
    #[inline(always)]
    fn column_sized<const N: usize>(&self, input: usize) -> &[i16; N] {
        self.input_weights[input * N..(input + 1) * N]
            .try_into()
            .expect("a column of N weights")
    }

    /// Writes into `accumulator` `perspective`'s sum of the biases and the columns of
    /// `inputs`, worked out from nothing in the room it has (it must be this network's):
    /// for a game whose moves change too many inputs to follow. The usual sizes keep the
    /// sum in registers and store it once. In the machine's widest vectors.
    #[inline]
    pub fn refresh(&self, accumulator: &mut Accumulator, perspective: Player, inputs: &[usize]) {
        widest::refresh(self, accumulator, perspective, inputs);
    }

    /// [`Network::refresh`] in the instructions of the caller's target.
    #[inline(always)]
    fn refresh_portable(
        &self,
        accumulator: &mut Accumulator,
        perspective: Player,
        inputs: &[usize],
    ) {
        match self.hidden {
            32 => self.refresh_sized::<32>(accumulator.units_mut(perspective), inputs),
            64 => self.refresh_sized::<64>(accumulator.units_mut(perspective), inputs),
            _ => {
                let to = accumulator.slice_mut(perspective, self.hidden);
                to.copy_from_slice(&self.input_bias);
                for &input in inputs {
                    add_to(to, self.column(input));
                }
            }
        }
    }

    /// [`Network::refresh`] for `N` units (`N` is `self.hidden`).
    #[inline(always)]
    fn refresh_sized<const N: usize>(&self, to: &mut [i16; N], inputs: &[usize]) {
        let mut sum: [i16; N] = self.input_bias[..].try_into().expect("N biases");
        for &input in inputs {
            add_to(&mut sum, self.column_sized::<N>(input));
        }
        *to = sum;
    }

    /// The accumulator of a position whose inputs on are `on[perspective]`, worked out
    /// from nothing.
    pub fn accumulator(&self, on: [&[usize]; 2]) -> Accumulator {
        let mut accumulator = self.empty_accumulator();
        for player in Player::BOTH {
            for &input in on[player.index()] {
                self.add(&mut accumulator, player, input);
            }
        }
        accumulator
    }

    /// Turns input `input` on in `perspective`'s accumulator.
    #[inline(always)]
    pub fn add(&self, accumulator: &mut Accumulator, perspective: Player, input: usize) {
        add_to(
            accumulator.slice_mut(perspective, self.hidden),
            self.column(input),
        );
    }

    /// Turns input `input` off in `perspective`'s accumulator.
    #[inline(always)]
    pub fn remove(&self, accumulator: &mut Accumulator, perspective: Player, input: usize) {
        subtract_from(
            accumulator.slice_mut(perspective, self.hidden),
            self.column(input),
        );
    }

    /// Writes into `child` `perspective`'s accumulator of `parent` with the inputs `on`
    /// turned on and `off` turned off, in one pass over the units for the common moves
    /// (one input on and one or two off: a quiet move, a capture) rather than a copy and a
    /// pass an input. In the machine's widest vectors.
    #[inline]
    pub fn apply(
        &self,
        parent: &Accumulator,
        child: &mut Accumulator,
        perspective: Player,
        on: &[usize],
        off: &[usize],
    ) {
        widest::apply(self, parent, child, perspective, on, off);
    }

    /// [`Network::apply`] in the instructions of the caller's target.
    #[inline(always)]
    fn apply_portable(
        &self,
        parent: &Accumulator,
        child: &mut Accumulator,
        perspective: Player,
        on: &[usize],
        off: &[usize],
    ) {
        // The usual sizes get loops of a length known when compiled: plain vector code,
        // with no checks of overlap or of a remainder at run time.
        match self.hidden {
            32 => self.apply_sized::<32>(parent, child, perspective, on, off),
            64 => self.apply_sized::<64>(parent, child, perspective, on, off),
            128 => self.apply_sized::<128>(parent, child, perspective, on, off),
            256 => self.apply_sized::<256>(parent, child, perspective, on, off),
            h => {
                let to = child.slice_mut(perspective, h);
                to.copy_from_slice(parent.slice(perspective, h));
                for &input in on {
                    add_to(to, self.column(input));
                }
                for &input in off {
                    subtract_from(to, self.column(input));
                }
            }
        }
    }

    /// [`Network::apply`] for `N` units (`N` is `self.hidden`).
    #[inline(always)]
    fn apply_sized<const N: usize>(
        &self,
        parent: &Accumulator,
        child: &mut Accumulator,
        perspective: Player,
        on: &[usize],
        off: &[usize],
    ) {
        let from = parent.units::<N>(perspective);
        let to = child.units_mut::<N>(perspective);
        match (on, off) {
            (&[a], &[r]) => sum_into(to, from, [self.column_sized(a)], [self.column_sized(r)]),
            (&[a], &[r1, r2]) => sum_into(
                to,
                from,
                [self.column_sized(a)],
                [self.column_sized(r1), self.column_sized(r2)],
            ),
            _ => {
                // Summed in a local array, which nothing else can point into, so the
                // compiler keeps it in vector registers rather than re-reading memory that
                // a column might share.
                let mut sum = *from;
                for &input in on {
                    add_to(&mut sum, self.column_sized::<N>(input));
                }
                for &input in off {
                    subtract_from(&mut sum, self.column_sized::<N>(input));
                }
                *to = sum;
            }
        }
    }

    /// The position's value for `side` to move, in centipawns, from its accumulator, by
    /// the output layer of `bucket` (the position's; a network of one bucket has only 0).
    /// In the machine's widest vectors.
    #[inline]
    pub fn evaluate(&self, accumulator: &Accumulator, side: Player, bucket: usize) -> i32 {
        widest::evaluate(self, accumulator, side, bucket)
    }

    /// [`Network::evaluate`] in the instructions of the caller's target.
    #[inline(always)]
    fn evaluate_portable(&self, accumulator: &Accumulator, side: Player, bucket: usize) -> i32 {
        debug_assert!(bucket < self.buckets, "bucket {bucket} of {}", self.buckets);
        let bucket = bucket.min(self.buckets - 1);
        let per_bucket = self.outputs_per_bucket();
        let weights = &self.output_weights[bucket * per_bucket..(bucket + 1) * per_bucket];
        let own = accumulator.slice(side, self.hidden);
        let other = accumulator.slice(side.opponent(), self.hidden);
        let sum = match &self.layer2 {
            None => {
                let (own_weights, other_weights) = weights.split_at(self.hidden);
                let activation = self.activation;
                activation.dot(own, own_weights) + activation.dot(other, other_weights)
            }
            Some(layer2) => i64::from(self.through_layer2(layer2, own, other, weights)),
        };
        // sum is in QA * QB units, the bias in QA * QB units too.
        let total = sum + i64::from(self.output_bias[bucket]);
        (total * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

impl Network {
    /// The output layer's sum, in `QA * QB` units, by the output weights `outputs` (one a
    /// unit), over the second layer's units worked out from the accumulators `own` (the
    /// side to move's) and `other`.
    #[inline(always)]
    fn through_layer2(&self, layer2: &Layer2, own: &[i16], other: &[i16], outputs: &[i16]) -> i32 {
        let h = self.hidden;
        let mut activations = [0i16; 2 * MAX_HIDDEN_BELOW_LAYER2];
        for (activation, &value) in activations.iter_mut().zip(own.iter().chain(other)) {
            *activation = value.clamp(0, QA as i16);
        }
        let activations = &activations[..2 * h];
        let mut sum = 0i32;
        for ((row, &bias), &weight) in (layer2.weights.chunks_exact(2 * h))
            .zip(&layer2.bias)
            .zip(outputs)
        {
            let z = plain_dot(activations, row).wrapping_add(bias);
            let unit = (z / Q2).clamp(0, QA);
            sum = sum.wrapping_add(unit * i32::from(weight));
        }
        sum
    }
}

/// The network's three inner loops, each compiled twice: for the build's baseline
/// (x86-64-v2, 128-bit vectors) and for AVX2 (256-bit), and called in the widest the
/// processor has (looked up at the first call, then kept). The copies are the same plain
/// Rust: the same integer sums, so the same values bit for bit.
mod widest {
    use super::{Accumulator, Network, Player};
    use multiversion::multiversion;

    #[multiversion(targets("x86_64+avx2"))]
    pub(super) fn refresh(
        network: &Network,
        accumulator: &mut Accumulator,
        perspective: Player,
        inputs: &[usize],
    ) {
        network.refresh_portable(accumulator, perspective, inputs);
    }

    #[multiversion(targets("x86_64+avx2"))]
    pub(super) fn apply(
        network: &Network,
        parent: &Accumulator,
        child: &mut Accumulator,
        perspective: Player,
        on: &[usize],
        off: &[usize],
    ) {
        network.apply_portable(parent, child, perspective, on, off);
    }

    #[multiversion(targets("x86_64+avx2"))]
    pub(super) fn evaluate(
        network: &Network,
        accumulator: &Accumulator,
        side: Player,
        bucket: usize,
    ) -> i32 {
        network.evaluate_portable(accumulator, side, bucket)
    }
}

/// `to += column`, unit by unit.
#[inline(always)]
fn add_to(to: &mut [i16], column: &[i16]) {
    for (value, &weight) in to.iter_mut().zip(column) {
        *value = value.wrapping_add(weight);
    }
}

/// `to -= column`, unit by unit.
#[inline(always)]
fn subtract_from(to: &mut [i16], column: &[i16]) {
    for (value, &weight) in to.iter_mut().zip(column) {
        *value = value.wrapping_sub(weight);
    }
}

/// The sum of each value times its weight: one plain reduction, which the compiler turns
/// into vector multiply-adds. Values are activations (at most `QA`) and weights a trained
/// network's (clipped in training): the sum stays far inside `i32`; a foreign file's may
/// wrap, never panic.
#[inline(always)]
fn plain_dot(values: &[i16], weights: &[i16]) -> i32 {
    values
        .iter()
        .zip(weights)
        .fold(0i32, |sum, (&value, &weight)| {
            sum.wrapping_add(i32::from(value) * i32::from(weight))
        })
}

/// `to = from + the columns of `plus` - the columns of `minus``, unit by unit.
#[inline(always)]
fn sum_into<const N: usize, const P: usize, const M: usize>(
    to: &mut [i16; N],
    from: &[i16; N],
    plus: [&[i16; N]; P],
    minus: [&[i16; N]; M],
) {
    for i in 0..N {
        let mut value = from[i];
        for column in &plus {
            value = value.wrapping_add(column[i]);
        }
        for column in &minus {
            value = value.wrapping_sub(column[i]);
        }
        to[i] = value;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A seeded network of small random weights.
    pub(crate) fn random_network(inputs: usize, hidden: usize, seed: u64) -> Network {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut weights = |n: usize, size: i16| (0..n).map(|_| rng.i16(-size..=size)).collect();
        let input_weights = weights(inputs * hidden, 60);
        let input_bias = weights(hidden, 120);
        let output_weights = weights(2 * hidden, 40);
        Network::new(
            inputs,
            hidden,
            input_weights,
            input_bias,
            output_weights,
            1234,
        )
        .unwrap()
    }

    #[test]
    fn an_accumulator_kept_move_by_move_equals_one_from_nothing() {
        let network = random_network(40, 16, 3);
        let mut rng = fastrand::Rng::with_seed(9);
        let mut on: [Vec<usize>; 2] = [vec![1, 5, 7], vec![2, 30]];
        let mut kept = network.accumulator([&on[0], &on[1]]);
        for _ in 0..500 {
            let player = Player::BOTH[rng.usize(..2)];
            let list = &mut on[player.index()];
            if !list.is_empty() && rng.bool() {
                let input = list.swap_remove(rng.usize(..list.len()));
                network.remove(&mut kept, player, input);
            } else {
                let input = rng.usize(..40);
                list.push(input);
                network.add(&mut kept, player, input);
            }
            assert_eq!(kept, network.accumulator([&on[0], &on[1]]));
        }
        let mut copy = network.empty_accumulator();
        copy.copy_from(&kept);
        assert_eq!(copy, kept);
    }

    #[test]
    fn an_accumulator_applied_in_one_pass_equals_one_input_at_a_time() {
        // 16 units: the general loop; 32 and 64: loops of a size known when compiled.
        for hidden in [16, 32, 64] {
            let network = random_network(40, hidden, 4);
            let parent = network.accumulator([&[1, 5, 7, 9], &[2, 30, 31]]);
            let cases: [(&[usize], &[usize]); 5] = [
                (&[3], &[5]),
                (&[3], &[5, 7]),
                (&[3, 4], &[5]),
                (&[], &[9]),
                (&[3, 4], &[1, 5, 7]),
            ];
            for (on, off) in cases {
                for perspective in Player::BOTH {
                    let mut one_pass = network.empty_accumulator();
                    one_pass.copy_from(&parent);
                    network.apply(&parent, &mut one_pass, perspective, on, off);
                    let mut one_by_one = parent.clone();
                    on.iter()
                        .for_each(|&i| network.add(&mut one_by_one, perspective, i));
                    off.iter()
                        .for_each(|&i| network.remove(&mut one_by_one, perspective, i));
                    assert_eq!(one_pass, one_by_one, "{hidden}: on {on:?} off {off:?}");
                }
            }
        }
    }

    #[test]
    fn an_accumulator_refreshed_equals_one_from_nothing() {
        // 16 units: the general loop; 32 and 64: sums kept in registers.
        for hidden in [16, 32, 64] {
            let network = random_network(40, hidden, 6);
            let on: [&[usize]; 2] = [&[1, 5, 5, 7, 39], &[0, 30]];
            let mut refreshed = network.accumulator([&[2, 3], &[4]]);
            for perspective in Player::BOTH {
                network.refresh(&mut refreshed, perspective, on[perspective.index()]);
            }
            assert_eq!(refreshed, network.accumulator(on), "{hidden} units");
        }
    }

    /// `network` with `buckets` output layers of seeded random weights.
    pub(crate) fn with_random_buckets(network: Network, buckets: usize, seed: u64) -> Network {
        let mut rng = fastrand::Rng::with_seed(seed);
        let per_bucket = network.output_weights.len();
        let weights = (0..buckets * per_bucket)
            .map(|_| rng.i16(-40..=40))
            .collect();
        let bias = (0..buckets).map(|_| rng.i32(-3000..=3000)).collect();
        network.with_buckets(buckets, weights, bias).unwrap()
    }

    #[test]
    fn the_integer_output_follows_the_float_model() {
        for activation in [Activation::ClippedRelu, Activation::SquaredClippedRelu] {
            for buckets in [1, 3] {
                let network = match buckets {
                    1 => random_network(20, 16, 5),
                    _ => with_random_buckets(random_network(20, 16, 5), buckets, 6),
                };
                let network = network.with_activation(activation).unwrap();
                for bucket in 0..buckets {
                    output_follows_the_float_model(&network, bucket);
                }
            }
        }
        let network = with_random_buckets(random_network(20, 16, 5), 3, 6);
        let accumulator = network.accumulator([&[0, 3, 9], &[4, 11]]);
        // Each bucket is its own output layer.
        assert_ne!(
            network.evaluate(&accumulator, Player::P1, 0),
            network.evaluate(&accumulator, Player::P1, 2)
        );
    }

    /// `network`'s integer output by `bucket` is its float model's, within a centipawn.
    fn output_follows_the_float_model(network: &Network, bucket: usize) {
        let accumulator = network.accumulator([&[0, 3, 9], &[4, 11]]);
        let per_bucket = network.outputs_per_bucket();
        let weights = &network.output_weights[bucket * per_bucket..(bucket + 1) * per_bucket];
        for side in Player::BOTH {
            // The float model: the activations in units of 1.0, times the output weights in
            // units of 1.0, plus the bias, times the scale.
            let activation = |player: Player| -> Vec<f64> {
                accumulator
                    .slice(player, network.hidden)
                    .iter()
                    .map(|&v| {
                        let clipped = f64::from(i32::from(v).clamp(0, QA)) / f64::from(QA);
                        match network.activation {
                            Activation::ClippedRelu => clipped,
                            Activation::SquaredClippedRelu => clipped * clipped,
                        }
                    })
                    .collect()
            };
            let (own, other) = weights.split_at(network.hidden);
            let dot = |a: &[f64], w: &[i16]| -> f64 {
                a.iter()
                    .zip(w)
                    .map(|(a, &w)| a * f64::from(w) / f64::from(QB))
                    .sum()
            };
            let float = (dot(&activation(side), own)
                + dot(&activation(side.opponent()), other)
                + f64::from(network.output_bias[bucket]) / f64::from(QA * QB))
                * f64::from(SCALE);
            let integer = network.evaluate(&accumulator, side, bucket);
            assert!(
                (f64::from(integer) - float).abs() <= 1.0,
                "{integer} against {float}"
            );
        }
        // The two sides see the position from opposite perspectives.
        assert_ne!(
            network.evaluate(&accumulator, Player::P1, bucket),
            network.evaluate(&accumulator, Player::P2, bucket)
        );
    }

    /// The dispatched loops (AVX2 where the processor has it, as this machine's do) give
    /// what the baseline's copy of the same loops gives, bit for bit: every update shape,
    /// the usual sizes and the general one, the output with and without a second layer.
    #[test]
    fn the_widest_loops_give_the_baselines_values_bit_for_bit() {
        let mut rng = fastrand::Rng::with_seed(12);
        for hidden in [16, 32, 48, 64, 128, 256] {
            let inputs = 300;
            let network = random_network(inputs, hidden, hidden as u64);
            let mut input = || rng.usize(..inputs);
            let on: Vec<usize> = (0..30).map(|_| input()).collect();
            let mut parent = network.empty_accumulator();
            let mut portable = network.empty_accumulator();
            for perspective in Player::BOTH {
                network.refresh(&mut parent, perspective, &on);
                network.refresh_portable(&mut portable, perspective, &on);
            }
            assert_eq!(parent, portable, "refresh, {hidden} units");
            assert_eq!(parent, network.accumulator([&on, &on]));
            for (ons, offs) in [(1, 1), (1, 2), (2, 1), (0, 1), (3, 3)] {
                let on: Vec<usize> = (0..ons).map(|_| input()).collect();
                let off: Vec<usize> = (0..offs).map(|_| input()).collect();
                let (mut widest, mut baseline) = (parent.clone(), parent.clone());
                for perspective in Player::BOTH {
                    network.apply(&parent, &mut widest, perspective, &on, &off);
                    network.apply_portable(&parent, &mut baseline, perspective, &on, &off);
                }
                assert_eq!(widest, baseline, "apply, {hidden} units, {on:?} {off:?}");
                let squared = (network.clone())
                    .with_activation(Activation::SquaredClippedRelu)
                    .unwrap();
                for side in Player::BOTH {
                    for network in [&network, &squared] {
                        assert_eq!(
                            network.evaluate(&widest, side, 0),
                            network.evaluate_portable(&widest, side, 0)
                        );
                    }
                }
            }
            if hidden <= MAX_HIDDEN_BELOW_LAYER2 {
                let units = 8;
                let weights = (0..units * 2 * hidden)
                    .map(|_| rng.i16(-300..=300))
                    .collect();
                let bias = (0..units).map(|_| rng.i32(-20_000..=20_000)).collect();
                let output = (0..units).map(|_| rng.i16(-300..=300)).collect();
                let layer2 = Layer2 {
                    units,
                    weights,
                    bias,
                };
                let deep = network.clone().with_layer2(layer2, output).unwrap();
                let bucketed = with_random_buckets(deep.clone(), 4, 13);
                for side in Player::BOTH {
                    assert_eq!(
                        deep.evaluate(&parent, side, 0),
                        deep.evaluate_portable(&parent, side, 0)
                    );
                    for bucket in 0..4 {
                        assert_eq!(
                            bucketed.evaluate(&parent, side, bucket),
                            bucketed.evaluate_portable(&parent, side, bucket)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn weights_that_do_not_fit_the_shape_are_refused() {
        let h = HIDDEN_MULTIPLE;
        assert!(Network::new(2, h, vec![0; 2 * h], vec![0; h], vec![0; 2 * h], 0).is_ok());
        assert!(Network::new(2, h, vec![0; 2 * h - 1], vec![0; h], vec![0; 2 * h], 0).is_err());
        assert!(Network::new(2, h, vec![0; 2 * h], vec![0; h], vec![0; h], 0).is_err());
        assert!(Network::new(0, h, vec![], vec![0; h], vec![0; 2 * h], 0).is_err());
        // Units in whole lanes only, and no more than an accumulator holds.
        assert!(Network::new(2, 2, vec![0; 4], vec![0; 2], vec![0; 4], 0).is_err());
        let big = MAX_HIDDEN + h;
        assert!(Network::new(1, big, vec![0; big], vec![0; big], vec![0; 2 * big], 0).is_err());
        // A second layer takes the clipped ReLU only, whichever comes first.
        let layer2 = || Layer2 {
            units: 1,
            weights: vec![0; 2 * h],
            bias: vec![0],
        };
        let plain = Network::new(2, h, vec![0; 2 * h], vec![0; h], vec![0; 2 * h], 0).unwrap();
        let deep = plain.clone().with_layer2(layer2(), vec![0]).unwrap();
        assert!(
            deep.with_activation(Activation::SquaredClippedRelu)
                .is_err()
        );
        let squared = plain
            .with_activation(Activation::SquaredClippedRelu)
            .unwrap();
        assert!(squared.with_layer2(layer2(), vec![0]).is_err());
    }
}
