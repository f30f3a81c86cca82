//! The network trainer: fits a game's network (`eval::network`) to self-play data on the
//! CPU, and hands back the engine's quantised network.
//!
//! - [`samples`]: the data read and labelled (a blend of the search's score and the game's
//!   result), held out for validation in blocks, the first of every ten;
//! - [`model`]: the float model, its gradient, Adam, and the quantisation.
//!
//! Training runs in epochs over the shuffled training positions, in mini-batches; each
//! batch's gradient is summed on every core in a fixed number of chunks, then one Adam step
//! is taken. The step size falls by `decay` every epoch. After each epoch the validation
//! loss is measured, and the weights of the best epoch are the ones kept: the fit stops
//! short of learning its own data's noise. Everything random (the starting weights, the
//! order of the positions) is drawn from the seed, and the chunks make the sum independent
//! of the threads: the same data, settings and seed give the same network, byte for byte.

pub mod checkpoint;
pub mod model;
pub mod samples;

use crate::core::clock::Instant;
use std::path::PathBuf;
use std::thread;

use self::checkpoint::Checkpoint;
use self::model::{Adam, Params, Scratch, Shape, loss, output_factor};
use self::samples::{DataReader, Mirror, Sample, Samples, TrainingData};
use crate::eval::network::{
    Activation, HIDDEN_MULTIPLE, MAX_HIDDEN, MAX_HIDDEN_BELOW_LAYER2, Network,
};
use crate::games::{Playable, Variant};

/// The most units of a second layer.
pub const MAX_LAYER2: usize = 128;

/// A batch's gradient is summed in this many chunks, whatever the number of threads.
const CHUNKS: usize = 16;

/// The largest checkpoint read: four copies of the largest model's weights, and room.
const MAX_CHECKPOINT_BYTES: u64 = 1 << 30;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub variant: Variant,
    /// Units of the accumulator, a perspective.
    pub hidden: usize,
    /// Units of the second layer, 0 for none.
    pub layer2: usize,
    /// What the first layer's units pass on (a second layer takes the clipped ReLU only).
    pub activation: Activation,
    /// One output layer for each of the game's output buckets
    /// ([`crate::eval::Evaluate::OUTPUT_BUCKETS`]), rather than one for all positions.
    pub output_buckets: bool,
    pub epochs: u32,
    /// Positions a mini-batch.
    pub batch: usize,
    /// Adam's step size at the first epoch.
    pub rate: f32,
    /// The step size's factor from one epoch to the next.
    pub decay: f32,
    /// The share of the target the search's score makes (the rest is the game's result).
    pub blend: f64,
    /// The scale `K` the scores are read through, in centipawns; `None`: fitted to the
    /// data (the scale at which the scores predict the results best).
    pub scale: Option<f64>,
    pub seed: u64,
    /// Train the network on what the hand-written evaluation misses: its output is added
    /// to the terms' sum.
    pub on_terms: bool,
    /// Lines held out for validation come in blocks of this many, one in ten.
    pub hold_out_block: usize,
    /// Threads to sum gradients on (the result does not depend on it).
    pub threads: usize,
    /// In a game that mirrors ([`crate::rules::Rules::mirrored`]), every training
    /// position also trains as its mirror (the held-out ones are measured as they are).
    pub mirror: bool,
    /// A file the training's state is kept in after every epoch, and that a training
    /// with the same settings and data goes on from ([`checkpoint`]).
    pub checkpoint: Option<PathBuf>,
}

impl TrainConfig {
    /// The defaults `ternion train` starts from, for `variant`.
    pub fn new(variant: Variant) -> TrainConfig {
        TrainConfig {
            variant,
            hidden: 128,
            layer2: 0,
            activation: Activation::ClippedRelu,
            output_buckets: false,
            epochs: 30,
            batch: 16_384,
            rate: 0.002,
            decay: 0.92,
            blend: 0.5,
            scale: None,
            seed: 1,
            on_terms: false,
            hold_out_block: samples::HOLD_OUT_BLOCK,
            threads: thread::available_parallelism().map_or(1, |n| n.get()),
            mirror: true,
            checkpoint: None,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Epoch {
    pub number: u32,
    pub training_loss: f64,
    pub validation_loss: f64,
    pub positions_per_second: f64,
}

/// What a training run made.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub network: Network,
    /// The float model the network was quantised from.
    pub params: Params,
    pub training: usize,
    pub validation: usize,
    /// The data's scale `K` of the scores, in centipawns (`None`: results alone).
    pub scale: Option<f64>,
    /// The validation loss of the starting weights, then every epoch's figures.
    pub start_loss: f64,
    /// The hand-written evaluation's validation loss.
    pub terms_loss: f64,
    pub epochs: Vec<Epoch>,
    /// The epoch whose weights were kept.
    pub best: u32,
}

/// Trains a network of `config.variant` on `sources` (each a name, for errors, and its
/// text, lines as `ternion selfplay` writes them); `progress` hears a line after every epoch.
pub fn train(
    config: &TrainConfig,
    sources: &[(&str, &str)],
    progress: &mut dyn FnMut(String),
) -> Result<TrainReport, String> {
    let mut next = sources.iter();
    let mut source = || {
        Ok(next
            .next()
            .map(|&(name, text)| (name.to_owned(), text.to_owned())))
    };
    train_from(config, &mut source, progress)
}

/// A source of data: the next source's name and text, `None` after the last, or why it
/// cannot be read.
pub type NextSource<'a> = dyn FnMut() -> Result<Option<(String, String)>, String> + 'a;

/// [`train`] on sources read one at a time (each dropped once its positions are stored,
/// so that tens of millions of positions fit in memory): each file of a run, say.
pub fn train_from(
    config: &TrainConfig,
    next: &mut NextSource<'_>,
    progress: &mut dyn FnMut(String),
) -> Result<TrainReport, String> {
    crate::with_game!(config.variant, G => {
        check_shape::<G>(config)?;
        let data = read_data::<G>(config, next, progress)?;
        let mirror = Mirror::of::<G>().filter(|_| config.mirror);
        train_game::<G>(config, data, mirror.as_ref(), progress)
    })
}

/// Reads every source, then labels the positions; `progress` hears the figures of the
/// reading (positions, seconds, memory).
fn read_data<G: Playable>(
    config: &TrainConfig,
    next: &mut NextSource<'_>,
    progress: &mut dyn FnMut(String),
) -> Result<TrainingData, String> {
    let started = Instant::now();
    let mut reader = DataReader::<G>::new(config.on_terms, config.hold_out_block, config.threads);
    while let Some((name, text)) = next()? {
        reader.add(&name, &text)?;
    }
    let positions = reader.len();
    let data = reader.finish(config.blend, config.scale)?;
    let seconds = started.elapsed().as_secs_f64();
    progress(format!(
        "read {positions} positions in {seconds:.1} s ({:.0} a second), {:.0} MB held",
        positions as f64 / seconds.max(1e-9),
        (data.training.bytes() + data.validation.bytes()) as f64 / 1e6
    ));
    Ok(data)
}

fn train_game<G: Playable>(
    config: &TrainConfig,
    data: TrainingData,
    mirror: Option<&Mirror>,
    progress: &mut dyn FnMut(String),
) -> Result<TrainReport, String> {
    // With no scores, the output is read through a default scale.
    let factor = output_factor(data.scale.unwrap_or(samples::DEFAULT_SCALE));
    let shape = Shape {
        inputs: G::INPUTS,
        hidden: config.hidden,
        layer2: config.layer2,
        buckets: match config.output_buckets {
            true => G::OUTPUT_BUCKETS,
            false => 1,
        },
        activation: config.activation,
    };
    let threads = config.threads.clamp(1, CHUNKS);
    let mut state = begin(
        config,
        shape,
        &data,
        (factor, threads, mirror.is_some()),
        progress,
    )?;
    let mut chunks: Vec<Params> = (0..CHUNKS).map(|_| Params::zeros(shape)).collect();
    let mut gradient = Params::zeros(shape);
    let copies = 1 + usize::from(mirror.is_some());
    let mut order: Vec<usize> = Vec::with_capacity(copies * data.training.len());
    for number in state.epochs.len() as u32 + 1..=config.epochs {
        let started = Instant::now();
        // Each epoch's order comes from the generator's state alone, so that a training
        // that goes on from a checkpoint takes the order it would have taken unstopped.
        order.clear();
        order.extend(0..copies * data.training.len());
        let mut rng = fastrand::Rng::with_seed(state.random);
        rng.shuffle(&mut order);
        state.random = rng.get_seed();
        let mut total_loss = 0.0;
        for batch in order.chunks(config.batch) {
            let gradient = &mut gradient;
            total_loss += mean_gradient(
                &state.params,
                (&data.training, mirror),
                batch,
                factor,
                &mut chunks,
                threads,
                gradient,
            );
            state.adam.step(&mut state.params, gradient, state.rate);
        }
        state.rate *= config.decay;
        let seconds = started.elapsed().as_secs_f64();
        let epoch = Epoch {
            number,
            training_loss: total_loss / order.len() as f64,
            validation_loss: mean_loss(&state.params, &data.validation, factor, threads),
            positions_per_second: order.len() as f64 / seconds.max(1e-9),
        };
        progress(format!(
            "epoch {number}/{}: {:.0} positions/s, training loss {:.6}, validation loss {:.6}",
            config.epochs, epoch.positions_per_second, epoch.training_loss, epoch.validation_loss
        ));
        if epoch.validation_loss < state.best.0 {
            state.best = (epoch.validation_loss, state.params.clone(), number);
        }
        state.epochs.push(epoch);
        if let Some(path) = &config.checkpoint {
            crate::core::output::write_whole(path, &state.to_bytes())
                .map_err(|e| format!("cannot write the checkpoint {}: {e}", path.display()))?;
        }
    }
    let (_, params, best) = state.best;
    Ok(TrainReport {
        network: params.quantise().with_terms(config.on_terms),
        params,
        training: data.training.len(),
        validation: data.validation.len(),
        scale: data.scale,
        start_loss: state.start_loss,
        terms_loss: data.terms_loss,
        epochs: state.epochs,
        best,
    })
}

/// The state a training starts its next epoch from: its checkpoint's, or the seed's
/// starting weights; `progress` hears where it starts.
fn begin(
    config: &TrainConfig,
    shape: Shape,
    data: &TrainingData,
    (factor, threads, mirrored): (f32, usize, bool),
    progress: &mut dyn FnMut(String),
) -> Result<Checkpoint, String> {
    // Only a training that keeps a checkpoint reads its data's digest (a few seconds).
    let digest = (config.checkpoint.as_ref())
        .map(|_| checkpoint::data_digest(&[&data.training, &data.validation]));
    let state = match resume(config, shape, digest.as_ref())? {
        Some(state) => {
            progress(format!(
                "going on from {} after epoch {}",
                config.checkpoint.as_ref().expect("a checkpoint").display(),
                state.epochs.len()
            ));
            state
        }
        None => start(
            config,
            shape,
            data,
            factor,
            threads,
            digest.unwrap_or_default(),
        ),
    };
    progress(format!(
        "{} positions to train on{}, {} held out; scale K = {}; validation loss \
         {:.6} at the start, {:.6} by the hand-written evaluation",
        data.training.len(),
        match mirrored {
            true => " (and their mirrors)",
            false => "",
        },
        data.validation.len(),
        data.scale
            .map_or("none (results alone)".into(), |k| format!("{k:.1}")),
        state.start_loss,
        data.terms_loss,
    ));

    Ok(state)
}

/// A training's state before its first epoch: the starting weights drawn from the seed.
fn start(
    config: &TrainConfig,
    shape: Shape,
    data: &TrainingData,
    factor: f32,
    threads: usize,
    digest: [u8; 32],
) -> Checkpoint {
    let mut rng = fastrand::Rng::with_seed(config.seed);
    let params = Params::random(shape, &mut rng);
    Checkpoint {
        settings: checkpoint::settings(config),
        data: digest,
        rate: config.rate,
        random: rng.get_seed(),
        start_loss: mean_loss(&params, &data.validation, factor, threads),
        adam: Adam::new(&params),
        best: (f64::INFINITY, params.clone(), 0),
        params,
        epochs: Vec::new(),
    }
}

/// The state in `config`'s checkpoint file, if it has one and the file is there; `Err` if
/// the file is there but of another training, or cannot be read.
fn resume(
    config: &TrainConfig,
    shape: Shape,
    digest: Option<&[u8; 32]>,
) -> Result<Option<Checkpoint>, String> {
    let (Some(path), Some(digest)) = (&config.checkpoint, digest) else {
        return Ok(None);
    };
    if !path.exists() {
        return Ok(None);
    }
    let refused =
        |why: String| format!("cannot go on from the checkpoint {}: {why}", path.display());
    let bytes = crate::core::files::read_regular(path, MAX_CHECKPOINT_BYTES).map_err(refused)?;
    let settings = checkpoint::settings(config);
    Checkpoint::from_bytes(&bytes, shape, &settings, digest)
        .map(Some)
        .map_err(refused)
}

/// Refuses a network `G` cannot have, or a training that cannot run, in one line.
fn check_shape<G: Playable>(config: &TrainConfig) -> Result<(), String> {
    if G::INPUTS == 0 {
        return Err(format!("{} has no network inputs", config.variant));
    }
    if !(1..=MAX_HIDDEN).contains(&config.hidden) || !config.hidden.is_multiple_of(HIDDEN_MULTIPLE)
    {
        return Err(format!(
            "hidden must be a multiple of {HIDDEN_MULTIPLE} from {HIDDEN_MULTIPLE} to {MAX_HIDDEN}"
        ));
    }
    if config.layer2 > MAX_LAYER2 || (config.layer2 > 0 && config.hidden > MAX_HIDDEN_BELOW_LAYER2)
    {
        return Err(format!(
            "a second layer has at most {MAX_LAYER2} units, over at most \
             {MAX_HIDDEN_BELOW_LAYER2} hidden"
        ));
    }
    if config.layer2 > 0 && config.activation != Activation::ClippedRelu {
        return Err(format!(
            "a second layer takes the clipped ReLU's activations only, not {}",
            config.activation.name()
        ));
    }
    if config.batch == 0 || config.epochs == 0 {
        return Err("the batch and the epochs must be at least 1".into());
    }
    Ok(())
}

/// Writes into `gradient` the loss's gradient over the positions `batch` of `samples`
/// (with a mirror, the positions from `samples.len()` on are the mirrors of those before),
/// the mean of the positions' (every layer's), summed on `threads` threads in `chunks`;
/// returns the summed loss.
fn mean_gradient(
    params: &Params,
    samples: (&Samples, Option<&Mirror>),
    batch: &[usize],
    factor: f32,
    chunks: &mut [Params],
    threads: usize,
    gradient: &mut Params,
) -> f64 {
    let losses = batch_gradient(params, samples, batch, factor, chunks, threads);
    gradient.clear();
    for chunk in chunks.iter() {
        gradient.add(chunk);
    }
    gradient.scale(1.0 / batch.len() as f32);
    losses
}

/// Sums the loss's gradient over the positions `batch` of `samples` into `chunks` (one
/// share of the batch each, cleared first), on `threads` threads; returns the summed loss.
fn batch_gradient(
    params: &Params,
    (samples, mirror): (&Samples, Option<&Mirror>),
    batch: &[usize],
    factor: f32,
    chunks: &mut [Params],
    threads: usize,
) -> f64 {
    let share = batch.len().div_ceil(chunks.len()).max(1);
    let mut work: Vec<(&[usize], &mut Params)> = batch
        .chunks(share)
        .chain(std::iter::repeat(&[][..]))
        .zip(chunks.iter_mut())
        .collect();
    let per_thread = work.len().div_ceil(threads);
    let losses: Vec<f64> = thread::scope(|scope| {
        let handles: Vec<_> = work
            .chunks_mut(per_thread)
            .map(|jobs| {
                scope.spawn(move || {
                    let mut scratch = Scratch::new(params.hidden, params.layer2);
                    let mut gathered = Vec::new();
                    (jobs.iter_mut())
                        .map(|(positions, gradient)| {
                            let work = (*positions, &mut gathered, &mut scratch);
                            chunk_gradient(params, (samples, mirror), work, factor, gradient)
                        })
                        .collect::<Vec<f64>>()
                })
            })
            .collect();
        (handles.into_iter())
            .flat_map(|handle| handle.join().expect("a training thread failed"))
            .collect()
    });
    // Added in chunk order: the same sum whatever the threads.
    losses.iter().sum()
}

/// Writes into `gradient` the loss's gradient summed over `positions` (see
/// [`batch_gradient`]), with `gathered` and `scratch` as room; returns the summed loss.
fn chunk_gradient<'a>(
    params: &Params,
    (samples, mirror): (&'a Samples, Option<&Mirror>),
    (positions, gathered, scratch): (&[usize], &mut Vec<(Sample<'a>, bool)>, &mut Scratch),
    factor: f32,
    gradient: &mut Params,
) -> f64 {
    gradient.clear();
    // The positions lie anywhere in gigabytes of data: gathered first, in a loop whose
    // loads do not wait on each other, so that their trips to memory overlap (each takes
    // its inputs' first value, to bring their line in too).
    gathered.clear();
    let mut first_inputs = 0u16;
    gathered.extend(positions.iter().map(|&index| {
        let sample = samples.get(index % samples.len());
        first_inputs ^= sample.own.first().copied().unwrap_or(0);
        first_inputs ^= sample.other.first().copied().unwrap_or(0);
        (sample, mirror.is_some() && index >= samples.len())
    }));
    std::hint::black_box(first_inputs);
    let (mut own_mirrored, mut other_mirrored) = (Vec::new(), Vec::new());
    let mut sum = 0.0f64;
    for (sample, mirrored) in gathered.iter() {
        let bucket = params.bucket(sample.bucket);
        let (own, other) = match mirror {
            Some(mirror) if *mirrored => {
                mirror.apply(sample, &mut own_mirrored, &mut other_mirrored);
                (&own_mirrored[..], &other_mirrored[..])
            }
            _ => (sample.own, sample.other),
        };
        let output = params.forward(own, other, bucket, scratch) + sample.offset;
        let (l, slope) = loss(output, sample.target, factor);
        sum += f64::from(l);
        params.backward((own, other, bucket), slope, scratch, gradient);
    }
    sum
}

/// The mean loss of `params` over `samples`.
fn mean_loss(params: &Params, samples: &Samples, factor: f32, threads: usize) -> f64 {
    let share = samples.len().div_ceil(CHUNKS).max(1);
    let ranges: Vec<std::ops::Range<usize>> = (0..samples.len())
        .step_by(share)
        .map(|start| start..(start + share).min(samples.len()))
        .collect();
    let per_thread = ranges.len().div_ceil(threads).max(1);
    let sums: Vec<f64> = thread::scope(|scope| {
        let handles: Vec<_> = ranges
            .chunks(per_thread)
            .map(|ranges| {
                scope.spawn(move || {
                    let mut scratch = Scratch::new(params.hidden, params.layer2);
                    (ranges.iter())
                        .map(|range| {
                            range
                                .clone()
                                .map(|k| {
                                    let sample = samples.get(k);
                                    let bucket = params.bucket(sample.bucket);
                                    let output = sample.offset
                                        + params.forward(
                                            sample.own,
                                            sample.other,
                                            bucket,
                                            &mut scratch,
                                        );
                                    f64::from(loss(output, sample.target, factor).0)
                                })
                                .sum::<f64>()
                        })
                        .collect::<Vec<f64>>()
                })
            })
            .collect();
        (handles.into_iter())
            .flat_map(|handle| handle.join().expect("a validation thread failed"))
            .collect()
    });
    sums.iter().sum::<f64>() / samples.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluate;
    use crate::games::lielow::Lielow8;
    use crate::rules::{Notation, Rules};

    /// The gradient of a batch of `copies` copies of one position, with a second layer.
    fn gradient_of_copies(copies: usize) -> Params {
        // The first line is held out (the first block of a short file), the second trains.
        let start = Lielow8::start().position_string();
        let text = format!("0 {start} ; -20\n1 {start} ; 35\n");
        let data = samples::read::<Lielow8>(&[("copies", &text)], 0.5, Some(400.0), false, 1)
            .expect("two lines of data");
        assert_eq!(data.training.len(), 1);
        let mut rng = fastrand::Rng::with_seed(7);
        let shape = Shape {
            layer2: 8,
            ..Shape::plain(Lielow8::INPUTS, 32)
        };
        let params = Params::random(shape, &mut rng);
        let zeros = || Params::zeros(shape);
        let mut chunks: Vec<Params> = (0..CHUNKS).map(|_| zeros()).collect();
        let mut gradient = zeros();
        let batch = vec![0; copies];
        let factor = output_factor(400.0);
        mean_gradient(
            &params,
            (&data.training, None),
            &batch,
            factor,
            &mut chunks,
            2,
            &mut gradient,
        );
        gradient
    }

    fn assert_close(one: &[f32], many: &[f32], what: &str) {
        assert_eq!(one.len(), many.len(), "{what}");
        for (a, b) in one.iter().zip(many) {
            assert!(
                (a - b).abs() <= 1e-5 * a.abs().max(1e-3),
                "{what}: {a} against {b}"
            );
        }
    }

    #[test]
    fn copies_of_one_position_take_the_step_of_one_in_every_layer() {
        let one = gradient_of_copies(1);
        assert!(
            one.layer2_weights.iter().any(|&g| g != 0.0),
            "the second layer learns from the position"
        );
        for copies in [2, 5, 64] {
            let many = gradient_of_copies(copies);
            assert_close(&one.input_weights, &many.input_weights, "input weights");
            assert_close(&one.input_bias, &many.input_bias, "input biases");
            assert_close(
                &one.layer2_weights,
                &many.layer2_weights,
                "second layer's weights",
            );
            assert_close(&one.layer2_bias, &many.layer2_bias, "second layer's biases");
            assert_close(&one.output_weights, &many.output_weights, "output weights");
            assert_close(&one.output_bias, &many.output_bias, "output bias");
        }
    }
}
