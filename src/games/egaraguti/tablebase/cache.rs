//! The values a compact set derived lately ([`CaptureCache`]): a capture's value costs a
//! look into the lower levels for each capture, and a search asks about the same positions
//! again and again (each iteration of its deepening, each transposition), so the answers
//! are kept. Beside the index, below the set.

use std::sync::atomic::{AtomicU64, Ordering};

use super::index::Men;
use crate::core::Wdl;

/// The entries of the cache: 512 KiB, which stays in a core's second-level cache.
const ENTRIES: usize = 1 << 16;
/// The bits of a position's men in an entry: each side's 23 points.
const MEN_BITS: u32 = 46;

/// A direct-mapped cache of derived values, shared by every thread that probes the set.
/// Each entry is one word (the position's men, its value plus one so that 0 means empty),
/// written and read whole, so a racing thread sees an old entry or a new one, never a mix.
#[derive(Debug)]
pub struct CaptureCache {
    entries: Box<[AtomicU64]>,
}

impl Default for CaptureCache {
    fn default() -> Self {
        CaptureCache {
            entries: (0..ENTRIES).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl CaptureCache {
    /// The word for a position's men.
    #[inline]
    fn key(men: Men) -> u64 {
        u64::from(men.mover) | u64::from(men.other) << 23
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        // A multiplicative hash: the men's points are far from uniform.
        let hash = key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - ENTRIES.trailing_zeros());
        &self.entries[hash as usize]
    }

    /// The value kept for `men`, if any.
    #[inline]
    pub fn get(&self, men: Men) -> Option<Wdl> {
        let key = CaptureCache::key(men);
        let word = self.slot(key).load(Ordering::Relaxed);
        match (word & ((1 << MEN_BITS) - 1) == key, word >> MEN_BITS) {
            (true, 1) => Some(Wdl::Loss),
            (true, 2) => Some(Wdl::Draw),
            (true, 3) => Some(Wdl::Win),
            _ => None,
        }
    }

    /// Empties the cache.
    pub fn clear(&self) {
        self.entries
            .iter()
            .for_each(|entry| entry.store(0, Ordering::Relaxed));
    }

    /// Keeps `value` for `men`, in place of whatever shared its slot.
    #[inline]
    pub fn put(&self, men: Men, value: Wdl) {
        let key = CaptureCache::key(men);
        let word = key | (value as u64 + 1) << MEN_BITS;
        self.slot(key).store(word, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_comes_back_until_another_position_takes_its_slot() {
        let cache = CaptureCache::default();
        let men = |mover: u32, other: u32| Men { mover, other };
        assert_eq!(cache.get(men(1, 2)), None);
        for (i, value) in [Wdl::Loss, Wdl::Draw, Wdl::Win].into_iter().enumerate() {
            let position = men(0x7ff << i, 0x7ff << 12);
            cache.put(position, value);
            assert_eq!(cache.get(position), Some(value));
        }
        // The empty position is a key like any other, and no entry is read as it.
        assert_eq!(cache.get(men(0, 0)), None);
        cache.put(men(0, 0), Wdl::Loss);
        assert_eq!(cache.get(men(0, 0)), Some(Wdl::Loss));
        // Every slot overwritten: the first positions are gone, none read wrongly.
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..4 * ENTRIES {
            let position = men(rng.u32(..1 << 23), rng.u32(..1 << 23));
            cache.put(position, Wdl::Draw);
        }
        let position = men(0x7ff, 0x7ff << 12);
        assert!(matches!(cache.get(position), None | Some(Wdl::Loss)));
    }
}
