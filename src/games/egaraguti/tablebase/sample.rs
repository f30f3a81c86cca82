//! Seeded random positions of one level that the tables value as asked: the starts of
//! matches that measure play where the value is known (`ternion tables starts`, read by
//! `ternion match --starts`), such as how often an engine turns a drawn start into a win
//! against a weaker player.

use super::set::Tablebase;
use crate::core::{Player, Wdl};
use crate::games::egaraguti::board::POINTS;
use crate::games::egaraguti::{EgaraGuti, QUIET_PLY_LIMIT};
use crate::rules::Rules;

/// Draws before giving up, per position asked for: a level may hold few positions of the
/// value asked (a lone man against three is rarely a draw).
const ATTEMPTS_PER_POSITION: usize = 100_000;

/// `count` distinct positions with `men` men (the first player's first), at counter 0 and
/// in play, whose value for the side to move is `value` by the tables, drawn from `seed`;
/// fewer where the level holds too few. The same arguments give the same positions.
pub fn positions_of_value(
    tables: &Tablebase,
    men: [usize; 2],
    value: Wdl,
    count: usize,
    seed: u64,
) -> Vec<EgaraGuti> {
    let mut found: Vec<EgaraGuti> = Vec::new();
    let mut draw = RandomPositions::new(seed);
    for _ in 0..count.saturating_mul(ATTEMPTS_PER_POSITION) {
        if found.len() >= count {
            break;
        }
        let game = draw.next(men);
        let known = (tables.probe(&game)).is_some_and(|probe| probe.exact && probe.value == value);
        if game.outcome().is_none() && known && !found.contains(&game) {
            found.push(game);
        }
    }
    found
}

/// Seeded random positions: men placed uniformly on the points, either side to move, legal
/// or finished alike, at counter 0 or at any.
pub struct RandomPositions {
    rng: fastrand::Rng,
    /// The points, shuffled afresh for each position (from the last shuffle's order).
    points: [usize; POINTS],
}

impl RandomPositions {
    pub fn new(seed: u64) -> Self {
        RandomPositions {
            rng: fastrand::Rng::with_seed(seed),
            points: std::array::from_fn(|point| point),
        }
    }

    /// The next position with `men` men (the first player's first).
    pub fn next(&mut self, men: [usize; 2]) -> EgaraGuti {
        self.rng.shuffle(&mut self.points);
        let set = |points: &[usize]| points.iter().fold(0u32, |s, &p| s | 1 << p);
        let placed = [
            set(&self.points[..men[0]]),
            set(&self.points[men[0]..men[0] + men[1]]),
        ];
        let side = match self.rng.bool() {
            true => Player::P1,
            false => Player::P2,
        };
        EgaraGuti::from_parts(placed, side, 0, 1)
    }

    /// The next position with `men` men as [`RandomPositions::next`] draws it, its 40-ply
    /// counter drawn from 0 to 39.
    pub fn next_at_any_counter(&mut self, men: [usize; 2]) -> EgaraGuti {
        let game = self.next(men);
        let counter = self.rng.u32(..QUIET_PLY_LIMIT);
        let men = [game.men(Player::P1), game.men(Player::P2)];
        EgaraGuti::from_parts(men, game.side_to_move(), counter, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::egaraguti::tablebase::solve::solve_up_to;

    #[test]
    fn every_position_has_the_value_asked_and_the_draw_repeats() {
        let tables = solve_up_to(5);
        for value in [Wdl::Win, Wdl::Draw, Wdl::Loss] {
            let positions = positions_of_value(&tables, [3, 2], value, 12, 7);
            assert_eq!(positions.len(), 12, "{value:?}");
            for game in &positions {
                assert_eq!(game.outcome(), None);
                let count = |p| game.men(p).count_ones();
                assert_eq!([count(Player::P1), count(Player::P2)], [3, 2]);
                assert_eq!(tables.probe(game).map(|p| p.value), Some(value));
            }
            assert_eq!(positions, positions_of_value(&tables, [3, 2], value, 12, 7));
        }
    }
}
