//! The engine's one face to the protocol: [`Session`], a game in progress of a variant
//! chosen at run time, behind an object-safe trait, and what its calls return.

use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;

use super::evaluation::{EvalChoice, EvalTerm, NetworkEval};
// The events a search sends, named in the docs below.
#[cfg(doc)]
use super::event::Event;
use super::event::Listener;
use super::flags::SearchFlags;
use super::job::SearchJob;
use crate::core::{Outcome, Player, PositionError};
use crate::games::{LoadedTables, Variant};
use crate::search::Exact;

/// The exact tables' view of a position, as a board shows it: the position's value and
/// every legal move's, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableView {
    /// The value for the side to move.
    pub value: Exact,
    /// Each legal move in notation, with its value for the side that plays it, best first
    /// (the quickest win, the longest loss).
    pub moves: Vec<(String, Exact)>,
}

/// How setting a position ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesApplied {
    /// Every move was played.
    All,
    /// The move at `ply` (1-based) was illegal or unreadable: the side that was to play it
    /// has forfeited the game.
    Forfeit {
        ply: usize,
        text: String,
        reason: String,
    },
    /// The game was over before the move at `ply`: it and all after it were ignored.
    AfterEnd { ply: usize, text: String },
}

/// One game in progress, of a variant chosen at run time.
pub trait Session: Send {
    fn variant(&self) -> Variant;
    /// Sets the position: the start or a position string, then moves. On a bad position
    /// string nothing changes.
    fn set_position(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
    ) -> Result<MovesApplied, PositionError>;
    fn fen(&self) -> String;
    /// The position as the last accepted `position` set it: its start (`None`: the game's
    /// start) and every move since; `None` when no position was set whole (at the start,
    /// or after a move that was refused).
    fn position_line(&self) -> Option<(Option<String>, Vec<String>)>;
    /// The picture of the position for people, line by line.
    fn diagram(&self) -> Vec<String>;
    /// The static evaluation for the side to move, term by term: each feature's name, its
    /// value and its weight, in the evaluation's order; `None` once the game is over.
    fn eval_terms(&self) -> Option<Vec<EvalTerm>>;
    /// The variant's network's value of the position (the one `EvalFile` loaded, or the
    /// one built in), whether or not the search uses it; `None` for a variant with no
    /// network, or once the game is over.
    fn network_eval(&self) -> Option<NetworkEval>;
    /// What the exact tables say of the position and of each legal move; `None` without
    /// tables for it, once the game is over, or where they do not know every move.
    fn table_view(&self) -> Option<TableView>;
    /// The position's SVG picture, the last move of the `position` command marked.
    fn svg(&self) -> String;
    fn side_to_move(&self) -> Player;
    /// The result by the rules or by forfeit, `None` while the game goes on.
    fn result(&self) -> Option<Outcome>;
    /// Why the game is over, in a few words for people; `None` while it goes on.
    fn result_reason(&self) -> Option<String>;
    /// The legal moves in canonical notation, in a stable order (none once the game is over).
    fn legal_moves(&self) -> Vec<String>;
    /// `moves` read as the game reads a move here: the legal ones in canonical notation,
    /// then the others as given. The one check of `go searchmoves`.
    fn legal_among(&self, moves: &[String]) -> (Vec<String>, Vec<String>);
    /// The perft count below each legal move, and the total. Once `stop` is set it ends
    /// early, with the moves counted in full so far and their total.
    fn divide(&mut self, depth: u32, stop: &AtomicBool) -> (Vec<(String, u64)>, u64);
    /// A copy of the game (sharing the search's table), for work on another thread.
    fn snapshot(&self) -> Box<dyn Session>;
    /// Forgets what the search learned.
    fn clear_hash(&mut self);

    fn resize_hash(&mut self, mib: usize);
    /// Searches with `threads` threads from now on; returns how many now search (fewer
    /// only if the system refused to start more).
    fn set_threads(&mut self, threads: usize) -> usize;
    /// Asks these exact tables in every search from now on; a game without tables among
    /// them searches without.
    fn set_tables(&mut self, tables: &LoadedTables);
    /// Evaluates as `choice` says from now on.
    fn set_evaluation(&mut self, choice: &EvalChoice);
    /// Starts the draws of the weakened levels and the baseline movers afresh from `seed`:
    /// the same seed, the same choices in the same positions.
    fn reseed(&mut self, seed: u64);
    /// Starts a search of the current position on a worker thread. It sends
    /// [`Event::Info`]s and finally [`Event::BestMove`] to `listener` (for a game that is
    /// over, [`Event::GameOver`] and the best move of none, at once, whatever `go` asked); the best move waits
    /// as `flags` say (for `stop`, or while pondering). `flags` are marked done just before
    /// the best move is sent. A panic in the search is reported as [`Event::Fault`], and
    /// the best move found so far (or else the move that looks best one ply ahead) is
    /// still given.
    fn start_search(
        &mut self,
        job: SearchJob,
        flags: SearchFlags,
        listener: Listener,
    ) -> JoinHandle<()>;
    /// The same search, run in slices on the caller's thread as it steps it: for where no
    /// thread can run beside the protocol (the web build). The same events in the same
    /// order; no watchdog (the slices keep the deadline themselves).
    fn start_sliced(
        &mut self,
        job: SearchJob,
        flags: SearchFlags,
        listener: Listener,
    ) -> Box<dyn super::SlicedSearch>;
}
