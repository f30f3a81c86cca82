//! Lerontenin's own `Skill Level` table: the shared ladder's levels do not play apart here.
//!
//! Measured on the shared ladder (docs/levels.md), levels 3 to 9 of Lerontenin, two to four
//! plies with pushes of 30 to 100, all played within 25 Elo of each other: in a race
//! decided hundreds of plies ahead, a few plies more see little, while how freely a level
//! strays from its best line counts for much. So Lerontenin's levels are spent the other
//! way round: first the push among the best moves of one ply (eight, six, then four
//! moves), then the search's best line within a few nodes (1,000, then 8,000), then the
//! full engine. The scale is short (about 590 Elo from level 0 to the full engine at
//! 100,000 nodes a move) and 200 games tell apart only steps of some 50 Elo or more, so
//! there are five players for levels 0 to 19: each group of four levels shares its player
//! and its Elo (src/games/strength.rs), and each group plays above the one below it
//! (+98, +166, +129, +81, and +115 for the full engine, over 200 games each, every
//! interval above 0).

use crate::games::levels::level;
use crate::search::levels::{Level, Levels};

/// Levels 0 to 3: the shared ladder's level 0, a one-ply search choosing nearly at random
/// among its best eight moves.
const WIDEST: Level = level(1, 20_000, 8, 120, 400);
/// Levels 4 to 7: a narrower push among six moves.
const WIDE: Level = level(1, 20_000, 6, 115, 350);
/// Levels 8 to 11: the shared ladder's level 2, four moves and a push of 100.
const NARROW: Level = level(1, 20_000, 4, 100, 200);
/// Levels 12 to 15: the search's best line within 1,000 nodes (about four plies).
const SMALL_SEARCH: Level = level(64, 1_000, 1, 0, 100);
/// Levels 16 to 19: the best line within 8,000 nodes.
const SEARCH: Level = level(64, 8_000, 1, 0, 100);

/// Levels 0-3, 4-7, 8-11, 12-15 and 16-19 each play as one player; level 20 is the full
/// engine.
pub(super) const LEVELS: Levels = [
    WIDEST,
    WIDEST,
    WIDEST,
    WIDEST,
    WIDE,
    WIDE,
    WIDE,
    WIDE,
    NARROW,
    NARROW,
    NARROW,
    NARROW,
    SMALL_SEARCH,
    SMALL_SEARCH,
    SMALL_SEARCH,
    SMALL_SEARCH,
    SEARCH,
    SEARCH,
    SEARCH,
    SEARCH,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_come_in_groups_of_four_each_its_own_player() {
        let groups: Vec<&[Level]> = LEVELS.chunks(4).collect();
        assert_eq!(groups.len(), 5);
        for group in &groups {
            assert!(group.iter().all(|level| level == &group[0]), "{group:?}");
        }
        for pair in groups.windows(2) {
            assert_ne!(pair[0][0], pair[1][0]);
        }
    }
}
