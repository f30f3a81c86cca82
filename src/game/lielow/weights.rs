//! Lielow's evaluation weights, one table per board, one weight per feature of `eval.rs`
//! in its order; the squares are counted from the corner a1 of each player's own side.
//!
//! 8x8: fitted by `ternion tune` to 368,704 quiet positions of 20,000 self-play games at
//! 4,000 nodes a move, in three rounds (each round's games played with the last round's
//! table): held-out error 0.2231 with the hand-set table, 0.1972 with this one, at K = 184.7.
//!
//! 9x9, hand-set: 100 a stack plus 12 a checker, 3 a move, 180 off for each enemy stack that
//! could take the king, 10 for the move.

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
    112, // height_1
    124, // height_2
    136, // height_3
    148, // height_4
    160, // height_5
    172, // height_6
    184, // height_7
    196, // height_8
    208, // height_9
    3, // mobility
    -180, // king_attackers
    10, // tempo
    0, // no_king
    0, // king_edge
    0, // threats_made
    0, // threats_faced
    0, // square_b1
    0, // square_c1
    0, // square_d1
    0, // square_e1
    0, // square_a2
    0, // square_b2
    0, // square_c2
    0, // square_d2
    0, // square_e2
    0, // square_a3
    0, // square_b3
    0, // square_c3
    0, // square_d3
    0, // square_e3
    0, // square_a4
    0, // square_b4
    0, // square_c4
    0, // square_d4
    0, // square_e4
    0, // square_a5
    0, // square_b5
    0, // square_c5
    0, // square_d5
    0, // square_e5
    0, // square_a6
    0, // square_b6
    0, // square_c6
    0, // square_d6
    0, // square_e6
    0, // square_a7
    0, // square_b7
    0, // square_c7
    0, // square_d7
    0, // square_e7
    0, // square_a8
    0, // square_b8
    0, // square_c8
    0, // square_d8
    0, // square_e8
    0, // square_a9
    0, // square_b9
    0, // square_c9
    0, // square_d9
    0, // square_e9
];
