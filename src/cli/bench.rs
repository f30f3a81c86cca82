//! `ternion bench`: the search signature (see `ternion::bench`).

use clap::Args;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search every position to this depth instead of its own.
    depth: Option<u32>,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    if args.depth == Some(0) {
        return Err("the bench depth must be at least 1".into());
    }
    let totals = ternion::bench::run(args.depth, &mut |line| println!("{line}"));
    println!("{} nodes {} nps", totals.nodes, totals.nps);
    Ok(())
}
