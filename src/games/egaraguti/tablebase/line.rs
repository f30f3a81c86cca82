//! Perfect play read from the tables: the value of every legal move, and a line that keeps
//! the value to the end of the game.
//!
//! A move's value is the position after it as the tables give it at its own 40-ply
//! counter (the game's own end first: no men, no move, the 40-ply rule, a repetition). Among
//! the moves that keep the best value, the tables rank first the one that gets the mover
//! what it wants soonest: where the value is better for the mover than the men count's
//! verdict, the shortest way to the capture (or block) that decides it; where it is not, the
//! longest, so that the side that would lose the race holds out; equal distances go by
//! the order the moves are generated in. A capture decides at once, a step one ply sooner
//! than its position does.

use super::index::wdl_by_count;
use super::set::{Tablebase, men_of};
use crate::core::{Outcome, Wdl};
use crate::games::egaraguti::{EgaraGuti, EgaraMove};
use crate::rules::{Notation, Rules};

/// One legal move as the tables value it for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    pub mv: EgaraMove,
    pub value: Wdl,
    /// The plies from before the move to the capture, block or end that decides the value:
    /// 1 for a capture or a move that ends the game, the position's own distance plus one
    /// for a step; 0 where the value is the men count's verdict and nothing need happen.
    pub distance: u8,
}

/// Every legal move of `game` with its value, in generation order. An error when a position
/// after a move is beyond the loaded tables, or not known exactly at its counter.
pub fn move_values(game: &EgaraGuti, tables: &Tablebase) -> Result<Vec<MoveValue>, String> {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    let mut values = Vec::with_capacity(moves.len());
    for mv in moves {
        let mut after = game.clone();
        after.make_move(mv);
        let (value, distance) = match after.outcome() {
            Some(outcome) => (value_of_outcome(outcome, game), 1),
            None => {
                let probe = tables.probe(&after).ok_or_else(|| {
                    format!(
                        "no table for {} after {}",
                        men_of(&after).material(),
                        game.move_string(mv)
                    )
                })?;
                if !probe.exact {
                    return Err(format!(
                        "the position after {} is not known exactly at its counter",
                        game.move_string(mv)
                    ));
                }
                let value = probe.value.flipped();
                let distance = match (mv.captured() != 0, probe.distance) {
                    (true, _) => 1,
                    (false, Some(0) | None) => 0,
                    (false, Some(d)) => d.saturating_add(1),
                };
                (value, distance)
            }
        };
        values.push(MoveValue {
            mv,
            value,
            distance,
        });
    }
    Ok(values)
}

/// The value of a finished game for the side to move in `before`, who made the last move.
fn value_of_outcome(outcome: Outcome, before: &EgaraGuti) -> Wdl {
    Wdl::of(outcome, before.side_to_move())
}

/// `values` ranked best first for the side to move of `game` (see the module docs): by
/// value, then, where the value is better for the mover than the men count's verdict, the
/// shortest distance first, and where it is not, the longest; equals keep the order they
/// came in.
pub fn rank(game: &EgaraGuti, values: &mut [MoveValue]) {
    let default = wdl_by_count(men_of(game).material());
    values.sort_by_key(|v| {
        let hurry = match v.value > default {
            true => i32::from(v.distance),
            false => -i32::from(v.distance),
        };
        (std::cmp::Reverse(v.value), hurry)
    });
}

/// The move the tables rank first among `values` (see [`rank`]), for the side to move of
/// `game`; `None` when there is no move.
pub fn best_move(game: &EgaraGuti, values: &[MoveValue]) -> Option<MoveValue> {
    let mut ranked = values.to_vec();
    rank(game, &mut ranked);
    ranked.first().copied()
}

/// The move to play from the tables, for a side that wants the most out of an opponent
/// who may err: the first of [`rank`] (the quickest win, the longest loss), but among
/// drawing moves the one after which the opponent has the most replies that lose (its
/// traps), the first ranked of equals. An error as [`move_values`] gives one.
pub fn tables_choice(game: &EgaraGuti, tables: &Tablebase) -> Result<Option<MoveValue>, String> {
    let mut values = move_values(game, tables)?;
    rank(game, &mut values);
    let Some(&best) = values.first() else {
        return Ok(None);
    };
    if best.value != Wdl::Draw {
        return Ok(Some(best));
    }
    let mut chosen = (best, traps(game, best.mv, tables));
    for &candidate in values.iter().skip(1).take_while(|v| v.value == Wdl::Draw) {
        let count = traps(game, candidate.mv, tables);
        if count > chosen.1 {
            chosen = (candidate, count);
        }
    }
    Ok(Some(chosen.0))
}

/// The opponent's replies to `mv` that lose for it, as the tables know them (none where
/// they do not know every reply).
fn traps(game: &EgaraGuti, mv: EgaraMove, tables: &Tablebase) -> usize {
    let mut after = game.clone();
    after.make_move(mv);
    if after.outcome().is_some() {
        return 0;
    }
    move_values(&after, tables).map_or(0, |replies| {
        replies.iter().filter(|r| r.value == Wdl::Loss).count()
    })
}

/// A line of perfect play from `game`: the moves the tables rank first, to the end of the
/// game or `max_plies`, and the game's result if it ended.
pub fn perfect_line(
    game: &EgaraGuti,
    tables: &Tablebase,
    max_plies: usize,
) -> Result<(Vec<EgaraMove>, Option<Outcome>), String> {
    let mut game = game.clone();
    let mut line = Vec::new();
    while line.len() < max_plies {
        if let Some(outcome) = game.outcome() {
            return Ok((line, Some(outcome)));
        }
        let values = move_values(&game, tables)?;
        let chosen = best_move(&game, &values).expect("a game in play has a move");
        game.make_move(chosen.mv);
        line.push(chosen.mv);
    }
    Ok((line, game.outcome()))
}

/// What the tables say of one side's play in a game: the value it started with and every
/// move of its that gave some of it away.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Audit {
    /// The side's value at the game's start position, where the tables know it exactly.
    pub start_value: Option<Wdl>,
    /// The side's moves whose value the tables know.
    pub moves_checked: usize,
    /// The side's moves the tables could not value (a position beyond them, or not exact at
    /// its counter).
    pub moves_unknown: usize,
    /// The moves worth less than the best: (ply from the start, from 1; the move; the best
    /// value; the move's value).
    pub drops: Vec<(usize, String, Wdl, Wdl)>,
}

/// Audits `side`'s moves in the game played from `start` by `moves` (in notation): each must
/// keep the best value the tables give. An error on a move that is not legal.
pub fn audit(
    start: &EgaraGuti,
    moves: &[String],
    side: crate::core::Player,
    tables: &Tablebase,
) -> Result<Audit, String> {
    let mut report = Audit {
        start_value: tables
            .probe(start)
            .filter(|probe| probe.exact && start.outcome().is_none())
            .map(|probe| match start.side_to_move() == side {
                true => probe.value,
                false => probe.value.flipped(),
            }),
        ..Audit::default()
    };
    let mut game = start.clone();
    for (ply, text) in moves.iter().enumerate() {
        let mv = game
            .parse_move(text)
            .map_err(|e| format!("ply {}: {text}: {e}", ply + 1))?;
        if game.side_to_move() == side {
            match move_values(&game, tables) {
                Ok(values) => {
                    let best = values.iter().map(|v| v.value).max();
                    let played = values.iter().find(|v| v.mv == mv).map(|v| v.value);
                    if let (Some(best), Some(played)) = (best, played) {
                        report.moves_checked += 1;
                        if played < best {
                            report.drops.push((ply + 1, text.clone(), best, played));
                        }
                    }
                }
                Err(_) => report.moves_unknown += 1,
            }
        }
        game.make_move(mv);
    }
    Ok(report)
}

/// One player's audits summed over many games: its results by the value it started with,
/// and what the tables found of its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuditSummary {
    /// The games, by the player's value at the start (a [`Wdl`] as the index, then a row
    /// for the starts the tables do not know), counted by its result (a [`Wdl`] as the
    /// index).
    pub by_start: [[u32; 3]; 4],
    pub moves_checked: usize,
    pub moves_unknown: usize,
    /// The moves that gave value away.
    pub drops: usize,
    /// The games lost from a start worth a draw or better.
    pub lost_holding: usize,
}

impl AuditSummary {
    /// The row of [`AuditSummary::by_start`] of the starts the tables do not know.
    pub const UNKNOWN_START: usize = 3;

    /// Counts one game's audit, which the player ended with `result`.
    pub fn add(&mut self, audit: &Audit, result: Wdl) {
        let row = audit
            .start_value
            .map_or(Self::UNKNOWN_START, |value| value as usize);
        self.by_start[row][result as usize] += 1;
        self.moves_checked += audit.moves_checked;
        self.moves_unknown += audit.moves_unknown;
        self.drops += audit.drops.len();
        self.lost_holding +=
            usize::from(audit.start_value >= Some(Wdl::Draw) && result == Wdl::Loss);
    }

    /// The games, whatever their start, by result.
    pub fn results(&self) -> [u32; 3] {
        self.by_start.iter().fold([0; 3], |sum, row| {
            [sum[0] + row[0], sum[1] + row[1], sum[2] + row[2]]
        })
    }

    /// The games counted.
    pub fn games(&self) -> u32 {
        self.results().iter().sum()
    }

    /// Whether the player fell short of perfect play: a move gave value away, or a game
    /// was lost from a start worth a draw or better.
    pub fn failed(&self) -> bool {
        self.drops > 0 || self.lost_holding > 0
    }
}

#[cfg(test)]
mod tests {
    use super::super::solve::solve_up_to;
    use super::*;
    use crate::core::Player;

    /// Seeded random positions of `men` men a side, at counter 0, that are in play.
    fn positions(white: usize, black: usize, count: usize, seed: u64) -> Vec<EgaraGuti> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut points: Vec<usize> = (0..23).collect();
            rng.shuffle(&mut points);
            let set = |points: &[usize]| points.iter().fold(0u32, |s, &p| s | 1 << p);
            let men = [set(&points[..white]), set(&points[white..white + black])];
            let side = if rng.bool() { Player::P1 } else { Player::P2 };
            let game = EgaraGuti::from_parts(men, side, 0, 1);
            if game.outcome().is_none() {
                out.push(game);
            }
        }
        out
    }

    #[test]
    fn the_perfect_line_ends_as_the_tables_say_and_keeps_the_value_at_every_move() {
        let tables = solve_up_to(5);
        for (white, black) in [(2, 2), (3, 2), (2, 3), (1, 3)] {
            for start in positions(white, black, 40, 7 + white as u64 * 10 + black as u64) {
                let value = tables.probe(&start).unwrap().value;
                let (line, outcome) = perfect_line(&start, &tables, 400).unwrap();
                let outcome = outcome.expect("a perfect line ends");
                assert_eq!(value_of_outcome(outcome, &start), value, "{line:?}");
                // Every move keeps the value for the side that plays it.
                let mut game = start.clone();
                let mut expected = value;
                for &mv in &line {
                    let values = move_values(&game, &tables).unwrap();
                    let chosen = values.iter().find(|v| v.mv == mv).unwrap();
                    assert_eq!(chosen.value, expected);
                    assert_eq!(values.iter().map(|v| v.value).max(), Some(expected));
                    game.make_move(mv);
                    expected = expected.flipped();
                }
            }
        }
    }

    #[test]
    fn the_audit_finds_the_perfect_line_perfect_and_a_drop_where_there_is_one() {
        let tables = solve_up_to(5);
        let mut drops_found = 0;
        for start in positions(3, 2, 30, 21) {
            let (line, _) = perfect_line(&start, &tables, 200).unwrap();
            let texts = start.line_notation(&line);
            for side in [Player::P1, Player::P2] {
                let report = audit(&start, &texts, side, &tables).unwrap();
                assert!(report.drops.is_empty(), "{texts:?}: {:?}", report.drops);
                assert_eq!(report.moves_unknown, 0);
                let value = tables.probe(&start).unwrap().value;
                let expected = if start.side_to_move() == side {
                    value
                } else {
                    value.flipped()
                };
                assert_eq!(report.start_value, Some(expected));
            }
            // The worst first move instead, where it is worse: the audit names it.
            let values = move_values(&start, &tables).unwrap();
            let worst = values.iter().min_by_key(|v| v.value).unwrap();
            let best = values.iter().map(|v| v.value).max().unwrap();
            if worst.value < best {
                let text = start.move_string(worst.mv);
                let report = audit(
                    &start,
                    std::slice::from_ref(&text),
                    start.side_to_move(),
                    &tables,
                )
                .unwrap();
                assert_eq!(report.drops, vec![(1, text, best, worst.value)]);
                drops_found += 1;
            }
        }
        assert!(
            drops_found > 0,
            "no position of the sample had a worse move"
        );
    }

    #[test]
    fn the_winner_takes_the_shortest_way_and_the_loser_the_longest() {
        let tables = solve_up_to(4);
        for start in positions(2, 2, 60, 3) {
            let values = move_values(&start, &tables).unwrap();
            let chosen = best_move(&start, &values).unwrap();
            let keeping = values.iter().filter(|v| v.value == chosen.value);
            match chosen.value {
                Wdl::Win => assert!(keeping.clone().all(|v| v.distance >= chosen.distance)),
                Wdl::Loss => assert!(keeping.clone().all(|v| v.distance <= chosen.distance)),
                Wdl::Draw => {}
            }
        }
    }

    #[test]
    fn the_ranking_puts_better_values_first_and_each_in_the_order_of_best_move() {
        let tables = solve_up_to(5);
        let mut ranked_some = 0;
        for start in positions(3, 2, 40, 5)
            .into_iter()
            .chain(positions(2, 3, 40, 6))
        {
            let values = move_values(&start, &tables).unwrap();
            let mut ranked = values.clone();
            rank(&start, &mut ranked);
            // The same moves, values never rising, the first the one best_move picks.
            let mut sorted = ranked.clone();
            sorted.sort_by_key(|v| start.move_string(v.mv));
            let mut given = values.clone();
            given.sort_by_key(|v| start.move_string(v.mv));
            assert_eq!(sorted, given);
            assert!(ranked.windows(2).all(|pair| pair[0].value >= pair[1].value));
            assert_eq!(ranked.first().copied(), best_move(&start, &values));
            // Within a value, the order its side wants: the shortest way where the value
            // beats the men count, else the longest.
            let default = wdl_by_count(men_of(&start).material());
            for pair in ranked
                .windows(2)
                .filter(|pair| pair[0].value == pair[1].value)
            {
                match pair[0].value > default {
                    true => assert!(pair[0].distance <= pair[1].distance),
                    false => assert!(pair[0].distance >= pair[1].distance),
                }
                ranked_some += 1;
            }
        }
        assert!(ranked_some > 0, "no two moves of equal value in the sample");
    }

    #[test]
    fn among_drawing_moves_the_tables_choice_sets_the_most_traps() {
        let tables = solve_up_to(5);
        let mut draws_with_a_choice = 0;
        let mut traps_differed = 0;
        for (white, black) in [(2, 2), (3, 2), (2, 3), (3, 1)] {
            for start in positions(white, black, 60, 40 + white as u64 * 10 + black as u64) {
                let values = move_values(&start, &tables).unwrap();
                let chosen = tables_choice(&start, &tables).unwrap().unwrap();
                let best = best_move(&start, &values).unwrap();
                assert_eq!(chosen.value, best.value);
                if chosen.value != Wdl::Draw {
                    assert_eq!(chosen, best, "a win or a loss goes as the ranking says");
                    continue;
                }
                let drawing: Vec<usize> = (values.iter())
                    .filter(|v| v.value == Wdl::Draw)
                    .map(|v| traps(&start, v.mv, &tables))
                    .collect();
                if drawing.len() < 2 {
                    continue;
                }
                draws_with_a_choice += 1;
                let most = *drawing.iter().max().unwrap();
                assert_eq!(traps(&start, chosen.mv, &tables), most);
                traps_differed += usize::from(drawing.iter().any(|&t| t != most));
            }
        }
        assert!(
            draws_with_a_choice > 0 && traps_differed > 0,
            "{draws_with_a_choice} drawn positions with a choice, {traps_differed} with traps to tell apart"
        );
    }

    #[test]
    fn the_summary_counts_results_by_start_and_fails_on_value_given_away() {
        let audit = |start_value, drops: usize| Audit {
            start_value,
            moves_checked: 10,
            moves_unknown: 1,
            drops: vec![(3, "a1b2".into(), Wdl::Win, Wdl::Draw); drops],
        };
        let mut summary = AuditSummary::default();
        summary.add(&audit(Some(Wdl::Win), 0), Wdl::Win);
        summary.add(&audit(Some(Wdl::Loss), 0), Wdl::Loss);
        summary.add(&audit(None, 0), Wdl::Draw);
        assert!(!summary.failed(), "perfect play from a lost start loses");
        assert_eq!(summary.by_start[Wdl::Win as usize], [0, 0, 1]);
        assert_eq!(summary.by_start[Wdl::Loss as usize], [1, 0, 0]);
        assert_eq!(summary.by_start[AuditSummary::UNKNOWN_START], [0, 1, 0]);
        assert_eq!((summary.results(), summary.games()), ([1, 1, 1], 3));
        assert_eq!((summary.moves_checked, summary.moves_unknown), (30, 3));

        let mut lost_a_draw = summary.clone();
        lost_a_draw.add(&audit(Some(Wdl::Draw), 0), Wdl::Loss);
        assert_eq!(lost_a_draw.lost_holding, 1);
        assert!(lost_a_draw.failed());

        let mut gave_away = summary.clone();
        gave_away.add(&audit(Some(Wdl::Win), 2), Wdl::Win);
        assert_eq!((gave_away.drops, gave_away.lost_holding), (2, 0));
        assert!(
            gave_away.failed(),
            "a drop fails even where the game was won"
        );
    }
}
