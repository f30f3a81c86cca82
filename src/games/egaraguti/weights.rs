//! Egara-guti's evaluation weights, one per feature of `eval.rs` in its order. Hand-set:
//! 100 a man, 4 a step, 25 a man that can be leapt over (either way), 5 for the move, 8 for
//! the apex and 4 for the points on the two ranks beside it; the points are counted from the
//! corners of the own base (a1, i1). Fitted tables predict results better but gained
//! nothing measurable in matches (docs/experiments.md), so the lead features stay at 0.

#[rustfmt::skip]
pub const WEIGHTS: [i32; 22] = [
    100, // men
    4, // steps
    -25, // exposed_own
    25, // exposed_enemy
    5, // tempo
    0, // men_by_counter
    0, // lead
    0, // lead_by_counter
    0, // point_c1
    0, // point_e1
    0, // point_c2
    0, // point_e2
    4, // point_d3
    4, // point_e3
    8, // point_e4
    4, // point_d5
    4, // point_e5
    0, // point_c6
    0, // point_e6
    0, // point_a7
    0, // point_c7
    0, // point_e7
];
