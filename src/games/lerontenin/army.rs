//! One side's pieces in Lerontenin: the seven originals and the fragments of divisions.
//!
//! An army is a fixed-capacity array of pieces kept in canonical order: S D T Q P X H, each
//! fragment standing in its parent's place, the `a` part before the `b` part. A division
//! replaces one piece by its two parts in place, so the order never needs sorting.

use std::fmt;

use crate::core::BitSet;

/// The original pieces in canonical order, with their letters and powers.
pub const ORIGINAL_LETTERS: [char; 7] = ['S', 'D', 'T', 'Q', 'P', 'X', 'H'];
/// The power of each original piece, by origin index.
pub const ORIGINAL_POWERS: [u8; 7] = [1, 2, 3, 4, 5, 6, 7];
/// Origin index of the SINGLE.
pub const SINGLE: u8 = 0;
/// Origin index of the HEP, the first piece of the descending sequence.
pub const HEP: u8 = 6;

/// The most pieces a side can have: every original split down to power 1.
pub const MAX_PIECES: usize = 28;
/// The end square.
pub const END: u8 = 98;

/// The number of distinct label ids (see [`Label::id`]).
pub const LABEL_IDS: usize = 7 * 128;

/// Who a piece is: its original, and the path of `a`/`b` choices down the division tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    /// Index into [`ORIGINAL_LETTERS`].
    pub origin: u8,
    /// Number of divisions above this piece (0 for an original).
    pub depth: u8,
    /// Bit `i` is the choice at division `i` from the original: 0 for `a`, 1 for `b`.
    pub path: u8,
    /// Position in the division tree in heap order (1 for the original, 2 and 3 for its
    /// parts, ...): derived from depth and path, kept for the hash-key look-ups.
    heap: u8,
}

impl Label {
    /// The label of an original piece.
    pub const fn original(origin: u8) -> Self {
        Label {
            origin,
            depth: 0,
            path: 0,
            heap: 1,
        }
    }

    /// The label of the `a` (`second = false`) or `b` part of this piece.
    pub const fn child(self, second: bool) -> Self {
        Label {
            origin: self.origin,
            depth: self.depth + 1,
            path: self.path | ((second as u8) << self.depth),
            heap: self.heap * 2 + second as u8,
        }
    }

    /// A small number unique to this label, below [`LABEL_IDS`]: the original, then the
    /// position in its division tree.
    #[inline]
    pub const fn id(self) -> usize {
        self.origin as usize * 128 + self.heap as usize
    }

    /// Whether this is one of the seven original pieces.
    pub const fn is_original(self) -> bool {
        self.depth == 0
    }

    /// Whether this is the original SINGLE, the only piece with a move counter.
    pub const fn is_single(self) -> bool {
        self.depth == 0 && self.origin == SINGLE
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", ORIGINAL_LETTERS[self.origin as usize])?;
        for level in 0..self.depth {
            let part = if self.path >> level & 1 == 0 {
                'a'
            } else {
                'b'
            };
            write!(f, "{part}")?;
        }
        Ok(())
    }
}

/// One piece on the track. Aligned to 8 bytes so that a piece moves as one machine word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(align(8))]
pub struct Piece {
    pub label: Label,
    pub power: u8,
    /// 0 (outside the board) to 98 (the end).
    pub square: u8,
    /// How many of its owner's coming turns the piece must sit out.
    pub freeze: u8,
}

impl Piece {
    /// Whether the piece has reached the end square.
    #[inline]
    pub const fn finished(&self) -> bool {
        self.square == END
    }
}

/// One side's pieces, in canonical order, and its SINGLE's move counter.
///
/// Beside the pieces it keeps, always in step, which pieces are frozen, which have finished
/// and how many stand on each square, so that the rules find them without a scan.
/// Equality and `Debug` look at the pieces and the counter only.
#[derive(Clone, Copy)]
pub struct Army {
    pieces: [Piece; MAX_PIECES],
    len: u8,
    /// How often the owner has moved the SINGLE (send-backs do not count).
    pub single_moves: u32,
    /// Bit `i`: piece `i` is frozen.
    frozen: u32,
    /// Bit `i`: piece `i` stands on the end square.
    finished: u32,
    /// How many pieces stand on each square.
    on_square: [u8; END as usize + 1],
}

impl PartialEq for Army {
    fn eq(&self, other: &Self) -> bool {
        self.pieces() == other.pieces() && self.single_moves == other.single_moves
    }
}

impl Eq for Army {}

impl fmt::Debug for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Army")
            .field("pieces", &self.pieces())
            .field("single_moves", &self.single_moves)
            .finish()
    }
}

impl Army {
    /// The seven originals at square 0, unfrozen, the SINGLE unmoved.
    pub fn start() -> Self {
        let mut army = Army::empty();
        for origin in 0..ORIGINAL_POWERS.len() as u8 {
            army.push(Piece {
                label: Label::original(origin),
                power: ORIGINAL_POWERS[origin as usize],
                square: 0,
                freeze: 0,
            });
        }
        army
    }

    /// An army without pieces; the text layer fills it.
    pub fn empty() -> Self {
        let none = Piece {
            label: Label::original(0),
            power: 0,
            square: 0,
            freeze: 0,
        };
        Army {
            pieces: [none; MAX_PIECES],
            len: 0,
            single_moves: 0,
            frozen: 0,
            finished: 0,
            on_square: [0; END as usize + 1],
        }
    }

    /// Appends a piece (in canonical order). Callers keep to [`MAX_PIECES`].
    pub fn push(&mut self, piece: Piece) {
        self.pieces[self.len as usize] = piece;
        self.len += 1;
        self.on_square[piece.square as usize] += 1;
        self.refresh_masks();
    }

    /// The pieces in canonical order.
    #[inline]
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces[..self.len as usize]
    }

    /// The piece at `index`.
    #[inline]
    pub fn piece(&self, index: usize) -> Piece {
        self.pieces[index]
    }

    /// Replaces the piece at `index`.
    #[inline]
    pub fn set(&mut self, index: usize, piece: Piece) {
        let old = self.pieces[index];
        self.on_square[old.square as usize] -= 1;
        self.on_square[piece.square as usize] += 1;
        let bit = 1u32 << index;
        self.frozen = (self.frozen & !bit) | ((piece.freeze > 0) as u32) << index;
        self.finished = (self.finished & !bit) | ((piece.finished()) as u32) << index;
        self.pieces[index] = piece;
    }

    /// Replaces the piece at `index` by its two parts, `a` at `index` and `b` right after.
    pub fn divide(&mut self, index: usize, a: Piece, b: Piece) {
        let len = self.len as usize;
        self.on_square[self.pieces[index].square as usize] -= 1;
        self.on_square[a.square as usize] += 1;
        self.on_square[b.square as usize] += 1;
        self.pieces.copy_within(index + 1..len, index + 2);
        self.pieces[index] = a;
        self.pieces[index + 1] = b;
        self.len += 1;
        self.refresh_masks();
    }

    /// Undoes [`divide`](Army::divide): the two parts at `index` and `index + 1` become
    /// `whole` again.
    pub fn merge(&mut self, index: usize, whole: Piece) {
        let len = self.len as usize;
        self.on_square[self.pieces[index].square as usize] -= 1;
        self.on_square[self.pieces[index + 1].square as usize] -= 1;
        self.on_square[whole.square as usize] += 1;
        self.pieces[index] = whole;
        self.pieces.copy_within(index + 2..len, index + 1);
        self.len -= 1;
        self.refresh_masks();
    }

    /// Recomputes the frozen and finished sets after pieces changed places.
    fn refresh_masks(&mut self) {
        let (mut frozen, mut finished) = (0, 0);
        for (index, piece) in self.pieces().iter().enumerate() {
            frozen |= ((piece.freeze > 0) as u32) << index;
            finished |= (piece.finished() as u32) << index;
        }
        self.frozen = frozen;
        self.finished = finished;
    }

    /// Rule 6 at the end of the owner's turn: every frozen piece outside `acted` thaws by
    /// one turn. Returns the set that thawed.
    #[inline]
    pub fn thaw(&mut self, acted: u32) -> u32 {
        let thawing = self.frozen & !acted;
        for index in thawing.squares() {
            let piece = &mut self.pieces[index];
            piece.freeze -= 1;
            self.frozen &= !(((piece.freeze == 0) as u32) << index);
        }
        thawing
    }

    /// Undoes [`thaw`](Army::thaw) for the set it returned.
    #[inline]
    pub fn unthaw(&mut self, thawed: u32) {
        for index in thawed.squares() {
            self.pieces[index].freeze += 1;
        }
        self.frozen |= thawed;
    }

    /// The pieces that may act this turn: neither frozen nor finished.
    #[inline]
    pub fn free(&self) -> u32 {
        let live = (1u32 << self.len) - 1;
        live & !self.frozen & !self.finished
    }

    /// How many pieces stand on `square`.
    #[inline]
    pub fn count_on(&self, square: u8) -> u8 {
        self.on_square[square as usize]
    }

    /// The index of the piece with `label`.
    pub fn find(&self, label: Label) -> Option<usize> {
        self.pieces().iter().position(|p| p.label == label)
    }

    /// Whether every piece stands on the end square.
    #[inline]
    pub fn all_finished(&self) -> bool {
        self.finished.count_ones() == self.len as u32
    }

    /// The sum of the squares of all pieces.
    pub fn square_total(&self) -> u32 {
        self.pieces().iter().map(|p| p.square as u32).sum()
    }

    /// The SINGLE's variable step `P(c)`: its move count mod 7, with 0 read as 7.
    #[inline]
    pub fn single_power(&self) -> u8 {
        match (self.single_moves % 7) as u8 {
            0 => 7,
            rest => rest,
        }
    }

    /// How far a send-back throws `piece` back: its power, or `P(c)` for the SINGLE.
    #[inline]
    pub fn send_back_distance(&self, piece: &Piece) -> u8 {
        if piece.label.is_single() {
            self.single_power()
        } else {
            piece.power
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_print_their_division_path() {
        let x = Label::original(5);
        assert_eq!(x.to_string(), "X");
        assert_eq!(x.child(true).to_string(), "Xb");
        assert_eq!(x.child(true).child(false).to_string(), "Xba");
        assert_eq!(x.child(false).child(true).child(true).to_string(), "Xabb");
        assert!(Label::original(SINGLE).is_single());
        assert!(!x.child(false).is_original());
    }

    #[test]
    fn label_ids_are_unique_and_small() {
        let mut ids = std::collections::HashSet::new();
        let mut labels: Vec<Label> = (0..7).map(Label::original).collect();
        while let Some(label) = labels.pop() {
            assert!(label.id() < LABEL_IDS);
            assert!(ids.insert(label.id()), "{label} shares its id");
            if label.depth < 6 {
                labels.push(label.child(false));
                labels.push(label.child(true));
            }
        }
        assert_eq!(ids.len(), 7 * 127);
    }

    #[test]
    fn the_single_power_cycles_through_seven() {
        let mut army = Army::start();
        let powers: Vec<u8> = (0..9)
            .map(|c| {
                army.single_moves = c;
                army.single_power()
            })
            .collect();
        assert_eq!(powers, [7, 1, 2, 3, 4, 5, 6, 7, 1]);
    }

    #[test]
    fn a_division_keeps_the_canonical_order() {
        let mut army = Army::start();
        let t = army.pieces()[2];
        let part = |second, power| Piece {
            label: t.label.child(second),
            power,
            square: 0,
            freeze: 0,
        };
        let before = army;
        army.divide(2, part(false, 1), part(true, 2));
        let labels: Vec<String> = army.pieces().iter().map(|p| p.label.to_string()).collect();
        assert_eq!(labels, ["S", "D", "Ta", "Tb", "Q", "P", "X", "H"]);
        army.merge(2, t);
        assert_eq!(army.pieces(), before.pieces());
    }
}
