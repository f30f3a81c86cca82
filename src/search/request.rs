//! What a search is asked: its [`Limits`] (elsewhere), the root's [`RootOptions`], the
//! [`Control`] flags it is told through while it runs, together a [`SearchRequest`].

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::limits::Limits;
use super::score::Score;
use crate::core::clock::Instant;

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
    /// Set when the search runs in slices: this one's end, and what the earlier did.
    pub slice: Option<Slice>,
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
            slice: None,
        }
    }
}

/// One slice of a search run in slices. Where a search cannot run on a thread beside the
/// protocol (the web build: one thread in a Web Worker, which reads its messages only
/// between two calls), it runs until [`Slice::until`] and returns; the protocol answers what
/// came meanwhile (a `stop`), and the next slice goes on from the iterations the earlier
/// slices completed, with what they stored in the table. The iteration a slice cuts short
/// is searched again by the next, from a table that holds most of it.
#[derive(Clone, Copy, Debug)]
pub struct Slice {
    /// When this slice ends: the search returns as at a stop, with what the next slice
    /// goes on from (`SearchResult::next_slice`).
    pub until: Instant,
    /// What the earlier slices did; `None` in the first.
    pub after: Option<Earlier>,
}

/// What the earlier slices of a search did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Earlier {
    /// The deepest iteration completed (0: none), the next slice starting at the next.
    pub depth: u32,
    /// Its best line's score: the next iteration's aspiration window is set around it.
    pub score: Score,
    /// The nodes searched so far: limits and reports count from there.
    pub nodes: u64,
    /// When the first slice started: reports count the time from there.
    pub started: Instant,
    /// The aspiration window the cut iteration was searching in, where it had one: the next
    /// slice searches in it again rather than from the first window, whose failures it
    /// would otherwise repeat.
    pub window: Option<Window>,
    /// The nodes the next slice searches at the least before its end counts: none after a
    /// slice that got the search further (a root move searched to its end, an iteration
    /// completed), else twice what that slice searched, up to 65,536. However short the
    /// slices (a slow machine's), the search goes on rather than searching the same nodes
    /// again and again.
    pub least_nodes: u64,
}

/// An aspiration window of the root: its bounds (raw scores), and how far it widens next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub alpha: i32,
    pub beta: i32,
    pub delta: i32,
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

/// What one search is asked, besides its position: how far it may go, which root moves it
/// considers and how many lines it reports, and the flags it is told through while it runs.
/// The team, each of its workers and a mover read the same request.
pub struct SearchRequest<'a, M> {
    pub limits: Limits,
    pub options: RootOptions<M>,
    pub control: Control<'a, M>,
}
