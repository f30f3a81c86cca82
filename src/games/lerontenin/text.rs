//! Lerontenin's text forms: the position string and the move notation.
//!
//! Position string, five fields: `<side> <light army> <dark army> <descL>/<descD> <ply>`.
//! An army lists its pieces in canonical order, comma-separated, each as
//! `<label>[=<power>]@<square>[+<freeze>][#<count>]`. Moves: `H-7` (forward, by destination),
//! `T/1+2` (division), `pass` (`0000` is read as a pass too).

use std::fmt::Write;

use super::army::{Army, END, Label, MAX_PIECES, ORIGINAL_LETTERS, ORIGINAL_POWERS, Piece};
use super::{Core, DESCENT_COMPLETE, Lerontenin, LeronteninMove};
use crate::core::{MoveError, Outcome, Player, PositionError, quote};
use crate::rules::{Notation, Rules};

const SIDE_LETTERS: [&str; 2] = ["L", "D"];
const SIDE_NAMES: [&str; 2] = ["Light", "Dark"];
/// Longest label: an original and six divisions.
const MAX_LABEL_LEN: usize = 7;

/// Reads a label such as `H`, `Tb` or `Xba`.
fn parse_label(text: &str) -> Option<Label> {
    let mut chars = text.chars();
    let letter = chars.next()?;
    let origin = ORIGINAL_LETTERS.iter().position(|&l| l == letter)? as u8;
    if text.len() > MAX_LABEL_LEN {
        return None;
    }
    let mut label = Label::original(origin);
    for part in chars {
        label = match part {
            'a' => label.child(false),
            'b' => label.child(true),
            _ => return None,
        };
    }
    Some(label)
}

/// A piece token as read, before the army's division tree is checked.
struct Token<'a> {
    text: &'a str,
    label: Label,
    power: Option<u8>,
    square: u8,
    freeze: u8,
    count: Option<u32>,
}

fn syntax(detail: String) -> PositionError {
    PositionError::Syntax(detail)
}

fn invalid(detail: String) -> PositionError {
    PositionError::Invalid(detail)
}

/// Reads an unsigned number field of a token or of the position string.
fn number<T: std::str::FromStr>(text: &str, what: &str, context: &str) -> Result<T, PositionError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax(format!(
            "{context}: the {what} must be a number, not {}",
            quote(text)
        )));
    }
    text.parse().map_err(|_| {
        invalid(format!(
            "{context}: the {what} {} is too large",
            quote(text)
        ))
    })
}

/// Reads `<label>[=<power>]@<square>[+<freeze>][#<count>]`.
fn parse_token(text: &str) -> Result<Token<'_>, PositionError> {
    let context = format!("piece {}", quote(text));
    let (head, rest) = text
        .split_once('@')
        .ok_or_else(|| syntax(format!("{context}: missing '@<square>'")))?;
    let (label_text, power) = match head.split_once('=') {
        Some((label, power)) => (label, Some(number::<u8>(power, "power", &context)?)),
        None => (head, None),
    };
    let label = parse_label(label_text)
        .ok_or_else(|| invalid(format!("{context}: unknown label {}", quote(label_text))))?;
    let (rest, count) = match rest.split_once('#') {
        Some((rest, count)) => (rest, Some(number::<u32>(count, "move count", &context)?)),
        None => (rest, None),
    };
    let (square, freeze) = match rest.split_once('+') {
        Some((square, freeze)) => (square, Some(number::<u8>(freeze, "freeze", &context)?)),
        None => (rest, None),
    };
    let square = number::<u8>(square, "square", &context)?;
    if square > END {
        return Err(invalid(format!(
            "{context}: square {square} is beyond {END}"
        )));
    }
    let freeze = match freeze {
        Some(0) => {
            return Err(invalid(format!(
                "{context}: write no '+0' for an unfrozen piece"
            )));
        }
        Some(f) if f > 7 => return Err(invalid(format!("{context}: freeze {f} is above 7"))),
        Some(f) => f,
        None => 0,
    };
    Ok(Token {
        text,
        label,
        power,
        square,
        freeze,
        count,
    })
}

/// Reads one army, checking that its tokens are the leaves of a valid division tree of the
/// seven originals, in canonical order.
fn parse_army(text: &str, side: usize) -> Result<Army, PositionError> {
    let context = format!("{} army", SIDE_NAMES[side]);
    let tokens = text
        .split(',')
        .map(parse_token)
        .collect::<Result<Vec<_>, _>>()?;
    if tokens.len() > MAX_PIECES {
        return Err(invalid(format!("{context}: more than {MAX_PIECES} pieces")));
    }
    let mut army = Army::empty();
    let mut next = 0;
    for origin in 0..ORIGINAL_POWERS.len() as u8 {
        let expected = ORIGINAL_POWERS[origin as usize];
        let power = read_subtree(
            &tokens,
            &mut next,
            Label::original(origin),
            &mut army,
            &context,
        )?;
        if power != expected {
            return Err(invalid(format!(
                "{context}: the parts of {} add up to {power}, not {expected}",
                ORIGINAL_LETTERS[origin as usize]
            )));
        }
    }
    if let Some(extra) = tokens.get(next) {
        return Err(invalid(format!(
            "{context}: piece {} is out of place or duplicated",
            quote(extra.text)
        )));
    }
    Ok(army)
}

/// Reads the pieces under `label` (the piece itself, or its two parts recursively) and
/// returns their total power.
fn read_subtree(
    tokens: &[Token],
    next: &mut usize,
    label: Label,
    army: &mut Army,
    context: &str,
) -> Result<u8, PositionError> {
    let token = tokens.get(*next).ok_or_else(|| {
        invalid(format!(
            "{context}: piece {label} (or its parts) is missing"
        ))
    })?;
    if token.label == label {
        *next += 1;
        let power = match (label.is_original(), token.power) {
            (true, None) => ORIGINAL_POWERS[label.origin as usize],
            (true, Some(_)) => {
                return Err(invalid(format!(
                    "{context}: {}: only fragments carry '=power'",
                    quote(token.text)
                )));
            }
            (false, Some(power)) if (1..=7).contains(&power) => power,
            (false, Some(power)) => {
                return Err(invalid(format!(
                    "{context}: fragment power {power} is not 1..7"
                )));
            }
            (false, None) => {
                return Err(invalid(format!(
                    "{context}: fragment {} needs '=power'",
                    quote(token.text)
                )));
            }
        };
        match (label.is_single(), token.count) {
            (true, Some(count)) => army.single_moves = count,
            (true, None) => {
                return Err(invalid(format!("{context}: the SINGLE needs '#<count>'")));
            }
            (false, Some(_)) => {
                return Err(invalid(format!(
                    "{context}: {}: only the SINGLE carries '#<count>'",
                    quote(token.text)
                )));
            }
            (false, None) => {}
        }
        army.push(Piece {
            label,
            power,
            square: token.square,
            freeze: token.freeze,
        });
        return Ok(power);
    }
    // Not the piece itself: it must have been divided, its `a` part coming first.
    let a_label = label.child(false);
    let divided = label.depth < 6 && is_under(token.label, a_label);
    if !divided || label.is_single() {
        return Err(invalid(format!(
            "{context}: expected {label} or its parts, found {}",
            quote(token.text)
        )));
    }
    let a = read_subtree(tokens, next, a_label, army, context)?;
    let b = read_subtree(tokens, next, label.child(true), army, context)?;
    if a > b {
        return Err(invalid(format!(
            "{context}: the parts of {label} have powers {a} and {b}: the 'a' part is the smaller"
        )));
    }
    Ok(a + b)
}

/// Whether `label` is `ancestor` or lies below it in the division tree.
fn is_under(label: Label, ancestor: Label) -> bool {
    let mask = (1u16 << ancestor.depth) - 1;
    label.origin == ancestor.origin
        && label.depth >= ancestor.depth
        && (label.path as u16 & mask) == ancestor.path as u16
}

/// A number of a move in canonical form: digits only, no leading zero.
fn canonical_number(text: &str) -> Option<u8> {
    let value: u8 = text.parse().ok()?;
    (value.to_string() == text).then_some(value)
}

fn write_army(out: &mut String, army: &Army) {
    for (index, piece) in army.pieces().iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        write!(out, "{}", piece.label).expect("writing to a String");
        if !piece.label.is_original() {
            write!(out, "={}", piece.power).expect("writing to a String");
        }
        write!(out, "@{}", piece.square).expect("writing to a String");
        if piece.freeze > 0 {
            write!(out, "+{}", piece.freeze).expect("writing to a String");
        }
        if piece.label.is_single() {
            write!(out, "#{}", army.single_moves).expect("writing to a String");
        }
    }
}

impl Lerontenin {
    /// Why the action on the piece labelled `label` is not legal now.
    fn illegal_reason(&self, label: Label, detail: &str) -> String {
        let us = self.core.side.index();
        let army = &self.core.armies[us];
        let Some(index) = army.find(label) else {
            return format!("{} has no piece {label}", SIDE_NAMES[us]);
        };
        let piece = army.pieces()[index];
        if piece.finished() {
            return format!("{label} has finished on {END}");
        }
        if piece.freeze > 0 {
            return format!("{label} is frozen for {} more turn(s)", piece.freeze);
        }
        format!("{label} {detail}")
    }
}

impl Notation for Lerontenin {
    fn ending(&self) -> Option<&'static str> {
        let outcome = self.outcome()?;
        // As make_move decides: all home first, then the descent, then repetition.
        let home = Player::BOTH
            .into_iter()
            .any(|p| self.army(p).all_finished());
        Some(if home && outcome != Outcome::Draw {
            "all its pieces are home"
        } else if self.core.descent.contains(&DESCENT_COMPLETE) {
            "the descending sequence H X P Q T D S (rule 13)"
        } else {
            "the state came a third time: the square totals decide (rule 14)"
        })
    }

    fn parse_position(text: &str) -> Result<Self, PositionError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        match fields.len() {
            0 => return Err(PositionError::Empty),
            1..=4 => {
                return Err(syntax(format!(
                    "{} fields given, a position has 5: side, Light army, Dark army, \
                     descent counters, ply",
                    fields.len()
                )));
            }
            5 => {}
            _ => {
                return Err(syntax(format!(
                    "unexpected text after the ply: {}",
                    quote(fields[5])
                )));
            }
        }
        let side = match fields[0] {
            "L" => Player::P1,
            "D" => Player::P2,
            other => {
                return Err(syntax(format!(
                    "side to move must be 'L' or 'D', not {}",
                    quote(other)
                )));
            }
        };
        let armies = [parse_army(fields[1], 0)?, parse_army(fields[2], 1)?];
        let (light, dark) = fields[3].split_once('/').ok_or_else(|| {
            syntax(format!(
                "descent counters must read <light>/<dark>, not {}",
                quote(fields[3])
            ))
        })?;
        let mut descent = [0u8; 2];
        for (slot, text) in descent.iter_mut().zip([light, dark]) {
            *slot = number(text, "descent counter", "counters")?;
            if *slot > DESCENT_COMPLETE {
                return Err(invalid(format!(
                    "descent counter {slot} is above {DESCENT_COMPLETE}"
                )));
            }
        }
        let ply = number(fields[4], "ply", "position")?;
        if armies.iter().all(Army::all_finished) {
            return Err(invalid("both armies have finished".into()));
        }
        let mut core = Core {
            armies,
            descent,
            side,
            ply,
            result: None,
            hash: 0,
        };
        core.hash = core.compute_hash();
        core.result = core.result_of_given_state();
        Ok(Lerontenin::from_core(core))
    }

    fn position_string(&self) -> String {
        let core = &self.core;
        let mut out = String::with_capacity(160);
        out.push_str(SIDE_LETTERS[core.side.index()]);
        for army in &core.armies {
            out.push(' ');
            write_army(&mut out, army);
        }
        write!(out, " {}/{} {}", core.descent[0], core.descent[1], core.ply)
            .expect("writing to a String");
        out
    }

    fn parse_move(&self, text: &str) -> Result<LeronteninMove, MoveError> {
        if text.is_empty() {
            return Err(MoveError::Empty);
        }
        let syntax = || {
            MoveError::Syntax(format!(
                "{} is not a Lerontenin move (expected H-7, T/1+2 or pass)",
                quote(text)
            ))
        };
        if !text.is_ascii() || text.len() > 16 {
            return Err(syntax());
        }
        if self.core.result.is_some() {
            return Err(MoveError::GameOver);
        }
        let mut legal = Vec::new();
        self.generate_moves(&mut legal);
        let illegal = |reason: String| Err(MoveError::Illegal(reason));
        if text == "pass" || text == "0000" {
            return if legal == [LeronteninMove::Pass] {
                Ok(LeronteninMove::Pass)
            } else {
                illegal("a pass is legal only when nothing else is".into())
            };
        }
        let army = &self.core.armies[self.core.side.index()];
        if let Some((label_text, destination)) = text.split_once('-') {
            let label = parse_label(label_text).ok_or_else(syntax)?;
            let destination = canonical_number(destination).ok_or_else(syntax)?;
            let found = legal.iter().copied().find(|&mv| match mv {
                LeronteninMove::Forward { piece, steps } => {
                    let p = army.pieces()[piece as usize];
                    p.label == label && p.square + steps == destination
                }
                _ => false,
            });
            return found.map_or_else(
                || {
                    let steps = match army.find(label).map(|i| army.pieces()[i]) {
                        Some(p) if p.label.is_single() && army.single_power() != 1 => {
                            format!("1 or {}", army.single_power())
                        }
                        Some(p) => p.power.to_string(),
                        None => String::new(),
                    };
                    illegal(self.illegal_reason(
                        label,
                        &format!(
                            "cannot reach {destination}: it moves exactly {steps} square(s) \
                             and may not pass {END}"
                        ),
                    ))
                },
                Ok,
            );
        }
        if let Some((label_text, split)) = text.split_once('/') {
            let label = parse_label(label_text).ok_or_else(syntax)?;
            let (a, b) = split.split_once('+').ok_or_else(syntax)?;
            let (a, b) = (
                canonical_number(a).ok_or_else(syntax)?,
                canonical_number(b).ok_or_else(syntax)?,
            );
            let found = legal.iter().copied().find(|&mv| match mv {
                LeronteninMove::Divide { piece, smaller } => {
                    let p = army.pieces()[piece as usize];
                    p.label == label && smaller == a && p.power as u16 == a as u16 + b as u16
                }
                _ => false,
            });
            return found.map_or_else(
                || {
                    illegal(self.illegal_reason(
                        label,
                        "cannot divide so: only a stuck piece (power >= 2, no forward move \
                         left) divides, into a + b = its power with 1 <= a <= b",
                    ))
                },
                Ok,
            );
        }
        Err(syntax())
    }

    fn move_string(&self, mv: LeronteninMove) -> String {
        let army = &self.core.armies[self.core.side.index()];
        match mv {
            LeronteninMove::Forward { piece, steps } => {
                let p = army.pieces()[piece as usize];
                format!("{}-{}", p.label, p.square + steps)
            }
            LeronteninMove::Divide { piece, smaller } => {
                let p = army.pieces()[piece as usize];
                format!("{}/{}+{}", p.label, smaller, p.power - smaller)
            }
            LeronteninMove::Pass => "pass".to_owned(),
        }
    }
}
