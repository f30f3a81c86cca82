//! Lielow's text forms: the position string and the move notation.
//!
//! Position string: ranks from the top down separated by `/`; a digit is a run of empty
//! squares (consecutive digits add up), a stack is `b<h>` or `r<h>` with a one-digit height,
//! followed by `*` when it carries its player's crown; then the side to move, `b` or `r`.
//! Moves: `<from><to>` (`d2d3`) or `<from>off` (`a2off`).

use std::fmt::Write;

use super::geometry::Geometry;
use super::{Lielow, LielowMove};
use crate::core::{BitSet, MoveError, Outcome, Player, PositionError, quote};
use crate::rules::{Notation, Rules};

/// Blue (p1) and Red (p2), as the letters of the position string and as words.
pub(super) const LETTERS: [char; 2] = ['b', 'r'];
const NAMES: [&str; 2] = ["Blue", "Red"];

fn player_of_letter(letter: char) -> Option<Player> {
    LETTERS
        .iter()
        .position(|&l| l == letter)
        .map(|i| Player::BOTH[i])
}

/// The name of a square, `a1`..`i9`.
pub(super) fn square_name(square: usize, n: usize) -> String {
    let file = (b'a' + (square % n) as u8) as char;
    format!("{file}{}", square / n + 1)
}

/// Reads a two-character square name of an n x n board.
fn parse_square(text: &str, n: usize) -> Option<usize> {
    let &[file, rank] = text.as_bytes() else {
        return None;
    };
    let file = file.checked_sub(b'a')? as usize;
    let rank = rank.checked_sub(b'1')? as usize;
    (file < n && rank < n).then_some(rank * n + file)
}

/// Reads one rank of the board into `(file, player, height, crowned)` entries.
fn parse_rank(
    text: &str,
    rank_number: usize,
    n: usize,
) -> Result<Vec<(usize, Player, u8, bool)>, PositionError> {
    let syntax = |detail: String| PositionError::Syntax(format!("rank {rank_number}: {detail}"));
    let mut stacks = Vec::new();
    let mut file = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '0' => return Err(syntax("a run of empty squares cannot be 0".into())),
            '1'..='9' => file += ch as usize - '0' as usize,
            'b' | 'r' => {
                let player = player_of_letter(ch).expect("b and r are player letters");
                let height = match chars.next() {
                    Some(digit @ '0'..='9') => digit as u8 - b'0',
                    _ => return Err(syntax(format!("stack '{ch}' without a height digit"))),
                };
                if height == 0 || height as usize > n {
                    return Err(PositionError::Invalid(format!(
                        "rank {rank_number}: stack height {height} is outside 1..{n}"
                    )));
                }
                let crowned = chars.next_if_eq(&'*').is_some();
                stacks.push((file, player, height, crowned));
                file += 1;
            }
            '*' => return Err(syntax("'*' must follow a stack".into())),
            other => {
                return Err(syntax(format!(
                    "unexpected character {}",
                    quote(&other.to_string())
                )));
            }
        }
        if file > n {
            return Err(syntax(format!("more than {n} squares")));
        }
    }
    if file < n {
        return Err(syntax(format!("{file} squares, expected {n}")));
    }
    Ok(stacks)
}

impl<G: Geometry> Lielow<G> {
    /// Why `mv`, which is not among the legal moves, is illegal.
    fn illegal_reason(&self, from: usize, to: Option<usize>) -> String {
        let n = G::N;
        let us = self.side;
        let from_name = square_name(from, n);
        let Some((owner, height, _)) = self.stack_at(from) else {
            return format!("no stack on {from_name}");
        };
        if owner != us {
            return format!(
                "{from_name} holds a {} stack, but {} is to move",
                NAMES[owner.index()],
                NAMES[us.index()]
            );
        }
        let (file, rank) = ((from % n) as isize, (from / n) as isize);
        match to {
            None => format!(
                "the stack on {from_name} has height {height} and cannot leave the board \
                 from there"
            ),
            Some(to) => {
                let file_distance = ((to % n) as isize - file).abs();
                let rank_distance = ((to / n) as isize - rank).abs();
                let on_a_line =
                    file_distance == 0 || rank_distance == 0 || file_distance == rank_distance;
                if !on_a_line || file_distance.max(rank_distance) != height as isize {
                    format!(
                        "the stack on {from_name} has height {height}: it moves exactly \
                         {height} squares along a line"
                    )
                } else {
                    format!("{} holds a {} stack", square_name(to, n), NAMES[us.index()])
                }
            }
        }
    }
}

impl<G: Geometry> Notation for Lielow<G> {
    fn ending(&self) -> Option<&'static str> {
        let Outcome::Win(winner) = self.outcome()? else {
            return Some("a draw");
        };
        Some(if self.stacks[winner.opponent().index()].is_empty() {
            "no stacks left"
        } else {
            "the king was lost"
        })
    }

    fn parse_position(text: &str) -> Result<Self, PositionError> {
        let n = G::N;
        // Fields are checked left to right, so the first mistake is the one reported.
        let mut fields = text.split_ascii_whitespace();
        let board = fields.next().ok_or(PositionError::Empty)?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != n {
            return Err(PositionError::Invalid(format!(
                "{} ranks given, but {} is played on {n}x{n}",
                ranks.len(),
                G::VARIANT
            )));
        }
        let mut position = Self::empty(Player::P1);
        let mut crowns: [Option<usize>; 2] = [None; 2];
        for (index, rank_text) in ranks.iter().enumerate() {
            let rank = n - 1 - index;
            for (file, player, height, crowned) in parse_rank(rank_text, rank + 1, n)? {
                let square = rank * n + file;
                position.put(player, square, height);
                if crowned {
                    if let Some(first) = crowns[player.index()] {
                        return Err(PositionError::Invalid(format!(
                            "{} has two crowns, on {} and {}",
                            NAMES[player.index()],
                            square_name(first, n),
                            square_name(square, n)
                        )));
                    }
                    crowns[player.index()] = Some(square);
                }
            }
        }
        position.side = match fields.next() {
            Some("b") => Player::P1,
            Some("r") => Player::P2,
            Some(other) => {
                return Err(PositionError::Syntax(format!(
                    "side to move must be 'b' or 'r', not {}",
                    quote(other)
                )));
            }
            None => {
                return Err(PositionError::Syntax(
                    "missing the side to move ('b' or 'r') after the board".into(),
                ));
            }
        };
        if let Some(extra) = fields.next() {
            return Err(PositionError::Syntax(format!(
                "unexpected text after the side to move: {}",
                quote(extra)
            )));
        }
        if position.stacks.iter().all(|stacks| stacks.is_empty()) {
            return Err(PositionError::Invalid("no stacks on the board".into()));
        }
        for player in Player::BOTH {
            if let Some(square) = crowns[player.index()] {
                position.set_crown(player, square as u8);
            }
        }
        position.result = position.result_from_material();
        position.hash = position.hash_from_scratch();
        Ok(position)
    }

    fn position_string(&self) -> String {
        let n = G::N;
        let mut out = String::with_capacity(n * n * 3);
        for rank in (0..n).rev() {
            let mut empty_run = 0;
            for file in 0..n {
                match self.stack_at(rank * n + file) {
                    None => empty_run += 1,
                    Some((player, height, crowned)) => {
                        if empty_run > 0 {
                            write!(out, "{empty_run}").expect("writing to a String");
                            empty_run = 0;
                        }
                        out.push(LETTERS[player.index()]);
                        write!(out, "{height}").expect("writing to a String");
                        if crowned {
                            out.push('*');
                        }
                    }
                }
            }
            if empty_run > 0 {
                write!(out, "{empty_run}").expect("writing to a String");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(LETTERS[self.side.index()]);
        out
    }

    fn parse_move(&self, text: &str) -> Result<LielowMove, MoveError> {
        let n = G::N;
        if text.is_empty() {
            return Err(MoveError::Empty);
        }
        let syntax = || {
            MoveError::Syntax(format!(
                "{} is not a Lielow move (expected <from><to> such as d2d3, or <from>off)",
                quote(text)
            ))
        };
        if !text.is_ascii() || text.len() < 4 {
            return Err(syntax());
        }
        let (from_text, to_text) = text.split_at(2);
        let from = parse_square(from_text, n).ok_or_else(syntax)?;
        let to = match to_text {
            "off" => None,
            square => Some(parse_square(square, n).ok_or_else(syntax)?),
        };
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        let candidate = match to {
            Some(to) => LielowMove::on_board(from, to),
            None => LielowMove::off(from),
        };
        let mut legal = Vec::new();
        self.generate_moves(&mut legal);
        if legal.contains(&candidate) {
            Ok(candidate)
        } else {
            Err(MoveError::Illegal(self.illegal_reason(from, to)))
        }
    }

    fn move_string(&self, mv: LielowMove) -> String {
        let n = G::N;
        let mut out = square_name(mv.from(), n);
        match mv.to() {
            Some(to) => out.push_str(&square_name(to, n)),
            None => out.push_str("off"),
        }
        out
    }
}
