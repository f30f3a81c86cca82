//! Every line the engine writes in the protocol, spelled in one place: the daemon, the
//! command line (`analyze`, `bench`) and the board's server all print through here, so
//! that a word of the protocol changes in one function.

use super::wdl::RootWdl;
use std::fmt::Write;

use crate::bench::BenchLine;
use crate::core::{Outcome, Player};
use crate::engine::{Event, Session, TableView};
use crate::eval::network::Network;
use crate::games::Variant;
use crate::search::{Info, Score};

/// The longest detail an error line carries (the echoed input in it is shorter still).
const MAX_ERROR_DETAIL: usize = 200;

/// What `mate <n>` counts: UCI's moves of the side to move, or UGI 1.0's plies ("Mate in
/// `<x>` plies, not moves"). The daemon speaks as the handshake asked: plies after `ugi`,
/// moves after `uci` (and before any handshake, as it always has).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MateUnit {
    #[default]
    Moves,
    Plies,
}

/// A score as the protocol writes it: `cp <x>`, or `mate <n>` in moves of the side to
/// move.
pub fn score(score: Score) -> String {
    score_in(score, MateUnit::Moves)
}

/// A score as the protocol writes it, `mate <n>` counted in `unit`.
pub fn score_in(score: Score, unit: MateUnit) -> String {
    match (score, unit) {
        (Score::Centipawns(cp), _) => format!("cp {cp}"),
        (Score::Mate(plies), MateUnit::Plies) => format!("mate {plies}"),
        // UCI GUIs read moves of the side to move: a win in 5 plies is `mate 3`, a loss
        // in 4 plies `mate -2` (and one in 3 plies, the side to move's own move then
        // losing, `mate -2` too).
        (Score::Mate(plies), MateUnit::Moves) if plies > 0 => format!("mate {}", (plies + 1) / 2),
        (Score::Mate(plies), MateUnit::Moves) => format!("mate {}", -((-plies + 1) / 2)),
    }
}

/// The `info` line of a completed iteration, its line in notation.
pub fn info_line(info: &Info<String>) -> String {
    info_line_with(info, None, MateUnit::Moves)
}

/// The `info` line of a completed iteration, with `wdl <win> <draw> <loss>` after the score
/// when given (`UCI_ShowWDL`), a mate counted in `unit`.
pub fn info_line_with(info: &Info<String>, wdl: Option<[u32; 3]>, unit: MateUnit) -> String {
    let mut out = String::with_capacity(128);
    write!(out, "info depth {} seldepth {} ", info.depth, info.seldepth)
        .expect("writing to a String");
    if let Some(index) = info.multipv {
        write!(out, "multipv {index} ").expect("writing to a String");
    }
    write!(out, "score {}", score_in(info.score, unit)).expect("writing to a String");
    if let Some([win, draw, loss]) = wdl {
        write!(out, " wdl {win} {draw} {loss}").expect("writing to a String");
    }
    write!(
        out,
        " nodes {} nps {} time {} hashfull {}",
        info.nodes,
        info.nps,
        info.time.as_millis(),
        info.hashfull
    )
    .expect("writing to a String");
    if let Some(hits) = info.tbhits {
        write!(out, " tbhits {hits}").expect("writing to a String");
    }
    if !info.pv.is_empty() {
        out.push_str(" pv ");
        out.push_str(&info.pv.join(" "));
    }
    out
}

/// The answer of a search: `bestmove <move> [ponder <move>]`, or `bestmove (none)` when
/// the game is over.
pub fn bestmove(best: Option<&str>, ponder: Option<&str>) -> String {
    let mut out = format!("bestmove {}", best.unwrap_or("(none)"));
    if let (Some(_), Some(reply)) = (best, ponder) {
        out.push_str(" ponder ");
        out.push_str(reply);
    }
    out
}

/// The line of an engine event.
pub fn event(event: &Event) -> String {
    event_with(event, None, MateUnit::Moves)
}

/// The line of `event`, its `info` lines with the win, draw and loss of `wdl` when given,
/// a mate counted in `unit`.
pub fn event_with(event: &Event, wdl: Option<&RootWdl>, unit: MateUnit) -> String {
    match event {
        Event::Info(info) => info_line_with(info, wdl.map(|wdl| wdl.of(info)), unit),
        Event::Fault(detail) => error("internal", detail),
        Event::GameOver(outcome) => gameover(*outcome),
        Event::CurrMove { depth, mv, number } => {
            format!("info depth {depth} currmove {mv} currmovenumber {number}")
        }
        Event::BestMove { best, ponder } => bestmove(best.as_deref(), ponder.as_deref()),
    }
}

/// The one line of a rejected command or a fault: `info string error <kind>: <detail>`.
/// The detail is cut short and made printable, whatever it quotes.
pub fn error(kind: &str, detail: impl std::fmt::Display) -> String {
    let detail = crate::core::printable::cut(&detail.to_string(), MAX_ERROR_DETAIL);
    format!("info string error {kind}: {detail}")
}

/// A line of information for people: `info string <text>`.
pub fn info_string(text: impl std::fmt::Display) -> String {
    format!("info string {text}")
}

/// Who the engine is: the first lines of the answer to `ugi` and `uci`.
pub fn identity() -> [String; 2] {
    [
        format!("id name ternion {}", env!("CARGO_PKG_VERSION")),
        "id author the ternion developers".to_owned(),
    ]
}

/// The line after a new variant is set: its name and start position.
pub fn variant_set(variant: Variant, start: &str) -> String {
    info_string(format!("variant {variant} startpos {start}"))
}

/// The line before `bestmove (none)` when `go` finds the game over.
pub fn gameover(outcome: Outcome) -> String {
    info_string(format!("gameover {}", result_word(Some(outcome))))
}

/// The answer to a `query`.
pub fn response(answer: impl std::fmt::Display) -> String {
    format!("response {answer}")
}

/// The protocol's word for a result.
pub fn result_word(result: Option<Outcome>) -> &'static str {
    match result {
        None => "none",
        Some(Outcome::Draw) => "draw",
        Some(Outcome::Win(Player::P1)) => "p1win",
        Some(Outcome::Win(Player::P2)) => "p2win",
    }
}

/// The result a word of [`result_word`] names (`none` is no result, so `None` too).
pub fn outcome_of_word(word: &str) -> Option<Outcome> {
    [
        Outcome::Draw,
        Outcome::Win(Player::P1),
        Outcome::Win(Player::P2),
    ]
    .into_iter()
    .find(|&outcome| result_word(Some(outcome)) == word)
}

/// The protocol's word for a player.
pub fn player_word(player: Player) -> &'static str {
    match player {
        Player::P1 => "p1",
        Player::P2 => "p2",
    }
}

/// The player a word of [`player_word`] names.
pub fn player_of_word(word: &str) -> Option<Player> {
    Player::BOTH
        .into_iter()
        .find(|&player| player_word(player) == word)
}

/// A list of moves on one line, `none` for no move.
pub fn move_list(moves: &[String]) -> String {
    if moves.is_empty() {
        "none".to_owned()
    } else {
        moves.join(" ")
    }
}

/// The answer of `query tables`: `none`, or the position's value and distance for the side
/// to move, then each legal move with its value and distance for the side that plays it,
/// best first: `draw 0 b2b3 draw 0 c3c4 loss 7`. A distance counts the plies to the capture
/// or block that decides the value (0 where the men count's verdict needs nothing to
/// happen).
pub fn table_view(view: Option<&TableView>) -> String {
    let Some(view) = view else {
        return "none".to_owned();
    };
    let mut text = format!("{} {}", view.value.wdl.name(), view.value.distance);
    for (mv, exact) in &view.moves {
        text.push_str(&format!(" {mv} {} {}", exact.wdl.name(), exact.distance));
    }
    text
}

/// The line of one bench position.
pub fn bench_line(line: &BenchLine) -> String {
    format!(
        "{} {} depth {} time {} nodes {} score {} bestmove {} pv {}",
        line.index,
        line.variant,
        line.depth,
        line.time.as_millis(),
        line.nodes,
        score(line.score),
        line.best.as_deref().unwrap_or("(none)"),
        line.pv.join(" ")
    )
}

/// The bench's last line: its signature and speed.
pub fn bench_total(nodes: u64, nps: u64) -> String {
    format!("{nodes} nodes {nps} nps")
}

/// The count below one root move in `go perft`.
pub fn perft_move(mv: &str, count: u64) -> String {
    format!("{mv}: {count}")
}

/// The line of a `go perft` stopped before every root move was counted.
pub fn perft_stopped(counted: usize, moves: usize) -> String {
    info_string(format!(
        "perft stopped: {counted} of {moves} moves counted, the total is theirs"
    ))
}

/// The line of a bench stopped before its end.
pub fn bench_stopped() -> String {
    info_string("bench stopped: the node count is partial")
}

/// The last line of `go perft` (and the total of `ternion perft`).
pub fn perft_total(nodes: u64) -> String {
    format!("Nodes searched: {nodes}")
}

/// The last line of `ternion perft`: how long the count took, and its speed.
pub fn perft_speed(elapsed: std::time::Duration, nps: u64) -> String {
    format!("time {} nps {nps}", elapsed.as_millis())
}

/// The lines of `d`: the diagram, then the position's facts.
pub fn display(session: &dyn Session) -> Vec<String> {
    let mut lines: Vec<String> = session
        .diagram()
        .into_iter()
        .map(|line| format!("  {line}"))
        .collect();
    lines.push(format!("Variant: {}", session.variant()));
    lines.push(format!("Fen: {}", session.fen()));
    lines.push(format!(
        "Side to move: {}",
        player_word(session.side_to_move())
    ));
    lines.push(format!(
        "Legal moves: {}",
        move_list(&session.legal_moves())
    ));
    lines.push(format!("Result: {}", result_word(session.result())));
    lines
}

/// The lines of `eval`: every feature the position has (value not 0) with its weight and
/// their product, then the terms' total for the side to move, the network's value where
/// the variant has one, and last the value the search plays with.
pub fn eval(session: &dyn Session) -> Vec<String> {
    let Some(terms) = session.eval_terms() else {
        return vec![format!(
            "Eval: none, the game is over ({})",
            result_word(session.result())
        )];
    };
    let mut lines = vec![format!(
        "{:<24} {:>7} {:>7} {:>8}",
        "feature", "value", "weight", "score"
    )];
    let mut total = 0;
    for term in terms.iter().filter(|term| term.value != 0) {
        let score = term.value * term.weight;
        total += score;
        lines.push(format!(
            "{:<24} {:>7} {:>7} {:>8}",
            term.feature, term.value, term.weight, score
        ));
    }
    let side = player_word(session.side_to_move());
    lines.push(format!("Terms: {total} for the side to move ({side})"));
    let mut used = (total, "the terms");
    if let Some(network) = session.network_eval() {
        lines.push(format!(
            "Network: {} for the side to move ({side}), {}",
            network.value, network.source
        ));
        if network.in_use {
            used = (network.value, "the network");
        }
    }
    lines.push(format!(
        "Eval: {} for the side to move ({side}), by {}",
        used.0, used.1
    ));
    lines
}

/// The line that says `EvalFile` loaded a network.
pub fn network_loaded(variant: Variant, name: &str, network: &Network) -> String {
    format!(
        "info string EvalFile {name}: a network of {variant}, {}{}",
        network.shape_words(),
        match network.on_terms() {
            true => ", on the hand-written terms",
            false => "",
        }
    )
}

/// The line of `setoption name EvalFile value <empty>`: what the variant now plays with.
pub fn network_unloaded(variant: Variant, built_in: bool) -> String {
    match built_in {
        true => format!("info string EvalFile <empty>: {variant} plays its built-in network"),
        false => format!(
            "info string EvalFile <empty>: {variant} has no built-in network, it plays its \
             hand-written evaluation"
        ),
    }
}

/// The lines of `help`, with the options' names (`A, B, ...`) folded in.
pub fn help(option_names: &str) -> Vec<String> {
    const OPTIONS_AT: &str = "  setoption name <id> [value <x>] ";
    const INDENT: &str = "                                  ";
    let mut lines = vec![
        "ternion speaks UGI (and UCI spellings). Commands:".to_owned(),
        "  ugi | uci                       identify, list options".to_owned(),
        "  isready                         answered with readyok, even while searching".to_owned(),
    ];
    // The option names, folded after the word that passes the width of the other lines.
    let mut line = OPTIONS_AT.to_owned();
    for name in option_names.split(' ') {
        if line.len() > OPTIONS_AT.len() && line.len() + name.len() > 80 {
            lines.push(line.trim_end().to_owned());
            line = INDENT.to_owned();
        }
        line.push_str(name);
        line.push(' ');
    }
    lines.push(line.trim_end().to_owned());
    lines.extend(
        [
            "  uginewgame | ucinewgame         clear the table, back to the start position",
            "  position [variant <v>] startpos|fen <fen> [moves <m>...]",
            "  moves <m>...                    play moves on from the current position",
            "  go [p1time|wtime <ms>] [p2time|btime <ms>] [p1inc|winc <ms>] [p2inc|binc <ms>]",
            "     [movestogo <n>] [movetime <ms>] [depth <n>] [nodes <n>] [mate <n>]",
            "     [searchmoves <m>...] [ponder] [infinite]",
            "  go perft <n>                    count moves to depth n, by move",
            "  stop | ponderhit | quit         stop answers at once; nothing waits for a search",
            "  query gameover|p1turn|p2turn|result|reason|legalmoves|islegal <m>|fen|variant|svg",
            "        |tables",
            "  d                               show the position",
            "  eval                            the static evaluation, feature by feature",
            "  bench [depth]                   the search signature",
        ]
        .map(str::to_owned),
    );
    lines.into_iter().map(info_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_in_moves_of_the_side_to_move() {
        assert_eq!(score(Score::Mate(-2)), "mate -1");
        assert_eq!(score(Score::Mate(5)), "mate 3");
        assert_eq!(score(Score::Mate(1)), "mate 1");
        assert_eq!(score(Score::Mate(-4)), "mate -2");
        assert_eq!(score(Score::Mate(-3)), "mate -2");
        assert_eq!(score(Score::Mate(0)), "mate 0");
        // UGI 1.0 counts plies.
        for plies in [-4, -3, -1, 1, 5] {
            let shown = score_in(Score::Mate(plies), MateUnit::Plies);
            assert_eq!(shown, format!("mate {plies}"));
        }
        assert_eq!(score_in(Score::Centipawns(-7), MateUnit::Plies), "cp -7");
        assert_eq!(score(Score::Centipawns(-4)), "cp -4");
    }

    #[test]
    fn help_folds_the_option_names() {
        let lines =
            help("UCI_Variant, Hash, ClearHash, MoveOverhead, Threads, MultiPV, Ponder, TablePath");
        assert_eq!(
            lines[3],
            "info string   setoption name <id> [value <x>] UCI_Variant, Hash, ClearHash, MoveOverhead,"
        );
        assert_eq!(
            lines[4],
            "info string                                   Threads, MultiPV, Ponder, TablePath"
        );
    }

    #[test]
    fn a_root_move_of_a_long_search() {
        let line = event(&Event::CurrMove {
            depth: 12,
            mv: "d2d3".into(),
            number: 3,
        });
        assert_eq!(line, "info depth 12 currmove d2d3 currmovenumber 3");
    }

    #[test]
    fn an_emptied_eval_file_says_what_the_variant_plays() {
        // Every variant ships a network now; a game added without one plays its terms.
        assert_eq!(
            network_unloaded(Variant::Egaraguti, true),
            "info string EvalFile <empty>: egaraguti plays its built-in network"
        );
        assert_eq!(
            network_unloaded(Variant::Lielow, false),
            "info string EvalFile <empty>: lielow has no built-in network, it plays its \
             hand-written evaluation"
        );
    }

    #[test]
    fn best_moves_with_and_without_a_reply() {
        assert_eq!(bestmove(Some("a2a3"), None), "bestmove a2a3");
        assert_eq!(
            bestmove(Some("a2a3"), Some("b7b6")),
            "bestmove a2a3 ponder b7b6"
        );
        assert_eq!(bestmove(None, None), "bestmove (none)");
    }

    #[test]
    fn error_details_are_cut_and_printable() {
        let line = error("bad-fen", format!("{}\n", "x".repeat(500)));
        assert!(line.starts_with("info string error bad-fen: xxx"));
        assert!(line.len() < 260 && !line.contains('\n'), "{line}");
    }
}
