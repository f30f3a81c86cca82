//! `ternion analyze`: search one position and print what the search finds, as the protocol
//! would (`info ...` lines, then `bestmove <move>`).

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use ternion::engine::{Listener, SearchFlags, SearchJob, new_session};
use ternion::games::{LoadedTables, Playable};
use ternion::protocol::format;
use ternion::protocol::options::DEFAULT_HASH_MIB;
use ternion::search::Limits;

use super::evaluation::EvaluationArgs;
use super::position::PositionArgs;

/// The deepest search there is (the search's own bound).
const MAX_DEPTH: u32 = ternion::search::MAX_PLY as u32 - 1;
/// Deeper than this, a search without another limit may not end in useful time.
const DEEP: u32 = 30;

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Search to this depth in plies (at most 127; 0 searches one ply, as `go depth 0`
    /// does: every search completes its first ply).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table size in MiB (from 1 to half the machine's memory, as the protocol's Hash).
    #[arg(long, default_value_t = DEFAULT_HASH_MIB as usize, value_name = "MIB", value_parser = super::hash_mib)]
    hash: usize,
    /// Search threads (more than one makes results vary from run to run; at most twice
    /// the cores, as the protocol's Threads).
    #[arg(long, default_value_t = 1, value_parser = super::search_threads)]
    threads: usize,
    /// Probe the exact tables in this directory (Egara-guti's, see `ternion tables`).
    #[arg(long, value_name = "DIR")]
    tables: Option<std::path::PathBuf>,
    /// Print the position's diagram (as the protocol's `d` draws it) before searching.
    #[arg(long)]
    show: bool,
    #[command(flatten)]
    evaluation: EvaluationArgs,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    let variant = args.position.variant()?;
    if args.depth.is_none() && args.movetime.is_none() && args.nodes.is_none() {
        return Err("give a limit: --depth, --movetime or --nodes".into());
    }
    if let Some(depth) = args.depth
        && depth > DEEP
        && args.movetime.is_none()
        && args.nodes.is_none()
    {
        super::warn(&format!(
            "a search to depth {depth} may run for hours unless it proves a result first; \
             add --movetime or --nodes to bound it"
        ));
    }
    super::end_when_stdout_closes();
    ternion::with_game!(variant, G => analyze::<G>(args))
}

/// Searches the position through the engine, as the protocol's `go` does, and prints its
/// lines: the engine alone decides what a finished game's answer is.
fn analyze<G: Playable>(args: &AnalyzeArgs) -> Result<(), String> {
    // The position and the network are read here first, for the command line's messages.
    let _: G = args.position.position()?;
    let evaluation = args.evaluation.choice::<G>()?;
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let mut session = new_session(G::VARIANT, args.hash);
    session
        .set_position(args.position.fen(), &args.position.moves())
        .map_err(|e| format!("bad position: {e}"))?;
    session.set_threads(args.threads);
    session.set_evaluation(&evaluation);
    if let Some(dir) = &args.tables {
        let tables = LoadedTables::load(dir)?;
        if tables.is_empty() {
            return Err(format!("no tables in {}", dir.display()));
        }
        session.set_tables(&tables);
    }
    if args.show {
        super::print(&(session.diagram().join("\n") + "\n"), "the diagram")?;
    }
    // A closed stdout ends the printing, not the command.
    let listener: Listener = Arc::new(|event| {
        let _ = writeln!(io::stdout().lock(), "{}", format::event(&event));
    });
    let job = SearchJob {
        limits,
        multipv: 1,
        ..SearchJob::default()
    };
    let search = session.start_search(job, SearchFlags::new(false, false), listener);
    search
        .join()
        .map_err(|_| "the search thread failed".to_string())
}
