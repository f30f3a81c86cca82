//! The search team: [`Searcher`], a main worker on the caller's thread and helper workers
//! on threads of their own, all sharing one transposition table (Lazy SMP).
//!
//! The helpers search the same root as the main worker with no deadline, each skipping its
//! own pattern of depths; what they find reaches the main worker through the table, which
//! is lock-free. The main worker keeps the clock, reports, and decides when the team stops;
//! the answer is the deepest completed iteration of any worker (the main worker's on a
//! tie). Helper threads are made when the number of threads is set, not per search, and
//! wait on a condition variable between searches. With one thread there are no helpers and
//! the search is exactly the single-threaded one: deterministic under a depth or node limit.

use crate::core::clock::Instant;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};

use super::counts::NodeCounts;
use super::limits::Limits;
use super::oracle::Oracle;
use super::report::{Effort, Info, SearchResult};
use super::request::{Control, RootOptions, SearchRequest};
use super::searchable::Searchable;
use super::tt::TranspositionTable;
use super::worker::Worker;
use crate::eval::Evaluator;

/// The most search threads a searcher runs: twice the cores of this machine (at least 1),
/// as the protocol advertises.
pub fn max_threads() -> usize {
    thread::available_parallelism().map_or(1, |cores| cores.get() * 2)
}

/// The most search threads the `Threads` option and the command line ever accept,
/// whatever the machine: a bound on what a typo can ask for.
pub const MAX_THREADS: usize = 1024;

/// What a helper is asked to search.
struct Job<G: Searchable> {
    root: G,
    limits: Limits,
    options: RootOptions<G::Move>,
    tt: Arc<TranspositionTable>,
    oracle: Option<Arc<dyn Oracle<G>>>,
    evaluator: Evaluator,
    stop: Arc<AtomicBool>,
}

/// Where a helper stands, as the team and the helper's thread both see it.
enum HelperState<G: Searchable> {
    Idle,
    /// A search to start.
    Given(Job<G>),
    Searching,
    /// The search ended with this result (`None` if it failed).
    Done(Option<SearchResult<G::Move>>),
    /// The thread is to end.
    Quit,
}

/// The state a helper thread and the team share.
struct HelperLink<G: Searchable> {
    state: Mutex<HelperState<G>>,
    changed: Condvar,
    /// Set by the team: forget the killers and history before the next search.
    clear: AtomicBool,
}

impl<G: Searchable> HelperLink<G> {
    fn lock(&self) -> MutexGuard<'_, HelperState<G>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait<'a>(&self, guard: MutexGuard<'a, HelperState<G>>) -> MutexGuard<'a, HelperState<G>> {
        self.changed
            .wait(guard)
            .unwrap_or_else(PoisonError::into_inner)
    }
}

struct Helper<G: Searchable> {
    link: Arc<HelperLink<G>>,
    thread: Option<JoinHandle<()>>,
}

/// A searcher for one game type: a team of workers sharing one transposition table. The
/// table and each worker's ordering heuristics persist between searches until cleared.
pub struct Searcher<G: Searchable> {
    tt: Arc<TranspositionTable>,
    /// The oracle of exact values the search asks, if any.
    oracle: Option<Arc<dyn Oracle<G>>>,
    /// What the search evaluates with.
    evaluator: Evaluator,
    counts: Arc<NodeCounts>,
    main: Worker<G>,
    helpers: Vec<Helper<G>>,
}

impl<G: Searchable> Searcher<G> {
    /// A one-thread searcher with a transposition table of about `hash_mib` mebibytes.
    /// It evaluates with the network the game ships, if any, until told otherwise.
    pub fn new(hash_mib: usize) -> Self {
        let tt = Arc::new(TranspositionTable::new(hash_mib, 1));
        let counts = NodeCounts::new(1);
        let mut searcher = Searcher {
            main: Worker::new(Arc::clone(&tt), Arc::clone(&counts), 0),
            tt,
            oracle: None,
            evaluator: Evaluator::Terms,
            counts,
            helpers: Vec::new(),
        };
        searcher.set_evaluator(Evaluator::shipped::<G>());
        searcher
    }

    /// The oracle of exact values the search asks, if any.
    pub fn oracle(&self) -> Option<&Arc<dyn Oracle<G>>> {
        self.oracle.as_ref()
    }

    /// Asks `oracle` for exact values in every search from now on (`None`: no oracle).
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) {
        self.main.set_oracle(oracle.clone());
        self.oracle = oracle;
    }

    /// Evaluates with `evaluator` in every search from now on.
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.main.set_evaluator(evaluator.clone());
        self.evaluator = evaluator;
    }

    /// What the search evaluates with.
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// The number of search threads (the caller's included).
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Searches with `threads` threads from now on (at least 1, at most [`MAX_THREADS`]):
    /// the helper threads are made here, once, and wait between searches. The table and the
    /// main worker's heuristics are kept; new helpers start with none. Returns the number of
    /// threads now searching: fewer than asked only if the system refused to start more.
    pub fn set_threads(&mut self, threads: usize) -> usize {
        let threads = threads.clamp(1, MAX_THREADS);
        if threads != self.threads() {
            self.stop_helpers();
            self.counts = NodeCounts::new(threads);
            self.main.set_counts(Arc::clone(&self.counts));
            self.helpers = (1..threads)
                .map_while(|index| spawn_helper::<G>(Arc::clone(&self.counts), index))
                .collect();
        }
        self.threads()
    }

    /// Resizes the transposition table (which clears it). The old table is freed before the
    /// new one is made, so that the two never hold memory at once (idle helpers hold none).
    pub fn resize(&mut self, hash_mib: usize) {
        let placeholder = Arc::new(TranspositionTable::new(0, 1));
        self.main.set_tt(Arc::clone(&placeholder));
        self.tt = placeholder;
        // Made on as many threads as search: the table's first touch is the kernel's
        // zeroing, seconds for gigabytes.
        self.tt = Arc::new(TranspositionTable::new(hash_mib, self.threads()));
        self.main.set_tt(Arc::clone(&self.tt));
    }

    /// Forgets everything learned: the table, and every worker's killers and history.
    pub fn clear(&mut self) {
        self.tt.clear(self.threads());
        self.main.clear_ordering();
        for helper in &self.helpers {
            helper.link.clear.store(true, Ordering::Relaxed);
        }
    }

    /// Searches `root` within `limits`, until `stop` is set, calling `on_info` after every
    /// completed iteration. Always returns a legal move when the game is not over.
    pub fn search(
        &mut self,
        root: &G,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let not_pondering = AtomicBool::new(false);
        let request = SearchRequest {
            limits: *limits,
            options: RootOptions::default(),
            control: Control::new(stop, &not_pondering),
        };
        self.search_with(root, &request, on_info)
    }

    /// [`Searcher::search`] with a choice of root moves, several lines (MultiPV) and
    /// pondering. With `multipv` lines, each iteration reports one [`Info`] per line, best
    /// first; the result is the best line's (helpers then only help fill the table).
    pub fn search_with(
        &mut self,
        root: &G,
        request: &SearchRequest<'_, G::Move>,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let started = Instant::now();
        // A later slice of a search in slices goes on with the same search's table.
        if request
            .control
            .slice
            .is_none_or(|slice| slice.after.is_none())
        {
            self.tt.new_search();
        }
        self.counts.reset();
        let helpers = HelpersAtWork::start(
            &self.helpers,
            &self.tt,
            &self.oracle,
            &self.evaluator,
            root,
            request,
        );
        let mut best = self.main.search_with(root, request, on_info);
        let helper_results = helpers.finish();
        // The team's answer: the deepest completed iteration, the main worker's on a tie;
        // a helper's is reported before it is played. Several lines are the main worker's
        // alone.
        if request.options.multipv <= 1 {
            let deepest = helper_results
                .into_iter()
                .filter(|found| found.best.is_some())
                .max_by_key(|found| found.depth);
            if let Some(found) = deepest.filter(|found| found.depth > best.depth) {
                best = found;
                on_info(&Info::report(
                    &best,
                    best.depth,
                    best.depth,
                    Effort {
                        nodes: self.counts.total(),
                        hashfull: self.tt.hashfull(),
                        tbhits: self.oracle.as_ref().map(|_| self.counts.oracle_hits()),
                    },
                    started,
                    None,
                ));
            }
        }
        best.nodes = self.counts.total();
        best
    }

    /// The nodes the team searched in its last search (all of them, not only up to its
    /// last report).
    pub fn nodes(&self) -> u64 {
        self.counts.total()
    }

    /// Ends every helper thread and waits for it.
    fn stop_helpers(&mut self) {
        for helper in &mut self.helpers {
            *helper.link.lock() = HelperState::Quit;
            helper.link.changed.notify_all();
            if let Some(thread) = helper.thread.take() {
                let _ = thread.join();
            }
        }
        self.helpers.clear();
    }
}

impl<G: Searchable> Drop for Searcher<G> {
    fn drop(&mut self) {
        self.stop_helpers();
    }
}

/// The helpers of one search, from the moment they are given it until they have all
/// answered. Dropped early (the main worker's search panicked), it still stops them and
/// waits, so that no helper searches on into the next search.
struct HelpersAtWork<'a, G: Searchable> {
    helpers: &'a [Helper<G>],
    stop: Arc<AtomicBool>,
    finished: bool,
}

impl<'a, G: Searchable> HelpersAtWork<'a, G> {
    fn start(
        helpers: &'a [Helper<G>],
        tt: &Arc<TranspositionTable>,
        oracle: &Option<Arc<dyn Oracle<G>>>,
        evaluator: &Evaluator,
        root: &G,
        request: &SearchRequest<'_, G::Move>,
    ) -> Self {
        let (limits, options) = (&request.limits, &request.options);
        let stop = Arc::new(AtomicBool::new(false));
        // Helpers keep no clock: the main worker stops them. They share the node limit and
        // the depth, and search one line.
        let helper_limits = Limits {
            depth: limits.depth,
            nodes: limits.nodes,
            ..Limits::default()
        };
        let helper_options = RootOptions {
            only: options.only.clone(),
            multipv: 1,
            contempt: options.contempt,
        };
        for helper in helpers {
            *helper.link.lock() = HelperState::Given(Job {
                root: root.clone(),
                limits: helper_limits,
                options: helper_options.clone(),
                tt: Arc::clone(tt),
                oracle: oracle.clone(),
                evaluator: evaluator.clone(),
                stop: Arc::clone(&stop),
            });
            helper.link.changed.notify_all();
        }
        HelpersAtWork {
            helpers,
            stop,
            finished: false,
        }
    }

    /// Stops the helpers and collects what each completed.
    fn finish(mut self) -> Vec<SearchResult<G::Move>> {
        self.finished = true;
        self.stop_and_collect()
    }

    fn stop_and_collect(&self) -> Vec<SearchResult<G::Move>> {
        self.stop.store(true, Ordering::Relaxed);
        let mut results = Vec::with_capacity(self.helpers.len());
        for helper in self.helpers {
            let mut state = helper.link.lock();
            loop {
                match std::mem::replace(&mut *state, HelperState::Idle) {
                    HelperState::Done(result) => {
                        results.extend(result);
                        break;
                    }
                    HelperState::Quit => {
                        *state = HelperState::Quit;
                        break;
                    }
                    waiting => {
                        *state = waiting;
                        state = helper.link.wait(state);
                    }
                }
            }
        }
        results
    }
}

impl<G: Searchable> Drop for HelpersAtWork<'_, G> {
    fn drop(&mut self) {
        if !self.finished {
            self.stop_and_collect();
        }
    }
}

/// Starts helper `index`'s thread: it waits for a job, searches it, reports, and waits
/// again, until told to quit. `None` if the system refuses a thread.
fn spawn_helper<G: Searchable>(counts: Arc<NodeCounts>, index: usize) -> Option<Helper<G>> {
    let link = Arc::new(HelperLink {
        state: Mutex::new(HelperState::Idle),
        changed: Condvar::new(),
        clear: AtomicBool::new(false),
    });
    let thread_link = Arc::clone(&link);
    let thread = thread::Builder::new()
        .name(format!("search helper {index}"))
        .spawn(move || helper_loop::<G>(&thread_link, counts, index))
        .ok()?;
    Some(Helper {
        link,
        thread: Some(thread),
    })
}

fn helper_loop<G: Searchable>(link: &HelperLink<G>, counts: Arc<NodeCounts>, index: usize) {
    // Between searches a helper holds only this empty table, so that a resized table is
    // freed at once.
    let idle_tt = Arc::new(TranspositionTable::new(0, 1));
    let mut worker = Worker::<G>::new(Arc::clone(&idle_tt), counts, index);
    loop {
        let job = {
            let mut state = link.lock();
            loop {
                match std::mem::replace(&mut *state, HelperState::Idle) {
                    HelperState::Quit => return,
                    HelperState::Given(job) => {
                        *state = HelperState::Searching;
                        break job;
                    }
                    other => {
                        *state = other;
                        state = link.wait(state);
                    }
                }
            }
        };
        if link.clear.swap(false, Ordering::Relaxed) {
            worker.clear_ordering();
        }
        worker.set_tt(Arc::clone(&job.tt));
        worker.set_oracle(job.oracle.clone());
        worker.set_evaluator(job.evaluator.clone());
        let not_pondering = AtomicBool::new(false);
        let request = SearchRequest {
            limits: job.limits,
            options: job.options.clone(),
            control: Control::new(&job.stop, &not_pondering),
        };
        let searched = panic::catch_unwind(AssertUnwindSafe(|| {
            worker.search_with(&job.root, &request, &mut |_| {})
        }));
        if searched.is_err() {
            // Half-written heuristics are not trusted: start afresh.
            worker.clear_ordering();
        }
        worker.set_tt(Arc::clone(&idle_tt));
        worker.set_oracle(None);
        let mut state = link.lock();
        if !matches!(*state, HelperState::Quit) {
            *state = HelperState::Done(searched.ok());
        }
        link.changed.notify_all();
    }
}
