//! One position's accumulators, one a perspective: what the search keeps move by move.
//!
//! Fixed and aligned: each perspective is an array of [`MAX_HIDDEN`] units, aligned to a
//! cache line and kept in place (in a ply's state) rather than behind a pointer, so a search
//! never allocates one, reads it without a pointer's load first, and a vector load of it
//! never straddles a line. Only the first `units` (the network's) are read, written,
//! copied or compared.

use crate::core::Player;

/// The most units a perspective a network has: what an accumulator holds.
pub const MAX_HIDDEN: usize = 1024;

/// One perspective's units, aligned to a cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Units([i16; MAX_HIDDEN]);

/// One position's accumulators. The default is empty, of no network (what a search with
/// no network keeps).
pub struct Accumulator {
    perspectives: [Units; 2],
    /// The units in use: the network's, a perspective.
    units: usize,
}

impl Accumulator {
    /// Both perspectives set to `bias` (at most [`MAX_HIDDEN`] units).
    pub(super) fn of_bias(bias: &[i16]) -> Accumulator {
        let mut accumulator = Accumulator {
            units: bias.len(),
            ..Accumulator::default()
        };
        for perspective in &mut accumulator.perspectives {
            perspective.0[..bias.len()].copy_from_slice(bias);
        }
        accumulator
    }

    /// `perspective`'s first `N` units.
    #[inline(always)]
    pub(super) fn units<const N: usize>(&self, perspective: Player) -> &[i16; N] {
        self.perspectives[perspective.index()].0[..N]
            .try_into()
            .expect("N units")
    }

    /// `perspective`'s first `N` units, to write.
    #[inline(always)]
    pub(super) fn units_mut<const N: usize>(&mut self, perspective: Player) -> &mut [i16; N] {
        (&mut self.perspectives[perspective.index()].0[..N])
            .try_into()
            .expect("N units")
    }

    /// `perspective`'s first `units` units.
    #[inline(always)]
    pub(super) fn slice(&self, perspective: Player, units: usize) -> &[i16] {
        &self.perspectives[perspective.index()].0[..units]
    }

    /// `perspective`'s first `units` units, to write.
    #[inline(always)]
    pub(super) fn slice_mut(&mut self, perspective: Player, units: usize) -> &mut [i16] {
        &mut self.perspectives[perspective.index()].0[..units]
    }

    /// Becomes a copy of `other`, its units in use only.
    #[inline]
    pub fn copy_from(&mut self, other: &Accumulator) {
        self.units = other.units;
        for (mine, theirs) in self.perspectives.iter_mut().zip(&other.perspectives) {
            mine.0[..other.units].copy_from_slice(&theirs.0[..other.units]);
        }
    }

    /// The units in use of both perspectives.
    fn used(&self) -> [&[i16]; 2] {
        Player::BOTH.map(|perspective| self.slice(perspective, self.units))
    }
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            perspectives: [Units([0; MAX_HIDDEN]); 2],
            units: 0,
        }
    }
}

/// Cloned into a kept accumulator, the copy is of the units in use: the search copies a
/// node's state into its child's place at every null move.
impl Clone for Accumulator {
    fn clone(&self) -> Self {
        let mut copy = Accumulator::default();
        copy.copy_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Self) {
        self.copy_from(source);
    }
}

impl PartialEq for Accumulator {
    fn eq(&self, other: &Self) -> bool {
        self.used() == other.used()
    }
}

impl Eq for Accumulator {}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [first, second] = self.used();
        f.debug_struct("Accumulator")
            .field("first", &first)
            .field("second", &second)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_accumulator_is_aligned_and_compares_its_units_in_use_only() {
        let accumulator = Accumulator::of_bias(&[1, -2, 3]);
        for perspective in Player::BOTH {
            assert_eq!(accumulator.slice(perspective, 3), [1, -2, 3]);
            assert_eq!(accumulator.slice(perspective, 3).as_ptr() as usize % 64, 0);
        }
        let mut other = Accumulator::default();
        other.perspectives[0].0[3] = 9;
        other.perspectives[1].0[3] = 9;
        other.copy_from(&accumulator);
        // The unit beyond the network's differs, and is not compared.
        assert_eq!(other, accumulator);
        assert_eq!(other.clone(), accumulator);
        assert_ne!(Accumulator::of_bias(&[1, -2, 4]), accumulator);
        assert_ne!(Accumulator::of_bias(&[1, -2]), accumulator);
    }
}
