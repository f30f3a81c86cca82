//! One thread's search: iterative deepening over a negamax alpha-beta with
//! principal-variation search, late move reductions, null-move pruning, move ordering and
//! quiescence, reading and writing the transposition table its team shares.
//!
//! A worker is the team's main worker (index 0: it keeps the clock, reports, and its first
//! iteration always completes) or a helper (it skips some depths, so that the team's threads
//! spread over several depths at once, and it stops when the main worker tells it). The node
//! count of each worker is published to the team every poll, so that a node limit and the
//! reported totals count every thread.

mod node;
mod settled;
mod slicing;

use std::sync::Arc;
use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::Duration;

use crate::core::clock::Instant;

use super::counts::NodeCounts;
use super::limits::{Deadlines, Limits, MAX_PLY};
use super::oracle::Oracle;
use super::ordering::MoveOrdering;
use super::report::{Effort, Info, SearchResult};
use super::request::{Control, RootMove, SearchRequest, Window};
use super::score::{DECIDED, INFINITY, Score};
use super::searchable::Searchable;
use super::tt::TranspositionTable;
use crate::core::Player;
use crate::eval::Evaluator;

/// Nodes between two looks at the clock and the stop flag: about a millisecond of work
/// at the slowest, so that a stop is obeyed within a few milliseconds. A node limit holds
/// to within this many nodes a thread.
pub const POLL_INTERVAL: u64 = 1024;
/// The nodes the first iteration may take before the limits hold: it runs to its end so
/// that any search answers with a considered move, and takes a few hundred nodes almost
/// everywhere, but a quiescence search of many captures can run away (a Lerontenin ending
/// of a dozen divided pieces took over 1,300,000 nodes at depth 1), and past this the stop
/// flag, the clock and a node limit hold again. Before it, the stop flag holds once the
/// move has been answered for: see `Worker::answered_by`.
pub const FIRST_ITERATION_NODES: u64 = 1 << 18;
/// The least depth whose root is searched in an aspiration window: shallower iterations
/// cost too little to gain, and their scores swing most.
const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Past this half-width an aspiration window is opened fully on the failing side.
const ASPIRATION_LIMIT: i32 = 1000;

/// One search thread's state: its ordering heuristics persist between searches until
/// cleared; the table is the team's.
pub(super) struct Worker<G: Searchable> {
    tt: Arc<TranspositionTable>,
    /// The oracle of exact values to ask, if any.
    oracle: Option<Arc<dyn Oracle<G>>>,
    /// What the nodes are evaluated with.
    evaluator: Evaluator,
    /// The team's published node counts, and this worker's place among them (0: the main
    /// worker).
    counts: Arc<NodeCounts>,
    index: usize,
    /// The other workers' nodes, as last read from `counts`.
    others_nodes: u64,
    ordering: MoveOrdering<G::Move>,
    /// Per-ply buffers: the moves of a node and their ordering scores.
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from that ply.
    pv: Vec<Vec<G::Move>>,
    /// The evaluation's state of the node at each ply, worked out from its parent's when
    /// the node is searched and dropped beside unmake (set from the root at the start of
    /// every search), and what the move into each ply changed, until its state is.
    eval_states: Vec<G::State>,
    pending_changes: [Option<G::Changes>; MAX_PLY + 1],
    /// Whether `eval_states` must be made anew from the next root: the evaluator changed,
    /// and with it the states' shape (a network's units).
    states_stale: bool,
    nodes: u64,
    seldepth: usize,
    node_limit: u64,
    /// The node count at which to look at the stop flag and the clock next.
    next_poll: u64,
    /// The deadlines of the limits, counted from `clock_start`.
    deadlines: Deadlines,
    /// When the clock started: the arrival of `go` (or the start of the search), or the
    /// `ponderhit`.
    clock_start: Instant,
    /// When this search started.
    search_start: Instant,
    /// Still pondering: no deadline holds yet.
    pondering: bool,
    hard_deadline: Option<Instant>,
    /// When a first iteration's move has been answered for, or no longer needs it: the
    /// hard deadline and half the move's overhead, when the watchdog gives up waiting for
    /// the first iteration and answers for it (`engine::answer::watch`); the start of a
    /// ponder search, which is stopped only when its guess missed. A first iteration heeds
    /// the stop flag from then on, so that one that runs away does not go on after its move
    /// was answered for and keep the next `go` waiting while that move's clock runs (the
    /// daemon ends the last search first): a Lerontenin race at 0.5 s + 5 ms lost on time
    /// so, 780 plies in. With no deadline (`go depth`, `go nodes`, `go infinite`), a stop
    /// lets the first iteration complete, as a clock does not run.
    answered_by: Option<Instant>,
    /// Half the move's overhead: how long past the hard deadline the watchdog waits.
    half_overhead: Duration,
    /// Whether the node at each ply was reached by a null move (no second one follows).
    after_null_move: [bool; MAX_PLY + 1],
    /// False during the first iteration, which completes (it takes microseconds) so that
    /// even a search with no time left answers with a considered move, unless it runs past
    /// `first_iteration_nodes` or is stopped.
    interruptible: bool,
    /// [`FIRST_ITERATION_NODES`], or a test's smaller budget.
    first_iteration_nodes: u64,
    stopped: bool,
    /// The slice this search runs in, if it runs in slices, and where the last one ended.
    slicing: slicing::Slicing<G::Move>,
    /// Root moves to leave out (the lines already found in this iteration, the moves not
    /// in `searchmoves`). When any are left out, the root's result is not stored.
    root_excluded: Vec<G::Move>,
    /// The side to move at the root, and what a draw by the rules is worth to it (minus the
    /// search's contempt): the other side scores the same draw the other way.
    root_side: Player,
    root_draw: i32,
}

impl<G: Searchable> Worker<G> {
    /// Worker `index` of a team whose node counts are `counts`, using `table`.
    pub(super) fn new(tt: Arc<TranspositionTable>, counts: Arc<NodeCounts>, index: usize) -> Self {
        Worker {
            tt,
            oracle: None,
            evaluator: Evaluator::Terms,
            counts,
            index,
            others_nodes: 0,
            ordering: MoveOrdering::new(),
            moves: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            scores: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            eval_states: Vec::new(),
            pending_changes: [None; MAX_PLY + 1],
            states_stale: true,
            nodes: 0,
            seldepth: 0,
            node_limit: u64::MAX,
            next_poll: 0,
            deadlines: Deadlines {
                soft: None,
                hard: None,
            },
            clock_start: Instant::now(),
            search_start: Instant::now(),
            pondering: false,
            hard_deadline: None,
            answered_by: None,
            half_overhead: Duration::ZERO,
            after_null_move: [false; MAX_PLY + 1],
            interruptible: false,
            first_iteration_nodes: FIRST_ITERATION_NODES,
            stopped: false,
            slicing: slicing::Slicing::new(),
            root_excluded: Vec::with_capacity(256),
            root_side: Player::P1,
            root_draw: 0,
        }
    }

    /// Uses `tt` from now on (the team's new table, or a placeholder while idle).
    pub(super) fn set_tt(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt;
    }

    /// Asks `oracle` from now on (`None`: no oracle).
    pub(super) fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) {
        self.oracle = oracle;
    }

    /// Evaluates with `evaluator` from now on.
    pub(super) fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.evaluator = evaluator;
        self.states_stale = true;
    }

    /// Publishes this worker's node count to `counts` (a new team) from now on.
    pub(super) fn set_counts(&mut self, counts: Arc<NodeCounts>) {
        self.counts = counts;
    }

    /// Forgets the killers and history learned.
    pub(super) fn clear_ordering(&mut self) {
        self.ordering = MoveOrdering::new();
    }

    /// Searches `root` as `request` asks until its stop flag is set, calling `on_info` after
    /// every completed iteration (one [`Info`] per line with MultiPV, best first; the result
    /// is the best line's). Always returns a legal move when the game is not over.
    pub(super) fn search_with(
        &mut self,
        root: &G,
        request: &SearchRequest<'_, G::Move>,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let (limits, options, control) = (&request.limits, &request.options, request.control);
        let earlier = control.slice.and_then(|slice| slice.after);
        let started = earlier.map_or_else(Instant::now, |earlier| earlier.started);
        self.begin(root, request, started);
        let mut game = root.clone();
        let root_moves = self.root_moves(&mut game, &options.only);
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            score: Score::Centipawns(0),
            depth: 0,
            nodes: 0,
            pv: root_moves.first().copied().into_iter().collect(),
            next_slice: None,
        };
        if root_moves.len() <= 1 {
            // Game over, or one move to choose from: nothing to choose, only the score to tell.
            result.score = Score::from_raw(self.score_without_choice(&mut game, result.best));
            // With several lines asked for, the one line is still line 1.
            let multipv = (options.multipv > 1).then_some(1);
            on_info(&self.info(1, &result, multipv, started));
            return result;
        }

        let filtered = self.root_excluded.len();
        let lines_wanted = options.multipv.clamp(1, root_moves.len());
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut lines: Vec<(i32, Vec<G::Move>)> = Vec::with_capacity(lines_wanted);
        // A later slice goes on from the iterations the earlier ones completed.
        let mut previous_score = earlier
            .filter(|earlier| earlier.depth > 0)
            .map(|earlier| earlier.score.raw());
        let first_depth = earlier.map_or(1, |earlier| earlier.depth + 1);
        for depth in first_depth..=max_depth {
            if self.skips(depth) {
                continue;
            }
            self.root_excluded.truncate(filtered);
            self.search_lines(
                &mut game,
                depth,
                lines_wanted,
                previous_score,
                control,
                &mut lines,
            );
            self.become_interruptible();
            if lines.is_empty() {
                break;
            }
            previous_score = Some(lines[0].0);
            let multipv = lines_wanted > 1;
            self.complete_iteration(depth, &lines, multipv, &mut result, started, on_info);
            self.slicing.progressed = true;
            self.poll_ponderhit(control);
            if self.stopped || self.enough_after(depth, &result, limits, control) {
                break;
            }
        }
        result.next_slice = self.next_slice(earlier, &result, started);
        if result.depth == 0 && earlier.is_none() {
            // The first iteration ran away and was stopped: the move that looks best one
            // ply ahead, rather than the first generated.
            (result.best, result.score) = self.best_one_ply_ahead(&mut game, &root_moves);
            result.pv = result.best.into_iter().collect();
            on_info(&self.info(0, &result, None, started));
        }
        self.root_excluded.clear();
        self.counts.publish(self.index, self.nodes);
        result.nodes = self.total_nodes();
        debug_assert!(result.best.is_some_and(|mv| root_moves.contains(&mv)));
        result
    }

    /// Sets the worker up for a new search of `root`, started at `started`: the clock, the
    /// limits, the counts, the root's side and the evaluation's states.
    fn begin(&mut self, root: &G, request: &SearchRequest<'_, G::Move>, started: Instant) {
        let limits = &request.limits;
        self.deadlines = limits.deadlines();
        self.clock_start = limits.since.unwrap_or(started);
        self.search_start = started;
        self.pondering = request.control.pondering.load(AtomicOrdering::Relaxed);
        self.hard_deadline = match self.pondering {
            true => None,
            false => self.deadlines.hard.map(|d| self.clock_start + d),
        };
        self.half_overhead = limits.move_overhead / 2;
        self.answered_by = match self.pondering {
            true => Some(started),
            false => self.hard_deadline.map(|d| d + self.half_overhead),
        };
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        let earlier = request.control.slice.and_then(|slice| slice.after);
        self.nodes = earlier.map_or(0, |earlier| earlier.nodes);
        self.others_nodes = 0;
        // A later slice searches at least until its first poll: however short the slices,
        // each one stores some work for the next.
        self.next_poll = earlier.map_or(0, |_| self.nodes + POLL_INTERVAL);
        // A helper may be told to stop at any time: the main worker's answer never waits
        // for it. A later slice is past its first iteration.
        self.interruptible = self.is_helper() || earlier.is_some();
        self.stopped = false;
        self.begin_slice(request);
        self.seldepth = 0;
        if earlier.is_none() {
            self.ordering.new_search();
        }
        self.root_side = root.side_to_move();
        self.root_draw = -request.options.contempt;
        // The plies' states keep their room from search to search: only the root's is set,
        // the others are written before they are read.
        let root_state = root.state(&self.evaluator);
        if self.states_stale {
            self.eval_states.clear();
            self.eval_states.resize(MAX_PLY + 1, root_state);
            self.states_stale = false;
        } else {
            self.eval_states[0].clone_from(&root_state);
        }
        self.pending_changes = [None; MAX_PLY + 1];
    }

    /// The root's legal moves that the search considers: those in `only` (`searchmoves`)
    /// where any of them is legal, the others left out of every iteration; else all.
    fn root_moves(&mut self, game: &mut G, only: &[G::Move]) -> Vec<G::Move> {
        let mut root_moves = Vec::new();
        game.generate_moves(&mut root_moves);
        self.root_excluded.clear();
        if root_moves.iter().any(|mv| only.contains(mv)) {
            self.root_excluded
                .extend(root_moves.iter().filter(|mv| !only.contains(mv)));
            root_moves.retain(|mv| only.contains(mv));
        }
        root_moves
    }

    /// The root move whose position scores best by the static evaluation (or the game's
    /// end it reaches), and its score: the answer of a search stopped before its first
    /// iteration completed. `root_moves` is not empty.
    fn best_one_ply_ahead(&self, game: &mut G, root_moves: &[G::Move]) -> (Option<G::Move>, Score) {
        let mut best = (None, -INFINITY);
        for &mv in root_moves {
            let score = self.score_without_choice(game, Some(mv));
            if score > best.1 {
                best = (Some(mv), score);
            }
        }
        (best.0, Score::from_raw(best.1))
    }

    /// The score of a root with nothing to choose: the finished game's, or the position
    /// after its only move, by the static evaluation (or the game's end it reaches).
    fn score_without_choice(&self, game: &mut G, only: Option<G::Move>) -> i32 {
        match only {
            None => {
                let outcome = game.outcome().expect("no move: game over");
                self.outcome_score(game, outcome, 0)
            }
            Some(only) => {
                let undo = game.make_move(only);
                let score = match game.outcome() {
                    Some(outcome) => -self.outcome_score(game, outcome, 1),
                    None => -game.evaluate_by(&self.evaluator),
                };
                game.unmake_move(only, undo);
                score
            }
        }
    }

    /// One iteration: a search of the root per line, each finding the best of the moves
    /// the lines before it did not take, into `lines`, best first. Fewer lines (none) when
    /// the search was stopped: an unfinished search of the root is not trusted.
    fn search_lines(
        &mut self,
        game: &mut G,
        depth: u32,
        lines_wanted: usize,
        previous_score: Option<i32>,
        control: Control<'_, G::Move>,
        lines: &mut Vec<(i32, Vec<G::Move>)>,
    ) {
        self.seldepth = 0;
        lines.clear();
        for _ in 0..lines_wanted {
            let score = match previous_score {
                Some(previous) if lines_wanted == 1 => {
                    self.aspiration_search(game, depth as i32, previous, control)
                }
                _ => self.negamax(game, depth as i32, -INFINITY, INFINITY, 0, control),
            };
            if self.stopped {
                break;
            }
            let Some(&first) = self.pv[0].first() else {
                break;
            };
            lines.push((score, self.pv[0].clone()));
            self.root_excluded.push(first);
        }
        // A later line may score above an earlier one (its search saw more): best first.
        lines.sort_by_key(|line| std::cmp::Reverse(line.0));
    }

    /// Takes a completed iteration's best line as the result and reports every line,
    /// numbered where several were asked for.
    fn complete_iteration(
        &self,
        depth: u32,
        lines: &[(i32, Vec<G::Move>)],
        multipv: bool,
        result: &mut SearchResult<G::Move>,
        started: Instant,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) {
        result.depth = depth;
        result.score = Score::from_raw(lines[0].0);
        result.pv.clone_from(&lines[0].1);
        result.best = lines[0].1.first().copied().or(result.best);
        result.nodes = self.total_nodes();
        for (index, (score, pv)) in lines.iter().enumerate() {
            let line = SearchResult {
                score: Score::from_raw(*score),
                pv: pv.clone(),
                ..result.clone()
            };
            let number = multipv.then_some(index as u32 + 1);
            on_info(&self.info(depth, &line, number, started));
        }
    }

    /// Whether the search ends after the iteration of `depth`: past the soft deadline,
    /// told to stop, or the result proven (a mate within the depth, or within the moves
    /// `go mate` asked for).
    fn enough_after(
        &self,
        depth: u32,
        result: &SearchResult<G::Move>,
        limits: &Limits,
        control: Control<'_, G::Move>,
    ) -> bool {
        let past_soft = !self.pondering
            && self
                .deadlines
                .soft
                .is_some_and(|soft| self.clock_start.elapsed() >= soft);
        let proven = match result.score {
            Score::Mate(plies) => {
                plies.unsigned_abs() <= depth
                    || limits
                        .mate
                        .is_some_and(|moves| plies > 0 && plies.unsigned_abs().div_ceil(2) <= moves)
            }
            Score::Centipawns(_) => false,
        };
        past_soft || control.stop.load(AtomicOrdering::Relaxed) || proven
    }

    /// Searches the root in a window around the last iteration's score (an aspiration
    /// window, in games that ask for one): most iterations score near the last, and the
    /// narrow window cuts more. A score on or outside a bound says only that the value is
    /// beyond it, so that side of the window is widened, twice as far each time, and the
    /// root searched again.
    fn aspiration_search(
        &mut self,
        game: &mut G,
        depth: i32,
        previous: i32,
        control: Control<'_, G::Move>,
    ) -> i32 {
        if G::ASPIRATION_WINDOW == 0 || depth < ASPIRATION_MIN_DEPTH || previous.abs() >= DECIDED {
            return self.negamax(game, depth, -INFINITY, INFINITY, 0, control);
        }
        let Window {
            mut alpha,
            mut beta,
            mut delta,
        } = self.slicing.resumed_window.take().unwrap_or(Window {
            alpha: previous - G::ASPIRATION_WINDOW,
            beta: previous + G::ASPIRATION_WINDOW,
            delta: G::ASPIRATION_WINDOW,
        });
        loop {
            let score = self.negamax(game, depth, alpha, beta, 0, control);
            if self.slicing.cut {
                self.slicing.cut_window = Some(Window { alpha, beta, delta });
            }
            if self.stopped || (score > alpha && score < beta) {
                return score;
            }
            delta *= 2;
            if score <= alpha {
                alpha = if delta > ASPIRATION_LIMIT {
                    -INFINITY
                } else {
                    score - delta
                };
            } else {
                beta = if delta > ASPIRATION_LIMIT {
                    INFINITY
                } else {
                    score + delta
                };
            }
        }
    }

    fn is_helper(&self) -> bool {
        self.index > 0
    }

    /// Whether this worker leaves out the iteration of `depth`: helpers each skip their own
    /// pattern of depths, so that the team searches several depths at once and the table
    /// fills from all of them. Helper h (from 1) is in group k of 2k helpers (helpers 1-2,
    /// 3-6, 7-12, ...), which search in runs of k depths and skip the next k, each helper of
    /// the group shifted by its place in it.
    fn skips(&self, depth: u32) -> bool {
        if !self.is_helper() {
            return false;
        }
        let mut place = self.index - 1;
        let mut group = 1;
        while place >= 2 * group {
            place -= 2 * group;
            group += 1;
        }
        (depth as usize + place) / group % 2 == 1
    }

    /// The nodes of the whole team: this worker's exactly, the others' as last published.
    fn total_nodes(&self) -> u64 {
        self.nodes + self.counts.others(self.index)
    }

    fn info(
        &self,
        depth: u32,
        result: &SearchResult<G::Move>,
        multipv: Option<u32>,
        started: Instant,
    ) -> Info<G::Move> {
        Info::report(
            result,
            depth,
            self.seldepth as u32,
            Effort {
                nodes: self.total_nodes(),
                hashfull: self.tt.hashfull(),
                tbhits: self.oracle.as_ref().map(|_| self.counts.oracle_hits()),
            },
            started,
            multipv,
        )
    }

    /// Counts a node; every `POLL_INTERVAL` nodes, looks at the stop flag, the ponder flag
    /// and the clock.
    #[inline]
    fn visit_node(&mut self, control: Control<'_, G::Move>) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            if !self.interruptible {
                // The first iteration: until it runs away, only a stop once the move has
                // been answered for.
                if self.nodes < self.first_iteration_nodes {
                    self.next_poll = (self.nodes + POLL_INTERVAL).min(self.first_iteration_nodes);
                    self.stopped |= control.stop.load(AtomicOrdering::Relaxed)
                        && self.answered_by.is_some_and(|d| Instant::now() >= d);
                    return;
                }
                self.interruptible = true;
                self.must_stop();
            }
            self.next_poll = self.nodes + POLL_INTERVAL;
            self.counts.publish(self.index, self.nodes);
            self.others_nodes = self.counts.others(self.index);
            self.poll_ponderhit(control);
            self.stopped |= control.stop.load(AtomicOrdering::Relaxed)
                || self.hard_deadline.is_some_and(|d| Instant::now() >= d);
            if !self.stopped && self.slice_over() {
                self.stopped = true;
                self.slicing.cut = true;
            }
        }
    }

    /// Lets the limits hold from now on (after the first iteration), with a look at them
    /// at the next node.
    fn become_interruptible(&mut self) {
        self.interruptible = true;
        self.next_poll = self.next_poll.min(self.nodes);
    }

    /// Tells `control` which root move the main worker starts on, once the search has run
    /// long enough for a GUI to want to know.
    fn report_root_move(
        &self,
        control: Control<'_, G::Move>,
        depth: i32,
        mv: G::Move,
        number: usize,
    ) {
        if let Some(reports) = control.root_moves
            && !self.is_helper()
            && self.search_start.elapsed() >= reports.after
        {
            (reports.report)(RootMove {
                depth: depth as u32,
                mv,
                number,
            });
        }
    }

    /// After a `ponderhit`, the clock starts: the deadlines count from now.
    fn poll_ponderhit(&mut self, control: Control<'_, G::Move>) {
        if self.pondering && !control.pondering.load(AtomicOrdering::Relaxed) {
            self.pondering = false;
            self.clock_start = Instant::now();
            self.hard_deadline = self.deadlines.hard.map(|d| self.clock_start + d);
            self.answered_by = self.hard_deadline.map(|d| d + self.half_overhead);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lerontenin::Lerontenin;
    use crate::games::lielow::Lielow8;
    use crate::rules::Notation;
    use crate::rules::Rules;
    use crate::search::limits::Limits;
    use crate::search::request::RootOptions;
    use std::sync::atomic::AtomicBool;

    /// A worker of one thread whose first iteration may take `budget` nodes.
    fn worker<G: Searchable>(budget: u64) -> Worker<G> {
        let tt = Arc::new(TranspositionTable::new(1, 1));
        let mut worker = Worker::new(tt, NodeCounts::new(1), 0);
        worker.first_iteration_nodes = budget;
        worker
    }

    /// A search of `root`, its stop flag up from the start if `stop`.
    fn search_from<G: Searchable>(
        worker: &mut Worker<G>,
        root: &G,
        limits: Limits,
        stop: bool,
    ) -> SearchResult<G::Move> {
        ponder_from(worker, root, limits, stop, false)
    }

    /// The same, a ponder search if `pondering`.
    fn ponder_from<G: Searchable>(
        worker: &mut Worker<G>,
        root: &G,
        limits: Limits,
        stop: bool,
        pondering: bool,
    ) -> SearchResult<G::Move> {
        let (stop, pondering) = (AtomicBool::new(stop), AtomicBool::new(pondering));
        let request = SearchRequest {
            limits,
            options: RootOptions::default(),
            control: Control::new(&stop, &pondering),
        };
        worker.search_with(root, &request, &mut |_| {})
    }

    fn search(worker: &mut Worker<Lielow8>, limits: Limits, stop: bool) -> SearchResult<Mv> {
        search_from(worker, &Lielow8::start(), limits, stop)
    }

    /// Limits of one move of `movetime` ms whose clock started at `since`.
    fn timed(since: Instant, movetime: u64) -> Limits {
        Limits {
            movetime: Some(Duration::from_millis(movetime)),
            since: Some(since),
            ..Limits::default()
        }
    }

    type Mv = <Lielow8 as Rules>::Move;

    /// A first iteration completes within its budget whatever the limits say; past it
    /// (here 16 nodes, where the start's first iteration takes about fifty) a node limit
    /// and the stop flag hold, and the answer is the move best one ply ahead. Within it,
    /// the stop flag holds once the move has been answered for.
    #[test]
    fn a_first_iteration_that_runs_past_its_budget_is_stopped_and_answers_by_one_ply() {
        let one_node = Limits {
            nodes: Some(1),
            ..Limits::default()
        };
        let whole = search(&mut worker(FIRST_ITERATION_NODES), one_node, false);
        assert!(whole.depth >= 1, "{whole:?}");
        assert!(
            whole.nodes > 16,
            "the first iteration takes {} nodes",
            whole.nodes
        );

        let mut moves = Vec::new();
        Lielow8::start().generate_moves(&mut moves);
        let mut tight = worker(16);
        let by_nodes = search(&mut tight, one_node, false);
        assert_eq!(by_nodes.depth, 0, "{by_nodes:?}");
        assert!(by_nodes.nodes <= 17, "{by_nodes:?}");
        let best = by_nodes.best.expect("a move");
        assert!(moves.contains(&best));
        let one_ply = tight.best_one_ply_ahead(&mut Lielow8::start(), &moves);
        assert_eq!((by_nodes.best, by_nodes.score), one_ply);
        // Stopped before it began, by the stop flag, the same; within the budget, with no
        // deadline, the first iteration completes.
        let by_stop = search(&mut worker(16), Limits::default(), true);
        assert_eq!((by_stop.depth, by_stop.best), (0, by_nodes.best));
        let untimed = search(&mut worker(FIRST_ITERATION_NODES), Limits::default(), true);
        assert!(untimed.depth >= 1, "{untimed:?}");
        // With a deadline, a stop before the watchdog's last moment (the hard deadline and
        // half the overhead) lets the first iteration complete; one after it does not.
        let now = Instant::now();
        let early = search(&mut worker(FIRST_ITERATION_NODES), timed(now, 60_000), true);
        assert!(early.depth >= 1, "{early:?}");
        // A move of 20 ms asked for a second ago: its last moment is long past.
        let late = timed(now - Duration::from_secs(1), 20);
        let late = search(&mut worker(FIRST_ITERATION_NODES), late, true);
        assert_eq!((late.depth, late.best), (0, by_nodes.best));
        // With no limit, the budget only lets the limits hold: the iterations go on.
        let depth_2 = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        assert_eq!(search(&mut worker(16), depth_2, false).depth, 2);
    }

    /// A Lerontenin race whose first iteration takes 1.24 million nodes (a quiescence
    /// search among a dozen divided pieces).
    const RUNAWAY: &str = "L S@89#73,D@90,Ta=1@98,Tb=2@98,Qa=1@98,Qba=1@94,Qbb=2@92,Pa=1@93,\
        Pbaa=1@98,Pbab=1@93,Pbba=1@93,Pbbb=1@93,Xa=1@97+1,Xb=5@91,H@98 S@95#89,D@92,Ta=1@98,\
        Tb=2@92,Qa=1@98,Qba=1@93,Qbb=2@92,Pa=1@93,Pba=2@95+1,Pbb=2@95+2,Xa=1@93,Xba=1@93,\
        Xbba=1@93,Xbbba=1@98,Xbbbb=2@92,H@98 0/0 866";

    /// Once its move has been answered for, a first iteration that runs away ends at its
    /// next look at the stop flag, not at the budget: the daemon waits for the last search
    /// to end before it starts the next, on that move's clock.
    #[test]
    fn a_runaway_first_iteration_ends_at_a_stop_once_its_move_was_answered_for() {
        let race = Lerontenin::parse_position(RUNAWAY).expect("the race");
        let answered_for = || timed(Instant::now() - Duration::from_secs(1), 20);
        // With the built-in network, as the engine plays.
        let runaway = || {
            let mut worker = worker::<Lerontenin>(FIRST_ITERATION_NODES);
            worker.set_evaluator(Evaluator::shipped::<Lerontenin>());
            worker
        };
        let unstopped = search_from(&mut runaway(), &race, answered_for(), false);
        assert_eq!(unstopped.depth, 0, "{unstopped:?}");
        assert!(unstopped.nodes >= FIRST_ITERATION_NODES, "{unstopped:?}");
        let stopped = search_from(&mut runaway(), &race, answered_for(), true);
        assert_eq!((stopped.depth, stopped.best), (0, unstopped.best));
        assert!(stopped.nodes <= POLL_INTERVAL, "{stopped:?}");
        // A ponder search is stopped only when its guess missed: at once, clock or not.
        let later = timed(Instant::now(), 60_000);
        let missed = ponder_from(&mut runaway(), &race, later, true, true);
        assert_eq!(missed.depth, 0, "{missed:?}");
        assert!(missed.nodes <= POLL_INTERVAL, "{missed:?}");
    }
}
