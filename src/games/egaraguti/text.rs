//! Egara-guti's text forms: the position string and the move notation.
//!
//! Position string: the ranks 7 down to 1 separated by `/` (5/3/3/1/3/3/5 points, left to
//! right), `w` and `b` for men and digits for runs of empty points; then the side to move,
//! the plies since the last capture and the fullmove number (both counters optional).
//! Moves: the point names of the path, concatenated (`d3e4`, `e5e3`, `a1e1i1`).

use std::fmt::Write;

use super::board::{LEAP_OVER, NAMES, NEIGHBOURS, NO_POINT, RANKS_TOP_DOWN, point_by_name};
use super::{EgaraGuti, EgaraMove, MEN_PER_SIDE, QUIET_PLY_LIMIT, bit};
use crate::core::{MoveError, Player, PositionError, quote};
use crate::rules::{Notation, Rules};

/// White (p1) and Black (p2), as letters and as words.
const LETTERS: [char; 2] = ['w', 'b'];
const COLOURS: [&str; 2] = ["White", "Black"];

/// Reads a counter field of the position string.
fn parse_counter(text: &str, what: &str) -> Result<u32, PositionError> {
    if text.starts_with('-') {
        return Err(PositionError::Invalid(format!(
            "the {what} cannot be negative: {}",
            quote(text)
        )));
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::Syntax(format!(
            "the {what} must be a number, not {}",
            quote(text)
        )));
    }
    text.parse()
        .map_err(|_| PositionError::Invalid(format!("the {what} is too large: {}", quote(text))))
}

/// Reads the board field into the men of each side.
fn parse_board(board: &str) -> Result<[u32; 2], PositionError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != RANKS_TOP_DOWN.len() {
        return Err(PositionError::Syntax(format!(
            "{} ranks given, the board has 7 (5/3/3/1/3/3/5 points)",
            ranks.len()
        )));
    }
    let mut men = [0u32; 2];
    for (rank_text, points) in ranks.iter().zip(RANKS_TOP_DOWN) {
        let rank_number = NAMES[points.start].as_bytes()[1] as char;
        let size = points.len();
        let error = |detail: String| PositionError::Syntax(format!("rank {rank_number}: {detail}"));
        let mut filled = 0usize;
        for ch in rank_text.chars() {
            match ch {
                '0' => return Err(error("a run of empty points cannot be 0".into())),
                '1'..='9' => filled += ch as usize - '0' as usize,
                'w' | 'b' => {
                    if filled < size {
                        let player = if ch == 'w' { 0 } else { 1 };
                        men[player] |= bit(points.start + filled);
                    }
                    filled += 1;
                }
                other => {
                    return Err(error(format!(
                        "unexpected character {}",
                        quote(&other.to_string())
                    )));
                }
            }
            if filled > size {
                return Err(error(format!("more than {size} points")));
            }
        }
        if filled < size {
            return Err(error(format!("{filled} points, expected {size}")));
        }
    }
    for player in Player::BOTH {
        let count = men[player.index()].count_ones();
        if count > MEN_PER_SIDE {
            return Err(PositionError::Invalid(format!(
                "{} has {count} men, at most {MEN_PER_SIDE} are allowed",
                COLOURS[player.index()]
            )));
        }
    }
    if men == [0, 0] {
        return Err(PositionError::Invalid("no men on the board".into()));
    }
    Ok(men)
}

impl EgaraGuti {
    /// Why the path `points`, which is no legal move here, is illegal. Walks the path on a
    /// scratch copy of the men and reports the first rule it breaks.
    fn illegal_reason(&self, points: &[usize]) -> String {
        let us = self.side.index();
        let them = self.side.opponent().index();
        let name = |p: usize| NAMES[p];
        let from = points[0];
        if self.men[us] & bit(from) == 0 {
            return format!("no {} man on {}", COLOURS[us], name(from));
        }
        let mut men = self.men;
        let mut at = from;
        for (index, &to) in points[1..].iter().enumerate() {
            let over = LEAP_OVER[at][to];
            let occupied = (men[0] | men[1]) & !bit(at) & bit(to) != 0;
            if over == NO_POINT {
                if NEIGHBOURS[at] & bit(to) == 0 {
                    return format!(
                        "{}{} is not a step or a leap along a line",
                        name(at),
                        name(to)
                    );
                }
                if index > 0 {
                    return format!(
                        "{}{} is a step: a capture chain goes on only by leaps",
                        name(at),
                        name(to)
                    );
                }
                if points.len() > 2 {
                    return "a step is a whole move: nothing may follow it".into();
                }
                if occupied {
                    return format!("{} is occupied", name(to));
                }
                return "a capture is compulsory".into();
            }
            if men[them] & bit(over as usize) == 0 {
                return format!(
                    "{}{} is not a capture: no {} man on {}",
                    name(at),
                    name(to),
                    COLOURS[them],
                    name(over as usize)
                );
            }
            if occupied {
                return format!(
                    "{}{} lands on {}, which is occupied",
                    name(at),
                    name(to),
                    name(to)
                );
            }
            men[them] &= !bit(over as usize);
            men[us] ^= bit(at) ^ bit(to);
            at = to;
        }
        format!(
            "the capture is not complete: the man on {} must leap again",
            name(at)
        )
    }
}

impl Notation for EgaraGuti {
    fn ending(&self) -> Option<&'static str> {
        self.outcome()?;
        let us = self.side_to_move();
        // As outcome() decides: rule 7 first, then the 40-ply rule, then repetition.
        Some(if self.men(us) == 0 || self.men(us.opponent()) == 0 {
            "no men left"
        } else if !self.has_move() {
            "no move on its turn"
        } else if self.quiet_plies() >= QUIET_PLY_LIMIT {
            "40 plies without a capture: the men are counted"
        } else {
            "the position came a third time: the men are counted"
        })
    }

    fn parse_position(text: &str) -> Result<Self, PositionError> {
        let mut fields = text.split_ascii_whitespace();
        let board = fields.next().ok_or(PositionError::Empty)?;
        let men = parse_board(board)?;
        let side = match fields.next() {
            Some("w") => Player::P1,
            Some("b") => Player::P2,
            Some(other) => {
                return Err(PositionError::Syntax(format!(
                    "side to move must be 'w' or 'b', not {}",
                    quote(other)
                )));
            }
            None => {
                return Err(PositionError::Syntax(
                    "missing the side to move ('w' or 'b') after the board".into(),
                ));
            }
        };
        let quiet_plies = match fields.next() {
            Some(text) => parse_counter(text, "count of plies since the last capture")?,
            None => 0,
        };
        let fullmove = match fields.next() {
            Some(text) => parse_counter(text, "fullmove number")?,
            None => 1,
        };
        if fullmove == 0 {
            return Err(PositionError::Invalid(
                "the fullmove number starts at 1".into(),
            ));
        }
        if let Some(extra) = fields.next() {
            return Err(PositionError::Syntax(format!(
                "unexpected text after the fullmove number: {}",
                quote(extra)
            )));
        }
        Ok(EgaraGuti::from_parts(men, side, quiet_plies, fullmove))
    }

    fn position_string(&self) -> String {
        let mut out = String::with_capacity(48);
        for (index, points) in RANKS_TOP_DOWN.into_iter().enumerate() {
            if index > 0 {
                out.push('/');
            }
            let mut empty_run = 0;
            for point in points {
                let owner = Player::BOTH
                    .into_iter()
                    .find(|p| self.men[p.index()] & bit(point) != 0);
                match owner {
                    None => empty_run += 1,
                    Some(player) => {
                        if empty_run > 0 {
                            write!(out, "{empty_run}").expect("writing to a String");
                            empty_run = 0;
                        }
                        out.push(LETTERS[player.index()]);
                    }
                }
            }
            if empty_run > 0 {
                write!(out, "{empty_run}").expect("writing to a String");
            }
        }
        write!(
            out,
            " {} {} {}",
            LETTERS[self.side.index()],
            self.quiet_plies,
            self.fullmove
        )
        .expect("writing to a String");
        out
    }

    fn parse_move(&self, text: &str) -> Result<EgaraMove, MoveError> {
        if text.is_empty() {
            return Err(MoveError::Empty);
        }
        let syntax = || {
            MoveError::Syntax(format!(
                "{} is not an Egara-guti move (expected point names such as d3e4 or a1e1i1)",
                quote(text)
            ))
        };
        // A chain visits at most 12 points: anything longer is no move.
        if !text.is_ascii() || !text.len().is_multiple_of(2) || text.len() < 4 || text.len() > 24 {
            return Err(syntax());
        }
        let points: Vec<usize> = text
            .as_bytes()
            .chunks(2)
            .map(|pair| std::str::from_utf8(pair).ok().and_then(point_by_name))
            .collect::<Option<_>>()
            .ok_or_else(syntax)?;
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let mut legal = Vec::new();
        self.generate_moves(&mut legal);
        legal
            .into_iter()
            .find(|mv| mv.landings() + 1 == points.len() && mv.points().eq(points.iter().copied()))
            .ok_or_else(|| MoveError::Illegal(self.illegal_reason(&points)))
    }

    fn move_string(&self, mv: EgaraMove) -> String {
        mv.points().map(|p| NAMES[p]).collect()
    }
}
