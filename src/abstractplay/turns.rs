//! What the bot remembers of each game between its turns: its seat and the last turn it
//! posted a move for, so that a turn AbstractPlay delivers again is not played twice.
//!
//! AbstractPlay's outbound queue delivers at least once, and its worker rebuilds each
//! payload from the game as it reads it then (`lib/botOutbound.ts`): the same turn may come
//! again after the bot's move landed, and then its history can even show the opponent to
//! move. So for each game the bot keeps its seat (the parity of the plies it moved at), the
//! last ply it posted a move at, and a checksum of the history it answered there. A turn is
//!
//! - played when it is a later ply than the last one posted, at the bot's seat;
//! - passed over (answered, not searched, not posted) when it is that ply again with the
//!   same history, an earlier ply, or a ply at the opponent's seat;
//! - refused when it is the ply posted with another history: the game is not the one the
//!   bot answered, and its move must not be posted to this one.
//!
//! The memory is bounded ([`MAX_GAMES`], the games least recently played forgotten first)
//! and kept in a file written whole (a temporary file renamed over it) after every move
//! posted, so that it survives a restart: one line a game, `<gameid> <seat> <ply>
//! <history checksum> <unix seconds>`, under a first line naming the format.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The most games remembered.
pub const MAX_GAMES: usize = 10_000;
/// The first line of the file.
const HEADER: &str = "ternion abstractplay turns 1";

/// What the bot took in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Taken {
    /// The bot's seat: 0 if it moves at even plies (it moved first), 1 at odd plies.
    seat: usize,
    /// The ply (0-based, the number of moves before it) of the last move posted; `None`
    /// while the first turn the bot took in the game is still being played (the seat is
    /// known from the moment a turn is taken; such a game is not written to the file).
    ply: Option<usize>,
    /// The checksum of the history that move answered ([`history_checksum`]).
    history: u64,
    /// When it was posted, in Unix seconds: the oldest is forgotten first.
    posted: u64,
}

/// What to do with a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A new turn: search it and post the move.
    Play,
    /// Already answered, or not the bot's to answer: say why, do nothing.
    PassOver(String),
    /// The ply already answered, with another history: refuse, and say why.
    Conflict(String),
}

/// The games the bot has moved in, and where they are kept.
#[derive(Debug)]
pub struct Turns {
    file: Option<PathBuf>,
    games: HashMap<String, Taken>,
}

/// A checksum of a game's history (its moves, in ternion's notation, in order): FNV-1a
/// over the moves, each ended by a space, the same on every machine and every run.
pub fn history_checksum(moves: &[String]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in moves.iter().flat_map(|m| m.bytes().chain([b' '])) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

impl Turns {
    /// An empty memory kept in `file` (`None`: in memory alone).
    pub fn new(file: Option<PathBuf>) -> Turns {
        Turns {
            file,
            games: HashMap::new(),
        }
    }

    /// The memory kept in `file`, read back if it exists; a file that is not one of these
    /// is refused in one line (it is never overwritten unread).
    pub fn open(file: &Path) -> Result<Turns, String> {
        let mut turns = Turns::new(Some(file.to_owned()));
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(turns),
            Err(error) => return Err(format!("cannot read {}: {error}", file.display())),
        };
        let mut lines = text.lines();
        if lines.next() != Some(HEADER) {
            return Err(format!(
                "{} is not the bot's memory of its turns (its first line is not '{HEADER}')",
                file.display()
            ));
        }
        for (number, line) in lines.enumerate() {
            let (gameid, taken) = parse_line(line)
                .ok_or_else(|| format!("{}:{}: not a game's turn", file.display(), number + 2))?;
            turns.games.insert(gameid, taken);
        }
        turns.forget_oldest();
        Ok(turns)
    }

    /// The games remembered.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// What to do with the turn of `gameid` at `ply` after the history of checksum
    /// `history`.
    pub fn judge(&self, gameid: &str, ply: usize, history: u64) -> Verdict {
        let Some(taken) = self.games.get(gameid) else {
            return Verdict::Play;
        };
        if ply % 2 != taken.seat {
            return Verdict::PassOver(format!(
                "ply {} is the opponent's (the bot moves at {} plies)",
                ply + 1,
                ["odd", "even"][taken.seat]
            ));
        }
        let Some(posted) = taken.ply else {
            return Verdict::Play;
        };
        match ply.cmp(&posted) {
            std::cmp::Ordering::Greater => Verdict::Play,
            std::cmp::Ordering::Less => Verdict::PassOver(format!(
                "ply {} is older than ply {}, already played",
                ply + 1,
                posted + 1
            )),
            std::cmp::Ordering::Equal if history == taken.history => {
                Verdict::PassOver(format!("ply {} was already played", ply + 1))
            }
            std::cmp::Ordering::Equal => Verdict::Conflict(format!(
                "ply {} was already played after another history",
                ply + 1
            )),
        }
    }

    /// Remembers the bot's seat in `gameid` from the turn at `ply` it has just taken (not
    /// yet posted), so that a turn of the other seat that comes meanwhile is passed over;
    /// the seat of a game already remembered stays.
    pub fn take_seat(&mut self, gameid: &str, ply: usize, now: u64) {
        self.games.entry(gameid.to_owned()).or_insert(Taken {
            seat: ply % 2,
            ply: None,
            history: 0,
            posted: now,
        });
        self.forget_oldest();
    }

    /// Remembers that the bot posted its move in `gameid` at `ply` after the history of
    /// checksum `history`, at `now` (Unix seconds), and writes the file; the error says why
    /// the file could not be written (the memory holds the move all the same).
    pub fn record(
        &mut self,
        gameid: &str,
        ply: usize,
        history: u64,
        now: u64,
    ) -> Result<(), String> {
        let taken = Taken {
            seat: ply % 2,
            ply: Some(ply),
            history,
            posted: now,
        };
        self.games.insert(gameid.to_owned(), taken);
        self.forget_oldest();
        self.write()
    }

    /// Forgets the games least recently played beyond [`MAX_GAMES`].
    fn forget_oldest(&mut self) {
        if self.games.len() <= MAX_GAMES {
            return;
        }
        let mut by_age: Vec<(u64, String)> = (self.games.iter())
            .map(|(gameid, taken)| (taken.posted, gameid.clone()))
            .collect();
        by_age.sort_unstable();
        let excess = self.games.len() - MAX_GAMES;
        for (_, gameid) in by_age.into_iter().take(excess) {
            self.games.remove(&gameid);
        }
    }

    /// Writes the file whole: a temporary file beside it, renamed over it.
    fn write(&self) -> Result<(), String> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let mut games: Vec<(&String, usize, &Taken)> = (self.games.iter())
            .filter_map(|(gameid, taken)| Some((gameid, taken.ply?, taken)))
            .collect();
        games.sort_unstable_by_key(|(gameid, ..)| *gameid);
        let mut text = format!("{HEADER}\n");
        for (gameid, ply, taken) in games {
            text.push_str(&format!(
                "{gameid} {} {ply} {:016x} {}\n",
                taken.seat, taken.history, taken.posted
            ));
        }
        crate::core::output::Whole::prepare(file, &[])
            .and_then(|whole| whole.commit(text.as_bytes()))
            .map_err(|e| format!("cannot write {}: {e}", file.display()))
    }
}

/// One line of the file.
fn parse_line(line: &str) -> Option<(String, Taken)> {
    let mut words = line.split(' ');
    let gameid = words.next().filter(|id| super::payload::is_game_id(id))?;
    let seat = words
        .next()?
        .parse()
        .ok()
        .filter(|&seat: &usize| seat < 2)?;
    let ply: usize = words.next()?.parse().ok()?;
    let history = u64::from_str_radix(words.next()?, 16).ok()?;
    let posted = words.next()?.parse().ok()?;
    if words.next().is_some() || ply % 2 != seat {
        return None;
    }
    Some((
        gameid.to_owned(),
        Taken {
            seat,
            ply: Some(ply),
            history,
            posted,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_turn_is_played_once_and_only_at_the_bots_seat() {
        let mut turns = Turns::new(None);
        let first = history_checksum(&moves("a2a3"));
        assert_eq!(turns.judge("g", 1, first), Verdict::Play);
        // Taken, not yet posted: the seat is known, the turn itself still to play.
        turns.take_seat("g", 1, 9);
        assert_eq!(turns.judge("g", 1, first), Verdict::Play);
        let early = history_checksum(&moves("a2a3 b7b6"));
        assert!(matches!(turns.judge("g", 2, early), Verdict::PassOver(_)));
        turns.record("g", 1, first, 10).unwrap();
        // The same turn again, and the turn after the bot's move: passed over.
        assert!(matches!(turns.judge("g", 1, first), Verdict::PassOver(_)));
        let after = history_checksum(&moves("a2a3 b7b6"));
        assert!(matches!(turns.judge("g", 2, after), Verdict::PassOver(_)));
        // The same ply after another history: a conflict.
        let other = history_checksum(&moves("c2c3"));
        assert!(matches!(turns.judge("g", 1, other), Verdict::Conflict(_)));
        // The bot's next turn, and an older one.
        let next = history_checksum(&moves("a2a3 b7b6 a3a5"));
        assert_eq!(turns.judge("g", 3, next), Verdict::Play);
        turns.record("g", 3, next, 11).unwrap();
        assert!(matches!(turns.judge("g", 1, first), Verdict::PassOver(_)));
        // Another game knows nothing of this one.
        assert_eq!(turns.judge("h", 0, history_checksum(&[])), Verdict::Play);
        assert_ne!(first, other);
        assert_ne!(
            history_checksum(&moves("a b")),
            history_checksum(&moves("ab"))
        );
    }

    #[test]
    fn the_memory_survives_a_restart_and_forgets_the_oldest_games_first() {
        let dir = std::env::temp_dir().join(format!("ternion-turns-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("turns.txt");
        let _ = std::fs::remove_file(&file);
        let mut turns = Turns::open(&file).unwrap();
        for index in 0..MAX_GAMES + 5 {
            turns.games.insert(
                format!("old-{index}"),
                Taken {
                    seat: 0,
                    ply: Some(0),
                    history: 1,
                    posted: index as u64,
                },
            );
        }
        turns.record("kept", 4, 99, u64::MAX).unwrap();
        assert_eq!(turns.len(), MAX_GAMES);
        assert!(!turns.games.contains_key("old-5") && turns.games.contains_key("old-6"));
        let again = Turns::open(&file).unwrap();
        assert_eq!(again.games, turns.games);
        assert!(matches!(again.judge("kept", 4, 99), Verdict::PassOver(_)));
        // A file that is not the memory is refused, not overwritten.
        std::fs::write(&file, "something else\n").unwrap();
        assert!(
            Turns::open(&file)
                .unwrap_err()
                .contains("not the bot's memory")
        );
        std::fs::write(&file, format!("{HEADER}\ng 0 1 00 5\n")).unwrap();
        assert!(
            Turns::open(&file)
                .unwrap_err()
                .contains(":2: not a game's turn")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
