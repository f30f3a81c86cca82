//! The board's 11 lines laid end to end in one `u64`, one bit a point of a line and one
//! empty bit between two lines: the "line space". A point on several lines has a bit on
//! each. Two points are neighbours exactly when they sit side by side on a line, so in line
//! space a step is a shift by one and a leap a shift by two, and the evaluation's counts
//! over every man become a few shifts and a popcount instead of a loop over the men. The
//! gap bit is never set, so no shift carries a point of one line onto the next.
//!
//! [`to_lines`] maps a set of points into line space and [`to_points`] maps a set of line
//! positions back (a point is in the result when any of its positions is).

use super::board::{LINES, POINTS};

/// The number of bits the lines and their gaps fill: 61, so they fit in a word.
const WIDTH: usize = width();
const _: () = assert!(WIDTH <= 64);

/// Every position of a line (not the gaps).
pub const ON_LINES: u64 = on_lines();

/// Line positions with a line position before them (to their low side): a man there has a
/// neighbour on that side along the line.
pub const HAS_LOW_NEIGHBOUR: u64 = ON_LINES & (ON_LINES << 1);

/// Line positions with a line position after them (to their high side).
pub const HAS_HIGH_NEIGHBOUR: u64 = ON_LINES & (ON_LINES >> 1);

/// `POINT_TO_LINES[byte][b]`: the line positions of the points `8 * byte + i` for each bit
/// `i` set in `b`.
static POINT_TO_LINES: [[u64; 256]; 3] = point_to_lines();

/// `POINT_AT[position]`: the point at a line position, as a one-point set (none at a gap).
static POINT_AT: [u32; 64] = point_at();

/// The line positions of the points in `points`.
#[inline]
pub fn to_lines(points: u32) -> u64 {
    POINT_TO_LINES[0][(points & 0xff) as usize]
        | POINT_TO_LINES[1][((points >> 8) & 0xff) as usize]
        | POINT_TO_LINES[2][((points >> 16) & 0xff) as usize]
}

/// The points that have at least one of the line positions in `positions`, a position at a
/// time: the sets the evaluation maps back hold a few men at most.
#[inline]
pub fn to_points(mut positions: u64) -> u32 {
    let mut points = 0;
    while positions != 0 {
        points |= POINT_AT[positions.trailing_zeros() as usize];
        positions &= positions - 1;
    }
    points
}

/// The line position of each point of each line, line after line with one gap between.
const fn positions() -> [[u8; 8]; 11] {
    let mut table = [[u8::MAX; 8]; 11];
    let mut next = 0;
    let mut line = 0;
    while line < LINES.len() {
        let mut i = 0;
        while i < LINES[line].len() {
            table[line][i] = next;
            next += 1;
            i += 1;
        }
        next += 1; // the gap
        line += 1;
    }
    table
}

const fn width() -> usize {
    let mut width = 0;
    let mut line = 0;
    while line < LINES.len() {
        width += LINES[line].len() + 1;
        line += 1;
    }
    width - 1
}

const fn on_lines() -> u64 {
    let table = positions();
    let mut set = 0;
    let mut line = 0;
    while line < LINES.len() {
        let mut i = 0;
        while i < LINES[line].len() {
            set |= 1 << table[line][i];
            i += 1;
        }
        line += 1;
    }
    set
}

/// Each point's line positions.
const fn point_positions() -> [u64; POINTS] {
    let table = positions();
    let mut of_point = [0u64; POINTS];
    let mut line = 0;
    while line < LINES.len() {
        let mut i = 0;
        while i < LINES[line].len() {
            of_point[LINES[line][i] as usize] |= 1 << table[line][i];
            i += 1;
        }
        line += 1;
    }
    of_point
}

const fn point_to_lines() -> [[u64; 256]; 3] {
    let of_point = point_positions();
    let mut table = [[0u64; 256]; 3];
    let mut byte = 0;
    while byte < 3 {
        let mut bits = 0;
        while bits < 256 {
            let mut i = 0;
            while i < 8 {
                let point = 8 * byte + i;
                if bits & (1 << i) != 0 && point < POINTS {
                    table[byte][bits] |= of_point[point];
                }
                i += 1;
            }
            bits += 1;
        }
        byte += 1;
    }
    table
}

const fn point_at() -> [u32; 64] {
    let of_point = point_positions();
    let mut table = [0u32; 64];
    let mut point = 0;
    while point < POINTS {
        let mut position = 0;
        while position < 64 {
            if of_point[point] & (1 << position) != 0 {
                table[position] = 1 << point;
            }
            position += 1;
        }
        point += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::super::board::{ALL_POINTS, NEIGHBOURS};
    use super::*;

    #[test]
    fn the_lines_fit_in_a_word_and_map_there_and_back() {
        assert_eq!(WIDTH, 61);
        assert_eq!(ON_LINES.count_ones(), 51);
        assert_eq!(to_lines(ALL_POINTS), ON_LINES);
        assert_eq!(to_points(ON_LINES), ALL_POINTS);
        for point in 0..POINTS {
            assert_eq!(to_points(to_lines(1 << point)), 1 << point);
        }
    }

    #[test]
    fn side_by_side_in_line_space_is_neighbours_on_the_board() {
        for (point, &neighbours) in NEIGHBOURS.iter().enumerate() {
            let here = to_lines(1 << point);
            let beside = to_points((here << 1 | here >> 1) & ON_LINES);
            assert_eq!(beside, neighbours, "point {point}");
        }
        // Each of the 40 edges is one pair of adjacent line positions.
        assert_eq!((ON_LINES & ON_LINES << 1).count_ones(), 40);
    }
}
