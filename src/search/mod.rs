//! Game-tree search: iterative-deepening negamax alpha-beta with principal-variation
//! search, aspiration windows, late move reductions, null-move pruning, a transposition
//! table, move ordering and quiescence, on one thread or several (Lazy SMP).
//!
//! Generic over [`Searchable`] and never naming a game: end rules come from the rules'
//! `outcome()` (repetition and move-limit draws included, since the games keep their
//! history in their state), the static value from `evaluate()`, captures and the other
//! hints from [`Searchable`], and exact values from an [`Oracle`], if one is given.
//!
//! The search is protocol-free: it takes [`Limits`], a stop flag and an info callback, and
//! returns a [`SearchResult`]. [`Searcher`] (in `threads`) is the public face: a team of
//! workers sharing one transposition table; `worker` holds the alpha-beta search one thread
//! runs. No allocation happens per node: move lists and principal variations live in per-ply
//! buffers made once per worker.

pub mod baseline;
mod counts;
pub mod levels;
mod limits;
mod move_hash;
pub mod mover;
pub mod oracle;
mod ordering;
pub mod score;
pub mod searchable;
mod threads;
pub mod tt;
mod worker;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub use self::limits::{Clock, Deadlines, Limits};
pub use self::oracle::{Exact, ExactMove, Oracle};
pub use self::score::Score;
pub use self::searchable::Searchable;
pub use self::threads::{MAX_THREADS, Searcher, max_threads};
pub use self::worker::POLL_INTERVAL;

/// The deepest the search goes (quiescence included).
pub const MAX_PLY: usize = 128;

/// What one completed iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    pub hashfull: u32,
    /// Positions the oracle decided (`tbhits`), when the search has one.
    pub tbhits: Option<u64>,
    /// Which line this is (1 = best) when several root moves are analysed (MultiPV).
    pub multipv: Option<u32>,
    pub pv: Vec<M>,
}

/// What the team has spent on a search so far, as an `info` line reports it.
struct Effort {
    nodes: u64,
    hashfull: u32,
    tbhits: Option<u64>,
}

impl<M> Info<M> {
    /// The report of a move the oracle chose without a search: its exact value as the
    /// search would score it, one position decided.
    pub fn of_oracle(chosen: ExactMove<M>) -> Info<M> {
        Info {
            depth: 1,
            seldepth: 1,
            score: Score::from_raw(chosen.exact.raw_score(0)),
            nodes: 0,
            nps: 0,
            time: Duration::ZERO,
            hashfull: 0,
            tbhits: Some(1),
            multipv: None,
            pv: vec![chosen.mv],
        }
    }

    /// The report of a move played without a search (the answer of last resort, when the
    /// search could not run in time): depth 0, the static evaluation `static_eval`.
    pub fn unsearched(mv: M, static_eval: i32) -> Info<M> {
        Info {
            depth: 0,
            seldepth: 0,
            score: Score::Centipawns(static_eval),
            nodes: 0,
            nps: 0,
            time: Duration::ZERO,
            hashfull: 0,
            tbhits: None,
            multipv: None,
            pv: vec![mv],
        }
    }

    /// The same report with its line written another way (in notation, say).
    pub fn with_pv<N>(&self, pv: Vec<N>) -> Info<N> {
        Info {
            depth: self.depth,
            seldepth: self.seldepth,
            score: self.score,
            nodes: self.nodes,
            nps: self.nps,
            time: self.time,
            hashfull: self.hashfull,
            tbhits: self.tbhits,
            multipv: self.multipv,
            pv,
        }
    }
}

impl<M: Clone> Info<M> {
    /// The report of `result` (an iteration of `depth`, its line and score) after `effort`,
    /// searched since `started`.
    fn report(
        result: &SearchResult<M>,
        depth: u32,
        seldepth: u32,
        effort: Effort,
        started: Instant,
        multipv: Option<u32>,
    ) -> Self {
        let time = started.elapsed();
        Info {
            depth,
            seldepth: seldepth.max(depth),
            score: result.score,
            nodes: effort.nodes,
            nps: (effort.nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
            time,
            hashfull: effort.hashfull,
            tbhits: effort.tbhits,
            multipv,
            pv: result.pv.clone(),
        }
    }
}

/// What a search is told from outside while it runs, and where it says which root move it
/// searches.
pub struct Control<'a, M> {
    /// Set to end the search at once.
    pub stop: &'a AtomicBool,
    /// While set, the search ponders: it runs with no deadline. When it is cleared
    /// (`ponderhit`), the limits' clock starts.
    pub pondering: &'a AtomicBool,
    /// Told of every root move as the main worker starts searching it, once the search
    /// has run for `RootReports::after` (Stockfish's `currmove`, for a GUI watching a long
    /// search).
    pub root_moves: Option<RootReports<'a, M>>,
}

impl<M> Clone for Control<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for Control<'_, M> {}

impl<'a, M> Control<'a, M> {
    /// Stop and ponder flags, no reports of root moves.
    pub fn new(stop: &'a AtomicBool, pondering: &'a AtomicBool) -> Self {
        Control {
            stop,
            pondering,
            root_moves: None,
        }
    }
}

/// Where the root moves of a long search are reported.
pub struct RootReports<'a, M> {
    /// How long the search runs before the first report.
    pub after: Duration,
    pub report: &'a dyn Fn(RootMove<M>),
}

impl<M> Clone for RootReports<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for RootReports<'_, M> {}

/// A root move the search starts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove<M> {
    /// The iteration's depth.
    pub depth: u32,
    pub mv: M,
    /// Its place in the iteration's order, from 1.
    pub number: usize,
}

/// Which root moves a search considers and how many lines it reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootOptions<M> {
    /// Only these root moves (the legal ones among them); empty, or none legal: all moves.
    pub only: Vec<M>,
    /// The number of best root moves to find, each with its own line (at least 1).
    pub multipv: usize,
    /// `Contempt`, in centipawns: how far below zero the root's side scores a draw by the
    /// rules (its opponent as far above), so that an engine facing a weaker side plays on
    /// instead of taking a draw it need not. Negative values welcome draws.
    pub contempt: i32,
}

impl<M> Default for RootOptions<M> {
    fn default() -> Self {
        RootOptions {
            only: Vec::new(),
            multipv: 1,
            contempt: 0,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// `None` only when the game is over.
    pub best: Option<M>,
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
}
