//! How strong each `Skill Level` plays in each variant, as measured, and the level that
//! `UCI_Elo` asks for.
//!
//! The Elo are per game, on one scale per variant whose zero is the random mover: each
//! rung of a ladder (the random mover, movers that play the greedy move some of the time,
//! the greedy mover, levels 0 to 19, the full engine at 1,000,000 nodes a move) played the
//! rung below it, and the differences add up. `scripts/calibrate-levels.sh` plays the
//! ladder again; docs/levels.md gives every step with its games and interval. A variant
//! whose ladder is not yet whole has no table: `UCI_Elo` leaves its `Skill Level` alone.
//! Where a game's groups of levels play as one player (Lerontenin's own levels), only one
//! level of each group is a rung, and the group shares its Elo.

use super::Variant;
use crate::search::levels::MAX_LEVEL;

/// The levels' Elo in one variant, level 0 first, the full engine last.
type LevelElo = [u32; MAX_LEVEL as usize + 1];

/// The measured Elo of every level of `variant` (every variant's ladder is measured).
pub const fn level_elo(variant: Variant) -> &'static LevelElo {
    match variant {
        Variant::Lielow => &LIELOW,
        Variant::Lielow9 => &LIELOW9,
        Variant::Egaraguti => &EGARAGUTI,
        Variant::Lerontenin => &LERONTENIN,
    }
}

/// The measured Elo of every level of every variant, for a page's strength list:
/// `{"lielow":[e0,...,e20],...}`.
pub fn levels_json() -> String {
    let variants: Vec<String> = Variant::ALL
        .iter()
        .map(|&variant| {
            let elo: Vec<String> = level_elo(variant).iter().map(u32::to_string).collect();
            format!("\"{variant}\":[{}]", elo.join(","))
        })
        .collect();
    format!("{{{}}}", variants.join(","))
}

/// The weakest level's Elo in any variant: the least `UCI_Elo` takes.
pub const MIN_ELO: u32 = extreme(false);
/// The strongest level's Elo in any variant: the most `UCI_Elo` takes.
pub const MAX_ELO: u32 = extreme(true);

/// The largest (`largest`) or the smallest Elo of every level of every variant measured.
const fn extreme(largest: bool) -> u32 {
    let mut found = if largest { 0 } else { u32::MAX };
    let mut t = 0;
    while t < Variant::ALL.len() {
        let table = level_elo(Variant::ALL[t]);
        let mut level = 0;
        while level < table.len() {
            let elo = table[level];
            if (largest && elo > found) || (!largest && elo < found) {
                found = elo;
            }
            level += 1;
        }
        t += 1;
    }
    found
}

/// The level of `variant` whose Elo is nearest `elo` (the stronger one on a tie: where the
/// top levels draw every game against each other, as in Egara-guti, the full engine).
pub fn nearest_level(variant: Variant, elo: u32) -> u8 {
    let table = level_elo(variant);
    let mut best = 0;
    for (level, &level_elo) in table.iter().enumerate() {
        if level_elo.abs_diff(elo) <= table[best].abs_diff(elo) {
            best = level;
        }
    }
    best as u8
}

// Measured by `scripts/calibrate-levels.sh <variant>`, each game with the network it ships:
// docs/levels.md gives each step's games and interval. Egara-guti's levels from 11 up
// (src/games/egaraguti/levels.rs) drew every game against the level below, and share level
// 10's Elo.
// Lerontenin's levels 0-3, 4-7, 8-11, 12-15 and 16-19 are five players
// (src/games/lerontenin/levels.rs), each group with its first level's Elo; its full engine
// was measured at 100,000 nodes a move.
const LIELOW: LevelElo = [
    901, 1057, 1287, 1473, 1592, 1817, 2017, 2077, 2138, 2273, 2421, 2517, 2685, 2867, 2948, 3048,
    3104, 3151, 3316, 3455, 3632,
];
const LIELOW9: LevelElo = [
    982, 1109, 1361, 1500, 1647, 1790, 1886, 2106, 2206, 2341, 2441, 2490, 2629, 2744, 2818, 2896,
    2956, 3030, 3141, 3292, 3465,
];
const EGARAGUTI: LevelElo = [
    284, 369, 665, 707, 795, 856, 895, 990, 1042, 1114, 1174, 1174, 1174, 1174, 1174, 1174, 1174,
    1174, 1174, 1174, 1174,
];
const LERONTENIN: LevelElo = [
    236, 236, 236, 236, 365, 365, 365, 365, 577, 577, 577, 577, 1088, 1088, 1088, 1088, 1254, 1254,
    1254, 1254, 1335,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Playable;

    #[test]
    fn every_level_plays_above_the_one_below_it_until_they_draw() {
        for variant in Variant::ALL {
            let table = level_elo(variant);
            let limits = crate::with_game!(variant, G => G::LEVELS);
            // Once two players drew every game, every level above shares their Elo.
            let mut drawn = false;
            for level in 1..table.len() {
                let (below, above) = (table[level - 1], table[level]);
                let same_player = level < limits.len() && limits[level] == limits[level - 1];
                drawn |= !same_player && above == below;
                assert!(
                    if same_player || drawn {
                        above == below
                    } else {
                        above > below
                    },
                    "{variant}, level {level}: {table:?}"
                );
            }
        }
    }

    #[test]
    fn uci_elo_takes_the_nearest_level() {
        for variant in Variant::ALL {
            let table = level_elo(variant);
            let nearest = |elo| usize::from(nearest_level(variant, elo));
            // Of the levels that share an Elo, the strongest.
            let last_with = |elo| table.iter().rposition(|&e| e == elo).unwrap();
            assert_eq!(nearest(MIN_ELO), last_with(table[0]));
            assert_eq!(nearest(0), last_with(table[0]));
            assert_eq!(nearest(MAX_ELO), usize::from(MAX_LEVEL));
            for &elo in table {
                assert_eq!(table[nearest(elo)], elo);
            }
            for pair in table.windows(2).filter(|pair| pair[0] < pair[1]) {
                let (low, high) = (pair[0], pair[1]);
                assert_eq!(nearest(low + 1), last_with(low));
                assert_eq!(nearest(high - 1), last_with(high));
                // Halfway between two levels: the stronger.
                assert_eq!(nearest(low + (high - low) / 2 + 1), last_with(high));
            }
        }
    }
}
