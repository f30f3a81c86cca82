//! The `ternion` command: subcommands for people and scripts.

mod cli;

use std::ffi::OsString;
use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ternion::search::mover::Mover;

/// ternion: a headless engine for Lielow, Egara-guti and Lerontenin.
///
/// Without a subcommand it serves the UGI/UCI text protocol on stdin and stdout (type
/// `help` there). Variants: lielow (8x8), lielow9 (9x9), egaraguti, lerontenin.
#[derive(Debug, Parser)]
#[command(name = "ternion", version, about, long_about)]
struct Cli {
    /// The variant the protocol starts with.
    #[arg(long, value_name = "VARIANT", default_value = "lielow")]
    variant: String,
    /// How the protocol's `go` picks moves: the search (at the `Skill Level` the options
    /// set), a fixed level (level:N, 0 <= N <= 19, whatever the options say), or a
    /// baseline opponent for arenas and front ends (random: any legal move; greedy: the
    /// best-looking move one ply ahead; greedy:P, 1 <= P <= 99: the greedy move P times in
    /// 100, else a random one), among `go searchmoves` when given. The baselines ignore
    /// the limits of `go` and answer at once, but for `go infinite` and a bare `go` (after
    /// `stop`) and `go ponder` (after `ponderhit`).
    #[arg(long, value_name = "HOW", default_value = "search", value_parser = parse_play)]
    play: String,
    #[command(subcommand)]
    command: Option<Command>,
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
    /// Play engine-vs-engine games, refereed by the rules library.
    ///
    /// Prints one progress line per game on stderr (result, W/D/L, score, Elo) and a summary
    /// on stdout: W/D/L, score, Elo with its 95% interval, draw ratio, results by colour,
    /// average length, the SPRT state, and every game lost other than by the rules.
    Match(cli::arena::MatchArgs),
    /// Summarise a match from its records, such as the shards of one match merged.
    ///
    /// Prints the summary `ternion match` prints (W/D/L, score, Elo with its interval, draw
    /// ratio, results by colour, average length, the SPRT state with --sprt, and every game
    /// lost other than by the rules). The first engine is the one playing p1 in game 1.
    Stats(cli::stats::StatsArgs),
    /// Play the engine against itself and write quiet positions with the games' results.
    ///
    /// Prints "<result> <position> ; <score>" lines (both from the first player's side: the
    /// result 1, 0 or 0.5, the search's score in centipawns) to --out or stdout, and
    /// progress on stderr. The data of `ternion tune` and `ternion train`.
    Selfplay(cli::selfplay::SelfplayArgs),
    /// Fit a variant's evaluation weights to self-play data.
    ///
    /// Prints the errors before and after, each feature's weight before and after, and the
    /// new table as Rust source for the game's weights.rs. Progress goes to stderr.
    Tune(cli::tune::TuneArgs),
    /// Train a variant's network on self-play data, and write its file.
    ///
    /// Prints a line an epoch on stderr (positions a second, training and validation loss)
    /// and writes the best epoch's network, quantised, to --out: the file `EvalFile` loads.
    Train(cli::train::TrainArgs),
    /// Build or probe Egara-guti's exact tables (every position of a few men, solved).
    ///
    /// `tables build egaraguti --men K --dir D` solves every level of at most K men, fewest
    /// first, resumable; `tables probe egaraguti --fen F --dir D` prints a position's value.
    Tables(cli::tables::TablesArgs),
    /// Show a position as the text diagram, or as an SVG picture with --svg.
    ///
    /// With --record, --game and --svg-dir, writes one picture per ply of a game that
    /// `ternion match --records` recorded: game<N>-000.svg (the start), game<N>-001.svg, ...
    Show(cli::show::ShowArgs),
    /// Serve a board in the browser: one page and a WebSocket speaking the protocol.
    ///
    /// Binds 127.0.0.1 only, prints the page's address on stdout and serves until killed.
    #[cfg(feature = "gui")]
    Gui(cli::gui::GuiArgs),
    /// Serve a board in the browser (not in this build: it needs the `gui` feature).
    #[cfg(not(feature = "gui"))]
    Gui(cli::Absent),
    /// Play Lielow on AbstractPlay as a bot: answer its signed webhooks, post the moves.
    ///
    /// Listens on the loopback address behind a TLS-terminating reverse proxy, takes the
    /// bot's credentials from AP_BOT_CLIENT_ID and AP_BOT_CLIENT_SECRET, logs each
    /// challenge and move on stderr and serves until killed (docs/abstractplay.md).
    #[cfg(feature = "abstractplay")]
    Abstractplay(cli::abstractplay::AbstractplayArgs),
    /// Play Lielow on AbstractPlay as a bot (not in this build: it needs the
    /// `abstractplay` feature).
    #[cfg(not(feature = "abstractplay"))]
    Abstractplay(cli::Absent),
}

/// A `--play` value, checked: the text as given.
fn parse_play(text: &str) -> Result<String, String> {
    text.parse::<Mover>().map(|_| text.to_owned())
}

/// Serves the protocol, starting with `variant`, answering `go` as `play` says.
fn serve(variant: &str, play: &str) -> Result<(), String> {
    let variant: ternion::games::Variant = variant.parse().map_err(|e| format!("{e}"))?;
    let play: Mover = play.parse()?;
    if std::io::stdin().is_terminal() {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "ternion {}: type 'help' for the commands, 'quit' to leave",
            env!("CARGO_PKG_VERSION")
        );
    }
    ternion::protocol::serve(variant, play);
    Ok(())
}

/// The command line with `help --help` (or `-h`) read as `help`: clap's own help
/// subcommand takes subcommand names, not flags, and would refuse it.
fn help_flags_as_help(args: impl Iterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.collect();
    if args.get(1).is_some_and(|word| word == "help") {
        args.retain(|word| word != "--help" && word != "-h");
    }
    args
}

/// Starts the log on stderr: warnings only, but for the bot service, whose log of each
/// challenge and move (with its time) is what its owner reads. `RUST_LOG` overrides both.
fn start_log(command: Option<&Command>) {
    let service = matches!(command, Some(Command::Abstractplay(_)));
    let level = if service { "info" } else { "warn" };
    let mut log =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level));
    match service {
        true => log.format_timestamp_secs(),
        false => log.format_timestamp(None),
    };
    log.init();
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(help_flags_as_help(std::env::args_os())) {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version: clap prints them on stdout and we exit 0.
            error.exit();
        }
        Err(error) => return cli::fail(&cli::first_line(&error.to_string())),
    };
    start_log(cli.command.as_ref());
    let result = match cli.command {
        None => serve(&cli.variant, &cli.play),
        Some(Command::Perft(args)) => cli::perft::run(&args),
        Some(Command::Analyze(args)) => cli::analyze::run(&args),
        Some(Command::Bench(args)) => cli::bench::run(&args),
        Some(Command::Match(args)) => cli::arena::run(&args),
        Some(Command::Stats(args)) => cli::stats::run(&args),
        Some(Command::Selfplay(args)) => cli::selfplay::run(&args),
        Some(Command::Tune(args)) => cli::tune::run(&args),
        Some(Command::Train(args)) => cli::train::run(&args),
        Some(Command::Tables(args)) => cli::tables::run(&args),
        Some(Command::Show(args)) => cli::show::run(&args),
        #[cfg(feature = "gui")]
        Some(Command::Gui(args)) => cli::gui::run(&args),
        #[cfg(not(feature = "gui"))]
        Some(Command::Gui(_)) => cli::absent("gui", "gui"),
        #[cfg(feature = "abstractplay")]
        Some(Command::Abstractplay(args)) => cli::abstractplay::run(&args),
        #[cfg(not(feature = "abstractplay"))]
        Some(Command::Abstractplay(_)) => cli::absent("abstractplay", "abstractplay"),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => cli::fail(&message),
    }
}
