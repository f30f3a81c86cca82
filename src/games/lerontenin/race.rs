//! The race without the opponent: how many moves, and how many of its owner's turns, a piece
//! still needs to reach the end square if nothing throws it back.
//!
//! Both are exact minima over every way to finish, divisions included (a PENT on 95 must
//! split twice), worked out once into constant tables by dynamic programming from the end
//! square backwards: a forward move only ever increases the square, and a division only
//! lowers the power, so every entry depends on entries already filled.
//!
//! - Moves: a forward move or a division is one move; the parts of a division then need
//!   their own moves.
//! - Turns: the piece moves on its first turn and then sits out as many turns as squares it
//!   advanced; the parts of a division sit out their powers and then run side by side, so the
//!   slower part decides. Turns count from the piece being free.
//!
//! Beside the minima, a maximum: the most finished parts a piece can become, splitting each
//! time it is stuck into parts that get stuck again. Under rule 14 a cycle is decided by the
//! square totals, and every finished part adds 98 to its side's.

use super::army::END;

const SQUARES: usize = END as usize + 1;
/// Powers of fixed-power pieces: 1..=7.
const POWERS: usize = 8;
/// The SINGLE's step cycle: its move count mod 7.
const CYCLE: usize = 7;

/// Fewest moves and turns, and most finished parts, per (power, square) for fixed-power
/// pieces.
struct FixedTables {
    moves: [[u8; SQUARES]; POWERS],
    turns: [[u16; SQUARES]; POWERS],
    parts: [[u8; SQUARES]; POWERS],
}

/// Fewest moves and turns per (square, move count mod 7) for the SINGLE.
struct SingleTables {
    moves: [[u8; CYCLE]; SQUARES],
    turns: [[u16; CYCLE]; SQUARES],
}

const fn min_u8(a: u8, b: u8) -> u8 {
    if a < b { a } else { b }
}

const fn min_u16(a: u16, b: u16) -> u16 {
    if a < b { a } else { b }
}

const fn max_u8(a: u8, b: u8) -> u8 {
    if a > b { a } else { b }
}

const fn max_u16(a: u16, b: u16) -> u16 {
    if a > b { a } else { b }
}

const fn fixed_tables() -> FixedTables {
    let mut t = FixedTables {
        moves: [[0; SQUARES]; POWERS],
        turns: [[0; SQUARES]; POWERS],
        // A piece on the end square is one finished part.
        parts: [[1; SQUARES]; POWERS],
    };
    // Powers in increasing order: a division refers to smaller powers only. Squares from
    // the end backwards: a forward move refers to a later square only.
    let mut power = 1;
    while power < POWERS {
        let mut square = END as usize;
        while square > 0 {
            square -= 1;
            let (moves, turns, parts) = if square + power <= END as usize {
                let next = square + power;
                let rest_turns = if next == END as usize {
                    0
                } else {
                    power as u16 + t.turns[power][next]
                };
                (
                    1 + t.moves[power][next],
                    1 + rest_turns,
                    t.parts[power][next],
                )
            } else {
                // Stuck before the end: split into a + b = power, a <= b, placed a and b
                // squares back and frozen a and b turns. Power 1 is never stuck.
                let mut best_moves = u8::MAX;
                let mut best_turns = u16::MAX;
                let mut most_parts = 0;
                let mut a = 1;
                while a <= power / 2 {
                    let b = power - a;
                    let moves = 1 + t.moves[a][square - a] + t.moves[b][square - b];
                    let turns = 1 + max_u16(
                        a as u16 + t.turns[a][square - a],
                        b as u16 + t.turns[b][square - b],
                    );
                    best_moves = min_u8(best_moves, moves);
                    best_turns = min_u16(best_turns, turns);
                    most_parts =
                        max_u8(most_parts, t.parts[a][square - a] + t.parts[b][square - b]);
                    a += 1;
                }
                (best_moves, best_turns, most_parts)
            };
            t.moves[power][square] = moves;
            t.turns[power][square] = turns;
            t.parts[power][square] = parts;
        }
        power += 1;
    }
    t
}

const fn single_tables() -> SingleTables {
    let mut t = SingleTables {
        moves: [[0; CYCLE]; SQUARES],
        turns: [[0; CYCLE]; SQUARES],
    };
    let mut square = END as usize;
    while square > 0 {
        square -= 1;
        let mut count = 0;
        while count < CYCLE {
            let variable = if count == 0 { CYCLE } else { count };
            let next_count = (count + 1) % CYCLE;
            let mut best_moves = u8::MAX;
            let mut best_turns = u16::MAX;
            let steps = [1, variable];
            let mut i = 0;
            while i < steps.len() {
                let next = square + steps[i];
                if next <= END as usize {
                    let rest_turns = if next == END as usize {
                        0
                    } else {
                        steps[i] as u16 + t.turns[next][next_count]
                    };
                    best_moves = min_u8(best_moves, 1 + t.moves[next][next_count]);
                    best_turns = min_u16(best_turns, 1 + rest_turns);
                }
                i += 1;
            }
            t.moves[square][count] = best_moves;
            t.turns[square][count] = best_turns;
            count += 1;
        }
    }
    t
}

static FIXED: FixedTables = fixed_tables();
static SINGLE: SingleTables = single_tables();

/// Fewest moves a piece of fixed `power` on `square` needs to finish.
#[inline]
pub fn moves_to_finish(power: u8, square: u8) -> u32 {
    FIXED.moves[power as usize][square as usize] as u32
}

/// The most finished parts a piece of fixed `power` on `square` can still become: 1 for a
/// piece whose steps land on the end square, more for one that must divide on the way.
#[inline]
pub fn most_parts(power: u8, square: u8) -> u32 {
    FIXED.parts[power as usize][square as usize] as u32
}

/// Fewest own turns, from being free, a piece of fixed `power` on `square` needs to finish.
#[inline]
pub fn turns_to_finish(power: u8, square: u8) -> u32 {
    FIXED.turns[power as usize][square as usize] as u32
}

/// Fewest moves the SINGLE on `square` needs, having moved `count` times.
#[inline]
pub fn single_moves_to_finish(square: u8, count: u32) -> u32 {
    SINGLE.moves[square as usize][count as usize % CYCLE] as u32
}

/// Fewest own turns, from being free, the SINGLE on `square` needs, having moved `count`
/// times.
#[inline]
pub fn single_turns_to_finish(square: u8, count: u32) -> u32 {
    SINGLE.turns[square as usize][count as usize % CYCLE] as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_that_divide_98_walk_straight_home() {
        assert_eq!(moves_to_finish(7, 0), 14);
        assert_eq!(turns_to_finish(7, 0), 13 * 8 + 1);
        assert_eq!(moves_to_finish(2, 96), 1);
        assert_eq!(turns_to_finish(2, 96), 1);
        assert_eq!(moves_to_finish(1, 90), 8);
        assert_eq!(turns_to_finish(1, 90), 7 * 2 + 1);
        assert_eq!(moves_to_finish(7, 98), 0);
    }

    #[test]
    fn a_stuck_piece_divides_and_its_parts_finish() {
        // A TRIPLE on 96: 1 + 2 -> parts on 95 (power 1: 3 moves) and 94 (power 2: 2 moves).
        assert_eq!(moves_to_finish(3, 96), 6);
        // Division on turn 1; the power-2 part is free on turn 4 and needs 94 -> 96 -> 98:
        // turns 4 and 7. The power-1 part, free on turn 3, moves on turns 3, 5 and 7.
        assert_eq!(turns_to_finish(3, 96), 7);
    }

    /// The same minima by plain recursion over the rules, for squares near the end.
    fn by_recursion(power: u8, square: u8) -> (u32, u32) {
        if square == END {
            return (0, 0);
        }
        if square + power <= END {
            let (moves, turns) = by_recursion(power, square + power);
            let wait = if square + power == END {
                0
            } else {
                power as u32 + turns
            };
            return (1 + moves, 1 + wait);
        }
        (1..=power / 2)
            .map(|a| {
                let b = power - a;
                let (moves_a, turns_a) = by_recursion(a, square - a);
                let (moves_b, turns_b) = by_recursion(b, square - b);
                (
                    1 + moves_a + moves_b,
                    1 + (a as u32 + turns_a).max(b as u32 + turns_b),
                )
            })
            .fold((u32::MAX, u32::MAX), |(m, t), (ma, ta)| {
                (m.min(ma), t.min(ta))
            })
    }

    #[test]
    fn the_tables_agree_with_plain_recursion_near_the_end() {
        for power in 1..=7 {
            for square in 80..=END {
                let (moves, turns) = by_recursion(power, square);
                assert_eq!(moves_to_finish(power, square), moves, "P{power}@{square}");
                assert_eq!(turns_to_finish(power, square), turns, "P{power}@{square}");
            }
        }
        // A PENT on 95 needs a second division: no split of it finishes with walks alone.
        assert!(moves_to_finish(5, 95) > 1 + moves_to_finish(1, 94) + 1);
    }

    /// The most finished parts by plain recursion over the rules.
    fn most_parts_by_recursion(power: u8, square: u8) -> u32 {
        if square == END {
            return 1;
        }
        if square + power <= END {
            return most_parts_by_recursion(power, square + power);
        }
        (1..=power / 2)
            .map(|a| {
                most_parts_by_recursion(a, square - a)
                    + most_parts_by_recursion(power - a, square - (power - a))
            })
            .max()
            .expect("a stuck piece has power 2 or more")
    }

    #[test]
    fn the_most_parts_agree_with_plain_recursion() {
        for power in 1..=7 {
            for square in (0..=END).step_by(1) {
                assert_eq!(
                    most_parts(power, square),
                    most_parts_by_recursion(power, square),
                    "P{power}@{square}"
                );
            }
        }
    }

    #[test]
    fn pieces_that_must_divide_can_end_in_several_parts() {
        // From the start: the DOUBLE and the HEP walk home whole; the TRIPLE on 96 splits
        // 1 + 2 (two parts); the QUAD on 96 splits 1 + 3, and the 3 on 93 gets stuck on 96
        // again (three parts); the HEX on 96 splits 1 + 5, and the 5 splits on
        // as it gets stuck (1 + 4, then 1 + 3, then 1 + 2).
        let from_start: Vec<u32> = (2..=7).map(|power| most_parts(power, 0)).collect();
        assert_eq!(from_start, [1, 2, 3, 5, 5, 1]);
        assert_eq!(most_parts(1, 40), 1);
    }

    #[test]
    fn the_single_chooses_its_steps() {
        // Fresh on 0: 7 then 1s would be slow; the counter gives 7, 1, 2, 3, 4, 5, 6, 7 ...
        assert_eq!(single_moves_to_finish(97, 3), 1);
        assert_eq!(single_moves_to_finish(93, 5), 1); // S@93#5 may go 5 to 98
        assert_eq!(single_moves_to_finish(95, 5), 3); // S@95#5: 1, 1, 1
        assert!(single_moves_to_finish(0, 0) < moves_to_finish(1, 0));
    }
}
