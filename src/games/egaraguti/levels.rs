//! Egara-guti's own `Skill Level` table, for the network it ships.
//!
//! With the network, the shared ladder's levels did not play apart (docs/levels.md): an odd
//! depth saw no more than the even one below it (five plies stood level with four, seven
//! plies lost to six by 33 Elo), and levels 9 to 11 stood within 7 Elo of each other. The
//! network's score swings with the side to move at the horizon (from the start, by 150 to
//! 300 centipawns from one iteration to the next), so a search that ends on the opponent's
//! move misjudges what the one a ply shorter judged well. And how far a level strays
//! counts for more than among how many lines: four plies among four lines, with a random
//! share capped at 150 or 300 centipawns, played 175 and 111 Elo above three plies; among
//! six lines capped at 400, 326 below. So this table looks one ply further only up to
//! three plies, then two at a time, and between three and four plies (about 220 Elo) it
//! spends the cap: 300, then 150, then the best line alone. Six plies' best line holds the
//! draw, as the game is a draw: against eight plies it drew 400 games of 400, and from
//! eight plies to the full engine every game between neighbours is drawn. Levels 11 to 19
//! look further still, and share level 10's Elo (`strength.rs`).

use crate::games::levels::level;
use crate::search::levels::Levels;

/// Levels 0 to 19 of Egara-guti: 0 to 10 each a step above the one below it, 11 to 19
/// deeper searches that hold the draw as level 10 does (each step's games are in
/// docs/levels.md).
pub(super) const LEVELS: Levels = [
    // One ply: among eight, six, four, then two of the best moves, straying less each time.
    level(1, 20_000, 8, 120, 400),
    level(1, 20_000, 6, 120, 400),
    level(1, 20_000, 4, 100, 200),
    level(1, 20_000, 2, 30, 100),
    // Two plies, then three.
    level(2, 20_000, 4, 100, 150),
    level(2, 20_000, 2, 30, 100),
    level(3, 30_000, 4, 90, 150),
    // Four plies, straying by less each level, then the best line.
    level(4, 40_000, 4, 100, 300),
    level(4, 40_000, 4, 100, 150),
    level(4, 40_000, 1, 0, 100),
    // The best line two plies deeper each level: from six plies every game is drawn.
    level(6, 80_000, 1, 0, 100),
    level(8, 130_000, 1, 0, 100),
    level(10, 200_000, 1, 0, 100),
    level(12, 250_000, 1, 0, 100),
    level(14, 300_000, 1, 0, 100),
    level(16, 350_000, 1, 0, 100),
    level(18, 400_000, 1, 0, 100),
    level(20, 450_000, 1, 0, 100),
    level(24, 500_000, 1, 0, 100),
    level(32, 600_000, 1, 0, 100),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::levels::assert_every_level_above_the_one_below;

    #[test]
    fn every_level_looks_further_or_strays_less_than_the_one_below() {
        assert_every_level_above_the_one_below(&LEVELS);
    }

    #[test]
    fn from_four_plies_up_a_level_never_ends_on_an_odd_depth() {
        for level in LEVELS.iter().filter(|level| level.depth >= 4) {
            assert_eq!(level.depth % 2, 0, "{level:?}");
        }
    }
}
