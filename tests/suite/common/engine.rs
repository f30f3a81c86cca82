//! The real `ternion` binary as a child process speaking the protocol, for tests that need
//! the stdin reader, stdout and the process itself (not only the in-process daemon).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use ternion::protocol::reply::Reply;

/// How long any expected line may take before the test fails.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub struct Engine {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<String>,
}

impl Engine {
    /// Starts the engine with `args`; its stdout is read line by line on a thread.
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ternion"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// Writes `text` (one or several lines, each ended by `\n`) in one write.
    pub fn write(&mut self, text: &str) {
        if std::env::var_os("TERNION_TEST_TRACE").is_some() {
            eprint!("> {text}");
        }
        self.stdin
            .write_all(text.as_bytes())
            .and_then(|()| self.stdin.flush())
            .expect("the engine reads");
    }

    /// Sends one line as given (any text: the tests send hostile lines too).
    pub fn send(&mut self, line: &str) {
        self.write(&format!("{line}\n"));
    }

    /// Sends one command, written as the protocol's clients write it.
    pub fn command(&mut self, command: &ternion::protocol::command::Command) {
        self.send(&command.to_string());
    }

    /// Every reply up to and including the first that `wanted` accepts, read as the
    /// protocol's clients read them.
    pub fn replies_until(&self, wanted: impl Fn(&Reply) -> bool) -> Vec<Reply> {
        let mut replies = Vec::new();
        loop {
            let reply = Reply::parse(&self.next_line());
            let done = wanted(&reply);
            replies.push(reply);
            if done {
                return replies;
            }
        }
    }

    /// The next line, failing the test after [`PATIENCE`].
    pub fn next_line(&self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no line within {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// Every line up to and including the first that starts with `prefix`.
    pub fn lines_until(&self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.next_line();
            if std::env::var_os("TERNION_TEST_TRACE").is_some() {
                eprintln!("< {line}");
            }
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Waits for a line starting with `prefix`; returns when it came.
    pub fn wait_for(&self, prefix: &str) -> Instant {
        self.lines_until(prefix);
        Instant::now()
    }

    /// Whether the process has exited within `limit`, with its status code.
    pub fn exits_within(&mut self, limit: Duration) -> Option<i32> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if let Some(status) = self.child.try_wait().expect("the engine's status") {
                return status.code();
            }
            thread::sleep(Duration::from_millis(10));
        }
        None
    }

    pub fn quit(mut self) {
        self.command(&ternion::protocol::command::Command::Quit);
        self.child.wait().expect("the engine exits");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
