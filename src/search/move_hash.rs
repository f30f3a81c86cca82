//! A fixed hash of move values, shared by the history table (which spreads moves over its
//! slots) and the transposition table (which keeps a 16-bit fingerprint of a move): the
//! same on every run and machine, unlike the standard library's seeded hasher.

use std::hash::{Hash, Hasher};

/// The hash of a move, from the words its `Hash` writes. Its high bits are the well-mixed
/// ones: take those.
pub fn move_hash<M: Hash>(mv: &M) -> u64 {
    let mut hasher = MoveHasher(0);
    mv.hash(&mut hasher);
    hasher.0
}

/// A small multiply-rotate hasher.
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(byte as u64);
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.write_u64(value as u64);
    }

    fn write_u16(&mut self, value: u16) {
        self.write_u64(value as u64);
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(value as u64);
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }

    fn write_isize(&mut self, value: isize) {
        self.write_u64(value as u64);
    }
}
