//! `UCI_ShowWDL`: a score read as the expectation of a win, a draw and a loss, per mille,
//! from the side to move's point of view, as Stockfish prints it (`wdl 520 410 70`).
//!
//! Each variant has its own model, fitted to its self-play games (`scripts/wdl-fit.py`):
//! `win = 1 / (1 + exp((a - score) / b))`, `loss = 1 / (1 + exp((a + score) / b))`, the
//! rest a draw. `a` is the width of the band of drawn positions (0 where the game is never
//! drawn), `b` how fast the expectation turns with the score. A proven result (`mate`) is
//! certain: `1000 0 0` or `0 0 1000`; and where exact tables know the root (Egara-guti
//! with `TablePath`), a line's first move has its exact value, a draw `0 1000 0`.

use crate::core::Wdl;
use crate::games::Variant;
use crate::search::{Info, Score};

/// What a search's `info` lines say of win, draw and loss: the variant's model, and the
/// exact value of each root move where tables know it.
#[derive(Clone, Debug)]
pub struct RootWdl {
    model: WdlModel,
    /// Each root move in notation, with its exact value for the side to move.
    exact: Vec<(String, Wdl)>,
}

impl RootWdl {
    /// The model of `variant`, and `exact`, the root moves the tables value.
    pub fn new(variant: Variant, exact: Vec<(String, Wdl)>) -> RootWdl {
        RootWdl {
            model: model(variant),
            exact,
        }
    }

    /// The win, draw and loss per mille of the line `info` reports.
    pub fn of(&self, info: &Info<String>) -> [u32; 3] {
        let first = info.pv.first();
        match self.exact.iter().find(|(mv, _)| Some(mv) == first) {
            Some((_, Wdl::Win)) => [1000, 0, 0],
            Some((_, Wdl::Draw)) => [0, 1000, 0],
            Some((_, Wdl::Loss)) => [0, 0, 1000],
            None => self.model.per_mille(info.score),
        }
    }
}

/// The model of one variant: see the module's doc.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub a: f64,
    pub b: f64,
}

/// Each variant's model, fitted by `scripts/wdl-fit.py` to the positions of 400 games of
/// `ternion selfplay <variant> --games 400 --nodes 3000 --openings 4 --seed 7` with the
/// network each variant ships: Lielow 13,601 positions (generation 4) and Lielow 9x9
/// 18,337, no game drawn; Egara-guti 25,795 (45.9% of them
/// in drawn games); Lerontenin 151,769 (27.1%).
pub fn model(variant: Variant) -> WdlModel {
    match variant {
        Variant::Lielow => WdlModel { a: 0.0, b: 113.1 },
        Variant::Lielow9 => WdlModel { a: 0.0, b: 208.1 },
        Variant::Egaraguti => WdlModel { a: 400.0, b: 91.2 },
        Variant::Lerontenin => WdlModel { a: 370.6, b: 521.9 },
    }
}

impl WdlModel {
    /// The win, draw and loss of `score`, per mille, summing to 1000.
    pub fn per_mille(&self, score: Score) -> [u32; 3] {
        let cp = match score {
            Score::Mate(plies) if plies > 0 => return [1000, 0, 0],
            Score::Mate(_) => return [0, 0, 1000],
            Score::Centipawns(cp) => f64::from(cp),
        };
        let logistic = |x: f64| 1.0 / (1.0 + (x / self.b).clamp(-700.0, 700.0).exp());
        let win = (1000.0 * logistic(self.a - cp)).round() as u32;
        let loss = (1000.0 * logistic(self.a + cp)).round() as u32;
        let loss = loss.min(1000 - win.min(1000));
        [win.min(1000), 1000 - win.min(1000) - loss, loss]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_sum_to_a_thousand_and_follow_the_score() {
        for variant in Variant::ALL {
            let model = model(variant);
            let mut last_win = 0;
            for cp in (-3000..=3000).step_by(50) {
                let [win, draw, loss] = model.per_mille(Score::Centipawns(cp));
                assert_eq!(win + draw + loss, 1000, "{variant} {cp}");
                assert!(win >= last_win, "{variant} {cp}");
                last_win = win;
                // The side to move's view and the other's mirror each other.
                let [w2, d2, l2] = model.per_mille(Score::Centipawns(-cp));
                assert_eq!((win, draw, loss), (l2, d2, w2), "{variant} {cp}");
            }
            assert_eq!(model.per_mille(Score::Mate(3)), [1000, 0, 0]);
            assert_eq!(model.per_mille(Score::Mate(-2)), [0, 0, 1000]);
        }
        // A game never drawn gives no draws; a drawish one gives most at 0.
        assert_eq!(model(Variant::Lielow).per_mille(Score::Centipawns(0))[1], 0);
        assert!(model(Variant::Egaraguti).per_mille(Score::Centipawns(0))[1] > 900);
    }
}
