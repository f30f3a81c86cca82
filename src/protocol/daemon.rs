//! The daemon's state and its answer to every command: one game session, the options, and
//! the search running on its worker thread, if any.
//!
//! Every reply goes through the line sink. Searches, `go perft` and `bench` run on a worker
//! thread, so that `isready`, `stop` and `query` are answered meanwhile. Bad input gets exactly one
//! `info string error <kind>: <detail>` line and changes nothing (but an illegal move in
//! `position ... moves`, which forfeits the game as the protocol says).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::command::{Command, GoCommand, PositionCommand, Query};
use crate::engine::{MovesApplied, SearchFlags, Session, Sink, new_session};
use crate::game::{Outcome, Player, Variant};
use crate::search::baseline::Play;
use crate::search::{Clock, Limits};

const DEFAULT_HASH_MIB: usize = 16;
const MAX_HASH_MIB: usize = 4096;
const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// The protocol state of one engine process.
pub struct Daemon {
    session: Box<dyn Session>,
    hash_mib: usize,
    /// How `go` picks the move: the search, or a baseline mover chosen at start-up.
    play: Play,
    move_overhead: Duration,
    /// The running (or finished, not yet joined) search: its flags and thread.
    search: Option<(SearchFlags, JoinHandle<()>)>,
    sink: Sink,
}

impl Daemon {
    /// A daemon playing `variant` from its start position, writing to `sink`.
    pub fn new(variant: Variant, sink: Sink) -> Self {
        Self::playing(variant, Play::Search, sink)
    }

    /// A daemon like [`Daemon::new`] whose `go` picks its moves as `play` says.
    pub fn playing(variant: Variant, play: Play, sink: Sink) -> Self {
        Daemon {
            session: new_session(variant, DEFAULT_HASH_MIB, play),
            hash_mib: DEFAULT_HASH_MIB,
            play,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            search: None,
            sink,
        }
    }

    fn say(&self, line: impl Into<String>) {
        (self.sink)(line.into());
    }

    fn error(&self, kind: &str, detail: impl std::fmt::Display) {
        self.say(format!("info string error {kind}: {detail}"));
    }

    /// Whether a search is running: until its best move has been given.
    pub fn busy(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|(flags, _)| !flags.done.load(Ordering::Acquire))
    }

    /// Stops any search and waits for its `bestmove`.
    pub fn stop_search(&mut self) {
        if let Some((flags, handle)) = self.search.take() {
            flags.stop.store(true, Ordering::Relaxed);
            // A panicking search thread has already reported nothing more to say.
            let _ = handle.join();
        }
    }

    /// Before the process exits: stops any search and gives it a moment to say its
    /// `bestmove`, but does not wait for work that cannot be stopped (a deep `go perft`).
    pub fn stop_for_exit(&mut self) {
        const GRACE: Duration = Duration::from_millis(200);
        if let Some((flags, handle)) = &self.search {
            flags.stop.store(true, Ordering::Relaxed);
            let started = std::time::Instant::now();
            while !handle.is_finished() && started.elapsed() < GRACE {
                thread::sleep(Duration::from_millis(1));
            }
        }
    }

    /// Handles one input line; `false` means quit.
    pub fn handle(&mut self, line: &str) -> bool {
        let command = match Command::parse(line) {
            Ok(command) => command,
            Err(super::command::CommandError::Empty) => return true,
            Err(error) => {
                self.error(error.kind(), &error);
                return true;
            }
        };
        let needs_idle = matches!(
            command,
            Command::Position(_)
                | Command::SetOption { .. }
                | Command::NewGame
                | Command::Go(_)
                | Command::GoPerft(_)
                | Command::Bench(_)
        );
        if needs_idle && self.busy() {
            let word = line.split_ascii_whitespace().next().unwrap_or_default();
            self.error("busy", word);
            return true;
        }
        if needs_idle {
            self.stop_search(); // joins a search that has already finished
        }
        match command {
            Command::Ugi => self.identify("ugiok"),
            Command::Uci => self.identify("uciok"),
            Command::IsReady => self.say("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                self.session.clear_hash();
                // The start position with no moves cannot be refused.
                let _ = self.session.set_position(None, &[]);
            }
            Command::Position(position) => self.position(position),
            Command::Go(go) => self.go(&go),
            Command::GoPerft(depth) => self.perft(depth),
            Command::Stop => {
                if let Some((flags, _)) = &self.search {
                    flags.stop.store(true, Ordering::Relaxed);
                }
            }
            Command::Quit => {
                self.stop_for_exit();
                return false;
            }
            Command::Query(query) => self.query(query),
            Command::Display => self.display(),
            Command::Bench(depth) => self.bench(depth),
            Command::Help => self.help(),
            Command::Ignored => {}
        }
        true
    }

    fn identify(&self, ok: &str) {
        self.say(format!("id name ternion {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the ternion developers");
        let variants: Vec<String> = Variant::ALL.iter().map(|v| format!("var {v}")).collect();
        self.say(format!(
            "option name UCI_Variant type combo default {} {}",
            Variant::Lielow,
            variants.join(" ")
        ));
        self.say(format!(
            "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
        ));
        self.say("option name ClearHash type button");
        self.say(format!(
            "option name MoveOverhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ));
        self.say(ok);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let value_text = value.unwrap_or_default();
        let bad_value = |daemon: &Self| {
            daemon.error("bad-option-value", format!("{name} {value_text}"));
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match value_text.parse::<Variant>() {
                Ok(variant) => {
                    self.session = new_session(variant, self.hash_mib, self.play);
                    self.say(format!(
                        "info string variant {variant} startpos {}",
                        self.session.fen()
                    ));
                }
                Err(_) => self.error("bad-variant", value_text),
            },
            "hash" => match value_text.parse::<usize>() {
                Ok(mib) if (1..=MAX_HASH_MIB).contains(&mib) => {
                    self.hash_mib = mib;
                    self.session.resize_hash(mib);
                }
                _ => bad_value(self),
            },
            "clearhash" => self.session.clear_hash(),
            "moveoverhead" => match value_text.parse::<u64>() {
                Ok(ms) if ms <= MAX_MOVE_OVERHEAD_MS => {
                    self.move_overhead = Duration::from_millis(ms);
                }
                _ => bad_value(self),
            },
            _ => self.error("unknown-option", name),
        }
    }

    fn position(&mut self, position: PositionCommand) {
        if let Some(name) = &position.variant {
            match name.parse::<Variant>() {
                Ok(variant) if variant != self.session.variant() => {
                    // Check the position first, so that a bad one changes nothing.
                    let mut session = new_session(variant, self.hash_mib, self.play);
                    match session.set_position(position.fen.as_deref(), &position.moves) {
                        Ok(applied) => {
                            self.session = session;
                            self.report_moves(applied);
                        }
                        Err(error) => self.error("bad-fen", error),
                    }
                    return;
                }
                Ok(_) => {}
                Err(_) => return self.error("bad-variant", name),
            }
        }
        match self
            .session
            .set_position(position.fen.as_deref(), &position.moves)
        {
            Ok(applied) => self.report_moves(applied),
            Err(error) => self.error("bad-fen", error),
        }
    }

    fn report_moves(&self, applied: MovesApplied) {
        match applied {
            MovesApplied::All => {}
            MovesApplied::Forfeit { ply, text, reason } => {
                // The line keeps the protocol's exact form; the reason goes to the log.
                log::info!("illegal move {text} at ply {ply}: {reason}");
                self.error("illegal-move", format!("{text} at ply {ply}"));
            }
            MovesApplied::AfterEnd { ply, text } => {
                self.error("illegal-move", format!("{text} at ply {ply} (game over)"));
            }
        }
    }

    fn go(&mut self, go: &GoCommand) {
        if let Some(outcome) = self.session.result() {
            self.say(format!(
                "info string gameover {}",
                result_word(Some(outcome))
            ));
            self.say("bestmove (none)");
            return;
        }
        let (time, increment) = match self.session.side_to_move() {
            Player::P1 => (go.p1time, go.p1inc),
            Player::P2 => (go.p2time, go.p2inc),
        };
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime.map(Duration::from_millis),
            clock: time.map(|ms| Clock {
                remaining: Duration::from_millis(ms),
                increment: Duration::from_millis(increment.unwrap_or(0)),
                moves_to_go: go.movestogo,
            }),
            infinite: go.infinite,
            move_overhead: self.move_overhead,
        };
        // Bare `go`: infinite, as the protocol says.
        let infinite = go.infinite
            || (limits.depth.is_none()
                && limits.nodes.is_none()
                && limits.movetime.is_none()
                && limits.clock.is_none());
        let limits = Limits { infinite, ..limits };
        let flags = SearchFlags {
            wait_for_stop: infinite,
            ..SearchFlags::default()
        };
        let handle = self
            .session
            .start_search(limits, flags.clone(), Arc::clone(&self.sink));
        self.search = Some((flags, handle));
    }

    /// Runs `job` on a worker thread like a search: the daemon is busy until the job's last
    /// line (which it returns) is out.
    fn in_background(&mut self, job: impl FnOnce(&Sink) -> String + Send + 'static) {
        let flags = SearchFlags::default();
        let done = Arc::clone(&flags.done);
        let sink = Arc::clone(&self.sink);
        let handle = thread::spawn(move || {
            let last = job(&sink);
            done.store(true, Ordering::Release);
            sink(last);
        });
        self.search = Some((flags, handle));
    }

    fn perft(&mut self, depth: u32) {
        let mut session = self.session.snapshot();
        self.in_background(move |sink| {
            let (counts, total) = session.divide(depth);
            for (mv, count) in counts {
                sink(format!("{mv}: {count}"));
            }
            sink(String::new());
            format!("Nodes searched: {total}")
        });
    }

    fn query(&self, query: Query) {
        let answer = match query {
            Query::GameOver => self.session.result().is_some().to_string(),
            Query::P1Turn => (self.session.side_to_move() == Player::P1).to_string(),
            Query::P2Turn => (self.session.side_to_move() == Player::P2).to_string(),
            Query::Result => result_word(self.session.result()).to_owned(),
            Query::LegalMoves => {
                let moves = self.session.legal_moves();
                if moves.is_empty() {
                    "none".to_owned()
                } else {
                    moves.join(" ")
                }
            }
            Query::IsLegal(mv) => self.session.legal_moves().contains(&mv).to_string(),
            Query::Fen => self.session.fen(),
            Query::Variant => self.session.variant().to_string(),
            Query::Unknown(other) => {
                self.error("unknown-query", other);
                "error".to_owned()
            }
        };
        self.say(format!("response {answer}"));
    }

    fn display(&self) {
        let fen = self.session.fen();
        let board = fen.split(' ').next().unwrap_or_default();
        for rank in board.split('/') {
            self.say(format!("  {rank}"));
        }
        let side = match self.session.side_to_move() {
            Player::P1 => "p1",
            Player::P2 => "p2",
        };
        let moves = self.session.legal_moves();
        self.say(format!("Variant: {}", self.session.variant()));
        self.say(format!("Fen: {fen}"));
        self.say(format!("Side to move: {side}"));
        self.say(format!(
            "Legal moves: {}",
            if moves.is_empty() {
                "none".to_owned()
            } else {
                moves.join(" ")
            }
        ));
        self.say(format!("Result: {}", result_word(self.session.result())));
    }

    fn bench(&mut self, depth: Option<u32>) {
        if depth == Some(0) {
            return self.error("bad-arguments", "bench: the depth must be at least 1");
        }
        self.in_background(move |sink| {
            let totals = crate::bench::run(depth, &mut |line| sink(line));
            format!("{} nodes {} nps", totals.nodes, totals.nps)
        });
    }

    fn help(&self) {
        for line in [
            "ternion speaks UGI (and UCI spellings). Commands:",
            "  ugi | uci                       identify, list options",
            "  isready                         answered with readyok, even while searching",
            "  setoption name <id> [value <x>] UCI_Variant, Hash, ClearHash, MoveOverhead",
            "  uginewgame | ucinewgame         clear the table, back to the start position",
            "  position [variant <v>] startpos|fen <fen> [moves <m>...]",
            "  go [p1time|wtime <ms>] [p2time|btime <ms>] [p1inc|winc <ms>] [p2inc|binc <ms>]",
            "     [movestogo <n>] [movetime <ms>] [depth <n>] [nodes <n>] [infinite]",
            "  go perft <n>                    count moves to depth n, by move",
            "  stop | quit",
            "  query gameover|p1turn|p2turn|result|legalmoves|islegal <m>|fen|variant",
            "  d                               show the position",
            "  bench [depth]                   the search signature",
        ] {
            self.say(format!("info string {line}"));
        }
    }
}

/// The protocol's word for a result.
fn result_word(result: Option<Outcome>) -> &'static str {
    match result {
        None => "none",
        Some(Outcome::Draw) => "draw",
        Some(Outcome::Win(Player::P1)) => "p1win",
        Some(Outcome::Win(Player::P2)) => "p2win",
    }
}
