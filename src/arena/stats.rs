//! Match statistics: the score of a win/draw/loss tally, the Elo difference it implies with a
//! 95% interval, and the sequential probability ratio test that can stop a match early.
//!
//! All from the first engine's point of view. The Elo model is the logistic one: a score
//! share `s` means a difference of `-400 log10(1/s - 1)`. The interval and the test use the
//! observed spread of game results (a win counts 1, a draw 1/2, a loss 0), so draws narrow
//! the interval as they should. The test is the normal approximation of the generalised
//! SPRT used by the big engine-testing frameworks: with `N` games, mean score `s`, variance
//! `v` per game, and the scores `s0`, `s1` the two hypotheses predict,
//! `LLR = N (s1 - s0) (2s - s0 - s1) / (2v)`.

use std::fmt;

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The 97.5% quantile of the standard normal distribution: the half-width of a 95% interval.
const Z_95: f64 = 1.959_963_984_540_054;

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, in 0..=1; `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / games as f64)
    }

    /// The share of draws, in 0..=1.
    pub fn draw_ratio(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.draws as f64 / games as f64)
    }

    /// The variance of one game's result around the mean score.
    fn variance(&self, score: f64) -> f64 {
        let games = self.games() as f64;
        (self.wins as f64 * (1.0 - score).powi(2)
            + self.draws as f64 * (0.5 - score).powi(2)
            + self.losses as f64 * score.powi(2))
            / games
    }

    /// The Elo difference and its 95% interval `(low, high)`. Infinite when every game
    /// was won (or lost); `None` before the first game.
    pub fn elo(&self) -> Option<EloEstimate> {
        let score = self.score()?;
        let margin = Z_95 * (self.variance(score) / self.games() as f64).sqrt();
        Some(EloEstimate {
            elo: elo_of_score(score),
            low: elo_of_score(score - margin),
            high: elo_of_score(score + margin),
        })
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{}, {}]",
            signed(self.elo),
            signed(self.low),
            signed(self.high)
        )
    }
}

/// An Elo figure for people: signed, one decimal, `inf` at the ends.
fn signed(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_owned()
    } else {
        // Adding 0.0 turns a negative zero into zero, which prints without a minus.
        format!("{:+.1}", elo + 0.0)
    }
}

/// The Elo difference that a score share implies; clamps outside (0, 1) to infinity.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The score share that an Elo difference predicts.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The hypotheses and error rates of a sequential test: H0 says the difference is `elo0`,
/// H1 says `elo1`; `alpha` is the chance to accept H1 wrongly, `beta` to accept H0 wrongly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not enough evidence yet: play on.
    Continue,
    /// H0 accepted: the difference is `elo0` (or less).
    AcceptH0,
    /// H1 accepted: the difference is `elo1` (or more).
    AcceptH1,
}

/// The test's state after some games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: SprtDecision,
}

impl Sprt {
    /// Reads `elo0=<x> elo1=<x> alpha=<x> beta=<x>` (any order, all four needed).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut values = [None; 4];
        const NAMES: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let (name, value) = word
                .split_once('=')
                .ok_or_else(|| format!("sprt: expected name=value, got '{word}'"))?;
            let slot = NAMES
                .iter()
                .position(|&n| n == name)
                .ok_or_else(|| format!("sprt: unknown parameter '{name}'"))?;
            let number: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("sprt: '{value}' is not a number"))?;
            values[slot] = Some(number);
        }
        let [Some(elo0), Some(elo1), Some(alpha), Some(beta)] = values else {
            return Err("sprt: needs elo0=, elo1=, alpha= and beta=".to_owned());
        };
        if elo0 >= elo1 {
            return Err("sprt: elo0 must be below elo1".to_owned());
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err("sprt: alpha and beta must lie between 0 and 0.5".to_owned());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The decision bounds on the log-likelihood ratio: `(lower, upper)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after the games of `tally`. Zero while the
    /// results have no spread yet (all wins, say): the approximation needs a variance.
    pub fn llr(&self, tally: &Tally) -> f64 {
        let Some(score) = tally.score() else {
            return 0.0;
        };
        let variance = tally.variance(score);
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        tally.games() as f64 * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }

    /// The state after the games of `tally`, from the state `before` them: a decision, once
    /// made, stands. Games already under way when the test decided are still played and
    /// counted, but they cannot take the decision back (a match that stopped on "H1
    /// accepted" must not report "continue" because one more game came in).
    pub fn update(&self, before: Option<SprtState>, tally: &Tally) -> SprtState {
        match before {
            Some(decided) if decided.decision != SprtDecision::Continue => decided,
            _ => self.state(tally),
        }
    }

    pub fn state(&self, tally: &Tally) -> SprtState {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        SprtState {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

impl fmt::Display for SprtState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = match self.decision {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        };
        write!(
            f,
            "LLR {:.2} ({:.2}, {:.2}) {verdict}",
            self.llr, self.lower, self.upper
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_from_a_tally_matches_hand_computation() {
        // 60 wins, 20 draws, 20 losses: score 0.7, so Elo = -400 log10(1/0.7 - 1) = 147.19.
        // Variance per game: (60 * 0.09 + 20 * 0.04 + 20 * 0.49) / 100 = 0.16; standard
        // error sqrt(0.16 / 100) = 0.04; interval 0.7 -+ 0.0784 = 0.6216 .. 0.7784, which is
        // 86.22 .. 218.25 Elo.
        let estimate = tally(60, 20, 20).elo().expect("games were played");
        assert!(close(estimate.elo, 147.19, 0.01), "{estimate:?}");
        assert!(close(estimate.low, 86.22, 0.01), "{estimate:?}");
        assert!(close(estimate.high, 218.25, 0.01), "{estimate:?}");
        assert_eq!(tally(60, 20, 20).draw_ratio(), Some(0.2));
    }

    #[test]
    fn an_even_score_is_zero_elo_and_a_clean_sweep_is_infinite() {
        let even = tally(10, 5, 10).elo().expect("games");
        assert!(close(even.elo, 0.0, 1e-9));
        assert!(close(even.low, -even.high, 1e-9));
        assert_eq!(tally(5, 0, 0).elo().expect("games").elo, f64::INFINITY);
        assert_eq!(tally(0, 0, 3).elo().expect("games").elo, f64::NEG_INFINITY);
        assert_eq!(Tally::default().elo(), None);
        assert!(close(score_of_elo(elo_of_score(0.3)), 0.3, 1e-12));
    }

    #[test]
    fn sprt_llr_and_bounds_match_hand_computation() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // Bounds: ln(0.05 / 0.95) = -2.944, ln(0.95 / 0.05) = 2.944.
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_44, 1e-4) && close(upper, 2.944_44, 1e-4));
        // 60/20/20: s = 0.7, v = 0.16, s0 = 0.5, s1 = 1 / (1 + 10^(-1/40)) = 0.514387.
        // LLR = 100 * 0.014387 * (1.4 - 1.014387) / 0.32 = 1.7337.
        let state = sprt.state(&tally(60, 20, 20));
        assert!(close(state.llr, 1.7337, 1e-3), "{state:?}");
        assert_eq!(state.decision, SprtDecision::Continue);
        // Twice the games with the same shares: twice the LLR, past the upper bound.
        let state = sprt.state(&tally(120, 40, 40));
        assert!(close(state.llr, 3.4674, 2e-3), "{state:?}");
        assert_eq!(state.decision, SprtDecision::AcceptH1);
        // The mirror record, 40/40/120: s = 0.3, LLR = 200 * 0.014387 * (0.6 - 1.014387)
        // / 0.32 = -3.726, below the lower bound: H0.
        let state = sprt.state(&tally(40, 40, 120));
        assert!(close(state.llr, -3.726, 2e-3), "{state:?}");
        assert_eq!(state.decision, SprtDecision::AcceptH0);
        assert_eq!(sprt.llr(&tally(4, 0, 0)), 0.0);
    }

    #[test]
    fn an_sprt_decision_stands_when_more_games_come_in() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let decided = sprt.update(None, &tally(120, 40, 40));
        assert_eq!(decided.decision, SprtDecision::AcceptH1);
        // The games under way (many, at a high concurrency) come in lost: the LLR alone
        // would fall back under the bound (3.47 -> 0.86).
        assert!(close(sprt.llr(&tally(120, 40, 100)), 0.857, 1e-3));
        assert_eq!(
            sprt.state(&tally(120, 40, 100)).decision,
            SprtDecision::Continue
        );
        let after = sprt.update(Some(decided), &tally(120, 40, 100));
        assert_eq!(after, decided);
        // Undecided, the state follows the games.
        let open = sprt.update(None, &tally(60, 20, 20));
        assert_eq!(
            sprt.update(Some(open), &tally(120, 40, 40)).decision,
            SprtDecision::AcceptH1
        );
    }

    #[test]
    fn sprt_parameters_are_read_and_checked() {
        let words = |text: &str| vec![text.to_owned()];
        let sprt = Sprt::parse(&words("elo0=0 elo1=5 alpha=0.05 beta=0.1")).expect("valid");
        assert_eq!(sprt.elo1, 5.0);
        assert_eq!(sprt.beta, 0.1);
        for bad in [
            "elo0=0 elo1=5 alpha=0.05",
            "elo0=5 elo1=0 alpha=0.05 beta=0.05",
            "elo0=0 elo1=5 alpha=0.7 beta=0.05",
            "elo0=0 elo1=x alpha=0.05 beta=0.05",
            "elo0=0 elo1=5 alpha=0.05 beta=0.05 gamma=1",
            "elo0 elo1=5 alpha=0.05 beta=0.05",
        ] {
            assert!(Sprt::parse(&words(bad)).is_err(), "{bad}");
        }
    }
}
