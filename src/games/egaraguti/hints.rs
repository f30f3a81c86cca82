//! Egara-guti as the search sees it: capture chains are its tactical moves, late move
//! reductions are off, and its exact tables are its oracle.

use std::sync::Arc;

use super::{EgaraGuti, EgaraMove, QUIET_PLY_LIMIT, levels};
use crate::games::variant::Variant;
use crate::games::{LoadedTables, Playable};
use crate::search::levels::Levels;
use crate::search::{Oracle, Searchable};

impl Searchable for EgaraGuti {
    // Late move reductions reach 3 plies deeper in 1 s but gained nothing in a match
    // (docs/experiments.md).
    const REDUCE_LATE_MOVES: bool = false;

    fn is_tactical(&self, mv: EgaraMove) -> bool {
        EgaraGuti::captures(mv)
    }

    /// The capture chains alone: where there is one, they are all the moves; where there
    /// is none, the steps need not be built to be thrown away.
    fn generate_tactical_moves(&self, out: &mut Vec<EgaraMove>) {
        if self.no_moves_by_rule() {
            return;
        }
        self.for_each_capture(|chain| out.push(chain));
    }

    /// The plies before the 40-ply rule counts the men, unless a capture comes first.
    fn counter_plies_left(&self) -> Option<u32> {
        Some(QUIET_PLY_LIMIT.saturating_sub(self.quiet_plies))
    }

    /// Games last about 50 plies from the start (self-play at 1 s + 10 ms); the last men
    /// may still manoeuvre up to the 40-ply rule, so the figure never falls below 10.
    fn expected_moves_left(&self) -> u32 {
        10 + (self.men[0].count_ones() + self.men[1].count_ones()) / 2
    }
}

impl Playable for EgaraGuti {
    const VARIANT: Variant = Variant::Egaraguti;
    const LEVELS: &'static Levels = &levels::LEVELS;

    fn oracle(tables: &LoadedTables) -> Option<Arc<dyn Oracle<Self>>> {
        let tablebase = tables.egaraguti.clone()?;
        Some(tablebase)
    }
}
