//! `tables probe`, `tables line` and `tables starts`: what the tables say of a position,
//! of each of its moves and of its perfect play, and positions of a value asked for.

use std::path::PathBuf;

use clap::Args;
use ternion::core::printable::plies;
use ternion::core::{Outcome, Wdl};
use ternion::games::egaraguti::EgaraGuti;
use ternion::games::egaraguti::tablebase::index::Material;
use ternion::games::egaraguti::tablebase::sample;
use ternion::games::egaraguti::tablebase::{Tablebase, line, men_of};
use ternion::protocol::format::result_word;
use ternion::rules::{Notation, Rules};

use super::{existing_dir, parse_men, parse_wdl, value_words};
use crate::cli::position::PositionArgs;
use crate::cli::print;

#[derive(Debug, Args)]
#[command(mut_arg("variant", |arg| arg.help("The variant: only egaraguti has tables")))]
pub struct ProbeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
}

#[derive(Debug, Args)]
#[command(mut_arg("variant", |arg| arg.help("The variant: only egaraguti has tables")))]
pub struct LineArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// The most plies of the line.
    #[arg(long, default_value_t = 2_000)]
    plies: usize,
}

#[derive(Debug, Args)]
pub struct StartsArgs {
    /// The variant: only egaraguti has tables.
    pub variant: String,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// The men of each side, the first player's first: 4+4, 5+3.
    #[arg(long, value_name = "P1+P2", value_parser = parse_men)]
    men: [usize; 2],
    /// The value for the side to move: win, draw or loss.
    #[arg(long, value_parser = parse_wdl)]
    value: Wdl,
    /// How many positions.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    count: u32,
    /// The seed of the draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Prints the position's value by the tables, its distance and whether it is exact.
pub fn run_probe(args: &ProbeArgs) -> Result<(), String> {
    let game: EgaraGuti = args.position.position()?;
    let mut line = match game.outcome() {
        Some(outcome) => {
            let value = value_of_finished(&game, outcome);
            format!("{value} for the side to move: the game is over")
        }
        None => {
            existing_dir(&args.dir)?;
            let mut tables = Tablebase::new(&args.dir);
            let material = men_of(&game).material();
            if !tables.load(material)? {
                return Err(format!("no table for {material} in {}", args.dir.display()));
            }
            // A compact table values a capture by the lower levels: load the whole set.
            let probe = match tables.probe(&game) {
                Some(probe) => probe,
                None => Tablebase::load_all(&args.dir)?
                    .probe(&game)
                    .ok_or_else(|| {
                        format!("the tables in {} miss a lower level", args.dir.display())
                    })?,
            };
            let mut line = value_words(&probe);
            if !probe.exact {
                line.push_str(&format!(
                    "; not exact at the counter {}: the value holds at counter 0",
                    game.quiet_plies()
                ));
            }
            line
        }
    };
    line.push('\n');
    print(&line, "the output")
}

/// Prints the position's value, every legal move's, and a line of perfect play.
pub fn run_line(args: &LineArgs) -> Result<(), String> {
    let game: EgaraGuti = args.position.position()?;
    if let Some(outcome) = game.outcome() {
        // As probe says it, then the empty line and its result.
        let text = format!(
            "{} for the side to move: the game is over\nline \nresult {} after {}\n",
            value_of_finished(&game, outcome),
            result_word(Some(outcome)),
            plies(0u64)
        );
        return print(&text, "the output");
    }
    existing_dir(&args.dir)?;
    let tables = Tablebase::load_all(&args.dir)?;
    let probe = tables.probe(&game).ok_or_else(|| {
        format!(
            "no table for {} in {}",
            men_of(&game).material(),
            args.dir.display()
        )
    })?;
    let mut out = value_words(&probe);
    out.push('\n');
    let values = line::move_values(&game, &tables)?;
    for value in &values {
        out.push_str(&format!(
            "move {} {} in {}\n",
            game.move_string(value.mv),
            value.value.name(),
            plies(value.distance)
        ));
    }
    let (moves, outcome) = line::perfect_line(&game, &tables, args.plies)?;
    out.push_str(&format!("line {}\n", game.line_notation(&moves).join(" ")));
    let result = outcome.map_or("unfinished", |outcome| result_word(Some(outcome)));
    out.push_str(&format!(
        "result {result} after {}\n",
        plies(moves.len() as u64)
    ));
    print(&out, "the output")
}

/// A finished game's value for the side to move, as a word.
fn value_of_finished(game: &EgaraGuti, outcome: Outcome) -> &'static str {
    Wdl::of(outcome, game.side_to_move()).name()
}

/// Prints seeded random positions of a level worth the value asked for.
pub fn run_starts(args: &StartsArgs) -> Result<(), String> {
    existing_dir(&args.dir)?;
    let tables = Tablebase::load_all(&args.dir)?;
    let [first, second] = args.men;
    let (level, other) = (first.max(second), first.min(second));
    if tables
        .get(Material {
            mover: level,
            other,
        })
        .is_none()
    {
        return Err(format!(
            "no table of {first}+{second} men in {}",
            args.dir.display()
        ));
    }
    let found = sample::positions_of_value(
        &tables,
        args.men,
        args.value,
        args.count as usize,
        args.seed,
    );
    let mut out = String::new();
    for game in &found {
        out.push_str(&game.position_string());
        out.push('\n');
    }
    print(&out, "the output")?;
    match found.len() < args.count as usize {
        true => Err(format!(
            "only {} positions of {first}+{second} men are worth a {} to the side to move",
            found.len(),
            args.value.name()
        )),
        false => Ok(()),
    }
}
