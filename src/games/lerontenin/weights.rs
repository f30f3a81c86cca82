//! Lerontenin's evaluation weights, one per feature of `eval.rs` in its order, fitted by
//! `ternion tune` to 900,000 positions of 1,600 self-play games (300 steps from the
//! hand-set table: 1000 a finished part, 30 a turn and 8 a move, 20 for the move). The
//! move's bonus stays at the hand-set 20. A longer fit, and the fit's own bonus of 0, were
//! measured and lost (docs/experiments.md).

#[rustfmt::skip]
pub const WEIGHTS: [i32; 8] = [
    725, // parts
    -99, // turns_needed
    23, // moves_needed
    9, // send_back_threat
    -7, // safety_quarters
    20, // tempo
    55, // frozen_pieces
    -2, // freeze_turns
];
