//! The tables as a teacher: positions labelled with their exact value, the data a network
//! learns the solved game from (`ternion tables data`, read by `ternion train`), and the
//! measure of what an evaluation learnt: how often its one-ply choice keeps a position's
//! value (`ternion tables one-ply`).
//!
//! A position is labelled with its value at its own 40-ply counter, drawn at 0 (where the
//! tables' value is always the position's own) or at any (where the tables know it: the
//! value is the men count's verdict, or its distance fits in the plies left). The result
//! is the value (1, 0.5 or 0), and the score says the same with the distance:
//! a win is worth [`WIN_SCORE`] less [`SCORE_PER_PLY`] for each ply to the capture or block
//! that decides it, so that the nearer win ranks higher, and a loss the opposite.

use crate::core::{Outcome, Player, Wdl};
use crate::eval::{Evaluate, Evaluator};
use crate::games::egaraguti::tablebase::line;
use crate::games::egaraguti::tablebase::sample::RandomPositions;
use crate::games::egaraguti::tablebase::set::Tablebase;
use crate::games::egaraguti::{EgaraGuti, EgaraMove};
use crate::rules::{Notation, Rules};

/// The score of a win decided at once, in centipawns: about what the hand-written terms
/// give a lead of two men.
pub const WIN_SCORE: i32 = 1000;
/// What each ply to the deciding capture or block takes off a win's score.
pub const SCORE_PER_PLY: i32 = 10;
/// Draws before giving up on a level that holds too few positions in play.
const ATTEMPTS_PER_POSITION: usize = 1000;

/// A position and its exact value at its counter, for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labelled {
    pub game: EgaraGuti,
    pub value: Wdl,
    /// The plies to the capture or block that decides a win or loss (0 for a draw, or a
    /// value the men count gives).
    pub distance: u8,
}

impl Labelled {
    /// The score the label gives, for the side to move.
    pub fn score(&self) -> i32 {
        let win = WIN_SCORE - SCORE_PER_PLY * i32::from(self.distance);
        match self.value {
            Wdl::Win => win.max(SCORE_PER_PLY),
            Wdl::Draw => 0,
            Wdl::Loss => -win.max(SCORE_PER_PLY),
        }
    }

    /// The training line of `ternion train`: `<result> <position> ; <score>`, both from the
    /// first player's side.
    pub fn training_line(&self) -> String {
        let (result, score) = match self.game.side_to_move() {
            Player::P1 => (self.value, self.score()),
            Player::P2 => (self.value.flipped(), -self.score()),
        };
        let result = match result {
            Wdl::Win => "1",
            Wdl::Draw => "0.5",
            Wdl::Loss => "0",
        };
        format!("{result} {} ; {score}", self.game.position_string())
    }
}

/// Up to `count` positions in play with `men` men (the first player's first) from
/// `positions`, at counter 0 or, with `any_counter`, at any, each with its value at its
/// counter by `tables` (a position whose value at its counter the tables do not know is
/// drawn again); fewer where the level holds too few in play. Positions may repeat in
/// small levels.
pub fn labelled_positions(
    tables: &Tablebase,
    men: [usize; 2],
    count: usize,
    any_counter: bool,
    positions: &mut RandomPositions,
) -> Vec<Labelled> {
    let mut found = Vec::with_capacity(count);
    for _ in 0..count.saturating_mul(ATTEMPTS_PER_POSITION) {
        if found.len() >= count {
            break;
        }
        let game = match any_counter {
            true => positions.next_at_any_counter(men),
            false => positions.next(men),
        };
        if game.outcome().is_some() {
            continue;
        }
        if let Some(probe) = tables.probe(&game).filter(|probe| probe.exact) {
            found.push(Labelled {
                game,
                value: probe.value,
                distance: probe.distance.unwrap_or(0),
            });
        }
    }
    found
}

/// The move `evaluator` plays looking one ply ahead: a move that wins at once first, one
/// that loses last, a draw as 0, else the move after which the evaluation is best for the
/// mover; the first of equals. `None` when there is no move.
pub fn one_ply_choice(game: &EgaraGuti, evaluator: &Evaluator) -> Option<EgaraMove> {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    let score = |mv: EgaraMove| {
        let mut after = game.clone();
        after.make_move(mv);
        match after.outcome() {
            Some(Outcome::Draw) => 0,
            Some(Outcome::Win(winner)) if winner == game.side_to_move() => i32::MAX,
            Some(Outcome::Win(_)) => i32::MIN,
            None => -after.evaluate_by(evaluator),
        }
    };
    let mut best: Option<(EgaraMove, i32)> = None;
    for mv in moves {
        let value = score(mv);
        if best.is_none_or(|(_, best)| value > best) {
            best = Some((mv, value));
        }
    }
    best.map(|(mv, _)| mv)
}

/// How an evaluation's one-ply choices fared over a level's positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keeping {
    /// Positions looked at.
    pub positions: u64,
    /// Those where some legal move gives value away: where the choice matters.
    pub choices: u64,
    /// Those of `choices` where the evaluation's move keeps the position's value.
    pub kept: u64,
}

impl Keeping {
    /// Adds whether `evaluator`'s one-ply choice in `game` keeps its value by `tables`; an
    /// error when a position after a move is not known exactly.
    pub fn add(
        &mut self,
        tables: &Tablebase,
        game: &EgaraGuti,
        evaluator: &Evaluator,
    ) -> Result<(), String> {
        let values = line::move_values(game, tables)?;
        let Some(best) = values.iter().map(|v| v.value).max() else {
            return Ok(());
        };
        self.positions += 1;
        if values.iter().all(|v| v.value == best) {
            return Ok(());
        }
        self.choices += 1;
        let chosen = one_ply_choice(game, evaluator).expect("a position with moves");
        let kept = values.iter().any(|v| v.mv == chosen && v.value == best);
        self.kept += u64::from(kept);
        Ok(())
    }

    /// The share of `choices` kept, in percent (100 when there was no choice).
    pub fn percent(&self) -> f64 {
        match self.choices {
            0 => 100.0,
            choices => 100.0 * self.kept as f64 / choices as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::egaraguti::tablebase::solve::solve_up_to;

    #[test]
    fn labels_follow_the_tables_and_read_back_as_training_lines() {
        let tables = solve_up_to(5);
        let mut positions = RandomPositions::new(3);
        let labelled = labelled_positions(&tables, [3, 2], 50, true, &mut positions);
        assert_eq!(labelled.len(), 50);
        for label in &labelled {
            assert_eq!(label.game.outcome(), None);
            let probe = tables.probe(&label.game).expect("in the tables");
            assert!(probe.exact);
            assert_eq!(label.value, probe.value);
            let line = label.training_line();
            let (result, rest) = line.split_once(' ').unwrap();
            let (position, score) = rest.split_once(" ; ").unwrap();
            assert_eq!(position, label.game.position_string());
            // From the first player's side: the side to move's value, turned for the second.
            let for_p1 = match label.game.side_to_move() {
                Player::P1 => label.value,
                Player::P2 => label.value.flipped(),
            };
            let expected = match for_p1 {
                Wdl::Win => "1",
                Wdl::Draw => "0.5",
                Wdl::Loss => "0",
            };
            assert_eq!(result, expected);
            let score: i32 = score.parse().unwrap();
            assert_eq!(score.signum(), [-1, 0, 1][for_p1 as usize], "{line}");
        }
        // Drawn at every counter, not only at 0.
        let counters: std::collections::HashSet<u32> =
            labelled.iter().map(|l| l.game.quiet_plies()).collect();
        assert!(counters.len() > 10, "{counters:?}");
        // Nearer wins score higher.
        let win = |distance| Labelled {
            game: EgaraGuti::start(),
            value: Wdl::Win,
            distance,
        };
        assert!(win(1).score() > win(9).score());
        assert_eq!(win(0).score(), WIN_SCORE);
    }

    #[test]
    fn the_tables_own_choice_always_keeps_the_value_and_the_count_is_checked() {
        let tables = solve_up_to(6);
        let mut positions = RandomPositions::new(9);
        let mut terms = Keeping::default();
        for label in labelled_positions(&tables, [3, 3], 200, false, &mut positions) {
            terms.add(&tables, &label.game, &Evaluator::Terms).unwrap();
            // The tables' best move keeps the value by definition; check the bookkeeping
            // against it.
            let values = line::move_values(&label.game, &tables).unwrap();
            let best = line::best_move(&label.game, &values).unwrap();
            assert_eq!(best.value, label.value);
        }
        assert_eq!(terms.positions, 200);
        assert!(
            terms.choices > 0 && terms.kept <= terms.choices,
            "{terms:?}"
        );
        // Levels of 3+3 are where a one-ply look falls short: some choices are missed.
        assert!(terms.kept < terms.choices, "{terms:?}");
    }
}
