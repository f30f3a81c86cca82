//! Engine-vs-engine matches with a referee that knows the rules.
//!
//! - [`process`]: an engine as a child process, with a timeout on every answer;
//! - [`referee`]: one game between two processes, every move checked by the rules library;
//! - [`record`]: the record of each game, written and read back;
//! - [`stats`]: score, Elo with its interval, and the sequential test;
//! - this module: the schedule (openings, colours), the workers that play games side by
//!   side, live progress, and the summary.
//!
//! Game `2k` and game `2k + 1` share opening `k` (random plies drawn from the seed) with the
//! colours swapped; the first engine plays p1 in even games (counted from 0; the records
//! number games from 1). Each worker owns one process of each engine and restarts an engine
//! that failed in a game, so a crash or a hang costs one game, not the match. Before any
//! game, each engine is started once: one that cannot start is a setup error, not a string
//! of lost games.
//!
//! A match can be split into shards (`i/n`: the games whose index is `i` mod `n`), each with
//! the very openings, colours and numbers the whole match gives those games, and the shards'
//! records merged back into the summary of the whole match ([`summarize_records`]).

pub mod process;
pub mod record;
pub mod referee;
pub mod stats;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use self::process::EngineProcess;
use self::record::{GameRecord, ParsedRecord, Termination, outcome_name};
use self::referee::{Patience, TimeControl};
use self::stats::{Sprt, SprtDecision, SprtState, Tally};
use crate::core::{Outcome, Player};
use crate::games::{Playable, Variant};

/// One engine of a match: how to start it and the options to set after the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub command: String,
    pub options: Vec<(String, String)>,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    pub variant: Variant,
    pub games: u32,
    pub limits: TimeControl,
    /// Games played at once, each with its own pair of processes.
    pub concurrency: usize,
    /// Random plies from the start before the engines take over.
    pub opening_plies: u32,
    pub seed: u64,
    pub sprt: Option<Sprt>,
    pub records: Option<PathBuf>,
    pub patience: Patience,
    /// The wait for `ugiok` when an engine starts.
    pub handshake_timeout: Duration,
    /// The part of the match to play.
    pub shard: Shard,
}

/// Part `index` of `count` of a match: the games whose index (from 0) is `index` mod `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The whole match.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `i/n`, with `0 <= i < n`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let shard = text
            .split_once('/')
            .and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)))
            .map(|(index, count)| Shard { index, count });
        match shard {
            Some(shard) if shard.index < shard.count => Ok(shard),
            _ => Err(format!(
                "--shard '{text}' is not i/n with 0 <= i < n (for example 0/4)"
            )),
        }
    }

    /// The index of the `k`-th game of this shard (from 0), if the match has it.
    fn game(self, k: u32, games: u32) -> Option<u32> {
        k.checked_mul(self.count)
            .and_then(|at| at.checked_add(self.index))
            .filter(|&index| index < games)
    }

    /// How many of `games` this shard plays.
    pub fn games(self, games: u32) -> u32 {
        games.saturating_sub(self.index).div_ceil(self.count)
    }
}

/// What a match says while it runs.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// One line per finished game.
    Game(&'a str),
    /// The state of the match now (games done, score, time left), refreshed every second:
    /// for a live line on a terminal.
    Status(&'a str),
    /// Something the user should know that does not stop the match (an option an engine
    /// rejected, say).
    Warning(&'a str),
}

/// A game that ended other than by the rules: which engine failed and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub game: u32,
    /// 0 for the first engine, 1 for the second.
    pub engine: usize,
    pub termination: Termination,
}

/// The result of a match, from the first engine's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    pub names: [String; 2],
    pub tally: Tally,
    /// The first engine's results when it played p1, and when it played p2.
    pub by_colour: [Tally; 2],
    pub failures: Vec<Failure>,
    pub total_plies: u64,
    /// With a clock: the least time any engine had left after a move (before its increment).
    pub least_time_left: Option<Duration>,
    pub sprt: Option<SprtState>,
}

impl MatchSummary {
    /// Plies per game, openings included.
    pub fn average_length(&self) -> f64 {
        self.total_plies as f64 / self.tally.games().max(1) as f64
    }

    /// The summary for people, several lines.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let tally = &self.tally;
        let line = |out: &mut String, text: String| {
            out.push_str(&text);
            out.push('\n');
        };
        line(
            &mut out,
            format!(
                "{} vs {}: {} games",
                self.names[0],
                self.names[1],
                tally.games()
            ),
        );
        line(
            &mut out,
            format!(
                "W/D/L {}/{}/{}  score {}  draws {}",
                tally.wins,
                tally.draws,
                tally.losses,
                percent(tally.score()),
                percent(tally.draw_ratio())
            ),
        );
        if let Some(elo) = tally.elo() {
            line(&mut out, format!("Elo {elo} (95%)"));
        }
        for (colour, tally) in ["p1", "p2"].iter().zip(&self.by_colour) {
            line(
                &mut out,
                format!(
                    "as {colour}: W/D/L {}/{}/{}  score {}",
                    tally.wins,
                    tally.draws,
                    tally.losses,
                    percent(tally.score())
                ),
            );
        }
        line(
            &mut out,
            format!(
                "average length {:.1} plies (openings included)",
                self.average_length()
            ),
        );
        if let Some(least) = self.least_time_left {
            line(
                &mut out,
                format!("least time left on a clock: {} ms", least.as_millis()),
            );
        }
        if let Some(sprt) = &self.sprt {
            line(&mut out, format!("SPRT {sprt}"));
        }
        if self.failures.is_empty() {
            line(&mut out, "every game ended by the rules".to_owned());
        }
        for failure in &self.failures {
            line(
                &mut out,
                format!(
                    "game {}: {} lost: {}",
                    failure.game, self.names[failure.engine], failure.termination
                ),
            );
        }
        out
    }
}

fn percent(share: Option<f64>) -> String {
    share.map_or("-".to_owned(), |s| format!("{:.1}%", s * 100.0))
}

/// Runs a match; `progress` hears of every game, of the state of the match every second,
/// and of warnings. Errors: an engine that cannot start (with its reason), or a records file
/// that cannot be written.
pub fn run_match(
    config: &MatchConfig,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<MatchSummary, String> {
    crate::with_game!(config.variant, G => Runner { config, progress }.visit::<G>())
}

struct Runner<'a> {
    config: &'a MatchConfig,
    progress: &'a mut dyn FnMut(Progress<'_>),
}

impl Runner<'_> {
    fn visit<G: Playable>(self) -> Result<MatchSummary, String> {
        run::<G>(self.config, self.progress)
    }
}

/// What a worker reports for each game.
struct Played {
    record: GameRecord,
    /// The colour the first engine had.
    first_engine_as: Player,
    names: [String; 2],
    least_time_left: Option<Duration>,
}

fn run<G: Playable>(
    config: &MatchConfig,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<MatchSummary, String> {
    // Each engine once before any game: a setup error ends the match before it starts.
    for seat in 0..2 {
        let (engine, rejected) = launch(config, seat, true)
            .map_err(|why| format!("engine {} cannot play: {why}", seat + 1))?;
        for line in rejected {
            progress(Progress::Warning(&format!(
                "engine {} ({}) rejected a setting: {line}",
                seat + 1,
                engine.name
            )));
        }
        engine.quit();
    }
    let mut records = match &config.records {
        Some(path) => {
            Some(BufWriter::new(File::create(path).map_err(|e| {
                format!("cannot write records to {}: {e}", path.display())
            })?))
        }
        None => None,
    };
    let next_game = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let (sender, results) = mpsc::channel::<Played>();
    let mut summary = MatchSummary {
        names: config.engines.clone().map(|e| e.command),
        tally: Tally::default(),
        by_colour: [Tally::default(); 2],
        failures: Vec::new(),
        total_plies: 0,
        least_time_left: None,
        sprt: config.sprt.map(|s| s.state(&Tally::default())),
    };
    let mut write_error = None;
    let to_play = config.shard.games(config.games);
    let started = Instant::now();
    thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, to_play.max(1) as usize) {
            let sender = sender.clone();
            let (next_game, stop) = (&next_game, &stop);
            scope.spawn(move || worker::<G>(config, next_game, stop, sender));
        }
        drop(sender);
        loop {
            let played = match results.recv_timeout(Duration::from_secs(1)) {
                Ok(played) => played,
                Err(RecvTimeoutError::Timeout) => {
                    progress(Progress::Status(&status_line(&summary, to_play, started)));
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            };
            summary.names = played.names.clone();
            account(&mut summary, &played);
            if let Some(sprt) = &config.sprt {
                let state = sprt.update(summary.sprt, &summary.tally);
                summary.sprt = Some(state);
                if state.decision != SprtDecision::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(out) = records.as_mut()
                && write_error.is_none()
                && let Err(e) = write!(out, "{}", played.record).and_then(|()| out.flush())
            {
                write_error = Some(format!("cannot write records: {e}"));
                stop.store(true, Ordering::Relaxed);
            }
            progress(Progress::Game(&progress_line(
                &summary, &played, to_play, started,
            )));
            progress(Progress::Status(&status_line(&summary, to_play, started)));
        }
    });
    match write_error {
        Some(error) => Err(error),
        None => Ok(summary),
    }
}

/// Adds one game to the summary.
fn account(summary: &mut MatchSummary, played: &Played) {
    let record = &played.record;
    let first = played.first_engine_as;
    let colour = &mut summary.by_colour[first.index()];
    for tally in [&mut summary.tally, colour] {
        match record.outcome {
            Outcome::Win(winner) if winner == first => tally.wins += 1,
            Outcome::Win(_) => tally.losses += 1,
            Outcome::Draw => tally.draws += 1,
        }
    }
    summary.total_plies += (record.opening.len() + record.moves.len()) as u64;
    if let Some(left) = played.least_time_left {
        let least = summary.least_time_left.get_or_insert(left);
        *least = (*least).min(left);
    }
    if let Some(culprit) = record.termination.culprit() {
        summary.failures.push(Failure {
            game: record.number,
            engine: if culprit == first { 0 } else { 1 },
            termination: record.termination.clone(),
        });
    }
}

/// The state of the match: games done of those to play, score, Elo, time taken and left.
fn status_line(summary: &MatchSummary, to_play: u32, started: Instant) -> String {
    let done = summary.tally.games();
    let elapsed = started.elapsed();
    let mut line = format!(
        "{done} of {to_play} games, {} score {}",
        summary.tally,
        percent(summary.tally.score())
    );
    if let Some(elo) = summary.tally.elo() {
        line.push_str(&format!(" Elo {elo}"));
    }
    line.push_str(&format!(", {} elapsed", clock_time(elapsed)));
    if done > 0 && done < to_play {
        let left = elapsed.mul_f64(f64::from(to_play - done) / f64::from(done));
        line.push_str(&format!(", about {} left", clock_time(left)));
    }
    line
}

/// A duration as `h:mm:ss` or `m:ss`.
fn clock_time(duration: Duration) -> String {
    let seconds = duration.as_secs();
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

fn progress_line(
    summary: &MatchSummary,
    played: &Played,
    to_play: u32,
    started: Instant,
) -> String {
    let record = &played.record;
    let tally = &summary.tally;
    let done = tally.games();
    let mut line = format!(
        "game {} ({done} of {to_play} done): {} - {}: {} ({}), {} plies | {} score {}",
        record.number,
        record.players[0],
        record.players[1],
        outcome_name(record.outcome),
        record.termination,
        record.opening.len() + record.moves.len(),
        tally,
        percent(tally.score()),
    );
    if let Some(elo) = tally.elo() {
        line.push_str(&format!(" Elo {elo}"));
    }
    if let Some(sprt) = &summary.sprt {
        line.push_str(&format!(" | {sprt}"));
    }
    line.push_str(&format!(" | {}", clock_time(started.elapsed())));
    if done < to_play {
        let left = started
            .elapsed()
            .mul_f64(f64::from(to_play - done) / f64::from(done));
        line.push_str(&format!(", about {} left", clock_time(left)));
    }
    line
}

/// Takes games from the shared counter until the match is over, playing each with its own
/// pair of engine processes.
fn worker<G: Playable>(
    config: &MatchConfig,
    next_game: &AtomicU32,
    stop: &AtomicBool,
    results: mpsc::Sender<Played>,
) {
    let mut engines: [Option<EngineProcess>; 2] = [None, None];
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let nth = next_game.fetch_add(1, Ordering::Relaxed);
        let Some(index) = config.shard.game(nth, config.games) else {
            break;
        };
        let played = play_scheduled::<G>(config, index, &mut engines);
        if results.send(played).is_err() {
            break;
        }
    }
    for engine in engines.into_iter().flatten() {
        engine.quit();
    }
}

/// Plays game `index` of the schedule; restarts engines as needed, and drops the process of
/// an engine that failed so that the next game starts it afresh.
fn play_scheduled<G: Playable>(
    config: &MatchConfig,
    index: u32,
    engines: &mut [Option<EngineProcess>; 2],
) -> Played {
    let first_engine_as = Player::BOTH[index as usize % 2];
    // The engine index playing each colour: [p1's engine, p2's engine].
    let seats = match first_engine_as {
        Player::P1 => [0, 1],
        Player::P2 => [1, 0],
    };
    let opening = opening::<G>(config.seed, index / 2, config.opening_plies);
    let mut game = G::start();
    game.play_moves(opening.iter().map(String::as_str))
        .expect("openings are drawn from legal moves");
    let start = game.position_string();
    let mut started = Ok(());
    for (colour, &seat) in Player::BOTH.iter().zip(&seats) {
        if engines[seat].is_none() {
            match launch(config, seat, false) {
                Ok((engine, _)) => engines[seat] = Some(engine),
                Err(detail) => {
                    started = Err(Termination::StartFailure {
                        by: *colour,
                        detail,
                    });
                    break;
                }
            }
        }
    }
    let commands = config.engines.each_ref().map(|e| e.command.as_str());
    let mut names = [0, 1].map(|seat| {
        engines[seat]
            .as_ref()
            .map_or(commands[seat].to_owned(), |e| e.name.clone())
    });
    if names[0] == names[1] && commands[0] != commands[1] {
        // One engine run two ways (`ternion` and `ternion --play random`, say): the command
        // tells the seats apart in the summary and the records.
        names = [0, 1].map(|seat| format!("{} ({})", names[seat], commands[seat]));
    }
    let verdict = match started {
        Err(termination) => {
            let loser = termination.culprit().unwrap_or(Player::P1);
            referee::Verdict {
                outcome: Outcome::Win(loser.opponent()),
                termination,
                moves: Vec::new(),
                final_position: start.clone(),
                least_time_left: None,
            }
        }
        Ok(()) => {
            let [first, second] = engines;
            let (first, second) = (
                first.as_mut().expect("started"),
                second.as_mut().expect("started"),
            );
            let seated = match first_engine_as {
                Player::P1 => [first, second],
                Player::P2 => [second, first],
            };
            referee::play(game, &opening, seated, config.limits, config.patience)
        }
    };
    if let Some(culprit) = verdict.termination.culprit() {
        engines[seats[culprit.index()]] = None;
    }
    Played {
        record: GameRecord {
            number: index + 1,
            variant: config.variant,
            players: seats.map(|seat| names[seat].clone()),
            opening,
            start,
            moves: verdict.moves,
            outcome: verdict.outcome,
            termination: verdict.termination,
            final_position: verdict.final_position,
        },
        first_engine_as,
        names,
        least_time_left: verdict.least_time_left,
    }
}

/// Starts engine `seat`, sets the variant and its options, and waits until it is ready;
/// with the error lines the engine printed about them. A variant the engine rejects is an
/// error only when `check_variant` (an engine that does not know the game cannot play it).
fn launch(
    config: &MatchConfig,
    seat: usize,
    check_variant: bool,
) -> Result<(EngineProcess, Vec<String>), String> {
    let spec = &config.engines[seat];
    let mut engine = EngineProcess::start(&spec.command, config.handshake_timeout)?;
    let answers = engine
        .set_option("UCI_Variant", config.variant.name())
        .and_then(|()| engine.replies_until_ready(config.patience.answer_timeout));
    let variant_errors = match answers {
        Ok(errors) => errors,
        Err(e) => {
            let why = engine.stderr_tail();
            return Err(format!("no readyok after the variant ({e:?}){why}"));
        }
    };
    if check_variant && let Some(error) = variant_errors.first() {
        return Err(format!(
            "it does not play {}: {error}",
            config.variant.name()
        ));
    }
    let mut setup = Ok(());
    for (name, value) in &spec.options {
        setup = setup.and_then(|()| engine.set_option(name, value));
    }
    let rejected = setup
        .and_then(|()| engine.replies_until_ready(config.patience.answer_timeout))
        .map_err(|e| format!("no readyok after the options ({e:?})"))?;
    Ok((engine, rejected))
}

/// Opening `pair`: `plies` random legal moves from the start, drawn from the seed, avoiding
/// openings that end the game. The same seed and pair always give the same opening.
pub fn opening<G: Playable>(seed: u64, pair: u32, plies: u32) -> Vec<String> {
    const ATTEMPTS: u32 = 100;
    let mut rng =
        fastrand::Rng::with_seed(seed ^ (u64::from(pair) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut moves = Vec::new();
    for _ in 0..ATTEMPTS {
        let mut game = G::start();
        let mut line = Vec::new();
        while line.len() < plies as usize && game.outcome().is_none() {
            moves.clear();
            game.generate_moves(&mut moves);
            let mv = moves[rng.usize(..moves.len())];
            line.push(game.move_string(mv));
            game.make_move(mv);
        }
        if game.outcome().is_none() {
            return line;
        }
    }
    Vec::new()
}

/// The summary of a match from its records: one file, or the shards of a match merged. The
/// first engine is the one that plays p1 in game 1 (and in every odd-numbered game), as in a
/// match; `sprt` gives the state of the sequential test. The clock margins are not in the
/// records, so the summary has none.
pub fn summarize_records(
    records: &[ParsedRecord],
    sprt: Option<Sprt>,
) -> Result<MatchSummary, String> {
    let mut games = records
        .iter()
        .map(ParsedRecord::to_game_record)
        .collect::<Result<Vec<_>, _>>()?;
    games.sort_by_key(|game| game.number);
    if let Some(pair) = games.windows(2).find(|w| w[0].number == w[1].number) {
        return Err(format!("game {} is recorded twice", pair[0].number));
    }
    if let Some(game) = games.iter().find(|game| game.variant != games[0].variant) {
        return Err(format!(
            "game {} is {}, game {} is {}: not one match",
            games[0].number, games[0].variant, game.number, game.variant
        ));
    }
    let mut summary = MatchSummary {
        names: [String::new(), String::new()],
        tally: Tally::default(),
        by_colour: [Tally::default(); 2],
        failures: Vec::new(),
        total_plies: 0,
        least_time_left: None,
        sprt: None,
    };
    for record in games {
        let Some(index) = record.number.checked_sub(1) else {
            return Err("game 0 in the records: games are numbered from 1".to_owned());
        };
        let first_engine_as = Player::BOTH[index as usize % 2];
        let [p1, p2] = record.players.clone();
        let names = match first_engine_as {
            Player::P1 => [p1, p2],
            Player::P2 => [p2, p1],
        };
        if summary.tally.games() == 0 {
            summary.names = names.clone();
        }
        let played = Played {
            record,
            first_engine_as,
            names,
            least_time_left: None,
        };
        account(&mut summary, &played);
    }
    summary.sprt = sprt.map(|sprt| sprt.state(&summary.tally));
    Ok(summary)
}
