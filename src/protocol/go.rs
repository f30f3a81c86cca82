//! `go`: its limits ([`GoCommand`]), read by hand rather than by nom, word by word, since
//! unlike every other command it is never refused (what it cannot read is skipped, kept and
//! reported, and the search runs on the rest), and written back in the protocol's own
//! spellings.

use std::fmt;

use nom::Parser;
use nom::character::complete::u64 as decimal_u64;
use nom::combinator::eof;
use nom::sequence::terminated;

/// The limits of a `go` command; any of them, in any order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    pub p1time: Option<u64>,
    pub p2time: Option<u64>,
    pub p1inc: Option<u64>,
    pub p2inc: Option<u64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop once a win in at most this many moves (of the side to move) is proven.
    pub mate: Option<u32>,
    /// Search only these root moves (as given; the engine checks them).
    pub searchmoves: Vec<String>,
    /// Search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    pub infinite: bool,
    /// Words that could not be read, skipped (reported once, the search runs without them).
    pub skipped: Vec<String>,
}

impl fmt::Display for GoCommand {
    /// `go` and its limits as a client sends them, each by the protocol's own spelling;
    /// the words it skipped are not written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        // Each limit by its first spelling in the table: the protocol's own.
        for (index, &(word, limit)) in GO_VALUES.iter().enumerate() {
            let first = GO_VALUES[..index].iter().all(|&(_, other)| other != limit);
            if let (true, Some(n)) = (first, limit.get(self)) {
                write!(f, " {word} {n}")?;
            }
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

/// A limit of `go` that takes a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GoValue {
    P1Time,
    P2Time,
    P1Inc,
    P2Inc,
    MovesToGo,
    MoveTime,
    Depth,
    Nodes,
    Mate,
}

/// Every word of `go` that takes a number, each once, with the limit it sets (UCI's
/// spellings of the clocks beside UGI's). The protocol's own spelling of each limit comes
/// first: `Display` writes it.
const GO_VALUES: [(&str, GoValue); 13] = [
    ("p1time", GoValue::P1Time),
    ("p2time", GoValue::P2Time),
    ("p1inc", GoValue::P1Inc),
    ("p2inc", GoValue::P2Inc),
    ("movestogo", GoValue::MovesToGo),
    ("movetime", GoValue::MoveTime),
    ("depth", GoValue::Depth),
    ("nodes", GoValue::Nodes),
    ("mate", GoValue::Mate),
    ("wtime", GoValue::P1Time),
    ("btime", GoValue::P2Time),
    ("winc", GoValue::P1Inc),
    ("binc", GoValue::P2Inc),
];

/// The words of `go` that stand alone.
const GO_FLAGS: [&str; 3] = ["infinite", "ponder", "searchmoves"];

impl GoValue {
    /// The limit `word` sets, if it is one.
    fn of(word: &str) -> Option<GoValue> {
        GO_VALUES
            .iter()
            .find(|(name, _)| *name == word)
            .map(|&(_, value)| value)
    }

    /// Stores `n` in `go`; `false` when it does not fit the limit's range.
    fn set(self, go: &mut GoCommand, n: u64) -> bool {
        let small = u32::try_from(n).ok();
        match self {
            GoValue::P1Time => go.p1time = Some(n),
            GoValue::P2Time => go.p2time = Some(n),
            GoValue::P1Inc => go.p1inc = Some(n),
            GoValue::P2Inc => go.p2inc = Some(n),
            GoValue::MoveTime => go.movetime = Some(n),
            GoValue::Nodes => go.nodes = Some(n),
            GoValue::MovesToGo if small.is_some() => go.movestogo = small,
            GoValue::Depth if small.is_some() => go.depth = small,
            GoValue::Mate if small.is_some() => go.mate = small,
            _ => return false,
        }
        true
    }

    /// What the limit stands for when its value cannot be read: a clock, increment or move
    /// time counts as no time left, a depth or node count as the smallest; `movestogo` and
    /// `mate` are left out.
    fn set_unreadable(self, go: &mut GoCommand) {
        match self {
            GoValue::Depth | GoValue::Nodes => {
                self.set(go, 1);
            }
            GoValue::MovesToGo | GoValue::Mate => {}
            _ => {
                self.set(go, 0);
            }
        }
    }

    /// The value `go` holds for this limit.
    fn get(self, go: &GoCommand) -> Option<u64> {
        match self {
            GoValue::P1Time => go.p1time,
            GoValue::P2Time => go.p2time,
            GoValue::P1Inc => go.p1inc,
            GoValue::P2Inc => go.p2inc,
            GoValue::MoveTime => go.movetime,
            GoValue::Nodes => go.nodes,
            GoValue::MovesToGo => go.movestogo.map(u64::from),
            GoValue::Depth => go.depth.map(u64::from),
            GoValue::Mate => go.mate.map(u64::from),
        }
    }
}

/// The limits of `go` from the words after it, in any order (none: infinite). Unlike every
/// other command, `go` is never refused: words it cannot read are kept in
/// [`GoCommand::skipped`] and the search runs on the rest, so that every `go` gets its
/// `bestmove`. An unreadable value never widens the search: a time counts as none left,
/// a depth or node count as the smallest.
pub(super) fn limits(input: &str) -> GoCommand {
    let mut limits = GoCommand::default();
    let mut words = input.split(' ').filter(|w| !w.is_empty()).peekable();
    // A `searchmoves` list, and a value, end at the next word of `go`.
    let is_go_word = |w: &&str| GoValue::of(w).is_some() || GO_FLAGS.contains(w);
    while let Some(word) = words.next() {
        match (word, GoValue::of(word)) {
            ("infinite", _) => limits.infinite = true,
            ("ponder", _) => limits.ponder = true,
            ("searchmoves", _) => {
                while let Some(mv) = words.next_if(|w| !is_go_word(w)) {
                    limits.searchmoves.push(mv.to_owned());
                }
            }
            (_, Some(limit)) => {
                // Its number, or the word (and what stood for its value) is skipped.
                let value = words.next_if(|w| !is_go_word(w));
                match value.and_then(number) {
                    Some(n) if limit.set(&mut limits, n) => {}
                    _ => {
                        // An unreadable value never widens the search.
                        limit.set_unreadable(&mut limits);
                        limits
                            .skipped
                            .push(value.map_or(word.to_owned(), |v| format!("{word} {v}")));
                    }
                }
            }
            (_, None) => limits.skipped.push(word.to_owned()),
        }
    }
    limits
}

/// A whole token read as a decimal number (`None` on anything else, overflow included).
fn number(text: &str) -> Option<u64> {
    terminated(decimal_u64::<&str, nom::error::Error<&str>>, eof)
        .parse(text)
        .ok()
        .map(|(_, n)| n)
}
