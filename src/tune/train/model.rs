//! The float model the trainer fits, the same shape as the engine's network
//! (`eval::network`): `inputs -> hidden` for each perspective, a clipped ReLU to `0..=1`,
//! then one output from both perspectives' activations, the side to move's first. The
//! output `o` is the position's value in units of [`SCALE`] centipawns; the loss is the
//! squared distance between `sigmoid(o * SCALE / K)` and the target, `K` the data's scale.
//!
//! Gradients are summed over a mini-batch in a fixed number of chunks, each chunk's into a
//! buffer of its own, then added in chunk order: however many threads share the chunks,
//! the sum is the same to the last bit, so a run repeats exactly under its seed.

use crate::eval::network::{Network, QA, QB, SCALE};

/// How far a weight may grow, so that the quantised accumulator fits an `i16` whatever the
/// inputs on: a sum of 63 inputs of this size and a bias stays under 128 (times `QA`).
pub const WEIGHT_CLIP: f32 = 1.98;

/// The model's parameters, or a gradient of them (the same shape).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub inputs: usize,
    pub hidden: usize,
    /// Input `i`'s column of `hidden` weights starts at `i * hidden`.
    pub input_weights: Vec<f32>,
    pub input_bias: Vec<f32>,
    /// The side to move's `hidden` weights, then the other side's.
    pub output_weights: Vec<f32>,
    pub output_bias: f32,
}

impl Params {
    pub fn zeros(inputs: usize, hidden: usize) -> Params {
        Params {
            inputs,
            hidden,
            input_weights: vec![0.0; inputs * hidden],
            input_bias: vec![0.0; hidden],
            output_weights: vec![0.0; 2 * hidden],
            output_bias: 0.0,
        }
    }

    /// A model's starting point: small uniform input weights (about a unit's worth from the
    /// few dozen inputs on at once), biases that put every unit in the middle of its range,
    /// and output weights of Glorot's size.
    pub fn random(inputs: usize, hidden: usize, rng: &mut fastrand::Rng) -> Params {
        let mut uniform = |n: usize, size: f32| -> Vec<f32> {
            (0..n).map(|_| (rng.f32() * 2.0 - 1.0) * size).collect()
        };
        let input_weights = uniform(inputs * hidden, 0.15);
        let output_weights = uniform(2 * hidden, 1.0 / (hidden as f32).sqrt());
        Params {
            inputs,
            hidden,
            input_weights,
            input_bias: vec![0.5; hidden],
            output_weights,
            output_bias: 0.0,
        }
    }

    /// Every parameter, in one order (Adam's view).
    fn values_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        (self.input_weights.iter_mut())
            .chain(self.input_bias.iter_mut())
            .chain(self.output_weights.iter_mut())
            .chain(std::iter::once(&mut self.output_bias))
    }

    fn values(&self) -> impl Iterator<Item = &f32> {
        (self.input_weights.iter())
            .chain(self.input_bias.iter())
            .chain(self.output_weights.iter())
            .chain(std::iter::once(&self.output_bias))
    }

    pub fn count(&self) -> usize {
        self.input_weights.len() + self.input_bias.len() + self.output_weights.len() + 1
    }

    /// Sets every value to 0.
    pub fn clear(&mut self) {
        self.values_mut().for_each(|v| *v = 0.0);
    }

    /// Adds `other` (of the same shape) to this.
    pub fn add(&mut self, other: &Params) {
        for (mine, theirs) in self.values_mut().zip(other.values()) {
            *mine += theirs;
        }
    }

    /// The accumulator of one perspective: the bias plus the columns of `on`.
    fn accumulate(&self, on: &[u32], out: &mut [f32]) {
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
    /// `other`, in units of [`SCALE`] centipawns; `scratch` holds both accumulators after.
    pub fn forward(&self, own: &[u32], other: &[u32], scratch: &mut Scratch) -> f32 {
        let h = self.hidden;
        self.accumulate(own, &mut scratch.accumulators[..h]);
        self.accumulate(other, &mut scratch.accumulators[h..]);
        let mut output = self.output_bias;
        for (value, weight) in scratch.accumulators.iter().zip(&self.output_weights) {
            output += value.clamp(0.0, 1.0) * weight;
        }
        output
    }

    /// Adds to `gradient` the gradient of the output times `slope` (the loss's derivative
    /// by the output) for the position [`Params::forward`] last saw in `scratch`.
    pub fn backward(
        &self,
        own: &[u32],
        other: &[u32],
        slope: f32,
        scratch: &Scratch,
        gradient: &mut Params,
    ) {
        let h = self.hidden;
        gradient.output_bias += slope;
        let mut unit_slopes = [0.0f32; 2 * MAX_HIDDEN];
        for (j, &value) in scratch.accumulators.iter().enumerate() {
            gradient.output_weights[j] += slope * value.clamp(0.0, 1.0);
            // The clipped ReLU passes a slope only inside its range.
            if value > 0.0 && value < 1.0 {
                unit_slopes[j] = slope * self.output_weights[j];
            }
        }
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

    /// Keeps the weights where quantisation can hold them.
    pub fn clip(&mut self) {
        self.values_mut()
            .for_each(|v| *v = v.clamp(-WEIGHT_CLIP, WEIGHT_CLIP));
    }

    /// The engine's integer network of these weights.
    pub fn quantise(&self) -> Network {
        let round = |values: &[f32], scale: i32| -> Vec<i16> {
            (values.iter())
                .map(|&v| (v * scale as f32).round().clamp(-32767.0, 32767.0) as i16)
                .collect()
        };
        Network::new(
            self.inputs,
            self.hidden,
            round(&self.input_weights, QA),
            round(&self.input_bias, QA),
            round(&self.output_weights, QB),
            (self.output_bias * (QA * QB) as f32).round() as i32,
        )
        .expect("the float model's shape is the network's")
    }
}

/// The largest accumulator a perspective the trainer takes.
pub const MAX_HIDDEN: usize = 1024;

/// One thread's room for a position's accumulators.
pub struct Scratch {
    accumulators: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            accumulators: vec![0.0; 2 * hidden],
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

    /// One step of `rate` against `gradient`, then the weights are clipped.
    pub fn step(&mut self, params: &mut Params, gradient: &Params, rate: f32) {
        self.steps += 1;
        let correct1 = 1.0 - Self::BETA1.powi(self.steps);
        let correct2 = 1.0 - Self::BETA2.powi(self.steps);
        let moments = self.first.iter_mut().zip(self.second.iter_mut());
        for ((value, &g), (m, v)) in params.values_mut().zip(gradient.values()).zip(moments) {
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *value -= rate * (*m / correct1) / ((*v / correct2).sqrt() + Self::EPSILON);
        }
        params.clip();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Player;

    /// The gradient `backward` adds is the slope of the output, checked against a finite
    /// difference for a few weights of every kind.
    #[test]
    fn the_gradient_is_the_slope_of_the_output() {
        let mut rng = fastrand::Rng::with_seed(4);
        let params = Params::random(30, 8, &mut rng);
        let (own, other) = ([1u32, 4, 9, 22], [3u32, 4, 17]);
        let mut scratch = Scratch::new(8);
        params.forward(&own, &other, &mut scratch);
        let mut gradient = Params::zeros(30, 8);
        params.backward(&own, &other, 1.0, &scratch, &mut gradient);
        let output = |p: &Params| p.forward(&own, &other, &mut Scratch::new(8));
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
                "{name}: {numeric} against {analytic}"
            );
        };
        for j in 0..8 {
            check("input weight", &|p| &mut p.input_weights[4 * 8 + j]);
            check("input weight", &|p| &mut p.input_weights[17 * 8 + j]);
            check("input bias", &|p| &mut p.input_bias[j]);
            check("output weight", &|p| &mut p.output_weights[j]);
            check("output weight", &|p| &mut p.output_weights[8 + j]);
        }
        check("output bias", &|p| &mut p.output_bias);
    }

    /// The quantised network gives the float model's output, in centipawns, within a few.
    #[test]
    fn the_quantised_network_follows_the_float_model() {
        let mut rng = fastrand::Rng::with_seed(8);
        let params = Params::random(50, 32, &mut rng);
        let network = params.quantise();
        let mut scratch = Scratch::new(32);
        let mut worst = 0.0f32;
        for _ in 0..200 {
            let mut pick = || -> Vec<u32> {
                let mut on: Vec<u32> = (0..12).map(|_| rng.u32(..50)).collect();
                on.sort_unstable();
                on.dedup();
                on
            };
            let (own, other) = (pick(), pick());
            let float = params.forward(&own, &other, &mut scratch) * SCALE as f32;
            let own_usize: Vec<usize> = own.iter().map(|&i| i as usize).collect();
            let other_usize: Vec<usize> = other.iter().map(|&i| i as usize).collect();
            // The side to move is the first player: its accumulator is the first.
            let accumulator = network.accumulator([&own_usize, &other_usize]);
            let integer = network.evaluate(&accumulator, Player::P1) as f32;
            worst = worst.max((integer - float).abs());
        }
        assert!(worst <= 6.0, "{worst} cp apart");
    }
}
