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
    /// A records file of `ternion match --records`: draw one of its games.
    #[arg(long, value_name = "FILE", requires_all = ["game", "svg_dir"], conflicts_with_all = ["fen", "moves"])]
    record: Option<PathBuf>,
    /// The number of the game in the records file.
    #[arg(long, value_name = "N", requires = "record")]
    game: Option<u32>,
    /// The directory for the game's pictures: `game<N>-<ply>.svg`, ply 0 the start.
    #[arg(long, value_name = "DIR", requires = "record")]
    svg_dir: Option<PathBuf>,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &ShowArgs) -> Result<(), String> {
    ternion::with_game!(args.position.variant()?, G => show::<G>(args))
}

fn show<G: Playable>(args: &ShowArgs) -> Result<(), String> {
    if let (Some(record), Some(number), Some(dir)) = (&args.record, args.game, &args.svg_dir) {
        return draw_record::<G>(record, number, dir);
    }
    let (game, last) = args.position.position_and_last_move::<G>()?;
    match &args.svg {
        Some(path) => fs::write(path, game.svg(last))
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
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

/// Draws game `number` of the records file at `path`, one picture per ply, into `dir`.
fn draw_record<G: Playable>(path: &Path, number: u32, dir: &Path) -> Result<(), String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
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
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut last = None;
    for ply in 0..=moves.len() {
        let file = dir.join(format!("game{number}-{ply:03}.svg"));
        fs::write(&file, game.svg(last))
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        if let Some(text) = moves.get(ply) {
            let mv = game
                .parse_move(text)
                .map_err(|e| format!("game {number}, ply {}: {e}", ply + 1))?;
            game.make_move(mv);
            last = Some(mv);
        }
    }
    Ok(())
}
