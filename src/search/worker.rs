//! One thread's search: iterative deepening over a negamax alpha-beta with
//! principal-variation search, late move reductions, null-move pruning, move ordering and
//! quiescence, reading and writing the transposition table its team shares.
//!
//! A worker is the team's main worker (index 0: it keeps the clock, reports, and its first
//! iteration always completes) or a helper (it skips some depths, so that the team's threads
//! spread over several depths at once, and it stops when the main worker tells it). The node
//! count of each worker is published to the team every poll, so that a node limit and the
//! reported totals count every thread.

use std::sync::Arc;
use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::Instant;

use super::counts::NodeCounts;
use super::limits::{Deadlines, Limits};
use super::oracle::Oracle;
use super::ordering::{self, MoveOrdering};
use super::score::{DECIDED, INFINITY, MATE, Score, from_tt, to_tt};
use super::searchable::Searchable;
use super::tt::{Bound, TranspositionTable, fingerprint};
use super::{Control, Effort, Info, MAX_PLY, RootMove, RootOptions, SearchResult};
use crate::core::{Outcome, Player};
use crate::eval::Evaluator;

/// The most captures the quiescence search follows past the depth limit.
const QUIESCENCE_PLIES: u32 = 12;
/// Nodes between two looks at the clock and the stop flag: about a millisecond of work
/// at the slowest, so that a stop is obeyed within a few milliseconds. A node limit holds
/// to within this many nodes a thread.
pub const POLL_INTERVAL: u64 = 1024;
/// How gently late moves are reduced (see [`late_move_reduction`]): at 6 plies from the
/// horizon the move at index 3 loses one ply, the one at index 8 two and at index 40
/// three; at 12 plies the one at index 40 loses four.
const LATE_MOVE_DIVISOR: f32 = 2.25;
/// The least depth whose root is searched in an aspiration window: shallower iterations
/// cost too little to gain, and their scores swing most.
const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Past this half-width an aspiration window is opened fully on the failing side.
const ASPIRATION_LIMIT: i32 = 1000;
/// The least remaining depth at which a null move is tried.
const NULL_MOVE_MIN_DEPTH: i32 = 3;

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
    /// The evaluation's state of the node at each ply, pushed beside make_move and
    /// dropped beside unmake (set from the root at the start of every search).
    eval_states: Vec<G::State>,
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
    /// Whether the node at each ply was reached by a null move (no second one follows).
    after_null_move: [bool; MAX_PLY + 1],
    /// False during the first iteration, which always completes (it takes microseconds)
    /// so that even a search with no time left answers with a considered move.
    interruptible: bool,
    stopped: bool,
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
            after_null_move: [false; MAX_PLY + 1],
            interruptible: false,
            stopped: false,
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
    }

    /// Publishes this worker's node count to `counts` (a new team) from now on.
    pub(super) fn set_counts(&mut self, counts: Arc<NodeCounts>) {
        self.counts = counts;
    }

    /// Forgets the killers and history learned.
    pub(super) fn clear_ordering(&mut self) {
        self.ordering = MoveOrdering::new();
    }

    /// Searches `root` within `limits` until `control.stop` is set, calling `on_info` after
    /// every completed iteration (one [`Info`] per line with MultiPV, best first; the result
    /// is the best line's). Always returns a legal move when the game is not over.
    pub(super) fn search_with(
        &mut self,
        root: &G,
        limits: &Limits,
        options: &RootOptions<G::Move>,
        control: Control<'_, G::Move>,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let started = Instant::now();
        self.deadlines = limits.deadlines();
        self.clock_start = limits.since.unwrap_or(started);
        self.search_start = started;
        self.pondering = control.pondering.load(AtomicOrdering::Relaxed);
        self.hard_deadline = match self.pondering {
            true => None,
            false => self.deadlines.hard.map(|d| self.clock_start + d),
        };
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.others_nodes = 0;
        self.next_poll = 0;
        // A helper may be told to stop at any time: the main worker's answer never waits
        // for it.
        self.interruptible = self.is_helper();
        self.stopped = false;
        self.ordering.new_search();
        self.root_side = root.side_to_move();
        self.root_draw = -options.contempt;

        let mut game = root.clone();
        self.eval_states.clear();
        self.eval_states
            .resize(MAX_PLY + 1, root.state(&self.evaluator));
        let mut root_moves = Vec::new();
        game.generate_moves(&mut root_moves);
        // `searchmoves`: the other moves are left out of every iteration.
        self.root_excluded.clear();
        if root_moves.iter().any(|mv| options.only.contains(mv)) {
            self.root_excluded
                .extend(root_moves.iter().filter(|mv| !options.only.contains(mv)));
            root_moves.retain(|mv| options.only.contains(mv));
        }
        let filtered = self.root_excluded.len();
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            score: Score::Centipawns(0),
            depth: 0,
            nodes: 0,
            pv: root_moves.first().copied().into_iter().collect(),
        };
        self.seldepth = 0;
        if root_moves.len() <= 1 {
            // Game over, or one move to choose from: nothing to choose, only the score to tell.
            result.score = Score::from_raw(match root_moves.first() {
                None => {
                    let outcome = game.outcome().expect("no move: game over");
                    self.outcome_score(&game, outcome, 0)
                }
                Some(&only) => {
                    let undo = game.make_move(only);
                    let score = match game.outcome() {
                        Some(outcome) => -self.outcome_score(&game, outcome, 1),
                        None => -game.evaluate_by(&self.evaluator),
                    };
                    game.unmake_move(only, undo);
                    score
                }
            });
            // With several lines asked for, the one line is still line 1.
            let multipv = (options.multipv > 1).then_some(1);
            on_info(&self.info(1, &result, multipv, started));
            return result;
        }

        let lines_wanted = options.multipv.clamp(1, root_moves.len());
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut lines: Vec<(i32, Vec<G::Move>)> = Vec::with_capacity(lines_wanted);
        let mut previous_score = None;
        for depth in 1..=max_depth {
            if self.skips(depth) {
                continue;
            }
            self.seldepth = 0;
            lines.clear();
            self.root_excluded.truncate(filtered);
            // Step 0. One search of the root per line: each finds the best of the moves
            // that the lines before it did not take.
            for _ in 0..lines_wanted {
                let score = match previous_score {
                    Some(previous) if lines_wanted == 1 => {
                        self.aspiration_search(&mut game, depth as i32, previous, control)
                    }
                    _ => self.negamax(&mut game, depth as i32, -INFINITY, INFINITY, 0, control),
                };
                if self.stopped {
                    break; // an unfinished search of the root is not trusted
                }
                let Some(&first) = self.pv[0].first() else {
                    break;
                };
                lines.push((score, self.pv[0].clone()));
                self.root_excluded.push(first);
            }
            self.interruptible = true;
            if lines.is_empty() {
                break;
            }
            // A later line may score above an earlier one (its search saw more): best first.
            lines.sort_by_key(|line| std::cmp::Reverse(line.0));
            result.depth = depth;
            previous_score = Some(lines[0].0);
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
                let multipv = (lines_wanted > 1).then_some(index as u32 + 1);
                on_info(&self.info(depth, &line, multipv, started));
            }
            self.poll_ponderhit(control);
            let past_soft = !self.pondering
                && self
                    .deadlines
                    .soft
                    .is_some_and(|soft| self.clock_start.elapsed() >= soft);
            let proven = match result.score {
                Score::Mate(plies) => {
                    plies.unsigned_abs() <= depth
                        || limits.mate.is_some_and(|moves| {
                            plies > 0 && plies.unsigned_abs().div_ceil(2) <= moves
                        })
                }
                Score::Centipawns(_) => false,
            };
            if self.stopped || past_soft || control.stop.load(AtomicOrdering::Relaxed) || proven {
                break;
            }
        }
        self.root_excluded.clear();
        self.counts.publish(self.index, self.nodes);
        result.nodes = self.total_nodes();
        debug_assert!(result.best.is_some_and(|mv| root_moves.contains(&mv)));
        result
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
        let mut delta = G::ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.negamax(game, depth, alpha, beta, 0, control);
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
        if self.nodes >= self.next_poll && self.interruptible {
            self.next_poll = self.nodes + POLL_INTERVAL;
            self.counts.publish(self.index, self.nodes);
            self.others_nodes = self.counts.others(self.index);
            self.poll_ponderhit(control);
            self.stopped |= control.stop.load(AtomicOrdering::Relaxed)
                || self.hard_deadline.is_some_and(|d| Instant::now() >= d);
        }
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
        }
    }

    /// The score of a position whose value needs no search, for the side to move `ply`
    /// plies from the root: a finished game, a position that repeats an earlier one (how
    /// the repetition rule would end the cycle), or one the oracle knows. The root is
    /// always searched (it has a move to find), so only its finished game counts there.
    #[inline]
    fn settled_score(&self, game: &G, ply: usize) -> Option<i32> {
        if let Some(outcome) = game.outcome() {
            return Some(self.outcome_score(game, outcome, ply));
        }
        if ply == 0 {
            return None;
        }
        if game.repeats_earlier_position() {
            return Some(self.repetition_score(game, ply));
        }
        self.oracle_score(game, ply)
    }

    /// The score of a finished game for the side to move, `ply` plies from the root: the
    /// sooner a win (the later a loss), the better.
    #[inline]
    fn outcome_score(&self, game: &G, outcome: Outcome, ply: usize) -> i32 {
        match outcome {
            Outcome::Draw => self.draw_score(game),
            Outcome::Win(winner) if winner == game.side_to_move() => MATE - ply as i32,
            Outcome::Win(_) => -MATE + ply as i32,
        }
    }

    /// The score of a position that occurred before, for the side to move: how the game's
    /// repetition rule would decide the cycle, a decided game short of a proven one.
    #[inline]
    fn repetition_score(&self, game: &G, ply: usize) -> i32 {
        match game.repetition_outcome() {
            Outcome::Draw => self.draw_score(game),
            Outcome::Win(winner) if winner == game.side_to_move() => DECIDED - ply as i32,
            Outcome::Win(_) => -DECIDED + ply as i32,
        }
    }

    /// A draw by the rules for the side to move: the contempt below zero for the root's
    /// side, as far above for the other. (A draw the oracle proves stays 0: it is the
    /// value under best play, not a way out the other side may miss.)
    #[inline]
    fn draw_score(&self, game: &G) -> i32 {
        match game.side_to_move() == self.root_side {
            true => self.root_draw,
            false => -self.root_draw,
        }
    }

    /// The score the oracle gives the position, where it knows it (counted as a table
    /// hit).
    #[inline]
    fn oracle_score(&self, game: &G, ply: usize) -> Option<i32> {
        let exact = self.oracle.as_deref()?.probe(game)?;
        self.counts.add_oracle_hit();
        Some(exact.raw_score(ply))
    }

    /// Whether the search must end now: stopped, or the team out of nodes (the others'
    /// nodes as read at the last poll).
    #[inline]
    fn must_stop(&mut self) -> bool {
        self.stopped |= self.interruptible && self.nodes + self.others_nodes >= self.node_limit;
        self.stopped
    }

    fn negamax(
        &mut self,
        game: &mut G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        control: Control<'_, G::Move>,
    ) -> i32 {
        self.pv[ply].clear();
        self.visit_node(control);
        self.seldepth = self.seldepth.max(ply);
        // Step 1. The end of the game, by any rule, a cycle or the oracle.
        if let Some(score) = self.settled_score(game, ply) {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(game, alpha, beta, ply, QUIESCENCE_PLIES, control);
        }
        // Step 2. Abort: the score of an aborted search is never used (the first
        // iteration is never aborted).
        if ply > 0 && self.must_stop() {
            return 0;
        }
        // Step 3. Transposition table: a deep enough result may end the node, but not on
        // the principal variation (a full window), whose line is searched and reported.
        let key = game.hash();
        let entry = self.tt.probe(key);
        let pv_node = beta - alpha > 1;
        if let Some(e) = entry
            && ply > 0
            && !pv_node
            && e.depth as i32 >= depth
        {
            let score = from_tt(e.score, ply, game.counter_plies_left());
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }

        // Step 4. Null move: where the side to move stands at beta or above by the static
        // evaluation, let the opponent move twice; if a reduced search still holds beta, a
        // real move almost surely would (games say whether passing is a fair test for them).
        if G::NULL_MOVE_PRUNING
            && !pv_node
            && ply > 0
            && depth >= NULL_MOVE_MIN_DEPTH
            && !self.after_null_move[ply]
            && beta.abs() < DECIDED
            && game.evaluate_with(&self.evaluator, &self.eval_states[ply]) >= beta
        {
            game.make_null_move();
            // A pass changes no piece: the child's state is the parent's.
            let (parents, children) = self.eval_states.split_at_mut(ply + 1);
            children[0].clone_from(&parents[ply]);
            let reduction = 2 + depth / 4;
            self.after_null_move[ply + 1] = true;
            let score = -self.negamax(
                game,
                depth - 1 - reduction,
                -beta,
                -beta + 1,
                ply + 1,
                control,
            );
            self.after_null_move[ply + 1] = false;
            game.unmake_null_move();
            if self.stopped {
                return 0;
            }
            if score >= beta {
                // A proven result after a pass proves nothing about the real moves.
                return score.min(DECIDED - 1);
            }
        }

        // Step 5. Generate and order the moves.
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        game.generate_moves(&mut moves);
        let root_filtered = ply == 0 && !self.root_excluded.is_empty();
        if root_filtered {
            moves.retain(|mv| !self.root_excluded.contains(mv));
        }
        // The table keeps a fingerprint of the best move: the move is the one that has it.
        let table_move = entry
            .and_then(|e| e.best)
            .and_then(|best| moves.iter().copied().find(|mv| fingerprint(mv) == best));
        // Every move is scored before the first is tried: trying the table move before
        // scoring the rest (staged ordering) was measured and saved nothing, since the
        // nodes that score most have no table move (docs/experiments.md).
        self.ordering
            .score(game, &moves, table_move, ply, &mut scores);

        // Step 6. A forced move (the only legal one, a pass say) costs no depth: the line
        // is followed as far as if there had been a choice.
        let depth = if moves.len() == 1 && ply < MAX_PLY / 2 && !root_filtered {
            depth + 1
        } else {
            depth
        };

        // Step 7. Principal-variation search over the moves, best-looking first.
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for index in 0..moves.len() {
            let mv = ordering::pick_next(&mut moves, &mut scores, index);
            if ply == 0 {
                self.report_root_move(control, depth, mv, index + 1);
            }
            let undo = game.make_move(mv);
            self.push_eval_state(game, mv, &undo, ply);
            let score = if index == 0 {
                -self.negamax(game, depth - 1, -beta, -alpha, ply + 1, control)
            } else {
                // A null window proves the move worse than the best so far; re-search the
                // rare move that is not. A late quiet move is first searched shallower
                // (late move reduction): ordering put it there because it is unlikely to
                // be best, and the move that proves otherwise gets its full depth back.
                let reduction = late_move_reduction::<G>(depth, index, scores[index]);
                let mut probe = -self.negamax(
                    game,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    control,
                );
                if reduction > 0 && probe > alpha {
                    probe = -self.negamax(game, depth - 1, -alpha - 1, -alpha, ply + 1, control);
                }
                if probe > alpha && probe < beta {
                    -self.negamax(game, depth - 1, -beta, -alpha, ply + 1, control)
                } else {
                    probe
                }
            };
            game.unmake_move(mv, undo);
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                }
            }
            if alpha >= beta {
                // Step 8. A cutoff: remember the quiet move that caused it.
                if !game.is_tactical(mv) {
                    self.ordering.reward(mv, ply, depth);
                }
                break;
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;

        // Step 9. Store what was learned (not from an aborted search, nor from a root that
        // left moves out: its value is not the position's).
        if !self.stopped && !root_filtered {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                best_move.as_ref().map(fingerprint),
                to_tt(best_score, ply),
                depth as i16,
                bound,
            );
        }
        best_score
    }

    /// Searches captures only, until the position is quiet, so that the static value is
    /// never taken in the middle of an exchange. The side to move may stand pat. At most
    /// `plies_left` captures deep: in a race game pieces can throw each other back for
    /// ever, and without a bound such a chain branches out into millions of nodes.
    fn quiescence(
        &mut self,
        game: &mut G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        plies_left: u32,
        control: Control<'_, G::Move>,
    ) -> i32 {
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = self.settled_score(game, ply) {
            return score;
        }
        let stand_pat = game.evaluate_with(&self.evaluator, &self.eval_states[ply]);
        if stand_pat >= beta || plies_left == 0 || ply >= MAX_PLY - 1 {
            return stand_pat;
        }
        if self.must_stop() {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        game.generate_tactical_moves(&mut moves);
        let mut best = stand_pat;
        for &mv in &moves {
            self.visit_node(control);
            let undo = game.make_move(mv);
            self.push_eval_state(game, mv, &undo, ply);
            let score = -self.quiescence(game, -beta, -alpha, ply + 1, plies_left - 1, control);
            game.unmake_move(mv, undo);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                }
            }
            if alpha >= beta {
                break;
            }
        }
        self.moves[ply] = moves;
        best
    }

    /// Sets the evaluation's state of the node at `ply + 1`, which `mv` (just made, with
    /// `undo`) leads to from the node at `ply`. Its unmake needs nothing: the next move
    /// from `ply` writes over it.
    #[inline]
    fn push_eval_state(&mut self, game: &G, mv: G::Move, undo: &G::Undo, ply: usize) {
        let (parents, children) = self.eval_states.split_at_mut(ply + 1);
        game.update(
            &self.evaluator,
            &parents[ply],
            game.changes(mv, undo),
            &mut children[0],
        );
    }

    /// `pv[ply]` becomes `mv` followed by the line found below it.
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (here, below) = self.pv.split_at_mut(ply + 1);
        let line = &mut here[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&below[0]);
    }
}

/// How many plies less the move at `index` of a node `depth` plies from the horizon is
/// searched with, given its ordering score: none for the table move, captures, killers and
/// the first moves, nor in games that turn reductions off. Later quiet moves lose
/// ln(depth) * ln(index) / LATE_MOVE_DIVISOR plies, rounded (at least one, and never the
/// last ply): the later a move stands and the deeper the node, the less likely the move is
/// best, as strong chess engines reduce.
fn late_move_reduction<G: Searchable>(depth: i32, index: usize, ordering_score: i32) -> i32 {
    if !G::REDUCE_LATE_MOVES || depth < 3 || index < 3 || !ordering::is_plain_quiet(ordering_score)
    {
        0
    } else {
        let plies = (depth as f32).ln() * (index as f32).ln() / LATE_MOVE_DIVISOR;
        (plies.round() as i32).clamp(1, depth - 2)
    }
}
