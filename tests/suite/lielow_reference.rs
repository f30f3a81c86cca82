//! A second, deliberately plain Lielow implementation, written straight from the rules with
//! no bit sets, no tables and no undo, played in lockstep with the engine.
//!
//! Both must agree on the legal moves, the position after every move and the end of the
//! game over seeded random playouts, and on perft counts from positions met on the way.
//! This is what lets the deeper perft counts in tests/data be trusted.

use crate::common;

use common::legal_move_strings;
use ternion::core::{Outcome, Player};
use ternion::games::Playable;
use ternion::games::lielow::{Lielow8, Lielow9};
use ternion::rules::perft::perft;

#[derive(Clone, Copy, PartialEq)]
struct Stack {
    owner: usize,
    height: usize,
}

/// The plain model: a grid of optional stacks, the crowns, the side to move, the winner.
#[derive(Clone)]
struct Model {
    n: usize,
    grid: Vec<Vec<Option<Stack>>>, // grid[rank][file]
    crown: [Option<(usize, usize)>; 2],
    side: usize,
    winner: Option<usize>,
}

/// A move of the model: notation, origin (file, rank), destination or `None` for off.
type ModelMove = (String, (usize, usize), Option<(usize, usize)>);

const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

fn name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

impl Model {
    fn start(n: usize) -> Model {
        let mut grid = vec![vec![None; n]; n];
        let rows: Vec<(usize, usize)> = if n == 8 {
            vec![(0, 1), (1, 6)]
        } else {
            vec![(0, 0), (0, 2), (1, 6), (1, 8)]
        };
        for (owner, rank) in rows {
            for cell in grid[rank].iter_mut() {
                *cell = Some(Stack { owner, height: 1 });
            }
        }
        Model {
            n,
            grid,
            crown: [None, None],
            side: 0,
            winner: None,
        }
    }

    /// Every legal move.
    fn moves(&self) -> Vec<ModelMove> {
        let mut out = Vec::new();
        if self.winner.is_some() {
            return out;
        }
        let n = self.n as i32;
        for rank in 0..self.n {
            for file in 0..self.n {
                let Some(stack) = self.grid[rank][file] else {
                    continue;
                };
                if stack.owner != self.side {
                    continue;
                }
                let mut can_leave = false;
                for (df, dr) in DIRECTIONS {
                    let f = file as i32 + df * stack.height as i32;
                    let r = rank as i32 + dr * stack.height as i32;
                    if f < 0 || r < 0 || f >= n || r >= n {
                        can_leave = true;
                        continue;
                    }
                    let (f, r) = (f as usize, r as usize);
                    match self.grid[r][f] {
                        Some(other) if other.owner == self.side => {}
                        _ => out.push((
                            format!("{}{}", name(file, rank), name(f, r)),
                            (file, rank),
                            Some((f, r)),
                        )),
                    }
                }
                if can_leave {
                    out.push((format!("{}off", name(file, rank)), (file, rank), None));
                }
            }
        }
        out
    }

    fn play(&mut self, from: (usize, usize), to: Option<(usize, usize)>) {
        let me = self.side;
        let foe = 1 - me;
        let stack = self.grid[from.1][from.0].take().expect("a stack to move");
        let was_king = self.crown[me] == Some(from);
        if was_king {
            self.crown[me] = None;
        }
        match to {
            None => {
                if was_king {
                    self.winner = Some(foe);
                }
            }
            Some(to) => {
                let arriving = match self.grid[to.1][to.0] {
                    None => stack.height + 1,
                    Some(_) => {
                        if self.crown[foe] == Some(to) {
                            self.crown[foe] = None;
                            self.winner = Some(me);
                        }
                        1
                    }
                };
                self.grid[to.1][to.0] = Some(Stack {
                    owner: me,
                    height: arriving,
                });
                if was_king {
                    self.crown[me] = Some(to);
                }
            }
        }
        for player in [me, foe] {
            let mut tallest = Vec::new();
            let mut best = 0;
            for rank in 0..self.n {
                for file in 0..self.n {
                    if let Some(s) = self.grid[rank][file] {
                        if s.owner == player && s.height > best {
                            best = s.height;
                            tallest.clear();
                        }
                        if s.owner == player && s.height == best {
                            tallest.push((file, rank));
                        }
                    }
                }
            }
            if tallest.len() == 1 {
                self.crown[player] = Some(tallest[0]);
            }
        }
        if self.winner.is_none() {
            for player in [me, foe] {
                let has_stacks = self
                    .grid
                    .iter()
                    .flatten()
                    .flatten()
                    .any(|s| s.owner == player);
                if !has_stacks {
                    self.winner = Some(1 - player);
                }
            }
        }
        self.side = foe;
    }

    fn position_string(&self) -> String {
        let mut ranks = Vec::new();
        for rank in (0..self.n).rev() {
            let mut text = String::new();
            let mut empty = 0;
            for file in 0..self.n {
                match self.grid[rank][file] {
                    None => empty += 1,
                    Some(s) => {
                        if empty > 0 {
                            text += &empty.to_string();
                            empty = 0;
                        }
                        text.push(if s.owner == 0 { 'b' } else { 'r' });
                        text += &s.height.to_string();
                        if self.crown[s.owner] == Some((file, rank)) {
                            text.push('*');
                        }
                    }
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            ranks.push(text);
        }
        format!(
            "{} {}",
            ranks.join("/"),
            if self.side == 0 { 'b' } else { 'r' }
        )
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|(_, from, to)| {
                let mut next = self.clone();
                next.play(from, to);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// Plays seeded random games in lockstep; every `perft_every` plies compares perft counts.
fn lockstep<G: Playable>(n: usize, seeds: std::ops::Range<u64>, perft_every: usize) -> usize {
    let mut compared = 0;
    for seed in seeds {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut model = Model::start(n);
        let mut game = G::start();
        for ply in 0.. {
            let at = format!("n={n} seed {seed} ply {ply} {}", model.position_string());
            assert_eq!(game.position_string(), model.position_string(), "{at}");
            let mut expected: Vec<String> = model.moves().into_iter().map(|m| m.0).collect();
            expected.sort();
            assert_eq!(legal_move_strings(&game), expected, "{at}");
            let expected_outcome = model.winner.map(|w| Outcome::Win(Player::BOTH[w]));
            assert_eq!(game.outcome(), expected_outcome, "{at}");
            if ply % perft_every == perft_every - 1 {
                assert_eq!(perft(&mut game, 2), model.perft(2), "{at}: perft 2");
            }
            compared += 1;
            let moves = model.moves();
            if moves.is_empty() {
                break;
            }
            let (text, from, to) = &moves[rng.usize(..moves.len())];
            model.play(*from, *to);
            let mv = game.parse_move(text).expect("the model's move is legal");
            game.make_move(mv);
        }
    }
    compared
}

#[test]
fn lielow8_agrees_with_the_plain_model() {
    assert!(lockstep::<Lielow8>(8, 0..300, 7) > 1_000);
}

#[test]
fn lielow9_agrees_with_the_plain_model() {
    assert!(lockstep::<Lielow9>(9, 1_000..1_200, 7) > 1_000);
}

/// The model re-counts every small count of the perft data files, middle games included.
#[test]
fn perft_data_agrees_with_the_plain_model() {
    use common::perft_data::read_cases;
    use ternion::games::Variant;

    let mut checked = 0;
    for (variant, n) in [(Variant::Lielow, 8), (Variant::Lielow9, 9)] {
        for case in read_cases(variant) {
            let model = match &case.position {
                None => Model::start(n),
                Some(text) => Model::parse(text, n),
            };
            for &(depth, expected) in case.counts.iter().filter(|c| c.1 <= 700_000) {
                assert_eq!(
                    model.perft(depth),
                    expected,
                    "{}: perft {depth}",
                    case.origin
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "only {checked} counts re-counted");
}

impl Model {
    /// Reads a position string (trusted input: the data files).
    fn parse(text: &str, n: usize) -> Model {
        let (board, side) = text.split_once(' ').expect("board and side");
        let mut model = Model::start(n);
        model.grid = vec![vec![None; n]; n];
        for (row, rank_text) in board.split('/').enumerate() {
            let rank = n - 1 - row;
            let mut file = 0;
            let mut chars = rank_text.chars().peekable();
            while let Some(ch) = chars.next() {
                if let Some(run) = ch.to_digit(10) {
                    file += run as usize;
                    continue;
                }
                let owner = if ch == 'b' { 0 } else { 1 };
                let height = chars.next().and_then(|d| d.to_digit(10)).expect("height");
                model.grid[rank][file] = Some(Stack {
                    owner,
                    height: height as usize,
                });
                if chars.next_if_eq(&'*').is_some() {
                    model.crown[owner] = Some((file, rank));
                }
                file += 1;
            }
        }
        model.side = if side == "b" { 0 } else { 1 };
        assert_eq!(
            model.position_string(),
            text,
            "the model re-reads its own strings"
        );
        model
    }
}
