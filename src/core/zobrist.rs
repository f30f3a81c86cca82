//! Deterministic Zobrist keys.
//!
//! Every key table is drawn from a `fastrand::Rng` with a fixed seed, so hashes are the same
//! on every run and every machine: a transposition table, a bench signature and a failing
//! test all reproduce. Never use the global, unseeded generator for keys.

/// Fills `keys` with pseudo-random 64-bit keys drawn from a generator seeded with `seed`.
///
/// Zero is never drawn, so that xoring a key in always changes the hash.
pub fn fill_keys(seed: u64, keys: &mut [u64]) {
    let mut rng = fastrand::Rng::with_seed(seed);
    for key in keys {
        *key = loop {
            let candidate = rng.u64(..);
            if candidate != 0 {
                break candidate;
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::fill_keys;

    #[test]
    fn keys_are_deterministic_and_distinct() {
        let mut first = [0u64; 512];
        let mut second = [0u64; 512];
        fill_keys(7, &mut first);
        fill_keys(7, &mut second);
        assert_eq!(first, second);
        let mut sorted = first.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), first.len());
        assert!(!first.contains(&0));
        let mut other = [0u64; 512];
        fill_keys(8, &mut other);
        assert_ne!(first, other);
    }
}
