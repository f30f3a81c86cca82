//! The transposition table: what earlier searches learned about positions, by hash.
//!
//! Buckets of four entries; a position maps to one bucket by its hash. A new result replaces
//! the entry of the same position, else the least valuable entry of the bucket: one from an
//! older search first, then the shallowest.

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
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub best: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    age: u8,
}

const BUCKET: usize = 4;

/// A fixed-size table of entries for moves of type `M`.
pub struct TranspositionTable<M> {
    entries: Vec<Option<Entry<M>>>,
    buckets: usize,
    age: u8,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of about `mib` mebibytes (at least one bucket).
    pub fn new(mib: usize) -> Self {
        let entry_size = std::mem::size_of::<Option<Entry<M>>>();
        let buckets = (mib.max(1) << 20) / (entry_size * BUCKET);
        TranspositionTable {
            entries: vec![None; buckets.max(1) * BUCKET],
            buckets: buckets.max(1),
            age: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(None);
        self.age = 0;
    }

    /// Marks the start of a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        // Multiply-shift maps the hash onto the buckets without a division.
        let index = ((key as u128 * self.buckets as u128) >> 64) as usize;
        index * BUCKET..(index + 1) * BUCKET
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[self.bucket(key)]
            .iter()
            .flatten()
            .find(|entry| entry.key == key)
            .copied()
    }

    /// Stores a result for `key`.
    pub fn store(&mut self, key: u64, best: Option<M>, score: i32, depth: i16, bound: Bound) {
        let age = self.age;
        let range = self.bucket(key);
        let slots = &mut self.entries[range];
        let victim = slots
            .iter()
            .position(|slot| slot.is_none_or(|e| e.key == key))
            .unwrap_or_else(|| {
                // The least worth keeping: older searches first, then the shallowest.
                (0..BUCKET)
                    .min_by_key(|&i| {
                        let e = slots[i].expect("a full bucket");
                        ((e.age == age) as i32, e.depth)
                    })
                    .expect("a bucket has entries")
            });
        // Keep the best move of a deeper result of the same position when this one has none.
        let best =
            best.or_else(|| slots[victim].and_then(|e| if e.key == key { e.best } else { None }));
        slots[victim] = Some(Entry {
            key,
            best,
            score,
            depth,
            bound,
            age,
        });
    }

    /// How full the table is with results of the current search, in permille (sampled).
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .flatten()
            .filter(|e| e.age == self.age)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_and_replaces() {
        let mut table: TranspositionTable<u16> = TranspositionTable::new(1);
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
        table.clear();
        assert!(table.probe(42).is_none());
    }

    #[test]
    fn a_full_bucket_keeps_the_deeper_entries() {
        let mut table: TranspositionTable<u16> = TranspositionTable::new(1);
        table.buckets = 1; // every key in one bucket
        table.entries.truncate(BUCKET);
        for key in 1..=4u64 {
            table.store(key, None, 0, key as i16, Bound::Exact);
        }
        table.store(99, None, 0, 9, Bound::Exact);
        assert!(table.probe(1).is_none(), "the shallowest entry goes");
        assert!(table.probe(99).is_some() && table.probe(4).is_some());
        assert!(table.hashfull() > 0);
    }
}
