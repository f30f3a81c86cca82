//! The node counts of a search team: each worker publishes its own, alone on a cache
//! line, so that a node limit and the reported totals count every thread. A leaf both the
//! workers and the team read.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// One published node count, alone on its cache line so that threads publishing their
/// counts never write to the same line.
#[repr(align(64))]
#[derive(Default)]
struct PaddedCount(AtomicU64);

/// The node counts of a team's workers, as each last published its own.
pub struct NodeCounts {
    counts: Box<[PaddedCount]>,
    /// The positions the oracle decided, the whole team's.
    oracle_hits: PaddedCount,
}

impl NodeCounts {
    pub fn new(workers: usize) -> Arc<Self> {
        Arc::new(NodeCounts {
            counts: (0..workers).map(|_| PaddedCount::default()).collect(),
            oracle_hits: PaddedCount::default(),
        })
    }

    /// Worker `index` has searched `nodes` nodes in this search.
    pub fn publish(&self, index: usize, nodes: u64) {
        self.counts[index].0.store(nodes, Ordering::Relaxed);
    }

    /// The nodes of every worker but `index`.
    pub fn others(&self, index: usize) -> u64 {
        self.total() - self.counts[index].0.load(Ordering::Relaxed)
    }

    /// The nodes of every worker.
    pub fn total(&self) -> u64 {
        self.counts
            .iter()
            .map(|c| c.0.load(Ordering::Relaxed))
            .sum()
    }

    pub fn reset(&self) {
        self.counts
            .iter()
            .for_each(|c| c.0.store(0, Ordering::Relaxed));
        self.oracle_hits.0.store(0, Ordering::Relaxed);
    }

    /// One more position decided by the oracle.
    pub fn add_oracle_hit(&self) {
        self.oracle_hits.0.fetch_add(1, Ordering::Relaxed);
    }

    /// The positions the oracle decided in this search.
    pub fn oracle_hits(&self) -> u64 {
        self.oracle_hits.0.load(Ordering::Relaxed)
    }
}
