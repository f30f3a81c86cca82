//! A session of one concrete game: the position, how it was reached, its searcher, and a
//! search on a worker thread that reports through events.

use crate::core::clock::Instant;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};

use super::answer::{self, Answer, Lateness};
use super::evaluation::{EvalChoice, EvalTerm, NetworkEval};
use super::event::{Event, Listener};
use super::face::{MovesApplied, Session, TableView};
use super::flags::SearchFlags;
use super::job::SearchJob;
use super::slices::{Answered, SliceSetup, SlicedSearch, Slices};
use super::told::Told;
use crate::core::{Outcome, Player, PositionError};
use crate::eval::network::Network;
use crate::eval::{Evaluator, feature_values};
use crate::games::{LoadedTables, Playable, Variant};
use crate::search::baseline;
use crate::search::mover::Request;
use crate::search::{Info, Oracle, RootOptions, SearchRequest, Searcher};

/// A new session of `variant` at its start position, with a table of `hash_mib` MiB and
/// one search thread.
pub fn new_session(variant: Variant, hash_mib: usize) -> Box<dyn Session> {
    crate::with_game!(variant, G => Box::new(GameSession::<G>::new(hash_mib)))
}

/// The seed of the movers' draws: a match against them can be played again move for move.
const BASELINE_SEED: u64 = 0x0074_6572_6e69_6f6e;

/// The movers' generator (a panic elsewhere must not take it down).
fn draws(rng: &Mutex<fastrand::Rng>) -> std::sync::MutexGuard<'_, fastrand::Rng> {
    rng.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The position as the last `position` command gave it, when all its moves were played.
#[derive(Clone, Debug)]
struct PositionLine {
    fen: Option<String>,
    moves: Vec<String>,
}

struct GameSession<G: Playable> {
    game: G,
    /// How `game` was reached, if by a `position` command whose moves were all played.
    line: Option<PositionLine>,
    /// The side that forfeited by an illegal move, if any.
    forfeit: Option<Player>,
    /// The move that led to `game`, if a `position` command played it.
    last_move: Option<G::Move>,
    /// Shared with the search thread while a search runs.
    searcher: Arc<Mutex<Searcher<G>>>,
    /// The exact tables the search asks, kept here too so that `query tables` answers
    /// while a search holds the searcher.
    oracle: Option<Arc<dyn Oracle<G>>>,
    /// The draws of the weakened levels and the baselines, going on from one move to the
    /// next.
    rng: Arc<Mutex<fastrand::Rng>>,
    /// The variant's network as the options chose it (loaded or built in), and where it
    /// came from, if it has one.
    network: Option<(Arc<Network>, String)>,
    /// Whether the search evaluates with `network` (if not, with the terms).
    use_network: bool,
    /// How late the answers came past their deadlines on this machine.
    lateness: Arc<Lateness>,
}

impl<G: Playable> GameSession<G> {
    fn new(hash_mib: usize) -> Self {
        GameSession {
            game: G::start(),
            line: None,
            forfeit: None,
            last_move: None,
            searcher: Arc::new(Mutex::new(Searcher::new(hash_mib))),
            oracle: None,
            rng: Arc::new(Mutex::new(fastrand::Rng::with_seed(BASELINE_SEED))),
            network: G::shipped_network().map(|network| (network, "built in".to_owned())),
            use_network: true,
            lateness: Arc::new(Lateness::default()),
        }
    }

    /// What the search evaluates with, as the options chose.
    fn evaluator(&self) -> Evaluator {
        match (&self.network, self.use_network) {
            (Some((network, _)), true) => Evaluator::Network(Arc::clone(network)),
            _ => Evaluator::Terms,
        }
    }

    /// The limits of `job` as this game and machine plan them (the moves the game is
    /// expected to last, the lateness learned), and its root options.
    fn limits_and_options(&self, job: &SearchJob) -> (crate::search::Limits, RootOptions<G::Move>) {
        let mut limits = job.limits;
        if let Some(clock) = &mut limits.clock {
            clock.expected_moves = Some(self.game.expected_moves_left());
        }
        // Answers that came late on this machine: the next ones are planned earlier.
        limits.move_overhead += self.lateness.learned();
        let options = RootOptions {
            // Legal here, as `legal_among` found them.
            only: (job.searchmoves.iter())
                .filter_map(|text| self.game.parse_move(text).ok())
                .collect(),
            multipv: job.multipv.max(1),
            contempt: job.contempt,
        };
        (limits, options)
    }

    /// The answer of a `go` from `root`, with the move of last resort it gives should the
    /// search not finish an iteration in time; for a timed search on a thread (`watched`)
    /// that does not ponder, with the watchdog that answers at the hard deadline should the
    /// search thread be starved of the CPU.
    #[allow(clippy::too_many_arguments)] // each is one part of the `go` being answered
    fn answer(
        &self,
        root: &G,
        limits: &crate::search::Limits,
        job: &SearchJob,
        flags: &SearchFlags,
        listener: Listener,
        options: &RootOptions<G::Move>,
        watched: bool,
    ) -> (Arc<Answer>, Option<G::Move>) {
        let evaluator = self.evaluator();
        let last_resort = last_resort(root, &evaluator, &options.only);
        let static_eval = root.evaluate_by(&evaluator);
        let fallback = last_resort.map(|mv| Info::unsearched(root.move_string(mv), static_eval));
        // A baseline mover answers at once, with no deadline of its own to keep; a search
        // that ponders learns its deadline only at the `ponderhit`.
        let hard = limits.deadlines().hard.filter(|_| job.mover.searches());
        let since = limits.since.unwrap_or_else(Instant::now);
        let pondering = flags
            .pondering_flag()
            .load(std::sync::atomic::Ordering::Relaxed);
        let deadline = hard
            .filter(|_| !pondering)
            .map(|hard| (since + hard, Arc::clone(&self.lateness)));
        let answer = Arc::new(Answer::new(
            listener,
            flags.clone(),
            fallback,
            job.ponder_move,
            deadline,
        ));
        if let Some(hard) = hard.filter(|_| watched) {
            answer::watch(Arc::clone(&answer), since, hard, limits.move_overhead);
        }
        (answer, last_resort)
    }

    fn searcher(&self) -> std::sync::MutexGuard<'_, Searcher<G>> {
        // A panic in a search thread must not take the session down with it.
        self.searcher.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<G: Playable> Session for GameSession<G> {
    fn variant(&self) -> Variant {
        G::VARIANT
    }

    fn set_position(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
    ) -> Result<MovesApplied, PositionError> {
        // A match sends the whole game before every move: when it only adds moves to the
        // position set last, only those are played, so that the time to read the position
        // does not grow with the length of the game.
        let extends =
            |line: &PositionLine| line.fen.as_deref() == fen && moves.starts_with(&line.moves);
        let mut line = match self.line.take() {
            Some(line) if extends(&line) => line,
            _ => PositionLine {
                fen: fen.map(str::to_owned),
                moves: Vec::new(),
            },
        };
        let played = line.moves.len();
        let mut game = match (played, fen) {
            (1.., _) => self.game.clone(),
            (0, Some(text)) => match G::parse_position(text) {
                Ok(game) => game,
                Err(error) => {
                    self.line = None;
                    return Err(error);
                }
            },
            (0, None) => G::start(),
        };
        let mut applied = MovesApplied::All;
        let mut forfeit = None;
        let mut last_move = if played > 0 { self.last_move } else { None };
        for (index, text) in moves.iter().enumerate().skip(played) {
            let ply = index + 1;
            if game.outcome().is_some() || forfeit.is_some() {
                applied = MovesApplied::AfterEnd {
                    ply,
                    text: text.clone(),
                };
                break;
            }
            match game.parse_move(text) {
                Ok(mv) => {
                    game.make_move(mv);
                    last_move = Some(mv);
                }
                Err(error) => {
                    // The forfeit ends the game: it is the one move to report.
                    forfeit = Some(game.side_to_move());
                    applied = MovesApplied::Forfeit {
                        ply,
                        text: text.clone(),
                        reason: error.to_string(),
                    };
                    break;
                }
            }
        }
        if applied == MovesApplied::All {
            line.moves.extend_from_slice(&moves[played..]);
            self.line = Some(line);
        }
        self.game = game;
        self.forfeit = forfeit;
        self.last_move = last_move;
        Ok(applied)
    }

    fn fen(&self) -> String {
        self.game.position_string()
    }

    fn position_line(&self) -> Option<(Option<String>, Vec<String>)> {
        let line = self.line.as_ref()?;
        Some((line.fen.clone(), line.moves.clone()))
    }

    fn diagram(&self) -> Vec<String> {
        self.game.diagram()
    }

    fn eval_terms(&self) -> Option<Vec<EvalTerm>> {
        if self.result().is_some() {
            return None;
        }
        let values = feature_values(&self.game);
        Some(
            values
                .into_iter()
                .zip(G::weights())
                .enumerate()
                .map(|(index, (value, &weight))| EvalTerm {
                    feature: G::feature_name(index),
                    value,
                    weight,
                })
                .collect(),
        )
    }

    fn network_eval(&self) -> Option<NetworkEval> {
        let (network, source) = self.network.as_ref()?;
        if self.result().is_some() {
            return None;
        }
        let evaluator = Evaluator::Network(Arc::clone(network));
        Some(NetworkEval {
            value: self.game.evaluate_by(&evaluator),
            source: source.clone(),
            in_use: self.use_network,
        })
    }

    fn table_view(&self) -> Option<TableView> {
        if self.result().is_some() {
            return None;
        }
        let oracle = self.oracle.as_deref()?;
        let value = oracle.probe(&self.game)?;
        let moves = oracle.rank_moves(&self.game)?;
        Some(TableView {
            value,
            moves: (moves.into_iter())
                .map(|ranked| (self.game.move_string(ranked.mv), ranked.exact))
                .collect(),
        })
    }

    fn svg(&self) -> String {
        self.game.svg(self.last_move)
    }

    fn side_to_move(&self) -> Player {
        self.game.side_to_move()
    }

    fn result(&self) -> Option<Outcome> {
        match self.forfeit {
            Some(loser) => Some(Outcome::Win(loser.opponent())),
            None => self.game.outcome(),
        }
    }

    fn result_reason(&self) -> Option<String> {
        match self.forfeit {
            Some(Player::P1) => Some("the first player played an illegal move".to_owned()),
            Some(Player::P2) => Some("the second player played an illegal move".to_owned()),
            None => self.game.ending().map(str::to_owned),
        }
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.forfeit.is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.game.generate_moves(&mut moves);
        moves.iter().map(|&mv| self.game.move_string(mv)).collect()
    }

    fn legal_among(&self, moves: &[String]) -> (Vec<String>, Vec<String>) {
        let (mut legal, mut other) = (Vec::new(), Vec::new());
        for text in moves {
            match self.game.parse_move(text) {
                Ok(mv) if self.forfeit.is_none() => legal.push(self.game.move_string(mv)),
                _ => other.push(text.clone()),
            }
        }
        (legal, other)
    }

    fn divide(&mut self, depth: u32, stop: &AtomicBool) -> (Vec<(String, u64)>, u64) {
        if self.forfeit.is_some() {
            return (Vec::new(), 0);
        }
        let counts: Vec<(String, u64)> =
            crate::rules::perft::divide_until(&mut self.game, depth.max(1), stop)
                .into_iter()
                .map(|(mv, n)| (self.game.move_string(mv), n))
                .collect();
        let total = if depth == 0 {
            1
        } else {
            counts.iter().map(|c| c.1).sum()
        };
        (if depth == 0 { Vec::new() } else { counts }, total)
    }

    fn snapshot(&self) -> Box<dyn Session> {
        Box::new(GameSession::<G> {
            game: self.game.clone(),
            line: self.line.clone(),
            forfeit: self.forfeit,
            last_move: self.last_move,
            searcher: Arc::clone(&self.searcher),
            oracle: self.oracle.clone(),
            rng: Arc::clone(&self.rng),
            network: self.network.clone(),
            use_network: self.use_network,
            lateness: Arc::clone(&self.lateness),
        })
    }

    fn clear_hash(&mut self) {
        self.searcher().clear();
    }

    fn resize_hash(&mut self, mib: usize) {
        self.searcher().resize(mib);
    }

    fn set_threads(&mut self, threads: usize) -> usize {
        self.searcher().set_threads(threads)
    }

    fn set_tables(&mut self, tables: &LoadedTables) {
        self.oracle = G::oracle(tables);
        self.searcher().set_oracle(self.oracle.clone());
    }

    fn set_evaluation(&mut self, choice: &EvalChoice) {
        self.network = match &choice.file {
            Some(file) if file.variant == G::VARIANT => {
                Some((Arc::clone(&file.network), file.name.clone()))
            }
            _ => G::shipped_network().map(|network| (network, "built in".to_owned())),
        };
        self.use_network = choice.use_network;
        let evaluator = self.evaluator();
        self.searcher().set_evaluator(evaluator);
    }

    fn reseed(&mut self, seed: u64) {
        // Seed 0 draws as the session always drew before it could be seeded.
        *draws(&self.rng) = fastrand::Rng::with_seed(BASELINE_SEED ^ seed);
    }

    fn start_search(
        &mut self,
        job: SearchJob,
        flags: SearchFlags,
        listener: Listener,
    ) -> JoinHandle<()> {
        if let Some(outcome) = self.result() {
            answer_finished(outcome, &flags, &listener);
            return thread::spawn(|| {});
        }
        let root = self.game.clone();
        let searcher = Arc::clone(&self.searcher);
        let rng = Arc::clone(&self.rng);
        let (limits, options) = self.limits_and_options(&job);
        let (answer, last_resort) =
            self.answer(&root, &limits, &job, &flags, listener, &options, true);
        let mut told = Told::new(root, answer, job.multipv <= 1, job.ponder_move);
        thread::spawn(move || {
            let root = told.root.clone();
            let searched = panic::catch_unwind(AssertUnwindSafe(|| {
                let told = std::cell::RefCell::new(&mut told);
                let report = |root_move| told.borrow().root_move(root_move);
                let request = Request {
                    searcher: &mut searcher.lock().unwrap_or_else(PoisonError::into_inner),
                    search: SearchRequest {
                        limits,
                        options,
                        control: flags.control(&report),
                    },
                    levels: G::LEVELS,
                    tables_first: job.tables_first,
                };
                job.mover
                    .choose(&root, request, &mut draws(&rng), &mut |info| {
                        told.borrow_mut().info(info);
                    })
            }));
            let line = match searched {
                Ok(line) => {
                    told.whole_effort(&searcher);
                    line
                }
                Err(fault) => told.fault(&*fault, &searcher, last_resort),
            };
            // `go infinite` and `go ponder`: the best move is due only after `stop`, or
            // after `ponderhit` once the search is done.
            flags.wait_for_release();
            told.best_move(&line);
        })
    }

    fn start_sliced(
        &mut self,
        job: SearchJob,
        flags: SearchFlags,
        listener: Listener,
    ) -> Box<dyn SlicedSearch> {
        if let Some(outcome) = self.result() {
            answer_finished(outcome, &flags, &listener);
            return Box::new(Answered);
        }
        let root = self.game.clone();
        let (limits, options) = self.limits_and_options(&job);
        let (answer, last_resort) =
            self.answer(&root, &limits, &job, &flags, listener, &options, false);
        let setup = SliceSetup {
            searcher: Arc::clone(&self.searcher),
            rng: Arc::clone(&self.rng),
            limits,
            options,
            last_resort,
        };
        Box::new(Slices::new(root, answer, job, flags, setup))
    }
}

/// The move of last resort, should a search not finish an iteration in time: the one that
/// looks best one ply ahead by the search's own `evaluator`, among `searchmoves` if any
/// (else every legal move). `None` when the game is over.
fn last_resort<G: Playable>(
    root: &G,
    evaluator: &Evaluator,
    searchmoves: &[G::Move],
) -> Option<G::Move> {
    let mut candidates = searchmoves.to_vec();
    if candidates.is_empty() {
        root.generate_moves(&mut candidates);
    }
    baseline::one_ply_best(root, &candidates, |child| child.evaluate_by(evaluator))
}

/// The answer to `go` in a finished game: nothing to search, so it is due at once, even to
/// `go infinite`: how the game ended, then no move.
fn answer_finished(outcome: Outcome, flags: &SearchFlags, listener: &Listener) {
    listener(Event::GameOver(outcome));
    flags.answered();
    listener(Event::BestMove {
        best: None,
        ponder: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random game of `plies` moves (or fewer, if it ends), in notation.
    fn random_line(variant: Variant, plies: usize, seed: u64) -> Vec<String> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut session = new_session(variant, 1);
        let mut line = Vec::new();
        while line.len() < plies {
            let moves = session.legal_moves();
            if moves.is_empty() {
                break;
            }
            line.push(moves[rng.usize(..moves.len())].clone());
            assert_eq!(session.set_position(None, &line), Ok(MovesApplied::All));
        }
        line
    }

    /// What a session shows of its game: the position string, the result and the moves.
    fn state(session: &dyn Session) -> (String, Option<Outcome>, Vec<String>) {
        (session.fen(), session.result(), session.legal_moves())
    }

    fn fresh(variant: Variant, fen: Option<&str>, moves: &[String]) -> Box<dyn Session> {
        let mut session = new_session(variant, 1);
        session.set_position(fen, moves).expect("a good position");
        session
    }

    #[test]
    fn searchmoves_are_checked_by_the_games_own_reading() {
        for variant in Variant::ALL {
            let mut session = new_session(variant, 1);
            let legal = session.legal_moves();
            let given = vec![
                legal[0].clone(),
                "nonsense".into(),
                legal[legal.len() - 1].clone(),
            ];
            let (usable, refused) = session.legal_among(&given);
            assert_eq!(usable, [legal[0].clone(), legal[legal.len() - 1].clone()]);
            assert_eq!(refused, ["nonsense"]);
            // After a forfeit no move is legal: every one given is refused.
            let applied = session.set_position(None, &["nonsense".to_owned()]);
            assert!(matches!(applied, Ok(MovesApplied::Forfeit { .. })));
            assert_eq!(session.legal_among(&given).0, Vec::<String>::new());
        }
    }

    /// The answer to `go movetime 50` (with `searchmoves`) in Lielow's `position` when the
    /// search thread cannot start (the searcher is held): only the watchdog can answer.
    fn answer_of_a_starved_search(position: Option<&str>, searchmoves: &[&str]) -> String {
        use crate::games::lielow::Lielow8;
        use std::sync::mpsc;
        let mut session = GameSession::<Lielow8>::new(1);
        session.set_position(position, &[]).unwrap();
        let held = Arc::clone(&session.searcher);
        let guard = held.lock().unwrap();
        let (sender, events) = mpsc::channel();
        let sender = Mutex::new(sender);
        let listener: Listener = Arc::new(move |event| {
            let _ = sender.lock().unwrap().send(event);
        });
        let job = SearchJob {
            limits: crate::search::Limits {
                movetime: Some(std::time::Duration::from_millis(50)),
                since: Some(Instant::now()),
                ..Default::default()
            },
            searchmoves: searchmoves.iter().map(|mv| mv.to_string()).collect(),
            ..SearchJob::default()
        };
        let flags = SearchFlags::default();
        let search = session.start_search(job, flags.clone(), listener);
        let first = events.recv().expect("the watchdog's info line");
        assert!(
            matches!(&first, Event::Info(info) if info.depth == 0),
            "{first:?}"
        );
        let answer = events.recv().expect("the watchdog's answer");
        assert!(flags.is_stopped(), "the watchdog stops the search");
        assert!(
            !search.is_finished(),
            "answered while the search thread waits"
        );
        // Let it go: it ends at once, and nothing more is said.
        drop(guard);
        search.join().expect("the search thread");
        assert_eq!(events.try_iter().count(), 0);
        match answer {
            Event::BestMove { best: Some(mv), .. } => mv,
            other => panic!("no best move: {other:?}"),
        }
    }

    #[test]
    fn a_search_starved_of_its_thread_still_answers_at_its_deadline() {
        let start = new_session(Variant::Lielow, 1).legal_moves();
        assert!(start.contains(&answer_of_a_starved_search(None, &[])));
    }

    #[test]
    fn the_answer_of_last_resort_is_the_move_best_one_ply_ahead() {
        // The spec's test fact: of Blue's eight moves, d3d5 takes the Red king and wins.
        let king_capture = Some("8/8/8/3r2*4/8/3b2*4/8/8 b");
        let mut session = new_session(Variant::Lielow, 1);
        session.set_position(king_capture, &[]).unwrap();
        assert_ne!(
            session.legal_moves()[0],
            "d3d5",
            "not merely the first legal move"
        );
        assert_eq!(answer_of_a_starved_search(king_capture, &[]), "d3d5");
        // Among `searchmoves` only, even when another move wins.
        let among = ["d3b1", "d3f1"];
        assert!(among.contains(&answer_of_a_starved_search(king_capture, &among).as_str()));
    }

    #[test]
    fn a_position_that_extends_the_last_one_equals_one_set_from_scratch() {
        for variant in Variant::ALL {
            let line = random_line(variant, 120, 7);
            let mut session = new_session(variant, 1);
            // The game grows as a match sends it: only the new moves are played each time.
            for end in 0..=line.len() {
                session.set_position(None, &line[..end]).unwrap();
                assert_eq!(
                    state(&*session),
                    state(&*fresh(variant, None, &line[..end])),
                    "{variant} after {end} moves"
                );
            }
            // Taken back, branched off, or from another start: set from scratch.
            let half = &line[..line.len() / 2];
            session.set_position(None, half).unwrap();
            assert_eq!(state(&*session), state(&*fresh(variant, None, half)));
            let start = fresh(variant, None, &line[..2]).fen();
            session.set_position(Some(&start), &line[2..4]).unwrap();
            assert_eq!(
                state(&*session),
                state(&*fresh(variant, Some(&start), &line[2..4]))
            );
            let mut branch = line[..3].to_vec();
            branch.push("not-a-move".into());
            let forfeited = session.set_position(None, &branch).unwrap();
            assert!(
                matches!(forfeited, MovesApplied::Forfeit { ply: 4, .. }),
                "{variant}: {forfeited:?}"
            );
            // After a forfeit the next position is read from scratch, moves and all.
            session.set_position(None, &line[..5]).unwrap();
            assert_eq!(state(&*session), state(&*fresh(variant, None, &line[..5])));
            // A bad position string changes nothing.
            assert!(session.set_position(Some("nonsense"), &[]).is_err());
            assert_eq!(state(&*session), state(&*fresh(variant, None, &line[..5])));
            session.set_position(None, &line[..6]).unwrap();
            assert_eq!(state(&*session), state(&*fresh(variant, None, &line[..6])));
        }
    }
}
