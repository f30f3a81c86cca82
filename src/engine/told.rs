//! What a search has told so far, and the lines that end it: the same for a search on a
//! worker thread and one run in slices.

use std::sync::{Arc, Mutex, PoisonError};

use crate::core::clock::Instant;

use super::answer::Answer;
use super::event::{Event, panic_detail};
use crate::games::Playable;
use crate::search::{Info, RootMove, Searcher};

/// The reports of one search of `root`, passed through its [`Answer`], and the best line
/// they told.
pub(super) struct Told<G: Playable> {
    pub(super) root: G,
    pub(super) answer: Arc<Answer>,
    /// The best line of the last completed iteration: the answer if the search fails.
    best_line: Vec<G::Move>,
    /// The last line reported, with one line (no MultiPV): told again at the end with the
    /// search's whole effort, as UGI 1.0 asks.
    last_info: Option<Info<String>>,
    one_line: bool,
    ponder_move: bool,
    started: Instant,
}

impl<G: Playable> Told<G> {
    pub(super) fn new(root: G, answer: Arc<Answer>, one_line: bool, ponder_move: bool) -> Self {
        Told {
            root,
            answer,
            best_line: Vec::new(),
            last_info: None,
            one_line,
            ponder_move,
            started: Instant::now(),
        }
    }

    /// Passes a completed iteration's line on, in notation, and keeps the best one.
    pub(super) fn info(&mut self, info: &Info<G::Move>) {
        if info.multipv.unwrap_or(1) == 1 {
            self.best_line.clone_from(&info.pv);
        }
        let shown = info.with_pv(self.root.line_notation(&info.pv));
        if self.one_line {
            self.last_info = Some(shown.clone());
        }
        self.answer.pass(Event::Info(shown));
    }

    /// Passes on the root move a long search starts on.
    pub(super) fn root_move(&self, root_move: RootMove<G::Move>) {
        self.answer.pass(Event::current_move(&self.root, root_move));
    }

    /// The search's whole effort, when it went on after its last report (an iteration the
    /// clock or the node limit cut short): the last line again, with all the nodes.
    pub(super) fn whole_effort(&mut self, searcher: &Mutex<Searcher<G>>) {
        let Some(mut last) = self.last_info.take() else {
            return;
        };
        let nodes = searcher
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .nodes();
        if nodes > last.nodes {
            last.nodes = nodes;
            last.time = self.started.elapsed();
            last.nps = (nodes as f64 / last.time.as_secs_f64().max(1e-6)) as u64;
            self.answer.pass(Event::Info(last));
        }
    }

    /// The search failed with `fault`: it is reported, the searcher (which may hold
    /// half-written state) starts afresh, and the line to play is the best one told, or
    /// `last_resort`.
    pub(super) fn fault(
        &mut self,
        fault: &(dyn std::any::Any + Send),
        searcher: &Mutex<Searcher<G>>,
        last_resort: Option<G::Move>,
    ) -> Vec<G::Move> {
        self.answer.pass(Event::Fault(panic_detail(fault)));
        searcher
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        let mut line = std::mem::take(&mut self.best_line);
        if line.is_empty() {
            line.extend(last_resort);
        }
        line
    }

    /// The best line told so far.
    pub(super) fn best_line(&self) -> &[G::Move] {
        &self.best_line
    }

    /// The answer: the first move of `line`, and the reply it expects when asked for.
    pub(super) fn best_move(&self, line: &[G::Move]) {
        let mut notation = self
            .root
            .line_notation(&line[..line.len().min(2)])
            .into_iter();
        let best = notation.next();
        let ponder = notation.next().filter(|_| self.ponder_move);
        self.answer.pass(Event::BestMove { best, ponder });
    }
}
