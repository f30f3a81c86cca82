//! Lerontenin's evaluation weights, one per feature of `eval.rs` in its order, fitted by
//! `ternion tune` to 900,000 positions of 1,600 self-play games (300 steps from the
//! hand-set table: 1000 a finished part, 30 a turn and 8 a move, 20 for the move; the fit
//! run to 3,000 steps turned the parts' weight negative and lost 56 Elo). The move's bonus
//! stays at the hand-set 20: the fit's 0 made a depth-3 search lose to the one-ply greedy
//! player (46% over 200 games; with 20 it scores above 75%), the search's odd and even
//! depths no longer agreeing.

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
