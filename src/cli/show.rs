//! `ternion show`: a position as the protocol's text diagram or as an SVG picture, and a
//! recorded game as one picture per ply.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use ternion::arena::record::parse_records;
use ternion::games::Playable;
use ternion::protocol::format;

use super::position::PositionArgs;

#[derive(Debug, Args)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Write the picture as SVG to this file instead of the diagram to stdout.
    #[arg(long, value_name = "FILE", conflicts_with = "record")]
    svg: Option<PathBuf>,
    /// A records file of `ternion match --records`: draw one of its games, every ply's
    /// diagram on stdout (or one ply's, with --ply), or its pictures with --svg-dir.
    #[arg(long, value_name = "FILE", requires = "game", conflicts_with_all = ["fen", "moves"])]
    record: Option<PathBuf>,
    /// The number of the game in the records file.
    #[arg(long, value_name = "N", requires = "record")]
    game: Option<u32>,
    /// The directory for the game's pictures: `game<N>-<ply>.svg`, ply 0 the start.
    #[arg(long, value_name = "DIR", requires = "record")]
    svg_dir: Option<PathBuf>,
    /// Only this ply of the recorded game (0: its start), as a diagram.
    #[arg(
        long,
        value_name = "K",
        requires = "record",
        conflicts_with = "svg_dir"
    )]
    ply: Option<usize>,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &ShowArgs) -> Result<(), String> {
    ternion::with_game!(args.position.variant()?, G => show::<G>(args))
}

fn show<G: Playable>(args: &ShowArgs) -> Result<(), String> {
    if let (Some(record), Some(number)) = (&args.record, args.game) {
        return match &args.svg_dir {
            Some(dir) => draw_record::<G>(record, number, dir),
            None => print_record::<G>(record, number, args.ply),
        };
    }
    let (game, last) = args.position.position_and_last_move::<G>()?;
    match &args.svg {
        Some(path) => write_picture(path, &game.svg(last)),
        None => {
            let mut out = io::stdout().lock();
            // The picture, then whose turn it is (or the result), as `d` says it.
            let mut text = game.diagram().join("\n");
            match game.outcome() {
                None => text.push_str(&format!(
                    "\nSide to move: {}",
                    format::player_word(game.side_to_move())
                )),
                Some(outcome) => {
                    text.push_str(&format!("\nResult: {}", format::result_word(Some(outcome))))
                }
            }
            text.push('\n');
            out.write_all(text.as_bytes())
                .map_err(|e| format!("cannot write the diagram: {e}"))
        }
    }
}

/// Every position of a game from its start, each with the move that led to it (none at
/// ply 0).
type Replay<G> = Vec<(G, Option<<G as ternion::rules::Rules>::Move>)>;

/// Game `number` of the records file at `path`, replayed.
fn replay_record<G: Playable>(path: &Path, number: u32) -> Result<Replay<G>, String> {
    let text = ternion::core::files::read_text(path)?;
    let records = parse_records(&text)?;
    let record = records
        .iter()
        .find(|r| r.tag("Game") == Some(&number.to_string()))
        .ok_or_else(|| format!("no game {number} in {}", path.display()))?
        .to_game_record()?;
    if record.variant != G::VARIANT {
        return Err(format!(
            "game {number} is {}, not {}",
            record.variant,
            G::VARIANT
        ));
    }
    // From the variant's start through the opening, when the opening leads to the recorded
    // start; else from the recorded start.
    let opening: Vec<&str> = record.opening.iter().map(String::as_str).collect();
    let mut after_opening = G::start();
    let (mut game, mut moves) = if after_opening.play_moves(opening.iter().copied()).is_ok()
        && after_opening.position_string() == record.start
    {
        (G::start(), opening)
    } else {
        let start = G::parse_position(&record.start)
            .map_err(|e| format!("game {number}: bad start: {e}"))?;
        (start, Vec::new())
    };
    moves.extend(record.moves.iter().map(String::as_str));
    let mut positions = vec![(game.clone(), None)];
    for (ply, text) in moves.iter().enumerate() {
        let mv = game
            .parse_move(text)
            .map_err(|e| format!("game {number}, ply {}: {e}", ply + 1))?;
        game.make_move(mv);
        positions.push((game.clone(), Some(mv)));
    }
    Ok(positions)
}

/// Writes a picture to `path`, a new path or a regular file (see `ternion::core::output`).
fn write_picture(path: &Path, svg: &str) -> Result<(), String> {
    ternion::core::output::create(path, &[])
        .and_then(|mut file| file.write_all(svg.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Draws game `number` of the records file at `path`, one picture per ply, into `dir`.
fn draw_record<G: Playable>(path: &Path, number: u32, dir: &Path) -> Result<(), String> {
    let positions = replay_record::<G>(path, number)?;
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (ply, (game, last)) in positions.iter().enumerate() {
        let file = dir.join(format!("game{number}-{ply:03}.svg"));
        write_picture(&file, &game.svg(*last))?;
    }
    Ok(())
}

/// Prints game `number` of the records file at `path` as diagrams: every ply's, headed by
/// the ply and its move, or only ply `only`'s.
fn print_record<G: Playable>(path: &Path, number: u32, only: Option<usize>) -> Result<(), String> {
    let positions = replay_record::<G>(path, number)?;
    let plies = positions.len() - 1;
    if let Some(ply) = only.filter(|&ply| ply > plies) {
        return Err(format!(
            "game {number} has {} (no ply {ply})",
            ternion::core::printable::plies(plies as u64)
        ));
    }
    let mut text = String::new();
    let mut before: Option<&G> = None;
    for (ply, (game, last)) in positions.iter().enumerate() {
        if only.is_none_or(|wanted| wanted == ply) {
            let led = match (before, last) {
                (Some(previous), Some(mv)) => format!(": {}", previous.move_string(*mv)),
                _ => " (the start)".to_owned(),
            };
            text.push_str(&format!("game {number}, ply {ply}{led}\n"));
            text.push_str(&game.diagram().join("\n"));
            text.push_str("\n\n");
        }
        before = Some(game);
    }
    super::print(&text, "the diagrams")
}
