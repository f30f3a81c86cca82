//! Fixed-width bit sets over board squares, so that one generic board can use `u64` for 64
//! squares and `u128` for up to 128.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of square indices held in one unsigned integer.
pub trait BitSet:
    Copy
    + Eq
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const EMPTY: Self;

    /// The set holding only `square`.
    fn single(square: usize) -> Self;

    /// Whether `square` is in the set.
    #[inline]
    fn has(self, square: usize) -> bool {
        self & Self::single(square) != Self::EMPTY
    }

    /// Whether the set is empty.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }

    /// Number of squares in the set.
    fn count(self) -> u32;

    /// The lowest square of a non-empty set.
    fn lowest(self) -> usize;

    /// The set without its lowest square.
    fn without_lowest(self) -> Self;

    /// Iterates over the squares in ascending order.
    #[inline]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// Iterator over the squares of a [`BitSet`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<B>(B);

impl<B: BitSet> Iterator for Squares<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            let square = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(square)
        }
    }
}

macro_rules! impl_bitset {
    ($($t:ty),*) => {$(
        impl BitSet for $t {
            const EMPTY: Self = 0;

            #[inline]
            fn single(square: usize) -> Self {
                1 << square
            }

            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }

            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }

            #[inline]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    )*};
}

impl_bitset!(u32, u64, u128);

#[cfg(test)]
mod tests {
    use super::BitSet;

    #[test]
    fn squares_come_out_in_order() {
        let set: u128 = <u128 as BitSet>::single(3) | <u128 as BitSet>::single(100);
        assert_eq!(set.squares().collect::<Vec<_>>(), vec![3, 100]);
        assert_eq!(BitSet::count(set), 2);
        assert!(set.has(100) && !set.has(4));
        let small: u64 = 0b1010;
        assert_eq!(small.squares().collect::<Vec<_>>(), vec![1, 3]);
    }
}
