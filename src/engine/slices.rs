//! A search run in slices on the caller's thread, for where a search cannot run on a
//! thread of its own beside the protocol: the web build, whose one thread (a Web Worker)
//! reads its messages only between two calls into the engine.
//!
//! Each [`SlicedSearch::step`] searches for a budget of time and returns; whoever drives it
//! reads the protocol's lines between steps, so a `stop` is answered within one slice. The
//! search goes on from the iterations the earlier slices completed, with what they stored
//! in the table ([`Slice`]); the limits count across slices (the clock from `go`, the nodes
//! from the first slice); the lines and the answer are those of a search on a thread, in
//! the same order. Only the full search is sliced: a level or a baseline mover, which
//! search a few thousand nodes at most, choose their move in one step.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::core::clock::Instant;

use super::answer::Answer;
use super::flags::SearchFlags;
use super::job::SearchJob;
use super::told::Told;
use crate::games::Playable;
use crate::search::mover::{Mover, Request};
use crate::search::{Earlier, Limits, RootOptions, SearchRequest, Searcher, Slice};

/// A search that runs only while it is stepped.
pub trait SlicedSearch: Send {
    /// Searches for about `budget` more, or gives the best move once it is due (at once
    /// after `stop`); whether the best move has been given. After it has, a step does
    /// nothing.
    fn step(&mut self, budget: Duration) -> bool;
    /// Whether the best move has been given.
    fn is_answered(&self) -> bool;
}

/// A search whose answer was given when it started (the game was over).
pub(super) struct Answered;

impl SlicedSearch for Answered {
    fn step(&mut self, _budget: Duration) -> bool {
        true
    }

    fn is_answered(&self) -> bool {
        true
    }
}

/// Where a sliced search stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Searching,
    /// Done searching; the best move waits for `stop` (`go infinite`) or `ponderhit`.
    Held,
    Given,
}

/// The full search of `told.root`, in slices.
pub(super) struct Slices<G: Playable> {
    told: Told<G>,
    searcher: Arc<Mutex<Searcher<G>>>,
    rng: Arc<Mutex<fastrand::Rng>>,
    job: SearchJob,
    limits: Limits,
    options: RootOptions<G::Move>,
    flags: SearchFlags,
    last_resort: Option<G::Move>,
    /// What the next slice goes on from; `None` before the first.
    earlier: Option<Earlier>,
    /// Whether the last slice pondered: a `ponderhit` since starts the clock.
    pondering: bool,
    /// The line to play once the search is done.
    line: Vec<G::Move>,
    phase: Phase,
}

/// What [`Slices::new`] is given to search with.
pub(super) struct SliceSetup<G: Playable> {
    pub(super) searcher: Arc<Mutex<Searcher<G>>>,
    pub(super) rng: Arc<Mutex<fastrand::Rng>>,
    pub(super) limits: Limits,
    pub(super) options: RootOptions<G::Move>,
    pub(super) last_resort: Option<G::Move>,
}

impl<G: Playable> Slices<G> {
    pub(super) fn new(
        root: G,
        answer: Arc<Answer>,
        job: SearchJob,
        flags: SearchFlags,
        setup: SliceSetup<G>,
    ) -> Self {
        let told = Told::new(root, answer, job.multipv <= 1, job.ponder_move);
        Slices {
            told,
            searcher: setup.searcher,
            rng: setup.rng,
            pondering: flags.pondering_flag().load(Ordering::Relaxed),
            job,
            limits: setup.limits,
            options: setup.options,
            flags,
            last_resort: setup.last_resort,
            earlier: None,
            line: Vec::new(),
            phase: Phase::Searching,
        }
    }

    /// Runs one slice of at most about `budget` (a mover other than the full search: its
    /// whole choice); whether the search is done.
    fn slice(&mut self, budget: Duration) -> bool {
        let pondering = self.flags.pondering_flag().load(Ordering::Relaxed);
        if self.pondering && !pondering {
            // The `ponderhit` came between two slices: the clock starts from it.
            self.limits.since = Some(Instant::now());
        }
        self.pondering = pondering;
        let sliced = self.job.mover == Mover::Full && !self.job.tables_first;
        let Slices {
            told,
            searcher,
            rng,
            job,
            limits,
            options,
            flags,
            earlier,
            ..
        } = self;
        let searched = panic::catch_unwind(AssertUnwindSafe(|| {
            let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
            let told = std::cell::RefCell::new(told);
            let report = |root_move| told.borrow().root_move(root_move);
            let mut on_info = |info: &_| told.borrow_mut().info(info);
            let mut control = flags.control(&report);
            if !sliced {
                let request = Request {
                    searcher: &mut searcher,
                    search: SearchRequest {
                        limits: *limits,
                        options: options.clone(),
                        control,
                    },
                    levels: G::LEVELS,
                    tables_first: job.tables_first,
                };
                let mut rng = rng.lock().unwrap_or_else(PoisonError::into_inner);
                let root = told.borrow().root.clone();
                return Some(job.mover.choose(&root, request, &mut rng, &mut on_info));
            }
            control.slice = Some(Slice {
                until: Instant::now() + budget,
                after: *earlier,
            });
            let request = SearchRequest {
                limits: *limits,
                options: options.clone(),
                control,
            };
            let root = told.borrow().root.clone();
            let result = searcher.search_with(&root, &request, &mut on_info);
            *earlier = result.next_slice;
            earlier.is_none().then_some(result.pv)
        }));
        match searched {
            Ok(None) => false,
            Ok(Some(line)) => {
                // A sliced search plays the best line it told (its last complete
                // iteration's: the last slice may complete none); a mover, its choice.
                self.line = match self.told.best_line() {
                    told if sliced && !told.is_empty() => told.to_vec(),
                    _ => line,
                };
                self.told.whole_effort(&self.searcher);
                true
            }
            Err(fault) => {
                self.line = self.told.fault(&*fault, &self.searcher, self.last_resort);
                true
            }
        }
    }
}

impl<G: Playable> SlicedSearch for Slices<G> {
    fn step(&mut self, budget: Duration) -> bool {
        if self.phase == Phase::Searching {
            // After `stop`, a search that has an answer gives it; one that has none yet
            // runs its first slice, whose first iteration completes.
            let stopped = self.flags.is_stopped() && self.earlier.is_some();
            if stopped {
                self.line = self.told.best_line().to_vec();
                if self.line.is_empty() {
                    self.line.extend(self.last_resort);
                }
                self.told.whole_effort(&self.searcher);
            }
            if stopped || self.slice(budget) {
                self.phase = Phase::Held;
            }
        }
        if self.phase == Phase::Held && self.flags.released() {
            self.told.best_move(&self.line);
            self.phase = Phase::Given;
        }
        self.phase == Phase::Given
    }

    fn is_answered(&self) -> bool {
        self.phase == Phase::Given
    }
}
