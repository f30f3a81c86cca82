//! Self-play data relabelled by the tables: a position the tables solve exactly takes their
//! value as its result, in place of the result its game happened to reach.
//!
//! A game's result is a noisy label for each of its positions: a won position can still be
//! lost by a later mistake. The tables know the result under perfect play, so the tuner learns
//! from the truth wherever it is known. Only exact values are used (the value at the
//! position's own 40-ply counter); a position of more men, or one whose table is missing,
//! keeps its game's result.

use crate::core::Player;
use crate::core::Wdl;
use crate::games::egaraguti::EgaraGuti;
use crate::games::egaraguti::tablebase::set::{Tablebase, men_of};
use crate::rules::Notation;
use crate::rules::Rules;

/// What relabelling did to a data set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabelCount {
    /// Lines read.
    pub lines: usize,
    /// Positions the tables solve exactly at their counter.
    pub solved: usize,
    /// Of those, the positions whose game had reached another result.
    pub changed: usize,
}

/// The result of `position` under perfect play, from the first player's side (1, 0.5 or 0),
/// where the tables know it exactly at the position's counter. Tables are loaded from the
/// set's directory as they are needed.
pub fn exact_result(tables: &mut Tablebase, position: &str) -> Result<Option<f64>, String> {
    let game = EgaraGuti::parse_position(position).map_err(|e| format!("{e}: {position}"))?;
    if game.outcome().is_some() {
        return Ok(None);
    }
    let material = men_of(&game).material();
    if !material.is_tabled() || !tables.load(material)? {
        return Ok(None);
    }
    let Some(probe) = tables.probe(&game).filter(|probe| probe.exact) else {
        return Ok(None);
    };
    let for_first = if game.side_to_move() == Player::P1 {
        probe.value
    } else {
        probe.value.flipped()
    };
    Ok(Some(match for_first {
        Wdl::Win => 1.0,
        Wdl::Draw => 0.5,
        Wdl::Loss => 0.0,
    }))
}

/// Every line of `text` (`<result> <position>`, the result from the first player's side)
/// with the tables' result where they know it exactly, the others as they are; and what
/// changed. Errors say `<name>:<line>: ...`.
pub fn relabel_all(
    tables: &mut Tablebase,
    name: &str,
    text: &str,
) -> Result<(String, LabelCount), String> {
    let mut out = String::with_capacity(text.len());
    let mut count = LabelCount::default();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |what: String| format!("{name}:{}: {what}", index + 1);
        count.lines += 1;
        let (result, rest) = line
            .split_once(' ')
            .ok_or_else(|| at(format!("not a data line: {line}")))?;
        // The search's score, when the line keeps one, stays as it is: only the result is
        // the tables' to give.
        let (position, score) = match rest.rsplit_once(" ; ") {
            Some((position, score)) => (position, Some(score)),
            None => (rest, None),
        };
        let played: f64 = result
            .parse()
            .map_err(|_| at(format!("not a result: {result}")))?;
        match exact_result(tables, position).map_err(at)? {
            Some(exact) => {
                count.solved += 1;
                if exact != played {
                    count.changed += 1;
                }
                out.push_str(&format!("{exact} {position}"));
                if let Some(score) = score {
                    out.push_str(&format!(" ; {score}"));
                }
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    Ok((out, count))
}
