//! `ternion bench`: the search signature (see `ternion::bench`).

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use ternion::protocol::command::MAX_BENCH_DEPTH;
use ternion::protocol::format;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search every position to this depth instead of its own (1 to 64; each ply more
    /// costs several times the time: a few plies past the positions' own depths, 5 to 14,
    /// take minutes).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_BENCH_DEPTH)))]
    depth: Option<u32>,
    /// Print latency figures instead: the search's stop latency and deadline overrun in
    /// every variant, and the protocol's answers through a child process (start to
    /// `ugiok`, `isready` and `stop` during a search, `go movetime` overrun). Takes about
    /// a minute.
    #[arg(long, conflicts_with_all = ["depth", "threads"])]
    latency: bool,
    /// Search threads; the node count is the search's signature only with one.
    #[arg(long, default_value_t = 1, value_parser = super::search_threads)]
    threads: usize,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    if args.latency {
        return super::latency::run();
    }
    // A reader that goes away (`| head`) ends the bench, not with a panic.
    let closed = AtomicBool::new(false);
    let mut out = io::stdout().lock();
    let totals = ternion::bench::run_until(args.depth, args.threads, &closed, &mut |line| {
        if writeln!(out, "{}", format::bench_line(&line)).is_err() {
            closed.store(true, Ordering::Relaxed);
        }
    });
    if !closed.load(Ordering::Relaxed) {
        writeln!(out, "{}", format::bench_total(totals.nodes, totals.nps))
            .map_err(|error| format!("cannot write the result: {error}"))?;
    }
    Ok(())
}
