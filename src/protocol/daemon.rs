//! The daemon's state and its answer to every command: one game session, the options, and
//! the work (a search, `go perft` or `bench`) running on its worker thread, if any.
//!
//! Every reply goes through the line sink. The order rule of the protocol holds here:
//! nothing is refused because work is running. `position`, `query`, `d`, `isready` and
//! `help` act at once on the current position (a search works on its own copy); `go`,
//! `go perft`, `bench`, `setoption` and `uginewgame` first stop the running work, exactly as
//! `stop` would, so its last line comes before theirs. Bad input gets exactly one
//! `info string error <kind>: <detail>` line and changes nothing (but an illegal move in
//! `position ... moves`, which forfeits the game as the protocol says).

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::command::{Command, CommandError, GoCommand, PositionCommand, Query};
use crate::engine::{
    MovesApplied, SearchFlags, SearchJob, Session, Sink, new_session, panic_detail,
};
use crate::game::{Outcome, Player, Variant};
use crate::printable::echo;
use crate::search::baseline::Play;
use crate::search::{Clock, Limits, max_threads};
use crate::tables::TableSet;

const DEFAULT_HASH_MIB: usize = 16;
const MAX_HASH_MIB: usize = 4096;
const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
const MAX_MULTIPV: usize = 64;
/// The longest detail an error line carries (the echoed input in it is shorter still).
const MAX_ERROR_DETAIL: usize = 200;

/// The work running on the worker thread: its flags and its thread.
struct Work {
    flags: SearchFlags,
    thread: JoinHandle<()>,
}

/// The protocol state of one engine process.
pub struct Daemon {
    session: Box<dyn Session>,
    hash_mib: usize,
    /// The `Threads` option, kept across variants.
    threads: usize,
    /// The tables of the `TablePath` option, kept across variants (only Egara-guti's
    /// search reads them).
    tables: Option<Arc<TableSet>>,
    /// How `go` picks the move: the search, or a baseline mover chosen at start-up.
    play: Play,
    move_overhead: Duration,
    multipv: usize,
    /// The `Ponder` option: `bestmove` may name the expected reply.
    ponder: bool,
    /// The running (or finished, not yet joined) work.
    work: Option<Work>,
    /// A fault for tests: the next search panics after its first `info` line.
    panic_next_search: bool,
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
            threads: 1,
            tables: None,
            play,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            multipv: 1,
            ponder: false,
            work: None,
            panic_next_search: false,
            sink,
        }
    }

    /// Makes the next search panic after its first `info` line: the test of how a failing
    /// search is answered. Not reachable from the protocol.
    #[doc(hidden)]
    pub fn inject_search_panic(&mut self) {
        self.panic_next_search = true;
    }

    fn say(&self, line: impl Into<String>) {
        (self.sink)(line.into());
    }

    /// The one line of a rejected command. The detail is cut short and made printable,
    /// whatever it quotes.
    fn error(&self, kind: &str, detail: impl std::fmt::Display) {
        let detail = crate::printable::cut(&detail.to_string(), MAX_ERROR_DETAIL);
        self.say(format!("info string error {kind}: {detail}"));
    }

    /// Whether work is running: until its last line (a search's `bestmove`) is out.
    pub fn busy(&self) -> bool {
        self.work
            .as_ref()
            .is_some_and(|work| !work.flags.done.load(Ordering::Acquire))
    }

    /// Stops any running work and waits for its last line (a search's `bestmove`).
    pub fn stop_search(&mut self) {
        if let Some(work) = self.work.take() {
            work.flags.stop.store(true, Ordering::Relaxed);
            // Panics are caught inside the work; a join error has nothing left to say.
            let _ = work.thread.join();
        }
    }

    /// Before the process exits: stops any work and gives it a moment to say its last
    /// line, but does not wait longer (the process ends anyway).
    pub fn stop_for_exit(&mut self) {
        const GRACE: Duration = Duration::from_millis(200);
        if let Some(work) = &self.work {
            work.flags.stop.store(true, Ordering::Relaxed);
            let started = std::time::Instant::now();
            while !work.thread.is_finished() && started.elapsed() < GRACE {
                thread::sleep(Duration::from_millis(1));
            }
        }
    }

    /// A line longer than the reader holds was skipped.
    pub fn line_too_long(&self, limit: usize) {
        self.error(
            "line-too-long",
            format!("a line of more than {limit} bytes was skipped"),
        );
    }

    /// Handles one input line; `false` means quit.
    pub fn handle(&mut self, line: &str) -> bool {
        let command = match Command::parse(line) {
            Ok(command) => command,
            Err(CommandError::Empty) => return true,
            Err(error) => {
                self.error(error.kind(), &error);
                return true;
            }
        };
        // The order rule: these need the engine idle, so they end the running work first.
        if matches!(
            command,
            Command::Go(_)
                | Command::GoPerft(_)
                | Command::Bench(_)
                | Command::SetOption { .. }
                | Command::NewGame
        ) {
            self.stop_search();
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
            Command::Stop => self.stop_search(),
            Command::PonderHit => {
                if let Some(work) = &self.work {
                    work.flags.pondering.store(false, Ordering::Relaxed);
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
        self.say(format!(
            "option name Threads type spin default 1 min 1 max {}",
            max_threads()
        ));
        self.say(format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        self.say("option name Ponder type check default false");
        self.say("option name TablePath type string default <empty>");
        self.say(ok);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let value_text = value.unwrap_or_default();
        let bad_value = |daemon: &Self| {
            daemon.error(
                "bad-option-value",
                format!("{} {}", echo(name), echo(value_text)),
            );
        };
        let spin = |max: usize| {
            value_text
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=max).contains(n))
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match value_text.parse::<Variant>() {
                Ok(variant) => {
                    // Free the old table before the new session makes its own.
                    self.session.resize_hash(0);
                    self.session = self.new_session(variant);
                    self.say(format!(
                        "info string variant {variant} startpos {}",
                        self.session.fen()
                    ));
                }
                Err(_) => self.error("bad-variant", echo(value_text)),
            },
            "hash" => match spin(MAX_HASH_MIB) {
                Some(mib) => {
                    self.hash_mib = mib;
                    self.session.resize_hash(mib);
                }
                None => bad_value(self),
            },
            "clearhash" => self.session.clear_hash(),
            "moveoverhead" => match value_text.parse::<u64>() {
                Ok(ms) if ms <= MAX_MOVE_OVERHEAD_MS => {
                    self.move_overhead = Duration::from_millis(ms);
                }
                _ => bad_value(self),
            },
            "threads" => match spin(max_threads()) {
                Some(threads) => {
                    self.threads = self.session.set_threads(threads);
                    if self.threads < threads {
                        self.error(
                            "internal",
                            format!("only {} search threads could start", self.threads),
                        );
                    }
                }
                None => bad_value(self),
            },
            "multipv" => match spin(MAX_MULTIPV) {
                Some(lines) => self.multipv = lines,
                None => bad_value(self),
            },
            "tablepath" => {
                let path = value_text.trim();
                if path.is_empty() || path == "<empty>" {
                    self.tables = None;
                } else {
                    match TableSet::load_all(Path::new(path)) {
                        Ok(tables) if !tables.is_empty() => self.tables = Some(Arc::new(tables)),
                        Ok(_) => {
                            return self.error(
                                "bad-option-value",
                                format!("TablePath {} (no tables there)", echo(path)),
                            );
                        }
                        Err(reason) => {
                            return self.error(
                                "bad-option-value",
                                format!("TablePath {}: {reason}", echo(path)),
                            );
                        }
                    }
                }
                self.session.set_tables(self.tables.clone());
            }
            "ponder" => match value_text {
                "true" => self.ponder = true,
                "false" => self.ponder = false,
                _ => bad_value(self),
            },
            _ => self.error("unknown-option", echo(name)),
        }
    }

    /// A session of `variant` with this daemon's table size and threads.
    fn new_session(&self, variant: Variant) -> Box<dyn Session> {
        let mut session = new_session(variant, self.hash_mib, self.play);
        session.set_threads(self.threads);
        session.set_tables(self.tables.clone());
        session
    }

    fn position(&mut self, position: PositionCommand) {
        if let Some(name) = &position.variant {
            match name.parse::<Variant>() {
                Ok(variant) if variant != self.session.variant() => {
                    // Check the position first, so that a bad one changes nothing.
                    let mut session = self.new_session(variant);
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
                Err(_) => return self.error("bad-variant", echo(name)),
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
                self.error("illegal-move", format!("{} at ply {ply}", echo(&text)));
            }
            MovesApplied::AfterEnd { ply, text } => {
                self.error(
                    "illegal-move",
                    format!("{} at ply {ply} (game over)", echo(&text)),
                );
            }
        }
    }

    fn go(&mut self, go: &GoCommand) {
        // Words that cannot be read, and root moves that are not legal here, are skipped
        // with one error line: every `go` gets its `bestmove`.
        let legal = self.session.legal_moves();
        let (searchmoves, illegal): (Vec<String>, Vec<String>) = go
            .searchmoves
            .iter()
            .cloned()
            .partition(|mv| legal.contains(mv));
        let mut skipped = go.skipped.clone();
        if !illegal.is_empty() {
            skipped.push(format!(
                "searchmoves {} (not legal here)",
                illegal.join(" ")
            ));
        }
        if !skipped.is_empty() {
            self.error(
                "bad-arguments",
                format!("go: skipped {}", echo(&skipped.join(", "))),
            );
        }
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
                // `movestogo 0` is sudden death, as no moves to go would be.
                moves_to_go: go.movestogo.filter(|&n| n > 0),
                ..Clock::default()
            }),
            mate: go.mate,
            infinite: go.infinite,
            move_overhead: self.move_overhead,
        };
        // Bare `go` (or only unreadable words): infinite, as the protocol says.
        let infinite = go.infinite
            || (limits.depth.is_none()
                && limits.nodes.is_none()
                && limits.movetime.is_none()
                && limits.clock.is_none()
                && limits.mate.is_none());
        let limits = Limits { infinite, ..limits };
        let flags = SearchFlags {
            wait_for_stop: infinite,
            pondering: Arc::new(AtomicBool::new(go.ponder)),
            ..SearchFlags::default()
        };
        let job = SearchJob {
            limits,
            searchmoves,
            multipv: self.multipv,
            ponder_move: self.ponder,
            panic_after_first_info: std::mem::take(&mut self.panic_next_search),
        };
        let thread = self
            .session
            .start_search(job, flags.clone(), Arc::clone(&self.sink));
        self.work = Some(Work { flags, thread });
    }

    /// Runs `job` on the worker thread like a search: it sees the stop flag, and its lines
    /// end with the one it returns. If it panics, the error is reported and `fallback` is
    /// the last line, so that whoever waits for that line is not left waiting.
    fn in_background(
        &mut self,
        fallback: &'static str,
        job: impl FnOnce(&Sink, &AtomicBool) -> String + Send + 'static,
    ) {
        let flags = SearchFlags::default();
        let (stop, done) = (Arc::clone(&flags.stop), Arc::clone(&flags.done));
        let sink = Arc::clone(&self.sink);
        let thread = thread::spawn(move || {
            let last = panic::catch_unwind(AssertUnwindSafe(|| job(&sink, &stop))).unwrap_or_else(
                |fault| {
                    sink(format!(
                        "info string error internal: {}",
                        panic_detail(&*fault)
                    ));
                    fallback.to_owned()
                },
            );
            done.store(true, Ordering::Release);
            sink(last);
        });
        self.work = Some(Work { flags, thread });
    }

    fn perft(&mut self, depth: u32) {
        let mut session = self.session.snapshot();
        let moves = session.legal_moves().len();
        self.in_background("Nodes searched: 0", move |sink, stop| {
            let (counts, total) = session.divide(depth, stop);
            let counted = counts.len();
            for (mv, count) in counts {
                sink(format!("{mv}: {count}"));
            }
            if stop.load(Ordering::Relaxed) && depth > 0 && counted < moves {
                sink(format!(
                    "info string perft stopped: {counted} of {moves} moves counted, the total is theirs"
                ));
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
            // One line: the picture's own line breaks are only layout.
            Query::Svg => self.session.svg().replace('\n', " "),
            Query::Unknown(other) => {
                self.error("unknown-query", other);
                "error".to_owned()
            }
        };
        self.say(format!("response {answer}"));
    }

    fn display(&self) {
        for line in self.session.diagram() {
            self.say(format!("  {line}"));
        }
        let side = match self.session.side_to_move() {
            Player::P1 => "p1",
            Player::P2 => "p2",
        };
        let moves = self.session.legal_moves();
        self.say(format!("Variant: {}", self.session.variant()));
        self.say(format!("Fen: {}", self.session.fen()));
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
        self.in_background("0 nodes 0 nps", move |sink, stop| {
            let totals = crate::bench::run_until(depth, 1, stop, &mut |line| sink(line));
            if !totals.complete {
                sink("info string bench stopped: the node count is partial".to_owned());
            }
            format!("{} nodes {} nps", totals.nodes, totals.nps)
        });
    }

    fn help(&self) {
        for line in [
            "ternion speaks UGI (and UCI spellings). Commands:",
            "  ugi | uci                       identify, list options",
            "  isready                         answered with readyok, even while searching",
            "  setoption name <id> [value <x>] UCI_Variant, Hash, ClearHash, MoveOverhead,",
            "                                  Threads, MultiPV, Ponder, TablePath",
            "  uginewgame | ucinewgame         clear the table, back to the start position",
            "  position [variant <v>] startpos|fen <fen> [moves <m>...]",
            "  go [p1time|wtime <ms>] [p2time|btime <ms>] [p1inc|winc <ms>] [p2inc|binc <ms>]",
            "     [movestogo <n>] [movetime <ms>] [depth <n>] [nodes <n>] [mate <n>]",
            "     [searchmoves <m>...] [ponder] [infinite]",
            "  go perft <n>                    count moves to depth n, by move",
            "  stop | ponderhit | quit         stop answers at once; nothing waits for a search",
            "  query gameover|p1turn|p2turn|result|legalmoves|islegal <m>|fen|variant|svg",
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
