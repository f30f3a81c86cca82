//! Lielow's evaluation weights, one table per board, one weight per feature of `eval.rs`
//! in its order; the squares are counted from the corner a1 of each player's own side.
//! Both tables were fitted by `ternion tune` to quiet positions of self-play games at 4,000
//! nodes a move, starting from the hand-set table (100 a stack plus 12 a checker, 3 a move,
//! 180 off for each enemy stack that could take the king, 10 for the move).
//!
//! 8x8: 368,704 positions of 20,000 games, in three rounds (each round's games played with
//! the last round's table): held-out error 0.2231 by the hand-set table, 0.1972 by this one,
//! at K = 184.7.
//!
//! 9x9: 141,180 positions of 6,000 games played with the hand-set table: held-out error
//! 0.2379 by the hand-set table, 0.2226 by this one, at K = 414.3.
//!
//! Each board also ships a network trained on what these terms miss (`lielow.nnue` and
//! `lielow9.nnue`, added to them; docs/networks.md says how each was made).

use std::sync::{Arc, OnceLock};

use super::geometry::{Board8, Board9};
use super::{Lielow8, Lielow9};
use crate::eval::network::Network;
use crate::eval::network::file::{self, NetworkKind};

/// The weights a board is played with.
pub trait BoardWeights {
    /// One weight per feature of `eval.rs`, in its order.
    const WEIGHTS: &'static [i32];

    /// The network trained for this board, built into the binary, if there is one.
    fn shipped_network() -> Option<Arc<Network>> {
        None
    }
}

impl BoardWeights for Board8 {
    const WEIGHTS: &'static [i32] = &BOARD8;

    /// `lielow.nnue`, read once (docs/networks.md says how it was made).
    fn shipped_network() -> Option<Arc<Network>> {
        static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
        Some(Arc::clone(NETWORK.get_or_init(|| {
            file::built_in(
                include_bytes!("lielow.nnue"),
                NetworkKind::of::<Lielow8>("lielow"),
            )
        })))
    }
}

impl BoardWeights for Board9 {
    const WEIGHTS: &'static [i32] = &BOARD9;

    /// `lielow9.nnue`, read once (docs/networks.md says how it was made).
    fn shipped_network() -> Option<Arc<Network>> {
        static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
        Some(Arc::clone(NETWORK.get_or_init(|| {
            file::built_in(
                include_bytes!("lielow9.nnue"),
                NetworkKind::of::<Lielow9>("lielow9"),
            )
        })))
    }
}

#[rustfmt::skip]
pub const BOARD8: [i32; 46] = [
    132, // height_1
    128, // height_2
    85, // height_3
    15, // height_4
    -71, // height_5
    -161, // height_6
    -213, // height_7
    -291, // height_8
    7, // mobility
    -96, // king_attackers
    3, // tempo
    0, // no_king
    -34, // king_edge
    49, // threats_made
    -45, // threats_faced
    15, // square_b1
    30, // square_c1
    24, // square_d1
    -1, // square_a2
    23, // square_b2
    36, // square_c2
    30, // square_d2
    1, // square_a3
    24, // square_b3
    39, // square_c3
    34, // square_d3
    -31, // square_a4
    11, // square_b4
    41, // square_c4
    35, // square_d4
    7, // square_a5
    24, // square_b5
    36, // square_c5
    40, // square_d5
    16, // square_a6
    74, // square_b6
    71, // square_c6
    37, // square_d6
    -13, // square_a7
    36, // square_b7
    40, // square_c7
    63, // square_d7
    -74, // square_a8
    -30, // square_b8
    -13, // square_c8
    -39, // square_d8
];

#[rustfmt::skip]
pub const BOARD9: [i32; 60] = [
    30, // height_1
    24, // height_2
    8, // height_3
    -74, // height_4
    -176, // height_5
    -302, // height_6
    -461, // height_7
    -699, // height_8
    -1120, // height_9
    17, // mobility
    -192, // king_attackers
    8, // tempo
    -556, // no_king
    -50, // king_edge
    27, // threats_made
    -18, // threats_faced
    14, // square_b1
    -13, // square_c1
    10, // square_d1
    5, // square_e1
    13, // square_a2
    83, // square_b2
    54, // square_c2
    70, // square_d2
    62, // square_e2
    14, // square_a3
    46, // square_b3
    39, // square_c3
    16, // square_d3
    9, // square_e3
    1, // square_a4
    25, // square_b4
    37, // square_c4
    33, // square_d4
    46, // square_e4
    -71, // square_a5
    -62, // square_b5
    24, // square_c5
    44, // square_d5
    7, // square_e5
    -1, // square_a6
    -21, // square_b6
    2, // square_c6
    38, // square_d6
    -32, // square_e6
    -33, // square_a7
    23, // square_b7
    27, // square_c7
    23, // square_d7
    -44, // square_e7
    51, // square_a8
    111, // square_b8
    61, // square_c8
    144, // square_d8
    34, // square_e8
    4, // square_a9
    7, // square_b9
    13, // square_c9
    -40, // square_d9
    41, // square_e9
];
