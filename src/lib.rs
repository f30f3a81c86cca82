//! ternion: a headless engine for three abstract games behind one text protocol.
//!
//! Module map:
//!
//! - [`game`]: the [`Game`](game::Game) and [`GameText`](game::GameText) traits, players and
//!   outcomes, the [`Variant`](game::Variant) dispatch, Zobrist keys, generic perft, and the
//!   games themselves (`game::lielow`, ...).
#![forbid(unsafe_code)]

pub mod game;
