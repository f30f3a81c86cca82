//! The protocol's commands as a typed enum, and one small parser per command: nom parsers,
//! but for two read by hand, whose grammar is not a sequence of tokens: `go` (in `go.rs`:
//! its words in any order, what it cannot read skipped and kept, a value or a `searchmoves`
//! list ending at the next word of `go`) and `setoption` (a name and a value of free text, split at the
//! first ` value `).
//!
//! A line is first normalised (tokens separated by single spaces, no leading or trailing
//! whitespace), then parsed. Keywords are whole words: `ugi` does not match the start of
//! `uginewgame`. Numbers that do not fit report an error instead of wrapping or panicking.
//! Command words are case-sensitive; option names are kept as given (the engine compares
//! them without regard to case).

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{char, u32 as decimal_u32};
use nom::combinator::{eof, map, opt, rest, value, verify};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

pub use super::go::GoCommand;
use crate::core::printable::echo;

/// One protocol command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi` (`uci` is [`Command::Uci`]): identify and list the options.
    Ugi,
    Uci,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `uginewgame` or `ucinewgame`.
    NewGame,
    Position(PositionCommand),
    /// `moves <m1> [m2 ...]`: the moves played on from the current position (as
    /// cutergames sends each move of a game).
    Moves(Vec<String>),
    Go(GoCommand),
    GoPerft(u32),
    Stop,
    Quit,
    Query(Query),
    /// `d`: a diagram for people.
    Display,
    /// `eval`: the static evaluation, feature by feature, for people.
    Eval,
    Bench(Option<u32>),
    Help,
    /// `ponderhit`: the move pondered on was played; the search goes on, on the clock.
    PonderHit,
    /// `register`, `debug on|off`: accepted and ignored.
    Ignored,
}

/// `position [variant <name>] startpos|fen <fen...> [moves <m>...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    pub variant: Option<String>,
    /// `None` for `startpos`, else the position string.
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

/// What a `query` asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    GameOver,
    P1Turn,
    P2Turn,
    Result,
    LegalMoves,
    IsLegal(String),
    Fen,
    Variant,
    /// The position's SVG picture on one line (an extension, for GUIs).
    Svg,
    /// Why the game is over, in words for people (an extension, for GUIs).
    Reason,
    /// What the exact tables say of the position and each legal move (an extension, for
    /// GUIs).
    Tables,
    /// Not a known query; the engine answers with an error and `response error`.
    Unknown(String),
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// An empty line: nothing to do, nothing to report.
    Empty,
    /// The first word is no command.
    UnknownCommand(String),
    /// A known command with arguments that do not fit it.
    BadArguments { command: String, detail: String },
}

impl CommandError {
    /// The `<kind>` of the `info string error <kind>: <detail>` line.
    pub fn kind(&self) -> &'static str {
        match self {
            CommandError::Empty => "empty",
            CommandError::UnknownCommand(_) => "unknown-command",
            CommandError::BadArguments { .. } => "bad-arguments",
        }
    }
}

impl fmt::Display for CommandError {
    /// The `<detail>` of the error line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => f.write_str("empty line"),
            CommandError::UnknownCommand(word) => f.write_str(word),
            CommandError::BadArguments { command, detail } => write!(f, "{command}: {detail}"),
        }
    }
}

/// A line read as a command, with the words it ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    pub command: Command,
    /// Words after a command that takes none (`stop now`): ignored, as UCI engines do, so
    /// that a front end that pads a command is not left waiting for its answer.
    pub ignored: Option<String>,
}

impl Command {
    /// Parses one line of input (words after a command that takes none are ignored).
    pub fn parse(line: &str) -> Result<Command, CommandError> {
        Command::read(line).map(|reading| reading.command)
    }

    /// Parses one line of input, keeping the words ignored after a command that takes none.
    pub fn read(line: &str) -> Result<Reading, CommandError> {
        let normal = line.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
        let Some(word) = normal.split(' ').next().filter(|w| !w.is_empty()) else {
            return Err(CommandError::Empty);
        };
        let parsed = match word {
            "ugi" => bare(Command::Ugi).parse(&normal),
            "uci" => bare(Command::Uci).parse(&normal),
            "isready" => bare(Command::IsReady).parse(&normal),
            "uginewgame" | "ucinewgame" => bare(Command::NewGame).parse(&normal),
            "stop" => bare(Command::Stop).parse(&normal),
            "quit" => bare(Command::Quit).parse(&normal),
            "d" => bare(Command::Display).parse(&normal),
            "eval" => bare(Command::Eval).parse(&normal),
            "help" => bare(Command::Help).parse(&normal),
            "ponderhit" => bare(Command::PonderHit).parse(&normal),
            "register" => Ok(("", Command::Ignored)),
            "debug" => debug(&normal),
            "setoption" => setoption(&normal),
            "position" => position(&normal),
            "moves" => moves(&normal),
            "go" => go(&normal),
            "query" => query(&normal),
            "bench" => bench(&normal),
            _ => return Err(CommandError::UnknownCommand(echo(word))),
        };
        parsed
            .map(|(rest, command)| Reading {
                command,
                ignored: (!rest.is_empty()).then(|| rest.to_owned()),
            })
            .map_err(|_| CommandError::BadArguments {
                command: word.to_owned(),
                detail: format!("cannot read '{}'", echo(&normal)),
            })
    }
}

/// A keyword followed by a space or the end of the line (whole words only).
fn keyword<'a>(
    word: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = nom::error::Error<&'a str>> {
    terminated(tag(word), alt((value((), char(' ')), value((), eof))))
}

/// One space-free token.
fn token(input: &str) -> IResult<&str, &str> {
    terminated(
        take_till1(|c| c == ' '),
        alt((value((), char(' ')), value((), eof))),
    )
    .parse(input)
}

/// A command word that takes no arguments; what follows it is left unread (ignored).
fn bare<'a>(
    command: Command,
) -> impl Parser<&'a str, Output = Command, Error = nom::error::Error<&'a str>> {
    map(token, move |_| command.clone())
}

fn debug(input: &str) -> IResult<&str, Command> {
    let (input, _) = keyword("debug").parse(input)?;
    let (input, _) = terminated(alt((tag("on"), tag("off"))), eof).parse(input)?;
    Ok((input, Command::Ignored))
}

impl fmt::Display for Command {
    /// The command as a client sends it, in the protocol's own spellings (`ugi`,
    /// `uginewgame`, `p1time`); parsing what this writes gives the same command. Words a
    /// `go` skipped are not written: they were never part of the command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Ugi => f.write_str("ugi"),
            Command::Uci => f.write_str("uci"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(value) => write!(f, " value {value}"),
                    None => Ok(()),
                }
            }
            Command::NewGame => f.write_str("uginewgame"),
            Command::Position(position) => {
                f.write_str("position")?;
                if let Some(variant) = &position.variant {
                    write!(f, " variant {variant}")?;
                }
                match &position.fen {
                    Some(fen) => write!(f, " fen {fen}")?,
                    None => f.write_str(" startpos")?,
                }
                if !position.moves.is_empty() {
                    write!(f, " moves {}", position.moves.join(" "))?;
                }
                Ok(())
            }
            Command::Moves(moves) => write!(f, "moves {}", moves.join(" ")),
            Command::Go(go) => write!(f, "{go}"),
            Command::GoPerft(depth) => write!(f, "go perft {depth}"),
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
            Command::Query(query) => write!(f, "query {query}"),
            Command::Display => f.write_str("d"),
            Command::Eval => f.write_str("eval"),
            Command::Bench(None) => f.write_str("bench"),
            Command::Bench(Some(depth)) => write!(f, "bench {depth}"),
            Command::Help => f.write_str("help"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Ignored => f.write_str("debug off"),
        }
    }
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Query::GameOver => f.write_str("gameover"),
            Query::P1Turn => f.write_str("p1turn"),
            Query::P2Turn => f.write_str("p2turn"),
            Query::Result => f.write_str("result"),
            Query::LegalMoves => f.write_str("legalmoves"),
            Query::IsLegal(mv) => write!(f, "islegal {mv}"),
            Query::Fen => f.write_str("fen"),
            Query::Variant => f.write_str("variant"),
            Query::Svg => f.write_str("svg"),
            Query::Reason => f.write_str("reason"),
            Query::Tables => f.write_str("tables"),
            Query::Unknown(what) => f.write_str(what),
        }
    }
}

/// `setoption name <id...> [value <x...>]`: the name may hold spaces, up to ` value `.
fn setoption(input: &str) -> IResult<&str, Command> {
    let (input, _) = keyword("setoption").parse(input)?;
    let (input, _) = keyword("name").parse(input)?;
    let (name, value) = match input.find(" value ") {
        Some(at) => (&input[..at], Some(input[at + " value ".len()..].to_owned())),
        None => match input.strip_suffix(" value") {
            Some(name) => (name, Some(String::new())),
            None => (input, None),
        },
    };
    if name.is_empty() {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Tag,
        )));
    }
    Ok((
        "",
        Command::SetOption {
            name: name.to_owned(),
            value,
        },
    ))
}

/// `position [variant <name>] startpos|fen <fen...> [moves <m>...]`.
fn position(input: &str) -> IResult<&str, Command> {
    let (input, _) = keyword("position").parse(input)?;
    let (input, variant) = opt(preceded(keyword("variant"), token)).parse(input)?;
    let (input, fen) = alt((
        map(keyword("startpos"), |_| None),
        map(preceded(keyword("fen"), fen_text), Some),
    ))
    .parse(input)?;
    let (input, moves) = opt(preceded(keyword("moves"), many0(token))).parse(input)?;
    let (input, _) = eof(input)?;
    Ok((
        input,
        Command::Position(PositionCommand {
            variant: variant.map(str::to_owned),
            fen: fen.map(str::to_owned),
            moves: moves
                .unwrap_or_default()
                .into_iter()
                .map(str::to_owned)
                .collect(),
        }),
    ))
}

fn moves(input: &str) -> IResult<&str, Command> {
    let (input, _) = keyword("moves").parse(input)?;
    let (input, moves) = nom::multi::many1(token).parse(input)?;
    let (input, _) = eof(input)?;
    let moves = moves.into_iter().map(str::to_owned).collect();
    Ok((input, Command::Moves(moves)))
}

/// The position string of `position fen`: everything up to ` moves` or the end. It may be
/// empty: the game's parser then refuses it as a bad position string, like any other.
fn fen_text(input: &str) -> IResult<&str, &str> {
    if input == "moves" || input.starts_with("moves ") {
        return Ok((input, ""));
    }
    let end = input
        .find(" moves")
        .filter(|&at| input[at + " moves".len()..].is_empty() || input[at..].starts_with(" moves "))
        .unwrap_or(input.len());
    let (fen, remaining) = input.split_at(end);
    Ok((remaining.strip_prefix(' ').unwrap_or(remaining), fen))
}

/// `go perft <n>`, or `go` with limits in any order (see [`GoCommand`]: never refused).
fn go(input: &str) -> IResult<&str, Command> {
    let (input, _) = keyword("go").parse(input)?;
    if input == "perft" || input.starts_with("perft ") {
        // `go perft` counts, it does not search: a bad depth refuses the line.
        let (rest_of_line, depth) = terminated(
            preceded(
                keyword("perft"),
                verify(decimal_u32, |&depth| depth <= MAX_PERFT_DEPTH),
            ),
            eof,
        )
        .parse(input)?;
        return Ok((rest_of_line, Command::GoPerft(depth)));
    }
    Ok(("", Command::Go(super::go::limits(input))))
}

/// `query <what> [<move>]`.
fn query(input: &str) -> IResult<&str, Command> {
    let (input, _) = keyword("query").parse(input)?;
    let (input, what) = alt((
        map(terminated(tag("gameover"), eof), |_| Query::GameOver),
        map(terminated(tag("p1turn"), eof), |_| Query::P1Turn),
        map(terminated(tag("p2turn"), eof), |_| Query::P2Turn),
        map(terminated(tag("result"), eof), |_| Query::Result),
        map(terminated(tag("legalmoves"), eof), |_| Query::LegalMoves),
        map(preceded(keyword("islegal"), terminated(token, eof)), |mv| {
            Query::IsLegal(mv.to_owned())
        }),
        map(terminated(tag("fen"), eof), |_| Query::Fen),
        map(terminated(tag("variant"), eof), |_| Query::Variant),
        map(terminated(tag("svg"), eof), |_| Query::Svg),
        map(terminated(tag("reason"), eof), |_| Query::Reason),
        map(terminated(tag("tables"), eof), |_| Query::Tables),
        map(rest, |other: &str| {
            Query::Unknown(if other.is_empty() {
                "(nothing asked)".to_owned()
            } else {
                echo(other)
            })
        }),
    ))
    .parse(input)?;
    Ok((input, Command::Query(what)))
}

/// The deepest perft count, `go perft` and `ternion perft` alike.
pub const MAX_PERFT_DEPTH: u32 = 64;
/// The deepest `bench` (protocol and command line): each ply more costs the search several
/// times the time, so a bench far deeper than its own depths runs for hours (`stop` ends
/// it); past this the search's own bound on plies would cut it anyway.
pub const MAX_BENCH_DEPTH: u32 = 64;

/// `bench [depth]`, the depth from 1 to [`MAX_BENCH_DEPTH`].
fn bench(input: &str) -> IResult<&str, Command> {
    let (input, _) = keyword("bench").parse(input)?;
    let depth = verify(decimal_u32, |&depth| (1..=MAX_BENCH_DEPTH).contains(&depth));
    let (input, depth) = terminated(opt(depth), eof).parse(input)?;
    Ok((input, Command::Bench(depth)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        Command::parse(line).unwrap_or_else(|e| panic!("{line:?}: {e}"))
    }

    fn bad(line: &str) -> &'static str {
        Command::parse(line).expect_err(line).kind()
    }

    #[test]
    fn bare_commands_are_whole_words() {
        assert_eq!(parse("ugi"), Command::Ugi);
        assert_eq!(parse("  uci \r"), Command::Uci);
        assert_eq!(parse("uginewgame"), Command::NewGame);
        assert_eq!(parse("ucinewgame"), Command::NewGame);
        assert_eq!(parse("isready"), Command::IsReady);
        assert_eq!(parse("stop"), Command::Stop);
        assert_eq!(parse("quit"), Command::Quit);
        assert_eq!(parse("d"), Command::Display);
        assert_eq!(parse("eval"), Command::Eval);
        assert_eq!(parse("eval now"), Command::Eval);
        assert_eq!(parse("help"), Command::Help);
        assert_eq!(parse("ponderhit"), Command::PonderHit);
        assert_eq!(parse("debug on"), Command::Ignored);
        assert_eq!(bad("ugix"), "unknown-command");
        assert_eq!(bad("UGI"), "unknown-command");
        // Words after a command that takes none are ignored, and said to be.
        for (line, command) in [
            ("isready now", Command::IsReady),
            ("stop now", Command::Stop),
            ("quit  now please", Command::Quit),
            ("ucinewgame x", Command::NewGame),
        ] {
            let reading = Command::read(line).unwrap();
            assert_eq!(reading.command, command, "{line}");
            assert!(reading.ignored.is_some(), "{line}");
        }
        assert_eq!(Command::read("stop").unwrap().ignored, None);
        assert_eq!(
            Command::read("quit now please").unwrap().ignored.as_deref(),
            Some("now please")
        );
        assert_eq!(bad("debug maybe"), "bad-arguments");
        assert_eq!(Command::parse(" \t "), Err(CommandError::Empty));
    }

    #[test]
    fn setoption_names_may_hold_spaces() {
        assert_eq!(
            parse("setoption name UCI_Variant value egaraguti"),
            Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("egaraguti".into())
            }
        );
        assert_eq!(
            parse("setoption   name Clear  Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            parse("setoption name Some Name value a b"),
            Command::SetOption {
                name: "Some Name".into(),
                value: Some("a b".into())
            }
        );
        assert_eq!(bad("setoption value 3"), "bad-arguments");
        assert_eq!(bad("setoption name"), "bad-arguments");
    }

    #[test]
    fn positions_with_fens_variants_and_moves() {
        assert_eq!(
            parse("position startpos moves e3e4 e5e3"),
            Command::Position(PositionCommand {
                variant: None,
                fen: None,
                moves: vec!["e3e4".into(), "e5e3".into()],
            })
        );
        let lerontenin = "L S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 0/0 0";
        assert_eq!(
            parse(&format!(
                "position variant lerontenin fen {lerontenin} moves H-7"
            )),
            Command::Position(PositionCommand {
                variant: Some("lerontenin".into()),
                fen: Some(lerontenin.into()),
                moves: vec!["H-7".into()],
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/3r2*4/8/3b2*4/8/8 b"),
            Command::Position(PositionCommand {
                variant: None,
                fen: Some("8/8/8/3r2*4/8/3b2*4/8/8 b".into()),
                moves: vec![],
            })
        );
        assert_eq!(
            parse("position startpos moves"),
            Command::Position(PositionCommand {
                variant: None,
                fen: None,
                moves: vec![],
            })
        );
        // An empty position string reaches the game's parser, which refuses it (bad-fen).
        for (line, moves) in [
            ("position fen", vec![]),
            ("position fen moves e2e4", vec!["e2e4".to_owned()]),
        ] {
            assert_eq!(
                parse(line),
                Command::Position(PositionCommand {
                    variant: None,
                    fen: Some(String::new()),
                    moves,
                })
            );
        }
        assert_eq!(bad("position"), "bad-arguments");
        assert_eq!(bad("position startpos e2e4"), "bad-arguments");
        assert_eq!(bad("position variant"), "bad-arguments");
    }

    #[test]
    fn go_limits_in_any_order() {
        assert_eq!(parse("go"), Command::Go(GoCommand::default()));
        assert_eq!(
            parse("go btime 900 wtime 1000 winc 10 binc 20 movestogo 5"),
            Command::Go(GoCommand {
                p1time: Some(1000),
                p2time: Some(900),
                p1inc: Some(10),
                p2inc: Some(20),
                movestogo: Some(5),
                ..GoCommand::default()
            })
        );
        assert_eq!(
            parse("go depth 7 nodes 1000 movetime 50 infinite"),
            Command::Go(GoCommand {
                depth: Some(7),
                nodes: Some(1000),
                movetime: Some(50),
                infinite: true,
                ..GoCommand::default()
            })
        );
        assert_eq!(parse("go perft 3"), Command::GoPerft(3));
        assert_eq!(bad("go perft"), "bad-arguments");
        assert_eq!(bad("go perft 3 4"), "bad-arguments");
        assert_eq!(bad("go perft 65"), "bad-arguments");
        assert_eq!(bad("go perft 99999"), "bad-arguments");
        assert_eq!(parse("go perft 64"), Command::GoPerft(64));
    }

    #[test]
    fn go_reads_mate_searchmoves_and_ponder() {
        assert_eq!(
            parse("go searchmoves d2d3 e2e3 depth 2 mate 3 ponder wtime 5"),
            Command::Go(GoCommand {
                searchmoves: vec!["d2d3".into(), "e2e3".into()],
                depth: Some(2),
                mate: Some(3),
                ponder: true,
                p1time: Some(5),
                ..GoCommand::default()
            })
        );
        assert_eq!(
            parse("go infinite searchmoves"),
            Command::Go(GoCommand {
                infinite: true,
                ..GoCommand::default()
            })
        );
    }

    #[test]
    fn go_skips_what_it_cannot_read_and_keeps_the_rest() {
        let skipped = |line: &str| match parse(line) {
            Command::Go(go) => go.skipped,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(skipped("go depth"), ["depth"]);
        assert_eq!(skipped("go depth x"), ["depth x"]);
        assert_eq!(skipped("go depth -1 nodes 5"), ["depth -1"]);
        assert_eq!(skipped("go depth infinite"), ["depth"]);
        assert_eq!(
            skipped("go nodes 99999999999999999999999"),
            ["nodes 99999999999999999999999"]
        );
        assert_eq!(skipped("go depth 4294967296"), ["depth 4294967296"]);
        assert_eq!(
            skipped("go sideways movetime 9 upwards"),
            ["sideways", "upwards"]
        );
        assert_eq!(
            parse("go sideways movetime 9"),
            Command::Go(GoCommand {
                movetime: Some(9),
                skipped: vec!["sideways".into()],
                ..GoCommand::default()
            })
        );
    }

    #[test]
    fn an_unreadable_value_never_widens_the_search() {
        let go = |line: &str| match parse(line) {
            Command::Go(go) => go,
            other => panic!("{line}: {other:?}"),
        };
        // A time that cannot be read is no time left.
        let clock = go("go p1time -5 p2time 100");
        assert_eq!((clock.p1time, clock.p2time), (Some(0), Some(100)));
        assert_eq!(go("go wtime x btime 7 winc y").p1inc, Some(0));
        assert_eq!(go("go movetime soon").movetime, Some(0));
        // A depth or node count that cannot be read is the smallest.
        assert_eq!(go("go depth -1 nodes 5").depth, Some(1));
        assert_eq!(go("go nodes 99999999999999999999999").nodes, Some(1));
        assert_eq!(go("go depth").depth, Some(1));
        // Unknown words and unreadable `mate`/`movestogo` are only skipped.
        let typo = go("go depht 3");
        assert_eq!((typo.depth, typo.skipped.len()), (None, 2));
        assert_eq!(go("go mate x").mate, None);
    }

    #[test]
    fn queries() {
        assert_eq!(parse("query gameover"), Command::Query(Query::GameOver));
        assert_eq!(parse("query p1turn"), Command::Query(Query::P1Turn));
        assert_eq!(parse("query p2turn"), Command::Query(Query::P2Turn));
        assert_eq!(parse("query result"), Command::Query(Query::Result));
        assert_eq!(parse("query legalmoves"), Command::Query(Query::LegalMoves));
        assert_eq!(
            parse("query islegal d2d3"),
            Command::Query(Query::IsLegal("d2d3".into()))
        );
        assert_eq!(parse("query fen"), Command::Query(Query::Fen));
        assert_eq!(parse("query variant"), Command::Query(Query::Variant));
        assert_eq!(parse("query reason"), Command::Query(Query::Reason));
        assert_eq!(parse("query tables"), Command::Query(Query::Tables));
        assert_eq!(
            parse("query weather today"),
            Command::Query(Query::Unknown("weather today".into()))
        );
        assert_eq!(
            parse("query islegal"),
            Command::Query(Query::Unknown("islegal".into()))
        );
        assert_eq!(
            parse("query"),
            Command::Query(Query::Unknown("(nothing asked)".into()))
        );
    }

    #[test]
    fn bench_with_or_without_a_depth() {
        assert_eq!(parse("bench"), Command::Bench(None));
        assert_eq!(parse("bench 5"), Command::Bench(Some(5)));
        assert_eq!(bad("bench five"), "bad-arguments");
        assert_eq!(parse("bench 64"), Command::Bench(Some(64)));
        assert_eq!(bad("bench 0"), "bad-arguments");
        assert_eq!(bad("bench 65"), "bad-arguments");
    }

    #[test]
    fn what_display_writes_parses_back_to_the_same_command() {
        let lerontenin = "L S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 0/0 0";
        let position = |variant: Option<&str>, fen: Option<&str>, moves: &[&str]| {
            Command::Position(PositionCommand {
                variant: variant.map(str::to_owned),
                fen: fen.map(str::to_owned),
                moves: moves.iter().map(|&m| m.to_owned()).collect(),
            })
        };
        let mut commands = vec![
            Command::Ugi,
            Command::Uci,
            Command::IsReady,
            Command::SetOption {
                name: "Skill Level".into(),
                value: Some("3".into()),
            },
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None,
            },
            Command::SetOption {
                name: "TablePath".into(),
                value: Some("a dir with spaces".into()),
            },
            Command::NewGame,
            position(None, None, &[]),
            position(None, None, &["e3e4", "e5e3"]),
            position(Some("lerontenin"), Some(lerontenin), &["H-7"]),
            position(None, Some("8/8/8/3r2*4/8/3b2*4/8/8 b"), &[]),
            Command::Moves(vec!["e3e4".into()]),
            Command::Moves(vec!["H-7".into(), "S-1+".into()]),
            Command::Go(GoCommand::default()),
            Command::Go(GoCommand {
                p1time: Some(1000),
                p2time: Some(900),
                p1inc: Some(10),
                p2inc: Some(20),
                movestogo: Some(5),
                ..GoCommand::default()
            }),
            Command::Go(GoCommand {
                movetime: Some(50),
                depth: Some(7),
                nodes: Some(1000),
                mate: Some(3),
                searchmoves: vec!["d2d3".into(), "e2e3".into()],
                ponder: true,
                infinite: true,
                ..GoCommand::default()
            }),
            Command::GoPerft(3),
            Command::Stop,
            Command::Quit,
            Command::Display,
            Command::Eval,
            Command::Bench(None),
            Command::Bench(Some(5)),
            Command::Help,
            Command::PonderHit,
            Command::Ignored,
        ];
        commands.extend(
            [
                Query::GameOver,
                Query::P1Turn,
                Query::P2Turn,
                Query::Result,
                Query::LegalMoves,
                Query::IsLegal("d2d3".into()),
                Query::Fen,
                Query::Variant,
                Query::Svg,
                Query::Reason,
                Query::Tables,
                Query::Unknown("weather today".into()),
            ]
            .map(Command::Query),
        );
        for command in commands {
            let line = command.to_string();
            assert_eq!(Command::parse(&line), Ok(command), "{line}");
        }
        // The protocol's own spellings, in a fixed order.
        let go = Command::Go(GoCommand {
            p2time: Some(5),
            p1time: Some(6),
            ..GoCommand::default()
        });
        assert_eq!(go.to_string(), "go p1time 6 p2time 5");
        assert_eq!(parse("go wtime 6 btime 5"), go);
    }

    #[test]
    fn hostile_lines_give_errors_not_panics() {
        let long = "x".repeat(1 << 20);
        for line in [
            long.as_str(),
            "go depth 99999999999999999999999999999999",
            "position fen \u{0} moves",
            "setoption name \u{7f} value \u{1}",
            "query islegal é",
            "go movetime ５",
            "position startpos moves é",
        ] {
            if let Err(error) = Command::parse(line) {
                let message = error.to_string();
                assert!(message.len() < 120, "{}", echo(&message));
                assert!(!message.chars().any(char::is_control), "{message:?}");
            }
        }
    }
}
