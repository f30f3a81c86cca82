//! The two Lielow boards as types, with their precomputed move tables.
//!
//! Squares are numbered rank by rank from a1 = 0 (file = square % n, rank = square / n).
//! The tables are built by `const fn`s at compile time: the reach once for 9x9 in `u128`
//! and then narrowed to `u64` for 8x8, the distances to the edge as bytes.

use std::fmt::Debug;
use std::hash::Hash;

use crate::core::BitSet;
use crate::games::variant::Variant;

/// The largest board side, and so the tallest possible stack.
pub const MAX_SIDE: usize = 9;
/// Squares of the largest board; per-square arrays have this length for both boards.
pub const MAX_SQUARES: usize = MAX_SIDE * MAX_SIDE;

/// The eight queen directions as (file step, rank step).
const DIRECTIONS: [(isize, isize); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Per-board tables, indexed by stack height (1..=n; row 0 is unused) and square.
#[derive(Debug)]
pub struct MoveTables<B> {
    /// `reach[h][s]`: the on-board squares exactly `h` steps from `s` along the eight lines.
    pub reach: [[B; MAX_SQUARES]; MAX_SIDE + 1],
    /// `edge_distance[s]`: how far `s` stands from the nearest edge (0 on the edge).
    pub edge_distance: [u8; MAX_SQUARES],
}

impl<B> MoveTables<B> {
    /// Whether a stack of `height` on `square` has its off move: whether the square is
    /// closer than `height` to some edge. (A byte compare: cheaper than testing a bit of a
    /// 128-bit set, and asked for every stack at every evaluation.)
    #[inline]
    pub fn can_leave(&self, height: usize, square: usize) -> bool {
        (self.edge_distance[square] as usize) < height
    }
}

/// A Lielow board size: the side length, the bit-set type that holds a board, and tables.
pub trait Geometry: Copy + Debug + Eq + Hash + Send + Sync + 'static {
    /// Side length.
    const N: usize;
    /// The protocol variant played on this board.
    const VARIANT: Variant;
    /// A set of squares of this board.
    type Bits: BitSet;
    /// The move tables of this board.
    fn move_tables() -> &'static MoveTables<Self::Bits>;
}

/// The 8x8 board of `lielow`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board8;

/// The 9x9 board of `lielow9`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board9;

static TABLES_8: MoveTables<u64> = MoveTables {
    reach: narrow_reach(reach_table(8)),
    edge_distance: edge_distance_table(8),
};

static TABLES_9: MoveTables<u128> = MoveTables {
    reach: reach_table(9),
    edge_distance: edge_distance_table(9),
};

impl Geometry for Board8 {
    const N: usize = 8;
    const VARIANT: Variant = Variant::Lielow;
    type Bits = u64;

    #[inline]
    fn move_tables() -> &'static MoveTables<u64> {
        &TABLES_8
    }
}

impl Geometry for Board9 {
    const N: usize = 9;
    const VARIANT: Variant = Variant::Lielow9;
    type Bits = u128;

    #[inline]
    fn move_tables() -> &'static MoveTables<u128> {
        &TABLES_9
    }
}

const fn reach_table(n: usize) -> [[u128; MAX_SQUARES]; MAX_SIDE + 1] {
    let mut table = [[0u128; MAX_SQUARES]; MAX_SIDE + 1];
    let mut height = 1;
    while height <= n {
        let mut square = 0;
        while square < n * n {
            let mut direction = 0;
            while direction < DIRECTIONS.len() {
                let (file_step, rank_step) = DIRECTIONS[direction];
                let file = (square % n) as isize + file_step * height as isize;
                let rank = (square / n) as isize + rank_step * height as isize;
                if file >= 0 && rank >= 0 && file < n as isize && rank < n as isize {
                    table[height][square] |= 1u128 << (rank as usize * n + file as usize);
                }
                direction += 1;
            }
            square += 1;
        }
        height += 1;
    }
    table
}

const fn edge_distance_table(n: usize) -> [u8; MAX_SQUARES] {
    let mut table = [0u8; MAX_SQUARES];
    let mut square = 0;
    while square < n * n {
        let (file, rank) = (square % n, square / n);
        let mut distance = file;
        if rank < distance {
            distance = rank;
        }
        if n - 1 - file < distance {
            distance = n - 1 - file;
        }
        if n - 1 - rank < distance {
            distance = n - 1 - rank;
        }
        table[square] = distance as u8;
        square += 1;
    }
    table
}

const fn narrow_reach(
    table: [[u128; MAX_SQUARES]; MAX_SIDE + 1],
) -> [[u64; MAX_SQUARES]; MAX_SIDE + 1] {
    let mut out = [[0u64; MAX_SQUARES]; MAX_SIDE + 1];
    let mut height = 0;
    while height < table.len() {
        let mut square = 0;
        while square < MAX_SQUARES {
            out[height][square] = table[height][square] as u64;
            square += 1;
        }
        height += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_from_a_corner_and_the_centre() {
        let moves = Board8::move_tables();
        // a1 with height 2: a3, c1, c3.
        let expected: u64 = (1 << 16) | (1 << 2) | (1 << 18);
        assert_eq!(moves.reach[2][0], expected);
        // d4 (square 27) with height 1: the eight neighbours.
        assert_eq!(moves.reach[1][27].count_ones(), 8);
        // Height 8 reaches nothing on 8x8, height 9 nothing on 9x9.
        assert!(moves.reach[8].iter().all(|&set| set == 0));
        assert!(Board9::move_tables().reach[9].iter().all(|&set| set == 0));
    }

    #[test]
    fn off_moves_exist_exactly_near_an_edge() {
        fn leaving<B>(moves: &MoveTables<B>, n: usize, height: usize) -> usize {
            (0..n * n)
                .filter(|&square| moves.can_leave(height, square))
                .count()
        }
        let eight = Board8::move_tables();
        // Height 1 leaves only from the outer ring (28 squares); height 4 from everywhere.
        assert_eq!(leaving(eight, 8, 1), 28);
        assert_eq!(leaving(eight, 8, 3), 60);
        assert_eq!(leaving(eight, 8, 4), 64);
        let nine = Board9::move_tables();
        assert_eq!(leaving(nine, 9, 4), 80);
        assert_eq!(leaving(nine, 9, 5), 81);
    }
}
