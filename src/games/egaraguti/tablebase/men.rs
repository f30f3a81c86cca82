//! The rules on the tables' own form of a position, the men of the side to move and of the
//! other ([`Men`]): a side's steps and the steps that lead into a position, its captures
//! valued through the lower levels, and whether it can move. The solver and the
//! independent check both play by these.

use super::index::Men;
use super::set::Tablebase;
use crate::core::{BitSet, Wdl};
use crate::games::egaraguti::board::{ALL_POINTS, JUMPABLE, LEAP_TO, NEIGHBOURS};
use crate::games::egaraguti::for_each_capture_chain;

/// Calls `visit` with the position after each step of the side to move (capture-free
/// positions only: where a capture exists, steps are not moves).
#[inline]
pub(super) fn for_each_step(men: Men, mut visit: impl FnMut(Men)) {
    let empty = ALL_POINTS & !(men.mover | men.other);
    for from in men.mover.squares() {
        for to in (NEIGHBOURS[from] & empty).squares() {
            visit(Men {
                mover: men.other,
                other: men.mover ^ (1 << from) ^ (1 << to),
            });
        }
    }
}

/// Calls `visit` with every position whose side to move could have stepped into `men`.
/// Whether that position is quiet (no capture, so the step was a legal move) is for the
/// caller to check.
#[inline]
pub(super) fn for_each_unstep(men: Men, mut visit: impl FnMut(Men)) {
    let empty = ALL_POINTS & !(men.mover | men.other);
    for to in men.other.squares() {
        for from in (NEIGHBOURS[to] & empty).squares() {
            visit(Men {
                mover: men.other ^ (1 << from) ^ (1 << to),
                other: men.mover,
            });
        }
    }
}

/// The value for the side to move of its best capture, looked up in the lower levels
/// (which must be loaded); `None` when it has no capture.
pub(super) fn best_capture(men: Men, lower: &Tablebase) -> Option<Wdl> {
    let mut best: Option<Wdl> = None;
    for_each_capture_chain(men.mover, men.other, |chain| {
        let moved = men.mover ^ (1 << chain.from()) ^ (1 << chain.to());
        let after = Men {
            mover: men.other & !chain.captured(),
            other: moved,
        };
        let value = lower
            .value(after)
            .expect("the lower tables are loaded")
            .flipped();
        best = best.max(Some(value));
    });
    best
}

/// Whether the side to move can capture: a first leap is enough, with no chain followed.
#[inline]
pub(super) fn has_capture(men: Men) -> bool {
    let empty = ALL_POINTS & !(men.mover | men.other);
    men.mover.squares().any(|from| {
        (JUMPABLE[from] & men.other)
            .squares()
            .any(|over| empty & (1 << LEAP_TO[from][over]) != 0)
    })
}

/// Whether the side to move has a step (where it has no capture, whether it can move).
pub(super) fn can_step(men: Men) -> bool {
    let empty = ALL_POINTS & !(men.mover | men.other);
    men.mover.squares().any(|p| NEIGHBOURS[p] & empty != 0)
}
