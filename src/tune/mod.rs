//! Learning the evaluation from the engine's own games: self-play data ([`selfplay`], read
//! back by [`data`]), the tuner that fits the hand-written evaluation's weights to it
//! ([`texel`]), the trainer of a game's network ([`train`]), and Egara-guti's exact tables
//! as a teacher ([`exact`]: data relabelled, positions labelled with their value). The
//! tuner works on the
//! features each game lists (`eval`), the trainer on each game's network inputs, so what
//! either fits is exactly what the engine evaluates.

pub mod data;
pub mod exact;
pub mod selfplay;
pub mod texel;
pub mod train;
