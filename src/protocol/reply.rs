//! The engine's side of the protocol as a client reads it: one reader of the lines an
//! engine writes, shared by every client (the match runner, `bench --latency`, the tests),
//! so that none of them picks lines apart by hand. It reads any engine's lines, not only
//! ternion's: words it does not know are kept, never refused.

/// One line an engine wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name <text>` or `id author <text>`.
    Id { field: String, value: String },
    /// The end of the answer to `ugi`.
    UgiOk,
    /// The end of the answer to `uci`.
    UciOk,
    /// The answer to `isready`.
    ReadyOk,
    /// The answer to `go`: the move (`None` for `(none)`, the game being over, or for a
    /// `bestmove` that names nothing), and the reply the engine expects, if it names one.
    BestMove {
        best: Option<String>,
        ponder: Option<String>,
    },
    /// `info ...`: a search's report or a message.
    Info(InfoReply),
    /// `response <answer>`: the answer to `query`.
    Response(String),
    /// `option name ...`, as listed after `ugi`.
    Option(String),
    /// Any other line, as it came (perft counts, bench lines, diagrams).
    Other(String),
}

/// What an `info` line says; a field it does not have is `None` (or empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoReply {
    pub depth: Option<u32>,
    pub multipv: Option<u32>,
    /// `cp <n>` or `mate <n>`, as written.
    pub score: Option<String>,
    pub nodes: Option<u64>,
    /// Positions the engine's exact tables decided.
    pub tbhits: Option<u64>,
    /// `wdl <win> <draw> <loss>`, per mille from the side to move's view (`UCI_ShowWDL`).
    pub wdl: Option<[u32; 3]>,
    pub pv: Vec<String>,
    /// The text of `info string <text>`: everything after `string`.
    pub string: Option<String>,
}

impl InfoReply {
    /// The detail of an `info string error <kind>: <detail>` line, kind included.
    pub fn error(&self) -> Option<&str> {
        self.string.as_deref()?.strip_prefix("error ")
    }
}

impl Reply {
    /// Reads one line (surrounding whitespace and runs of spaces do not matter).
    pub fn parse(line: &str) -> Reply {
        let words: Vec<&str> = line.split_whitespace().collect();
        let rest = |from: usize| words.get(from..).unwrap_or_default().join(" ");
        match words.as_slice() {
            ["ugiok"] => Reply::UgiOk,
            ["uciok"] => Reply::UciOk,
            ["readyok"] => Reply::ReadyOk,
            ["id", field, ..] => Reply::Id {
                field: (*field).to_owned(),
                value: rest(2),
            },
            ["bestmove"] => Reply::BestMove {
                best: None,
                ponder: None,
            },
            ["bestmove", best, tail @ ..] => Reply::BestMove {
                best: (*best != "(none)").then(|| (*best).to_owned()),
                ponder: match tail {
                    ["ponder", reply, ..] => Some((*reply).to_owned()),
                    _ => None,
                },
            },
            ["info", ..] => Reply::Info(read_info(&words[1..])),
            ["response", ..] => Reply::Response(rest(1)),
            ["option", ..] => Reply::Option(rest(1)),
            _ => Reply::Other(line.trim().to_owned()),
        }
    }

    /// Whether this is a `bestmove`.
    pub fn is_best_move(&self) -> bool {
        matches!(self, Reply::BestMove { .. })
    }
}

/// The fields of an `info` line after `info`.
fn read_info(words: &[&str]) -> InfoReply {
    let mut info = InfoReply::default();
    let mut index = 0;
    while index < words.len() {
        let value = words.get(index + 1).copied().unwrap_or_default();
        match words[index] {
            "string" => {
                info.string = Some(words[index + 1..].join(" "));
                break;
            }
            "pv" => {
                info.pv = words[index + 1..].iter().map(|&w| w.to_owned()).collect();
                break;
            }
            "depth" => info.depth = value.parse().ok(),
            "multipv" => info.multipv = value.parse().ok(),
            "nodes" => info.nodes = value.parse().ok(),
            "tbhits" => info.tbhits = value.parse().ok(),
            "wdl" => {
                let read = |at: usize| words.get(index + at).and_then(|w| w.parse().ok());
                info.wdl = (|| Some([read(1)?, read(2)?, read(3)?]))();
                index += 2;
            }
            "score" => {
                let amount = words.get(index + 2).copied().unwrap_or_default();
                info.score = Some(format!("{value} {amount}"));
                index += 1;
            }
            _ => {}
        }
        index += 2;
    }
    info
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::core::Outcome;
    use crate::protocol::format;
    use crate::search::{Info, Score};

    #[test]
    fn what_the_daemon_writes_reads_back() {
        assert_eq!(Reply::parse("ugiok"), Reply::UgiOk);
        assert_eq!(Reply::parse("uciok"), Reply::UciOk);
        assert_eq!(Reply::parse(" readyok \r"), Reply::ReadyOk);
        let [name, author] = format::identity();
        assert!(
            matches!(Reply::parse(&name), Reply::Id { field, value } if field == "name" && value.starts_with("ternion "))
        );
        assert!(matches!(Reply::parse(&author), Reply::Id { field, .. } if field == "author"));
        assert_eq!(
            Reply::parse(&format::bestmove(Some("e3e4"), Some("e5e3"))),
            Reply::BestMove {
                best: Some("e3e4".into()),
                ponder: Some("e5e3".into())
            }
        );
        assert_eq!(
            Reply::parse(&format::bestmove(None, None)),
            Reply::BestMove {
                best: None,
                ponder: None
            }
        );
        assert_eq!(
            Reply::parse(&format::response("a1a2 b1b2")),
            Reply::Response("a1a2 b1b2".into())
        );
        let info = Info {
            depth: 7,
            seldepth: 12,
            score: Score::Mate(-3),
            nodes: 12345,
            nps: 99,
            time: Duration::from_millis(5),
            hashfull: 3,
            tbhits: Some(4),
            multipv: Some(2),
            pv: vec!["a1a2".to_owned(), "b7b6".to_owned()],
        };
        assert_eq!(
            Reply::parse(&format::info_line(&info)),
            Reply::Info(InfoReply {
                depth: Some(7),
                multipv: Some(2),
                score: Some("mate -2".into()),
                nodes: Some(12345),
                tbhits: Some(4),
                wdl: None,
                pv: info.pv.clone(),
                string: None,
            })
        );
        // With `UCI_ShowWDL`, the three per mille after the score.
        let model = crate::protocol::wdl::model(crate::games::Variant::Egaraguti);
        let shown = format::info_line_with(
            &info,
            Some(model.per_mille(info.score)),
            format::MateUnit::Moves,
        );
        assert!(
            shown.contains("score mate -2 wdl 0 0 1000 nodes"),
            "{shown}"
        );
        let Reply::Info(read) = Reply::parse(&shown) else {
            panic!("{shown}")
        };
        assert_eq!((read.wdl, read.nodes), (Some([0, 0, 1000]), Some(12345)));
        let error = Reply::parse(&format::error("bad-fen", "no kings"));
        let Reply::Info(error) = error else {
            panic!("{error:?}")
        };
        assert_eq!(error.error(), Some("bad-fen: no kings"));
        let Reply::Info(over) = Reply::parse(&format::gameover(Outcome::Draw)) else {
            panic!("gameover is an info line")
        };
        assert!(over.string.is_some() && over.error().is_none());
    }

    #[test]
    fn any_line_is_read_without_a_panic() {
        for line in [
            "",
            "   ",
            "bestmove",
            "info",
            "info score",
            "info depth x nodes",
            "id",
            "option name Hash type spin",
            "Nodes searched: 5",
        ] {
            let _ = Reply::parse(line);
        }
        assert_eq!(
            Reply::parse("Nodes searched: 5"),
            Reply::Other("Nodes searched: 5".into())
        );
        assert_eq!(
            Reply::parse("bestmove"),
            Reply::BestMove {
                best: None,
                ponder: None
            },
            "an answer that names no move"
        );
    }
}
