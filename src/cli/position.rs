//! The arguments that say which game and which position a command works on.

use clap::Args;
use ternion::games::{Playable, Variant};

#[derive(Debug, Args)]
pub struct PositionArgs {
    /// The variant: lielow (8x8), lielow9 (9x9), egaraguti or lerontenin.
    variant: String,
    /// Start from this position string instead of the start position.
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    fen: Option<String>,
    /// Play these moves first (space-separated, one or several arguments).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
}

impl PositionArgs {
    /// The variant as given, not yet read.
    pub fn variant_name(&self) -> &str {
        &self.variant
    }

    /// The position string given, if any (the start otherwise).
    pub fn fen(&self) -> Option<&str> {
        self.fen.as_deref()
    }

    /// The moves given, one a word.
    pub fn moves(&self) -> Vec<String> {
        let moves = self.moves.iter().flat_map(|m| m.split_ascii_whitespace());
        moves.map(str::to_owned).collect()
    }

    /// The variant named, or the one-line reason it is none.
    pub fn variant(&self) -> Result<Variant, String> {
        self.variant.parse().map_err(|e| format!("{e}"))
    }

    /// The position given (start or string) after the moves given, or the one-line reason
    /// it cannot be set up.
    pub fn position<G: Playable>(&self) -> Result<G, String> {
        let mut game = match &self.fen {
            Some(text) => G::parse_position(text).map_err(|e| format!("bad position: {e}"))?,
            None => G::start(),
        };
        let moves = self.moves.iter().flat_map(|m| m.split_ascii_whitespace());
        game.play_moves(moves)
            .map_err(|(ply, e)| format!("bad move at ply {ply}: {e}"))?;
        Ok(game)
    }

    /// The position as [`PositionArgs::position`] gives it, with the last move played,
    /// if any.
    pub fn position_and_last_move<G: Playable>(&self) -> Result<(G, Option<G::Move>), String> {
        let moves: Vec<&str> = self
            .moves
            .iter()
            .flat_map(|m| m.split_ascii_whitespace())
            .collect();
        let Some((&last, before)) = moves.split_last() else {
            return Ok((self.position()?, None));
        };
        let mut game = match &self.fen {
            Some(text) => G::parse_position(text).map_err(|e| format!("bad position: {e}"))?,
            None => G::start(),
        };
        game.play_moves(before.iter().copied())
            .map_err(|(ply, e)| format!("bad move at ply {ply}: {e}"))?;
        let mv = game
            .parse_move(last)
            .map_err(|e| format!("bad move at ply {}: {e}", moves.len()))?;
        game.make_move(mv);
        Ok((game, Some(mv)))
    }
}
