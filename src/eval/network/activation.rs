//! What a unit of the first layer passes on to the output, and the output's sums over it.
//!
//! - The clipped ReLU: the accumulator clipped to `0..=QA` (1.0 is `QA`).
//! - The squared clipped ReLU (SCReLU, what most strong NNUE engines use now): that, squared,
//!   so a unit near the top of its range says much more than one in the middle; the float
//!   model's `clamp(x, 0, 1)^2`.
//!
//! The output's sum over squared activations is exact, with no change of the output's
//! quantisation: each term `v * v * w` is at most `255^2 * 507`, so sixteen of them fit an
//! `i32` and the chunks of sixteen add in `i64`. (Engines that multiply in `i16` lanes must
//! shrink `QB` so that `v * w` fits; plain Rust vectorises `i32` products instead.)

use super::{HIDDEN_MULTIPLE, QA};

/// The first layer's activation. A file before version 6 is of the clipped ReLU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(x, 0, 1)`.
    #[default]
    ClippedRelu,
    /// `clamp(x, 0, 1)^2`.
    SquaredClippedRelu,
}

impl Activation {
    /// The float model's activation of a unit's sum `x`.
    #[inline(always)]
    pub fn of(self, x: f32) -> f32 {
        let clipped = x.clamp(0.0, 1.0);
        match self {
            Activation::ClippedRelu => clipped,
            Activation::SquaredClippedRelu => clipped * clipped,
        }
    }

    /// The activation's slope at `x`: 0 outside `0..1`, where the clip holds it.
    #[inline(always)]
    pub fn slope(self, x: f32) -> f32 {
        if x <= 0.0 || x >= 1.0 {
            return 0.0;
        }
        match self {
            Activation::ClippedRelu => 1.0,
            Activation::SquaredClippedRelu => 2.0 * x,
        }
    }

    /// The activation's name, as `ternion train --activation` takes it and the shape's
    /// words say it.
    pub fn name(self) -> &'static str {
        match self {
            Activation::ClippedRelu => "crelu",
            Activation::SquaredClippedRelu => "screlu",
        }
    }

    /// The activation's number in a network's file.
    pub fn code(self) -> u8 {
        match self {
            Activation::ClippedRelu => 0,
            Activation::SquaredClippedRelu => 1,
        }
    }

    /// The activation of a file's number, if there is one.
    pub fn from_code(code: u8) -> Option<Activation> {
        match code {
            0 => Some(Activation::ClippedRelu),
            1 => Some(Activation::SquaredClippedRelu),
            _ => None,
        }
    }

    /// The output's sum over the accumulator `values` by `weights` (in `QB` units), in
    /// `QA * QB` units.
    #[inline(always)]
    pub fn dot(self, values: &[i16], weights: &[i16]) -> i64 {
        match self {
            Activation::ClippedRelu => i64::from(clipped_dot(values, weights)),
            // The sum is in QA * QA * QB units: one QA too many.
            Activation::SquaredClippedRelu => squared_dot(values, weights) / i64::from(QA),
        }
    }
}

impl std::str::FromStr for Activation {
    type Err = String;

    fn from_str(text: &str) -> Result<Activation, String> {
        match text {
            "crelu" => Ok(Activation::ClippedRelu),
            "screlu" => Ok(Activation::SquaredClippedRelu),
            _ => Err(format!(
                "the activation is crelu (the clipped ReLU) or screlu (squared), not '{text}'"
            )),
        }
    }
}

/// The sum of each value, clipped to `0..=QA`, times its weight: one plain reduction, the
/// shape the compiler turns into vector multiply-adds. A trained network's sum stays far
/// inside `i32` (its weights are clipped in training); a foreign file's may wrap, never
/// panic.
#[inline(always)]
fn clipped_dot(values: &[i16], weights: &[i16]) -> i32 {
    values
        .iter()
        .zip(weights)
        .fold(0i32, |sum, (&value, &weight)| {
            sum.wrapping_add(i32::from(value.clamp(0, QA as i16)) * i32::from(weight))
        })
}

/// The sum of each value, clipped to `0..=QA` and squared, times its weight, in
/// `QA * QA * QB` units: each chunk of [`HIDDEN_MULTIPLE`] terms summed in `i32` (exact
/// for weights up to the file's bound), the chunks in `i64`. Weights beyond the bound,
/// which no file holds, wrap, never panic.
#[inline(always)]
fn squared_dot(values: &[i16], weights: &[i16]) -> i64 {
    (values.chunks(HIDDEN_MULTIPLE))
        .zip(weights.chunks(HIDDEN_MULTIPLE))
        .map(|(values, weights)| {
            let chunk = values
                .iter()
                .zip(weights)
                .fold(0i32, |sum, (&value, &weight)| {
                    let clipped = i32::from(value.clamp(0, QA as i16));
                    sum.wrapping_add((clipped * clipped).wrapping_mul(i32::from(weight)))
                });
            i64::from(chunk)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::MAX_WEIGHT;

    #[test]
    fn the_squared_sum_is_exact_at_the_files_largest_values() {
        // Every unit at the top of its range, every weight at the file's bound: the sum a
        // 64-bit product gives, with no wrap.
        for n in [16, 64, 2048] {
            let values = vec![QA as i16; n];
            let weights = vec![MAX_WEIGHT; n];
            let exact = n as i64 * i64::from(QA * QA) * i64::from(MAX_WEIGHT);
            assert_eq!(squared_dot(&values, &weights), exact, "{n} units");
            assert_eq!(
                Activation::SquaredClippedRelu.dot(&values, &weights),
                exact / i64::from(QA)
            );
        }
        // Clipped on both sides: below 0 nothing, above QA as QA.
        let values = [-300, -1, 0, 1, 100, 255, 256, 32767];
        let weights = [7; 8];
        let expected = 7 * (1 + 100 * 100 + 3 * 255 * 255);
        assert_eq!(squared_dot(&values, &weights), expected);
        assert_eq!(clipped_dot(&values, &weights), 7 * (1 + 100 + 3 * 255));
    }

    #[test]
    fn the_activation_and_its_slope_are_the_float_models() {
        for activation in [Activation::ClippedRelu, Activation::SquaredClippedRelu] {
            assert_eq!(activation.of(-0.5), 0.0);
            assert_eq!(activation.of(1.5), 1.0);
            assert_eq!(activation.slope(-0.5), 0.0);
            assert_eq!(activation.slope(1.5), 0.0);
            // The slope is the derivative inside the range.
            let (x, h) = (0.3f32, 1e-3f32);
            let numeric = (activation.of(x + h) - activation.of(x - h)) / (2.0 * h);
            assert!(
                (numeric - activation.slope(x)).abs() < 1e-3,
                "{activation:?}"
            );
            assert_eq!(Activation::from_code(activation.code()), Some(activation));
            assert_eq!(activation.name().parse::<Activation>(), Ok(activation));
        }
        assert_eq!(Activation::from_code(2), None);
        assert!("relu".parse::<Activation>().is_err());
    }
}
