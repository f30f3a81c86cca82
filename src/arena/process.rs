//! An engine as a child process spoken to in the text protocol, with a deadline on every
//! answer it owes that holds whatever the engine prints.
//!
//! On Unix the command runs under `sh -c`, so it may carry arguments and quotes as on a
//! shell line, in a process group of its own (elsewhere it is split into words:
//! `core::platform`). A reader thread turns the engine's stdout into a bounded
//! queue of lines: a line longer than [`MAX_LINE`] is dropped unread (garbage output), and an
//! engine that prints faster than the runner reads waits on its pipe, so no amount of output
//! grows the runner's memory. Deadlines are checked against the clock before every line, so
//! a flood of output cannot hold one off. The last lines of the engine's stderr are kept to
//! say why an engine would not start. Dropping the handle kills the whole process group, so
//! neither a hung engine nor its children outlive the game.

use std::collections::VecDeque;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use crate::core::clock::Instant;

use crate::protocol::command::Command;
use crate::protocol::input::{LineReader, Read};
use crate::protocol::reply::Reply;

/// The longest line read from an engine; a longer one is garbage and skipped.
pub const MAX_LINE: usize = 1 << 20;
/// Lines read ahead of the runner at most: past this the engine waits on its pipe.
const QUEUE: usize = 1_024;
/// How often a wait for a line also asks whether the engine has exited.
const EXIT_POLL: Duration = Duration::from_millis(50);
/// The lines of the engine's stderr kept to explain a failed start.
const STDERR_LINES: usize = 5;

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
    /// The last lines the engine wrote on stderr.
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The name it gave in the handshake (`id name ...`), or its command.
    pub name: String,
    /// The options it listed in the handshake, by name.
    pub options: Vec<String>,
    /// The `bestmove` lines it sent that answered no `go` (a second answer, say): ignored,
    /// as cutechess ignores them, and counted.
    pub stale_answers: u32,
}

impl EngineProcess {
    /// Starts `command` and completes the handshake within `timeout`. The error says why it
    /// failed, with the last lines of the engine's stderr.
    pub fn start(command: &str, timeout: Duration) -> Result<EngineProcess, String> {
        if command.trim().is_empty() {
            return Err("the engine command is empty".to_owned());
        }
        // Under a shell, in a group of its own so that its children can be ended with it.
        // Started and registered under the registry's lock, so that a runner ending by a
        // signal either ends this engine or never lets it start.
        let mut child = {
            let mut live = live_engines();
            if live.closed {
                return Err("the match is ending: no engine starts".to_owned());
            }
            let child = crate::core::platform::engine_command(command)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|e| format!("cannot run '{command}': {e}"))?;
            live.groups.insert(child.id());
            child
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            kill_group(&mut child);
            return Err("no pipes to the engine".to_owned());
        };
        let (sender, lines) = mpsc::sync_channel(QUEUE);
        thread::spawn(move || {
            let mut reader = LineReader::new(BufReader::new(stdout), MAX_LINE);
            loop {
                let line = match reader.next_line() {
                    Ok(Read::Line(line)) => line.trim().to_owned(),
                    Ok(Read::TooLong) => continue,
                    Ok(Read::End) | Err(_) => break,
                };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let kept = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_LINES)));
        let tail = Arc::clone(&kept);
        thread::spawn(move || {
            let mut reader = LineReader::new(BufReader::new(stderr), MAX_LINE);
            loop {
                match reader.next_line() {
                    Ok(Read::Line(line)) => {
                        let mut lines = tail.lock().unwrap_or_else(PoisonError::into_inner);
                        if lines.len() == STDERR_LINES {
                            lines.pop_front();
                        }
                        lines.push_back(crate::core::printable::echo(line.trim_end()));
                    }
                    Ok(Read::TooLong) => {}
                    Ok(Read::End) | Err(_) => break,
                }
            }
        });
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
            stderr: kept,
            name: command.to_owned(),
            options: Vec::new(),
            stale_answers: 0,
        };
        if let Err(error) = engine.handshake(timeout) {
            let why = match error {
                EngineError::Crashed => "it ended during the handshake".to_owned(),
                EngineError::TimedOut => format!("no ugiok within {} ms", timeout.as_millis()),
            };
            return Err(format!(
                "'{command}' did not start: {why}{}",
                engine.stderr_tail()
            ));
        }
        Ok(engine)
    }

    /// The last lines of stderr, as `; stderr: a | b`, or nothing. Waits a moment for an
    /// engine that has just ended to have its last words read.
    pub fn stderr_tail(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(100);
        while Instant::now() < until && matches!(self.child.try_wait(), Ok(None)) {
            thread::sleep(Duration::from_millis(5));
        }
        thread::sleep(Duration::from_millis(10));
        let lines = self.stderr.lock().unwrap_or_else(PoisonError::into_inner);
        if lines.is_empty() {
            String::new()
        } else {
            let shown: Vec<&str> = lines.iter().map(String::as_str).collect();
            format!("; stderr: {}", shown.join(" | "))
        }
    }

    /// `ugi` first; an engine that has not answered within half the time gets `uci` (a UCI
    /// engine ignores `ugi`). Either `ugiok` or `uciok` completes the handshake; a late
    /// second answer is skipped like any other line nobody waits for.
    fn handshake(&mut self, timeout: Duration) -> Result<(), EngineError> {
        let started = Instant::now();
        for (command, deadline) in [
            (Command::Ugi, started + timeout / 2),
            (Command::Uci, started + timeout),
        ] {
            self.send(&command)?;
            loop {
                match self.next_reply(deadline) {
                    Ok(Reply::Id { field, value }) if field == "name" => {
                        self.name = crate::core::printable::echo(&value);
                    }
                    Ok(Reply::Option(option)) => self.options.extend(option_name(&option)),
                    Ok(Reply::UgiOk | Reply::UciOk) => return Ok(()),
                    Ok(_) => {}
                    Err(EngineError::TimedOut) => break,
                    Err(error) => return Err(error),
                }
            }
        }
        Err(EngineError::TimedOut)
    }

    /// Sends one command.
    pub fn send(&mut self, command: &Command) -> Result<(), EngineError> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Crashed)
    }

    /// The next line the engine prints, if it comes before `deadline`. The clock is read
    /// first: lines queued past the deadline do not count.
    fn next_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(EngineError::TimedOut);
            }
            // Waited for in slices: an engine that exits while a child of its still holds
            // its stdout never closes the pipe, but its own end is seen here.
            match self.lines.recv_timeout(left.min(EXIT_POLL)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Crashed),
                Err(RecvTimeoutError::Timeout) => {
                    if matches!(self.child.try_wait(), Ok(Some(_))) {
                        // What it wrote before it ended still counts.
                        return self.lines.try_recv().map_err(|_| EngineError::Crashed);
                    }
                }
            }
        }
    }

    /// The next line the engine prints, read, if it comes before `deadline`.
    fn next_reply(&mut self, deadline: Instant) -> Result<Reply, EngineError> {
        self.next_line(deadline).map(|line| Reply::parse(&line))
    }

    /// The next reply that `wanted` accepts, if it comes within `timeout`; other lines are
    /// skipped.
    pub fn reply_where(
        &mut self,
        wanted: impl Fn(&Reply) -> bool,
        timeout: Duration,
    ) -> Result<Reply, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let reply = self.next_reply(deadline)?;
            if wanted(&reply) {
                return Ok(reply);
            }
        }
    }

    /// Whether the engine listed an option called `name` (in any case, as UCI compares
    /// option names).
    pub fn has_option(&self, name: &str) -> bool {
        self.options
            .iter()
            .any(|listed| listed.eq_ignore_ascii_case(name))
    }

    /// Sets an option (`setoption name <name> value <value>`).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&Command::SetOption {
            name: name.to_owned(),
            value: Some(value.to_owned()),
        })
    }

    /// `isready`, answered by `readyok` within `timeout`; other lines are skipped.
    pub fn ping(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.replies_until_ready(timeout).map(|_| ())
    }

    /// `isready`, answered by `readyok` within `timeout`: the error lines the engine printed
    /// before it (`info string error ...`, what it said of the commands sent before).
    pub fn replies_until_ready(&mut self, timeout: Duration) -> Result<Vec<String>, EngineError> {
        self.send(&Command::IsReady)?;
        let deadline = Instant::now() + timeout;
        let mut errors = Vec::new();
        loop {
            match self.next_reply(deadline)? {
                Reply::ReadyOk => return Ok(errors),
                Reply::BestMove { .. } => self.stale_answers += 1,
                Reply::Info(info) if errors.len() < 16 => {
                    if let Some(error) = info.error() {
                        errors.push(crate::core::printable::echo(&format!(
                            "info string error {error}"
                        )));
                    }
                }
                _ => {}
            }
        }
    }

    /// Sends `go` and waits until `deadline` for its `bestmove`; returns the move as written
    /// (`(none)` for none) and the time the engine took. `info` and any other lines are
    /// skipped.
    pub fn best_move(
        &mut self,
        go: &Command,
        deadline: Duration,
    ) -> Result<(String, Duration), EngineError> {
        // Whatever came since the last answer answered no `go`: a `bestmove` among it is
        // stale, not the answer to this one.
        while let Ok(line) = self.lines.try_recv() {
            if Reply::parse(&line).is_best_move() {
                self.stale_answers += 1;
            }
        }
        let started = Instant::now();
        self.send(go)?;
        let deadline = started + deadline;
        loop {
            if let Reply::BestMove { best, .. } = self.next_reply(deadline)? {
                let text = best.unwrap_or_else(|| "(none)".to_owned());
                return Ok((text, started.elapsed()));
            }
        }
    }

    /// Asks the engine to quit, gives it a moment, then makes sure it is gone.
    pub fn quit(mut self) {
        let _ = self.send(&Command::Quit);
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Drop ends what is left of the group.
    }
}

/// Kills the process group `child` leads (the engine and every process it started that
/// stayed in its group), reaps `child`, then ends what the engine left in a session of its
/// own (see `reaper`).
fn kill_group(child: &mut Child) {
    crate::core::platform::kill_group(child.id());
    let _ = child.kill();
    let _ = child.wait();
    live_engines().groups.remove(&child.id());
    super::reaper::end_orphans();
}

/// The engines running now, for [`end_every_engine`].
struct LiveEngines {
    /// The process group of each engine running now.
    groups: std::collections::BTreeSet<u32>,
    /// Set once the runner is ending: from then on no engine starts, or one started in the
    /// moment between the kill and the exit (a game's engine replaced after the kill ended
    /// it) would outlive the runner.
    closed: bool,
}

/// The registry of running engines, locked.
fn live_engines() -> std::sync::MutexGuard<'static, LiveEngines> {
    static LIVE: std::sync::Mutex<LiveEngines> = std::sync::Mutex::new(LiveEngines {
        groups: std::collections::BTreeSet::new(),
        closed: false,
    });
    // An insert or a remove cannot be left half done: a poisoned registry is whole.
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether the runner is ending by a signal ([`end_every_engine`]): a game that ends from
/// now on was cut short by it (its engines killed, or never started), and is neither
/// scored nor recorded.
pub fn ending() -> bool {
    live_engines().closed
}

/// Kills the process group of every engine running now, and what they left in sessions
/// of their own, and lets no engine start after: for a runner ended by a signal, whose
/// engines (each in a group of its own, which a terminal's Ctrl-C does not reach) would
/// otherwise outlive it.
pub fn end_every_engine() {
    let groups = {
        let mut live = live_engines();
        live.closed = true;
        std::mem::take(&mut live.groups)
    };
    for group in groups {
        crate::core::platform::kill_group(group);
    }
    super::reaper::end_orphans();
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        kill_group(&mut self.child);
    }
}
/// The name of an option listed as `name <words...> type ...` (after `option`).
fn option_name(listing: &str) -> Option<String> {
    let rest = listing.strip_prefix("name ")?;
    let name = rest.split(" type ").next()?.trim();
    (!name.is_empty()).then(|| name.to_owned())
}
