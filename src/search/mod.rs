//! Game-tree search: iterative-deepening negamax alpha-beta with principal-variation
//! search, a transposition table, move ordering and quiescence.
//!
//! Generic over [`Game`] and never naming a game: end rules come from `outcome()`
//! (repetition and move-limit draws included, since the games keep their history in their
//! state), the static value from `evaluate()`, and captures from `is_tactical()`.
//!
//! The search is protocol-free: it takes [`Limits`], a stop flag and an info callback, and
//! returns a [`SearchResult`]. No allocation happens per node: move lists and principal
//! variations live in per-ply buffers made once per searcher.

pub mod baseline;
mod limits;
mod ordering;
pub mod report;
pub mod score;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

pub use self::limits::{Clock, Deadlines, Limits};
use self::ordering::MoveOrdering;
pub use self::score::Score;
use self::score::{INFINITY, MATE, from_table, to_table};
use self::tt::{Bound, TranspositionTable};
use crate::game::{Game, Outcome};

/// The deepest the search goes (quiescence included).
pub const MAX_PLY: usize = 128;
/// The most captures the quiescence search follows past the depth limit.
const QUIESCENCE_PLIES: u32 = 12;
/// Nodes between two looks at the clock and the stop flag: about a millisecond of work
/// at the slowest, so that a stop is obeyed within a few milliseconds.
const POLL_INTERVAL: u64 = 1024;

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
    pub pv: Vec<M>,
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
}

/// A searcher for one game type: its transposition table and ordering heuristics persist
/// between searches until cleared.
pub struct Searcher<G: Game> {
    table: TranspositionTable<G::Move>,
    ordering: MoveOrdering<G::Move>,
    /// Per-ply buffers: the moves of a node and their ordering scores.
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from that ply.
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    seldepth: usize,
    node_limit: u64,
    /// The node count at which to look at the stop flag and the clock next.
    next_poll: u64,
    hard_deadline: Option<Instant>,
    stopped: bool,
}

impl<G: Game> Searcher<G> {
    /// A searcher with a transposition table of about `hash_mib` mebibytes.
    pub fn new(hash_mib: usize) -> Self {
        Searcher {
            table: TranspositionTable::new(hash_mib),
            ordering: MoveOrdering::new(),
            moves: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            scores: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            nodes: 0,
            seldepth: 0,
            node_limit: u64::MAX,
            next_poll: 0,
            hard_deadline: None,
            stopped: false,
        }
    }

    /// Resizes the transposition table (which clears it).
    pub fn resize(&mut self, hash_mib: usize) {
        self.table = TranspositionTable::new(hash_mib);
    }

    /// Forgets everything learned: table, killers and history.
    pub fn clear(&mut self) {
        self.table.clear();
        self.ordering = MoveOrdering::new();
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
        let started = Instant::now();
        let deadlines = limits.deadlines();
        self.hard_deadline = deadlines.hard.map(|d| started + d);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.next_poll = 0;
        self.stopped = false;
        self.table.new_search();
        self.ordering.new_search();

        let mut game = root.clone();
        let mut root_moves = Vec::new();
        game.generate_moves(&mut root_moves);
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            score: Score::Centipawns(0),
            depth: 0,
            nodes: 0,
            pv: root_moves.first().copied().into_iter().collect(),
        };
        if root_moves.len() <= 1 {
            // Game over, or one legal move: nothing to choose, only the score to tell.
            result.score = Score::from_raw(match root_moves.first() {
                None => outcome_score(&game, game.outcome().expect("no move: game over"), 0),
                Some(&only) => {
                    let undo = game.make_move(only);
                    let score = match game.outcome() {
                        Some(outcome) => -outcome_score(&game, outcome, 1),
                        None => -game.evaluate(),
                    };
                    game.unmake_move(only, undo);
                    score
                }
            });
            on_info(&self.info(1, &result, started));
            return result;
        }

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let score = self.negamax(&mut game, depth as i32, -INFINITY, INFINITY, 0, stop);
            if self.stopped && depth > 1 {
                break; // an unfinished iteration is not trusted
            }
            result.depth = depth;
            result.score = Score::from_raw(score);
            result.pv.clone_from(&self.pv[0]);
            result.best = self.pv[0].first().copied().or(result.best);
            result.nodes = self.nodes;
            on_info(&self.info(depth, &result, started));
            let past_soft = deadlines.soft.is_some_and(|soft| started.elapsed() >= soft);
            let proven =
                matches!(result.score, Score::Mate(plies) if plies.unsigned_abs() <= depth);
            if self.stopped || past_soft || stop.load(AtomicOrdering::Relaxed) || proven {
                break;
            }
        }
        result.nodes = self.nodes;
        debug_assert!(result.best.is_some_and(|mv| root_moves.contains(&mv)));
        result
    }

    fn info(&self, depth: u32, result: &SearchResult<G::Move>, started: Instant) -> Info<G::Move> {
        let time = started.elapsed();
        Info {
            depth,
            seldepth: (self.seldepth as u32).max(depth),
            score: result.score,
            nodes: self.nodes,
            nps: (self.nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
            time,
            hashfull: self.table.hashfull(),
            pv: result.pv.clone(),
        }
    }

    /// Counts a node; every `POLL_INTERVAL` nodes, looks at the stop flag and the clock.
    #[inline]
    fn visit_node(&mut self, stop: &AtomicBool) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + POLL_INTERVAL;
            self.stopped |= stop.load(AtomicOrdering::Relaxed)
                || self.hard_deadline.is_some_and(|d| Instant::now() >= d);
        }
    }

    /// Whether the search must end now: stopped, or out of nodes.
    #[inline]
    fn must_stop(&mut self) -> bool {
        self.stopped |= self.nodes >= self.node_limit;
        self.stopped
    }

    fn negamax(
        &mut self,
        game: &mut G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stop: &AtomicBool,
    ) -> i32 {
        self.pv[ply].clear();
        self.visit_node(stop);
        self.seldepth = self.seldepth.max(ply);
        // Step 1. The end of the game, by any rule.
        if let Some(outcome) = game.outcome() {
            return outcome_score(game, outcome, ply);
        }
        if ply > 0 && game.repeats_earlier_position() {
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(game, alpha, beta, ply, QUIESCENCE_PLIES, stop);
        }
        // Step 2. Abort: the score of an aborted search is never used (but the root's
        // first iteration, which always completes at least its first move).
        if ply > 0 && self.must_stop() {
            return 0;
        }
        // Step 3. Transposition table: a deep enough result may end the node, but not on
        // the principal variation (a full window), whose line is searched and reported.
        let key = game.hash();
        let entry = self.table.probe(key);
        let table_move = entry.and_then(|e| e.best);
        let pv_node = beta - alpha > 1;
        if let Some(e) = entry
            && ply > 0
            && !pv_node
            && e.depth as i32 >= depth
        {
            let score = from_table(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }

        // Step 4. Generate and order the moves.
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        game.generate_moves(&mut moves);
        self.ordering
            .score(game, &moves, table_move, ply, &mut scores);

        // Step 5. A forced move (the only legal one, a pass say) costs no depth: the line
        // is followed as far as if there had been a choice.
        let depth = if moves.len() == 1 && ply < MAX_PLY / 2 {
            depth + 1
        } else {
            depth
        };

        // Step 6. Principal-variation search over the moves, best-looking first.
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for index in 0..moves.len() {
            let mv = ordering::pick_next(&mut moves, &mut scores, index);
            let undo = game.make_move(mv);
            let score = if index == 0 {
                -self.negamax(game, depth - 1, -beta, -alpha, ply + 1, stop)
            } else {
                // A null window proves the move worse than the best so far; re-search the
                // rare move that is not.
                let probe = -self.negamax(game, depth - 1, -alpha - 1, -alpha, ply + 1, stop);
                if probe > alpha && probe < beta {
                    -self.negamax(game, depth - 1, -beta, -alpha, ply + 1, stop)
                } else {
                    probe
                }
            };
            game.unmake_move(mv, undo);
            if self.stopped && !(ply == 0 && index == 0) {
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
                // Step 7. A cutoff: remember the quiet move that caused it.
                if !game.is_tactical(mv) {
                    self.ordering.reward(mv, ply, depth);
                }
                break;
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;

        // Step 8. Store what was learned (not from an aborted search).
        if !self.stopped {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.table.store(
                key,
                best_move,
                to_table(best_score, ply),
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
        stop: &AtomicBool,
    ) -> i32 {
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = game.outcome() {
            return outcome_score(game, outcome, ply);
        }
        if game.repeats_earlier_position() {
            return 0;
        }
        let stand_pat = game.evaluate();
        if stand_pat >= beta || plies_left == 0 || ply >= MAX_PLY - 1 {
            return stand_pat;
        }
        if self.must_stop() {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        game.generate_moves(&mut moves);
        moves.retain(|&mv| game.is_tactical(mv));
        let mut best = stand_pat;
        for &mv in &moves {
            self.visit_node(stop);
            let undo = game.make_move(mv);
            let score = -self.quiescence(game, -beta, -alpha, ply + 1, plies_left - 1, stop);
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

    /// `pv[ply]` becomes `mv` followed by the line found below it.
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (here, below) = self.pv.split_at_mut(ply + 1);
        let line = &mut here[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&below[0]);
    }
}

/// The score of a finished game for the side to move, `ply` plies from the root: the sooner
/// a win (the later a loss), the better.
fn outcome_score<G: Game>(game: &G, outcome: Outcome, ply: usize) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(winner) if winner == game.side_to_move() => MATE - ply as i32,
        Outcome::Win(_) => -MATE + ply as i32,
    }
}
