//! Engine-vs-engine matches with a referee that knows the rules.
//!
//! - [`process`]: an engine as a child process, with a timeout on every answer;
//! - [`reaper`]: what an engine leaves behind in a session of its own, ended with it;
//! - [`referee`]: one game between two processes, every move checked by the rules library;
//! - [`schedule`]: which games a match (or a shard of it) plays, their openings and seats;
//! - `runner`: the workers that play the games side by side, and live progress;
//! - `summary`: the result of a match, from its games or from its records, and its text;
//! - [`record`]: the record of each game, written and read back;
//! - [`stats`]: score, Elo with its interval, and the sequential test;
//! - this module: what a match is given (its configuration) and what it says while it runs.
//!
//! Each worker owns one process of each engine and restarts an engine that failed in a
//! game, so a crash or a hang costs one game, not the match. Before any game, each engine
//! is started once: one that cannot start is a setup error, not a string of lost games.

pub mod process;
pub mod reaper;
pub mod record;
pub mod referee;
mod runner;
pub mod schedule;
pub mod stats;
mod summary;

use std::path::PathBuf;
use std::time::Duration;

pub use self::runner::run_match;
pub use self::schedule::Shard;
pub use self::summary::{Failure, MatchSummary, summarize_records};
use crate::arena::referee::{Patience, TimeControl};
use crate::arena::stats::Sprt;
use crate::games::Variant;

/// One engine of a match: how to start it and the options to set after the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub command: String,
    pub options: Vec<(String, String)>,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    pub variant: Variant,
    pub games: u32,
    pub limits: TimeControl,
    /// Games played at once, each with its own pair of processes.
    pub concurrency: usize,
    /// Random plies from the start before the engines take over.
    pub opening_plies: u32,
    /// The positions the games start from, as position strings of the variant (each pair
    /// of games takes the next, round the list, before its random plies); empty: the
    /// variant's start. Each is known to read and to be a game in play.
    pub starts: Vec<String>,
    pub seed: u64,
    pub sprt: Option<Sprt>,
    pub records: Option<PathBuf>,
    pub patience: Patience,
    /// The wait for `ugiok` when an engine starts.
    pub handshake_timeout: Duration,
    /// The part of the match to play.
    pub shard: Shard,
}

/// What a match says while it runs.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// One line per finished game.
    Game(&'a str),
    /// The state of the match now (games done, score, time left), refreshed every second:
    /// for a live line on a terminal.
    Status(&'a str),
    /// Something the user should know that does not stop the match (an option an engine
    /// rejected, say).
    Warning(&'a str),
}
