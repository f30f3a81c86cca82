//! The dense index of Egara-guti positions that the exact tables are laid out by.
//!
//! A table position is two sets of men, the side to move's (`mover`) and the other side's
//! (`other`), with no colours: White's and Black's men are alike and move alike in every
//! direction, so a position with Black to move is the same game as its colours swapped with
//! White to move. One table holds one material pair (the men of the mover, the men of the
//! other side).
//!
//! The board has four symmetries (the identity, left-right, top-bottom, and both: the 180
//! degree turn), and every position is stored once for its whole class under them:
//!
//! - the mover's men are reduced to the least of their four images (as bit sets), and the
//!   canonical mover sets of each size are numbered densely;
//! - the other side's men are ranked among the points the mover leaves free, by the
//!   combinatorial number system (colex order).
//!
//! So `index = slot(mover) * C(23 - a, b) + rank(other)`, every index is a real position, and
//! the tables are about a quarter of the positions. Where the mover's set is itself symmetric
//! (its image under a symmetry is itself), two slots can hold images of one position: the
//! position's canonical form picks the least image of the other side's men too, and the
//! other slot is marked as not canonical and never read.

use std::sync::LazyLock;

use crate::core::{BitSet, Wdl};
use crate::games::egaraguti::board::{NAMES, POINTS, point_by_name};

/// The number of symmetries of the board, the identity first.
pub const SYMMETRIES: usize = 4;

/// The most men a side can have.
pub const MAX_MEN: usize = 11;

/// A position as the tables see it: the men of the side to move and of the other side, as
/// bit sets over the points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Men {
    pub mover: u32,
    pub other: u32,
}

impl Men {
    /// The material pair of the position.
    pub fn material(self) -> Material {
        Material {
            mover: self.mover.count_ones() as usize,
            other: self.other.count_ones() as usize,
        }
    }
}

/// A material pair: the men of the side to move and of the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub mover: usize,
    pub other: usize,
}

impl Material {
    /// The same men with the other side to move.
    pub fn swapped(self) -> Material {
        Material {
            mover: self.other,
            other: self.mover,
        }
    }

    /// The men on the board.
    pub fn total(self) -> usize {
        self.mover + self.other
    }

    /// Whether the tables hold this pair: both sides have men, at most 11 each.
    pub fn is_tabled(self) -> bool {
        (1..=MAX_MEN).contains(&self.mover) && (1..=MAX_MEN).contains(&self.other)
    }
}

impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.mover, self.other)
    }
}

/// The result by counting men, the verdict of the 40-ply rule and of repetition.
pub fn wdl_by_count(material: Material) -> Wdl {
    match material.mover.cmp(&material.other) {
        std::cmp::Ordering::Greater => Wdl::Win,
        std::cmp::Ordering::Equal => Wdl::Draw,
        std::cmp::Ordering::Less => Wdl::Loss,
    }
}

/// Marks a set of points that is not the least of its images.
const NOT_CANONICAL: u32 = u32::MAX;

/// The symmetries as maps of bit sets, and the numbering of canonical mover sets.
pub struct Indexer {
    /// `bytes[s][k][v]`: the image under symmetry `s` of the points `8k..8k+8` given by the
    /// byte `v`.
    bytes: [[[u32; 256]; 3]; SYMMETRIES],
    /// For every set of points, its slot among the canonical sets of its size.
    slot: Vec<u32>,
    /// The canonical sets of each size, in slot order.
    canonical: Vec<Vec<u32>>,
    /// `binomial[n][k]`: n choose k.
    binomial: [[u64; POINTS + 1]; POINTS + 1],
}

/// The one indexer, built on first use (about 40 MB, a fraction of a second).
pub static INDEXER: LazyLock<Indexer> = LazyLock::new(Indexer::new);

/// The point maps of the four symmetries, derived from the point names: the file letter
/// mirrors about `e`, the rank digit about `4`.
fn point_maps() -> [[usize; POINTS]; SYMMETRIES] {
    let mirror = |name: &str, files: bool, ranks: bool| {
        let bytes = name.as_bytes();
        let file = if files {
            (b'a' + b'i' - bytes[0]) as char
        } else {
            bytes[0] as char
        };
        let rank = if ranks {
            (b'1' + b'7' - bytes[1]) as char
        } else {
            bytes[1] as char
        };
        point_by_name(&format!("{file}{rank}")).expect("the board is symmetric")
    };
    let mut maps = [[0; POINTS]; SYMMETRIES];
    for (s, map) in maps.iter_mut().enumerate() {
        for (point, image) in map.iter_mut().enumerate() {
            *image = mirror(NAMES[point], s & 1 != 0, s & 2 != 0);
        }
    }
    maps
}

impl Indexer {
    fn new() -> Self {
        let maps = point_maps();
        let mut bytes = [[[0u32; 256]; 3]; SYMMETRIES];
        for (s, map) in maps.iter().enumerate() {
            for (k, table) in bytes[s].iter_mut().enumerate() {
                for (v, image) in table.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let point = 8 * k + bit;
                        if v & (1 << bit) != 0 && point < POINTS {
                            *image |= 1 << map[point];
                        }
                    }
                }
            }
        }
        let mut binomial = [[0u64; POINTS + 1]; POINTS + 1];
        for n in 0..=POINTS {
            binomial[n][0] = 1;
            for k in 1..=n {
                binomial[n][k] = binomial[n - 1][k - 1] + binomial[n - 1][k];
            }
        }
        let mut indexer = Indexer {
            bytes,
            slot: vec![NOT_CANONICAL; 1 << POINTS],
            canonical: vec![Vec::new(); POINTS + 1],
            binomial,
        };
        for set in 0..1u32 << POINTS {
            if (1..SYMMETRIES).all(|s| set <= indexer.image(s, set)) {
                let size = set.count_ones() as usize;
                indexer.slot[set as usize] = indexer.canonical[size].len() as u32;
                indexer.canonical[size].push(set);
            }
        }
        indexer
    }

    /// The image of the points `set` under symmetry `s`.
    #[inline]
    pub fn image(&self, s: usize, set: u32) -> u32 {
        let table = &self.bytes[s];
        table[0][(set & 0xff) as usize]
            | table[1][((set >> 8) & 0xff) as usize]
            | table[2][(set >> 16) as usize & 0xff]
    }

    /// The image of a position under symmetry `s`.
    #[inline]
    pub fn image_of(&self, s: usize, men: Men) -> Men {
        Men {
            mover: self.image(s, men.mover),
            other: self.image(s, men.other),
        }
    }

    /// The representative of the position's class: the least mover set, then the least
    /// other set among the images that have it.
    #[inline]
    pub fn canonical(&self, men: Men) -> Men {
        let mut best = men;
        for s in 1..SYMMETRIES {
            let image = self.image_of(s, men);
            if (image.mover, image.other) < (best.mover, best.other) {
                best = image;
            }
        }
        best
    }

    /// The number of entries of a material pair's table.
    pub fn table_size(&self, material: Material) -> u64 {
        self.canonical[material.mover].len() as u64 * self.others(material)
    }

    /// How many ways the other side's men can stand beside one mover set.
    #[inline]
    fn others(&self, material: Material) -> u64 {
        self.binomial[POINTS - material.mover][material.other]
    }

    /// The index of the position's class in its material pair's table.
    #[inline]
    pub fn index(&self, men: Men) -> u64 {
        let canonical = self.canonical(men);
        let slot = self.slot[canonical.mover as usize];
        debug_assert_ne!(slot, NOT_CANONICAL);
        slot as u64 * self.others(men.material()) + self.rank_other(canonical)
    }

    /// The rank of the other side's men among the points the mover leaves free.
    #[inline]
    fn rank_other(&self, men: Men) -> u64 {
        let mut rank = 0;
        for (i, point) in men.other.squares().enumerate() {
            let free_below = point as u32 - (men.mover & ((1 << point) - 1)).count_ones();
            rank += self.binomial[free_below as usize][i + 1];
        }
        rank
    }

    /// The position stored at `index` of a material pair's table (not always canonical: see
    /// [`Indexer::is_canonical`]).
    pub fn position(&self, material: Material, index: u64) -> Men {
        let others = self.others(material);
        let mover = self.canonical[material.mover][(index / others) as usize];
        let mut rank = index % others;
        // Colex unranking: the largest free position first.
        let mut free = [0u8; POINTS];
        let mut below = 0;
        for point in 0..POINTS {
            if mover & (1 << point) == 0 {
                free[below] = point as u8;
                below += 1;
            }
        }
        let mut other = 0u32;
        for k in (1..=material.other).rev() {
            let mut c = below - 1;
            while self.binomial[c][k] > rank {
                c -= 1;
            }
            rank -= self.binomial[c][k];
            other |= 1 << free[c];
            below = c;
        }
        Men { mover, other }
    }

    /// The position stored at the entry after the one `men` is stored at in its material
    /// pair's table (`men` as [`Indexer::position`] gives it), `None` after the last: a walk
    /// through a table in order without unranking every entry. The other side's men step
    /// to their next set in colex order over the free points (a carry through the run of
    /// men from the lowest, as in Gosper's hack: the run's top man moves up to the first
    /// free point above it, the others drop to the lowest free points), or, after the last
    /// set, the next mover set begins with the lowest free points.
    pub fn next_position(&self, men: Men) -> Option<Men> {
        let all = (1u32 << POINTS) - 1;
        let free = all & !men.mover;
        let low = men.other & men.other.wrapping_neg();
        let taken = men.other | men.mover;
        let above = taken.wrapping_add(low) & !taken;
        if above & all != 0 {
            let run = above - low;
            let moved = (men.other & run).count_ones();
            return Some(Men {
                mover: men.mover,
                other: (men.other & !run) | above | lowest_points(free, moved - 1),
            });
        }
        let size = men.mover.count_ones() as usize;
        let mover = *self.canonical[size].get(self.slot[men.mover as usize] as usize + 1)?;
        let free = all & !mover;
        Some(Men {
            mover,
            other: lowest_points(free, men.other.count_ones()),
        })
    }

    /// Whether the entry at `index` is the one its position's class is read from.
    pub fn is_canonical(&self, material: Material, index: u64) -> bool {
        let men = self.position(material, index);
        self.canonical(men) == men
    }
}

/// The `count` lowest points of `set`.
#[inline]
fn lowest_points(mut set: u32, count: u32) -> u32 {
    let mut points = 0;
    for _ in 0..count {
        let lowest = set & set.wrapping_neg();
        points |= lowest;
        set ^= lowest;
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::egaraguti::board::{LEAP_TO, NEIGHBOURS, NO_POINT};

    #[test]
    fn symmetries_keep_the_lines() {
        let maps = point_maps();
        for map in &maps {
            let mut seen = 0u32;
            for from in 0..POINTS {
                seen |= 1 << map[from];
                for to in NEIGHBOURS[from].squares() {
                    assert_ne!(NEIGHBOURS[map[from]] & (1 << map[to]), 0);
                }
                for over in 0..POINTS {
                    let to = LEAP_TO[from][over];
                    if to != NO_POINT {
                        assert_eq!(LEAP_TO[map[from]][map[over]] as usize, map[to as usize]);
                    }
                }
            }
            assert_eq!(
                seen.count_ones() as usize,
                POINTS,
                "a symmetry is one to one"
            );
        }
        assert_eq!(
            maps[0],
            std::array::from_fn(|p| p),
            "the first is the identity"
        );
        assert_eq!(NAMES[maps[3][0]], "i7", "the half turn takes a1 to i7");
    }

    #[test]
    fn the_index_is_dense_and_inverts_the_position() {
        let indexer = &*INDEXER;
        for material in [
            Material { mover: 1, other: 1 },
            Material { mover: 2, other: 3 },
            Material { mover: 3, other: 2 },
        ] {
            let size = indexer.table_size(material);
            let mut classes = std::collections::HashSet::new();
            let mut canonical = 0;
            for index in 0..size {
                let men = indexer.position(material, index);
                assert_eq!(men.material(), material);
                assert_eq!(men.mover & men.other, 0);
                classes.insert(indexer.canonical(men));
                if indexer.is_canonical(material, index) {
                    canonical += 1;
                    assert_eq!(indexer.index(men), index);
                }
                for s in 0..SYMMETRIES {
                    let image = indexer.image_of(s, men);
                    assert_eq!(indexer.canonical(image), indexer.canonical(men));
                    assert_eq!(indexer.index(image), indexer.index(men));
                }
            }
            // Every class of positions has exactly one canonical entry.
            assert_eq!(canonical, classes.len());
            // Any position at all is found at its representative's entry.
            let mut rng = fastrand::Rng::with_seed(7);
            for _ in 0..1000 {
                let mut points: Vec<usize> = (0..POINTS).collect();
                rng.shuffle(&mut points);
                let set = |points: &[usize]| points.iter().fold(0u32, |s, &p| s | 1 << p);
                let men = Men {
                    mover: set(&points[..material.mover]),
                    other: set(&points[material.mover..material.total()]),
                };
                let index = indexer.index(men);
                assert!(index < size);
                assert_eq!(indexer.position(material, index), indexer.canonical(men));
            }
        }
    }

    #[test]
    fn next_position_walks_a_table_in_index_order() {
        let indexer = &*INDEXER;
        for material in [
            Material { mover: 1, other: 1 },
            Material { mover: 2, other: 3 },
            Material { mover: 3, other: 2 },
            Material { mover: 5, other: 4 },
        ] {
            let size = indexer.table_size(material);
            let mut men = indexer.position(material, 0);
            for index in 1..size {
                men = indexer.next_position(men).expect("an entry follows");
                assert_eq!(men, indexer.position(material, index), "{material} {index}");
            }
            assert_eq!(
                indexer.next_position(men),
                None,
                "{material}: the last entry"
            );
        }
    }

    #[test]
    fn the_canonical_mover_sets_are_about_a_quarter() {
        let indexer = &*INDEXER;
        let all: usize = indexer.canonical.iter().map(Vec::len).sum();
        // Burnside: (2^23 + three symmetries' fixed sets) / 4.
        let fixed = |s: usize| {
            (0..1u32 << POINTS)
                .filter(|&x| indexer.image(s, x) == x)
                .count()
        };
        let classes = ((1 << POINTS) + fixed(1) + fixed(2) + fixed(3)) / 4;
        assert_eq!(all, classes);
    }
}
