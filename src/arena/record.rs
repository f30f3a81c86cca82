//! Game records: what a match writes for every game, and how to read it back.
//!
//! One block per game: tag lines `[Name "value"]` (the game number, the variant, the
//! engines, the opening, the start position after it, the result and its reason, the final
//! position and the number of plies; with `Stale`, the answers each side sent to no `go`,
//! when there were any), then the engines' moves, several to a line, then a blank line. Tag values escape `"` and `\` with a backslash. Moves are in the game's own
//! notation, so a record replays with nothing but the rules library.

use std::fmt;

use crate::core::{Outcome, Player};
use crate::protocol::format::{outcome_of_word, player_of_word, player_word, result_word};

use crate::games::Variant;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the game (a win, or a draw rule).
    Rules,
    /// The side to move sent a move that does not parse or is not legal.
    IllegalMove { by: Player, text: String },
    /// The side to move answered `bestmove (none)` in a position with legal moves.
    NoMove { by: Player },
    /// The engine's process ended.
    Crash { by: Player },
    /// No `bestmove` (or no handshake answer) within the time allowed.
    Hang { by: Player },
    /// The engine used more than its clock (or its fixed move time).
    FlagFall { by: Player },
    /// The engine could not be started or did not complete the handshake.
    StartFailure { by: Player, detail: String },
}

impl Termination {
    /// Reads back the text [`Display`](fmt::Display) writes (a record's `Reason`).
    pub fn parse(text: &str) -> Option<Termination> {
        if text == "rules" {
            return Some(Termination::Rules);
        }
        if let Some(rest) = text.strip_prefix("illegal move by ") {
            let (side, move_text) = rest.split_once(": ")?;
            return Some(Termination::IllegalMove {
                by: player_of_word(side)?,
                text: move_text.to_owned(),
            });
        }
        if let Some(rest) = text.strip_prefix("no move by ") {
            let side = rest.strip_suffix(" in a live position")?;
            return Some(Termination::NoMove {
                by: player_of_word(side)?,
            });
        }
        let (side, rest) = text.split_once(' ')?;
        let by = player_of_word(side)?;
        Some(match rest {
            "crashed" => Termination::Crash { by },
            "did not answer" => Termination::Hang { by },
            "lost on time" => Termination::FlagFall { by },
            _ => Termination::StartFailure {
                by,
                detail: rest.strip_prefix("failed to start: ")?.to_owned(),
            },
        })
    }

    /// The side whose engine failed, if one did.
    pub fn culprit(&self) -> Option<Player> {
        match *self {
            Termination::Rules => None,
            Termination::IllegalMove { by, .. }
            | Termination::NoMove { by }
            | Termination::Crash { by }
            | Termination::Hang { by }
            | Termination::FlagFall { by }
            | Termination::StartFailure { by, .. } => Some(by),
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules => f.write_str("rules"),
            Termination::IllegalMove { by, text } => {
                write!(f, "illegal move by {}: {text}", player_word(*by))
            }
            Termination::NoMove { by } => {
                write!(f, "no move by {} in a live position", player_word(*by))
            }
            Termination::Crash { by } => write!(f, "{} crashed", player_word(*by)),
            Termination::Hang { by } => write!(f, "{} did not answer", player_word(*by)),
            Termination::FlagFall { by } => write!(f, "{} lost on time", player_word(*by)),
            Termination::StartFailure { by, detail } => {
                write!(f, "{} failed to start: {detail}", player_word(*by))
            }
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// 1-based, in the order the games were scheduled.
    pub number: u32,
    pub variant: Variant,
    /// The engines' names, p1 first.
    pub players: [String; 2],
    /// The opening moves played from the game's start before the engines took over.
    pub opening: Vec<String>,
    /// The position string after the opening: where the engines started.
    pub start: String,
    /// The engines' moves from `start`.
    pub moves: Vec<String>,
    pub outcome: Outcome,
    pub termination: Termination,
    /// The position string at the end.
    pub final_position: String,
    /// The `bestmove` lines each colour sent that answered no `go`, ignored.
    pub stale_answers: [u32; 2],
}

/// Moves per line in the move section.
const MOVES_PER_LINE: usize = 12;

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tags = [
            ("Game", self.number.to_string()),
            ("Variant", self.variant.to_string()),
            ("P1", self.players[0].clone()),
            ("P2", self.players[1].clone()),
            ("Opening", self.opening.join(" ")),
            ("Start", self.start.clone()),
            ("Result", result_word(Some(self.outcome)).to_owned()),
            ("Reason", self.termination.to_string()),
            ("Final", self.final_position.clone()),
            ("Plies", self.moves.len().to_string()),
        ];
        for (name, value) in tags {
            writeln!(f, "[{name} \"{}\"]", escape(&value))?;
        }
        if self.stale_answers != [0, 0] {
            let [p1, p2] = self.stale_answers;
            writeln!(f, "[Stale \"p1 {p1} p2 {p2}\"]")?;
        }
        for line in self.moves.chunks(MOVES_PER_LINE) {
            writeln!(f, "{}", line.join(" "))?;
        }
        writeln!(f)
    }
}

/// A record as read back: the tags by name and the moves. Enough to replay the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedRecord {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
}

impl ParsedRecord {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The recorded result.
    pub fn outcome(&self) -> Option<Outcome> {
        self.tag("Result").and_then(outcome_of_word)
    }

    /// The game as it was written, every tag checked.
    pub fn to_game_record(&self) -> Result<GameRecord, String> {
        let tag = |name: &str| {
            self.tag(name)
                .ok_or_else(|| format!("a record without its {name} tag"))
        };
        let number: u32 = tag("Game")?
            .parse()
            .map_err(|_| format!("game number '{}'", tag("Game").unwrap_or_default()))?;
        let at = |what: String| format!("game {number}: {what}");
        let variant: Variant = tag("Variant")?.parse().map_err(|e| at(format!("{e}")))?;
        let outcome = self
            .outcome()
            .ok_or_else(|| at(format!("result '{}'", tag("Result").unwrap_or_default())))?;
        let reason = tag("Reason")?;
        let termination =
            Termination::parse(reason).ok_or_else(|| at(format!("reason '{reason}'")))?;
        Ok(GameRecord {
            number,
            variant,
            players: [tag("P1")?.to_owned(), tag("P2")?.to_owned()],
            opening: tag("Opening")?
                .split_whitespace()
                .map(str::to_owned)
                .collect(),
            start: tag("Start")?.to_owned(),
            moves: self.moves.clone(),
            outcome,
            termination,
            final_position: tag("Final")?.to_owned(),
            stale_answers: match self.tag("Stale") {
                None => [0, 0],
                Some(text) => parse_stale(text).ok_or_else(|| at(format!("stale '{text}'")))?,
            },
        })
    }
}

/// Reads a `Stale` tag: `p1 <n> p2 <n>`.
fn parse_stale(text: &str) -> Option<[u32; 2]> {
    match text.split(' ').collect::<Vec<_>>().as_slice() {
        ["p1", p1, "p2", p2] => Some([p1.parse().ok()?, p2.parse().ok()?]),
        _ => None,
    }
}

/// Reads every record of a records file, in order.
pub fn parse_records(text: &str) -> Result<Vec<ParsedRecord>, String> {
    let mut records = Vec::new();
    let mut current = ParsedRecord::default();
    for (index, line) in text.lines().enumerate() {
        // What a records file holds goes to terminals and to other records: no control
        // character of it does.
        let line = crate::core::printable::visible(line.trim());
        let line = line.as_str();
        if line.is_empty() {
            if !current.tags.is_empty() {
                records.push(std::mem::take(&mut current));
            }
        } else if let Some(tag) = line.strip_prefix('[') {
            let parsed = tag
                .strip_suffix("\"]")
                .and_then(|t| t.split_once(" \""))
                .ok_or_else(|| format!("line {}: malformed tag '{line}'", index + 1))?;
            current.tags.push((parsed.0.to_owned(), unescape(parsed.1)));
        } else {
            current
                .moves
                .extend(line.split_whitespace().map(str::to_owned));
        }
    }
    if !current.tags.is_empty() {
        records.push(current);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_of_a_records_file_are_shown_not_kept() {
        let text = "[Game \"1\"]\n[P1 \"evil\x1b[31m\x07\"]\n\nd2d3\x1b[2J\n";
        let parsed = parse_records(text).unwrap();
        assert_eq!(parsed[0].tag("P1"), Some("evil?[31m?"));
        let error = parse_records("[Bad \x1b]0;x\n").unwrap_err();
        assert!(!error.contains('\x1b'), "{error:?}");
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let record = GameRecord {
            number: 7,
            variant: Variant::Egaraguti,
            players: ["one \"quoted\" name".to_owned(), "two\\back".to_owned()],
            opening: vec!["e3e4".to_owned()],
            start: "bbbbb/bbb/bbb/1/www/www/wwwww w 0 1".to_owned(),
            moves: (0..30).map(|i| format!("m{i}")).collect(),
            outcome: Outcome::Win(Player::P2),
            termination: Termination::IllegalMove {
                by: Player::P1,
                text: "zz".to_owned(),
            },
            final_position: "x".to_owned(),
            stale_answers: [0, 2],
        };
        let text = format!("{record}{record}");
        let parsed = parse_records(&text).expect("well formed");
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0], parsed[1]);
        assert_eq!(parsed[0].tag("P1"), Some("one \"quoted\" name"));
        assert_eq!(parsed[0].tag("P2"), Some("two\\back"));
        assert_eq!(parsed[0].tag("Reason"), Some("illegal move by p1: zz"));
        assert_eq!(parsed[0].outcome(), Some(Outcome::Win(Player::P2)));
        assert_eq!(parsed[0].moves, record.moves);
        assert_eq!(parsed[0].tag("Plies"), Some("30"));
        assert!(parse_records("[Broken tag\n").is_err());
        assert_eq!(parsed[0].to_game_record(), Ok(record));
    }

    #[test]
    fn every_reason_reads_back() {
        for termination in [
            Termination::Rules,
            Termination::IllegalMove {
                by: Player::P2,
                text: "a1a1 (illegal: a1 has no stack: none)".to_owned(),
            },
            Termination::NoMove { by: Player::P1 },
            Termination::Crash { by: Player::P2 },
            Termination::Hang { by: Player::P1 },
            Termination::FlagFall { by: Player::P2 },
            Termination::StartFailure {
                by: Player::P1,
                detail: "no ugiok within 10 ms".to_owned(),
            },
        ] {
            assert_eq!(
                Termination::parse(&termination.to_string()),
                Some(termination)
            );
        }
        assert_eq!(Termination::parse("p3 crashed"), None);
        assert_eq!(Termination::parse("p1 sneezed"), None);
    }
}
