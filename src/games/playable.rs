//! A game as the engine plays it: its rules, text, pictures, evaluation and search hints,
//! the variant it answers to, its strength levels, and the exact values it can be given.

use std::sync::Arc;

use super::levels;
use super::loaded_tables::LoadedTables;
use super::variant::Variant;
use crate::rules::{Notation, Picture};
use crate::search::levels::Levels;
use crate::search::{Oracle, Searchable};

/// Everything the engine, the command line and the tools need of a game: what
/// [`Variant::dispatch`](crate::with_game) hands to generic code.
pub trait Playable: Notation + Picture + Searchable {
    /// The variant this type plays.
    const VARIANT: Variant;

    /// What each `Skill Level` below the full engine may do in this game: the shared
    /// ladder by default, a game's own where that ladder's levels do not play apart there.
    const LEVELS: &'static Levels = &levels::SHARED;

    /// The oracle of exact values this game takes from `tables`, if any: a game
    /// without tables (the default) has none.
    fn oracle(tables: &LoadedTables) -> Option<Arc<dyn Oracle<Self>>> {
        let _ = tables;
        None
    }
}
