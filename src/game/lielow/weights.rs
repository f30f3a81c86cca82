//! Lielow's evaluation weights, one table per board, one weight per feature of `eval.rs`
//! in its order. Hand-set: 100 a stack plus 12 a checker, 3 a move, 180 off for each enemy
//! stack that could take the king, 10 for the move; the squares are counted from the corner
//! a1 of each player's own side.

#[rustfmt::skip]
pub const BOARD8: [i32; 46] = [
    112, // height_1
    124, // height_2
    136, // height_3
    148, // height_4
    160, // height_5
    172, // height_6
    184, // height_7
    196, // height_8
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
    0, // square_a2
    0, // square_b2
    0, // square_c2
    0, // square_d2
    0, // square_a3
    0, // square_b3
    0, // square_c3
    0, // square_d3
    0, // square_a4
    0, // square_b4
    0, // square_c4
    0, // square_d4
    0, // square_a5
    0, // square_b5
    0, // square_c5
    0, // square_d5
    0, // square_a6
    0, // square_b6
    0, // square_c6
    0, // square_d6
    0, // square_a7
    0, // square_b7
    0, // square_c7
    0, // square_d7
    0, // square_a8
    0, // square_b8
    0, // square_c8
    0, // square_d8
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
