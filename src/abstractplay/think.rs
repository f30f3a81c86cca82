//! The bot's move in a game rebuilt from a move request: one engine session searches it for
//! the time the request's clock allows, and the answer goes back in AbstractPlay's
//! notation, with what a log line says of it (the score and the time taken); and when a
//! bot in a lost game resigns ([`Resign`]).

use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::payload::Rebuilt;
use crate::engine::{Event, Listener, SearchFlags, SearchJob, new_session};
use crate::games::Variant;
use crate::games::lielow::abstractplay::to_abstractplay;
use crate::games::lielow::{Lielow8, Lielow9};
use crate::rules::{Notation, Rules};
use crate::search::mover::Mover;
use crate::search::{Limits, Score};

/// What the engine chose, for the request's answer and its log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The move in AbstractPlay's notation.
    pub abstractplay: String,
    /// The same move in ternion's.
    pub ternion: String,
    /// The last reported score, as the protocol writes it (`cp 12`, `mate 3`).
    pub score: Option<String>,
    /// The same score, for the bot's own judgement (whether to resign).
    pub value: Option<Score>,
    pub took: Duration,
}

/// How the bot's engine is set up.
#[derive(Clone, Copy, Debug)]
pub struct EngineSetup {
    pub threads: usize,
    pub hash_mib: usize,
    /// How strong it plays: the protocol's `Skill Level` (0 to 20, 20 the full engine), or
    /// the level nearest an Elo on the game's scale (`UCI_Elo`).
    pub strength: Strength,
}

/// When the bot resigns, as lichess-bot does: its own search's score at or below
/// `-score` centipawns for `moves` of its moves in a row, or a proven loss at once. A game
/// AbstractPlay's Lielow cannot draw is otherwise played on for hundreds of plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resign {
    /// Centipawns behind (100 is about one stack).
    pub score: i32,
    pub moves: u32,
}

impl Resign {
    /// The default: ten stacks behind for three moves in a row.
    pub const DEFAULT: Resign = Resign {
        score: 1000,
        moves: 3,
    };

    /// Whether a move of this `value` is lost enough to count towards resigning.
    pub fn is_lost(self, value: Option<Score>) -> bool {
        match value {
            Some(Score::Centipawns(cp)) => cp <= -self.score,
            Some(Score::Mate(plies)) => plies < 0,
            None => false,
        }
    }

    /// Whether to resign now, `lost_in_a_row` of the bot's moves (this one included) lost
    /// enough, this one worth `value`.
    pub fn now(self, value: Option<Score>, lost_in_a_row: u32) -> bool {
        matches!(value, Some(Score::Mate(plies)) if plies < 0)
            || (self.is_lost(value) && lost_in_a_row >= self.moves)
    }
}

/// How strong the bot plays, one account at one strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    Skill(u8),
    Elo(u32),
}

impl Strength {
    /// The full engine.
    pub const FULL: Strength = Strength::Skill(crate::search::levels::MAX_LEVEL);

    /// What picks the move in `variant`.
    fn mover(self, variant: Variant) -> Mover {
        Mover::at_level(match self {
            Strength::Skill(level) => level,
            Strength::Elo(elo) => crate::games::strength::nearest_level(variant, elo),
        })
    }
}

/// A time by which running searches must end, set while the bot stops (`None` until
/// then): each search polls it and is cut short when it has come.
pub type CutShort = std::sync::Mutex<Option<Instant>>;

/// Searches `game` for `think` and returns the move; the error says why there is none.
pub fn choose(game: &Rebuilt, think: Duration, setup: EngineSetup) -> Result<Chosen, String> {
    choose_until(game, think, setup, &CutShort::new(None))
}

/// [`choose`], the search cut short once the time in `cut` has come.
pub fn choose_until(
    game: &Rebuilt,
    think: Duration,
    setup: EngineSetup,
    cut: &CutShort,
) -> Result<Chosen, String> {
    let started = Instant::now();
    let mut session = new_session(game.variant, setup.hash_mib);
    session.set_threads(setup.threads);
    session
        .set_position(None, &game.moves)
        .map_err(|e| format!("the game does not replay: {e}"))?;
    let (events, received) = mpsc::channel();
    let listener: Listener = std::sync::Arc::new(move |event| {
        let _ = events.send(event);
    });
    let job = SearchJob {
        limits: Limits {
            movetime: Some(think.max(Duration::from_millis(1))),
            ..Limits::default()
        },
        multipv: 1,
        mover: setup.strength.mover(game.variant),
        ..SearchJob::default()
    };
    let flags = SearchFlags::new(false, false);
    let search = session.start_search(job, flags.clone(), listener);
    let mut value = None;
    let mut best = None;
    loop {
        let event = match received.recv_timeout(Duration::from_millis(20)) {
            Ok(event) => event,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let due = *cut
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if due.is_some_and(|due| Instant::now() >= due) {
                    flags.stop();
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        match event {
            Event::Info(info) => value = Some(info.score),
            Event::BestMove { best: found, .. } => {
                best = found;
                break;
            }
            _ => {}
        }
    }
    let _ = search.join();
    let ternion = best.ok_or("the game is over: no move to play")?;
    let abstractplay = in_abstractplay(game, &ternion)?;
    Ok(Chosen {
        abstractplay,
        ternion,
        score: value.map(crate::protocol::format::score),
        value,
        took: started.elapsed(),
    })
}

/// `ternion_move`, legal after `game`'s moves, in AbstractPlay's notation.
fn in_abstractplay(game: &Rebuilt, ternion_move: &str) -> Result<String, String> {
    fn written<G: Notation + Rules>(
        mut position: G,
        moves: &[String],
        last: &str,
        write: impl Fn(&G, G::Move) -> String,
    ) -> Result<String, String> {
        position
            .play_moves(moves.iter().map(String::as_str))
            .map_err(|(ply, e)| format!("ply {}: {e}", ply + 1))?;
        let mv = position.parse_move(last).map_err(|e| e.to_string())?;
        Ok(write(&position, mv))
    }
    match game.variant {
        Variant::Lielow => written(Lielow8::start(), &game.moves, ternion_move, to_abstractplay),
        Variant::Lielow9 => written(Lielow9::start(), &game.moves, ternion_move, to_abstractplay),
        other => Err(format!("{other} is not played on AbstractPlay by ternion")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lielow::abstractplay::from_abstractplay;

    #[test]
    fn the_move_chosen_is_legal_and_in_abstractplays_notation() {
        let setup = EngineSetup {
            threads: 1,
            hash_mib: 4,
            strength: Strength::FULL,
        };
        for (variant, moves) in [
            (Variant::Lielow, vec!["a2a3".to_owned(), "b7b6".to_owned()]),
            (Variant::Lielow9, Vec::new()),
        ] {
            let game = Rebuilt { variant, moves };
            let chosen = choose(&game, Duration::from_millis(50), setup).unwrap();
            let legal = match variant {
                Variant::Lielow => {
                    let mut position = Lielow8::start();
                    position
                        .play_moves(game.moves.iter().map(String::as_str))
                        .unwrap();
                    from_abstractplay(&position, &chosen.abstractplay)
                        .map(|m| position.move_string(m))
                }
                _ => {
                    let position = Lielow9::start();
                    from_abstractplay(&position, &chosen.abstractplay)
                        .map(|m| position.move_string(m))
                }
            };
            assert_eq!(legal, Ok(chosen.ternion.clone()), "{chosen:?}");
            assert!(chosen.score.is_some(), "{chosen:?}");
        }
    }

    #[test]
    fn a_weaker_strength_plays_other_moves_than_the_full_engine() {
        let at = |strength| EngineSetup {
            threads: 1,
            hash_mib: 4,
            strength,
        };
        let mut differs = 0;
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..12 {
            let mut position = Lielow8::start();
            let mut moves = Vec::new();
            let mut list = Vec::new();
            for _ in 0..6 {
                list.clear();
                position.generate_moves(&mut list);
                let mv = list[rng.usize(..list.len())];
                moves.push(position.move_string(mv));
                position.make_move(mv);
            }
            let game = Rebuilt {
                variant: Variant::Lielow,
                moves,
            };
            let full = choose(&game, Duration::from_millis(30), at(Strength::FULL)).unwrap();
            let weak = choose(&game, Duration::from_millis(30), at(Strength::Skill(0))).unwrap();
            let rated = choose(&game, Duration::from_millis(30), at(Strength::Elo(300))).unwrap();
            assert!(
                position.parse_move(&weak.ternion).is_ok()
                    && position.parse_move(&rated.ternion).is_ok()
            );
            differs += usize::from(full.ternion != weak.ternion);
        }
        assert!(
            differs > 0,
            "Skill Level 0 played the full engine's every move"
        );
    }

    #[test]
    fn a_bot_resigns_after_enough_lost_moves_in_a_row_or_a_proven_loss() {
        let resign = Resign {
            score: 500,
            moves: 3,
        };
        let cp = |cp| Some(Score::Centipawns(cp));
        assert!(resign.is_lost(cp(-500)) && !resign.is_lost(cp(-499)) && !resign.is_lost(None));
        assert!(!resign.now(cp(-900), 2) && resign.now(cp(-900), 3));
        assert!(!resign.now(cp(-100), 5), "a move not lost never resigns");
        assert!(
            resign.now(Some(Score::Mate(-3)), 1),
            "a proven loss resigns at once"
        );
        assert!(!resign.now(Some(Score::Mate(3)), 9));
    }
}
