//! Search scores: centipawn-like values, and proven wins and losses as distances in plies.

/// The score of a win on the spot; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this (in absolute value) are proven wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A game that the repetition rule would decide, `ply` plies from the root, scores
/// `±(DECIDED - ply)`: beyond any evaluation, short of a proven result (the opponent may yet
/// leave the cycle).
pub const DECIDED: i32 = 20_000;
/// A position the exact tables decide, `ply` plies from the root with its result `distance`
/// plies further, scores `±(TABLE_WIN - ply - distance)`: above any cycle the repetition
/// rule decides, below a win the search itself proved, so that a shorter forced win is
/// preferred and a lost side holds out longest.
pub const TABLE_WIN: i32 = 25_000;
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
}

/// A score as stored in the transposition table: mate distances counted from the stored
/// node rather than from the root, so that they stay right wherever the entry is found.
pub fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`] at the node `ply` plies from the root.
pub fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
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
    fn table_scores_round_trip_at_any_ply() {
        for score in [MATE - 5, -MATE + 7, 120, -3000] {
            for ply in [0, 3, 40] {
                assert_eq!(from_table(to_table(score, ply), ply), score);
            }
        }
        // A mate in 5 from the root, stored 3 plies deep, is a mate in 2 from there.
        assert_eq!(to_table(MATE - 5, 3), MATE - 2);
    }
}
