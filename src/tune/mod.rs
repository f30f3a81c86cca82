//! Learning the evaluation from the engine's own games: self-play data ([`selfplay`]) and
//! the tuner that fits the evaluation's weights to it ([`texel`]). Both work on the
//! features each game lists (`eval`), so what the tuner fits is exactly what the
//! engine evaluates.

pub mod selfplay;
pub mod texel;
