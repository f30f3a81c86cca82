//! A search run in slices (see [`Slice`](crate::search::Slice)), as one worker keeps it:
//! when this slice ends, the node count before which its end does not count, whether it
//! got the search further, and where the last slice left the search: the aspiration window
//! it was cut in and where the root stood (the root moves searched to their end, the best
//! of them and its line). The next slice goes on from there rather than searching the same
//! nodes again; at the root with one line (MultiPV 1) only.

use super::Worker;
use crate::core::clock::Instant;
use crate::search::POLL_INTERVAL;
use crate::search::report::SearchResult;
use crate::search::request::{Earlier, SearchRequest, Window};
use crate::search::searchable::Searchable;

/// The most nodes a slice that got a search no further makes the next search before its
/// end counts ([`Earlier::least_nodes`]): enough to go on from where a short slice stopped
/// (a few milliseconds of work), little enough that a slice of the web edition (50 ms)
/// still ends on time, so that a `stop` is answered within it.
const MAX_LEAST_NODES: u64 = 1 << 16;

/// One worker's slice, and what the last one left.
pub(super) struct Slicing<M> {
    /// When this slice ends, if the search runs in slices.
    end: Option<Instant>,
    /// The node count before which the slice's end does not count, and the count the
    /// slice started at.
    floor: u64,
    start_nodes: u64,
    /// Whether this slice got the search further: a root move searched to its end, or an
    /// iteration completed.
    pub(super) progressed: bool,
    /// The slice ended before the search did.
    pub(super) cut: bool,
    /// The aspiration window of the iteration the slice cut, if it was in one.
    pub(super) cut_window: Option<Window>,
    /// The aspiration window the next iteration starts in, where a slice goes on from one.
    pub(super) resumed_window: Option<Window>,
    /// Where the root search the last slice ended in stood.
    pub(super) root: RootProgress<M>,
}

impl<M: Copy + PartialEq> Slicing<M> {
    pub(super) fn new() -> Self {
        Slicing {
            end: None,
            floor: 0,
            start_nodes: 0,
            progressed: false,
            cut: false,
            cut_window: None,
            resumed_window: None,
            root: RootProgress::new(),
        }
    }
}

impl<G: Searchable> Worker<G> {
    /// Sets the slice of `request` up (none: the search does not run in slices), after the
    /// node count is set.
    pub(super) fn begin_slice(&mut self, request: &SearchRequest<'_, G::Move>) {
        let earlier = request.control.slice.and_then(|slice| slice.after);
        let slicing = &mut self.slicing;
        slicing.end = request.control.slice.map(|slice| slice.until);
        slicing.start_nodes = self.nodes;
        slicing.floor = self.nodes + earlier.map_or(0, |earlier| earlier.least_nodes);
        slicing.progressed = false;
        slicing.cut = false;
        slicing.cut_window = None;
        slicing.resumed_window = earlier.and_then(|earlier| earlier.window);
        self.resume_root(earlier.is_some() && request.options.multipv <= 1);
    }

    /// Whether the slice is over: its end has come, past its floor.
    pub(super) fn slice_over(&self) -> bool {
        let slicing = &self.slicing;
        self.nodes >= slicing.floor && slicing.end.is_some_and(|end| Instant::now() >= end)
    }

    /// What the next slice goes on from, if this one was cut: `result` is this slice's,
    /// `earlier` what it went on from, `started` when the search's first slice started.
    pub(super) fn next_slice(
        &self,
        earlier: Option<Earlier>,
        result: &SearchResult<G::Move>,
        started: Instant,
    ) -> Option<Earlier> {
        let slicing = &self.slicing;
        if !slicing.cut {
            return None;
        }
        let before = earlier.filter(|earlier| earlier.depth >= result.depth);
        Some(Earlier {
            depth: result.depth.max(before.map_or(0, |earlier| earlier.depth)),
            score: before.map_or(result.score, |earlier| earlier.score),
            nodes: self.total_nodes(),
            started,
            window: slicing.cut_window,
            least_nodes: match slicing.progressed {
                true => 0,
                false => {
                    (2 * (self.nodes - slicing.start_nodes)).clamp(POLL_INTERVAL, MAX_LEAST_NODES)
                }
            },
        })
    }
}

/// The root search a slice ended in: kept by the worker between slices, its room made
/// once.
pub(super) struct RootProgress<M> {
    /// The root moves searched to the end, in the window of the root search.
    searched: Vec<M>,
    /// The best of them and its score, if any was searched.
    best: Option<(i32, M)>,
    /// The root's line when `best` was found (what the root keeps only above alpha).
    line: Vec<M>,
    /// Whether the next root search goes on from here.
    due: bool,
}

impl<M: Copy + PartialEq> RootProgress<M> {
    pub(super) fn new() -> Self {
        RootProgress {
            searched: Vec::with_capacity(256),
            best: None,
            line: Vec::with_capacity(crate::search::MAX_PLY),
            due: false,
        }
    }

    /// Whether `mv` was searched before the slice ended: the next skips it.
    pub(super) fn searched(&self, mv: M) -> bool {
        self.searched.contains(&mv)
    }
}

impl<G: Searchable> Worker<G> {
    /// Sets the next root search to go on from where the last slice's ended, if `resume`
    /// (a later slice of a search of one line); else forgets it.
    pub(super) fn resume_root(&mut self, resume: bool) {
        self.slicing.root.due = resume;
        if !resume {
            self.slicing.root.searched.clear();
            self.slicing.root.best = None;
        }
    }

    /// At the start of a root search: where it goes on from the last slice's, its best
    /// score, move and alpha as that one left them (its line in `pv[0]`); whether it does.
    /// A root search that does not go on starts its record afresh (in slices).
    pub(super) fn root_start(
        &mut self,
        best_score: &mut i32,
        best_move: &mut Option<G::Move>,
        alpha: &mut i32,
    ) -> bool {
        let progress = &mut self.slicing.root;
        if std::mem::take(&mut progress.due) {
            if let Some((score, mv)) = progress.best {
                (*best_score, *best_move) = (score, Some(mv));
                if score > *alpha {
                    *alpha = score;
                    self.pv[0].clone_from(&progress.line);
                }
            }
            return true;
        }
        if self.slicing.end.is_some() {
            progress.searched.clear();
            progress.best = None;
        }
        false
    }

    /// Records a root move searched to the end, and the root's best so far (in slices).
    pub(super) fn root_searched(&mut self, mv: G::Move, best_score: i32, best: Option<G::Move>) {
        if self.slicing.end.is_none() {
            return;
        }
        self.slicing.progressed = true;
        let progress = &mut self.slicing.root;
        progress.searched.push(mv);
        let best = best.map(|best| (best_score, best));
        if best != progress.best {
            progress.best = best;
            progress.line.clone_from(&self.pv[0]);
        }
    }
}
