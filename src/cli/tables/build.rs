//! `tables build` and `tables compact`: the set solved level by level, and its compact form.

use std::path::PathBuf;

use clap::Args;
use ternion::core::Shard;
use ternion::games::egaraguti::tablebase::build::{BuildConfig, build};
use ternion::games::egaraguti::tablebase::compact::compact_set;
use ternion::games::egaraguti::tablebase::index::MAX_MEN;
use ternion::games::egaraguti::tablebase::runs::READ_WEIGHT;

use super::parse_weight;
use crate::cli::print;

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The variant: only egaraguti has tables.
    pub variant: String,
    /// The most men on the board, both sides together (2 to 22).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=2 * MAX_MEN as i64))]
    men: u32,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// Threads for the classification pass.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Keep each position's distance to its deciding capture (a byte a position), so that
    /// positions with a 40-ply counter above 0 can be read exactly.
    #[arg(long)]
    distances: bool,
    /// Build only a share of the levels of --men men, as K/N (0 <= K < N): the levels
    /// whose place in the list leaves K when divided by N. The lower tables must be there.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
}

#[derive(Debug, Args)]
pub struct CompactArgs {
    /// The variant: only egaraguti has tables.
    pub variant: String,
    /// The directory of the whole packed set.
    #[arg(long)]
    dir: PathBuf,
    /// The directory of the compact set, another one.
    #[arg(long)]
    out: PathBuf,
    /// Tables compacted at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// What a probe's second read (of a block too long for its 16-byte record) is worth,
    /// in bits an entry: less makes the set smaller and its probes slower.
    #[arg(long, default_value_t = READ_WEIGHT, value_parser = parse_weight)]
    read_weight: f64,
}

/// Builds the levels asked for, a line a level on stderr and the summary on stdout.
pub fn run_build(args: &BuildArgs) -> Result<(), String> {
    let config = BuildConfig {
        dir: args.dir.clone(),
        men: args.men as usize,
        threads: args.threads as usize,
        distances: args.distances,
        shard: args.shard,
    };
    let done = build(&config, &mut |line| note!("{line}"))?;
    let solved: Vec<_> = done.iter().filter_map(|d| d.report.as_ref()).collect();
    if solved.is_empty() {
        let summary = format!(
            "nothing to build: the {} levels of at most {} men are in {}\n",
            done.len(),
            args.men,
            args.dir.display()
        );
        return print(&summary, "the summary");
    }
    let positions: u64 = solved.iter().map(|r| r.positions).sum();
    let seconds: f64 = solved.iter().map(|r| r.seconds).sum();
    let longest = solved.iter().map(|r| r.longest).max().unwrap_or(0);
    let beyond: u64 = solved.iter().map(|r| r.beyond_limit).sum();
    let summary = format!(
        "{} levels, {} solved now: {positions} positions in {seconds:.1} s, longest forced capture {longest} plies, {beyond} positions beyond the 40-ply limit\n",
        done.len(),
        solved.len(),
    );
    print(&summary, "the summary")
}

/// Writes the compact set, a line a table on stderr and the sizes on stdout.
pub fn run_compact(args: &CompactArgs) -> Result<(), String> {
    let megabytes = |bytes: usize| bytes as f64 / 1e6;
    let reports = compact_set(
        &args.dir,
        &args.out,
        args.threads as usize,
        args.read_weight,
        &|report| {
            let time = match report.seconds {
                Some(seconds) => format!("{seconds:.1} s"),
                None => "there already".to_string(),
            };
            note!(
                "{}: values {:.2} -> {:.2} MB, distances {:.2} -> {:.2} MB, {time}",
                report.material,
                megabytes(report.packed.0),
                megabytes(report.compact.0),
                megabytes(report.packed.1),
                megabytes(report.compact.1),
            );
        },
    )?;
    let mut out = String::from(
        "table entries values_packed values_compact bits_a_value distances_packed distances_compact bits_a_distance\n",
    );
    let mut sums = [0f64; 5];
    for report in &reports {
        let bits = |bytes: usize| bytes as f64 * 8.0 / report.entries as f64;
        out.push_str(&format!(
            "{} {} {} {} {:.4} {} {} {:.4}\n",
            report.material,
            report.entries,
            report.packed.0,
            report.compact.0,
            bits(report.compact.0),
            report.packed.1,
            report.compact.1,
            bits(report.compact.1),
        ));
        for (sum, part) in sums.iter_mut().zip([
            report.entries as usize,
            report.packed.0,
            report.compact.0,
            report.packed.1,
            report.compact.1,
        ]) {
            *sum += part as f64;
        }
    }
    out.push_str(&format!(
        "all {} tables, {:.0} entries: values {:.1} -> {:.1} MB ({:.4} bits an entry), distances {:.1} -> {:.1} MB ({:.4} bits an entry)\n",
        reports.len(),
        sums[0],
        sums[1] / 1e6,
        sums[2] / 1e6,
        sums[2] * 8.0 / sums[0],
        sums[3] / 1e6,
        sums[4] / 1e6,
        sums[4] * 8.0 / sums[0],
    ));
    print(&out, "the output")
}
