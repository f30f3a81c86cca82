//! Game-tree search: iterative-deepening negamax alpha-beta with principal-variation
//! search, aspiration windows, late move reductions, null-move pruning, a transposition
//! table, move ordering and quiescence, on one thread or several (Lazy SMP).
//!
//! Generic over [`Searchable`] and never naming a game: end rules come from the rules'
//! `outcome()` (repetition and move-limit draws included, since the games keep their
//! history in their state), the static value from the [`Evaluator`](crate::eval::Evaluator)
//! it is given (a network or the hand-written terms, kept up to date move by move in a state
//! a ply), captures and the other
//! hints from [`Searchable`], and exact values from an [`Oracle`], if one is given.
//!
//! The search is protocol-free: it takes a [`SearchRequest`] (the [`Limits`], the root's
//! options such as MultiPV and the moves to search, a stop flag and a ponder flag) and an
//! info callback, and returns a [`SearchResult`]. [`Searcher`] (in `threads`) is the public face: a team of
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
mod report;
mod request;
pub mod score;
pub mod searchable;
mod threads;
pub mod tt;
mod worker;

pub use self::limits::{Clock, Deadlines, Limits, MAX_PLY};
pub use self::oracle::{Exact, ExactMove, Oracle};
pub use self::report::{Info, SearchResult};
pub use self::request::{
    Control, Earlier, RootMove, RootOptions, RootReports, SearchRequest, Slice, Window,
};
pub use self::score::Score;
pub use self::searchable::Searchable;
pub use self::threads::{MAX_THREADS, Searcher, max_threads};
pub use self::worker::POLL_INTERVAL;
