//! Where the root stood when a slice ended inside an iteration, for a search in slices
//! (see [`Slice`](crate::search::Slice)): the root moves searched to the end, the best of
//! them and its line. The next slice goes on from there, in the same window, rather than
//! searching those moves again; with one line (MultiPV 1) only.

use super::Worker;
use crate::search::searchable::Searchable;

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
        self.root_progress.due = resume;
        if !resume {
            self.root_progress.searched.clear();
            self.root_progress.best = None;
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
        let progress = &mut self.root_progress;
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
        if self.slice_end.is_some() {
            progress.searched.clear();
            progress.best = None;
        }
        false
    }

    /// Records a root move searched to the end, and the root's best so far (in slices).
    pub(super) fn root_searched(&mut self, mv: G::Move, best_score: i32, best: Option<G::Move>) {
        if self.slice_end.is_none() {
            return;
        }
        self.slice_progressed = true;
        let progress = &mut self.root_progress;
        progress.searched.push(mv);
        let best = best.map(|best| (best_score, best));
        if best != progress.best {
            progress.best = best;
            progress.line.clone_from(&self.pv[0]);
        }
    }
}
