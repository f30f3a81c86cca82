//! Subcommands of the `ternion` binary and what they share: one-line errors, exit status 2,
//! lines on stderr that a closed stderr does not turn into a panic, and the end of a command
//! whose stdout nobody reads any more.

/// Like `eprintln!`, but a stderr that cannot be written (closed by whoever watched) is no
/// failure: the line is for people, and the command goes on without them.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

#[cfg(feature = "abstractplay")]
pub mod abstractplay;
pub mod analyze;
pub mod arena;
pub mod bench;
pub mod evaluation;
#[cfg(feature = "gui")]
pub mod gui;
mod latency;
pub mod perft;
mod position;
pub mod selfplay;
pub mod show;
pub mod stats;
pub mod tables;
pub mod train;
pub mod tune;

use std::process::ExitCode;

/// The exit status of every command that was given bad input.
const BAD_INPUT: u8 = 2;

/// The exit status of a check that ran and found a fault: tables that disagree, a player
/// that gave value away.
const FOUND_FAULT: i32 = 1;

/// Ends a check that found a fault, its report written: `message` as one line on stderr,
/// and exit status 1, which tells it from bad input (2).
pub fn found_fault(message: &str) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    note!("ternion: {message}");
    std::process::exit(FOUND_FAULT)
}

/// The arguments of a command this build leaves out (its feature is off), taken whole so
/// that the command can say which feature it needs rather than be unknown.
#[derive(Debug, clap::Args)]
pub struct Absent {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    _rest: Vec<String>,
}

/// What a command this build leaves out answers.
#[allow(dead_code)] // a build with every feature leaves no command out
pub fn absent(command: &str, feature: &str) -> Result<(), String> {
    Err(format!(
        "this ternion was built without `{command}`: build it with the `{feature}` feature \
         (a default build has it: cargo build --release)"
    ))
}

/// Reports `message` as one line on stderr and returns the bad-input exit status.
pub fn fail(message: &str) -> ExitCode {
    note!("ternion: {message}");
    ExitCode::from(BAD_INPUT)
}

/// The first non-empty line of a multi-line message (clap's errors end with usage hints).
/// A line that ends in `:` announces what follows (the missing arguments, say), so the
/// lines up to the next blank one are joined to it.
pub fn first_line(message: &str) -> String {
    let mut lines = message.lines().skip_while(|line| line.trim().is_empty());
    let first = lines.next().unwrap_or("bad command line").trim_end();
    let mut line = first.strip_prefix("error: ").unwrap_or(first).to_owned();
    if line.ends_with(':') {
        for more in lines.take_while(|l| !l.trim().is_empty()) {
            line.push(' ');
            line.push_str(more.trim());
        }
    }
    line
}

/// `--hash`: the transposition table's MiB, within the bounds of the protocol's `Hash`.
pub fn hash_mib(text: &str) -> Result<usize, String> {
    ternion::protocol::options::read_spin("Hash", text).map(|mib| mib as usize)
}

/// `--threads`: search threads, within the bounds of the protocol's `Threads`.
pub fn search_threads(text: &str) -> Result<usize, String> {
    ternion::protocol::options::read_spin("Threads", text).map(|threads| threads as usize)
}

/// Writes `text` to stdout; the error says that `what` could not be written (to a closed
/// pipe, say), as one line.
pub fn print(text: &str, what: &str) -> Result<(), String> {
    use std::io::Write;
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| format!("cannot write {what}: {e}"))
}

/// Ends the process (status 0, as a reader that stopped reading is no error of ours) once
/// nobody reads stdout any more: a count or a search of hours whose output goes to a pipe
/// whose reader went away would otherwise run on for nobody. A thread of its own asks poll(2) every 100 ms, which
/// reports such a pipe as an error without a byte written to it. (Unix; elsewhere the
/// command ends at its next write that fails.)
pub fn end_when_stdout_closes() {
    #[cfg(unix)]
    end_on_hang_up();
}

#[cfg(unix)]
fn end_on_hang_up() {
    use rustix::event::{PollFd, PollFlags, Timespec};
    let interval = Timespec {
        tv_sec: 0,
        tv_nsec: 100_000_000,
    };
    std::thread::spawn(move || {
        let stdout = std::io::stdout();
        loop {
            let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
            match rustix::event::poll(&mut fds, Some(&interval)) {
                Ok(_) if fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP) => {
                    std::process::exit(0);
                }
                // A file or a terminal may answer at once with nothing to report.
                Ok(_) => std::thread::sleep(std::time::Duration::from_millis(100)),
                Err(_) => return,
            }
        }
    });
}

/// A warning on stderr about a command that will run but may not end in useful time.
pub fn warn(message: &str) {
    note!("ternion: warning: {message}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_that_announces_a_list_keeps_it() {
        let clap = "error: the following required arguments were not provided:\n  <DEPTH>\n\nUsage: ternion perft <VARIANT> <DEPTH>\n";
        assert_eq!(
            first_line(clap),
            "the following required arguments were not provided: <DEPTH>"
        );
        assert_eq!(first_line("\nerror: bad thing\nmore"), "bad thing");
        assert_eq!(first_line(""), "bad command line");
    }
}
