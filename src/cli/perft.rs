//! `ternion perft`: perft and divide from the command line, for any variant.

use std::io::{self, Write};
use std::time::Instant;

use clap::Args;
use ternion::game::perft::{divide, perft};
use ternion::game::{GameText, GameVisitor};

use super::position::PositionArgs;

#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Depth in plies.
    depth: u32,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    args.position.variant()?.dispatch(PerftCommand { args })
}

struct PerftCommand<'a> {
    args: &'a PerftArgs,
}

impl GameVisitor for PerftCommand<'_> {
    type Output = Result<(), String>;

    fn visit<G: GameText>(self) -> Self::Output {
        match self.count::<G>() {
            // A reader that stopped reading (`| head`) is no error of ours.
            Err(Failure::Write(error)) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            Err(Failure::Write(error)) => Err(format!("cannot write the result: {error}")),
            Err(Failure::Input(message)) => Err(message),
            Ok(()) => Ok(()),
        }
    }
}

/// Why the command failed: bad input, or stdout refused the output.
enum Failure {
    Input(String),
    Write(io::Error),
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        Failure::Write(error)
    }
}

impl PerftCommand<'_> {
    fn count<G: GameText>(self) -> Result<(), Failure> {
        let args = self.args;
        let mut game: G = args.position.position().map_err(Failure::Input)?;

        let started = Instant::now();
        let mut out = io::stdout().lock();
        let nodes = if args.divide && args.depth > 0 {
            let counts = divide(&mut game, args.depth);
            for &(mv, count) in &counts {
                writeln!(out, "{}: {count}", game.move_string(mv))?;
            }
            writeln!(out)?;
            counts.iter().map(|&(_, count)| count).sum()
        } else {
            perft(&mut game, args.depth)
        };
        let elapsed = started.elapsed();
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
        writeln!(out, "Nodes searched: {nodes}")?;
        writeln!(out, "time {} nps {nps}", elapsed.as_millis())?;
        Ok(())
    }
}
