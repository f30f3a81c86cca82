//! `ternion bench`: the search signature (see `ternion::bench`).

use clap::Args;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search every position to this depth instead of its own.
    depth: Option<u32>,
    /// Search threads; the node count is the search's signature only with one.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=ternion::search::MAX_THREADS as i64))]
    threads: u32,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    if args.depth == Some(0) {
        return Err("the bench depth must be at least 1".into());
    }
    let totals = ternion::bench::run(args.depth, args.threads as usize, &mut |line| {
        println!("{line}")
    });
    println!("{} nodes {} nps", totals.nodes, totals.nps);
    Ok(())
}
