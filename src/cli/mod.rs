//! Subcommands of the `ternion` binary and what they share: one-line errors, exit status 2.

pub mod analyze;
pub mod arena;
pub mod bench;
pub mod perft;
mod position;

use std::process::ExitCode;

/// The exit status of every command that was given bad input.
const BAD_INPUT: u8 = 2;

/// Reports `message` as one line on stderr and returns the bad-input exit status.
pub fn fail(message: &str) -> ExitCode {
    eprintln!("ternion: {message}");
    ExitCode::from(BAD_INPUT)
}

/// The first non-empty line of a multi-line message (clap's errors end with usage hints).
pub fn first_line(message: &str) -> String {
    let line = message
        .lines()
        .find(|line| !line.trim().is_empty())
        .unwrap_or("bad command line");
    line.strip_prefix("error: ").unwrap_or(line).to_owned()
}
