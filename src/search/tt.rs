//! The transposition table: what earlier searches learned about positions, by hash.
//!
//! Entries of 16 bytes, four to a 64-byte bucket (one cache line); a position maps to one
//! bucket by its hash. A new result replaces the entry of the same position, else the least
//! valuable entry of the bucket: one from an older search first, then the shallowest.
//!
//! An entry is two atomic words: the data, and the key XOR the data. A probe takes an entry
//! only when the two words agree with the key, so when threads share the table a write torn
//! by another thread's reads as a miss, never as a wrong result: no lock and no `unsafe`.
//! The best move is kept as a 16-bit fingerprint (see [`fingerprint`]), which the search
//! matches against the moves it generates, so a stored move is always a legal one.
//!
//! A probe most often misses the cache. Touching a child's bucket right after its move is
//! made, ahead of its probe (a plain load), was measured and made the search slower
//! (docs/experiments.md).

use std::hash::Hash;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use super::move_hash::move_hash;

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The fingerprint of the best move found, if any.
    pub best: Option<u16>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
}

/// The 16-bit fingerprint of a move, never 0 (the code of "no move"). Two moves of one
/// position rarely share one; when they do, the search takes the first it generated as the
/// table's move, which only orders the moves.
pub fn fingerprint<M: Hash>(mv: &M) -> u16 {
    ((move_hash(mv) >> 48) as u16).max(1)
}

/// The data word: move fingerprint (bits 0-15), score (16-31), depth (32-39), bound (40-41,
/// 0 for an empty slot), age (42-47).
struct Data(u64);

const AGE_BITS: u32 = 6;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;

impl Data {
    fn pack(best: Option<u16>, score: i32, depth: i16, bound: Bound, age: u8) -> u64 {
        let bound_code: u64 = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16;
        let depth = depth.clamp(0, u8::MAX as i16) as u64;
        best.unwrap_or(0) as u64
            | (score as u64) << 16
            | depth << 32
            | bound_code << 40
            | ((age & AGE_MASK) as u64) << 42
    }

    fn is_empty(&self) -> bool {
        self.bound_code() == 0
    }

    fn bound_code(&self) -> u64 {
        (self.0 >> 40) & 3
    }

    fn best(&self) -> Option<u16> {
        Some(self.0 as u16).filter(|&fp| fp != 0)
    }

    fn depth(&self) -> i16 {
        ((self.0 >> 32) & 0xFF) as i16
    }

    fn age(&self) -> u8 {
        ((self.0 >> 42) as u8) & AGE_MASK
    }

    fn entry(&self) -> Entry {
        Entry {
            best: self.best(),
            score: (self.0 >> 16) as u16 as i16 as i32,
            depth: self.depth(),
            bound: match self.bound_code() {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }
}

/// One entry: the data and the key XOR the data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The data, if the slot holds `key`'s entry (and was not torn by a concurrent write).
    fn read(&self, key: u64) -> Option<Data> {
        let data = self.data.load(Relaxed);
        let check = self.check.load(Relaxed);
        (data != 0 && check ^ data == key).then_some(Data(data))
    }

    /// The data of whatever entry the slot holds, with its key (possibly torn: only for
    /// choosing what to replace).
    fn peek(&self) -> (u64, Data) {
        let data = self.data.load(Relaxed);
        (self.check.load(Relaxed) ^ data, Data(data))
    }

    fn write(&self, key: u64, data: u64) {
        self.data.store(data, Relaxed);
        self.check.store(key ^ data, Relaxed);
    }

    fn clear(&self) {
        self.data.store(0, Relaxed);
        self.check.store(0, Relaxed);
    }
}

const BUCKET: usize = 4;

/// Four entries on one cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; BUCKET]);

/// `count` empty buckets, written by `threads` threads, in memory offered to the kernel
/// for huge pages before its first touch. A probe lands on a random bucket, so with 4 KiB
/// pages nearly every probe also misses the address-translation cache; 2 MiB pages
/// (Linux's transparent huge pages, where the system grants them on request) cut the
/// table's share of the search's time. A hint only: where the kernel declines, the table
/// is the same, in small pages.
fn empty_buckets(count: usize, threads: usize) -> Vec<Bucket> {
    crate::core::memory::filled(count, threads, Bucket::default)
}

/// A fixed-size table, shareable between threads (every method takes `&self` but `new`).
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mib` mebibytes (at least one bucket), made by `threads` threads.
    pub fn new(mib: usize, threads: usize) -> Self {
        let count = ((mib << 20) / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: empty_buckets(count, threads),
            age: AtomicU8::new(0),
        }
    }

    /// Forgets everything.
    pub fn clear(&self, threads: usize) {
        let clear = |part: &[Bucket]| {
            for slot in part.iter().flat_map(|bucket| &bucket.0) {
                slot.clear();
            }
        };
        if threads <= 1 {
            // On this thread: where there are no others (the web build), and for no cost.
            clear(&self.buckets);
        } else {
            let chunk = self.buckets.len().div_ceil(threads).max(1);
            std::thread::scope(|scope| {
                for part in self.buckets.chunks(chunk) {
                    scope.spawn(move || clear(part));
                }
            });
        }
        self.age.store(0, Relaxed);
    }

    /// Marks the start of a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        let age = self.age.load(Relaxed);
        self.age.store(age.wrapping_add(1) & AGE_MASK, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the hash onto the buckets without a division.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key)
            .0
            .iter()
            .find_map(|slot| slot.read(key))
            .map(|data| data.entry())
    }

    /// Stores a result for `key`.
    pub fn store(&self, key: u64, best: Option<u16>, score: i32, depth: i16, bound: Bound) {
        let age = self.age.load(Relaxed);
        let slots = &self.bucket(key).0;
        let peeked = slots.each_ref().map(Slot::peek);
        let victim = peeked
            .iter()
            .position(|(held, data)| data.is_empty() || *held == key)
            .unwrap_or_else(|| {
                // The least worth keeping: older searches first, then the shallowest.
                (0..BUCKET)
                    .min_by_key(|&i| ((peeked[i].1.age() == age) as i32, peeked[i].1.depth()))
                    .expect("a bucket has entries")
            });
        // Keep the best move of a result of the same position when this one has none.
        let (held, old) = &peeked[victim];
        let best = best.or_else(|| if *held == key { old.best() } else { None });
        slots[victim].write(key, Data::pack(best, score, depth, bound, age));
    }

    /// How full the table is with results of the current search, in permille (sampled).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let sample = self.buckets.len().min(250);
        let used = self.buckets[..sample]
            .iter()
            .flat_map(|bucket| &bucket.0)
            .filter(|slot| {
                let (_, data) = slot.peek();
                !data.is_empty() && data.age() == age
            })
            .count();
        (used * 1000 / (sample * BUCKET)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_and_replaces() {
        let table = TranspositionTable::new(1, 1);
        assert!(table.probe(42).is_none());
        table.store(42, Some(7), 15, 3, Bound::Exact);
        let entry = table.probe(42).expect("stored");
        assert_eq!((entry.best, entry.score, entry.depth), (Some(7), 15, 3));
        // Same position again, without a move: the move is kept.
        table.store(42, None, -2, 5, Bound::Upper);
        let entry = table.probe(42).expect("stored");
        assert_eq!(
            (entry.best, entry.score, entry.bound),
            (Some(7), -2, Bound::Upper)
        );
        table.clear(2);
        assert!(table.probe(42).is_none());
    }

    #[test]
    fn every_field_survives_packing() {
        let table = TranspositionTable::new(1, 1);
        for (key, best, score, depth, bound) in [
            (1, None, 0, 0, Bound::Exact),
            (u64::MAX, Some(u16::MAX), 31_999, 127, Bound::Lower),
            (0, Some(1), -31_999, 255, Bound::Upper),
            (0x1234_5678_9ABC_DEF0, Some(0x8000), -1, 1, Bound::Exact),
        ] {
            table.store(key, best, score, depth, bound);
            let expected = Entry {
                best,
                score,
                depth,
                bound,
            };
            assert_eq!(table.probe(key), Some(expected), "{key:x}");
        }
    }

    #[test]
    fn a_full_bucket_keeps_the_deeper_entries() {
        let mut table = TranspositionTable::new(1, 1);
        table.buckets.truncate(1); // every key in one bucket
        for key in 1..=4u64 {
            table.store(key, None, 0, key as i16, Bound::Exact);
        }
        table.store(99, None, 0, 9, Bound::Exact);
        assert!(table.probe(1).is_none(), "the shallowest entry goes");
        assert!(table.probe(99).is_some() && table.probe(4).is_some());
        assert!(table.hashfull() > 0);
        // A new search's result replaces an old search's, however deep.
        table.new_search();
        table.store(100, None, 0, 1, Bound::Exact);
        assert!(table.probe(100).is_some());
        assert_eq!(
            [2, 3, 4, 99]
                .iter()
                .filter(|&&k| table.probe(k).is_some())
                .count(),
            3
        );
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let table = TranspositionTable::new(1, 1);
        table.store(42, Some(3), 10, 4, Bound::Exact);
        // Another thread's write of another key got only as far as the data word.
        let slot = &table.bucket(42).0[0];
        slot.data
            .store(Data::pack(Some(9), -500, 12, Bound::Lower, 0), Relaxed);
        assert_eq!(table.probe(42), None);
    }

    #[test]
    fn the_table_is_shared_between_threads() {
        let table = TranspositionTable::new(1, 1);
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let table = &table;
                scope.spawn(move || {
                    for i in 0..10_000u64 {
                        let key = (i * 4 + thread).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        table.store(key, Some(thread as u16 + 1), i as i32, 3, Bound::Exact);
                        if let Some(entry) = table.probe(key) {
                            // Whatever is found was written for this key, whole.
                            assert_eq!(entry.best, Some(thread as u16 + 1));
                            assert_eq!(entry.score, i as i32);
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn fingerprints_are_stable_and_never_zero() {
        assert_eq!(fingerprint(&(3u8, 17u8)), fingerprint(&(3u8, 17u8)));
        assert_ne!(fingerprint(&(3u8, 17u8)), fingerprint(&(17u8, 3u8)));
        let distinct: std::collections::HashSet<u16> = (0..64u8)
            .flat_map(|from| (0..64u8).map(move |to| fingerprint(&(from, to))))
            .collect();
        assert!(!distinct.contains(&0));
        // 4,096 moves into 65,535 codes: few collide.
        assert!(distinct.len() > 3_900, "{}", distinct.len());
    }
}
