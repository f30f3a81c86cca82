//! The text protocol (UGI, with UCI spellings) on stdin and stdout.
//!
//! - [`command`]: the typed commands, their parsers and their text (for clients);
//! - [`options`]: the one table of the daemon's options, each row with its effect;
//! - [`settings`]: the values the options set, their bounds and the daemon's caps;
//! - [`reply`]: the lines an engine writes, as a client reads them;
//! - [`wdl`]: a score read as a win, a draw and a loss (`UCI_ShowWDL`);
//! - [`format`](mod@format): every line the engine writes;
//! - [`daemon`]: the state of the engine process and its answer to each command;
//! - [`input`]: bounded line reading from stdin;
//! - [`pipe`]: the protocol as a pipe of text on one thread (the web build's worker);
//! - [`serve`]: the loop that reads stdin on its own thread and writes stdout line by line.

pub mod command;
pub mod daemon;
pub mod format;
mod go;
pub mod input;
pub mod lag;
pub mod options;
pub mod pipe;
pub mod reply;
pub mod settings;
pub mod wdl;

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;

use self::daemon::{Daemon, Sink};
use self::input::{LineReader, MAX_LINE, Read};
use crate::games::Variant;
use crate::search::mover::Mover;

/// The lines read ahead of the daemon at most. When nobody reads stdout, the daemon's
/// writes block; the reader then blocks too once this many lines wait, and the process
/// holds at most this many lines of input ([`MAX_LINE`] bytes each at worst: 16 MiB),
/// whatever comes in. A front end never has this many commands in flight.
pub const READ_AHEAD: usize = 16;

/// What the serve loop hears from the reader thread and from the output.
enum Incoming {
    Input(Read),
    /// Writing to stdout failed: the reader went away, nobody is listening.
    OutputClosed,
}

/// Serves the protocol until `quit`, the end of input or the end of output. Lines go to
/// stdout, flushed one by one; a line that is not valid UTF-8 is read with replacement
/// characters (and rejected as a command like any other bad line). `go` picks moves as
/// `play` says.
pub fn serve(variant: Variant, play: Mover) {
    let (events, received) = mpsc::sync_channel::<Incoming>(READ_AHEAD);
    let closed = Arc::new(AtomicBool::new(false));
    let (output_closed, closed_flag) = (events.clone(), Arc::clone(&closed));
    let sink: Sink = Arc::new(move |line: String| {
        let mut out = io::stdout().lock();
        if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
            // Searching on for nobody would burn a core for ever: the loop ends instead.
            // The sink may run on the loop's own thread, which must not wait on its own
            // full queue: the flag is seen after the event being handled.
            closed_flag.store(true, Ordering::Relaxed);
            let _ = output_closed.try_send(Incoming::OutputClosed);
        }
    });
    // stdin on its own thread, so that `isready` and `stop` are read while a search runs.
    thread::spawn(move || {
        let mut reader = LineReader::new(io::stdin().lock(), MAX_LINE);
        loop {
            let read = reader.next_line().unwrap_or(Read::End);
            let end = read == Read::End;
            if events.send(Incoming::Input(read)).is_err() || end {
                break;
            }
        }
    });
    let mut daemon = Daemon::playing(variant, play, sink);
    for event in received {
        match event {
            Incoming::Input(Read::Line(line)) => {
                log::debug!("< {line}");
                if !daemon.handle(&line) {
                    return;
                }
            }
            Incoming::Input(Read::TooLong) => daemon.line_too_long(MAX_LINE),
            // The end of input means quit.
            Incoming::Input(Read::End) => break,
            Incoming::OutputClosed => {}
        }
        if closed.load(Ordering::Relaxed) {
            log::info!("stdout is closed: exiting");
            break;
        }
    }
    daemon.stop_for_exit();
}
