//! The search of one node: negamax alpha-beta with the transposition table, null-move
//! pruning, principal-variation search with late move reductions, and quiescence.

use super::Worker;
use crate::search::limits::MAX_PLY;
use crate::search::ordering;
use crate::search::request::Control;
use crate::search::score::{DECIDED, INFINITY, from_tt, to_tt};
use crate::search::searchable::Searchable;
use crate::search::tt::{Bound, Entry, fingerprint};

/// The most captures the quiescence search follows past the depth limit.
const QUIESCENCE_PLIES: u32 = 12;
/// How gently late moves are reduced (see [`late_move_reduction`]): at 6 plies from the
/// horizon the move at index 3 loses one ply, the one at index 8 two and at index 40
/// three; at 12 plies the one at index 40 loses four.
const LATE_MOVE_DIVISOR: f32 = 2.25;
/// The least remaining depth at which a null move is tried.
const NULL_MOVE_MIN_DEPTH: i32 = 3;

/// A node as the search of its moves sees it: the plies left to the horizon, the window
/// and the distance from the root.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
}

impl<G: Searchable> Worker<G> {
    /// Whether the search must end now: stopped, or the team out of nodes (the others'
    /// nodes as read at the last poll).
    #[inline]
    pub(super) fn must_stop(&mut self) -> bool {
        self.stopped |= self.interruptible && self.nodes + self.others_nodes >= self.node_limit;
        self.stopped
    }

    /// The score of `game` for its side to move, searched `depth` plies deep (then by
    /// quiescence) in the window (`alpha`, `beta`), `ply` plies from the root; its best
    /// line is left in `pv[ply]`.
    pub(super) fn negamax(
        &mut self,
        game: &mut G,
        depth: i32,
        alpha: i32,
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
        // Step 2. Abort: the score of an aborted search is never used (a first iteration
        // aborted, which only one that runs away is, answers by one ply).
        if ply > 0 && self.must_stop() {
            return 0;
        }
        // Step 3. Transposition table.
        let key = game.hash();
        let entry = self.tt.probe(key);
        let pv_node = beta - alpha > 1;
        if ply > 0
            && !pv_node
            && let Some(score) = table_cutoff(entry, game, depth, alpha, beta, ply)
        {
            return score;
        }
        // The node is searched: its evaluation's state is due now (see `push_eval_state`).
        self.materialize_eval_state(game, ply);
        // Step 4. Null move.
        if !pv_node && let Some(score) = self.null_move(game, depth, beta, ply, control) {
            return score;
        }
        // Step 5. Generate and order the moves.
        let (mut moves, mut scores, root_filtered) = self.ordered_moves(game, entry, ply);

        // Step 6. A forced move (the only legal one, a pass say) costs no depth: the line
        // is followed as far as if there had been a choice.
        let depth = if moves.len() == 1 && ply < MAX_PLY / 2 && !root_filtered {
            depth + 1
        } else {
            depth
        };

        // Step 7. Principal-variation search over the moves, best-looking first.
        let node = Node {
            depth,
            alpha,
            beta,
            ply,
        };
        let (best_score, best_move) =
            self.search_moves(game, &mut moves, &mut scores, node, control);
        self.moves[ply] = moves;
        self.scores[ply] = scores;

        // Step 9. Store what was learned (not from an aborted search, nor from a root that
        // left moves out: its value is not the position's).
        if !self.stopped && !root_filtered {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let best = best_move.as_ref().map(fingerprint);
            let score = to_tt(best_score, ply);
            self.tt.store(key, best, score, depth as i16, bound);
        }
        best_score
    }

    /// The principal-variation search of a node's ordered moves, best-looking first: the
    /// best score and move, the line in `pv[ply]`, the quiet move of a cutoff rewarded.
    fn search_moves(
        &mut self,
        game: &mut G,
        moves: &mut [G::Move],
        scores: &mut [i32],
        node: Node,
        control: Control<'_, G::Move>,
    ) -> (i32, Option<G::Move>) {
        let Node {
            depth,
            mut alpha,
            beta,
            ply,
        } = node;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let resumed = ply == 0 && self.root_start(&mut best_score, &mut best_move, &mut alpha);
        for index in 0..moves.len() {
            let mv = ordering::pick_next(moves, scores, index);
            if ply == 0 {
                if resumed && self.slicing.root.searched(mv) {
                    continue;
                }
                self.report_root_move(control, depth, mv, index + 1);
            }
            let undo = game.make_move(mv);
            self.push_eval_state(game, mv, &undo, ply);
            let node = Node { alpha, ..node };
            let score = self.search_child(game, node, index, scores[index], control);
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
            if ply == 0 {
                self.root_searched(mv, best_score, best_move);
            }
            if alpha >= beta {
                // Step 8. A cutoff: remember the quiet move that caused it.
                if !game.is_tactical(mv) {
                    self.ordering.reward(mv, ply, depth);
                }
                break;
            }
        }
        (best_score, best_move)
    }

    /// The score of a move just made (the one at `index` of the node's order, with its
    /// ordering score), for the node that made it: the first move in the
    /// full window; a later one in a null window that proves it worse than the best so
    /// far, re-searched in the full window in the rare case it is not. A late quiet move is
    /// first searched shallower (late move reduction): ordering put it there because it is
    /// unlikely to be best, and the move that proves otherwise gets its full depth back.
    fn search_child(
        &mut self,
        game: &mut G,
        node: Node,
        index: usize,
        ordering_score: i32,
        control: Control<'_, G::Move>,
    ) -> i32 {
        let Node {
            depth,
            alpha,
            beta,
            ply,
        } = node;
        if index == 0 {
            return -self.negamax(game, depth - 1, -beta, -alpha, ply + 1, control);
        }
        let reduction = late_move_reduction::<G>(depth, index, ordering_score);
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
    }

    /// Null-move pruning, off the principal variation: where the side to move stands at
    /// beta or above by the static evaluation, let the opponent move twice; if a reduced
    /// search still holds beta, a real move almost surely would (games say whether passing
    /// is a fair test for them). The node's score where the pass proves it (0 when the
    /// search stopped meanwhile), `None` where the node must be searched.
    fn null_move(
        &mut self,
        game: &mut G,
        depth: i32,
        beta: i32,
        ply: usize,
        control: Control<'_, G::Move>,
    ) -> Option<i32> {
        let worth_trying = G::NULL_MOVE_PRUNING
            && ply > 0
            && depth >= NULL_MOVE_MIN_DEPTH
            && !self.after_null_move[ply]
            && beta.abs() < DECIDED
            && game.evaluate_with(&self.evaluator, &self.eval_states[ply]) >= beta;
        if !worth_trying {
            return None;
        }
        game.make_null_move();
        // A pass changes no piece: the child's state is the parent's.
        let (parents, children) = self.eval_states.split_at_mut(ply + 1);
        children[0].clone_from(&parents[ply]);
        self.pending_changes[ply + 1] = None;
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
            return Some(0);
        }
        // A proven result after a pass proves nothing about the real moves.
        (score >= beta).then(|| score.min(DECIDED - 1))
    }

    /// The node's moves, scored for ordering (taken from the ply's buffers, which the
    /// caller gives back), and whether the root left some out.
    fn ordered_moves(
        &mut self,
        game: &G,
        entry: Option<Entry>,
        ply: usize,
    ) -> (Vec<G::Move>, Vec<i32>, bool) {
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
        (moves, scores, root_filtered)
    }

    /// Searches captures only, until the position is quiet, so that the static value is
    /// never taken in the middle of an exchange. The side to move may stand pat. At most
    /// `plies_left` captures deep: in a race game pieces can throw each other back for
    /// ever, and without a bound such a chain branches out into millions of nodes.
    pub(super) fn quiescence(
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
        self.materialize_eval_state(game, ply);
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

    /// Notes what `mv` (just made, with `undo`) changed, from the node at `ply` to the one
    /// at `ply + 1`: that node's evaluation's state is worked out from it only when the
    /// node is searched ([`Worker::materialize_eval_state`]), not when it ends at once
    /// (the game's end, a table cutoff, a stop), which would waste the update.
    #[inline]
    fn push_eval_state(&mut self, game: &G, mv: G::Move, undo: &G::Undo, ply: usize) {
        self.pending_changes[ply + 1] = Some(game.changes(mv, undo));
    }

    /// Makes the state of the node at `ply` (the position `game`) up to date, from its
    /// parent's, which is (a node works its state out before its children are made).
    /// Again at the same node, it does nothing: a re-search keeps the state.
    #[inline]
    fn materialize_eval_state(&mut self, game: &G, ply: usize) {
        if let Some(changes) = self.pending_changes[ply].take() {
            let (parents, children) = self.eval_states.split_at_mut(ply);
            game.update(
                &self.evaluator,
                &parents[ply - 1],
                changes,
                &mut children[0],
            );
        }
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

/// Whether a table entry of at least `depth` ends the node: a score the entry's bound
/// proves outside the window, or exact. Never on the principal variation (a full window),
/// whose line is searched and reported, nor at the root.
fn table_cutoff<G: Searchable>(
    entry: Option<Entry>,
    game: &G,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
) -> Option<i32> {
    let entry = entry.filter(|e| e.depth as i32 >= depth)?;
    let score = from_tt(entry.score, ply, game.counter_plies_left());
    let usable = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    usable.then_some(score)
}
