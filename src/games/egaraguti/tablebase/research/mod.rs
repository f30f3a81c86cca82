//! What the tables are used for besides play and their own checks: two sets compared
//! position by position ([`compare`]), what a probe costs ([`probe_cost`]), self-play data
//! relabelled with the exact results for the tuner ([`label`]), positions labelled with
//! their exact value for a network and how often an evaluation's one-ply choice keeps it
//! ([`distill`]), and random positions of a given value, the starts of matches
//! ([`sample`]).

pub mod compare;
pub mod distill;
pub mod label;
pub mod probe_cost;
pub mod sample;
