//! Lielow 9x9's own `Skill Level` table: the shared ladder with two levels mended.
//!
//! Played again with 9x9's network (docs/levels.md), two of the shared ladder's levels did
//! not clear the level below over 400 games: level 4 (two plies, four lines, a push of
//! 100, its random share capped at 150) stood +26 over level 3 (one ply, four lines, 70),
//! and level 10 (five plies, four lines, 80, capped at 150) +2 over level 9 (four plies,
//! two lines, 40). At 9x9 with the network a ply is worth about 150 Elo and a push of 70
//! or less little, while a push of 80 to 100 with a wide cap gives the ply back. Each of
//! the two levels keeps its ply with a push between the two: over 200 games a step, a
//! push of 70 (level 4) or 50 (level 10) made the level as strong as the one above it
//! (+35 and -4 for that level's step), and the pushes kept put each level halfway.

use crate::games::levels::SHARED;
use crate::search::levels::{Level, Levels};

/// Levels 0 to 19 of Lielow 9x9: the shared ones, but for levels 4 and 10.
pub const BOARD9: Levels = {
    let mut levels = SHARED;
    // Level 3 one ply deeper, straying a little more: +147 over level 3, level 5 +143
    // over it.
    levels[4] = Level::new(2, 20_000, 4, 85, 125);
    // Level 9 one ply deeper, among four lines: +100 over level 9, level 11 +49 over it.
    levels[10] = Level::new(5, 60_000, 4, 65, 120);
    levels
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::levels::assert_every_level_above_the_one_below;

    #[test]
    fn the_mended_levels_keep_the_ladder_in_order() {
        assert_every_level_above_the_one_below(&BOARD9);
        let changed: Vec<usize> = (0..BOARD9.len())
            .filter(|&level| BOARD9[level] != SHARED[level])
            .collect();
        assert_eq!(changed, [4, 10]);
    }
}
