//! Text forms of search results, shared by the command line and the protocol.

use std::fmt::Write;

use super::Info;
use crate::game::GameText;

/// The notation of a line of moves played from `root`: each move is written in the position
/// it is played in (the notation of some games depends on the position).
pub fn line_string<G: GameText>(root: &G, line: &[G::Move]) -> String {
    let mut game = root.clone();
    let mut out = String::new();
    for (index, &mv) in line.iter().enumerate() {
        if index > 0 {
            out.push(' ');
        }
        out.push_str(&game.move_string(mv));
        game.make_move(mv);
    }
    out
}

/// The protocol's `info` line for a completed iteration searched from `root`.
pub fn info_line<G: GameText>(root: &G, info: &Info<G::Move>) -> String {
    let mut out = String::with_capacity(128);
    write!(out, "info depth {} seldepth {} ", info.depth, info.seldepth,)
        .expect("writing to a String");
    if let Some(index) = info.multipv {
        write!(out, "multipv {index} ").expect("writing to a String");
    }
    write!(
        out,
        "score {} nodes {} nps {} time {} hashfull {}",
        info.score,
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
        out.push_str(&line_string(root, &info.pv));
    }
    out
}
