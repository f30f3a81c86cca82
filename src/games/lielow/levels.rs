//! Lielow's own `Skill Level` tables, one a board: the shared ladder with two levels mended
//! on each, where the board's network made a level play no better than the one below it.
//!
//! 8x8: played again with generation 4's network (docs/levels.md), level 6 (three plies,
//! four lines, a push of 90 capped at 150) stood +17 over level 5 (two plies, two lines,
//! 30) and level 10 (five plies, four lines, 80, capped at 150) +19 over level 9 (four
//! plies, two lines, 40), each over 400 games. With the smaller push of 9x9's level 10
//! (65, capped at 120) both keep their ply and clear both neighbours over 200 games a
//! step: level 6 +200 over level 5 and level 7 +60 over it; level 10 +147 over level 9
//! and level 11 +96 over it.
//!
//! 9x9: played again with 9x9's network (docs/levels.md), two of the shared ladder's levels
//! did not clear the level below over 400 games: level 4 (two plies, four lines, a push of
//! 100, its random share capped at 150) stood +26 over level 3 (one ply, four lines, 70),
//! and level 10 (five plies, four lines, 80, capped at 150) +2 over level 9 (four plies,
//! two lines, 40). At 9x9 with the network a ply is worth about 150 Elo and a push of 70
//! or less little, while a push of 80 to 100 with a wide cap gives the ply back. Each of
//! the two levels keeps its ply with a push between the two: over 200 games a step, a
//! push of 70 (level 4) or 50 (level 10) made the level as strong as the one above it
//! (+35 and -4 for that level's step), and the pushes kept put each level halfway.

use crate::games::levels::SHARED;
use crate::search::levels::{Level, Levels};

/// Level 10 on both boards: level 9 one ply deeper, among four lines, with a push small
/// enough to keep the ply (9x9: +100 over level 9, level 11 +49 over it; 8x8: +147 and
/// +96).
const LEVEL_10: Level = Level::new(5, 60_000, 4, 65, 120);

/// Levels 0 to 19 of Lielow (8x8): the shared ones, but for levels 6 and 10 (see
/// `BOARD9` for why such a level keeps its ply with a smaller push).
pub const BOARD8: Levels = {
    let mut levels = SHARED;
    // Level 5 one ply deeper, among four lines, straying less than the shared level 6.
    levels[6] = Level::new(3, 30_000, 4, 65, 120);
    levels[10] = LEVEL_10;
    levels
};

/// Levels 0 to 19 of Lielow 9x9: the shared ones, but for levels 4 and 10.
pub const BOARD9: Levels = {
    let mut levels = SHARED;
    // Level 3 one ply deeper, straying a little more: +147 over level 3, level 5 +143
    // over it.
    levels[4] = Level::new(2, 20_000, 4, 85, 125);
    levels[10] = LEVEL_10;
    levels
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::levels::assert_every_level_above_the_one_below;

    /// The levels of `board` that differ from the shared ones.
    fn mended(board: &Levels) -> Vec<usize> {
        (0..board.len())
            .filter(|&level| board[level] != SHARED[level])
            .collect()
    }

    #[test]
    fn the_mended_levels_keep_the_ladder_in_order() {
        assert_every_level_above_the_one_below(&BOARD8);
        assert_every_level_above_the_one_below(&BOARD9);
        assert_eq!(mended(&BOARD8), [6, 10]);
        assert_eq!(mended(&BOARD9), [4, 10]);
    }
}
