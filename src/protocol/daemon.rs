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
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crate::core::clock::Instant;

use super::command::{Command, CommandError, GoCommand, PositionCommand, Query, Reading};
use super::format::{self, MateUnit};
use super::lag::{ClockReport, LagMeter};
use super::options::{self, Caps, OPTIONS, Settings, Target};
use crate::core::Player;
use crate::core::printable::echo;
use crate::engine::{
    Event, Listener, MovesApplied, SearchFlags, SearchJob, Session, SlicedSearch, panic_detail,
};
use crate::games::{LoadedTables, Variant};
use crate::search::mover::Mover;
use crate::search::{Clock, Limits};

/// Where the daemon's lines go (stdout in the serve loop, a buffer in tests).
pub type Sink = Arc<dyn Fn(String) + Send + Sync>;

/// The running work: its flags, and its thread or its slices.
struct Work {
    flags: SearchFlags,
    runs: Runs,
}

/// Where work runs.
enum Runs {
    /// On a worker thread, beside the protocol.
    Thread(JoinHandle<()>),
    /// A search in slices, on the daemon's thread as [`Daemon::step`] is called.
    Slices(Box<dyn SlicedSearch>),
}

impl Work {
    /// Whether the work has given its last line: its thread has ended, or its slices have
    /// answered.
    fn is_finished(&self) -> bool {
        match &self.runs {
            Runs::Thread(thread) => thread.is_finished(),
            Runs::Slices(search) => search.is_answered(),
        }
    }

    /// Waits until the work has given its last line (stepping its slices to the end).
    fn finish(self) {
        match self.runs {
            // Panics are caught inside the work; a join error has nothing left to say.
            Runs::Thread(thread) => {
                let _ = thread.join();
            }
            Runs::Slices(mut search) => while !search.step(SLICE) {},
        }
    }
}

/// How long one step of a search in slices searches: a `stop` that comes during a slice
/// is read when it ends, so this bounds how late a stop is answered.
pub const SLICE: Duration = Duration::from_millis(50);

/// The protocol state of one engine process.
pub struct Daemon {
    session: Box<dyn Session>,
    /// What the options have set, kept across variants.
    settings: Settings,
    /// How `go` picks the move, as the command line chose: the search (at the `Skill
    /// Level`), or a mover of its own (a baseline, a fixed level).
    play: Mover,
    /// The running (or finished, not yet joined) work.
    work: Option<Work>,
    /// The most `Hash` and `Threads` this daemon takes.
    caps: Caps,
    /// The lag of this machine and GUI, learned from the clocks of `go`.
    lag: LagMeter,
    /// What `mate <n>` counts: plies after `ugi` (UGI 1.0), moves after `uci`.
    mate_unit: MateUnit,
    /// Whether work runs on this thread, in slices (the web build), not on threads.
    in_slices: bool,
    sink: Sink,
}

impl Daemon {
    /// A daemon playing `variant` from its start position, writing to `sink`.
    pub fn new(variant: Variant, sink: Sink) -> Self {
        Self::playing(variant, Mover::Full, sink)
    }

    /// A daemon like [`Daemon::new`] whose `go` picks its moves as `play` says (the full
    /// search: at the `Skill Level` the options set).
    pub fn playing(variant: Variant, play: Mover, sink: Sink) -> Self {
        let settings = Settings::default();
        Daemon {
            session: settings.new_session(variant),
            settings,
            play,
            work: None,
            caps: Caps::NONE,
            lag: LagMeter::default(),
            mate_unit: MateUnit::Moves,
            in_slices: false,
            sink,
        }
    }

    /// The same daemon running its work on its own thread: a search in slices, as
    /// [`Daemon::step`] is called between the lines it reads, and `go perft` and `bench`
    /// whole, before the next line is read. For where no thread can run beside the
    /// protocol (the web build).
    pub fn in_slices(mut self) -> Self {
        self.in_slices = true;
        self
    }

    /// Runs the search in slices for one slice of about `budget` (or gives its best move,
    /// once due); whether work is left to step. Nothing to do on a daemon whose work runs
    /// on threads.
    pub fn step(&mut self, budget: Duration) -> bool {
        let Some(Work {
            runs: Runs::Slices(search),
            ..
        }) = &mut self.work
        else {
            return false;
        };
        let answered = panic::catch_unwind(AssertUnwindSafe(|| search.step(budget)))
            .unwrap_or_else(|fault| {
                self.say(format::error("internal", panic_detail(&*fault)));
                true
            });
        if answered {
            self.work = None;
        }
        !answered
    }

    /// The same daemon taking no more than `caps` of `Hash` and `Threads` (a daemon
    /// serving a page, one of several on the machine).
    pub fn with_caps(mut self, caps: Caps) -> Self {
        self.caps = caps;
        self
    }

    /// The same daemon asking `tables` (loaded once by its server, shared by all its
    /// daemons) in every game that has tables among them.
    pub fn with_tables(mut self, tables: LoadedTables) -> Self {
        self.settings.tables = tables;
        self.session.set_tables(&self.settings.tables);
        self
    }

    fn say(&self, line: impl Into<String>) {
        (self.sink)(line.into());
    }

    /// The one line of a rejected command.
    fn error(&self, kind: &str, detail: impl std::fmt::Display) {
        self.say(format::error(kind, detail));
    }

    /// Whether work is running: until its thread has given its last line (a search's
    /// `bestmove`) and ended. The thread's end, not a flag set before that line, so that
    /// whoever waits for `busy` to turn false finds the line out however the threads are
    /// scheduled.
    pub fn busy(&self) -> bool {
        self.work.as_ref().is_some_and(|work| !work.is_finished())
    }

    /// Waits until the running work ends by itself (a search with a limit, `go perft`,
    /// `bench`) and has given its last line. Work that ends only when told (`go infinite`)
    /// is to be stopped instead: [`Daemon::stop_search`].
    pub fn wait_idle(&mut self) {
        if let Some(work) = self.work.take() {
            work.finish();
        }
    }

    /// Stops any running work and waits for its last line (a search's `bestmove`).
    pub fn stop_search(&mut self) {
        if let Some(work) = self.work.take() {
            work.flags.stop();
            work.finish();
        }
    }

    /// Before the process exits: stops any work and gives it a moment to say its last
    /// line, but does not wait longer (the process ends anyway).
    pub fn stop_for_exit(&mut self) {
        const GRACE: Duration = Duration::from_millis(200);
        if self.in_slices {
            return self.stop_search();
        }
        if let Some(work) = &self.work {
            work.flags.stop();
            let started = Instant::now();
            while !work.is_finished() && started.elapsed() < GRACE {
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

    /// Handles one input line; `false` means quit. A command that panics (a fault of the
    /// engine's, never of the input) gets one `info string error internal` line instead of
    /// taking the daemon down; its state is what the command left, and every command
    /// changes the state only once its work is done.
    pub fn handle(&mut self, line: &str) -> bool {
        self.guarded(|daemon| daemon.dispatch(line))
    }

    /// Runs `command` on this daemon, catching a panic at the command's door.
    fn guarded(&mut self, command: impl FnOnce(&mut Self) -> bool) -> bool {
        match panic::catch_unwind(AssertUnwindSafe(|| command(self))) {
            Ok(go_on) => go_on,
            Err(fault) => {
                self.error("internal", panic_detail(&*fault));
                true
            }
        }
    }

    fn dispatch(&mut self, line: &str) -> bool {
        // A move's time counts from here: stopping the last work may take a moment.
        let received = Instant::now();
        let command = match Command::read(line) {
            Ok(Reading { command, ignored }) => {
                if let Some(words) = ignored {
                    self.say(format::info_string(format!("ignored '{}'", echo(&words))));
                }
                command
            }
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
            Command::Ugi => {
                self.mate_unit = MateUnit::Plies;
                self.identify("ugiok");
            }
            Command::Uci => {
                self.mate_unit = MateUnit::Moves;
                self.identify("uciok");
            }
            Command::IsReady => self.say("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                // The draws go on from game to game: reseeding here would make every game
                // against a baseline mover from one position the same game.
                self.session.clear_hash();
                self.lag.new_game();
                // The start position with no moves cannot be refused.
                let _ = self.session.set_position(None, &[]);
            }
            Command::Position(position) => self.position(position),
            Command::Moves(moves) => self.moves(moves),
            Command::Go(go) => self.go(&go, received),
            Command::GoPerft(depth) => self.perft(depth),
            Command::Stop => self.stop_search(),
            Command::PonderHit => {
                if let Some(work) = &self.work {
                    work.flags.ponderhit();
                }
            }
            Command::Quit => {
                self.stop_for_exit();
                return false;
            }
            Command::Query(query) => self.query(query),
            Command::Display => self.display(),
            Command::Eval => {
                for line in format::eval(&*self.session) {
                    self.say(line);
                }
            }
            Command::Bench(depth) => self.bench(depth),
            Command::Help => self.help(),
            Command::Ignored => {}
        }
        true
    }

    fn identify(&self, ok: &str) {
        for line in format::identity() {
            self.say(line);
        }
        for option in &OPTIONS {
            self.say(option.listing(self.caps));
        }
        self.say(ok);
    }

    /// How `go` chooses its move: the command line's mover, or the search at the level
    /// the options set.
    fn mover(&self) -> Mover {
        match self.play {
            Mover::Full => self.settings.search_mover(self.session.variant()),
            play => play,
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(option) = options::find(name) else {
            return self.error("unknown-option", echo(name));
        };
        let target = Target {
            settings: &mut self.settings,
            session: &mut self.session,
            caps: self.caps,
        };
        match option.set(target, name, value.unwrap_or_default()) {
            Ok(None) => {}
            Ok(Some(line)) => self.say(line),
            Err(refusal) => self.error(refusal.kind, refusal.detail),
        }
    }

    fn position(&mut self, position: PositionCommand) {
        if let Some(name) = &position.variant {
            match name.parse::<Variant>() {
                Ok(variant) if variant != self.session.variant() => {
                    // Check the position first, so that a bad one changes nothing.
                    let mut session = self.settings.new_session(variant);
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

    /// `moves`: the moves played on from the position set last, as if its `position`
    /// command had named them too (the same checks, the same errors).
    fn moves(&mut self, moves: Vec<String>) {
        let (fen, mut line) = match self.session.position_line() {
            Some(line) => line,
            // A refused move left the game over: moves after it are refused as after the
            // end of a position's line.
            None if self.session.result().is_some() => {
                let first = echo(&moves[0]);
                return self.error("illegal-move", format!("{first} at ply 1 (game over)"));
            }
            None => (Some(self.session.fen()), Vec::new()),
        };
        line.extend(moves);
        self.position(PositionCommand {
            variant: None,
            fen,
            moves: line,
        });
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

    /// The root moves of `go` that are legal here. Words that cannot be read, and root
    /// moves that are not legal, are skipped with one error line: every `go` gets its
    /// `bestmove`.
    fn legal_searchmoves(&self, go: &GoCommand) -> Vec<String> {
        let (searchmoves, illegal) = self.session.legal_among(&go.searchmoves);
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
        searchmoves
    }

    /// `limits` of `go` when none of them bounds the search: endless when every word was
    /// read (a bare `go`, the other side's clock alone: said in a warning), and its first
    /// iteration when a word could not be read (a typo of a limit must not become an
    /// endless search).
    fn endless_or_bounded(&self, go: &GoCommand, limits: Limits, side: Player) -> Limits {
        let no_limit = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none()
            && limits.mate.is_none();
        let clock_words = [go.p1time, go.p2time, go.p1inc, go.p2inc]
            .iter()
            .any(Option::is_some)
            || go.movestogo.is_some();
        if no_limit && clock_words && !go.infinite && go.skipped.is_empty() {
            // Clock words, but none that bounds the side to move (`go p2time 1000` with p1
            // to move, `go p1inc 50`, `go movestogo 5`): endless, as in Stockfish; a GUI
            // that meant a clock learns it here rather than waiting for a move.
            self.say(format::info_string(format!(
                "warning: {go} sets no limit for {}, the side to move: searching until stop",
                format::player_word(side)
            )));
        }
        let misread = no_limit && !go.skipped.is_empty() && !go.infinite;
        Limits {
            infinite: go.infinite || (no_limit && go.skipped.is_empty()),
            depth: if misread { Some(1) } else { limits.depth },
            ..limits
        }
    }

    fn go(&mut self, go: &GoCommand, received: Instant) {
        let searchmoves = self.legal_searchmoves(go);
        let side = self.session.side_to_move();
        let (time, increment) = match side {
            Player::P1 => (go.p1time, go.p1inc),
            Player::P2 => (go.p2time, go.p2inc),
        };
        // The clock runs for a pondering engine only from `ponderhit`: such a move teaches
        // nothing of the lag.
        let report = time.filter(|_| !go.ponder).map(|ms| ClockReport {
            side,
            remaining: Duration::from_millis(ms),
            increment: Duration::from_millis(increment.unwrap_or(0)),
        });
        let answered = self.lag.go(report, received);
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
            move_overhead: self.settings.move_overhead.max(self.lag.learned()),
            since: Some(received),
        };
        let limits = self.endless_or_bounded(go, limits, side);
        let infinite = limits.infinite;
        let flags = SearchFlags::new(infinite, go.ponder);
        let tables_first = self.settings.table_play
            && !infinite
            && searchmoves.is_empty()
            && self.settings.multipv == 1;
        let job = SearchJob {
            limits,
            searchmoves,
            multipv: self.settings.multipv,
            ponder_move: self.settings.ponder,
            mover: self.mover(),
            tables_first,
            contempt: self.settings.contempt,
        };
        let sink = Arc::clone(&self.sink);
        let wdl = (self.settings.show_wdl).then(|| {
            let exact = (self.session.table_view()).map_or(Vec::new(), |view| {
                (view.moves.into_iter())
                    .map(|(mv, exact)| (mv, exact.wdl))
                    .collect()
            });
            super::wdl::RootWdl::new(self.session.variant(), exact)
        });
        let unit = self.mate_unit;
        let listener: Listener = Arc::new(move |event| {
            let answer = matches!(event, Event::BestMove { .. });
            sink(format::event_with(&event, wdl.as_ref(), unit));
            if answer {
                // Already set only if a best move were given twice, which the session
                // rules out.
                let _ = answered.set(Instant::now());
            }
        });
        let runs = match self.in_slices {
            true => Runs::Slices(self.session.start_sliced(job, flags.clone(), listener)),
            false => Runs::Thread(self.session.start_search(job, flags.clone(), listener)),
        };
        self.work = Some(Work { flags, runs });
    }

    /// Runs `job` on the worker thread like a search: it sees the stop flag, and its lines
    /// end with the one it returns. If it panics, the error is reported and `fallback` is
    /// the last line, so that whoever waits for that line is not left waiting. A daemon
    /// in slices runs it here, whole.
    fn in_background(
        &mut self,
        fallback: String,
        job: impl FnOnce(&Sink, &AtomicBool) -> String + Send + 'static,
    ) {
        let flags = SearchFlags::default();
        let work_flags = flags.clone();
        let sink = Arc::clone(&self.sink);
        let work = move || {
            let stop = work_flags.stop_flag();
            let last = panic::catch_unwind(AssertUnwindSafe(|| job(&sink, stop))).unwrap_or_else(
                |fault| {
                    sink(format::error("internal", panic_detail(&*fault)));
                    fallback
                },
            );
            sink(last);
        };
        if self.in_slices {
            return work();
        }
        let thread = thread::spawn(work);
        self.work = Some(Work {
            flags,
            runs: Runs::Thread(thread),
        });
    }

    fn perft(&mut self, depth: u32) {
        let mut session = self.session.snapshot();
        let moves = session.legal_moves().len();
        self.in_background(format::perft_total(0), move |sink, stop| {
            let (counts, total) = session.divide(depth, stop);
            let counted = counts.len();
            for (mv, count) in counts {
                sink(format::perft_move(&mv, count));
            }
            if stop.load(Ordering::Relaxed) && depth > 0 && counted < moves {
                sink(format::perft_stopped(counted, moves));
            }
            sink(String::new());
            format::perft_total(total)
        });
    }

    fn query(&self, query: Query) {
        let session = &*self.session;
        let answer = match query {
            Query::GameOver => session.result().is_some().to_string(),
            Query::P1Turn => (session.side_to_move() == Player::P1).to_string(),
            Query::P2Turn => (session.side_to_move() == Player::P2).to_string(),
            Query::Result => format::result_word(session.result()).to_owned(),
            Query::LegalMoves => format::move_list(&session.legal_moves()),
            Query::IsLegal(mv) => session.legal_moves().contains(&mv).to_string(),
            Query::Fen => session.fen(),
            Query::Variant => session.variant().to_string(),
            // One line: the picture's own line breaks are only layout.
            Query::Svg => session.svg().replace('\n', " "),
            Query::Reason => session.result_reason().unwrap_or_else(|| "none".to_owned()),
            Query::Tables => format::table_view(session.table_view().as_ref()),
            Query::Unknown(other) => {
                self.error("unknown-query", other);
                "error".to_owned()
            }
        };
        self.say(format::response(answer));
    }

    fn display(&self) {
        for line in format::display(&*self.session) {
            self.say(line);
        }
    }

    fn bench(&mut self, depth: Option<u32>) {
        self.in_background(format::bench_total(0, 0), move |sink, stop| {
            let totals = crate::bench::run_until(depth, 1, stop, &mut |line| {
                sink(format::bench_line(&line))
            });
            if !totals.complete {
                sink(format::bench_stopped());
            }
            format::bench_total(totals.nodes, totals.nps)
        });
    }

    fn help(&self) {
        for line in format::help(&options::names()) {
            self.say(line);
        }
    }
}

impl Drop for Daemon {
    /// A daemon that shares a pool of table memory gives its share back when it ends.
    fn drop(&mut self) {
        if let Some(pool) = self.caps.hash_pool {
            pool.give_back(options::HashPool::share_of(self.settings.hash_mib));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn a_command_that_panics_gets_one_line_and_the_daemon_goes_on() {
        let output = Arc::new(Mutex::new(Vec::new()));
        let collected = Arc::clone(&output);
        let sink: Sink = Arc::new(move |line| collected.lock().unwrap().push(line));
        let mut daemon = Daemon::new(Variant::Lielow, sink);
        assert!(daemon.handle("position startpos moves a2a3"));
        let fen = daemon.session.fen();
        let go_on = daemon.guarded(|daemon| {
            daemon.say("a line before the fault");
            panic!("a fault\nof two lines");
        });
        assert!(go_on, "a panic never ends the daemon");
        assert!(daemon.handle("isready"));
        assert_eq!(
            *output.lock().unwrap(),
            [
                "a line before the fault",
                "info string error internal: a fault",
                "readyok"
            ]
        );
        assert_eq!(daemon.session.fen(), fen, "the position is kept");
    }
}
