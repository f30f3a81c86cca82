//! The vocabulary every other room speaks: the two players, how a game ends, a
//! win/draw/loss value, bit sets over board squares, seeded Zobrist keys, the errors of the
//! text forms, untrusted text made safe to echo (`printable`), the files a user names
//! opened with care (`files`: regular files only, bounded lines) and the files it writes
//! (`output`: a new path or a regular file, never an input), what differs between
//! operating systems (`platform`), the clock that also runs in a browser (`clock`), the
//! part of a long run one
//! process takes (`Shard`), and (in `memory`, the one
//! module allowed `unsafe`) the hints the engine gives the operating system about its
//! memory. Nothing here knows a game, a search or a protocol.

mod bits;
pub mod clock;
mod error;
pub mod files;
pub mod memory;
pub mod output;
pub mod platform;
pub mod printable;
#[cfg(test)]
pub(crate) mod scratch;
mod shard;
pub mod zobrist;

pub use bits::BitSet;
pub use error::{MoveError, PositionError};
pub use printable::{echo, quote};
pub use shard::Shard;

/// One of the two players. `P1` moves first from every start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    P1,
    P2,
}

impl Player {
    /// Both players, in turn order.
    pub const BOTH: [Player; 2] = [Player::P1, Player::P2];

    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }

    /// 0 for `P1`, 1 for `P2`: an index into per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The winner, if the game was not drawn.
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(player) => Some(player),
            Outcome::Draw => None,
        }
    }
}

/// A position's value for the side to move: what exact tables store and an oracle answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl Wdl {
    /// A finished game's result for `side`.
    pub fn of(outcome: Outcome, side: Player) -> Wdl {
        match outcome.winner() {
            None => Wdl::Draw,
            Some(winner) if winner == side => Wdl::Win,
            Some(_) => Wdl::Loss,
        }
    }

    /// The same result seen by the other side.
    #[inline]
    pub fn flipped(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// The word for it, as a probe prints it.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}
