//! The shared ladder of `Skill Level`s: what each level below the full engine may do in a
//! game that has no table of its own (Lerontenin and Egara-guti have: `lerontenin/levels.rs`,
//! `egaraguti/levels.rs`; Lielow mends two levels of this one on each board:
//! `lielow/levels.rs`). A game names its table as
//! [`Playable::LEVELS`](super::Playable::LEVELS); the Elo each level plays at, per game, is
//! in `strength`.

use crate::search::levels::{Level, Levels};

/// A level in a table's shorthand: [`Level::new`] (each game's table uses it).
pub(crate) const fn level(
    depth: u32,
    nodes: u64,
    lines: usize,
    weakness: i32,
    spread_cap: i32,
) -> Level {
    Level::new(depth, nodes, lines, weakness, spread_cap)
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
/// `scripts/calibrate-levels.sh` (the table of docs/strength.md).
pub const SHARED: Levels = [
    level(1, 20_000, 8, 120, 400),
    level(1, 20_000, 6, 120, 400),
    level(1, 20_000, 4, 100, 200),
    level(1, 20_000, 4, 70, 100),
    level(2, 20_000, 4, 100, 150),
    level(2, 20_000, 2, 30, 100),
    level(3, 30_000, 4, 90, 150),
    level(3, 30_000, 4, 40, 100),
    level(4, 40_000, 4, 80, 120),
    level(4, 40_000, 2, 40, 100),
    level(5, 60_000, 4, 80, 150),
    level(5, 60_000, 4, 30, 100),
    level(6, 80_000, 3, 50, 100),
    level(7, 100_000, 3, 40, 100),
    level(8, 130_000, 2, 30, 100),
    level(9, 160_000, 2, 20, 100),
    level(10, 200_000, 2, 15, 100),
    level(12, 250_000, 2, 10, 100),
    level(16, 250_000, 1, 0, 100),
    level(20, 400_000, 1, 0, 100),
];

/// Asserts that every level of `levels` looks further than the one below it, strays less (a
/// smaller push, fewer lines or a lower cap on its random share), or both, and never looks
/// less far: a game's own table keeps the shared one's order.
#[cfg(test)]
pub(crate) fn assert_every_level_above_the_one_below(levels: &Levels) {
    for pair in levels.windows(2) {
        let (below, above) = (pair[0], pair[1]);
        assert!(above.depth >= below.depth && above.nodes >= below.nodes);
        assert!(above.weakness <= 120);
        let looks_further = above.depth > below.depth || above.nodes > below.nodes;
        let strays_less = above.weakness < below.weakness
            || above.lines < below.lines
            || above.spread_cap < below.spread_cap;
        assert!(looks_further || strays_less, "{below:?} then {above:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_looks_further_or_strays_less_than_the_one_below() {
        assert_every_level_above_the_one_below(&SHARED);
    }
}
