//! The 23-point Egara-guti board as constant tables.
//!
//! Everything is derived at compile time from one fact, the 11 straight lines of the board:
//! two points are neighbours when they follow each other on a line, and a leap goes over the
//! middle point of three consecutive points of a line. Point indices run rank by rank from
//! White's base (a1 = 0) to Black's (i7 = 22), left to right within a rank.

/// Number of points.
pub const POINTS: usize = 23;

/// All points as a bit set.
pub const ALL_POINTS: u32 = (1 << POINTS) - 1;

/// Point names: file letter from x, rank digit from y.
pub const NAMES: [&str; POINTS] = [
    "a1", "c1", "e1", "g1", "i1", // rank 1, White's base
    "c2", "e2", "g2", // rank 2
    "d3", "e3", "f3", // rank 3
    "e4", // the shared apex
    "d5", "e5", "f5", // rank 5
    "c6", "e6", "g6", // rank 6
    "a7", "c7", "e7", "g7", "i7", // rank 7, Black's base
];

/// The points of each rank, from rank 7 (top) down to rank 1, as index ranges: the order of
/// the position string.
pub const RANKS_TOP_DOWN: [std::ops::Range<usize>; 7] =
    [18..23, 15..18, 12..15, 11..12, 8..11, 5..8, 0..5];

// Point indices by name, for the line table.
const A1: u8 = 0;
const C1: u8 = 1;
const E1: u8 = 2;
const G1: u8 = 3;
const I1: u8 = 4;
const C2: u8 = 5;
const E2: u8 = 6;
const G2: u8 = 7;
const D3: u8 = 8;
const E3: u8 = 9;
const F3: u8 = 10;
const E4: u8 = 11;
const D5: u8 = 12;
const E5: u8 = 13;
const F5: u8 = 14;
const C6: u8 = 15;
const E6: u8 = 16;
const G6: u8 = 17;
const A7: u8 = 18;
const C7: u8 = 19;
const E7: u8 = 20;
const G7: u8 = 21;
const I7: u8 = 22;

/// The 11 straight lines drawn on the board, each as its points in order.
pub const LINES: [&[u8]; 11] = [
    &[A1, C1, E1, G1, I1],
    &[C2, E2, G2],
    &[D3, E3, F3],
    &[D5, E5, F5],
    &[C6, E6, G6],
    &[A7, C7, E7, G7, I7],
    &[E1, E2, E3, E4, E5, E6, E7],
    &[A1, C2, D3, E4, F5, G6, I7],
    &[I1, G2, F3, E4, D5, C6, A7],
    &[C1, C2, C6, C7],
    &[G1, G2, G6, G7],
];

/// `NEIGHBOURS[p]`: the points next to `p` along a line.
pub static NEIGHBOURS: [u32; POINTS] = neighbours();

/// The most neighbours a point has: what bounds the steps of one man.
pub const MOST_NEIGHBOURS: usize = most_neighbours();

/// `LEAP_TO[from][over]`: where the leap from `from` over `over` lands, or `NO_POINT`. A
/// line through two neighbours is unique, so there is at most one such leap.
pub static LEAP_TO: [[u8; POINTS]; POINTS] = LEAPS.to;

/// `JUMPABLE[p]`: the points a man on `p` can leap over; a quick test before the leap list.
pub static JUMPABLE: [u32; POINTS] = LEAPS.jumpable;

/// `LEAP_OVER[from][to]`: the jumped point of the leap from `from` to `to`, or `NO_POINT`.
pub static LEAP_OVER: [[u8; POINTS]; POINTS] = LEAPS.over;

/// Not a point.
pub const NO_POINT: u8 = u8::MAX;

const fn most_neighbours() -> usize {
    let table = neighbours();
    let (mut most, mut point) = (0, 0);
    while point < POINTS {
        if table[point].count_ones() as usize > most {
            most = table[point].count_ones() as usize;
        }
        point += 1;
    }
    most
}

const fn neighbours() -> [u32; POINTS] {
    let mut table = [0u32; POINTS];
    let mut line = 0;
    while line < LINES.len() {
        let points = LINES[line];
        let mut i = 0;
        while i + 1 < points.len() {
            let (a, b) = (points[i] as usize, points[i + 1] as usize);
            table[a] |= 1 << b;
            table[b] |= 1 << a;
            i += 1;
        }
        line += 1;
    }
    table
}

/// The three views of the 58 directed leaps, built together.
struct LeapTables {
    to: [[u8; POINTS]; POINTS],
    over: [[u8; POINTS]; POINTS],
    jumpable: [u32; POINTS],
}

const LEAPS: LeapTables = leap_tables();

/// Every run of three consecutive points of a line is a leap, each way.
const fn leap_tables() -> LeapTables {
    let mut tables = LeapTables {
        to: [[NO_POINT; POINTS]; POINTS],
        over: [[NO_POINT; POINTS]; POINTS],
        jumpable: [0; POINTS],
    };
    let mut line = 0;
    while line < LINES.len() {
        let points = LINES[line];
        let mut i = 0;
        while i + 2 < points.len() {
            let (a, over, b) = (points[i], points[i + 1], points[i + 2]);
            let ends = [(a, b), (b, a)];
            let mut end = 0;
            while end < ends.len() {
                let (from, to) = (ends[end].0 as usize, ends[end].1);
                tables.to[from][over as usize] = to;
                tables.over[from][to as usize] = over;
                tables.jumpable[from] |= 1 << over;
                end += 1;
            }
            i += 1;
        }
        line += 1;
    }
    tables
}

/// The index of a point name such as `e4`.
pub fn point_by_name(name: &str) -> Option<usize> {
    NAMES.iter().position(|&n| n == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaps_from(from: usize) -> impl Iterator<Item = (usize, usize)> {
        (0..POINTS).filter_map(move |over| {
            let to = LEAP_TO[from][over];
            (to != NO_POINT).then_some((over, to as usize))
        })
    }

    #[test]
    fn forty_edges_and_fifty_eight_directed_leaps() {
        let edges: u32 = NEIGHBOURS.iter().map(|n| n.count_ones()).sum();
        assert_eq!(edges, 2 * 40);
        let leaps: usize = (0..POINTS).map(|p| leaps_from(p).count()).sum();
        assert_eq!(leaps, 58);
        assert_eq!(leaps_from(11).count(), 6, "the apex leaps six ways");
    }

    #[test]
    fn ranks_cover_every_point_once_in_index_order() {
        let mut seen: Vec<usize> = RANKS_TOP_DOWN
            .iter()
            .rev()
            .flat_map(|r| r.clone())
            .collect();
        assert_eq!(seen.len(), POINTS);
        seen.dedup();
        assert_eq!(seen, (0..POINTS).collect::<Vec<_>>());
    }

    #[test]
    fn leap_tables_agree_with_each_other() {
        for from in 0..POINTS {
            let mut jumpable = 0u32;
            for (over, to) in leaps_from(from) {
                assert_eq!(LEAP_OVER[from][to] as usize, over);
                assert_eq!(LEAP_TO[to][over] as usize, from, "leaps go both ways");
                // The jumped point neighbours both ends.
                assert_ne!(NEIGHBOURS[from] & (1 << over), 0);
                assert_ne!(NEIGHBOURS[to] & (1 << over), 0);
                jumpable |= 1 << over;
            }
            assert_eq!(JUMPABLE[from], jumpable);
        }
        // No pair of points is both adjacent and the two ends of a leap.
        for (from, row) in LEAP_OVER.iter().enumerate() {
            for (to, &over) in row.iter().enumerate() {
                if over != NO_POINT {
                    assert_eq!(NEIGHBOURS[from] & (1 << to), 0);
                }
            }
        }
    }
}
