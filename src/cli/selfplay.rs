//! `ternion selfplay`: games of the engine against itself, written as labelled quiet
//! positions for `ternion tune` (see `ternion::tune::selfplay`).

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;
use ternion::core::Shard;
use ternion::games::Variant;
use ternion::tune::selfplay::{SelfplayConfig, run_selfplay};

use super::evaluation::EvaluationArgs;

#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// The variant: lielow (8x8), lielow9 (9x9), egaraguti or lerontenin.
    variant: String,
    /// The number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Nodes searched a move (varied by up to a quarter either way).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Random plies that open each game.
    #[arg(long, default_value_t = 8, value_name = "PLIES")]
    openings: u32,
    /// A game still going after this many plies is stopped and counted a draw.
    #[arg(long, default_value_t = 2000, value_name = "PLIES")]
    max_plies: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    concurrency: u32,
    /// The seed of the openings and of the nodes' variation.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only part i of n of the run (0 <= i < n): the games whose number leaves i when
    /// divided by n, each as the whole run plays it, so that the shards' files together
    /// are the whole run's data.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    #[command(flatten)]
    evaluation: EvaluationArgs,
    /// The file the positions go to (they are added to its end); stdout if not given.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &SelfplayArgs) -> Result<(), String> {
    let variant: Variant = args.variant.parse().map_err(|e| format!("{e}"))?;
    let evaluator = ternion::with_game!(variant, G => args.evaluation.evaluator::<G>())?;
    let config = SelfplayConfig {
        variant,
        games: args.games,
        nodes: args.nodes,
        openings: args.openings,
        max_plies: args.max_plies,
        seed: args.seed,
        concurrency: args.concurrency as usize,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        evaluator,
    };
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(BufWriter::new(
            ternion::core::output::append(path, &[])
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
        )),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let live = io::stderr().is_terminal();
    let totals = run_selfplay(&config, &mut out, &AtomicBool::new(false), &mut |line| {
        let mut err = io::stderr().lock();
        let _ = match live {
            true => write!(err, "\r\x1b[K{line}"),
            false => writeln!(err, "{line}"),
        };
    })?;
    if live {
        note!();
    }
    note!(
        "{} games ({} stopped at the ply limit), {} positions",
        totals.games,
        totals.cut,
        totals.positions
    );
    Ok(())
}
