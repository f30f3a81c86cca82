//! Training positions as the trainer reads them: each position's inputs on, from the side to
//! move's side and from the other's, and the value to learn, from the side to move's side.
//!
//! The value to learn blends the two labels self-play gives a position: `blend` parts the
//! search's score, turned into an expected result by `sigmoid(score / K)`, and `1 - blend`
//! parts the game's result. The scale `K` is fitted to the data first: the one at which the
//! scores predict the results best, so that a network's output, trained through the same
//! sigmoid, is in the search's score units. A line with no score learns its result alone.

use crate::core::Player;
use crate::eval::network::SCALE;
use crate::games::Playable;
use crate::tune::data::parse_line;
use crate::tune::texel::best_scale;

/// Lines are held out for validation in blocks of this many by default, one block in ten:
/// the positions of one game stand together in a file, and a block keeps most of a game on
/// one side, so that the validation loss is not flattered by near copies of training
/// positions (and by the same game's result). A game of hundreds of positions needs larger
/// blocks: `ternion train --hold-out-block`.
pub const HOLD_OUT_BLOCK: usize = 64;

/// Whether the position of line `index` (counted over all the sources, blank lines left
/// out) is held out for validation, in blocks of `block` lines.
pub fn is_held_out(index: usize, block: usize) -> bool {
    (index / block.max(1)).is_multiple_of(10)
}

/// A set of positions, stored flat: position `k`'s inputs are
/// `inputs[starts[2k]..starts[2k + 1]]` from the side to move's side and
/// `inputs[starts[2k + 1]..starts[2k + 2]]` from the other's.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    inputs: Vec<u32>,
    starts: Vec<usize>,
    targets: Vec<f32>,
    /// What the output is added to, in output units: the hand-written evaluation for a
    /// network trained on what it misses, else 0.
    offsets: Vec<f32>,
    /// Each position's output bucket (the game's `output_bucket`).
    buckets: Vec<u8>,
}

/// One position of a set.
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// Its inputs on, from the side to move's side.
    pub own: &'a [u32],
    /// Its inputs on, from the other side's.
    pub other: &'a [u32],
    pub target: f32,
    /// What the output is added to.
    pub offset: f32,
    /// Its output bucket, for a network that has them.
    pub bucket: usize,
}

impl Samples {
    fn new() -> Samples {
        Samples {
            inputs: Vec::new(),
            starts: vec![0],
            targets: Vec::new(),
            offsets: Vec::new(),
            buckets: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Position `k`.
    #[inline]
    pub fn get(&self, k: usize) -> Sample<'_> {
        let (a, b, c) = (
            self.starts[2 * k],
            self.starts[2 * k + 1],
            self.starts[2 * k + 2],
        );
        Sample {
            own: &self.inputs[a..b],
            other: &self.inputs[b..c],
            target: self.targets[k],
            offset: self.offsets[k],
            bucket: usize::from(self.buckets[k]),
        }
    }

    /// Sets position `k`'s target.
    fn set_target(&mut self, k: usize, target: f32) {
        self.targets[k] = target;
    }

    /// Adds a position of `game`, whose target is `target`, its output added to `offset`.
    pub fn push<G: Playable>(&mut self, game: &G, target: f32, offset: f32) {
        let side = game.side_to_move();
        for perspective in [side, side.opponent()] {
            game.inputs(perspective, |input| self.inputs.push(input as u32));
            self.starts.push(self.inputs.len());
        }
        self.targets.push(target);
        self.offsets.push(offset);
        let bucket = game.output_bucket();
        debug_assert!(bucket < G::OUTPUT_BUCKETS && G::OUTPUT_BUCKETS <= 256);
        self.buckets.push(bucket as u8);
    }
}

/// The data of a training run, read and labelled.
#[derive(Clone, Debug)]
pub struct TrainingData {
    pub training: Samples,
    pub validation: Samples,
    /// The scale of the scores, fitted or given, in centipawns (`None`: no line had a
    /// score).
    pub scale: Option<f64>,
    /// The loss of the hand-written evaluation on the validation positions, through the
    /// same sigmoid: the mark a network has to beat.
    pub terms_loss: f64,
}

/// What a line leaves once its position's inputs are stored: what its target is made of
/// when the scale is known. A parsed position is dropped at once (a game's state can take a
/// kilobyte, and a run reads millions of lines).
struct Label {
    /// The game's result and the search's score, for the side to move.
    result: f64,
    score: Option<f64>,
    /// The hand-written evaluation of the position, for the side to move.
    terms: i32,
    held_out: bool,
}

/// Reads `sources` (each a name, for the errors, and its text) as positions of `G`, and
/// labels each with `blend` parts score and `1 - blend` parts result, the scores read
/// through `scale` where given, else through the scale fitted to them; with `on_terms`, the
/// output is to be added to the hand-written evaluation. The lines are held out in blocks of
/// `hold_out_block`, the first block of every ten (a tenth of a long file; of a file of
/// fewer than ten blocks, the first block).
pub fn read<G: Playable>(
    sources: &[(&str, &str)],
    blend: f64,
    scale: Option<f64>,
    on_terms: bool,
    hold_out_block: usize,
) -> Result<TrainingData, String> {
    let (mut training, mut validation) = (Samples::new(), Samples::new());
    let mut labels = Vec::new();
    for &(name, text) in sources {
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let labelled =
                parse_line::<G>(line).map_err(|e| format!("{name}:{}: {e}", number + 1))?;
            let game = labelled.game;
            let (result, score) = match game.side_to_move() {
                Player::P1 => (labelled.result, labelled.score.map(f64::from)),
                Player::P2 => (1.0 - labelled.result, labelled.score.map(|s| -f64::from(s))),
            };
            let held_out = is_held_out(labels.len(), hold_out_block);
            let terms = game.evaluate();
            let offset = match on_terms {
                true => terms as f32 / SCALE as f32,
                false => 0.0,
            };
            // The target waits for the scale.
            match held_out {
                true => validation.push(&game, 0.0, offset),
                false => training.push(&game, 0.0, offset),
            }
            labels.push(Label {
                result,
                score,
                terms,
                held_out,
            });
        }
    }
    let scored: Vec<(f64, f64)> = (labels.iter())
        .filter(|l| !l.held_out)
        .filter_map(|l| l.score.map(|score| (score, l.result)))
        .collect();
    let scale = (!scored.is_empty()).then(|| {
        scale.unwrap_or_else(|| {
            best_scale(|k| {
                let error: f64 = (scored.iter())
                    .map(|&(score, result)| (sigmoid(score / k) - result).powi(2))
                    .sum();
                error / scored.len() as f64
            })
        })
    });
    drop(scored);
    let k = scale.unwrap_or(DEFAULT_SCALE);
    let mut terms_loss = 0.0;
    let (mut trained, mut held) = (0, 0);
    for label in &labels {
        let target = match (label.score, scale) {
            (Some(score), Some(k)) => blend * sigmoid(score / k) + (1.0 - blend) * label.result,
            _ => label.result,
        };
        match label.held_out {
            true => {
                terms_loss += (sigmoid(f64::from(label.terms) / k) - target).powi(2);
                validation.set_target(held, target as f32);
                held += 1;
            }
            false => {
                training.set_target(trained, target as f32);
                trained += 1;
            }
        }
    }
    terms_loss /= validation.len().max(1) as f64;
    if training.is_empty() || validation.is_empty() {
        return Err(format!(
            "too little data: {} positions to train on, {} held out (the first block of \
             every ten, in blocks of {hold_out_block} lines)",
            training.len(),
            validation.len()
        ));
    }
    Ok(TrainingData {
        training,
        validation,
        scale,
        terms_loss,
    })
}

/// The scale the output is read through when no line has a score, in centipawns.
pub const DEFAULT_SCALE: f64 = 400.0;

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}
