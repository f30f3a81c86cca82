//! The exact tables the engine has loaded, by game: what `TablePath` and `--tables` load
//! once, and each game takes its oracle from ([`Playable::oracle`](super::Playable::oracle)).

use std::path::Path;
use std::sync::Arc;

use super::egaraguti::tablebase::Tablebase;

/// The exact tables the engine has loaded, by game (only Egara-guti has tables).
#[derive(Clone, Debug, Default)]
pub struct LoadedTables {
    pub egaraguti: Option<Arc<Tablebase>>,
}

impl LoadedTables {
    /// Every table file of `dir`, loaded and checked (none at all is no error: see
    /// [`LoadedTables::is_empty`]).
    pub fn load(dir: &Path) -> Result<LoadedTables, String> {
        let egaraguti = Tablebase::load_all(dir)?;
        Ok(LoadedTables {
            egaraguti: (!egaraguti.is_empty()).then(|| Arc::new(egaraguti)),
        })
    }

    /// Whether no game has tables.
    pub fn is_empty(&self) -> bool {
        self.egaraguti.is_none()
    }
}
