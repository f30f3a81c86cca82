//! `ternion stats`: the summary of a match from its records, for the shards of a match
//! played on several machines and merged, or for a records file kept from earlier.

use std::path::PathBuf;

use clap::Args;
use ternion::arena::record::parse_records;
use ternion::arena::stats::Sprt;
use ternion::arena::summarize_records;

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Records files written by `ternion match --records` (the shards of one match, say).
    #[arg(required = true, value_name = "RECORDS")]
    files: Vec<PathBuf>,
    /// The sequential test to report on: elo0=.. elo1=.. alpha=.. beta=..
    #[arg(long, num_args = 1..=4, value_name = "PARAM")]
    sprt: Vec<String>,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &StatsArgs) -> Result<(), String> {
    let mut records = Vec::new();
    for path in &args.files {
        let text = ternion::core::files::read_text(path)?;
        let in_file = |e: String| format!("{}: {e}", path.display());
        let parsed = parse_records(&text).map_err(in_file)?;
        // Each record read as a game here, so that a bad one is named with its file.
        for record in &parsed {
            record.to_game_record().map_err(in_file)?;
        }
        records.extend(parsed);
    }
    if records.is_empty() {
        return Err("no games in the records".into());
    }
    let sprt = (!args.sprt.is_empty())
        .then(|| Sprt::parse(&args.sprt))
        .transpose()?;
    let mut report = summarize_records(&records, sprt)?.report();
    report.push_str(&missing_games(&records));
    super::print(&report, "the summary")
}

/// A line naming the games missing below the highest number recorded (the shards of a
/// match not all merged, say), or nothing.
fn missing_games(records: &[ternion::arena::record::ParsedRecord]) -> String {
    let numbers: std::collections::BTreeSet<u32> = records
        .iter()
        .filter_map(|record| record.tag("Game")?.parse().ok())
        .collect();
    let Some(&last) = numbers.last() else {
        return String::new();
    };
    let missing: Vec<u32> = (1..=last).filter(|n| !numbers.contains(n)).collect();
    if missing.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = missing.iter().take(10).map(u32::to_string).collect();
    let more = if missing.len() > shown.len() {
        ", ..."
    } else {
        ""
    };
    format!(
        "games missing: {} of the {last} numbered (game {}{more}): a shard not merged?\n",
        missing.len(),
        shown.join(", ")
    )
}
