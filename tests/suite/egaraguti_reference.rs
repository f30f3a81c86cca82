//! A second, deliberately plain Egara-guti implementation, played in lockstep with the
//! engine.
//!
//! It shares nothing with the engine's tables: the board is the rules' neighbour table typed
//! in as text, the leaps are found from the points' coordinates (three points in a row along
//! drawn edges, in one direction), the board is an array of options, chains are explored
//! on copies, and repetition is checked against the whole game's history of boards. Both
//! must agree on the legal moves, the position after every move, the end of the game, and
//! perft counts. This is what lets the deeper counts in tests/data be trusted.

use crate::common;

use common::legal_move_strings;
use common::perft_data::read_cases;
use ternion::core::{Outcome, Player};
use ternion::games::Variant;
use ternion::games::egaraguti::EgaraGuti;
use ternion::rules::Notation;
use ternion::rules::Rules;

/// The rules' table: point, x, y, neighbours.
const TABLE: &str = include_str!("../data/egaraguti-board.txt");

struct Board {
    names: Vec<String>,
    xy: Vec<(i32, i32)>,
    neighbours: Vec<Vec<usize>>,
    /// (from, over, to) for every directed leap.
    leaps: Vec<(usize, usize, usize)>,
}

impl Board {
    fn new() -> Board {
        let rows: Vec<Vec<&str>> = TABLE
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| l.split_whitespace().collect())
            .collect();
        let names: Vec<String> = rows.iter().map(|r| r[0].to_owned()).collect();
        let index = |n: &str| names.iter().position(|m| m == n).expect("known point");
        let xy = rows
            .iter()
            .map(|r| (r[1].parse().unwrap(), r[2].parse().unwrap()))
            .collect::<Vec<(i32, i32)>>();
        let neighbours: Vec<Vec<usize>> = rows
            .iter()
            .map(|r| r[3..].iter().map(|n| index(n)).collect())
            .collect();
        let mut leaps = Vec::new();
        for a in 0..names.len() {
            for &b in &neighbours[a] {
                for &c in &neighbours[b] {
                    let (d1, d2) = (
                        (xy[b].0 - xy[a].0, xy[b].1 - xy[a].1),
                        (xy[c].0 - xy[b].0, xy[c].1 - xy[b].1),
                    );
                    let parallel = d1.0 * d2.1 == d1.1 * d2.0;
                    let same_way = d1.0 * d2.0 + d1.1 * d2.1 > 0;
                    if c != a && parallel && same_way {
                        leaps.push((a, b, c));
                    }
                }
            }
        }
        Board {
            names,
            xy,
            neighbours,
            leaps,
        }
    }
}

#[derive(Clone, PartialEq)]
struct Model {
    cells: Vec<Option<usize>>, // 0 White, 1 Black
    side: usize,
    quiet: u32,
    fullmove: u32,
    history: Vec<(Vec<Option<usize>>, usize)>,
}

impl Model {
    fn start(board: &Board) -> Model {
        let cells = board
            .xy
            .iter()
            .map(|&(_, y)| match y {
                0..=3 => Some(0),
                5..=8 => Some(1),
                _ => None,
            })
            .collect::<Vec<_>>();
        Model {
            history: vec![(cells.clone(), 0)],
            cells,
            side: 0,
            quiet: 0,
            fullmove: 1,
        }
    }

    fn men(&self, player: usize) -> usize {
        self.cells.iter().filter(|c| **c == Some(player)).count()
    }

    /// Every legal path, ignoring the end of the game.
    fn paths(&self, board: &Board) -> Vec<Vec<usize>> {
        let mut chains = Vec::new();
        for from in 0..self.cells.len() {
            if self.cells[from] == Some(self.side) {
                self.chains(board, self.cells.clone(), vec![from], &mut chains);
            }
        }
        if !chains.is_empty() {
            return chains;
        }
        let mut steps = Vec::new();
        for from in 0..self.cells.len() {
            if self.cells[from] == Some(self.side) {
                for &to in &board.neighbours[from] {
                    if self.cells[to].is_none() {
                        steps.push(vec![from, to]);
                    }
                }
            }
        }
        steps
    }

    fn chains(
        &self,
        board: &Board,
        cells: Vec<Option<usize>>,
        path: Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        let at = *path.last().unwrap();
        let mut went_on = false;
        for &(from, over, to) in &board.leaps {
            if from == at && cells[over] == Some(1 - self.side) && cells[to].is_none() {
                went_on = true;
                let mut next = cells.clone();
                next[over] = None;
                next[at] = None;
                next[to] = Some(self.side);
                let mut longer = path.clone();
                longer.push(to);
                self.chains(board, next, longer, out);
            }
        }
        if !went_on && path.len() > 1 {
            out.push(path);
        }
    }

    fn outcome(&self, board: &Board) -> Option<Outcome> {
        let (me, foe) = (self.side, 1 - self.side);
        let player = |p: usize| Player::BOTH[p];
        if self.men(me) == 0 || self.paths(board).is_empty() {
            return Some(Outcome::Win(player(foe)));
        }
        if self.men(foe) == 0 {
            return Some(Outcome::Win(player(me)));
        }
        let now = (self.cells.clone(), self.side);
        let seen = self.history.iter().filter(|&h| *h == now).count();
        if self.quiet >= 40 || seen >= 3 {
            return Some(match self.men(0).cmp(&self.men(1)) {
                std::cmp::Ordering::Greater => Outcome::Win(Player::P1),
                std::cmp::Ordering::Less => Outcome::Win(Player::P2),
                std::cmp::Ordering::Equal => Outcome::Draw,
            });
        }
        None
    }

    fn moves(&self, board: &Board) -> Vec<String> {
        if self.outcome(board).is_some() {
            return Vec::new();
        }
        let mut texts: Vec<String> = self
            .paths(board)
            .iter()
            .map(|p| p.iter().map(|&i| board.names[i].as_str()).collect())
            .collect();
        texts.sort();
        texts
    }

    fn play(&mut self, board: &Board, text: &str) {
        let path: Vec<usize> = text
            .as_bytes()
            .chunks(2)
            .map(|c| {
                let name = std::str::from_utf8(c).unwrap();
                board.names.iter().position(|n| n == name).unwrap()
            })
            .collect();
        let mut captured = false;
        for pair in path.windows(2) {
            if let Some(&(_, over, _)) = board
                .leaps
                .iter()
                .find(|l| l.0 == pair[0] && l.2 == pair[1])
            {
                self.cells[over] = None;
                captured = true;
            }
            self.cells[pair[0]] = None;
            self.cells[pair[1]] = Some(self.side);
        }
        self.quiet = if captured { 0 } else { self.quiet + 1 };
        if self.side == 1 {
            self.fullmove += 1;
        }
        self.side = 1 - self.side;
        self.history.push((self.cells.clone(), self.side));
    }

    fn position_string(&self) -> String {
        let ranks: [&[usize]; 7] = [
            &[18, 19, 20, 21, 22],
            &[15, 16, 17],
            &[12, 13, 14],
            &[11],
            &[8, 9, 10],
            &[5, 6, 7],
            &[0, 1, 2, 3, 4],
        ];
        let rank_texts: Vec<String> = ranks
            .iter()
            .map(|points| {
                let mut text = String::new();
                let mut empty = 0;
                for &p in points.iter() {
                    match self.cells[p] {
                        None => empty += 1,
                        Some(player) => {
                            if empty > 0 {
                                text += &empty.to_string();
                                empty = 0;
                            }
                            text.push(if player == 0 { 'w' } else { 'b' });
                        }
                    }
                }
                if empty > 0 {
                    text += &empty.to_string();
                }
                text
            })
            .collect();
        let side = if self.side == 0 { 'w' } else { 'b' };
        format!(
            "{} {side} {} {}",
            rank_texts.join("/"),
            self.quiet,
            self.fullmove
        )
    }

    fn perft(&self, board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves(board)
            .iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(board, m);
                next.perft(board, depth - 1)
            })
            .sum()
    }
}

#[test]
fn the_board_derived_from_coordinates_matches_the_rules() {
    let board = Board::new();
    assert_eq!(board.names.len(), 23);
    assert_eq!(board.leaps.len(), 58);
    let edges: usize = board.neighbours.iter().map(Vec::len).sum();
    assert_eq!(edges, 80);
}

#[test]
fn the_engine_agrees_with_the_plain_model_over_random_games() {
    let board = Board::new();
    let mut compared = 0;
    for seed in 0..300u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut model = Model::start(&board);
        let mut game = EgaraGuti::start();
        for ply in 0.. {
            let at = format!("seed {seed} ply {ply} {}", model.position_string());
            assert_eq!(game.position_string(), model.position_string(), "{at}");
            let moves = model.moves(&board);
            assert_eq!(legal_move_strings(&game), moves, "{at}");
            assert_eq!(game.outcome(), model.outcome(&board), "{at}");
            compared += 1;
            if moves.is_empty() {
                break;
            }
            let text = &moves[rng.usize(..moves.len())];
            model.play(&board, text);
            let mv = game.parse_move(text).expect("the model's move is legal");
            game.make_move(mv);
        }
    }
    assert!(compared > 5_000, "only {compared} positions compared");
}

#[test]
fn perft_data_agrees_with_the_plain_model() {
    let board = Board::new();
    let mut checked = 0;
    for case in read_cases(Variant::Egaraguti) {
        let model = match &case.position {
            None => Model::start(&board),
            Some(text) => {
                let game: EgaraGuti = common::position(text);
                model_of(&game)
            }
        };
        for &(depth, expected) in case.counts.iter().filter(|c| c.1 <= 100_000) {
            assert_eq!(
                model.perft(&board, depth),
                expected,
                "{}: {depth}",
                case.origin
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} counts re-counted");
}

/// The model of a position the engine read (the engine's reading is tested elsewhere).
fn model_of(game: &EgaraGuti) -> Model {
    let mut cells = vec![None; 23];
    for (player, cell) in [(Player::P1, 0), (Player::P2, 1)] {
        for (point, slot) in cells.iter_mut().enumerate() {
            if game.men(player) & (1 << point) != 0 {
                *slot = Some(cell);
            }
        }
    }
    let side = game.side_to_move().index();
    let model = Model {
        history: vec![(cells.clone(), side)],
        cells,
        side,
        quiet: game.quiet_plies(),
        fullmove: game.fullmove(),
    };
    assert_eq!(model.position_string(), game.position_string());
    model
}
