//! The webhooks AbstractPlay sends a bot, read (after their signature held: see
//! `verify`), and what ternion makes of them: whether it takes a challenge, and the game a
//! move request stands for, rebuilt from its rounds alone.
//!
//! A challenge (`verb: challenge`) names the game (`metaGame`), its variants and the clock
//! in hours; a move request (`verb: move`) adds the game's id, the bot's clock in hours
//! (`clockCurr`) and every move so far as rounds, each round the players' moves in seat
//! order. ternion takes `lielow` on 8x8 (no variant) and on 9x9 (`size-9`), nothing else.
//! The bot keeps no state: each request carries the whole game.

use std::time::Duration;

use serde::Deserialize;

use crate::core::printable::echo;

use crate::games::Variant;
use crate::games::lielow::abstractplay::from_abstractplay;
use crate::games::lielow::geometry::Geometry;
use crate::games::lielow::{Lielow, Lielow8, Lielow9};
use crate::rules::{Notation, Rules};

/// The largest webhook body read: a Lielow game's history is a few kilobytes.
pub const MAX_BODY: usize = 256 * 1024;

/// A webhook's body.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "verb", rename_all = "lowercase")]
pub enum Webhook {
    Challenge(Challenge),
    Move(MoveRequest),
}

/// Someone challenges the bot.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Challenge {
    pub meta_game: String,
    #[serde(default)]
    pub variants: Vec<String>,
    /// The clock at the start, its increment and its most, in hours.
    #[serde(default)]
    pub clock_start: f64,
    #[serde(default)]
    pub clock_inc: f64,
    #[serde(default)]
    pub clock_max: f64,
    #[serde(default)]
    pub challengers: Vec<String>,
}

/// It is the bot's turn in a game.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MoveRequest {
    pub meta_game: String,
    #[serde(default)]
    pub variants: Vec<String>,
    pub gameid: String,
    /// The bot's clock, in hours.
    pub clock_curr: f64,
    #[serde(default = "two")]
    pub num_players: u32,
    /// Every move so far: rounds, each the players' moves in seat order.
    pub moves: Vec<Vec<String>>,
}

/// Whether `id` may be a game's id: AbstractPlay's are UUIDs; at most 64 letters, digits,
/// `-`, `_` and `.` are taken, so that whatever a request names a game goes into the log as
/// it is, on one line.
pub fn is_game_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && (id.bytes()).all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}

/// A request's game and variants for a message, each echoed (cut, on one line).
fn game_words(request: &MoveRequest) -> String {
    let variants: Vec<String> = request.variants.iter().map(|v| echo(v)).collect();
    format!("'{}' {variants:?}", echo(&request.meta_game))
}

/// The most a move is thought on when AbstractPlay reports a clock of 0 hours (under half
/// an hour left).
pub const UNDER_HALF_AN_HOUR: Duration = Duration::from_secs(2);

fn two() -> u32 {
    2
}

impl Webhook {
    /// Reads a webhook's body; the error is one line.
    pub fn parse(body: &[u8]) -> Result<Webhook, String> {
        if body.len() > MAX_BODY {
            return Err(format!("a body of {} bytes, above {MAX_BODY}", body.len()));
        }
        serde_json::from_slice(body).map_err(|e| format!("not a webhook: {e}"))
    }
}

/// The variant AbstractPlay's `meta_game` and `variants` name, if ternion plays it.
pub fn variant_of(meta_game: &str, variants: &[String]) -> Option<Variant> {
    match (meta_game, variants) {
        ("lielow", []) => Some(Variant::Lielow),
        ("lielow", [size]) if size == "size-9" => Some(Variant::Lielow9),
        _ => None,
    }
}

/// A game rebuilt from a move request: its variant and its moves in ternion's notation,
/// for `position startpos moves ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rebuilt {
    pub variant: Variant,
    pub moves: Vec<String>,
}

impl Rebuilt {
    /// The position the moves reach, in ternion's position notation (for the log).
    pub fn position(&self) -> String {
        fn after<G: Notation + Rules>(mut game: G, moves: &[String]) -> String {
            match game.play_moves(moves.iter().map(String::as_str)) {
                Ok(()) => game.position_string(),
                Err((ply, e)) => format!("(ply {} does not replay: {e})", ply + 1),
            }
        }
        match self.variant {
            Variant::Lielow9 => after(Lielow9::start(), &self.moves),
            _ => after(Lielow8::start(), &self.moves),
        }
    }
}

impl MoveRequest {
    /// The game the request's rounds make, each move read in AbstractPlay's notation and
    /// checked by ternion's rules; the error names the first move that does not replay.
    /// A game that is over, or whose turn is not the bot's to play, is refused too.
    pub fn rebuild(&self) -> Result<Rebuilt, String> {
        if !is_game_id(&self.gameid) {
            return Err(format!("not a game id: '{}'", echo(&self.gameid)));
        }
        let variant = variant_of(&self.meta_game, &self.variants)
            .ok_or_else(|| format!("{} is not a game ternion plays", game_words(self)))?;
        if self.num_players != 2 {
            return Err(format!("{} players, not 2", self.num_players));
        }
        let moves = match variant {
            Variant::Lielow9 => replay(Lielow9::start(), &self.moves)?,
            _ => replay(Lielow8::start(), &self.moves)?,
        };
        Ok(Rebuilt { variant, moves })
    }

    /// The time to think on this move: `budget`, but never more than a tenth of the least
    /// the clock may hold. AbstractPlay sends the bot's clock in whole hours, rounded
    /// (`Math.round(ms / 3_600_000)`, `lib/botOutbound.ts`): `n` hours may be as little as
    /// `n - 0.5`, and 0 says only that less than half an hour is left, perhaps seconds; then
    /// the bot thinks at most [`UNDER_HALF_AN_HOUR`].
    pub fn think_time(&self, budget: Duration) -> Duration {
        if self.clock_curr.is_nan() || self.clock_curr < 0.5 {
            return budget.min(UNDER_HALF_AN_HOUR);
        }
        let least =
            Duration::try_from_secs_f64((self.clock_curr - 0.5) * 3600.0).unwrap_or(Duration::MAX);
        budget.min(least / 10)
    }
}

/// `rounds` played from `game`, in ternion's notation; the game must go on after them.
fn replay<G: Geometry>(mut game: Lielow<G>, rounds: &[Vec<String>]) -> Result<Vec<String>, String> {
    let mut moves = Vec::new();
    for (round, played) in rounds.iter().enumerate() {
        for text in played {
            if game.outcome().is_some() {
                return Err(format!(
                    "round {}: '{text}' after the game ended",
                    round + 1
                ));
            }
            let mv =
                from_abstractplay(&game, text).map_err(|e| format!("round {}: {e}", round + 1))?;
            moves.push(game.move_string(mv));
            game.make_move(mv);
        }
    }
    if game.outcome().is_some() {
        return Err("the game is over".to_owned());
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_are_read_and_only_lielow_taken() {
        let body = br#"{"verb":"challenge","metaGame":"lielow","variants":["size-9"],"clockStart":72,"clockInc":24,"clockMax":168,"challengers":["p"]}"#;
        let Webhook::Challenge(challenge) = Webhook::parse(body).unwrap() else {
            panic!("a challenge")
        };
        assert_eq!(challenge.clock_start, 72.0);
        assert_eq!(
            variant_of(&challenge.meta_game, &challenge.variants),
            Some(Variant::Lielow9)
        );
        let some = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(variant_of("lielow", &[]), Some(Variant::Lielow));
        for (game, variants) in [
            ("lielow", some(&["size-7"])),
            ("abande", some(&[])),
            ("lielow", some(&["size-9", "x"])),
        ] {
            assert_eq!(variant_of(game, &variants), None, "{game} {variants:?}");
        }
        for bad in [
            &b"{}"[..],
            b"not json",
            br#"{"verb":"resign"}"#,
            br#"{"verb":"move","metaGame":"lielow"}"#,
        ] {
            assert!(
                Webhook::parse(bad).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
        assert!(
            Webhook::parse(&vec![b' '; MAX_BODY + 1])
                .unwrap_err()
                .contains("above")
        );
    }

    #[test]
    fn a_game_is_rebuilt_from_its_rounds_alone() {
        let body = br#"{"verb":"move","metaGame":"lielow","variants":[],"gameid":"g1","clockCurr":48,"numPlayers":2,"moves":[["a2-a3","b7-b6"],["a3-a5"]]}"#;
        let Webhook::Move(request) = Webhook::parse(body).unwrap() else {
            panic!("a move request")
        };
        let rebuilt = request.rebuild().unwrap();
        assert_eq!(rebuilt.variant, Variant::Lielow);
        assert_eq!(rebuilt.moves, ["a2a3", "b7b6", "a3a5"]);
        // 48 hours allow any budget of seconds; a few minutes allow a tenth of them.
        assert_eq!(
            request.think_time(Duration::from_secs(5)),
            Duration::from_secs(5)
        );
        // AbstractPlay's whole hours: 1 may be half an hour, whose tenth is 3 minutes; 0 is
        // under half an hour, perhaps seconds: at most 2 s.
        let hours = |clock_curr: f64| MoveRequest {
            clock_curr,
            ..request.clone()
        };
        let minutes = |m: u64| Duration::from_secs(60 * m);
        assert_eq!(hours(1.0).think_time(minutes(60)), minutes(3));
        assert_eq!(
            hours(1.0).think_time(Duration::from_secs(5)),
            Duration::from_secs(5)
        );
        for clock in [0.0, -1.0, f64::NAN] {
            assert_eq!(hours(clock).think_time(minutes(1)), UNDER_HALF_AN_HOUR);
            let short = Duration::from_millis(300);
            assert_eq!(hours(clock).think_time(short), short);
        }
        // A move that is not legal, or written with the wrong separator, does not replay.
        for (rounds, error) in [
            (
                vec![vec!["a2-a5".to_string()]],
                "round 1: 'a2-a5' is not legal here",
            ),
            (
                vec![vec!["a2xa3".to_string()]],
                "round 1: 'a2xa3' is written 'a2-a3' here",
            ),
        ] {
            let bad = MoveRequest {
                moves: rounds,
                ..request.clone()
            };
            assert!(
                bad.rebuild().unwrap_err().starts_with(error),
                "{:?}",
                bad.rebuild()
            );
        }
        let nine = MoveRequest {
            variants: vec!["size-9".into()],
            moves: vec![vec!["i3-i4".into()]],
            ..request
        };
        assert_eq!(nine.rebuild().unwrap().moves, ["i3i4"]);
    }

    #[test]
    fn a_game_id_that_is_no_id_is_refused_and_echoed_on_one_line() {
        let body = br#"{"verb":"move","metaGame":"lielow","gameid":"g","clockCurr":2,"moves":[]}"#;
        let Webhook::Move(request) = Webhook::parse(body).unwrap() else {
            panic!("a move request")
        };
        assert!(request.rebuild().is_ok());
        assert!(is_game_id("0f8fad5b-d9cb-469f-a165-70867728950e"));
        let long = "x".repeat(200_000);
        for id in ["", "a\nINFO forged line", "g 1", &long] {
            let bad = MoveRequest {
                gameid: id.to_owned(),
                ..request.clone()
            };
            let why = bad.rebuild().unwrap_err();
            assert!(why.starts_with("not a game id"), "{why}");
            assert!(why.len() < 100 && !why.contains('\n'), "{why}");
        }
    }
}
