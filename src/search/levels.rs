//! Playing strength for people: what a level below the full engine may do, and how it
//! picks its move among the lines it searched.
//!
//! A level below the top plays like a weaker player, not like the full engine with random
//! blunders: it looks less far (a depth and a node budget), so it misjudges what a deeper
//! look would show, and it chooses among its best few root lines with a random push that
//! grows with its weakness, the way Stockfish's skill levels do. A line the search proved
//! won or lost keeps its rank, so a weak level still takes a win it sees and avoids a loss
//! it sees; among lines of close scores it often takes a lesser one. The draws come from a
//! generator the caller seeds, so that a match can be played again.
//!
//! Each game's table of levels 0 to 19 is the game's (beside `Playable` in `games/`); the
//! mover ([`super::mover`]) plays the level `go` asks for.

use super::limits::Limits;
use super::score::{MATE, Score};

/// The full engine's level: levels 0 to 19 are weakened, 20 is the search unchanged.
pub const MAX_LEVEL: u8 = 20;

/// What a weakened level may do: how far it looks, and how freely it strays from its best
/// line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The deepest iteration.
    pub depth: u32,
    /// The most nodes, all root lines together.
    pub nodes: u64,
    /// The root lines it chooses among.
    pub lines: usize,
    /// How much of a line's shortfall from the best line the push makes up, in 128ths: at
    /// most 120, so that a proven result's lead, far beyond any evaluation, is never made
    /// up.
    pub weakness: i32,
    /// The most the random share of the push is scaled by (the lines' spread, capped here).
    pub spread_cap: i32,
}

/// Levels 0 to 19 of one game, weakest first (level 20 is the full engine).
pub type Levels = [Level; MAX_LEVEL as usize];

impl Level {
    /// A level that searches `depth` plies and `nodes` nodes at most, and chooses among
    /// `lines` root lines with a push of `weakness` 128ths of a line's shortfall and a
    /// random share of the lines' spread (capped at `spread_cap`).
    pub const fn new(
        depth: u32,
        nodes: u64,
        lines: usize,
        weakness: i32,
        spread_cap: i32,
    ) -> Level {
        Level {
            depth,
            nodes,
            lines,
            weakness,
            spread_cap,
        }
    }

    /// `limits` narrowed to this level's depth and nodes (the clock still holds).
    pub fn narrow(&self, limits: &Limits) -> Limits {
        Limits {
            depth: Some(
                limits
                    .depth
                    .map_or(self.depth, |asked| asked.min(self.depth)),
            ),
            nodes: Some(
                limits
                    .nodes
                    .map_or(self.nodes, |asked| asked.min(self.nodes)),
            ),
            ..*limits
        }
    }

    /// The root lines to search when `wanted` are asked for.
    pub fn lines(&self, wanted: usize) -> usize {
        wanted.max(self.lines)
    }

    /// The move this level plays from the root lines found, each as its score and first
    /// move, best first; `None` when there are none.
    ///
    /// Each line's score gets a push: part of its shortfall from the best line made up,
    /// and a random share of the lines' spread (Stockfish's skill levels choose so). The
    /// nearer the weakness is to 128, the nearer the lines are to an equal chance; at 0
    /// the best line is always taken. Lines that end within [`CLOSE`] of the best pushed
    /// score are as good as tied for a player who strays at all: one of them is drawn, so
    /// that a level varies its play with its seed wherever its lines are close (with a
    /// zero spread the push alone would always pick the same one).
    pub fn pick<M: Copy>(&self, lines: &[(Score, M)], rng: &mut fastrand::Rng) -> Option<M> {
        let (&(top, first), rest) = lines.split_first()?;
        if rest.is_empty() || self.weakness == 0 {
            return Some(first);
        }
        let top = raw(top);
        let weakness = self.weakness;
        let spread = (top - raw(lines[lines.len() - 1].0)).min(self.spread_cap);
        let pushed: Vec<(i32, M)> = lines
            .iter()
            .map(|&(score, mv)| {
                let score = raw(score);
                let push = (weakness * (top - score) + spread * rng.i32(0..weakness)) / 128;
                (score + push, mv)
            })
            .collect();
        let best = pushed.iter().map(|&(score, _)| score).max()?;
        let close: Vec<M> = pushed
            .iter()
            .filter(|&&(score, _)| score >= best - CLOSE)
            .map(|&(_, mv)| mv)
            .collect();
        Some(close[rng.usize(..close.len())])
    }
}

/// How near (in centipawns) two pushed lines count as tied: a twentieth of a piece, less
/// than any evaluation term tells apart.
pub const CLOSE: i32 = 5;

/// A score as one number, proven results beyond any evaluation.
fn raw(score: Score) -> i32 {
    match score {
        Score::Centipawns(value) => value,
        Score::Mate(plies) if plies > 0 => MATE - plies,
        Score::Mate(plies) => -MATE - plies,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight lines, a wide push: the shape of the weakest levels.
    const WEAKEST: Level = Level::new(1, 20_000, 8, 120, 400);
    /// Four lines, a middling push.
    const MIDDLE: Level = Level::new(2, 20_000, 4, 100, 150);
    /// One line, no push: the shape of the strongest levels.
    const STRONG: Level = Level::new(16, 250_000, 1, 0, 100);

    fn lines(scores: &[i32]) -> Vec<(Score, usize)> {
        scores
            .iter()
            .enumerate()
            .map(|(mv, &score)| (Score::Centipawns(score), mv))
            .collect()
    }

    /// How often each line is picked over `draws` draws.
    fn picks(level: Level, lines: &[(Score, usize)], draws: usize) -> Vec<usize> {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut counts = vec![0; lines.len()];
        for _ in 0..draws {
            counts[level.pick(lines, &mut rng).unwrap()] += 1;
        }
        counts
    }

    #[test]
    fn a_level_looks_less_far_and_at_more_lines() {
        let weak = MIDDLE.narrow(&Limits::default());
        assert_eq!((weak.depth, weak.nodes), (Some(2), Some(20_000)));
        // What `go` asks still holds where it is tighter.
        let asked = Limits {
            depth: Some(1),
            nodes: Some(1_000_000),
            ..Limits::default()
        };
        let weak = MIDDLE.narrow(&asked);
        assert_eq!((weak.depth, weak.nodes), (Some(1), Some(20_000)));
        assert_eq!(WEAKEST.lines(1), 8);
        assert_eq!(MIDDLE.lines(1), 4);
        assert_eq!(MIDDLE.lines(6), 6);
        assert_eq!(STRONG.lines(1), 1);
    }

    #[test]
    fn weaker_levels_stray_more_from_the_best_line() {
        let close = lines(&[60, 40, 20, 0]);
        let strays = |level| 2000 - picks(level, &close, 2000)[0];
        let (weakest, middle, strong) = (strays(WEAKEST), strays(MIDDLE), strays(STRONG));
        assert!(
            weakest > middle && middle > strong,
            "{weakest} {middle} {strong}"
        );
        assert_eq!(strong, 0, "no push: the best line");
        assert!(
            weakest > 200,
            "the weakest often plays another line: {weakest}"
        );
        // The same seed gives the same picks.
        assert_eq!(picks(MIDDLE, &close, 50), picks(MIDDLE, &close, 50));
        assert_eq!(WEAKEST.pick::<usize>(&[], &mut fastrand::Rng::new()), None);
    }

    #[test]
    fn close_lines_are_drawn_at_random() {
        // Level 5's shape: two lines, a small push. Tied or close lines both come up.
        let level = Level::new(2, 20_000, 2, 30, 100);
        for scores in [[40, 40], [40, 37]] {
            let counts = picks(level, &lines(&scores), 400);
            assert!(counts.iter().all(|&n| n > 100), "{scores:?}: {counts:?}");
        }
        // Lines far apart keep the small push's order.
        assert_eq!(picks(level, &lines(&[40, 0]), 400), vec![400, 0]);
    }

    #[test]
    fn a_proven_result_keeps_its_rank() {
        let won = vec![
            (Score::Mate(3), 0),
            (Score::Centipawns(80), 1),
            (Score::Centipawns(70), 2),
        ];
        assert_eq!(picks(WEAKEST, &won, 500), vec![500, 0, 0]);
        let lost = vec![
            (Score::Centipawns(-10), 0),
            (Score::Centipawns(-20), 1),
            (Score::Mate(-4), 2),
        ];
        assert_eq!(picks(WEAKEST, &lost, 500)[2], 0);
    }
}
