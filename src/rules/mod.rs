//! What a game is, and nothing more: the rules, the text forms and the pictures, as three
//! traits, with the generic perft that checks them.
//!
//! - [`Rules`] is everything perft, a referee and an exact-table solver need: move
//!   generation into a caller-owned buffer, make/unmake with an exact undo record, the
//!   outcome by every end rule, an incremental hash, and what a move changed on the board
//!   (for an evaluation kept up to date move by move). It never touches strings and knows
//!   no evaluation: no weight, no sum.
//! - [`Notation`] adds the position string and the move notation, used at the edges
//!   (protocol, command line, tests, records).
//! - [`Picture`] draws a position for people: a text diagram and an SVG picture.
//!
//! The design leaves room for every game without later changes:
//!
//! - a move is whatever `Copy` value the game picks, so an Egara-guti capture chain is one
//!   packed move, and a Lerontenin pass or division is just another move value;
//! - history-dependent end rules (repetition, move counters) live inside the game state, so
//!   [`Rules::outcome`] is a pure function of the state and make/unmake keep it exact;
//! - a game that ends by what a move did (Lielow's king capture) records that in its state.
//!
//! The conformance contract, checked for every game by `tests/suite/conformance.rs`: every
//! generated move is unique and legal, round-trips through its notation, a finished game
//! has no moves, unmake restores the state bit for bit and the incremental hash always
//! equals the hash computed from scratch.

pub mod perft;

use std::fmt::Debug;
use std::hash::Hash;

use crate::core::{MoveError, Outcome, Player, PositionError};

/// The rules of one game: state, move generation, make/unmake, outcome and hash.
///
/// Contract, checked by the conformance suite for every game:
///
/// - `generate_moves` appends each legal move exactly once, in a stable order, and appends
///   nothing when [`outcome`](Rules::outcome) is `Some`;
/// - `unmake_move(mv, make_move(mv))` restores the state bit for bit, hash included;
/// - `hash` always equals `hash_from_scratch`;
/// - `count_moves` equals the number of moves `generate_moves` appends.
pub trait Rules: Clone + Eq + Debug + Send + 'static {
    /// A move, packed small: it is copied through move lists and the search.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// What `make_move` returns so that `unmake_move` can restore the state exactly.
    type Undo: Copy + Debug;
    /// What a move changed on the board, for an evaluation kept up to date move by move:
    /// the pieces that left or entered which squares (Stockfish's `DirtyPiece`). A game
    /// whose evaluation keeps nothing from one move to the next says `()`.
    type Changes: Copy + Debug + Send;

    /// The start position.
    fn start() -> Self;

    /// Whose turn it is.
    fn side_to_move(&self) -> Player;

    /// Appends every legal move to `out` (which the caller clears and reuses).
    fn generate_moves(&self, out: &mut Vec<Self::Move>);

    /// The number of legal moves. Games override this with a counting routine that does not
    /// build the moves; perft uses it for bulk counting at the last ply.
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.len() as u64
    }

    /// Plays a legal move. The move must come from `generate_moves` of this very state.
    fn make_move(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back the last move made, given the record its `make_move` returned.
    fn unmake_move(&mut self, mv: Self::Move, undo: Self::Undo);

    /// What `mv` changed, asked right after `make_move(mv)` returned `undo`: the move, its
    /// record and the new state say it all, so perft, a referee and the tables' build,
    /// which never ask, never pay for it.
    fn changes(&self, mv: Self::Move, undo: &Self::Undo) -> Self::Changes;

    /// `Some` once the game is over, by any of its rules (history-dependent ones included).
    fn outcome(&self) -> Option<Outcome>;

    /// The incrementally maintained Zobrist hash of everything the rules depend on.
    fn hash(&self) -> u64;

    /// The same hash computed from nothing but the state; used to check the incremental one.
    fn hash_from_scratch(&self) -> u64;

    /// Whether this position (as the repetition rule compares positions) occurred before in
    /// the game. A search scores such a position by [`Rules::repetition_outcome`]: if
    /// repeating it once were good for either side it would be good again, so play would go
    /// round until the repetition rule ends the game.
    fn repeats_earlier_position(&self) -> bool {
        false
    }

    /// How the game's repetition rule decides a game that cycles through this position: a
    /// draw in most games (the default); Lerontenin compares square totals, Egara-guti
    /// counts men.
    fn repetition_outcome(&self) -> Outcome {
        Outcome::Draw
    }

    /// The result when `flagged` runs out of time, a rule of the game a referee applies.
    /// Most games score a flag fall as a loss; a game whose rules say otherwise overrides
    /// this.
    fn flag_fall(&self, flagged: Player) -> Outcome {
        Outcome::Win(flagged.opponent())
    }

    /// This position with its board mirrored left to right, for a game whose rules are the
    /// same under that mirror (`None` for a game whose rules are not): the mirror is worth
    /// the same to the same side, and its moves are the mirrors of this position's
    /// ([`Rules::mirrored_move`]), so a network's training data may teach both (the
    /// conformance suite checks the symmetry).
    fn mirrored(&self) -> Option<Self> {
        None
    }

    /// `mv`, a move of this position, as the same move of [`Rules::mirrored`].
    fn mirrored_move(&self, mv: Self::Move) -> Self::Move {
        mv
    }
}

/// Text forms of a game: the position string and the move notation.
pub trait Notation: Rules {
    /// Reads a position string, rejecting anything malformed or impossible with a reason.
    fn parse_position(text: &str) -> Result<Self, PositionError>;

    /// The canonical position string; `parse_position` reads it back to an equal state.
    fn position_string(&self) -> String;

    /// Reads a move in canonical notation and checks that it is legal in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The canonical notation of a legal move of this position.
    fn move_string(&self, mv: Self::Move) -> String;

    /// Why the game is over, in a few words for people ("the king was lost"); `None` while
    /// it goes on.
    fn ending(&self) -> Option<&'static str>;

    /// Plays a sequence of moves given in notation; on the first bad move the state is left
    /// as it was before that move and the error says which ply failed (1-based).
    fn play_moves<'a, I>(&mut self, moves: I) -> Result<(), (usize, MoveError)>
    where
        I: IntoIterator<Item = &'a str>,
    {
        for (index, text) in moves.into_iter().enumerate() {
            let mv = self.parse_move(text).map_err(|error| (index + 1, error))?;
            self.make_move(mv);
        }
        Ok(())
    }

    /// The notation of a line of moves played from here: each move is written in the
    /// position it is played in (the notation of some games depends on the position).
    fn line_notation(&self, line: &[Self::Move]) -> Vec<String> {
        let mut game = self.clone();
        line.iter()
            .map(|&mv| {
                let text = game.move_string(mv);
                game.make_move(mv);
                text
            })
            .collect()
    }
}

/// Pictures of a position for people. They show the state; they decide nothing.
pub trait Picture: Rules {
    /// The position as lines of text (the protocol's `d`, `ternion analyze --show`).
    fn diagram(&self) -> Vec<String>;

    /// The position as an SVG document, with `last` (the move that led here, if known)
    /// marked where the game's picture can show it. Every square, point or piece drawn
    /// carries an id, so that a page can make it clickable.
    fn svg(&self, last: Option<Self::Move>) -> String;
}
