//! Lielow: stacks that move exactly their height, on 8x8 (`lielow`) or 9x9 (`lielow9`).
//!
//! This module owns the game state and its rules (move generation, make/unmake, crowns, the
//! end of the game, the hash). Beside it: the board tables in [`geometry`], the text forms
//! in `text`, the pictures in `diagram` and `svg`, the evaluation in `eval` with its
//! `weights`, and what the search does differently here in `hints`.
//!
//! The state keeps the same facts three ways, each for the question it answers fastest:
//! per-player occupancy bit sets (own squares, for move masks), per-height bit sets of both
//! players (the tallest stacks, for the crown), and a height per square (what stands where).
//! It knows no evaluation: what a move changed ([`LielowChanges`]) is what the evaluation's
//! own state, kept by the search, is updated from.

pub mod abstractplay;
mod diagram;
mod eval;
pub mod geometry;
mod hints;
pub mod inputs;
mod levels;
mod svg;
mod text;
mod weights;

use std::marker::PhantomData;
use std::sync::LazyLock;

use self::geometry::{Board8, Board9, Geometry, MAX_SIDE, MAX_SQUARES};
use crate::core::zobrist::fill_keys;
use crate::core::{BitSet, Outcome, Player};
use crate::rules::Rules;

/// Lielow on the 8x8 board.
pub type Lielow8 = Lielow<Board8>;
/// Lielow on the 9x9 board.
pub type Lielow9 = Lielow<Board9>;

/// A square index that means "no square": no crown, or the off-board destination.
const NO_SQUARE: u8 = u8::MAX;
const _: () = assert!(
    NO_SQUARE as usize >= MAX_SQUARES,
    "NO_SQUARE must be no real square"
);

/// A Lielow move: a stack leaves `from` for `to`, or for beyond the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LielowMove {
    from: u8,
    to: u8,
}

impl LielowMove {
    fn on_board(from: usize, to: usize) -> Self {
        LielowMove {
            from: from as u8,
            to: to as u8,
        }
    }

    fn off(from: usize) -> Self {
        LielowMove {
            from: from as u8,
            to: NO_SQUARE,
        }
    }

    /// The square the stack leaves.
    pub fn from(self) -> usize {
        self.from as usize
    }

    /// The destination square, or `None` for the off move.
    pub fn to(self) -> Option<usize> {
        (self.to != NO_SQUARE).then_some(self.to as usize)
    }
}

/// A stack as a move changed it: whose, how tall, and on which square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackOn {
    pub player: Player,
    pub height: u8,
    pub square: u8,
}

/// What a Lielow move changed on the board: the mover's stack left its square, an enemy
/// stack may have been captured on the destination, and a stack of the mover entered the
/// destination unless the move went off the board; and where each player's crown stood
/// before the move (the crown rule may move either after it: where each stands now, the
/// position says).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LielowChanges {
    pub left: StackOn,
    pub captured: Option<StackOn>,
    pub entered: Option<StackOn>,
    pub kings_before: [Option<u8>; 2],
}

/// What `make_move` changed that the move itself does not say.
#[derive(Clone, Copy, Debug)]
pub struct LielowUndo {
    moved_height: u8,
    /// Height of the captured enemy stack, 0 when the move captured nothing.
    captured_height: u8,
    crown: [u8; 2],
    result: Option<Outcome>,
    hash: u64,
}

/// A Lielow position: the stacks, the crowns, the side to move, and how the game ended if
/// the last move ended it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lielow<G: Geometry> {
    /// The squares of each player's stacks, indexed by [`Player::index`].
    stacks: [G::Bits; 2],
    /// The squares of all stacks of each height (1..=n), both players together.
    by_height: [G::Bits; MAX_SIDE + 1],
    /// The height of the stack on each square, 0 for an empty square.
    height: [u8; MAX_SQUARES],
    /// The square of each player's crowned stack, or `NO_SQUARE`.
    crown: [u8; 2],
    side: Player,
    /// Set by the move that ended the game; a position string cannot carry it.
    result: Option<Outcome>,
    hash: u64,
    geometry: PhantomData<G>,
}

impl<G: Geometry> Lielow<G> {
    /// The rows the stacks of one start on, and whose they are: 8x8, ranks 2 and 7; 9x9,
    /// ranks 1, 3 and 7, 9 (0-based rows).
    fn start_rows() -> &'static [(Player, usize)] {
        if G::N == 8 {
            &[(Player::P1, 1), (Player::P2, 6)]
        } else {
            &[
                (Player::P1, 0),
                (Player::P1, 2),
                (Player::P2, 6),
                (Player::P2, 8),
            ]
        }
    }

    /// The stacks on the board at the start, both sides'.
    pub(crate) fn start_stacks() -> usize {
        Self::start_rows().len() * G::N
    }
}

/// Zobrist keys shared by both board sizes: a stack (player, height, square), a crown
/// (player, square), and the second player to move.
struct Keys {
    stack: [[[u64; MAX_SQUARES]; MAX_SIDE + 1]; 2],
    crown: [[u64; MAX_SQUARES]; 2],
    p2_to_move: u64,
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut keys = Keys {
        stack: [[[0; MAX_SQUARES]; MAX_SIDE + 1]; 2],
        crown: [[0; MAX_SQUARES]; 2],
        p2_to_move: 0,
    };
    let mut flat = vec![0u64; 2 * (MAX_SIDE + 1) * MAX_SQUARES + 2 * MAX_SQUARES + 1];
    fill_keys(0x4c69_656c_6f77, &mut flat);
    let mut drawn = flat.into_iter();
    let mut next = || drawn.next().expect("enough keys were drawn");
    for player in &mut keys.stack {
        for row in player.iter_mut() {
            row.fill_with(&mut next);
        }
    }
    for row in &mut keys.crown {
        row.fill_with(&mut next);
    }
    keys.p2_to_move = next();
    keys
});

/// `square` on a board of side `n`, mirrored left to right: its file turned round, its
/// rank kept.
#[inline]
pub(crate) fn mirrored_square(n: usize, square: usize) -> usize {
    square - square % n + (n - 1 - square % n)
}

impl<G: Geometry> Lielow<G> {
    /// An empty board with `side` to move; the text layer and `start` fill it.
    fn empty(side: Player) -> Self {
        let mut position = Lielow {
            stacks: [G::Bits::EMPTY; 2],
            by_height: [G::Bits::EMPTY; MAX_SIDE + 1],
            height: [0; MAX_SQUARES],
            crown: [NO_SQUARE; 2],
            side,
            result: None,
            hash: 0,
            geometry: PhantomData,
        };
        position.hash = position.hash_from_scratch();
        position
    }

    /// The stack on `square` as (owner, height, crowned), if any.
    pub fn stack_at(&self, square: usize) -> Option<(Player, u8, bool)> {
        let height = *self.height.get(square)?;
        if height == 0 {
            return None;
        }
        let owner = if self.stacks[0].has(square) {
            Player::P1
        } else {
            Player::P2
        };
        let crowned = self.crown[owner.index()] == square as u8;
        Some((owner, height, crowned))
    }

    /// The square of `player`'s king, if he has one.
    pub fn king(&self, player: Player) -> Option<usize> {
        let square = self.crown[player.index()];
        (square != NO_SQUARE).then_some(square as usize)
    }

    /// Puts a stack on an empty square, keeping the bit sets and the hash in step.
    #[inline]
    fn put(&mut self, player: Player, square: usize, height: u8) {
        let bit = G::Bits::single(square);
        self.stacks[player.index()] |= bit;
        self.by_height[height as usize] |= bit;
        self.height[square] = height;
        self.hash ^= KEYS.stack[player.index()][height as usize][square];
    }

    /// Removes `player`'s stack of `height` from `square`, keeping everything in step.
    #[inline]
    fn take(&mut self, player: Player, square: usize, height: u8) {
        let bit = G::Bits::single(square);
        self.stacks[player.index()] ^= bit;
        self.by_height[height as usize] ^= bit;
        self.height[square] = 0;
        self.hash ^= KEYS.stack[player.index()][height as usize][square];
    }

    /// Moves `player`'s crown to `square` (or `NO_SQUARE`), keeping the hash in step.
    #[inline]
    fn set_crown(&mut self, player: Player, square: u8) {
        let old = self.crown[player.index()];
        if old == square {
            return;
        }
        let keys = &KEYS.crown[player.index()];
        if old != NO_SQUARE {
            self.hash ^= keys[old as usize];
        }
        if square != NO_SQUARE {
            self.hash ^= keys[square as usize];
        }
        self.crown[player.index()] = square;
    }

    /// Rule 7: if exactly one of `player`'s stacks is strictly taller than all his others,
    /// the crown goes on it; otherwise it stays where it is.
    #[inline]
    fn update_crown(&mut self, player: Player) {
        let own = self.stacks[player.index()];
        for height in (1..=G::N).rev() {
            let tallest = self.by_height[height] & own;
            if !tallest.is_empty() {
                if tallest.count() == 1 {
                    self.set_crown(player, tallest.lowest() as u8);
                }
                return;
            }
        }
    }

    /// The number of moves `player` would have if it were his turn.
    #[inline]
    fn mobility(&self, player: Player) -> u32 {
        let moves = G::move_tables();
        let own = self.stacks[player.index()];
        let mut count = 0;
        for from in own.squares() {
            let height = self.height[from] as usize;
            count += (moves.reach[height][from] & !own).count();
            count += moves.can_leave(height, from) as u32;
        }
        count
    }

    /// Hands the turn to the other side without a move (the search's null move; its own
    /// inverse).
    pub(super) fn flip_side(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= KEYS.p2_to_move;
    }

    /// A player without stacks has lost; only a position given as a string can get there
    /// without losing a king, and the engine treats both ways alike.
    fn result_from_material(&self) -> Option<Outcome> {
        Player::BOTH
            .into_iter()
            .find(|player| self.stacks[player.index()].is_empty())
            .map(|loser| Outcome::Win(loser.opponent()))
    }
}

impl<G: Geometry> Rules for Lielow<G> {
    type Move = LielowMove;
    type Undo = LielowUndo;
    type Changes = LielowChanges;

    fn start() -> Self {
        let mut position = Self::empty(Player::P1);
        let n = G::N;
        for &(player, row) in Self::start_rows() {
            for file in 0..n {
                position.put(player, row * n + file, 1);
            }
        }
        position
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.side
    }

    /// Lielow's moves go along ranks, files and diagonals, and its start is the same under
    /// the left-right mirror: its rules are too.
    fn mirrored(&self) -> Option<Self> {
        let mirror = |square: usize| mirrored_square(G::N, square);
        let mut position = Self::empty(self.side);
        for owner in Player::BOTH {
            for square in self.stacks[owner.index()].squares() {
                position.put(owner, mirror(square), self.height[square]);
            }
            if let Some(king) = self.king(owner) {
                position.set_crown(owner, mirror(king) as u8);
            }
        }
        position.result = self.result;
        Some(position)
    }

    fn mirrored_move(&self, mv: LielowMove) -> LielowMove {
        let mirror = |square: usize| mirrored_square(G::N, square);
        match mv.to() {
            Some(to) => LielowMove::on_board(mirror(mv.from()), mirror(to)),
            None => LielowMove::off(mirror(mv.from())),
        }
    }

    fn generate_moves(&self, out: &mut Vec<LielowMove>) {
        if self.result.is_some() {
            return;
        }
        let moves = G::move_tables();
        let own = self.stacks[self.side.index()];
        for from in own.squares() {
            let height = self.height[from] as usize;
            for to in (moves.reach[height][from] & !own).squares() {
                out.push(LielowMove::on_board(from, to));
            }
            if moves.can_leave(height, from) {
                out.push(LielowMove::off(from));
            }
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        if self.result.is_some() {
            return 0;
        }
        self.mobility(self.side) as u64
    }

    fn make_move(&mut self, mv: LielowMove) -> LielowUndo {
        let us = self.side;
        let them = us.opponent();
        let from = mv.from();
        let moved_height = self.height[from];
        let mut undo = LielowUndo {
            moved_height,
            captured_height: 0,
            crown: self.crown,
            result: self.result,
            hash: self.hash,
        };
        let carries_crown = self.crown[us.index()] == mv.from;

        self.take(us, from, moved_height);
        match mv.to() {
            None => {
                if carries_crown {
                    // Taking one's own king off the board is legal, and loses.
                    self.set_crown(us, NO_SQUARE);
                    self.result = Some(Outcome::Win(them));
                }
            }
            Some(to) => {
                let target_height = self.height[to];
                let arrival_height = if target_height == 0 {
                    moved_height + 1
                } else {
                    undo.captured_height = target_height;
                    self.take(them, to, target_height);
                    if self.crown[them.index()] == mv.to {
                        self.set_crown(them, NO_SQUARE);
                        self.result = Some(Outcome::Win(us));
                    }
                    1
                };
                self.put(us, to, arrival_height);
                if carries_crown {
                    self.set_crown(us, mv.to);
                }
            }
        }
        // The crown rule runs for both players after every move, the last one included.
        self.update_crown(us);
        self.update_crown(them);
        if self.result.is_none() {
            self.result = self.result_from_material();
        }
        self.side = them;
        self.hash ^= KEYS.p2_to_move;
        undo
    }

    fn unmake_move(&mut self, mv: LielowMove, undo: LielowUndo) {
        let them = self.side;
        let us = them.opponent();
        self.side = us;
        if let Some(to) = mv.to() {
            self.take(us, to, self.height[to]);
            if undo.captured_height != 0 {
                self.put(them, to, undo.captured_height);
            }
        }
        self.put(us, mv.from(), undo.moved_height);
        self.crown = undo.crown;
        self.result = undo.result;
        self.hash = undo.hash;
    }

    #[inline]
    fn changes(&self, mv: LielowMove, undo: &LielowUndo) -> LielowChanges {
        let mover = self.side.opponent();
        let stack = |player, height, square| StackOn {
            player,
            height,
            square,
        };
        LielowChanges {
            left: stack(mover, undo.moved_height, mv.from),
            captured: (undo.captured_height != 0)
                .then(|| stack(self.side, undo.captured_height, mv.to)),
            entered: mv.to().map(|to| stack(mover, self.height[to], to as u8)),
            kings_before: undo
                .crown
                .map(|square| (square != NO_SQUARE).then_some(square)),
        }
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for player in Player::BOTH {
            for square in self.stacks[player.index()].squares() {
                hash ^= KEYS.stack[player.index()][self.height[square] as usize][square];
            }
            if let Some(king) = self.king(player) {
                hash ^= KEYS.crown[player.index()][king];
            }
        }
        if self.side == Player::P2 {
            hash ^= KEYS.p2_to_move;
        }
        hash
    }
}
