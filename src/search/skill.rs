//! Playing strength for people: levels from 0, the weakest, to 20, the full engine.
//!
//! A level below the top plays like a weaker player, not like the full engine with random
//! blunders: it looks less far (a depth and a node budget that grow with the level), so it
//! misjudges what a deeper look would show, and it chooses among its best few root lines
//! with a random push that grows with its weakness, the way Stockfish's skill levels do. A
//! line the search proved won or lost keeps its rank, so a weak level still takes a win it
//! sees and avoids a loss it sees; among lines of close scores it often takes a lesser one.
//! The draws come from a generator the caller seeds, so that a match can be played again.

use super::Limits;
use super::score::{MATE, Score};

/// The full engine's level.
pub const MAX_LEVEL: u8 = 20;
/// The root lines a weakened level chooses from.
pub const LINES: usize = 4;
/// The most the random push is scaled by: about a man or a stack in the evaluations.
const SPREAD_CAP: i32 = 100;

/// A playing strength: a level from 0 to [`MAX_LEVEL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill(u8);

impl Default for Skill {
    fn default() -> Self {
        Skill::FULL
    }
}

impl Skill {
    /// The full engine: the search's own best move, its limits untouched.
    pub const FULL: Skill = Skill(MAX_LEVEL);

    /// The level `level`, at most [`MAX_LEVEL`].
    pub fn new(level: u8) -> Skill {
        Skill(level.min(MAX_LEVEL))
    }

    pub fn level(self) -> u8 {
        self.0
    }

    pub fn is_full(self) -> bool {
        self.0 == MAX_LEVEL
    }

    /// The deepest this level searches: one ply at levels 0 and 1, one more every two
    /// levels (10 at level 19); `None` for the full engine.
    pub fn depth(self) -> Option<u32> {
        (!self.is_full()).then(|| 1 + u32::from(self.0) / 2)
    }

    /// The most nodes this level searches: 512 at levels 0 and 1, twice as many every two
    /// levels (262,144 at level 19); `None` for the full engine.
    pub fn nodes(self) -> Option<u64> {
        (!self.is_full()).then(|| 512 << (self.0 / 2))
    }

    /// `limits` narrowed to this level's depth and nodes (the clock still holds).
    pub fn limit(self, limits: &Limits) -> Limits {
        let tighter = |asked: Option<u64>, own: Option<u64>| match (asked, own) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits {
            depth: tighter(limits.depth.map(u64::from), self.depth().map(u64::from))
                .map(|depth| depth as u32),
            nodes: tighter(limits.nodes, self.nodes()),
            ..*limits
        }
    }

    /// The root lines to search for this level when `wanted` are asked for.
    pub fn lines(self, wanted: usize) -> usize {
        match self.is_full() {
            true => wanted,
            false => wanted.max(LINES),
        }
    }

    /// How weak the level is, from 120 at level 0 down to 82 at level 19 (in 128ths: how
    /// much of a line's shortfall the push can make up).
    fn weakness(self) -> i32 {
        120 - 2 * i32::from(self.0)
    }

    /// The move this level plays from the root lines found, each as its score and first
    /// move, best first; `None` when there are none. The full engine takes the first.
    pub fn choose<M: Copy>(self, lines: &[(Score, M)], rng: &mut fastrand::Rng) -> Option<M> {
        let (&(top, first), rest) = lines.split_first()?;
        if self.is_full() || rest.is_empty() {
            return Some(first);
        }
        let top = raw(top);
        let weakness = self.weakness();
        let spread = (top - raw(lines[lines.len() - 1].0)).min(SPREAD_CAP);
        let mut best = (i32::MIN, first);
        for &(score, mv) in lines {
            let score = raw(score);
            // Part of the shortfall made up, and a random share of the spread of scores.
            let push = (weakness * (top - score) + spread * rng.i32(0..weakness)) / 128;
            if score + push >= best.0 {
                best = (score + push, mv);
            }
        }
        Some(best.1)
    }
}

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

    fn lines(scores: &[i32]) -> Vec<(Score, usize)> {
        scores
            .iter()
            .enumerate()
            .map(|(mv, &score)| (Score::Centipawns(score), mv))
            .collect()
    }

    /// How often each line is chosen over `draws` draws.
    fn choices(skill: Skill, lines: &[(Score, usize)], draws: usize) -> Vec<usize> {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut counts = vec![0; lines.len()];
        for _ in 0..draws {
            counts[skill.choose(lines, &mut rng).unwrap()] += 1;
        }
        counts
    }

    #[test]
    fn the_full_engine_keeps_the_search_and_its_best_move() {
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        assert_eq!(Skill::FULL.limit(&limits).depth, Some(7));
        assert_eq!(Skill::FULL.limit(&limits).nodes, None);
        assert_eq!(Skill::FULL.lines(1), 1);
        assert_eq!(choices(Skill::FULL, &lines(&[50, 49, 48, 47]), 100)[0], 100);
    }

    #[test]
    fn a_weak_level_looks_less_far_and_at_more_lines() {
        let weak = Skill::new(5).limit(&Limits::default());
        assert_eq!((weak.depth, weak.nodes), (Some(3), Some(2048)));
        // What `go` asks still holds where it is tighter.
        let asked = Limits {
            depth: Some(2),
            nodes: Some(1_000_000),
            ..Limits::default()
        };
        let weak = Skill::new(5).limit(&asked);
        assert_eq!((weak.depth, weak.nodes), (Some(2), Some(2048)));
        assert_eq!(Skill::new(0).lines(1), LINES);
        assert_eq!(Skill::new(0).lines(6), 6);
        assert_eq!(Skill::new(42), Skill::FULL);
    }

    #[test]
    fn weaker_levels_stray_more_from_the_best_line() {
        let close = lines(&[60, 40, 20, 0]);
        let strays = |level| {
            let counts = choices(Skill::new(level), &close, 2000);
            2000 - counts[0]
        };
        let (weakest, middle, strong) = (strays(0), strays(10), strays(19));
        assert!(
            weakest > middle && middle > strong,
            "{weakest} {middle} {strong}"
        );
        assert!(weakest > 200, "level 0 often plays another line: {weakest}");
        // The same seed gives the same choices.
        assert_eq!(
            choices(Skill::new(3), &close, 50),
            choices(Skill::new(3), &close, 50)
        );
    }

    #[test]
    fn a_proven_result_keeps_its_rank() {
        let won = vec![
            (Score::Mate(3), 0),
            (Score::Centipawns(80), 1),
            (Score::Centipawns(70), 2),
        ];
        assert_eq!(choices(Skill::new(0), &won, 500), vec![500, 0, 0]);
        let lost = vec![
            (Score::Centipawns(-10), 0),
            (Score::Centipawns(-20), 1),
            (Score::Mate(-4), 2),
        ];
        assert_eq!(choices(Skill::new(0), &lost, 500)[2], 0);
    }
}
