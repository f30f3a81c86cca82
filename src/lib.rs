//! ternion: a headless engine for three abstract games behind one text protocol.
//!
//! The rooms, each using only those listed before it:
//!
//! - [`core`]: the vocabulary: players, outcomes, win/draw/loss, bit sets, Zobrist keys,
//!   the errors of the text forms, untrusted text made safe to echo, the files a user names
//!   opened with care, the shard of a long run, the one module allowed `unsafe` (memory);
//! - [`svg`]: the small SVG writer;
//! - [`rules`]: the [`Rules`](rules::Rules), [`Notation`](rules::Notation) and
//!   [`Picture`](rules::Picture) traits and generic perft;
//! - [`eval`]: evaluation as a weighted sum of features ([`Evaluate`](eval::Evaluate)),
//!   or a small efficiently updated network on a game's inputs (`eval::network`);
//! - [`search`]: alpha-beta search over any [`Searchable`](search::Searchable) game, with
//!   its transposition table, move ordering, time management, an
//!   [`Oracle`](search::Oracle) for exact values, and the baseline movers;
//! - [`games`]: Lielow, Egara-guti (with its exact tables) and Lerontenin, the
//!   [`Variant`](games::Variant) chosen at run time and [`with_game!`] to reach its type;
//! - [`bench`](mod@bench): the fixed search workload whose node count signs the search's behaviour;
//! - [`engine`]: the protocol-free session: a game of a variant chosen at run time, its
//!   search on a worker thread, typed events out;
//! - [`protocol`]: the text protocol: commands, options, every line the daemon writes, the
//!   serve loop;
//! - [`arena`]: engine-vs-engine matches between child processes, refereed by the rules;
//! - [`tune`]: self-play data, the tuner that fits the evaluation's weights to it, and the
//!   trainer of the networks;
//! - [`gui`]: `ternion gui`, the board page and its protocol WebSocket on the loopback;
//! - [`http`]: the one HTTP door of `gui` and `abstractplay`: a request read within its
//!   deadlines and caps, an answer written with its reason phrase;
//! - [`abstractplay`]: the bot that plays on AbstractPlay: its webhook endpoint (signatures
//!   checked), each game rebuilt and thought about on its clock, its moves posted back.
// `unsafe` is denied everywhere (Cargo.toml's lints) but in `core::memory`, which allows it
// for its system calls.

#[cfg(feature = "abstractplay")]
pub mod abstractplay;
pub mod arena;
pub mod bench;
pub mod core;
pub mod engine;
pub mod eval;
pub mod games;
#[cfg(feature = "gui")]
pub mod gui;
#[cfg(any(feature = "gui", feature = "abstractplay"))]
pub mod http;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod svg;
pub mod tune;
