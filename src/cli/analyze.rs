//! `ternion analyze`: search one position and print what the search finds, as the protocol
//! would (`info ...` lines, then `bestmove <move>`).

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use ternion::game::{GameText, GameVisitor, Variant};
use ternion::search::report::info_line;
use ternion::search::{Limits, Searcher};

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The variant: lielow (8x8), lielow9 (9x9), egaraguti or lerontenin.
    variant: String,
    /// Start from this position string instead of the start position.
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    fen: Option<String>,
    /// Play these moves first (space-separated, one or several arguments).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Search to this depth in plies.
    #[arg(long)]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16, value_name = "MIB")]
    hash: usize,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    let variant: Variant = args.variant.parse().map_err(|e| format!("{e}"))?;
    if args.depth.is_none() && args.movetime.is_none() && args.nodes.is_none() {
        return Err("give a limit: --depth, --movetime or --nodes".into());
    }
    variant.dispatch(Analyze { args })
}

struct Analyze<'a> {
    args: &'a AnalyzeArgs,
}

impl GameVisitor for Analyze<'_> {
    type Output = Result<(), String>;

    fn visit<G: GameText>(self) -> Self::Output {
        let args = self.args;
        let mut game = match &args.fen {
            Some(text) => G::parse_position(text).map_err(|e| format!("bad position: {e}"))?,
            None => G::start(),
        };
        let moves = args.moves.iter().flat_map(|m| m.split_ascii_whitespace());
        game.play_moves(moves)
            .map_err(|(ply, e)| format!("bad move at ply {ply}: {e}"))?;
        let limits = Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: args.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        let mut searcher = Searcher::<G>::new(args.hash.clamp(1, 4096));
        let stop = AtomicBool::new(false);
        let mut out = io::stdout().lock();
        // A closed stdout ends the printing, not the command.
        let result = searcher.search(&game, &limits, &stop, &mut |info| {
            let _ = writeln!(out, "{}", info_line(&game, info));
        });
        let best = result
            .best
            .map_or_else(|| "(none)".to_owned(), |mv| game.move_string(mv));
        let _ = writeln!(out, "bestmove {best}");
        Ok(())
    }
}
