//! The protocol-free engine: one game in progress, of a variant chosen at run time, its
//! search on a worker thread, and what the search finds handed out as typed [`Event`]s.
//!
//! A [`Session`] hides the concrete game type behind a small object-safe trait, so that the
//! protocol can switch variants at run time; inside, everything is generic and
//! monomorphised. The engine writes no protocol text: whoever listens (the daemon, a test)
//! turns the events into lines. A panic inside a search is caught at the thread's edge:
//! the search still answers, with the best move found so far.

mod answer;
mod flags;
mod session;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;

pub use self::flags::SearchFlags;
pub use self::session::new_session;
use crate::core::{Outcome, Player, PositionError};
use crate::eval::network::Network;
use crate::games::{LoadedTables, Variant};
use crate::search::mover::Mover;
use crate::search::{Exact, Info, Limits, RootMove};

/// What a search tells whoever listens, in the order it happens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A completed iteration (one per line with MultiPV, best first), its line in notation.
    Info(Info<String>),
    /// The search failed: what went wrong, as one printable line. The best move follows.
    Fault(String),
    /// In a long search, the root move the search starts on: the iteration's depth, the
    /// move in notation and its place in the iteration's order (from 1).
    CurrMove {
        depth: u32,
        mv: String,
        number: usize,
    },
    /// The answer, always the search's last event: the move to play (`None` when the game
    /// is over) and, when asked for and known, the reply the search expects.
    BestMove {
        best: Option<String>,
        ponder: Option<String>,
    },
}

impl Event {
    /// The report of the root move a long search of `root` starts on.
    fn current_move<G: crate::rules::Notation>(root: &G, root_move: RootMove<G::Move>) -> Event {
        Event::CurrMove {
            depth: root_move.depth,
            mv: root.move_string(root_move.mv),
            number: root_move.number,
        }
    }
}

/// One term of the static evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTerm {
    pub feature: String,
    pub value: i32,
    pub weight: i32,
}

/// What the options chose to evaluate with: `Use NNUE` (a network where the variant has
/// one, or the hand-written terms) and `EvalFile` (a network loaded for one variant, in place
/// of the one it ships).
#[derive(Clone, Debug)]
pub struct EvalChoice {
    pub use_network: bool,
    pub file: Option<NetworkFile>,
}

impl Default for EvalChoice {
    fn default() -> Self {
        EvalChoice {
            use_network: true,
            file: None,
        }
    }
}

/// A network `EvalFile` loaded: for which variant, from where, and the network.
#[derive(Clone, Debug)]
pub struct NetworkFile {
    pub variant: Variant,
    /// The path as given, for people.
    pub name: String,
    pub network: Arc<Network>,
}

/// A network's value of the position, for `eval`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkEval {
    /// For the side to move, in centipawns.
    pub value: i32,
    /// Where the network came from: `built in`, or the file's path.
    pub source: String,
    /// Whether the search evaluates with it.
    pub in_use: bool,
}

/// How long a search runs before it reports each root move it starts on, as Stockfish
/// does: a GUI watching a long search sees it move on.
pub const CURRMOVE_AFTER: std::time::Duration = std::time::Duration::from_secs(3);

/// Where a search's events go.
pub type Listener = Arc<dyn Fn(Event) + Send + Sync>;

/// What `go` asks of a search, beyond its limits.
#[derive(Clone, Debug, Default)]
pub struct SearchJob {
    pub limits: Limits,
    /// Root moves to consider, in notation, each legal here (empty: all).
    pub searchmoves: Vec<String>,
    /// The number of best root moves to report (MultiPV), at least 1.
    pub multipv: usize,
    /// Whether the best move may carry the expected reply.
    pub ponder_move: bool,
    /// How to choose the move: the full search, a weakened level (a narrower search and a
    /// move drawn among its best lines) or a baseline, with the session's seeded draws.
    pub mover: Mover,
    /// `TablePlay`: where the exact tables know every move, the full engine plays their
    /// choice at once instead of searching (not in analysis: `go infinite`, `searchmoves`,
    /// several lines).
    pub tables_first: bool,
    /// `Contempt`: how far below zero the search scores a draw by the rules for the side it
    /// moves for, in centipawns.
    pub contempt: i32,
}

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
    /// [`Event::Info`]s and finally [`Event::BestMove`] to `listener`; the best move waits
    /// as `flags` say (for `stop`, or while pondering). `flags` are marked done just before
    /// the best move is sent. A panic in the search is reported as [`Event::Fault`], and
    /// the best move found so far (or else the first legal move) is still given.
    fn start_search(
        &mut self,
        job: SearchJob,
        flags: SearchFlags,
        listener: Listener,
    ) -> JoinHandle<()>;
}

/// What a panic said, as one short, printable line.
pub fn panic_detail(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message");
    crate::core::printable::echo(text.lines().next().unwrap_or_default())
}
