//! An engine as a child process spoken to in the text protocol, with a timeout on every
//! answer it owes.
//!
//! The command runs under `sh -c`, so it may carry arguments and quotes as on a shell line.
//! A reader thread turns the engine's stdout into a channel of lines (bytes that are not
//! UTF-8 are replaced, so garbage cannot stop the reader); a closed channel means the process
//! ended. The engine's stderr is discarded: engines log there. Dropping the handle kills the
//! process, so a hung engine never outlives its game.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Why an engine did not give the answer it owed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process ended (or closed its stdout, or stopped reading its stdin).
    Crashed,
    /// No answer before the deadline.
    TimedOut,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The name it gave in the handshake (`id name ...`), or its command.
    pub name: String,
}

impl EngineProcess {
    /// Starts `command` and completes the handshake within `timeout`.
    pub fn start(command: &str, timeout: Duration) -> Result<EngineProcess, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run '{command}': {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("no pipes to the engine".to_owned());
        };
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buffer).trim().to_owned();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
            name: command.to_owned(),
        };
        engine.handshake(timeout).map_err(|e| match e {
            EngineError::Crashed => "the engine ended during the handshake".to_owned(),
            EngineError::TimedOut => format!("no ugiok within {} ms", timeout.as_millis()),
        })?;
        Ok(engine)
    }

    /// `ugi` first; an engine that has not answered within half the time gets `uci` (a UCI
    /// engine ignores `ugi`). Either `ugiok` or `uciok` completes the handshake; a late
    /// second answer is skipped like any other line nobody waits for.
    fn handshake(&mut self, timeout: Duration) -> Result<(), EngineError> {
        let started = Instant::now();
        for (command, deadline) in [("ugi", started + timeout / 2), ("uci", started + timeout)] {
            self.send(command)?;
            loop {
                match self.next_line(deadline) {
                    Ok(line) => {
                        if let Some(name) = line.strip_prefix("id name ") {
                            self.name = name.trim().to_owned();
                        } else if line == "ugiok" || line == "uciok" {
                            return Ok(());
                        }
                    }
                    Err(EngineError::TimedOut) => break,
                    Err(error) => return Err(error),
                }
            }
        }
        Err(EngineError::TimedOut)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Crashed)
    }

    /// The next line the engine prints, waiting no later than `deadline`.
    fn next_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(left).map_err(|e| match e {
            RecvTimeoutError::Timeout => EngineError::TimedOut,
            RecvTimeoutError::Disconnected => EngineError::Crashed,
        })
    }

    /// Sets an option (`setoption name <name> value <value>`).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready`, answered by `readyok` within `timeout`; other lines are skipped.
    pub fn ping(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.next_line(deadline)? != "readyok" {}
        Ok(())
    }

    /// Sends `go_line` and waits until `deadline` for `bestmove <text>`; returns the text and
    /// the time the engine took. `info` and any other lines are skipped.
    pub fn best_move(
        &mut self,
        go_line: &str,
        deadline: Duration,
    ) -> Result<(String, Duration), EngineError> {
        let started = Instant::now();
        self.send(go_line)?;
        let deadline = started + deadline;
        loop {
            let line = self.next_line(deadline)?;
            let mut words = line.split_whitespace();
            if words.next() == Some("bestmove") {
                let text = words.next().unwrap_or("").to_owned();
                return Ok((text, started.elapsed()));
            }
        }
    }

    /// Asks the engine to quit, gives it a moment, then makes sure it is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
