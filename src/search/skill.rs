//! Playing strength for people: levels from 0, the weakest, to 20, the full engine.
//!
//! A level below the top plays like a weaker player, not like the full engine with random
//! blunders: it looks less far (a depth and a node budget that grow with the level), so it
//! misjudges what a deeper look would show, and it chooses among its best few root lines
//! with a random push that grows with its weakness, the way Stockfish's skill levels do. A
//! line the search proved won or lost keeps its rank, so a weak level still takes a win it
//! sees and avoids a loss it sees; among lines of close scores it often takes a lesser one.
//! The draws come from a generator the caller seeds, so that a match can be played again.
//!
//! [`LEVELS`] suits a game where looking further is worth much (it was measured in
//! Lielow); a game where it is not gives its own table through
//! [`Searchable::SKILL_LEVELS`](super::Searchable::SKILL_LEVELS).

use super::Limits;
use super::score::{MATE, Score};

/// The full engine's level.
pub const MAX_LEVEL: u8 = 20;

/// What a weakened level may do: how far it looks, and how freely it strays from its best
/// line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The deepest iteration.
    depth: u32,
    /// The most nodes, all root lines together.
    nodes: u64,
    /// The root lines it chooses among.
    lines: usize,
    /// How much of a line's shortfall from the best line the push makes up, in 128ths: at
    /// most 120, so that a proven result's lead, far beyond any evaluation, is never made
    /// up.
    weakness: i32,
    /// The most the random share of the push is scaled by (the lines' spread, capped here).
    spread_cap: i32,
}

/// Levels 0 to 19 of one game, weakest first (level 20 is the full engine).
pub type Levels = [Limit; MAX_LEVEL as usize];

/// A level that searches `depth` plies and `nodes` nodes at most, and chooses among
/// `lines` root lines with a push of `weakness` 128ths of a line's shortfall and a random
/// share of the lines' spread (capped at `spread_cap`).
pub const fn limit(depth: u32, nodes: u64, lines: usize, weakness: i32, spread_cap: i32) -> Limit {
    Limit {
        depth,
        nodes,
        lines,
        weakness,
        spread_cap,
    }
}

/// Levels 0 to 19, each a step above the one below it. Three things make a level weaker,
/// and the ladder spends them in turn: the lines it chooses among (eight at level 0, where
/// it plays nearly at random among its best one-ply moves; fewer lines, fewer bad ones),
/// how freely it strays (the weakness and the spread cap), and how far it looks (one ply
/// more every level or two; from level 13 the node budget and depth grow together and
/// the lines narrow to the full engine's one). Measured in Lielow over 100 games a step,
/// a ply more was worth 50 to 250 Elo, a push made weaker from about 100 to 50 as much,
/// but one from 50 to 25 nearly nothing: so the levels between two depths stray widely
/// first, then little. The node budgets keep a level's move quick (the clock of `go`
/// still holds). The Elo each level plays at, per game, is measured by
/// `scripts/calibrate-levels.sh` (the README's table).
pub const LEVELS: Levels = [
    limit(1, 20_000, 8, 120, 400),
    limit(1, 20_000, 6, 120, 400),
    limit(1, 20_000, 4, 100, 200),
    limit(1, 20_000, 4, 70, 100),
    limit(2, 20_000, 4, 100, 150),
    limit(2, 20_000, 2, 30, 100),
    limit(3, 30_000, 4, 90, 150),
    limit(3, 30_000, 4, 40, 100),
    limit(4, 40_000, 4, 80, 120),
    limit(4, 40_000, 2, 40, 100),
    limit(5, 60_000, 4, 80, 150),
    limit(5, 60_000, 4, 30, 100),
    limit(6, 80_000, 3, 50, 100),
    limit(7, 100_000, 3, 40, 100),
    limit(8, 130_000, 2, 30, 100),
    limit(9, 160_000, 2, 20, 100),
    limit(10, 200_000, 2, 15, 100),
    limit(12, 250_000, 2, 10, 100),
    limit(16, 250_000, 1, 0, 100),
    limit(20, 400_000, 1, 0, 100),
];

/// A playing strength: a level from 0 to [`MAX_LEVEL`], and the game's table of what each
/// level may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u8,
    levels: &'static Levels,
}

impl Default for Skill {
    fn default() -> Self {
        Skill::FULL
    }
}

impl Skill {
    /// The full engine: the search's own best move, its limits untouched.
    pub const FULL: Skill = Skill {
        level: MAX_LEVEL,
        levels: &LEVELS,
    };

    /// The level `level`, at most [`MAX_LEVEL`], as [`LEVELS`] has it.
    pub fn new(level: u8) -> Skill {
        Skill {
            level: level.min(MAX_LEVEL),
            levels: &LEVELS,
        }
    }

    /// The same level as `levels`, a game's own table, has it.
    pub fn with_levels(self, levels: &'static Levels) -> Skill {
        Skill { levels, ..self }
    }

    pub fn level(self) -> u8 {
        self.level
    }

    pub fn is_full(self) -> bool {
        self.level == MAX_LEVEL
    }

    /// What this level may do; `None` for the full engine.
    fn weakened(self) -> Option<&'static Limit> {
        self.levels.get(usize::from(self.level))
    }

    /// The deepest this level searches: one ply at levels 0 to 3, 20 at level 19; `None`
    /// for the full engine.
    pub fn depth(self) -> Option<u32> {
        self.weakened().map(|limit| limit.depth)
    }

    /// The most nodes this level searches; `None` for the full engine.
    pub fn nodes(self) -> Option<u64> {
        self.weakened().map(|limit| limit.nodes)
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
        match self.weakened() {
            Some(limit) => wanted.max(limit.lines),
            None => wanted,
        }
    }

    /// The move this level plays from the root lines found, each as its score and first
    /// move, best first; `None` when there are none. The full engine takes the first.
    ///
    /// Each line's score gets a push: part of its shortfall from the best line made up,
    /// and a random share of the lines' spread (Stockfish's skill levels choose so). The
    /// nearer the weakness is to 128, the nearer the lines are to an equal chance; at 0
    /// the best line is always taken.
    pub fn choose<M: Copy>(self, lines: &[(Score, M)], rng: &mut fastrand::Rng) -> Option<M> {
        let (&(top, first), rest) = lines.split_first()?;
        let Some(limit) = self.weakened() else {
            return Some(first);
        };
        if rest.is_empty() || limit.weakness == 0 {
            return Some(first);
        }
        let top = raw(top);
        let weakness = limit.weakness;
        let spread = (top - raw(lines[lines.len() - 1].0)).min(limit.spread_cap);
        let mut best = (i32::MIN, first);
        for &(score, mv) in lines {
            let score = raw(score);
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
        assert_eq!((weak.depth, weak.nodes), (Some(2), Some(20_000)));
        // What `go` asks still holds where it is tighter.
        let asked = Limits {
            depth: Some(2),
            nodes: Some(1_000_000),
            ..Limits::default()
        };
        let weak = Skill::new(9).limit(&asked);
        assert_eq!((weak.depth, weak.nodes), (Some(2), Some(40_000)));
        assert_eq!(Skill::new(0).lines(1), 8);
        assert_eq!(Skill::new(4).lines(1), 4);
        assert_eq!(Skill::new(4).lines(6), 6);
        assert_eq!(Skill::new(42), Skill::FULL);
    }

    #[test]
    fn a_games_own_table_sets_what_a_level_may_do() {
        static OWN: Levels = [limit(3, 7_000, 2, 50, 100); MAX_LEVEL as usize];
        let skill = Skill::new(4).with_levels(&OWN);
        assert_eq!(
            (skill.level(), skill.depth(), skill.nodes()),
            (4, Some(3), Some(7_000))
        );
        assert_eq!(skill.lines(1), 2);
        assert_ne!(skill, Skill::new(4));
        // The full engine stays the full engine in any table.
        assert!(Skill::FULL.with_levels(&OWN).is_full());
        assert_eq!(Skill::FULL.with_levels(&OWN).depth(), None);
    }

    #[test]
    fn every_level_looks_further_or_strays_less_than_the_one_below() {
        for pair in LEVELS.windows(2) {
            let (below, above) = (pair[0], pair[1]);
            assert!(above.depth >= below.depth && above.nodes >= below.nodes);
            assert!(above.weakness <= 120);
            let looks_further = above.depth > below.depth || above.nodes > below.nodes;
            let strays_less = above.weakness < below.weakness || above.lines < below.lines;
            assert!(looks_further || strays_less, "{below:?} then {above:?}");
        }
    }

    #[test]
    fn weaker_levels_stray_more_from_the_best_line() {
        let close = lines(&[60, 40, 20, 0]);
        let strays = |level| {
            let counts = choices(Skill::new(level), &close, 2000);
            2000 - counts[0]
        };
        let (weakest, middle, strong) = (strays(0), strays(4), strays(19));
        assert!(
            weakest > middle && middle > strong,
            "{weakest} {middle} {strong}"
        );
        assert_eq!(strong, 0, "level 19 plays its best line");
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
