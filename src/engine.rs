//! The protocol-free engine facade: one game in progress, its search, and everything the
//! protocol asks of them, in the text forms of the game.
//!
//! A [`Session`] hides the concrete game type behind a small object-safe trait, so that the
//! protocol can switch variants at run time; inside, everything is generic and
//! monomorphised. Searches run on a worker thread with a stop flag; their output goes
//! through a line sink, so tests can capture every line. A panic inside a search is caught
//! at the thread's edge: the `go` is still answered, with the best move found so far.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crate::game::{GameText, GameVisitor, Outcome, Player, PositionError, Variant};
use crate::search::baseline::{self, Play};
use crate::search::report::info_line;
use crate::search::{Control, Limits, RootOptions, Searcher};
use crate::tables::TableSet;

/// Where output lines go (stdout in the daemon, a buffer in tests).
pub type Sink = Arc<dyn Fn(String) + Send + Sync>;

/// The flags shared with a search thread.
#[derive(Clone, Debug, Default)]
pub struct SearchFlags {
    /// Set by the protocol to end the search.
    pub stop: Arc<AtomicBool>,
    /// Set while the search ponders (`go ponder`): no deadline holds and the best move
    /// waits, until the protocol clears it (`ponderhit`) or stops the search.
    pub pondering: Arc<AtomicBool>,
    /// Wait for `stop` before giving the best move (`go infinite`).
    pub wait_for_stop: bool,
    /// Set by the search thread just before it sends the best move.
    pub done: Arc<AtomicBool>,
}

/// What `go` asks of a search, beyond its limits.
#[derive(Clone, Debug, Default)]
pub struct SearchJob {
    pub limits: Limits,
    /// Root moves to consider, in notation, each legal here (empty: all).
    pub searchmoves: Vec<String>,
    /// The number of best root moves to report (MultiPV), at least 1.
    pub multipv: usize,
    /// Whether `bestmove` may carry the expected reply (`ponder <move>`).
    pub ponder_move: bool,
    /// A fault injected for tests: the search panics after its first `info` line.
    #[doc(hidden)]
    pub panic_after_first_info: bool,
}

/// How setting a position ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesApplied {
    /// Every move was played.
    All,
    /// The move at `ply` (1-based) was illegal or unreadable: the side that was to play it
    /// has forfeited the game.
    Forfeit {
        ply: usize,
        text: String,
        reason: String,
    },
    /// The game was over before the move at `ply`: it and all after it were ignored.
    AfterEnd { ply: usize, text: String },
}

/// One game in progress, of a variant chosen at run time.
pub trait Session: Send {
    fn variant(&self) -> Variant;
    /// Sets the position: the start or a position string, then moves. On a bad position
    /// string nothing changes.
    fn set_position(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
    ) -> Result<MovesApplied, PositionError>;
    fn fen(&self) -> String;
    /// The picture of the position for people, line by line.
    fn diagram(&self) -> Vec<String>;
    /// The position's SVG picture, the last move of the `position` command marked.
    fn svg(&self) -> String;
    fn side_to_move(&self) -> Player;
    /// The result by the rules or by forfeit, `None` while the game goes on.
    fn result(&self) -> Option<Outcome>;
    /// The legal moves in canonical notation, in a stable order (none once the game is over).
    fn legal_moves(&self) -> Vec<String>;
    /// The perft count below each legal move, and the total. Once `stop` is set it ends
    /// early, with the moves counted in full so far and their total.
    fn divide(&mut self, depth: u32, stop: &AtomicBool) -> (Vec<(String, u64)>, u64);
    /// A copy of the game (sharing the search's table), for work on another thread.
    fn snapshot(&self) -> Box<dyn Session>;
    /// Forgets what the search learned.
    fn clear_hash(&mut self);

    fn resize_hash(&mut self, mib: usize);
    /// Searches with `threads` threads from now on; returns how many now search (fewer
    /// only if the system refused to start more).
    fn set_threads(&mut self, threads: usize) -> usize;
    /// Probes these exact tables in every search from now on (`None`: none); games without
    /// tables ignore them.
    fn set_tables(&mut self, tables: Option<Arc<TableSet>>);
    /// Starts a search of the current position on a worker thread. It sends `info` lines
    /// and finally `bestmove <move>` to `sink`; with `flags.wait_for_stop` the best move
    /// waits for the stop flag even when the search ends by itself, and while
    /// `flags.pondering` is set it waits for that to clear. `flags.done` is set just before
    /// the best move is sent. A panic in the search is reported as
    /// `info string error internal: <detail>`, and the best move found so far (or else the
    /// first legal move) is still given.
    fn start_search(&mut self, job: SearchJob, flags: SearchFlags, sink: Sink) -> JoinHandle<()>;
}

/// A new session of `variant` at its start position, with a table of `hash_mib` MiB and
/// one search thread, choosing its moves as `play` says.
pub fn new_session(variant: Variant, hash_mib: usize, play: Play) -> Box<dyn Session> {
    struct Make(usize, Play);
    impl GameVisitor for Make {
        type Output = Box<dyn Session>;
        fn visit<G: GameText>(self) -> Box<dyn Session> {
            Box::new(GameSession::<G> {
                game: G::start(),
                line: None,
                forfeit: None,
                last_move: None,
                searcher: Arc::new(Mutex::new(Searcher::new(self.0))),
                play: self.1,
                rng: Arc::new(Mutex::new(fastrand::Rng::with_seed(BASELINE_SEED))),
            })
        }
    }
    variant.dispatch(Make(hash_mib, play))
}

/// The seed of the baseline movers: a match against them can be played again move for move.
const BASELINE_SEED: u64 = 0x0074_6572_6e69_6f6e;

/// The baseline movers' generator (a panic elsewhere must not take it down).
fn draws(rng: &Mutex<fastrand::Rng>) -> std::sync::MutexGuard<'_, fastrand::Rng> {
    rng.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The position as the last `position` command gave it, when all its moves were played.
#[derive(Clone, Debug)]
struct PositionLine {
    fen: Option<String>,
    moves: Vec<String>,
}

struct GameSession<G: GameText> {
    game: G,
    /// How `game` was reached, if by a `position` command whose moves were all played.
    line: Option<PositionLine>,
    /// The side that forfeited by an illegal move, if any.
    forfeit: Option<Player>,
    /// The move that led to `game`, if a `position` command played it.
    last_move: Option<G::Move>,
    /// Shared with the search thread while a search runs.
    searcher: Arc<Mutex<Searcher<G>>>,
    play: Play,
    /// The baseline movers' draws, going on from one move to the next.
    rng: Arc<Mutex<fastrand::Rng>>,
}

impl<G: GameText> GameSession<G> {
    fn searcher(&self) -> std::sync::MutexGuard<'_, Searcher<G>> {
        // A panic in a search thread must not take the session down with it.
        self.searcher.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<G: GameText> Session for GameSession<G> {
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

    fn diagram(&self) -> Vec<String> {
        self.game.diagram()
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

    fn legal_moves(&self) -> Vec<String> {
        if self.forfeit.is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.game.generate_moves(&mut moves);
        moves.iter().map(|&mv| self.game.move_string(mv)).collect()
    }

    fn divide(&mut self, depth: u32, stop: &AtomicBool) -> (Vec<(String, u64)>, u64) {
        if self.forfeit.is_some() {
            return (Vec::new(), 0);
        }
        let counts: Vec<(String, u64)> =
            crate::game::perft::divide_until(&mut self.game, depth.max(1), stop)
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
            play: self.play,
            rng: Arc::clone(&self.rng),
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

    fn set_tables(&mut self, tables: Option<Arc<TableSet>>) {
        self.searcher().set_tables(tables);
    }

    fn start_search(&mut self, job: SearchJob, flags: SearchFlags, sink: Sink) -> JoinHandle<()> {
        let root = self.game.clone();
        let searcher = Arc::clone(&self.searcher);
        let (play, rng) = (self.play, Arc::clone(&self.rng));
        let mut job = job;
        if let Some(clock) = &mut job.limits.clock {
            clock.expected_moves = root.expected_moves_left();
        }
        thread::spawn(move || {
            // The best line of the last completed iteration: the answer if the search fails.
            let mut best_line: Vec<G::Move> = Vec::new();
            let searched = panic::catch_unwind(AssertUnwindSafe(|| match play {
                Play::Search => {
                    let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
                    let options = RootOptions {
                        only: job
                            .searchmoves
                            .iter()
                            .filter_map(|text| root.parse_move(text).ok())
                            .collect(),
                        multipv: job.multipv.max(1),
                    };
                    let control = Control {
                        stop: &flags.stop,
                        pondering: &flags.pondering,
                    };
                    let result =
                        searcher.search_with(&root, &job.limits, &options, control, &mut |info| {
                            if info.multipv.unwrap_or(1) == 1 {
                                best_line.clone_from(&info.pv);
                            }
                            sink(info_line(&root, info));
                            if job.panic_after_first_info {
                                panic!("injected fault after the first info line");
                            }
                        });
                    result.pv
                }
                Play::Random => baseline::random_move(&root, &mut draws(&rng))
                    .into_iter()
                    .collect(),
                Play::Greedy => baseline::greedy_move(&root, &mut draws(&rng))
                    .into_iter()
                    .collect(),
            }));
            let line = searched.unwrap_or_else(|fault| {
                sink(format!(
                    "info string error internal: {}",
                    panic_detail(&*fault)
                ));
                // A searcher interrupted half-way may hold half-written state: start afresh.
                searcher
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clear();
                if best_line.is_empty() {
                    let mut moves = Vec::new();
                    root.generate_moves(&mut moves);
                    best_line.extend(moves.first());
                }
                best_line
            });
            // `go infinite` and `go ponder`: the best move is due only after `stop`, or
            // after `ponderhit` once the search is done.
            while (flags.wait_for_stop || flags.pondering.load(Ordering::Relaxed))
                && !flags.stop.load(Ordering::Relaxed)
            {
                thread::sleep(Duration::from_millis(1));
            }
            let mut answer = match line.first() {
                Some(&best) => format!("bestmove {}", root.move_string(best)),
                None => "bestmove (none)".to_owned(),
            };
            if job.ponder_move && line.len() >= 2 {
                let mut after = root.clone();
                after.make_move(line[0]);
                answer.push_str(" ponder ");
                answer.push_str(&after.move_string(line[1]));
            }
            flags.done.store(true, Ordering::Release);
            sink(answer);
        })
    }
}

/// What a panic said, as one short, printable line.
pub fn panic_detail(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message");
    crate::printable::echo(text.lines().next().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random game of `plies` moves (or fewer, if it ends), in notation.
    fn random_line(variant: Variant, plies: usize, seed: u64) -> Vec<String> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut session = new_session(variant, 1, Play::Search);
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
        let mut session = new_session(variant, 1, Play::Search);
        session.set_position(fen, moves).expect("a good position");
        session
    }

    #[test]
    fn a_position_that_extends_the_last_one_equals_one_set_from_scratch() {
        for variant in Variant::ALL {
            let line = random_line(variant, 120, 7);
            let mut session = new_session(variant, 1, Play::Search);
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
