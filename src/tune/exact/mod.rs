//! Egara-guti's exact tables as a teacher: self-play data relabelled with the results the
//! tables prove ([`label`], for the tuner), and positions labelled with their exact value
//! for a network, with the measure of how often an evaluation's one-ply choice keeps that
//! value ([`distill`]).

pub mod distill;
pub mod label;
