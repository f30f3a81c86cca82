//! `ternion train`: fits a variant's network to self-play data (see
//! `ternion::tune::train`) and writes the network's file.

use std::path::{Path, PathBuf};

use clap::Args;
use ternion::core::output;
use ternion::eval::network::Activation;
use ternion::eval::network::file::{self, NetworkKind};
use ternion::games::Variant;
use ternion::tune::train::{TrainConfig, train_from};

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The variant: lielow (8x8), lielow9 (9x9), lerontenin, or egaraguti (taught by its
    /// tables: `ternion tables data`).
    variant: String,
    /// Files written by `ternion selfplay` (or `ternion tables data`) for this variant.
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    data: Vec<PathBuf>,
    /// Where to write the network.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Units of the accumulator, a perspective: a multiple of 16, at most 1024.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(16..=1024))]
    hidden: u32,
    /// Units of a second layer between the accumulators and the output (0: none), at most
    /// 128, over at most 512 hidden.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=128))]
    layer2: u32,
    /// What the first layer's units pass on: crelu (the clipped ReLU) or screlu (its
    /// square; not under a second layer).
    #[arg(long, default_value = "crelu", value_parser = clap::value_parser!(Activation))]
    activation: Activation,
    /// One output layer for each of the variant's output buckets (Lielow's: the stacks
    /// left, in quarters of the start's), rather than one for every position.
    #[arg(long)]
    output_buckets: bool,
    /// Lines held out for validation come in blocks of this many, one block in ten: a block
    /// should hold several games, so that the held-out positions are of other games than
    /// the training ones (Lielow's games write about 20 positions, Lerontenin's hundreds).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    hold_out_block: u32,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    epochs: u32,
    /// Positions a mini-batch.
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u32).range(1..))]
    batch: u32,
    /// Adam's step size at the first epoch.
    #[arg(long, default_value_t = 0.002)]
    rate: f32,
    /// The step size's factor from one epoch to the next.
    #[arg(long, default_value_t = 0.92)]
    decay: f32,
    /// The share of the target the search's score makes, from 0 (the game's result alone)
    /// to 1 (the score alone).
    #[arg(long, default_value_t = 0.5)]
    blend: f64,
    /// The scale K of the scores, in centipawns (a score s counts as the expected result
    /// sigmoid(s / K)), instead of the scale fitted to the data: for scores that are labels
    /// rather than a search's, which predict the results exactly (the tables' data of
    /// `ternion tables data`, whose fitted K would shrink to nothing).
    #[arg(long, value_name = "K", value_parser = parse_scale)]
    scale: Option<f64>,
    /// Train the network on what the hand-written evaluation misses: the engine adds its
    /// output to the terms' sum.
    #[arg(long)]
    on_terms: bool,
    /// Where the starting weights and the order of the positions are drawn from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Train on the positions as they are, not also on their mirrors (a game that mirrors,
    /// Lielow, trains on both by default).
    #[arg(long)]
    no_mirror: bool,
    /// Keep the training's state in FILE after every epoch, and go on from it if it is
    /// there: a training stopped at any moment, run again with the same settings and data,
    /// ends with the network it would have made unstopped. More --epochs than the
    /// checkpoint's train it further.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Threads to train on (the network does not depend on it); all cores by default.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
}

fn parse_scale(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(k) if (10.0..=10_000.0).contains(&k) => Ok(k),
        _ => Err(format!(
            "the scale is from 10 to 10000 centipawns, not '{text}'"
        )),
    }
}

/// Refuses a checkpoint that could not be written after the first epoch: the network's
/// own path, a data file, something other than a file, or in no folder.
fn check_checkpoint(checkpoint: &Path, out: &Path, inputs: &[&Path]) -> Result<(), String> {
    let refused = |why: String| {
        format!(
            "cannot keep a checkpoint at {}: {why}",
            checkpoint.display()
        )
    };
    if checkpoint == out || output::same_file(checkpoint, out) {
        return Err(refused("it is the network's file".into()));
    }
    output::target(checkpoint, inputs).map_err(|e| refused(e.to_string()))?;
    let folder = match checkpoint.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(refused(format!("{} is not a folder", folder.display())));
    }
    Ok(())
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &TrainArgs) -> Result<(), String> {
    let variant: Variant = args.variant.parse().map_err(|e| format!("{e}"))?;
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        return Err(format!(
            "the rate must be a finite number above 0, not {}",
            args.rate
        ));
    }
    if !(args.decay > 0.0 && args.decay <= 1.0) {
        return Err(format!(
            "the decay must be above 0 and at most 1, not {}",
            args.decay
        ));
    }
    if !(0.0..=1.0).contains(&args.blend) {
        return Err(format!("the blend must be from 0 to 1, not {}", args.blend));
    }
    // Before hours of training: the network must have somewhere to go.
    let inputs: Vec<&Path> = args.data.iter().map(PathBuf::as_path).collect();
    let out = output::Whole::prepare(&args.out, &inputs)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    if let Some(checkpoint) = &args.checkpoint {
        check_checkpoint(checkpoint, &args.out, &inputs)?;
    }
    let mut config = TrainConfig::new(variant);
    config.hidden = args.hidden as usize;
    config.layer2 = args.layer2 as usize;
    config.activation = args.activation;
    config.output_buckets = args.output_buckets;
    config.hold_out_block = args.hold_out_block as usize;
    config.epochs = args.epochs;
    config.batch = args.batch as usize;
    config.rate = args.rate;
    config.decay = args.decay;
    config.blend = args.blend;
    config.scale = args.scale;
    config.seed = args.seed;
    config.on_terms = args.on_terms;
    config.mirror = !args.no_mirror;
    config.checkpoint = args.checkpoint.clone();
    if let Some(threads) = args.threads {
        config.threads = threads as usize;
    }
    // One file at a time: a file's text is dropped once its positions are stored.
    let mut paths = args.data.iter();
    let mut next = || match paths.next() {
        Some(path) => Ok(Some((
            path.display().to_string(),
            ternion::core::files::read_text(path)?,
        ))),
        None => Ok(None),
    };
    let report = train_from(&config, &mut next, &mut |line| note!("{line}"))?;
    let name = variant.to_string();
    let kind = ternion::with_game!(variant, G => NetworkKind::of::<G>(&name));
    let bytes = file::to_bytes(&report.network, kind);
    out.commit(&bytes)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let best = &report.epochs[report.best as usize - 1];
    println!(
        "kept epoch {} of {}: validation loss {:.6} (at the start {:.6}); {}, {} bytes \
         written to {}",
        report.best,
        report.epochs.len(),
        best.validation_loss,
        report.start_loss,
        report.network.shape_words(),
        bytes.len(),
        args.out.display()
    );
    Ok(())
}
