//! The bot's move in a game rebuilt from a move request: one engine session searches it for
//! the time the request's clock allows, and the answer goes back in AbstractPlay's
//! notation, with what a log line says of it (the score and the time taken).

use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::payload::Rebuilt;
use crate::engine::{Event, Listener, SearchFlags, SearchJob, new_session};
use crate::games::Variant;
use crate::games::lielow::abstractplay::to_abstractplay;
use crate::games::lielow::{Lielow8, Lielow9};
use crate::rules::{Notation, Rules};
use crate::search::Limits;

/// What the engine chose, for the request's answer and its log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The move in AbstractPlay's notation.
    pub abstractplay: String,
    /// The same move in ternion's.
    pub ternion: String,
    /// The last reported score, as the protocol writes it (`cp 12`, `mate 3`).
    pub score: Option<String>,
    pub took: Duration,
}

/// How the bot's engine is set up.
#[derive(Clone, Copy, Debug)]
pub struct EngineSetup {
    pub threads: usize,
    pub hash_mib: usize,
}

/// Searches `game` for `think` and returns the move; the error says why there is none.
pub fn choose(game: &Rebuilt, think: Duration, setup: EngineSetup) -> Result<Chosen, String> {
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
        ..SearchJob::default()
    };
    let search = session.start_search(job, SearchFlags::new(false, false), listener);
    let mut score = None;
    let mut best = None;
    for event in received {
        match event {
            Event::Info(info) => score = Some(crate::protocol::format::score(info.score)),
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
        score,
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
}
