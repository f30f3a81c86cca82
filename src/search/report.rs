//! What a search reports: an [`Info`] after each completed iteration, and its
//! [`SearchResult`] at the end.

use std::time::Duration;

use crate::core::clock::Instant;

use super::oracle::ExactMove;
use super::score::Score;

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
pub(super) struct Effort {
    pub(super) nodes: u64,
    pub(super) hashfull: u32,
    pub(super) tbhits: Option<u64>,
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
    pub(super) fn report(
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
    /// Where the search runs in slices and this one ended before the search did: what the
    /// next slice goes on from (see [`Slice`](super::Slice)). Always `None` outside slices.
    pub next_slice: Option<super::Earlier>,
}
