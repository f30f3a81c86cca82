//! What a search hands out, in order: [`Event`]s, to a [`Listener`].

use std::sync::Arc;

use crate::core::Outcome;
use crate::search::{Info, RootMove};

/// What a search tells whoever listens, in the order it happens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A completed iteration (one per line with MultiPV, best first), its line in notation.
    Info(Info<String>),
    /// The search failed: what went wrong, as one printable line. The best move follows.
    Fault(String),
    /// The game was over before the search: how it ended. `BestMove` follows at once, with
    /// no move.
    GameOver(Outcome),
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
    pub(super) fn current_move<G: crate::rules::Notation>(
        root: &G,
        root_move: RootMove<G::Move>,
    ) -> Event {
        Event::CurrMove {
            depth: root_move.depth,
            mv: root.move_string(root_move.mv),
            number: root_move.number,
        }
    }
}

/// How long a search runs before it reports each root move it starts on, as Stockfish
/// does: a GUI watching a long search sees it move on.
pub const CURRMOVE_AFTER: std::time::Duration = std::time::Duration::from_secs(3);

/// Where a search's events go.
pub type Listener = Arc<dyn Fn(Event) + Send + Sync>;

/// What a panic said, as one short, printable line.
pub fn panic_detail(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message");
    crate::core::printable::echo(text.lines().next().unwrap_or_default())
}
