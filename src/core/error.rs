//! Errors of the text layer: a position string or a move that cannot be accepted.
//!
//! Each error carries a one-line, human-readable detail written by the game that rejected
//! the input, so the protocol and the CLI can print it as it is.

use std::fmt;

/// Why a position string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Nothing but whitespace.
    Empty,
    /// The text does not follow the syntax of the position string.
    Syntax(String),
    /// The text is well formed but describes something the rules do not allow.
    Invalid(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => f.write_str("empty position string"),
            PositionError::Syntax(detail) | PositionError::Invalid(detail) => f.write_str(detail),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a move was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Nothing but whitespace.
    Empty,
    /// The text is not a move in this game's notation.
    Syntax(String),
    /// The text is a well-formed move that is not legal in this position.
    Illegal(String),
    /// The game is over: no move is legal.
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => f.write_str("empty move"),
            MoveError::Syntax(detail) | MoveError::Illegal(detail) => f.write_str(detail),
            MoveError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for MoveError {}
