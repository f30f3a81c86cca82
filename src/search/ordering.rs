//! Move ordering: the move the table remembers first, then captures, then the killer moves
//! of the ply (quiet moves that caused a cutoff in a sibling), then quiet moves by their
//! history of causing cutoffs anywhere.

use std::hash::Hash;

use super::move_hash::move_hash;

use super::limits::MAX_PLY;
use super::searchable::Searchable;

const TABLE_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 28;
const KILLER: [i32; 2] = [1 << 27, (1 << 27) - 1];
/// History scores stay below this, so they never outrank a killer.
const HISTORY_LIMIT: i32 = 1 << 20;
/// Entries of the history table (moves share them by hash). A quarter of this, small
/// enough for the first-level cache, was measured: no faster (docs/experiments.md).
const HISTORY_SIZE: usize = 1 << 14;

/// Killers and history for moves of type `M`.
pub struct MoveOrdering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
}

impl<M: Copy + Eq + Hash> MoveOrdering<M> {
    pub fn new() -> Self {
        MoveOrdering {
            killers: vec![[None; 2]; MAX_PLY],
            history: vec![0; HISTORY_SIZE],
        }
    }

    /// Before a new search: killers of the old root no longer apply, old history fades.
    pub fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    /// Fills `scores` with an ordering score for each of `moves`.
    pub fn score<G: Searchable<Move = M>>(
        &self,
        game: &G,
        moves: &[M],
        table_move: Option<M>,
        ply: usize,
        scores: &mut Vec<i32>,
    ) {
        scores.clear();
        let killers = self.killers[ply];
        scores.extend(moves.iter().map(|&mv| {
            if Some(mv) == table_move {
                TABLE_MOVE
            } else if game.is_tactical(mv) {
                TACTICAL
            } else if Some(mv) == killers[0] {
                KILLER[0]
            } else if Some(mv) == killers[1] {
                KILLER[1]
            } else {
                self.history[history_index(mv)]
            }
        }));
    }

    /// A quiet move caused a cutoff at `ply` with `depth` plies left.
    pub fn reward(&mut self, mv: M, ply: usize, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let entry = &mut self.history[history_index(mv)];
        *entry += depth * depth;
        if *entry >= HISTORY_LIMIT {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }
}

/// Whether a move with this ordering score is a quiet move ordered by its history alone:
/// not the table move, a capture or a killer.
#[inline]
pub fn is_plain_quiet(score: i32) -> bool {
    score < KILLER[1]
}

/// Moves the best-scored of `moves[from..]` to `from` (with its score) and returns it: a
/// selection sort done lazily, since a cutoff often comes after the first few moves.
#[inline]
pub fn pick_next<M: Copy>(moves: &mut [M], scores: &mut [i32], from: usize) -> M {
    // The best score so far stays in a register and the slice needs no bounds checks:
    // this scan is a large share of a node's time where there are many moves.
    let tail = &scores[from..moves.len()];
    let (mut best, mut best_score) = (0, tail[0]);
    for (i, &score) in tail.iter().enumerate() {
        if score > best_score {
            best = i;
            best_score = score;
        }
    }
    let best = from + best;
    moves.swap(from, best);
    scores.swap(from, best);
    moves[from]
}

fn history_index<M: Hash>(mv: M) -> usize {
    (move_hash(&mv) >> 50) as usize % HISTORY_SIZE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_next_takes_the_best_remaining() {
        let mut moves = [10u8, 20, 30, 40];
        let mut scores = [1, 9, 3, 7];
        assert_eq!(pick_next(&mut moves, &mut scores, 0), 20);
        assert_eq!(pick_next(&mut moves, &mut scores, 1), 40);
        assert_eq!(pick_next(&mut moves, &mut scores, 2), 30);
        assert_eq!(pick_next(&mut moves, &mut scores, 3), 10);
    }

    #[test]
    fn moves_spread_over_the_history_table() {
        let indices: std::collections::HashSet<usize> = (0u16..1000).map(history_index).collect();
        assert!(indices.len() > 900, "{}", indices.len());
    }
}
