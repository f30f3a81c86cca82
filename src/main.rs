//! The `ternion` command: subcommands for people and scripts.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// ternion: a headless engine for Lielow, Egara-guti and Lerontenin.
///
/// Variants: lielow (8x8), lielow9 (9x9), egaraguti, lerontenin.
#[derive(Debug, Parser)]
#[command(name = "ternion", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree to a fixed depth (move generator test).
    ///
    /// Prints, with --divide, one "<move>: <count>" line per legal move and a blank line;
    /// then always "Nodes searched: <N>" and "time <ms> nps <n>". A bad variant, position or
    /// move is reported on one line on stderr with exit status 2.
    Perft(cli::perft::PerftArgs),
    /// Search one position and print the info lines and the best move.
    ///
    /// Prints one "info depth .. score .. pv .." line per completed iteration, then
    /// "bestmove <move>" ("(none)" when the game is over). Give at least one limit.
    Analyze(cli::analyze::AnalyzeArgs),
    /// Search fixed positions of every variant to a fixed depth, one thread, cleared table.
    ///
    /// Prints one line per position and, last, "<N> nodes <M> nps". N is the same on every
    /// run and machine: it changes only when the search's behaviour changes.
    Bench(cli::bench::BenchArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format_timestamp(None)
        .init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version: clap prints them on stdout and we exit 0.
            error.exit();
        }
        Err(error) => return cli::fail(&cli::first_line(&error.to_string())),
    };
    let result = match cli.command {
        Command::Perft(args) => cli::perft::run(&args),
        Command::Analyze(args) => cli::analyze::run(&args),
        Command::Bench(args) => cli::bench::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => cli::fail(&message),
    }
}
