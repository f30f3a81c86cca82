//! Egara-guti's exact tables (its tablebase): the value of every position with few enough
//! men, solved by retrograde analysis, stored one file per material pair, probed by the
//! command line and, as the game's [`crate::search::Oracle`], by the search. Only
//! Egara-guti is small enough to solve this way: the other games have no tables.
//!
//! The room's modules use one another in one direction, from the bottom up:
//!
//! - [`index`]: the dense index of positions with the board's four symmetries, and the
//!   material pairs;
//! - [`mod@file`]: a table's file: its name, header, checksum and sums; and [`runs`], the
//!   run-coded streams of a compact table;
//! - [`table`]: one material pair's table, read or mapped from its file, and its probe;
//! - [`material`]: the levels of material, what each captures into, and a set's holes;
//! - [`cache`]: the capture values a compact set derived lately;
//! - [`set`]: the set of a directory's tables ([`Tablebase`]), whole from the bottom or
//!   refused, and what a probe of a position answers ([`Probe`]);
//! - [`men`]: the rules on the tables' own form of a position (the men of each side):
//!   steps, captures into the lower levels, whether a side can move;
//! - on top, what uses a set: [`solve`] (the retrograde solver of one level), [`build`]
//!   (the resumable build of every level up to a number of men), [`compact`] (the compact
//!   form of a finished set), [`verify`] (an independent check by one ply of the rules),
//!   [`mod@line`] (every legal move's value, a line of perfect play, the audit of a game),
//!   [`oracle`] (the tables as the search's oracle), [`compare`] (two sets compared
//!   position by position) and [`sample`] (random positions of a value). What learns
//!   from the tables is in `tune::exact`, what a probe costs in `bench::tables`.

pub mod build;
pub mod cache;
pub mod compact;
pub mod compare;
pub mod file;
pub mod index;
pub mod line;
pub mod material;
pub mod men;
pub mod oracle;
pub mod runs;
pub mod sample;
pub mod set;
pub mod solve;
pub mod table;
pub mod verify;

pub use self::set::{Probe, Residence, Tablebase, men_of};
