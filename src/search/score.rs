//! Search scores: centipawn-like values, and proven wins and losses as distances in plies.

/// The score of a win on the spot; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this (in absolute value) are proven wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A game that the repetition rule would decide, `ply` plies from the root, scores
/// `±(DECIDED - ply)`: beyond any evaluation, short of a proven result (the opponent may yet
/// leave the cycle).
pub const DECIDED: i32 = 20_000;
/// A position the oracle (exact tables) decides, `ply` plies from the root with its result
/// `distance` plies further, scores `±(ORACLE_WIN - ply - distance)`: above any cycle the repetition
/// rule decides, below a win the search itself proved, so that a shorter forced win is
/// preferred and a lost side holds out longest.
pub const ORACLE_WIN: i32 = 25_000;
/// Larger than any score: the initial window.
pub const INFINITY: i32 = MATE + 1;

/// A score as reported to people and protocols (mate distances in plies here; the
/// protocol writes them in moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units from the side to move's point of view.
    Centipawns(i32),
    /// A proven result: positive, the side to move wins in that many plies; negative, it
    /// loses in that many plies.
    Mate(i32),
}

impl Score {
    /// Reads a raw search score.
    pub fn from_raw(raw: i32) -> Score {
        if raw > MATE_BOUND {
            Score::Mate(MATE - raw)
        } else if raw < -MATE_BOUND {
            Score::Mate(-(MATE + raw))
        } else {
            Score::Centipawns(raw)
        }
    }

    /// The raw search score this reads as: [`Score::from_raw`] undone.
    pub fn raw(self) -> i32 {
        match self {
            Score::Centipawns(raw) => raw,
            Score::Mate(plies) if plies >= 0 => MATE - plies,
            Score::Mate(plies) => -(MATE + plies),
        }
    }
}

/// Scores beyond this (in absolute value) are results a number of plies away: a proven
/// win or loss, an exact table's, or a cycle's verdict. Each counts its plies from the
/// root, so the transposition table keeps them counted from the stored node instead.
pub const DISTANCE_BOUND: i32 = DECIDED - 1_000;
// A network's evaluation, however made, stays below every result some plies away.
const _: () = assert!(crate::eval::EVAL_LIMIT < DISTANCE_BOUND);

/// Scores between this and [`MATE_BOUND`] are the oracle's results.
const ORACLE_BOUND: i32 = ORACLE_WIN - 1_000;

/// A score as stored in the transposition table: every result a number of plies away (a
/// mate, a table's result, a cycle's verdict) counted from the stored node rather than
/// from the root, so that it stays right wherever the entry is found.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score > DISTANCE_BOUND {
        score + ply as i32
    } else if score < -DISTANCE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`] at the node `ply` plies from the root, where the game's
/// counter leaves `plies_left` plies before it ends the game some other way (`None`: no
/// such counter). The hash leaves that counter out, so an entry may come from a node that
/// had more plies left: a result further away than the plies left now is no longer sure,
/// and reads as the best (or worst) score short of a result, as Stockfish reads a
/// tablebase win that the 50-move rule no longer allows.
pub fn from_tt(score: i32, ply: usize, plies_left: Option<u32>) -> i32 {
    if score.abs() <= DISTANCE_BOUND {
        return score;
    }
    if plies_left.is_some_and(|left| plies_to_result(score) > left) {
        return DISTANCE_BOUND * score.signum();
    }
    score - ply as i32 * score.signum()
}

/// How many plies away the result of a score beyond [`DISTANCE_BOUND`] is, counted from
/// the node whose score it is.
fn plies_to_result(score: i32) -> u32 {
    let magnitude = score.abs();
    let top = if magnitude > MATE_BOUND {
        MATE
    } else if magnitude > ORACLE_BOUND {
        ORACLE_WIN
    } else {
        DECIDED
    };
    (top - magnitude) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_read_as_plies() {
        assert_eq!(Score::from_raw(MATE - 3), Score::Mate(3));
        assert_eq!(Score::from_raw(-MATE + 2), Score::Mate(-2));
        assert_eq!(Score::from_raw(57), Score::Centipawns(57));
    }

    #[test]
    fn tt_scores_round_trip_at_any_ply() {
        for score in [
            MATE - 5,
            -MATE + 7,
            ORACLE_WIN - 12,
            -ORACLE_WIN + 30,
            DECIDED - 4,
            -DECIDED + 9,
            120,
            -3000,
        ] {
            for ply in [0, 3, 40] {
                assert_eq!(from_tt(to_tt(score, ply), ply, None), score);
            }
        }
        // A mate in 5 from the root, stored 3 plies deep, is a mate in 2 from there.
        assert_eq!(to_tt(MATE - 5, 3), MATE - 2);
    }

    #[test]
    fn every_result_is_read_from_where_it_is_found() {
        // A table win 7 plies beyond a node 5 plies from the root, found again 9 plies
        // from the root: the same 7 plies beyond, so 16 from the root.
        let stored = to_tt(ORACLE_WIN - 5 - 7, 5);
        assert_eq!(from_tt(stored, 9, None), ORACLE_WIN - 9 - 7);
        assert_eq!(from_tt(-stored, 9, None), -(ORACLE_WIN - 9 - 7));
        // A cycle's verdict, likewise.
        let stored = to_tt(DECIDED - 6, 2);
        assert_eq!(from_tt(stored, 10, None), DECIDED - 14);
        // Plain evaluations are not moved.
        assert_eq!(from_tt(to_tt(250, 5), 9, None), 250);
    }

    #[test]
    fn a_result_beyond_the_counter_is_not_trusted() {
        // A table win 7 plies away is kept where 7 or more plies are left on the counter...
        let stored = to_tt(ORACLE_WIN - 5 - 7, 5);
        assert_eq!(from_tt(stored, 9, Some(7)), ORACLE_WIN - 9 - 7);
        assert_eq!(from_tt(stored, 9, Some(40)), ORACLE_WIN - 9 - 7);
        // ...and where fewer are left it is only the best score short of a result, for
        // the winner and the loser alike.
        assert_eq!(from_tt(stored, 9, Some(6)), DISTANCE_BOUND);
        assert_eq!(from_tt(-stored, 9, Some(6)), -DISTANCE_BOUND);
        // A mate 3 plies away, and a cycle's verdict 4 plies away, the same way.
        let mate = to_tt(MATE - 10 - 3, 10);
        assert_eq!(from_tt(mate, 2, Some(3)), MATE - 2 - 3);
        assert_eq!(from_tt(mate, 2, Some(2)), DISTANCE_BOUND);
        let cycle = to_tt(-(DECIDED - 1 - 4), 1);
        assert_eq!(from_tt(cycle, 1, Some(3)), -DISTANCE_BOUND);
        // Evaluations are never touched.
        assert_eq!(from_tt(-3000, 9, Some(0)), -3000);
    }
}
