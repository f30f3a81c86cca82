//! The tuner: fits a game's evaluation weights to the results of self-play games (Texel's
//! method).
//!
//! Each position of the data has the features its game lists and the result of its game,
//! for the side to move. The evaluation's prediction of that result is
//! `sigmoid(evaluation / K)`; the tuner first fits the scale `K` to the weights the engine
//! plays with (so the scale of the evaluation stays what the search is used to), then moves
//! the weights to lower the mean squared error of the predictions, by full-batch gradient
//! descent with Adam's step sizes. A share of the positions is held out: the weights kept
//! are those with the lowest error on them, so the fit stops before it learns the noise of
//! its own data.

use super::data::{Labelled, parse_line};
use crate::core::Player;
use crate::eval::feature_values;
use crate::games::{Playable, Variant};

/// How to fit.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub variant: Variant,
    /// Every n-th position is held out (10: a tenth).
    pub hold_out_every: usize,
    /// Gradient steps at most.
    pub iterations: u32,
    /// Adam's step size, in evaluation units.
    pub step: f64,
}

/// What the fit found.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneReport {
    pub names: Vec<String>,
    pub before: Vec<i32>,
    pub after: Vec<i32>,
    /// The fitted scale of the evaluation.
    pub k: f64,
    pub training: usize,
    pub held_out: usize,
    /// Mean squared errors, (before, after), on the training and the held-out positions.
    pub training_error: (f64, f64),
    pub held_out_error: (f64, f64),
    /// The step whose weights were kept.
    pub best_iteration: u32,
}

/// Fits the weights of `config.variant` to self-play data: each source a name (a file's,
/// for the errors, which say `<name>:<line>: ...`) and its text, a `<result> <position>`
/// line a position, the result from the first player's side. `progress` hears about the fit
/// now and then.
pub fn tune(
    config: &TuneConfig,
    sources: &[(&str, &str)],
    progress: &mut dyn FnMut(String),
) -> Result<TuneReport, String> {
    let lines: Vec<(&str, usize, &str)> = sources
        .iter()
        .flat_map(|&(name, text)| {
            text.lines()
                .enumerate()
                .map(move |(index, line)| (name, index + 1, line))
        })
        .collect();
    crate::with_game!(config.variant, G => fit::<G>(config, &lines, progress))
}

/// Positions as rows of features, with the result for the side to move.
struct DataSet {
    width: usize,
    features: Vec<f64>,
    results: Vec<f64>,
}

impl DataSet {
    fn new(width: usize) -> Self {
        DataSet {
            width,
            features: Vec::new(),
            results: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.results.len()
    }

    fn rows(&self) -> impl Iterator<Item = (&[f64], f64)> {
        self.features
            .chunks_exact(self.width)
            .zip(self.results.iter().copied())
    }

    /// The mean squared error of the predictions of `weights` at scale `k`.
    fn error(&self, weights: &[f64], k: f64) -> f64 {
        let total: f64 = self
            .rows()
            .map(|(row, result)| {
                let predicted = sigmoid(dot(row, weights) / k);
                (predicted - result).powi(2)
            })
            .sum();
        total / self.len().max(1) as f64
    }

    /// The gradient of [`DataSet::error`] with respect to the weights.
    fn gradient(&self, weights: &[f64], k: f64, out: &mut [f64]) {
        out.fill(0.0);
        for (row, result) in self.rows() {
            let predicted = sigmoid(dot(row, weights) / k);
            let factor = (predicted - result) * predicted * (1.0 - predicted);
            for (g, x) in out.iter_mut().zip(row) {
                *g += factor * x;
            }
        }
        let scale = 2.0 / (k * self.len().max(1) as f64);
        out.iter_mut().for_each(|g| *g *= scale);
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The scale at which the weights predict the results best.
fn fit_scale(data: &DataSet, weights: &[f64]) -> f64 {
    best_scale(|k| data.error(weights, k))
}

/// The scale `K` from 10 to 10,000 evaluation units at which `error(K)` is least (a
/// golden-section search over its logarithm): the scale at which `sigmoid(score / K)`
/// predicts a game's result from a score.
pub(super) fn best_scale(error: impl Fn(f64) -> f64) -> f64 {
    let error = |log_k: f64| error(log_k.exp());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (10f64.ln(), 10_000f64.ln());
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(a) < error(b) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0).exp()
}

/// [`tune`] on the game type `G`.
fn fit<G: Playable>(
    config: &TuneConfig,
    lines: &[(&str, usize, &str)],
    progress: &mut dyn FnMut(String),
) -> Result<TuneReport, String> {
    let width = G::feature_count();
    let mut training = DataSet::new(width);
    let mut held_out = DataSet::new(width);
    for (index, &(source, number, line)) in lines.iter().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Labelled { game, result, .. } =
            parse_line::<G>(line).map_err(|e| format!("{source}:{number}: {e}"))?;
        let result = match game.side_to_move() {
            Player::P1 => result,
            Player::P2 => 1.0 - result,
        };
        let set = if config.hold_out_every > 0 && index % config.hold_out_every == 0 {
            &mut held_out
        } else {
            &mut training
        };
        set.features
            .extend(feature_values(&game).into_iter().map(f64::from));
        set.results.push(result);
    }
    if training.len() == 0 || held_out.len() == 0 {
        return Err(format!(
            "too little data: {} positions to fit, {} held out",
            training.len(),
            held_out.len()
        ));
    }
    let before: Vec<f64> = G::weights().iter().map(|&w| f64::from(w)).collect();
    let k = fit_scale(&training, &before);
    (progress)(format!(
        "{} positions to fit, {} held out; scale K = {k:.1}",
        training.len(),
        held_out.len()
    ));

    // Adam over the weights; the best weights on the held-out positions are kept.
    let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-8);
    let mut weights = before.clone();
    let mut gradient = vec![0.0; width];
    let mut moment = vec![0.0; width];
    let mut second = vec![0.0; width];
    let mut best = (held_out.error(&weights, k), weights.clone(), 0);
    for iteration in 1..=config.iterations {
        training.gradient(&weights, k, &mut gradient);
        for j in 0..width {
            moment[j] = beta1 * moment[j] + (1.0 - beta1) * gradient[j];
            second[j] = beta2 * second[j] + (1.0 - beta2) * gradient[j].powi(2);
            let corrected = moment[j] / (1.0 - beta1.powi(iteration as i32));
            let corrected_second = second[j] / (1.0 - beta2.powi(iteration as i32));
            weights[j] -= config.step * corrected / (corrected_second.sqrt() + epsilon);
        }
        if iteration % 50 == 0 || iteration == config.iterations {
            let error = held_out.error(&weights, k);
            if error < best.0 {
                best = (error, weights.clone(), iteration);
            }
            (progress)(format!(
                "step {iteration}: training {:.6}, held out {error:.6}",
                training.error(&weights, k)
            ));
            // Long past its best on the held-out positions: learning noise.
            if iteration >= best.2 + 500 {
                break;
            }
        }
    }
    let after: Vec<i32> = best.1.iter().map(|w| w.round() as i32).collect();
    let rounded: Vec<f64> = after.iter().map(|&w| f64::from(w)).collect();
    Ok(TuneReport {
        names: (0..width).map(G::feature_name).collect(),
        before: G::weights().to_vec(),
        after,
        k,
        training: training.len(),
        held_out: held_out.len(),
        training_error: (training.error(&before, k), training.error(&rounded, k)),
        held_out_error: (held_out.error(&before, k), held_out.error(&rounded, k)),
        best_iteration: best.2,
    })
}

impl TuneReport {
    /// The fitted weights as a Rust table like the games' `weights.rs`, named `name`.
    pub fn table(&self, name: &str) -> String {
        let mut text = format!(
            "#[rustfmt::skip]\npub const {name}: [i32; {}] = [\n",
            self.after.len()
        );
        for (weight, feature) in self.after.iter().zip(&self.names) {
            text.push_str(&format!("    {weight}, // {feature}\n"));
        }
        text.push_str("];\n");
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_fit_finds_the_scale_that_made_the_results() {
        // Results drawn from sigmoid(x / 250) for evaluations x: the fit finds about 250.
        let mut data = DataSet::new(1);
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..20_000 {
            let x = rng.i32(-800..=800) as f64;
            let result = if rng.f64() < sigmoid(x / 250.0) {
                1.0
            } else {
                0.0
            };
            data.features.push(x);
            data.results.push(result);
        }
        let k = fit_scale(&data, &[1.0]);
        assert!((200.0..310.0).contains(&k), "K = {k}");
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_error() {
        let mut data = DataSet::new(2);
        let mut rng = fastrand::Rng::with_seed(6);
        for _ in 0..500 {
            data.features.push(rng.i32(-5..=5) as f64);
            data.features.push(rng.i32(-20..=20) as f64);
            data.results.push([0.0, 0.5, 1.0][rng.usize(..3)]);
        }
        let weights = [40.0, -3.0];
        let mut gradient = [0.0; 2];
        data.gradient(&weights, 200.0, &mut gradient);
        for j in 0..2 {
            let h = 1e-4;
            let mut up = weights;
            up[j] += h;
            let mut down = weights;
            down[j] -= h;
            let slope = (data.error(&up, 200.0) - data.error(&down, 200.0)) / (2.0 * h);
            assert!(
                (slope - gradient[j]).abs() <= 1e-6 * (1.0 + slope.abs()),
                "weight {j}: slope {slope}, gradient {}",
                gradient[j]
            );
        }
    }
}
