//! The tables as the search's [`Oracle`]: the exact value of every position they know at
//! its own counter, every legal move's value, and the move the tables play. The top of the
//! room, beside the lines it ranks moves with.

use super::line;
use super::set::Tablebase;
use crate::games::egaraguti::{EgaraGuti, EgaraMove};
use crate::search::{Exact, ExactMove, Oracle};

/// The search asks the tables for the positions whose value they know at the position's own
/// 40-ply counter.
impl Oracle<EgaraGuti> for Tablebase {
    #[inline]
    fn probe(&self, game: &EgaraGuti) -> Option<Exact> {
        let probe = Tablebase::probe(self, game).filter(|probe| probe.exact)?;
        Some(Exact {
            wdl: probe.value,
            distance: probe.distance.unwrap_or(0),
        })
    }

    fn rank_moves(&self, game: &EgaraGuti) -> Option<Vec<ExactMove<EgaraMove>>> {
        let mut values = line::move_values(game, self).ok()?;
        line::rank(game, &mut values);
        Some(values.into_iter().map(exact_move).collect())
    }

    fn choose(&self, game: &EgaraGuti) -> Option<ExactMove<EgaraMove>> {
        line::tables_choice(game, self).ok()?.map(exact_move)
    }
}

/// A move's value in the search's terms.
fn exact_move(value: line::MoveValue) -> ExactMove<EgaraMove> {
    ExactMove {
        mv: value.mv,
        exact: Exact {
            wdl: value.value,
            distance: value.distance,
        },
    }
}
