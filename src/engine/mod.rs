//! The protocol-free engine: one game in progress, of a variant chosen at run time, its
//! search on a worker thread, and what the search finds handed out as typed [`Event`]s.
//!
//! A [`Session`] hides the concrete game type behind a small object-safe trait, so that the
//! protocol can switch variants at run time; inside, everything is generic and
//! monomorphised. The engine writes no protocol text: whoever listens (the daemon, a test)
//! turns the events into lines. A panic inside a search is caught at the thread's edge:
//! the search still answers, with the best move found so far.

mod answer;
mod evaluation;
mod event;
mod face;
mod flags;
mod job;
mod session;
mod slices;
mod told;

pub use self::evaluation::{EvalChoice, EvalTerm, NetworkEval, NetworkFile};
pub use self::event::{CURRMOVE_AFTER, Event, Listener, panic_detail};
pub use self::face::{MovesApplied, Session, TableView};
pub use self::flags::SearchFlags;
pub use self::job::SearchJob;
pub use self::session::new_session;
pub use self::slices::SlicedSearch;
