//! `ternion perft`: perft and divide from the command line, for any variant.

use std::io::{self, Write};
use std::time::Instant;

use clap::Args;
use ternion::game::perft::{divide, perft};
use ternion::game::{GameText, GameVisitor, Variant};

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The variant: lielow (8x8) or lielow9 (9x9).
    variant: String,
    /// Depth in plies.
    depth: u32,
    /// Start from this position string instead of the start position.
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    fen: Option<String>,
    /// Play these moves first (space-separated, one or several arguments).
    #[arg(long, num_args = 1.., value_name = "MOVE", allow_hyphen_values = true)]
    moves: Vec<String>,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    let variant: Variant = args.variant.parse().map_err(|e| format!("{e}"))?;
    variant.dispatch(PerftCommand { args })
}

struct PerftCommand<'a> {
    args: &'a PerftArgs,
}

impl GameVisitor for PerftCommand<'_> {
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

        let started = Instant::now();
        let mut out = io::stdout().lock();
        let nodes = if args.divide && args.depth > 0 {
            let counts = divide(&mut game, args.depth);
            for &(mv, count) in &counts {
                writeln!(out, "{}: {count}", game.move_string(mv)).map_err(write_error)?;
            }
            writeln!(out).map_err(write_error)?;
            counts.iter().map(|&(_, count)| count).sum()
        } else {
            perft(&mut game, args.depth)
        };
        let elapsed = started.elapsed();
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
        writeln!(out, "Nodes searched: {nodes}").map_err(write_error)?;
        writeln!(out, "time {} nps {nps}", elapsed.as_millis()).map_err(write_error)?;
        Ok(())
    }
}

fn write_error(error: io::Error) -> String {
    format!("cannot write the result: {error}")
}
