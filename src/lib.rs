//! ternion: a headless engine for three abstract games behind one text protocol.
//!
//! Module map:
//!
//! - [`game`]: the [`Game`](game::Game) and [`GameText`](game::GameText) traits, players and
//!   outcomes, the [`Variant`](game::Variant) dispatch, Zobrist keys, generic perft, and the
//!   games themselves (`game::lielow`, `game::egaraguti`, `game::lerontenin`);
//! - [`search`]: alpha-beta search over any game, with its transposition table, move
//!   ordering and time management.
//! - [`protocol`]: the text protocol's commands, parsed from lines;
//! - [`bench`]: the fixed search workload whose node count signs the search's behaviour.
#![forbid(unsafe_code)]

pub mod bench;
pub mod game;
pub mod protocol;
pub mod search;
