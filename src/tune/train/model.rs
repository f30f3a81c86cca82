//! The float model the trainer fits, the same shape as the engine's network
//! (`eval::network`): `inputs -> hidden` for each perspective, a clipped ReLU to `0..=1`
//! (or its square), then one output from both perspectives' activations, the side to move's first, or,
//! with a second layer, `layer2` units (each over both perspectives' activations, clipped
//! ReLU again) and one output from them. The output `o` is the position's value in units
//! of [`SCALE`] centipawns; the loss is the squared distance between `sigmoid(o * SCALE /
//! K)` and the target, `K` the data's scale.
//!
//! Gradients are summed over a mini-batch in a fixed number of chunks, each chunk's into a
//! buffer of its own, then added in chunk order: however many threads share the chunks,
//! the sum is the same to the last bit, so a run repeats exactly under its seed.

/// How far a weight may grow, so that the quantised accumulator fits an `i16` whatever the
/// inputs on: a sum of 63 inputs of this size and a bias stays under 128 (times `QA`). The
/// network's file refuses weights beyond it.
pub use crate::eval::network::WEIGHT_CLIP;
use crate::eval::network::{Activation, Layer2, Network, Q2, QA, QB, SCALE};

/// The model's parameters, or a gradient of them (the same shape).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub inputs: usize,
    pub hidden: usize,
    /// The second layer's units, 0 for none.
    pub layer2: usize,
    /// The output layer's copies, one an output bucket (1: none).
    pub buckets: usize,
    /// What the first layer's units pass on (the clipped ReLU under a second layer).
    pub activation: Activation,
    /// Input `i`'s column of `hidden` weights starts at `i * hidden`.
    pub input_weights: Vec<f32>,
    pub input_bias: Vec<f32>,
    /// The second layer's unit `k`'s row of `2 * hidden` weights starts at
    /// `k * 2 * hidden` (the side to move's activations first).
    pub layer2_weights: Vec<f32>,
    pub layer2_bias: Vec<f32>,
    /// For each bucket in turn: without a second layer, the side to move's `hidden`
    /// weights, then the other side's; with one, a weight a unit of it.
    pub output_weights: Vec<f32>,
    /// One a bucket.
    pub output_bias: Vec<f32>,
}

impl Params {
    pub fn zeros(shape: Shape) -> Params {
        let Shape {
            inputs,
            hidden,
            layer2,
            buckets,
            activation,
        } = shape;
        Params {
            inputs,
            hidden,
            layer2,
            buckets,
            activation,
            input_weights: vec![0.0; inputs * hidden],
            input_bias: vec![0.0; hidden],
            layer2_weights: vec![0.0; layer2 * 2 * hidden],
            layer2_bias: vec![0.0; layer2],
            output_weights: vec![0.0; buckets * shape.outputs()],
            output_bias: vec![0.0; buckets],
        }
    }

    /// The model's shape.
    pub fn shape(&self) -> Shape {
        Shape {
            inputs: self.inputs,
            hidden: self.hidden,
            layer2: self.layer2,
            buckets: self.buckets,
            activation: self.activation,
        }
    }

    /// The output layer a position of output bucket `bucket` is evaluated by: its bucket's,
    /// or the one of a model without buckets.
    #[inline]
    pub fn bucket(&self, bucket: usize) -> usize {
        match self.buckets {
            1 => 0,
            _ => bucket,
        }
    }

    /// The output weights of `bucket`.
    #[inline]
    fn outputs_of(&self, bucket: usize) -> std::ops::Range<usize> {
        let per_bucket = self.shape().outputs();
        bucket * per_bucket..(bucket + 1) * per_bucket
    }

    /// A model's starting point: small uniform input weights (about a unit's worth from the
    /// few dozen inputs on at once), biases that put every unit in the middle of its range,
    /// and the weights of the layers above of Glorot's size.
    /// Every bucket's output layer starts the same, so that a bucket that sees few
    /// positions starts where the others do.
    pub fn random(shape: Shape, rng: &mut fastrand::Rng) -> Params {
        let Shape {
            inputs,
            hidden,
            layer2,
            buckets,
            activation,
        } = shape;
        let mut uniform = |n: usize, size: f32| -> Vec<f32> {
            (0..n).map(|_| (rng.f32() * 2.0 - 1.0) * size).collect()
        };
        let input_weights = uniform(inputs * hidden, 0.15);
        let layer2_weights = uniform(layer2 * 2 * hidden, 1.0 / (2.0 * hidden as f32).sqrt());
        let outputs = shape.outputs();
        let output_weights = uniform(outputs, 1.0 / (outputs as f32 / 2.0).sqrt()).repeat(buckets);
        Params {
            inputs,
            hidden,
            layer2,
            buckets,
            activation,
            input_weights,
            input_bias: vec![0.5; hidden],
            layer2_weights,
            layer2_bias: vec![0.5; layer2],
            output_weights,
            output_bias: vec![0.0; buckets],
        }
    }

    /// Every parameter, in one order (Adam's view).
    fn values_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        (self.input_weights.iter_mut())
            .chain(self.input_bias.iter_mut())
            .chain(self.layer2_weights.iter_mut())
            .chain(self.layer2_bias.iter_mut())
            .chain(self.output_weights.iter_mut())
            .chain(self.output_bias.iter_mut())
    }

    fn values(&self) -> impl Iterator<Item = &f32> {
        (self.input_weights.iter())
            .chain(self.input_bias.iter())
            .chain(self.layer2_weights.iter())
            .chain(self.layer2_bias.iter())
            .chain(self.output_weights.iter())
            .chain(self.output_bias.iter())
    }

    /// Every parameter, in Adam's order (a checkpoint's view).
    pub fn to_vec(&self) -> Vec<f32> {
        self.values().copied().collect()
    }

    /// The parameters of `shape` from [`Params::to_vec`]'s values; `None` if they are not
    /// as many as the shape has.
    pub fn from_vec(shape: Shape, values: Vec<f32>) -> Option<Params> {
        let mut params = Params::zeros(shape);
        if values.len() != params.count() {
            return None;
        }
        params
            .values_mut()
            .zip(values)
            .for_each(|(to, from)| *to = from);
        Some(params)
    }

    pub fn count(&self) -> usize {
        self.input_weights.len()
            + self.input_bias.len()
            + self.layer2_weights.len()
            + self.layer2_bias.len()
            + self.output_weights.len()
            + self.output_bias.len()
    }

    /// Every layer's weights and biases, in [`Params::values`]' order: one slice each, so
    /// that the loops over all of them run over plain slices (the compiler vectorises those,
    /// not a chain of iterators).
    fn fields(&self) -> [&[f32]; 6] {
        [
            &self.input_weights,
            &self.input_bias,
            &self.layer2_weights,
            &self.layer2_bias,
            &self.output_weights,
            &self.output_bias,
        ]
    }

    fn fields_mut(&mut self) -> [&mut [f32]; 6] {
        [
            &mut self.input_weights,
            &mut self.input_bias,
            &mut self.layer2_weights,
            &mut self.layer2_bias,
            &mut self.output_weights,
            &mut self.output_bias,
        ]
    }

    /// Sets every value to 0.
    pub fn clear(&mut self) {
        self.fields_mut()
            .into_iter()
            .for_each(|field| field.fill(0.0));
    }

    /// Multiplies every weight and bias, of every layer, by `factor`.
    pub fn scale(&mut self, factor: f32) {
        for field in self.fields_mut() {
            field.iter_mut().for_each(|v| *v *= factor);
        }
    }

    /// Adds `other` (of the same shape) to this.
    pub fn add(&mut self, other: &Params) {
        for (mine, theirs) in self.fields_mut().into_iter().zip(other.fields()) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }

    /// The accumulator of one perspective: the bias plus the columns of `on`.
    fn accumulate(&self, on: &[u16], out: &mut [f32]) {
        out.copy_from_slice(&self.input_bias);
        for &input in on {
            let start = input as usize * self.hidden;
            let column = &self.input_weights[start..start + self.hidden];
            for (value, weight) in out.iter_mut().zip(column) {
                *value += weight;
            }
        }
    }

    /// The output for a position whose inputs on are `own` (the side to move's view) and
    /// `other`, by the output layer of `bucket`, in units of [`SCALE`] centipawns; `scratch`
    /// holds both accumulators (and the second layer's sums) after.
    pub fn forward(&self, own: &[u16], other: &[u16], bucket: usize, scratch: &mut Scratch) -> f32 {
        let h = self.hidden;
        self.accumulate(own, &mut scratch.accumulators[..h]);
        self.accumulate(other, &mut scratch.accumulators[h..]);
        let mut output = self.output_bias[bucket];
        let output_weights = &self.output_weights[self.outputs_of(bucket)];
        if self.layer2 == 0 {
            let activation = self.activation;
            for (&value, weight) in scratch.accumulators.iter().zip(output_weights) {
                output += activation.of(value) * weight;
            }
            return output;
        }
        for (k, sum) in scratch.layer2.iter_mut().enumerate() {
            let row = &self.layer2_weights[k * 2 * h..(k + 1) * 2 * h];
            *sum = self.layer2_bias[k]
                + (scratch.accumulators.iter())
                    .zip(row)
                    .map(|(value, weight)| value.clamp(0.0, 1.0) * weight)
                    .sum::<f32>();
            output += sum.clamp(0.0, 1.0) * output_weights[k];
        }
        output
    }

    /// Adds to `gradient` the gradient of the output times `slope` (the loss's derivative
    /// by the output) for the position [`Params::forward`] last saw in `scratch`.
    pub fn backward(
        &self,
        (own, other, bucket): (&[u16], &[u16], usize),
        slope: f32,
        scratch: &mut Scratch,
        gradient: &mut Params,
    ) {
        let h = self.hidden;
        gradient.output_bias[bucket] += slope;
        let outputs = self.outputs_of(bucket);
        let output_weights = &self.output_weights[outputs.clone()];
        let output_slopes = &mut gradient.output_weights[outputs];
        // The output's slope by each activation of the accumulators, then by each unit.
        let Scratch {
            accumulators,
            layer2,
            slopes,
        } = scratch;
        if self.layer2 == 0 {
            for ((j, &value), unit) in accumulators.iter().enumerate().zip(slopes.iter_mut()) {
                output_slopes[j] += slope * self.activation.of(value);
                *unit = slope * output_weights[j];
            }
        } else {
            slopes.fill(0.0);
            for (k, &sum) in layer2.iter().enumerate() {
                output_slopes[k] += slope * sum.clamp(0.0, 1.0);
                // The clipped ReLU passes a slope only inside its range.
                if sum <= 0.0 || sum >= 1.0 {
                    continue;
                }
                let unit_slope = slope * output_weights[k];
                gradient.layer2_bias[k] += unit_slope;
                let row = k * 2 * h..(k + 1) * 2 * h;
                let weights = &self.layer2_weights[row.clone()];
                let weight_slopes = &mut gradient.layer2_weights[row];
                for (j, &value) in accumulators.iter().enumerate() {
                    weight_slopes[j] += unit_slope * value.clamp(0.0, 1.0);
                    slopes[j] += unit_slope * weights[j];
                }
            }
        }
        // The activation passes a slope only inside its range (the second layer reads the
        // clipped ReLU's).
        for (unit, &value) in slopes.iter_mut().zip(accumulators.iter()) {
            *unit *= self.activation.slope(value);
        }
        let unit_slopes = &slopes[..];
        for (perspective, on) in [own, other].into_iter().enumerate() {
            let slopes = &unit_slopes[perspective * h..(perspective + 1) * h];
            for (bias, s) in gradient.input_bias.iter_mut().zip(slopes) {
                *bias += s;
            }
            for &input in on {
                let start = input as usize * h;
                let column = &mut gradient.input_weights[start..start + h];
                for (weight, s) in column.iter_mut().zip(slopes) {
                    *weight += s;
                }
            }
        }
    }

    /// The engine's integer network of these weights.
    pub fn quantise(&self) -> Network {
        let round = |values: &[f32], scale: i32| -> Vec<i16> {
            (values.iter())
                .map(|&v| (v * scale as f32).round().clamp(-32767.0, 32767.0) as i16)
                .collect()
        };
        let output_bias = (self.output_bias.iter())
            .map(|&b| (b * (QA * QB) as f32).round() as i32)
            .collect();
        let network = Network::new(
            self.inputs,
            self.hidden,
            round(&self.input_weights, QA),
            round(&self.input_bias, QA),
            vec![0; 2 * self.hidden],
            0,
        )
        .and_then(|network| network.with_activation(self.activation));
        let network = match self.layer2 {
            0 => network,
            units => network.and_then(|network| {
                let layer2 = Layer2 {
                    units,
                    weights: round(&self.layer2_weights, Q2),
                    bias: (self.layer2_bias.iter())
                        .map(|&b| (b * (QA * Q2) as f32).round() as i32)
                        .collect(),
                };
                network.with_layer2(layer2, vec![0; units])
            }),
        };
        network
            .and_then(|network| {
                let output_weights = round(&self.output_weights, QB);
                network.with_buckets(self.buckets, output_weights, output_bias)
            })
            .expect("the float model's shape is the network's")
    }
}

/// A model's shape: its inputs, units a perspective, second-layer units (0: none), output
/// buckets (1: none) and the first layer's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub inputs: usize,
    pub hidden: usize,
    pub layer2: usize,
    pub buckets: usize,
    pub activation: Activation,
}

impl Shape {
    /// `inputs -> hidden` a perspective, one output: no second layer, no buckets, the
    /// clipped ReLU.
    pub fn plain(inputs: usize, hidden: usize) -> Shape {
        Shape {
            inputs,
            hidden,
            layer2: 0,
            buckets: 1,
            activation: Activation::ClippedRelu,
        }
    }

    /// The output layer's weights a bucket: one a unit below it.
    fn outputs(self) -> usize {
        if self.layer2 > 0 {
            self.layer2
        } else {
            2 * self.hidden
        }
    }
}

/// One thread's room for a position's accumulators and second-layer sums, and for the
/// slopes the backward pass finds for them (kept here, so that no position clears or
/// allocates room of its own).
pub struct Scratch {
    accumulators: Vec<f32>,
    layer2: Vec<f32>,
    slopes: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize, layer2: usize) -> Scratch {
        Scratch {
            accumulators: vec![0.0; 2 * hidden],
            layer2: vec![0.0; layer2],
            slopes: vec![0.0; 2 * hidden],
        }
    }
}

/// The loss of one prediction and its derivative by the output `o`: `(sigmoid(o * c) -
/// target)^2`, `c` being `SCALE / K`.
#[inline]
pub fn loss(output: f32, target: f32, c: f32) -> (f32, f32) {
    let predicted = 1.0 / (1.0 + (-output * c).exp());
    let error = predicted - target;
    (
        error * error,
        2.0 * error * predicted * (1.0 - predicted) * c,
    )
}

/// `SCALE / K` for the data's scale `K`: the factor from the output to the sigmoid's
/// argument.
pub fn output_factor(scale: f64) -> f32 {
    (f64::from(SCALE) / scale) as f32
}

/// Adam's moments, one pair a parameter.
#[derive(Clone, Debug)]
pub struct Adam {
    first: Vec<f32>,
    second: Vec<f32>,
    steps: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    pub fn new(params: &Params) -> Adam {
        Adam {
            first: vec![0.0; params.count()],
            second: vec![0.0; params.count()],
            steps: 0,
        }
    }

    /// Adam's moments for a model of `shape` after `steps` steps, as
    /// [`Adam::moments`] gave them; `None` if they are not of that shape.
    pub fn from_moments(
        first: Vec<f32>,
        second: Vec<f32>,
        steps: i32,
        shape: Shape,
    ) -> Option<Adam> {
        let count = Params::zeros(shape).count();
        (first.len() == count && second.len() == count && steps >= 0).then_some(Adam {
            first,
            second,
            steps,
        })
    }

    /// The first and second moments, in [`Params::to_vec`]'s order.
    pub fn moments(&self) -> (&[f32], &[f32]) {
        (&self.first, &self.second)
    }

    /// The steps taken.
    pub fn steps(&self) -> i32 {
        self.steps
    }

    /// One step of `rate` against `gradient`, then the weights are clipped.
    pub fn step(&mut self, params: &mut Params, gradient: &Params, rate: f32) {
        self.steps += 1;
        let correct1 = 1.0 - Self::BETA1.powi(self.steps);
        let correct2 = 1.0 - Self::BETA2.powi(self.steps);
        let (mut first, mut second) = (&mut self.first[..], &mut self.second[..]);
        for (values, gradients) in params.fields_mut().into_iter().zip(gradient.fields()) {
            let (m_here, m_rest) = std::mem::take(&mut first).split_at_mut(values.len());
            let (v_here, v_rest) = std::mem::take(&mut second).split_at_mut(values.len());
            (first, second) = (m_rest, v_rest);
            let moments = m_here.iter_mut().zip(v_here.iter_mut());
            for ((value, &g), (m, v)) in values.iter_mut().zip(gradients).zip(moments) {
                *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
                *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
                *value -= rate * (*m / correct1) / ((*v / correct2).sqrt() + Self::EPSILON);
                *value = value.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Player;

    /// The gradient `backward` adds is the slope of the output, checked against a finite
    /// difference for a few weights of every kind, with and without a second layer, with
    /// one output layer and with buckets (the position in the last).
    #[test]
    fn the_gradient_is_the_slope_of_the_output() {
        let squared = Activation::SquaredClippedRelu;
        let crelu = Activation::ClippedRelu;
        for (layer2, buckets, activation) in [
            (0, 1, crelu),
            (4, 1, crelu),
            (0, 3, crelu),
            (4, 3, crelu),
            (0, 1, squared),
            (0, 3, squared),
        ] {
            let mut rng = fastrand::Rng::with_seed(4);
            let shape = Shape {
                layer2,
                buckets,
                activation,
                ..Shape::plain(30, 8)
            };
            let mut params = Params::random(shape, &mut rng);
            // Buckets start alike: make them differ, so that the right one must be read.
            params
                .output_weights
                .iter_mut()
                .for_each(|w| *w += rng.f32() - 0.5);
            let bucket = buckets - 1;
            let (own, other) = ([1u16, 4, 9, 22], [3u16, 4, 17]);
            let mut scratch = Scratch::new(8, layer2);
            params.forward(&own, &other, bucket, &mut scratch);
            let mut gradient = Params::zeros(shape);
            params.backward((&own, &other, bucket), 1.0, &mut scratch, &mut gradient);
            let output = |p: &Params| p.forward(&own, &other, bucket, &mut Scratch::new(8, layer2));
            let h = 1e-3;
            let check = |name: &str, get: &dyn Fn(&mut Params) -> &mut f32| {
                let mut moved = params.clone();
                *get(&mut moved) += h;
                let up = output(&moved);
                *get(&mut moved) -= 2.0 * h;
                let down = output(&moved);
                let numeric = (up - down) / (2.0 * h);
                let analytic = *get(&mut gradient.clone());
                assert!(
                    (numeric - analytic).abs() < 2e-3,
                    "{layer2} second-layer units, {buckets} buckets, {activation:?}, {name}: \
                     {numeric} against {analytic}"
                );
            };
            for j in 0..8 {
                check("input weight", &|p| &mut p.input_weights[4 * 8 + j]);
                check("input weight", &|p| &mut p.input_weights[17 * 8 + j]);
                check("input bias", &|p| &mut p.input_bias[j]);
            }
            for j in 0..params.output_weights.len() {
                check("output weight", &|p| &mut p.output_weights[j]);
            }
            for k in 0..layer2 {
                check("second-layer bias", &|p| &mut p.layer2_bias[k]);
                for j in [0, 5, 8, 15] {
                    check("second-layer weight", &|p| {
                        &mut p.layer2_weights[k * 16 + j]
                    });
                }
            }
            for b in 0..buckets {
                check("output bias", &|p| &mut p.output_bias[b]);
            }
        }
    }

    /// The quantised network gives the float model's output, in centipawns, within a few,
    /// with and without a second layer.
    #[test]
    fn the_quantised_network_follows_the_float_model() {
        let squared = Activation::SquaredClippedRelu;
        let crelu = Activation::ClippedRelu;
        for (layer2, buckets, activation, bound) in [
            (0, 1, crelu, 6.0),
            (16, 1, crelu, 8.0),
            (0, 4, crelu, 6.0),
            (16, 4, crelu, 8.0),
            (0, 1, squared, 6.0),
            (0, 4, squared, 6.0),
        ] {
            let mut rng = fastrand::Rng::with_seed(8);
            let shape = Shape {
                layer2,
                buckets,
                activation,
                ..Shape::plain(50, 32)
            };
            let mut params = Params::random(shape, &mut rng);
            // Buckets start alike: make them differ, so that the right one must be read.
            (params.output_weights.iter_mut()).for_each(|w| *w += (rng.f32() - 0.5) * 0.2);
            let network = params.quantise();
            assert_eq!(network.layer2().map_or(0, |l| l.units), layer2);
            assert_eq!(network.buckets(), buckets);
            assert_eq!(network.activation(), activation);
            let mut scratch = Scratch::new(32, layer2);
            let mut worst = 0.0f32;
            for _ in 0..200 {
                let mut pick = || -> Vec<u16> {
                    let mut on: Vec<u16> = (0..12).map(|_| rng.u16(..50)).collect();
                    on.sort_unstable();
                    on.dedup();
                    on
                };
                let (own, other) = (pick(), pick());
                let bucket = rng.usize(..buckets);
                let float = params.forward(&own, &other, bucket, &mut scratch) * SCALE as f32;
                let own_usize: Vec<usize> = own.iter().map(|&i| i as usize).collect();
                let other_usize: Vec<usize> = other.iter().map(|&i| i as usize).collect();
                // The side to move is the first player: its accumulator is the first.
                let accumulator = network.accumulator([&own_usize, &other_usize]);
                let integer = network.evaluate(&accumulator, Player::P1, bucket) as f32;
                worst = worst.max((integer - float).abs());
            }
            assert!(
                worst <= bound,
                "{layer2} second-layer units, {activation:?}: {worst} cp apart"
            );
        }
    }
}
