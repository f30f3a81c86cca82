//! A second, deliberately plain Lerontenin implementation, played in lockstep with the
//! engine.
//!
//! Pieces are a vector of records with string labels, moves are built as strings, every
//! move copies the whole state, and repetition compares whole state descriptions. Both must
//! agree on the legal moves, the position after every move, the end of the game and perft
//! counts. This is what lets the deeper counts in tests/data be trusted.

use crate::common;

use common::legal_move_strings;
use common::perft_data::read_cases;
use ternion::core::{Outcome, Player};
use ternion::games::Variant;
use ternion::games::lerontenin::Lerontenin;
use ternion::rules::Notation;
use ternion::rules::Rules;

#[derive(Clone, PartialEq, Debug)]
struct Piece {
    label: String,
    power: u32,
    square: u32,
    freeze: u32,
}

#[derive(Clone, Debug)]
struct Model {
    armies: [Vec<Piece>; 2],
    single_moves: [u32; 2],
    descent: [u32; 2],
    side: usize,
    ply: u32,
    history: Vec<String>,
    winner: Option<Outcome>,
}

const SEQUENCE: [&str; 7] = ["H", "X", "P", "Q", "T", "D", "S"];

impl Model {
    fn start() -> Model {
        let army: Vec<Piece> = ["S", "D", "T", "Q", "P", "X", "H"]
            .iter()
            .enumerate()
            .map(|(i, l)| Piece {
                label: l.to_string(),
                power: i as u32 + 1,
                square: 0,
                freeze: 0,
            })
            .collect();
        let mut model = Model {
            armies: [army.clone(), army],
            single_moves: [0, 0],
            descent: [0, 0],
            side: 0,
            ply: 0,
            history: Vec::new(),
            winner: None,
        };
        model.history.push(model.key());
        model
    }

    fn single_power(&self, side: usize) -> u32 {
        match self.single_moves[side] % 7 {
            0 => 7,
            r => r,
        }
    }

    /// Everything repetition compares: the position without the ply, counters mod 7.
    fn key(&self) -> String {
        let mut text = self.position_string();
        let cut = text.rfind(' ').unwrap();
        text.truncate(cut);
        format!(
            "{text} {} {}",
            self.single_moves[0] % 7,
            self.single_moves[1] % 7
        )
    }

    fn moves(&self) -> Vec<String> {
        if self.winner.is_some() {
            return Vec::new();
        }
        let me = self.side;
        let mut out = Vec::new();
        for piece in &self.armies[me] {
            if piece.square == 98 || piece.freeze > 0 {
                continue;
            }
            if piece.label == "S" {
                out.push(format!("S-{}", piece.square + 1));
                let p = self.single_power(me);
                if p != 1 && piece.square + p <= 98 {
                    out.push(format!("S-{}", piece.square + p));
                }
            } else if piece.square + piece.power <= 98 {
                out.push(format!("{}-{}", piece.label, piece.square + piece.power));
            } else if piece.power >= 2 {
                for a in 1..=piece.power / 2 {
                    out.push(format!("{}/{}+{}", piece.label, a, piece.power - a));
                }
            }
        }
        if out.is_empty() {
            out.push("pass".into());
        }
        out.sort();
        out
    }

    fn play(&mut self, mv: &str) {
        let me = self.side;
        let foe = 1 - me;
        let mut acted: Vec<String> = Vec::new();
        let mut descent = 0;
        if let Some((label, dest)) = mv.split_once('-') {
            let dest: u32 = dest.parse().unwrap();
            let index = self.armies[me]
                .iter()
                .position(|p| p.label == label)
                .unwrap();
            let steps = dest - self.armies[me][index].square;
            self.armies[me][index].square = dest;
            self.armies[me][index].freeze = steps;
            if label == "S" {
                self.single_moves[me] += 1;
            }
            if (1..=97).contains(&dest) {
                let foe_power = self.single_power(foe);
                for piece in self.armies[foe].iter_mut() {
                    if piece.square == dest {
                        let back = if piece.label == "S" {
                            foe_power
                        } else {
                            piece.power
                        };
                        piece.square = dest.saturating_sub(back);
                        piece.freeze = piece.freeze.max(back);
                    }
                }
            }
            let position = SEQUENCE.iter().position(|&l| l == label);
            if label == "H" {
                descent = 1;
            } else if (1..=6).contains(&self.descent[me])
                && position == Some(self.descent[me] as usize)
            {
                descent = self.descent[me] + 1;
            }
            acted.push(label.to_string());
        } else if let Some((label, split)) = mv.split_once('/') {
            let (a, b) = split.split_once('+').unwrap();
            let (a, b): (u32, u32) = (a.parse().unwrap(), b.parse().unwrap());
            let index = self.armies[me]
                .iter()
                .position(|p| p.label == label)
                .unwrap();
            let whole = self.armies[me].remove(index);
            let parts = [(format!("{label}a"), a), (format!("{label}b"), b)];
            for (offset, (name, power)) in parts.into_iter().enumerate() {
                acted.push(name.clone());
                self.armies[me].insert(
                    index + offset,
                    Piece {
                        label: name,
                        power,
                        square: whole.square - power,
                        freeze: power,
                    },
                );
            }
        }
        for piece in self.armies[me].iter_mut() {
            if piece.freeze > 0 && !acted.contains(&piece.label) {
                piece.freeze -= 1;
            }
        }
        self.descent[me] = descent;
        self.side = foe;
        self.ply += 1;
        let key = self.key();
        let seen = self.history.iter().filter(|k| **k == key).count() + 1;
        self.history.push(key);
        if self.armies[me].iter().all(|p| p.square == 98) {
            self.winner = Some(Outcome::Win(Player::BOTH[me]));
        } else if self.descent[me] == 7 {
            self.winner = Some(Outcome::Draw);
        } else if seen >= 3 {
            // Rule 14: the larger square total wins, equal totals draw.
            let total = |side: usize| self.armies[side].iter().map(|p| p.square).sum::<u32>();
            self.winner = Some(match total(0).cmp(&total(1)) {
                std::cmp::Ordering::Greater => Outcome::Win(Player::P1),
                std::cmp::Ordering::Less => Outcome::Win(Player::P2),
                std::cmp::Ordering::Equal => Outcome::Draw,
            });
        }
    }

    fn position_string(&self) -> String {
        let armies: Vec<String> = (0..2)
            .map(|side| {
                self.armies[side]
                    .iter()
                    .map(|p| {
                        let mut t = p.label.clone();
                        if p.label.len() > 1 {
                            t += &format!("={}", p.power);
                        }
                        t += &format!("@{}", p.square);
                        if p.freeze > 0 {
                            t += &format!("+{}", p.freeze);
                        }
                        if p.label == "S" {
                            t += &format!("#{}", self.single_moves[side]);
                        }
                        t
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        format!(
            "{} {} {} {}/{} {}",
            ["L", "D"][self.side],
            armies[0],
            armies[1],
            self.descent[0],
            self.descent[1],
            self.ply
        )
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// The model of a position the engine read (the engine's reading is tested elsewhere):
/// rebuilt from the engine's own position string by the model's plain parser.
fn model_of(text: &str) -> Model {
    let fields: Vec<&str> = text.split(' ').collect();
    let mut model = Model::start();
    model.side = if fields[0] == "L" { 0 } else { 1 };
    for side in 0..2 {
        model.armies[side] = fields[1 + side]
            .split(',')
            .map(|token| {
                let (head, rest) = token.split_once('@').unwrap();
                let (label, power) = match head.split_once('=') {
                    Some((l, p)) => (l.to_string(), p.parse().unwrap()),
                    None => {
                        let power = "SDTQPXH".find(head).unwrap() as u32 + 1;
                        (head.to_string(), power)
                    }
                };
                let (rest, count) = rest.split_once('#').unwrap_or((rest, "0"));
                if label == "S" {
                    model.single_moves[side] = count.parse().unwrap();
                }
                let (square, freeze) = rest.split_once('+').unwrap_or((rest, "0"));
                Piece {
                    label,
                    power,
                    square: square.parse().unwrap(),
                    freeze: freeze.parse().unwrap(),
                }
            })
            .collect();
    }
    let (l, d) = fields[3].split_once('/').unwrap();
    model.descent = [l.parse().unwrap(), d.parse().unwrap()];
    model.ply = fields[4].parse().unwrap();
    model.history = vec![model.key()];
    assert_eq!(
        model.position_string(),
        text,
        "the model re-reads the string"
    );
    model
}

#[test]
fn the_engine_agrees_with_the_plain_model_over_random_games() {
    let mut compared = 0;
    let mut ended = [0; 3];
    for seed in 0..60u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut model = Model::start();
        let mut game = Lerontenin::start();
        for ply in 0..3_000 {
            let at = format!("seed {seed} ply {ply} {}", model.position_string());
            assert_eq!(game.position_string(), model.position_string(), "{at}");
            let moves = model.moves();
            assert_eq!(legal_move_strings(&game), moves, "{at}");
            assert_eq!(game.outcome(), model.winner, "{at}");
            compared += 1;
            if moves.is_empty() {
                ended[match model.winner {
                    Some(Outcome::Win(Player::P1)) => 0,
                    Some(Outcome::Win(Player::P2)) => 1,
                    _ => 2,
                }] += 1;
                break;
            }
            // Prefer advancing, so that games reach divisions and the end.
            let forward: Vec<&String> = moves.iter().filter(|m| !m.contains('/')).collect();
            let text = if !forward.is_empty() && rng.u8(..4) != 0 {
                forward[rng.usize(..forward.len())]
            } else {
                &moves[rng.usize(..moves.len())]
            };
            model.play(text);
            let mv = game.parse_move(text).expect("the model's move is legal");
            game.make_move(mv);
        }
    }
    assert!(compared > 10_000, "only {compared} positions compared");
    assert!(
        ended.iter().sum::<i32>() > 30,
        "too few games ended: {ended:?}"
    );
}

#[test]
fn perft_data_agrees_with_the_plain_model() {
    let mut checked = 0;
    for case in read_cases(Variant::Lerontenin) {
        let model = match &case.position {
            None => Model::start(),
            Some(text) => model_of(text),
        };
        for &(depth, expected) in case.counts.iter().filter(|c| c.1 <= 100_000) {
            assert_eq!(model.perft(depth), expected, "{}: {depth}", case.origin);
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} counts re-counted");
}
