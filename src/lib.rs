//! ternion: a headless engine for three abstract games behind one text protocol.
//!
//! Module map:
//!
//! - [`game`]: the [`Game`](game::Game) and [`GameText`](game::GameText) traits, players and
//!   outcomes, the [`Variant`](game::Variant) dispatch, Zobrist keys, generic perft, and the
//!   games themselves (`game::lielow`, `game::egaraguti`, `game::lerontenin`);
//! - [`search`]: alpha-beta search over any game, with its transposition table, move
//!   ordering and time management.
//! - [`engine`]: the protocol-free facade: a game session of a variant chosen at run time,
//!   its search on a worker thread, output through a line sink;
//! - [`protocol`]: the text protocol: commands, the daemon's state, the serve loop;
//! - [`bench`]: the fixed search workload whose node count signs the search's behaviour;
//! - [`gui`]: `ternion gui`, the board page and its protocol WebSocket on the loopback;
//! - [`arena`]: engine-vs-engine matches between child processes, refereed by the rules;
//! - [`tables`]: Egara-guti's exact tables: the retrograde solver, the files, the probe;
//! - [`tune`]: self-play data and the tuner that fits the evaluation's weights to it;
//! - [`printable`]: untrusted text made safe to echo in a one-line reply;
//! - [`svg`]: the small SVG writer the games draw their pictures with.
#![forbid(unsafe_code)]

pub mod arena;
pub mod bench;
pub mod engine;
pub mod game;
pub mod gui;
pub mod printable;
pub mod protocol;
pub mod search;
pub mod svg;
pub mod tables;
pub mod tune;
