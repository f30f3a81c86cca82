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

/// A set of positions, stored flat and small (tens of millions must fit in a few GB):
/// position `k`'s inputs are `inputs[starts[2k]..starts[2k + 1]]` from the side to move's
/// side and `inputs[starts[2k + 1]..starts[2k + 2]]` from the other's, each input a `u16`
/// (every game has fewer than 65,536 inputs a perspective).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    inputs: Vec<u16>,
    starts: Vec<u32>,
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
    pub own: &'a [u16],
    /// Its inputs on, from the other side's.
    pub other: &'a [u16],
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

    /// The bytes the set holds, for the trainer's report.
    pub fn bytes(&self) -> usize {
        self.inputs.capacity() * 2
            + self.starts.capacity() * 4
            + (self.targets.capacity() + self.offsets.capacity()) * 4
            + self.buckets.capacity()
    }

    /// Feeds the set's positions, in order, to `hasher` (a checkpoint's digest of its data).
    pub fn digest_into(&self, hasher: &mut sha2::Sha256) {
        use sha2::Digest;
        const BLOCK: usize = 1 << 16;
        // In blocks: a call a value would cost more than the hashing.
        let mut block = Vec::with_capacity(BLOCK + 8);
        let mut put = |bytes: &[u8], hasher: &mut sha2::Sha256| {
            block.extend_from_slice(bytes);
            if block.len() >= BLOCK {
                hasher.update(&block);
                block.clear();
            }
        };
        put(&(self.len() as u64).to_le_bytes(), hasher);
        self.inputs
            .iter()
            .for_each(|v| put(&v.to_le_bytes(), hasher));
        self.starts
            .iter()
            .for_each(|v| put(&v.to_le_bytes(), hasher));
        self.targets
            .iter()
            .for_each(|v| put(&v.to_le_bytes(), hasher));
        self.offsets
            .iter()
            .for_each(|v| put(&v.to_le_bytes(), hasher));
        put(&self.buckets, hasher);
        hasher.update(&block);
    }

    /// Position `k`.
    #[inline]
    pub fn get(&self, k: usize) -> Sample<'_> {
        let (a, b, c) = (
            self.starts[2 * k] as usize,
            self.starts[2 * k + 1] as usize,
            self.starts[2 * k + 2] as usize,
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
        const { assert!(G::INPUTS <= 1 << 16, "inputs are stored as u16") };
        let side = game.side_to_move();
        for perspective in [side, side.opponent()] {
            game.inputs(perspective, |input| self.inputs.push(input as u16));
            self.starts.push(self.inputs.len() as u32);
        }
        self.targets.push(target);
        self.offsets.push(offset);
        let bucket = game.output_bucket();
        debug_assert!(bucket < G::OUTPUT_BUCKETS && G::OUTPUT_BUCKETS <= 256);
        self.buckets.push(bucket as u8);
    }

    /// Adds position `sample` of another set.
    fn push_sample(&mut self, sample: Sample<'_>) {
        for side in [sample.own, sample.other] {
            self.inputs.extend_from_slice(side);
            self.starts.push(self.inputs.len() as u32);
        }
        self.targets.push(sample.target);
        self.offsets.push(sample.offset);
        self.buckets.push(sample.bucket as u8);
    }

    /// Gives back what the vectors hold beyond their length.
    fn shrink_to_fit(&mut self) {
        self.inputs.shrink_to_fit();
        self.starts.shrink_to_fit();
        self.targets.shrink_to_fit();
        self.offsets.shrink_to_fit();
        self.buckets.shrink_to_fit();
    }

    /// Whether the set may take `more` inputs without its `u32` starts overflowing.
    fn has_room(&self, more: usize) -> bool {
        self.inputs.len() + more <= u32::MAX as usize
    }
}

/// The inputs of a position's mirror, for a game whose rules are the same under the
/// left-right mirror ([`crate::rules::Rules::mirrored`]): every position trains as itself
/// and as its mirror, with the same target, offset and bucket (the conformance suite checks
/// that the mirror's evaluation, bucket and inputs are the position's, mirrored).
#[derive(Clone, Debug)]
pub struct Mirror {
    /// Each input's mirror.
    inputs: Vec<u16>,
}

impl Mirror {
    /// The mirror of `G`'s inputs, if `G` mirrors.
    pub fn of<G: Playable>() -> Option<Mirror> {
        G::start().mirrored()?;
        Some(Mirror {
            inputs: (0..G::INPUTS)
                .map(|input| G::mirrored_input(input) as u16)
                .collect(),
        })
    }

    /// Writes `sample`'s inputs, mirrored, into `own` and `other`.
    #[inline]
    pub fn apply(&self, sample: &Sample<'_>, own: &mut Vec<u16>, other: &mut Vec<u16>) {
        for (from, to) in [(sample.own, own), (sample.other, other)] {
            to.clear();
            to.extend(from.iter().map(|&input| self.inputs[usize::from(input)]));
        }
    }
}

/// The data of a training run, read and labelled.
#[derive(Clone, Debug, PartialEq)]
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
/// kilobyte, and a run reads tens of millions of lines).
#[derive(Clone, Copy, Debug)]
struct Label {
    /// The game's result for the side to move.
    result: f32,
    /// The search's score of the position for the side to move, NaN if none was kept.
    score: f32,
    /// The hand-written evaluation of the position, for the side to move.
    terms: i32,
    held_out: bool,
}

/// At most this many scored positions, spread evenly over the data, fit the scale: many
/// more tell it no better and cost a pass each of the fit's 120.
const SCALE_FIT_POSITIONS: usize = 1 << 21;

/// Reads data a source at a time (a source's text is dropped once read), each source's
/// lines parsed on every core; [`DataReader::finish`] labels what was read.
pub struct DataReader<G> {
    training: Samples,
    validation: Samples,
    labels: Vec<Label>,
    on_terms: bool,
    hold_out_block: usize,
    threads: usize,
    game: std::marker::PhantomData<G>,
}

/// The positions of one share of a source's lines, read on one thread.
struct Share {
    samples: Samples,
    labels: Vec<Label>,
}

impl<G: Playable> DataReader<G> {
    /// A reader of positions of `G`; with `on_terms`, the output is to be added to the
    /// hand-written evaluation. The lines are held out in blocks of `hold_out_block`, the
    /// first block of every ten (a tenth of a long file; of a file of fewer than ten blocks,
    /// the first block), counted over all the sources in order, blank lines left out.
    pub fn new(on_terms: bool, hold_out_block: usize, threads: usize) -> DataReader<G> {
        DataReader {
            training: Samples::new(),
            validation: Samples::new(),
            labels: Vec::new(),
            on_terms,
            hold_out_block,
            threads: threads.max(1),
            game: std::marker::PhantomData,
        }
    }

    /// The positions read so far.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Reads the lines of `text`, called `name` in the errors.
    pub fn add(&mut self, name: &str, text: &str) -> Result<(), String> {
        let shares = split_lines(text, self.threads);
        let read: Vec<Result<Share, (usize, String)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (shares.iter())
                .map(|&(start, end)| {
                    let on_terms = self.on_terms;
                    scope.spawn(move || read_share::<G>(&text[start..end], on_terms))
                })
                .collect();
            (handles.into_iter())
                .map(|handle| handle.join().expect("a reading thread failed"))
                .collect()
        });
        for (result, &(start, _)) in read.into_iter().zip(&shares) {
            let share = result.map_err(|(line, error)| {
                let before = text[..start].bytes().filter(|&b| b == b'\n').count();
                format!("{name}:{}: {error}", before + line + 1)
            })?;
            for (k, mut label) in share.labels.into_iter().enumerate() {
                label.held_out = is_held_out(self.labels.len(), self.hold_out_block);
                let set = match label.held_out {
                    true => &mut self.validation,
                    false => &mut self.training,
                };
                let sample = share.samples.get(k);
                if !set.has_room(sample.own.len() + sample.other.len()) {
                    return Err(format!("{name}: more data than one run can hold"));
                }
                set.push_sample(sample);
                self.labels.push(label);
            }
        }
        Ok(())
    }

    /// Labels every position read with `blend` parts score and `1 - blend` parts result,
    /// the scores read through `scale` where given, else through the scale fitted to them.
    pub fn finish(self, blend: f64, scale: Option<f64>) -> Result<TrainingData, String> {
        let DataReader {
            mut training,
            mut validation,
            labels,
            hold_out_block,
            ..
        } = self;
        let scored = (labels.iter())
            .filter(|l| !l.held_out && !l.score.is_nan())
            .count();
        let stride = scored.div_ceil(SCALE_FIT_POSITIONS).max(1);
        let fit: Vec<(f32, f32)> = (labels.iter())
            .filter(|l| !l.held_out && !l.score.is_nan())
            .step_by(stride)
            .map(|l| (l.score, l.result))
            .collect();
        let scale = (!fit.is_empty()).then(|| {
            scale.unwrap_or_else(|| {
                best_scale(|k| {
                    let error: f64 = (fit.iter())
                        .map(|&(score, result)| {
                            (sigmoid(f64::from(score) / k) - f64::from(result)).powi(2)
                        })
                        .sum();
                    error / fit.len() as f64
                })
            })
        });
        drop(fit);
        let k = scale.unwrap_or(DEFAULT_SCALE);
        let mut terms_loss = 0.0;
        let (mut trained, mut held) = (0, 0);
        for label in &labels {
            let result = f64::from(label.result);
            let target = match (label.score.is_nan(), scale) {
                (false, Some(k)) => {
                    blend * sigmoid(f64::from(label.score) / k) + (1.0 - blend) * result
                }
                _ => result,
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
        training.shrink_to_fit();
        validation.shrink_to_fit();
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
}

/// `text` cut into at most `shares` ranges of whole lines, in order.
fn split_lines(text: &str, shares: usize) -> Vec<(usize, usize)> {
    let size = text.len().div_ceil(shares.max(1)).max(1);
    let mut ranges = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let end = match text[(start + size).min(text.len())..].find('\n') {
            Some(newline) => (start + size).min(text.len()) + newline + 1,
            None => text.len(),
        };
        ranges.push((start, end));
        start = end;
    }
    ranges
}

/// Reads the lines of `text`; the error gives the line's number within `text`.
fn read_share<G: Playable>(text: &str, on_terms: bool) -> Result<Share, (usize, String)> {
    let mut share = Share {
        samples: Samples::new(),
        labels: Vec::new(),
    };
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let labelled = parse_line::<G>(line).map_err(|e| (number, e))?;
        let game = labelled.game;
        let (result, score) = match game.side_to_move() {
            Player::P1 => (labelled.result, labelled.score.map(f64::from)),
            Player::P2 => (1.0 - labelled.result, labelled.score.map(|s| -f64::from(s))),
        };
        let terms = game.evaluate();
        let offset = match on_terms {
            true => terms as f32 / SCALE as f32,
            false => 0.0,
        };
        // The target waits for the scale.
        share.samples.push(&game, 0.0, offset);
        share.labels.push(Label {
            result: result as f32,
            score: score.map_or(f32::NAN, |s| s as f32),
            terms,
            held_out: false,
        });
    }
    Ok(share)
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
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut reader = DataReader::<G>::new(on_terms, hold_out_block, threads);
    for &(name, text) in sources {
        reader.add(name, text)?;
    }
    reader.finish(blend, scale)
}

/// The scale the output is read through when no line has a score, in centipawns.
pub const DEFAULT_SCALE: f64 = 400.0;

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}
