//! The resumable build of Egara-guti's tables, level by level, fewest men first.
//!
//! A level whose tables are already in the directory, whole and of these rules, is never
//! solved again; a level is written only when solved, each table under a temporary name
//! renamed when whole, so an interrupted build goes on from the first level it had not
//! finished. The levels of one number of men depend only on fewer men, so they can be
//! shared out between machines (`shard`) once the lower tables are on each.

use crate::core::clock::Instant;
use std::path::PathBuf;

use super::file;
use super::index::{INDEXER, Material};
use super::material::{levels_of_total, lower_materials, parts};
use super::set::Tablebase;
use super::solve::{LevelReport, solve_level};
use super::table::Table;
use crate::core::Shard;

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    pub dir: PathBuf,
    /// Build every level of at most this many men on the board.
    pub men: usize,
    pub threads: usize,
    /// Keep each position's distance (a byte a position) beside its value.
    pub distances: bool,
    /// Build only the levels of the top number of men whose place in its list, counted
    /// from 0, leaves the shard's index when divided by its count, from the lower tables
    /// already in the directory.
    pub shard: Option<Shard>,
}

/// One level's line of the build's account.
#[derive(Clone, Debug)]
pub struct LevelDone {
    pub level: Material,
    /// `None` when the level's tables were found already built.
    pub report: Option<LevelReport>,
}

/// Builds the levels, calling `progress` with a line for each level. Returns the levels
/// in order.
pub fn build(
    config: &BuildConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<LevelDone>, String> {
    std::fs::create_dir_all(&config.dir)
        .map_err(|e| format!("cannot create {}: {e}", config.dir.display()))?;
    let plan = plan(config);
    let mut tables = Tablebase::values_from(&config.dir);
    let mut done = Vec::new();
    // The clock of the solving alone: levels found built already take no part in the
    // estimate of the time left.
    let mut started = Instant::now();
    let mut solved_entries = 0u64;
    let mut left_entries: u64 = plan.iter().map(|&l| size(l)).sum();
    for level in plan {
        left_entries -= size(level);
        if built_already(&mut tables, level)? {
            progress(&format!("{level}: built already"));
            done.push(LevelDone {
                level,
                report: None,
            });
            if solved_entries == 0 {
                started = Instant::now();
            }
            continue;
        }
        let lower = lower_materials(level);
        for &material in &lower {
            if !tables.load(material)? {
                return Err(format!(
                    "the table {} is missing: build fewer men first",
                    file::file_name(material)
                ));
            }
        }
        // Only the tables this level reads stay in memory.
        tables.retain(&lower);
        reset_peak_memory();
        let (solved, report) = solve_level(level, &tables, config.threads, config.distances)?;
        let peak = peak_memory_bytes();
        for table in &solved {
            table
                .write(&config.dir)
                .map_err(|e| format!("cannot write {}: {e}", config.dir.display()))?;
        }
        solved_entries += size(level);
        let solving = started.elapsed().as_secs_f64();
        let left = time_left(solved_entries, left_entries, solving);
        progress(&format!(
            "{level}: {}; {left}",
            level_account(&report, peak)
        ));
        done.push(LevelDone {
            level,
            report: Some(report),
        });
    }
    Ok(done)
}

/// The levels a build solves, fewest men first: every level up to the most men, or a
/// shard's share of the top number of men alone (the lower tables come from elsewhere).
fn plan(config: &BuildConfig) -> Vec<Material> {
    let lowest = if config.shard.is_some() {
        config.men
    } else {
        2
    };
    let mut plan = Vec::new();
    for total in lowest..=config.men {
        for (place, level) in levels_of_total(total).into_iter().enumerate() {
            let in_shard = match config.shard {
                Some(shard) if total == config.men => {
                    place % shard.count as usize == shard.index as usize
                }
                _ => true,
            };
            if in_shard {
                plan.push(level);
            }
        }
    }
    plan
}

/// The entries of a level's tables, both sides to move.
fn size(level: Material) -> u64 {
    parts(level)
        .into_iter()
        .map(|m| INDEXER.table_size(m))
        .sum()
}

/// What solving a level found and cost, for its line of the build's account.
fn level_account(report: &LevelReport, peak: Option<u64>) -> String {
    let shares: Vec<String> = report
        .values
        .iter()
        .map(|(material, [wins, draws, losses])| {
            let all = wins + draws + losses;
            format!(
                "{material} {:.1}/{:.1}/{:.1}%",
                percent(*wins, all),
                percent(*draws, all),
                percent(*losses, all)
            )
        })
        .collect();
    format!(
        "{} positions in {:.1} s ({:.2}M/s){}, win/draw/loss for the side to move {}, longest {} plies, {} beyond the 40-ply limit{}",
        report.positions,
        report.seconds,
        report.positions as f64 / report.seconds.max(1e-6) / 1e6,
        peak.map(|bytes| format!(
            ", peak memory {:.2} GiB",
            bytes as f64 / (1u64 << 30) as f64
        ))
        .unwrap_or_default(),
        shares.join(", "),
        report.longest,
        report.beyond_limit,
        if report.beyond_limit > 0 {
            format!(
                " (forced in up to {} plies without it)",
                report.longest_beyond
            )
        } else {
            String::new()
        },
    )
}

/// Whether every table of the level is in the directory and whole. A damaged table stops
/// the build with the way on: delete it, and the same command builds its level again.
fn built_already(tables: &mut Tablebase, level: Material) -> Result<bool, String> {
    for material in parts(level) {
        let read = Table::read(tables.dir(), material).map_err(|why| {
            format!("{why}; delete it and run the build again to solve level {level} anew")
        })?;
        if read.is_none() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The estimate of the time left, from the rate so far: none until enough is solved for the
/// rate to mean something (the smallest levels solve far faster a position than the large
/// ones, so an estimate from them alone would mislead).
fn time_left(solved_entries: u64, left_entries: u64, seconds: f64) -> String {
    const ENOUGH_SECONDS: f64 = 10.0;
    if left_entries == 0 {
        return "done".to_owned();
    }
    if seconds < ENOUGH_SECONDS || solved_entries == 0 {
        return "time left not known yet".to_owned();
    }
    let rate = solved_entries as f64 / seconds;
    format!("about {} left", duration(left_entries as f64 / rate))
}

/// Starts the process's peak memory afresh at what it holds now (the lower tables loaded),
/// where the system allows it (Linux), so that each level's peak is its own.
fn reset_peak_memory() {
    // "5" resets the peak resident set size; elsewhere the file is missing and the peak
    // stays the process's.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The process's peak resident memory in bytes, where the system says (Linux).
fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// Seconds as `h:mm:ss`.
fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}
