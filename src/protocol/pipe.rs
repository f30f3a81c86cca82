//! The protocol as a pipe of text, for a host that hands the lines in and takes the
//! engine's lines out itself, on one thread: the web build's Web Worker. The daemon runs
//! in slices ([`Daemon::in_slices`]); the host calls [`Pipe::step`] while
//! [`Pipe::busy`], and between steps reads what came.
//!
//! The lines are read as on stdin: split at line feeds (a carriage return before one
//! dropped), a byte-order mark before the first skipped, a line longer than [`MAX_LINE`]
//! skipped with its error line. After `quit` every line is ignored.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::daemon::{Daemon, Sink};
use super::input::MAX_LINE;
use super::options::Caps;
use crate::games::Variant;

/// What a piped daemon may take: one thread (the pipe's own), no file (a page's engine),
/// and a table of at most 256 MiB, a share of a browser tab's memory.
pub const PIPE_CAPS: Caps = Caps {
    hash_mib: 256,
    threads: 1,
    open_files: false,
    hash_pool: None,
};

/// A daemon in slices and the lines it has written, not yet taken.
pub struct Pipe {
    daemon: Daemon,
    written: Arc<Mutex<Vec<String>>>,
    /// Text after the last line feed: the start of a line still coming.
    partial: String,
    /// Whether the line coming grew past [`MAX_LINE`]: it is dropped, and its error
    /// written when it ends.
    overlong: bool,
    /// Whether any text has come yet (a byte-order mark may start it).
    started: bool,
    quit: bool,
}

impl Pipe {
    /// A pipe to a daemon of `variant` at its start position, whose work runs in slices.
    pub fn new(variant: Variant) -> Self {
        let written = Arc::new(Mutex::new(Vec::new()));
        let collected = Arc::clone(&written);
        let sink: Sink = Arc::new(move |line| {
            collected
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(line);
        });
        Pipe {
            daemon: Daemon::new(variant, sink).in_slices().with_caps(PIPE_CAPS),
            written,
            partial: String::new(),
            overlong: false,
            started: false,
            quit: false,
        }
    }

    /// Reads `text`: every whole line in it (and before it, the rest of a line an earlier
    /// call began) is handled in turn; an unfinished last line waits for the rest.
    pub fn write(&mut self, text: &str) {
        let mut text = text;
        if !self.started && !text.is_empty() {
            self.started = true;
            text = text.strip_prefix('\u{feff}').unwrap_or(text);
        }
        self.partial.push_str(text);
        while let Some(end) = self.partial.find('\n') {
            let line: String = self.partial.drain(..=end).collect();
            if std::mem::take(&mut self.overlong) {
                self.refuse_overlong();
                continue;
            }
            self.handle(line.trim_end_matches('\n').trim_end_matches('\r'));
        }
        if self.partial.len() > MAX_LINE {
            // Dropped as the stdin reader drops one: its error once the line ends.
            self.partial.clear();
            self.overlong = true;
        }
    }

    /// Reads `text` as lines, the last one whole even without its line feed: what a page
    /// sends is a message of whole lines.
    pub fn write_lines(&mut self, text: &str) {
        self.write(text);
        if !self.partial.is_empty() {
            self.write("\n");
        }
    }

    fn handle(&mut self, line: &str) {
        if line.len() > MAX_LINE {
            return self.refuse_overlong();
        }
        if !self.quit {
            log::debug!("< {line}");
            self.quit = !self.daemon.handle(line);
        }
    }

    fn refuse_overlong(&self) {
        if !self.quit {
            self.daemon.line_too_long(MAX_LINE);
        }
    }

    /// Searches for one slice of about `budget`, or gives the best move once it is due;
    /// whether work is left to step.
    pub fn step(&mut self, budget: Duration) -> bool {
        !self.quit && self.daemon.step(budget)
    }

    /// Whether a search is running: [`Pipe::step`] it.
    pub fn busy(&self) -> bool {
        !self.quit && self.daemon.busy()
    }

    /// Whether `quit` was read: the pipe reads nothing more.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// The lines the daemon wrote since the last call, in order.
    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut *self.written.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_as_on_stdin() {
        let mut pipe = Pipe::new(Variant::Lielow);
        pipe.write("\u{feff}isre");
        assert!(pipe.take().is_empty(), "half a line waits");
        pipe.write("ady\r\nisready\n\nquery ");
        assert_eq!(pipe.take(), ["readyok", "readyok"]);
        pipe.write_lines("p1turn");
        assert_eq!(pipe.take(), ["response true"]);
        pipe.write(&"x".repeat(MAX_LINE + 10));
        pipe.write(&"x".repeat(MAX_LINE + 10));
        pipe.write("\nisready\n");
        let lines = pipe.take();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("info string error line-too-long"));
        assert_eq!(lines[1], "readyok");
        pipe.write_lines("quit\nisready");
        assert!(pipe.has_quit());
        assert!(pipe.take().is_empty(), "nothing after quit");
    }

    #[test]
    fn a_search_runs_as_it_is_stepped() {
        let mut pipe = Pipe::new(Variant::Lielow9);
        pipe.write_lines("go infinite");
        assert!(pipe.busy());
        while pipe
            .take()
            .iter()
            .all(|line| !line.starts_with("info depth 3"))
        {
            assert!(pipe.step(Duration::from_millis(1)));
        }
        pipe.write_lines("stop");
        assert!(!pipe.busy());
        assert!(pipe.take().last().unwrap().starts_with("bestmove "));
    }
}
