//! Lerontenin: a race of seven pieces of powers 1..7 along a 98-square track, with freezes,
//! send-back captures and division near the end.
//!
//! The only source of the rules is a short, garbled text; this module implements the agreed
//! reconstruction (docs/rules/lerontenin.md gives every interpretation and its reason). It
//! owns the state and the rules; the armies are in [`army`], the text forms in `text`, the
//! pictures in `diagram` and `svg`, the evaluation in `eval` (with `race` and `weights`; a
//! network's inputs in `inputs`) and the search hints in `hints`.
//!
//! The repetition history lives in the state, so that [`Rules::outcome`] is a pure function
//! of it; make pushes onto it and unmake pops. The undo record holds what a move changed
//! that the move does not say: the moved piece as it was, which pieces thawed, which
//! opponent pieces were sent back and their freezes before.

pub mod army;
mod diagram;
mod eval;
mod hints;
mod inputs;
mod levels;
mod race;
mod svg;
mod text;
mod weights;

use std::sync::LazyLock;

use self::army::{Army, END, HEP, LABEL_IDS, Label, Piece};
use crate::core::zobrist::fill_keys;
use crate::core::{BitSet, Outcome, Player};
use crate::rules::Rules;

/// The descending-sequence counter that draws the game: H X P Q T D S in a row.
const DESCENT_COMPLETE: u8 = 7;
/// The occurrence of a state that ends the game, decided by the square totals.
const REPETITION_LIMIT: usize = 3;

/// A Lerontenin action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeronteninMove {
    /// The piece at `piece` (index in the mover's army) advances `steps` squares.
    Forward { piece: u8, steps: u8 },
    /// The piece at `piece` splits into parts of powers `smaller` and `power - smaller`.
    Divide { piece: u8, smaller: u8 },
    /// Nothing else is legal.
    Pass,
}

/// What `make_move` changed that the move itself does not say.
#[derive(Clone, Copy, Debug)]
pub struct LeronteninUndo {
    /// The piece that moved or divided, as it was.
    acted: Piece,
    /// The mover's pieces (indices after the move) that thawed by one turn.
    thawed: u32,
    /// The opponent's pieces that were sent back.
    sent_back: u32,
    /// Their freezes before, 3 bits per piece index.
    sent_back_freezes: u128,
    descent: u8,
    result: Option<Outcome>,
    hash: u64,
    /// The mover's `repeatable_from` before the move.
    repeatable_from: u32,
}

/// Everything the rules depend on except the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Core {
    armies: [Army; 2],
    /// The rule-13 counters, indexed by [`Player::index`].
    descent: [u8; 2],
    side: Player,
    /// Plies played (it is not part of the hash: it does not change what may happen).
    ply: u32,
    result: Option<Outcome>,
    hash: u64,
}

/// A Lerontenin game state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lerontenin {
    core: Core,
    /// The hash of every state since the one the game started from, the current one last.
    history: Vec<u64>,
    /// The index in `history` of the first state that can occur again: the one after the
    /// last irreversible move (a division, or a piece reaching 98: pieces never merge and
    /// never leave 98), so the repetition scan need not look further back.
    repeatable_from: u32,
}

/// Zobrist keys. Every label (an original or a fragment's place in its division tree) has
/// its own keys for each square, power and freeze, so that distinct pieces never share a key
/// and every change of a piece costs a few look-ups. Only the labels in play are ever
/// touched, so the large table costs little cache. The SINGLE counters (mod 7), descent
/// counters and side to move have small tables.
struct Keys {
    /// Indexed by `side * LABEL_IDS + label id`.
    piece: Vec<PieceKeys>,
    single_moves: [[u64; 7]; 2],
    descent: [[u64; 8]; 2],
    p2_to_move: u64,
}

/// The keys of one label of one side.
struct PieceKeys {
    square: [u64; END as usize + 1],
    power: [u64; 8],
    /// Zero for an unfrozen piece.
    freeze: [u64; 8],
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    const PER_LABEL: usize = END as usize + 1 + 8 + 7;
    let mut flat = vec![0u64; 2 * LABEL_IDS * PER_LABEL + 2 * 7 + 2 * 8 + 1];
    fill_keys(0x4c65_726f_6e74, &mut flat);
    let mut drawn = flat.into_iter();
    let mut next = || drawn.next().expect("enough keys were drawn");
    let piece = (0..2 * LABEL_IDS)
        .map(|_| {
            let mut keys = PieceKeys {
                square: [0; END as usize + 1],
                power: [0; 8],
                freeze: [0; 8],
            };
            keys.square.fill_with(&mut next);
            keys.power.fill_with(&mut next);
            keys.freeze[1..].fill_with(&mut next);
            keys
        })
        .collect();
    Keys {
        piece,
        single_moves: [[(); 7].map(|_| next()), [(); 7].map(|_| next())],
        descent: [[(); 8].map(|_| next()), [(); 8].map(|_| next())],
        p2_to_move: next(),
    }
});

/// The keys of `label` on `side`.
#[inline]
fn keys_of(keys: &Keys, side: usize, label: Label) -> &PieceKeys {
    &keys.piece[side * LABEL_IDS + label.id()]
}

/// The key of one piece of `side`: its identity, power, square and freeze.
#[inline]
fn piece_key(side: usize, piece: &Piece) -> u64 {
    let keys = keys_of(&KEYS, side, piece.label);
    keys.square[piece.square as usize]
        ^ keys.power[piece.power as usize]
        ^ keys.freeze[piece.freeze as usize]
}

impl Core {
    /// The hash of this state, from nothing but the state.
    fn compute_hash(&self) -> u64 {
        let keys = &*KEYS;
        let mut hash = 0;
        for (side, army) in self.armies.iter().enumerate() {
            for piece in army.pieces() {
                hash ^= piece_key(side, piece);
            }
            hash ^= keys.single_moves[side][(army.single_moves % 7) as usize];
            hash ^= keys.descent[side][self.descent[side] as usize];
        }
        if self.side == Player::P2 {
            hash ^= keys.p2_to_move;
        }
        hash
    }

    /// Moves a piece of `side` to another square and freeze (its label and power stay),
    /// keeping the hash in step.
    #[inline]
    fn set_piece(&mut self, side: usize, index: usize, piece: Piece) {
        let army = &mut self.armies[side];
        let old = army.piece(index);
        debug_assert!(old.label == piece.label && old.power == piece.power);
        let keys = keys_of(&KEYS, side, piece.label);
        self.hash ^= keys.square[old.square as usize]
            ^ keys.square[piece.square as usize]
            ^ keys.freeze[old.freeze as usize]
            ^ keys.freeze[piece.freeze as usize];
        army.set(index, piece);
    }

    /// Rule 7: every opponent piece on `square` goes back by its power (the SINGLE by
    /// `P(c)`), to no less than 0, and is frozen for at least that many turns. Records in
    /// `undo` who was sent back and how frozen they were.
    #[inline]
    fn send_back(&mut self, opponent: usize, square: u8, undo: &mut LeronteninUndo) {
        if self.armies[opponent].count_on(square) == 0 {
            return;
        }
        for index in 0..self.armies[opponent].pieces().len() {
            let army = &self.armies[opponent];
            let piece = army.piece(index);
            if piece.square == square {
                undo.sent_back |= 1 << index;
                undo.sent_back_freezes |= (piece.freeze as u128) << (3 * index);
                let distance = army.send_back_distance(&piece);
                let thrown = Piece {
                    square: square.saturating_sub(distance),
                    freeze: piece.freeze.max(distance),
                    ..piece
                };
                self.set_piece(opponent, index, thrown);
            }
        }
    }

    /// Rule 6, at the end of a turn: every piece of `side` but those that just acted (the
    /// set `acted`) thaws by one turn. Returns the set of thawed pieces.
    #[inline]
    fn thaw(&mut self, side: usize, acted: u32) -> u32 {
        let keys = &*KEYS;
        let army = &mut self.armies[side];
        let thawed = army.thaw(acted);
        for index in thawed.squares() {
            let piece = army.piece(index);
            let row = &keys_of(keys, side, piece.label).freeze;
            self.hash ^= row[piece.freeze as usize] ^ row[piece.freeze as usize + 1];
        }
        thawed
    }

    /// Adds `delta` to the SINGLE counter of `side`, keeping the hash in step.
    #[inline]
    fn count_single_move(&mut self, side: usize, delta: i32) {
        let keys = &KEYS.single_moves[side];
        let army = &mut self.armies[side];
        self.hash ^= keys[(army.single_moves % 7) as usize];
        army.single_moves = army.single_moves.wrapping_add_signed(delta);
        self.hash ^= keys[(army.single_moves % 7) as usize];
    }

    /// Sets the rule-13 counter of `side`, keeping the hash in step.
    #[inline]
    fn set_descent(&mut self, side: usize, value: u8) {
        let keys = &KEYS.descent[side];
        self.hash ^= keys[self.descent[side] as usize] ^ keys[value as usize];
        self.descent[side] = value;
    }

    /// Calls `sink` with every forward move and division of the side to move.
    #[inline]
    fn for_each_action<F: FnMut(LeronteninMove)>(&self, mut sink: F) {
        let army = &self.armies[self.side.index()];
        for index in army.free().squares() {
            let piece = army.piece(index);
            let index = index as u8;
            if piece.label.is_single() {
                // 1, or P(c) when that is another step; a SINGLE is never stuck.
                sink(LeronteninMove::Forward {
                    piece: index,
                    steps: 1,
                });
                let power = army.single_power();
                if power != 1 && piece.square + power <= END {
                    sink(LeronteninMove::Forward {
                        piece: index,
                        steps: power,
                    });
                }
            } else if piece.square + piece.power <= END {
                sink(LeronteninMove::Forward {
                    piece: index,
                    steps: piece.power,
                });
            } else {
                // Stuck short of the end: every split a + b with a <= b.
                for smaller in 1..=piece.power / 2 {
                    sink(LeronteninMove::Divide {
                        piece: index,
                        smaller,
                    });
                }
            }
        }
    }

    /// Calls `sink` with every forward move of the side to move that sends an enemy piece
    /// back (lands on one, short of the end), in the order of `for_each_action`.
    #[inline]
    fn for_each_send_back<F: FnMut(LeronteninMove)>(&self, mut sink: F) {
        let army = &self.armies[self.side.index()];
        let enemies = &self.armies[self.side.opponent().index()];
        for index in army.free().squares() {
            let piece = army.piece(index);
            let mut send_back = |steps: u8| {
                let target = piece.square + steps;
                if target < END && enemies.count_on(target) > 0 {
                    sink(LeronteninMove::Forward {
                        piece: index as u8,
                        steps,
                    });
                }
            };
            if piece.label.is_single() {
                // 1, or P(c) when that is another step, as `for_each_action` has them.
                send_back(1);
                let power = army.single_power();
                if power != 1 {
                    send_back(power);
                }
            } else {
                send_back(piece.power);
            }
        }
    }

    /// The result that the rules give to a state read from a string.
    fn result_of_given_state(&self) -> Option<Outcome> {
        if let Some(winner) = Player::BOTH
            .into_iter()
            .find(|p| self.armies[p.index()].all_finished())
        {
            return Some(Outcome::Win(winner));
        }
        self.descent
            .contains(&DESCENT_COMPLETE)
            .then_some(Outcome::Draw)
    }
}

impl Lerontenin {
    fn from_core(core: Core) -> Self {
        let mut history = Vec::with_capacity(256);
        history.push(core.hash);
        Lerontenin {
            core,
            history,
            repeatable_from: 0,
        }
    }

    /// The army of `player`.
    pub fn army(&self, player: Player) -> &Army {
        &self.core.armies[player.index()]
    }

    /// The sum of the squares of all of `player`'s pieces, fragments included: what a match
    /// referee compares when a flag falls (rule 15).
    pub fn square_total(&self, player: Player) -> u32 {
        self.army(player).square_total()
    }

    /// The rule-13 counter of `player`.
    pub fn descent(&self, player: Player) -> u8 {
        self.core.descent[player.index()]
    }

    /// Plies played.
    pub fn ply(&self) -> u32 {
        self.core.ply
    }

    /// Rule 14 (and rule 15 once a piece is home): the larger square total wins, equal
    /// totals draw.
    fn by_square_totals(&self) -> Outcome {
        match self
            .square_total(Player::P1)
            .cmp(&self.square_total(Player::P2))
        {
            std::cmp::Ordering::Greater => Outcome::Win(Player::P1),
            std::cmp::Ordering::Less => Outcome::Win(Player::P2),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// Whether the current state occurs for the third time in the history.
    fn third_occurrence(&self) -> bool {
        self.occurs_at_least(REPETITION_LIMIT)
    }

    /// Whether the current state occurs at least `times` times in the history.
    fn occurs_at_least(&self, times: usize) -> bool {
        // Only states with the same side to move can match: every second one; none from
        // before the last irreversible move.
        self.history[self.repeatable_from as usize..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == self.core.hash)
            .nth(times - 1)
            .is_some()
    }
}

impl Rules for Lerontenin {
    type Move = LeronteninMove;
    type Undo = LeronteninUndo;
    /// Its evaluation keeps nothing from one move to the next.
    type Changes = ();

    fn start() -> Self {
        let mut core = Core {
            armies: [Army::start(), Army::start()],
            descent: [0, 0],
            side: Player::P1,
            ply: 0,
            result: None,
            hash: 0,
        };
        core.hash = core.compute_hash();
        Lerontenin::from_core(core)
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.core.side
    }

    fn generate_moves(&self, out: &mut Vec<LeronteninMove>) {
        if self.core.result.is_some() {
            return;
        }
        let before = out.len();
        self.core.for_each_action(|mv| out.push(mv));
        if out.len() == before {
            out.push(LeronteninMove::Pass);
        }
    }

    fn count_moves(&self) -> u64 {
        if self.core.result.is_some() {
            return 0;
        }
        let army = &self.core.armies[self.core.side.index()];
        // The same cases as `for_each_action`, counted.
        let mut count = 0u32;
        for index in army.free().squares() {
            let piece = army.piece(index);
            count += if piece.label.is_single() {
                let power = army.single_power();
                1 + (power != 1 && piece.square + power <= END) as u32
            } else if piece.square + piece.power <= END {
                1
            } else {
                (piece.power / 2) as u32
            };
        }
        count.max(1) as u64 // a pass when nothing else is legal
    }

    fn make_move(&mut self, mv: LeronteninMove) -> LeronteninUndo {
        let core = &mut self.core;
        let us = core.side.index();
        let them = core.side.opponent().index();
        let mut undo = LeronteninUndo {
            acted: core.armies[us].piece(0),
            thawed: 0,
            sent_back: 0,
            sent_back_freezes: 0,
            descent: core.descent[us],
            result: core.result,
            hash: core.hash,
            repeatable_from: self.repeatable_from,
        };
        let mut descent = 0;
        let acted = match mv {
            LeronteninMove::Forward { piece, steps } => {
                let index = piece as usize;
                let moving = core.armies[us].piece(index);
                undo.acted = moving;
                let destination = moving.square + steps;
                core.set_piece(
                    us,
                    index,
                    Piece {
                        square: destination,
                        freeze: steps,
                        ..moving
                    },
                );
                if moving.label.is_single() {
                    core.count_single_move(us, 1);
                }
                if (1..END).contains(&destination) {
                    core.send_back(them, destination, &mut undo);
                }
                if moving.label.is_original() {
                    // H starts the sequence; the next piece of H X P Q T D S extends it.
                    let counter = core.descent[us];
                    if moving.label.origin == HEP {
                        descent = 1;
                    } else if (1..DESCENT_COMPLETE).contains(&counter)
                        && moving.label.origin == HEP - counter
                    {
                        descent = counter + 1;
                    }
                }
                1u32 << index
            }
            LeronteninMove::Divide { piece, smaller } => {
                let index = piece as usize;
                let whole = core.armies[us].piece(index);
                undo.acted = whole;
                let part = |second: bool, power: u8| Piece {
                    label: whole.label.child(second),
                    power,
                    square: whole.square - power,
                    freeze: power,
                };
                let (a, b) = (part(false, smaller), part(true, whole.power - smaller));
                core.hash ^= piece_key(us, &whole) ^ piece_key(us, &a) ^ piece_key(us, &b);
                core.armies[us].divide(index, a, b);
                0b11u32 << index
            }
            LeronteninMove::Pass => 0,
        };
        undo.thawed = core.thaw(us, acted);
        core.set_descent(us, descent);
        core.side = core.side.opponent();
        core.hash ^= KEYS.p2_to_move;
        core.ply = core.ply.wrapping_add(1);

        self.history.push(self.core.hash);
        // Only a forward move onto the end square can finish the last piece.
        let finished = matches!(mv, LeronteninMove::Forward { steps, .. }
            if undo.acted.square + steps == END);
        if finished || matches!(mv, LeronteninMove::Divide { .. }) {
            self.repeatable_from = (self.history.len() - 1) as u32;
        }
        self.core.result = if finished && self.core.armies[us].all_finished() {
            Some(Outcome::Win(Player::BOTH[us]))
        } else if self.core.descent[us] == DESCENT_COMPLETE {
            Some(Outcome::Draw)
        } else if self.third_occurrence() {
            Some(self.by_square_totals())
        } else {
            None
        };
        undo
    }

    fn changes(&self, _: LeronteninMove, _: &LeronteninUndo) {}

    fn unmake_move(&mut self, mv: LeronteninMove, undo: LeronteninUndo) {
        self.history.pop();
        self.repeatable_from = undo.repeatable_from;
        let core = &mut self.core;
        core.side = core.side.opponent();
        core.ply = core.ply.wrapping_sub(1);
        let us = core.side.index();
        let them = core.side.opponent().index();
        core.armies[us].unthaw(undo.thawed);
        match mv {
            LeronteninMove::Forward { piece, steps } => {
                let destination = undo.acted.square + steps;
                core.armies[us].set(piece as usize, undo.acted);
                if undo.acted.label.is_single() {
                    core.armies[us].single_moves -= 1;
                }
                let opponents = &mut core.armies[them];
                for index in undo.sent_back.squares() {
                    let freeze = (undo.sent_back_freezes >> (3 * index)) as u8 & 7;
                    let piece = opponents.piece(index);
                    opponents.set(
                        index,
                        Piece {
                            square: destination,
                            freeze,
                            ..piece
                        },
                    );
                }
            }
            LeronteninMove::Divide { piece, .. } => {
                core.armies[us].merge(piece as usize, undo.acted);
            }
            LeronteninMove::Pass => {}
        }
        core.descent[us] = undo.descent;
        core.result = undo.result;
        core.hash = undo.hash;
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.core.result
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.core.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.core.compute_hash()
    }

    /// Rule 15: with no piece of either side on 98 the flagged side loses; otherwise the
    /// larger square total wins and equal totals draw.
    fn flag_fall(&self, flagged: Player) -> Outcome {
        let anyone_home = Player::BOTH.iter().any(|&p| {
            self.army(p)
                .pieces()
                .iter()
                .any(|piece| piece.square == END)
        });
        if !anyone_home {
            return Outcome::Win(flagged.opponent());
        }
        self.by_square_totals()
    }

    fn repeats_earlier_position(&self) -> bool {
        self.occurs_at_least(2)
    }

    /// Rule 14: a cycle ends the game by the square totals.
    fn repetition_outcome(&self) -> Outcome {
        self.by_square_totals()
    }
}
