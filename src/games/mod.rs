//! The games themselves, and the runtime choice among them.
//!
//! - [`lielow`], [`egaraguti`] (with its exact tables, [`egaraguti::tablebase`]) and
//!   [`lerontenin`]: each with its rules, its text forms and diagram, its SVG pictures,
//!   its hand-written evaluation and weights, its networks' inputs and the networks it
//!   ships (`*.nnue`, built in), its own strength levels, and its search hints; Lielow
//!   also its moves in AbstractPlay's notation ([`lielow::abstractplay`]);
//! - [`Variant`]: a game by its protocol name; [`with_game!`](crate::with_game) runs generic
//!   code on the variant's game type;
//! - [`levels`]: the shared ladder of skill levels (a game may have its own);
//! - [`strength`]: the measured Elo of each skill level in each variant;
//! - [`Playable`]: what a variant's game type offers the engine; [`LoadedTables`]: the exact
//!   tables loaded, handed to each game as its oracle.

mod dispatch;
pub mod egaraguti;
pub mod lerontenin;
pub mod levels;
pub mod lielow;
mod loaded_tables;
mod playable;
pub mod strength;
mod variant;

pub use loaded_tables::LoadedTables;
pub use playable::Playable;
pub use variant::{UnknownVariant, Variant};
