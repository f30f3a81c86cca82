//! The integration tests, one binary: each module drives the library or the `ternion`
//! binary from the outside, as a user, a GUI, an arena or a harness would. One binary links
//! once, where one a file linked each on its own.
//!
//! `cargo test --release` runs them all; `cargo test --release --test suite <module>::`
//! runs one module (`-- --ignored <module>::` the opt-in ones: `gui_browser` needs a
//! browser, `abstractplay::proxy` nginx). The modules of the board and of the bot need
//! their features (`gui`, `abstractplay`), on by default.

mod common;

#[cfg(feature = "abstractplay")]
mod abstractplay;
mod arena;
mod cli;
mod clock;
mod conformance;
mod doors;
mod egaraguti;
mod egaraguti_reference;
#[cfg(feature = "gui")]
mod gui;
#[cfg(feature = "gui")]
mod gui_browser;
mod house;
mod lerontenin;
mod lerontenin_reference;
mod lielow;
mod lielow_reference;
mod network;
mod oracle;
mod outputs;
mod perft;
mod properties;
mod protocol_gui;
mod protocol_hostile;
mod protocol_queries;
mod search;
mod skill;
mod slices;
mod svg;
mod tables;
mod transcripts;
mod tune;
