//! Lerontenin's evaluation weights, one per feature of `eval.rs` in its order. Hand-set:
//! 1000 a finished part (the verdict of any cycle), 30 a turn of the race and 8 a move more,
//! the send-back threat and the safety as they are counted, 20 for the move.

#[rustfmt::skip]
pub const WEIGHTS: [i32; 8] = [
    1000, // parts
    -30, // turns_needed
    -8, // moves_needed
    1, // send_back_threat
    1, // safety_quarters
    20, // tempo
    0, // frozen_pieces
    0, // freeze_turns
];
