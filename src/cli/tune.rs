//! `ternion tune`: fits a variant's evaluation weights to self-play data (see
//! `ternion::tune::texel`) and prints the new table.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;
use ternion::games::Variant;
use ternion::games::egaraguti::tablebase::Tablebase;
use ternion::tune::exact::label::relabel_all;
use ternion::tune::texel::{TuneConfig, tune};

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The variant: lielow (8x8), lielow9 (9x9), egaraguti or lerontenin.
    variant: String,
    /// Files written by `ternion selfplay` for this variant.
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    data: Vec<PathBuf>,
    /// Gradient steps at most.
    #[arg(long, default_value_t = 3000)]
    iterations: u32,
    /// Hold out every n-th position to check the fit on (10: a tenth).
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = clap::value_parser!(u32).range(2..))]
    hold_out_every: u32,
    /// The size of a step (Adam's), in evaluation units.
    #[arg(long, default_value_t = 1.0)]
    step: f64,
    /// Egara-guti's exact tables: a position they solve exactly at its counter is fitted to
    /// their result, not to its game's.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

/// The name of each variant's table in its game's `weights.rs`.
fn table_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Lielow => "BOARD8",
        Variant::Lielow9 => "BOARD9",
        Variant::Egaraguti | Variant::Lerontenin => "WEIGHTS",
    }
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    let variant: Variant = args.variant.parse().map_err(|e| format!("{e}"))?;
    if !(args.step > 0.0 && args.step.is_finite()) {
        return Err(format!(
            "the step must be a finite number above 0, not {}",
            args.step
        ));
    }
    // Each file by its name, so that a bad line is reported as <file>:<line>.
    let mut files = Vec::new();
    for path in &args.data {
        let text = ternion::core::files::read_text(path)?;
        files.push((path.display().to_string(), text));
    }
    if let Some(dir) = &args.tables {
        if variant != Variant::Egaraguti {
            return Err(format!("{variant} has no tables: only egaraguti has"));
        }
        // Mapped whole (a moment at any size): a compact table values captures by the
        // lower levels. A set with a hole is refused.
        let mut tables = Tablebase::load_all(dir)?;
        let (mut solved, mut lines, mut changed) = (0, 0, 0);
        for (name, text) in &mut files {
            let (relabelled, count) = relabel_all(&mut tables, name, text)?;
            (solved, lines, changed) = (
                solved + count.solved,
                lines + count.lines,
                changed + count.changed,
            );
            *text = relabelled;
        }
        note!("{solved} of {lines} positions solved by the tables, {changed} of them relabelled");
    }
    let config = TuneConfig {
        variant,
        hold_out_every: args.hold_out_every as usize,
        iterations: args.iterations,
        step: args.step,
    };
    let sources: Vec<(&str, &str)> = files
        .iter()
        .map(|(name, text)| (name.as_str(), text.as_str()))
        .collect();
    let report = tune(&config, &sources, &mut |line| note!("{line}"))?;
    let mut out = io::stdout().lock();
    let mut lines = vec![
        format!(
            "{} positions fitted, {} held out; K = {:.1}; kept step {}",
            report.training, report.held_out, report.k, report.best_iteration
        ),
        format!(
            "mean squared error, fitted positions: {:.6} before, {:.6} after",
            report.training_error.0, report.training_error.1
        ),
        format!(
            "mean squared error, held-out positions: {:.6} before, {:.6} after",
            report.held_out_error.0, report.held_out_error.1
        ),
        String::new(),
        format!("{:<24} {:>8} {:>8}", "feature", "before", "after"),
    ];
    for ((name, before), after) in report.names.iter().zip(&report.before).zip(&report.after) {
        lines.push(format!("{name:<24} {before:>8} {after:>8}"));
    }
    lines.push(String::new());
    lines.push(report.table(table_name(variant)));
    for line in lines {
        writeln!(out, "{line}").map_err(|e| format!("cannot write the result: {e}"))?;
    }
    Ok(())
}
