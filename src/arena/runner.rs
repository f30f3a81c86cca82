//! The runner of a match: each engine started once to check it can play, then workers
//! that each take the next game of the schedule and play it with their own pair of engine
//! processes, while the match's state goes to the caller every second.

use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use crate::core::clock::Instant;

use super::process::EngineProcess;
use super::record::{GameRecord, Termination};
use super::referee;
use super::schedule::{first_engine_colour, opening, seated};
use super::stats::SprtDecision;
use super::summary::{MatchSummary, Played};
use super::{MatchConfig, Progress};
use crate::core::{Outcome, Player};
use crate::games::Playable;

/// Runs a match; `progress` hears of every game, of the state of the match every second,
/// and of warnings. Errors: an engine that cannot start (with its reason), or a records file
/// that cannot be written.
pub fn run_match(
    config: &MatchConfig,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<MatchSummary, String> {
    crate::with_game!(config.variant, G => run::<G>(config, progress))
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
        Some(path) => Some(InOrder::new(
            BufWriter::new(
                crate::core::output::create(path, &[])
                    .map_err(|e| format!("cannot write records to {}: {e}", path.display()))?,
            ),
            config,
        )),
        None => None,
    };
    let next_game = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let (sender, results) = mpsc::channel::<Played>();
    let mut summary = MatchSummary::new(config.engines.clone().map(|e| e.command));
    summary.sprt = config.sprt.map(|s| s.state(&summary.tally));
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
                    progress(Progress::Status(&summary.status_line(to_play, started)));
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if super::process::ending() {
                // Cut short by the signal that ends the runner: not a game played.
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            summary.names = played.names.clone();
            summary.account(&played);
            if let Some(sprt) = &config.sprt {
                let state = sprt.update(summary.sprt, &summary.tally);
                summary.sprt = Some(state);
                if state.decision != SprtDecision::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(out) = records.as_mut()
                && write_error.is_none()
                && let Err(e) = out.add(played.record.clone())
            {
                write_error = Some(format!("cannot write records: {e}"));
                stop.store(true, Ordering::Relaxed);
            }
            progress(Progress::Game(&summary.game_line(
                &played.record,
                to_play,
                started,
            )));
            progress(Progress::Status(&summary.status_line(to_play, started)));
        }
    });
    if let Some(records) = records
        && let Err(e) = records.finish()
    {
        write_error.get_or_insert(format!("cannot write records: {e}"));
    }
    match write_error {
        Some(error) => Err(error),
        None => Ok(summary),
    }
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
        if stop.load(Ordering::Relaxed) || super::process::ending() {
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
    let first_engine_as = first_engine_colour(index);
    // The engine index playing each colour: [p1's engine, p2's engine].
    let seats = seated(first_engine_as, [0, 1]);
    let origin = start_of_pair(config, index / 2);
    let mut game = match origin {
        Some(text) => G::parse_position(text).expect("the match's starts were read before"),
        None => G::start(),
    };
    let opening = opening::<G>(config.seed, index / 2, config.opening_plies, &game);
    let short_opening = opening.len() < config.opening_plies as usize;
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
    if names[0] == names[1] {
        // One engine run two ways (`ternion` and `ternion --play random`, say): the command
        // tells the seats apart in the summary and the records; one engine against itself
        // is told apart by its place on the command line.
        names = [0, 1].map(|seat| match commands[0] == commands[1] {
            true => format!("{} (engine {})", names[seat], seat + 1),
            false => format!("{} ({})", names[seat], commands[seat]),
        });
    }
    if started.is_ok() {
        started = seed_the_game(config, index, engines);
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
                stale_answers: [0, 0],
            }
        }
        Ok(()) => {
            let [first, second] = engines;
            let by_engine = [first, second].map(|engine| engine.as_mut().expect("started"));
            let at_colours = seated(first_engine_as, by_engine);
            let from = referee::Origin {
                fen: origin,
                opening: &opening,
            };
            referee::play(game, from, at_colours, config.limits, config.patience)
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
            stale_answers: verdict.stale_answers,
        },
        first_engine_as,
        names,
        least_time_left: verdict.least_time_left,
        short_opening,
    }
}

/// The position pair `pair` starts from before its random plies: the next of the match's
/// starts, round the list; `None`, the variant's start.
fn start_of_pair(config: &MatchConfig, pair: u32) -> Option<&str> {
    let count = config.starts.len();
    (count > 0).then(|| config.starts[pair as usize % count].as_str())
}

/// The seed of game `index` for the engine in `seat`: from the match's seed and the game's
/// number alone, so that a game's draws (a level's, a baseline mover's) do not depend on
/// which process played the games before it. Within what a 32-bit spin box holds.
fn game_seed(match_seed: u64, index: u32, seat: usize) -> u64 {
    let mut rng = fastrand::Rng::with_seed(
        match_seed ^ (u64::from(index) << 1 | seat as u64).wrapping_mul(0xD1B5_4A32_D192_ED03),
    );
    rng.u64(..=i32::MAX as u64)
}

/// Gives each engine that has a `Seed` option (and was not given one on the command line)
/// the seed of game `index`; an engine that does not answer cannot play it.
fn seed_the_game(
    config: &MatchConfig,
    index: u32,
    engines: &mut [Option<EngineProcess>; 2],
) -> Result<(), Termination> {
    let first_engine_as = first_engine_colour(index);
    for (seat, engine) in engines.iter_mut().enumerate() {
        let Some(engine) = engine.as_mut() else {
            continue;
        };
        let chosen = config.engines[seat]
            .options
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("Seed"));
        if chosen || !engine.has_option("Seed") {
            continue;
        }
        let seed = game_seed(config.seed, index, seat).to_string();
        if let Err(error) = engine
            .set_option("Seed", &seed)
            .and_then(|()| engine.ping(config.patience.answer_timeout))
        {
            let colour = match (seat, first_engine_as) {
                (0, colour) => colour,
                (_, colour) => colour.opponent(),
            };
            return Err(referee::failure(error, colour));
        }
    }
    Ok(())
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

/// The records file, written in the order of the games: a game that ends before an earlier
/// one (several games at once) waits for it, so that the file reads the same whatever the
/// concurrency. At most about one game a concurrent worker waits.
struct InOrder<'a, W: Write> {
    out: W,
    config: &'a MatchConfig,
    /// The games finished and not yet written, by number.
    waiting: BTreeMap<u32, GameRecord>,
    /// How many of this shard's games are written.
    written: u32,
}

impl<'a, W: Write> InOrder<'a, W> {
    fn new(out: W, config: &'a MatchConfig) -> Self {
        InOrder {
            out,
            config,
            waiting: BTreeMap::new(),
            written: 0,
        }
    }

    /// Adds a finished game, and writes every game whose turn has come.
    fn add(&mut self, record: GameRecord) -> std::io::Result<()> {
        self.waiting.insert(record.number, record);
        while let Some(index) = self.config.shard.game(self.written, self.config.games)
            && let Some(record) = self.waiting.remove(&(index + 1))
        {
            write!(self.out, "{record}")?;
            self.written += 1;
        }
        self.out.flush()
    }

    /// At the match's end: any game still waiting, in order (none, as every game a worker
    /// takes is played to its end and sent, but a lost one must not lose the rest).
    fn finish(mut self) -> std::io::Result<()> {
        for record in std::mem::take(&mut self.waiting).into_values() {
            write!(self.out, "{record}")?;
        }
        self.out.flush()
    }
}
