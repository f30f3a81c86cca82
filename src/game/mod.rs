//! The rules side of the engine: what every game must provide, and the games themselves.
//!
//! A game is split in two traits, after the habit of keeping rules and text apart:
//!
//! - [`Game`] is everything the search and perft need: move generation into a caller-owned
//!   buffer, make/unmake with an exact undo record, the outcome, and an incremental hash. It
//!   never touches strings.
//! - [`GameText`] adds the position string and the move notation, used at the edges
//!   (protocol, CLI, tests).
//!
//! The design leaves room for every game of the engine without later changes:
//!
//! - a move is whatever `Copy` value the game picks, so an Egara-guti capture chain is one
//!   packed move, and a Lerontenin pass or division is just another move value;
//! - history-dependent end rules (repetition, move counters) live inside the game state, so
//!   [`Game::outcome`] is a pure function of the state and make/unmake keep it exact;
//! - a game that ends by what a move did (Lielow's king capture) records that in its state.
//!
//! Concrete games are reached from a runtime [`Variant`] through [`Variant::dispatch`], which
//! monomorphises the generic code for each game: there is no `dyn` on any hot path.

mod bits;
pub mod egaraguti;
mod error;
pub mod features;
pub mod lerontenin;
pub mod lielow;
pub mod perft;
mod variant;
pub mod zobrist;

use std::fmt::Debug;
use std::hash::Hash;

pub use bits::BitSet;
pub use error::{MoveError, PositionError};
pub use features::Features;
pub use variant::{GameVisitor, Variant};

/// One of the two players. `P1` moves first from every start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    P1,
    P2,
}

impl Player {
    /// Both players, in turn order.
    pub const BOTH: [Player; 2] = [Player::P1, Player::P2];

    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }

    /// 0 for `P1`, 1 for `P2`: an index into per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The winner, if the game was not drawn.
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(player) => Some(player),
            Outcome::Draw => None,
        }
    }
}

/// The rules of one game: state, move generation, make/unmake, outcome and hash.
///
/// Contract, checked by the conformance suite for every game:
///
/// - `generate_moves` appends each legal move exactly once, in a stable order, and appends
///   nothing when [`outcome`](Game::outcome) is `Some`;
/// - `unmake_move(mv, make_move(mv))` restores the state bit for bit, hash included;
/// - `hash` always equals `hash_from_scratch`;
/// - `count_moves` equals the number of moves `generate_moves` appends.
pub trait Game: Clone + Eq + Debug + Send + 'static {
    /// A move, packed small: it is copied through move lists and the search.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// What `make_move` returns so that `unmake_move` can restore the state exactly.
    type Undo: Copy + Debug;

    /// Whether the search may first search late quiet moves shallower (late move
    /// reductions): on by default; a game turns it off where matches showed it gains
    /// nothing there.
    const REDUCE_LATE_MOVES: bool = true;

    /// Whether the search may test a position by letting the opponent move twice
    /// (null-move pruning): off by default, for a game whose rules make passing a poor
    /// guide to a position's worth (zugzwang, compulsory captures, passes that change the
    /// state) or where a match showed no gain.
    const NULL_MOVE_PRUNING: bool = false;

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

    /// `Some` once the game is over, by any of its rules (history-dependent ones included).
    fn outcome(&self) -> Option<Outcome>;

    /// The incrementally maintained Zobrist hash of everything the rules depend on.
    fn hash(&self) -> u64;

    /// The same hash computed from nothing but the state; used to check the incremental one.
    fn hash_from_scratch(&self) -> u64;

    /// A static estimate of the position for the side to move, in centipawn-like units
    /// (100 is about one piece). Only meaningful while the game is in play.
    fn evaluate(&self) -> i32;

    /// The result when `flagged` runs out of time, for a match referee. Most games score a
    /// flag fall as a loss; a game whose rules say otherwise overrides this.
    fn flag_fall(&self, flagged: Player) -> Outcome {
        Outcome::Win(flagged.opponent())
    }

    /// About how many more moves the side to move will play in this game: how a clock with
    /// no moves to go is spread. A rough figure by the game's phase; the default suits a
    /// game of middling length.
    fn expected_moves_left(&self) -> u32 {
        30
    }

    /// Whether this position (as the repetition rule compares positions) occurred before in
    /// the game. The search scores such a position by [`Game::repetition_outcome`]: if
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

    /// Passes the turn without moving (a null move), for the search's null-move pruning.
    /// Called only while the game is in play and only in games with
    /// [`Game::NULL_MOVE_PRUNING`], which override it: the default does nothing.
    fn make_null_move(&mut self) {}

    /// Takes back the null move just made by [`Game::make_null_move`].
    fn unmake_null_move(&mut self) {}

    /// What the exact tables say of this position, where they know its value at its own
    /// counters (only Egara-guti has tables; other games keep the default, `None`).
    fn probe_tables(&self, tables: &crate::tables::TableSet) -> Option<crate::tables::Probe> {
        let _ = tables;
        None
    }

    /// Whether `mv` (legal here) changes the material: a capture. The search tries these
    /// first and keeps searching them past its depth limit (quiescence).
    fn is_tactical(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }
}

/// Text forms of a game: the position string and the move notation. Every game with text
/// forms also lists its evaluation's features, for the tuner.
pub trait GameText: Game + Features {
    /// The variant this type plays.
    const VARIANT: Variant;

    /// Reads a position string, rejecting anything malformed or impossible with a reason.
    fn parse_position(text: &str) -> Result<Self, PositionError>;

    /// The canonical position string; `parse_position` reads it back to an equal state.
    fn position_string(&self) -> String;

    /// Reads a move in canonical notation and checks that it is legal in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The canonical notation of a legal move of this position.
    fn move_string(&self, mv: Self::Move) -> String;

    /// A picture of the position for people, as lines of text (the protocol's `d`,
    /// `ternion analyze --show`). It shows the state; it decides nothing.
    fn diagram(&self) -> Vec<String>;

    /// The picture of the position as an SVG document, with `last` (the move that led
    /// here, if known) marked where the game's picture can show it. Every square, point or
    /// piece drawn carries an id, so that a page can make it clickable.
    fn svg(&self, last: Option<Self::Move>) -> String;

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
}
