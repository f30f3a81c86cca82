//! The text protocol (UGI, with UCI spellings) on stdin and stdout.
//!
//! - [`command`]: the typed commands and their parsers;
//! - [`daemon`]: the state of the engine process and its answer to each command;
//! - [`serve`]: the loop that reads stdin on its own thread and writes stdout line by line.

pub mod command;
pub mod daemon;

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::mpsc;
use std::thread;

use self::daemon::Daemon;
use crate::engine::Sink;
use crate::game::Variant;
use crate::search::baseline::Play;

/// Serves the protocol until `quit` or the end of input. Lines go to stdout, flushed one by
/// one; a line that is not valid UTF-8 is read with replacement characters (and rejected as
/// a command like any other bad line). `go` picks moves as `play` says.
pub fn serve(variant: Variant, play: Play) {
    let sink: Sink = Arc::new(|line: String| {
        let mut out = io::stdout().lock();
        // A closed stdout leaves nobody to talk to; the loop ends at the end of input.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    });
    let (lines, received) = mpsc::channel::<String>();
    // stdin on its own thread, so that `isready` and `stop` are read while a search runs.
    thread::spawn(move || {
        let mut input = io::stdin().lock();
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match input.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buffer).into_owned();
                    if lines.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let mut daemon = Daemon::playing(variant, play, sink);
    for line in received {
        log::debug!("< {}", line.trim_end());
        if !daemon.handle(&line) {
            return;
        }
    }
    // End of input means quit.
    daemon.stop_for_exit();
}
