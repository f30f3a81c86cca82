//! Lerontenin: a race of seven pieces of powers 1..7 along a 98-square track, with freezes,
//! send-back captures and division near the end.
//!
//! The only source of the rules is a short, garbled text; this module implements the agreed
//! reconstruction (docs/rules/lerontenin.md gives every interpretation and its reason). It
//! owns the state and the rules; the armies are in [`army`], the text forms in `text`.
//!
//! The repetition history lives in the state, so that [`Game::outcome`] is a pure function
//! of it; make pushes onto it and unmake pops. The undo record holds what a move changed
//! that the move does not say: the moved piece as it was, which pieces thawed, which
//! opponent pieces were sent back and their freezes before.

pub mod army;
mod text;

use std::sync::LazyLock;

use self::army::{Army, END, HEP, LABEL_IDS, Label, Piece};
use super::zobrist::fill_keys;
use super::{Game, Outcome, Player, Variant};

/// The descending-sequence counter that draws the game: H X P Q T D S in a row.
const DESCENT_COMPLETE: u8 = 7;
/// The occurrence of a state that draws the game.
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
}

/// Hash keys. A piece has too many possible identities (label, power, square) for one
/// table, so that part of its key is a strong mix of its packed data with a fixed random
/// salt. Its freeze, which changes for many pieces every turn, has a table per label so that
/// a thaw costs one look-up. The SINGLE counters, descent counters and side to move have
/// small tables.
struct Keys {
    piece_salt: [u64; 2],
    /// `freeze[side * LABEL_IDS + label id][f]`, zero for `f = 0`.
    freeze: Vec<[u64; 8]>,
    single_moves: [[u64; 7]; 2],
    descent: [[u64; 8]; 2],
    p2_to_move: u64,
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut flat = vec![0u64; 2 + 2 * LABEL_IDS * 7 + 2 * 7 + 2 * 8 + 1];
    fill_keys(0x4c65_726f_6e74, &mut flat);
    let mut drawn = flat.into_iter();
    let mut next = || drawn.next().expect("enough keys were drawn");
    Keys {
        piece_salt: [next(), next()],
        freeze: (0..2 * LABEL_IDS)
            .map(|_| {
                let mut row = [0; 8];
                row[1..].fill_with(&mut next);
                row
            })
            .collect(),
        single_moves: [[(); 7].map(|_| next()), [(); 7].map(|_| next())],
        descent: [[(); 8].map(|_| next()), [(); 8].map(|_| next())],
        p2_to_move: next(),
    }
});

/// The freeze key of a piece of `side`.
#[inline]
fn freeze_key(keys: &Keys, side: usize, label: Label, freeze: u8) -> u64 {
    keys.freeze[side * LABEL_IDS + label.id()][freeze as usize]
}

/// The key of one piece of `side`: its whole identity and state.
#[inline]
fn piece_key(side: usize, piece: &Piece) -> u64 {
    let keys = &*KEYS;
    let packed = piece.label.origin as u64
        | (piece.label.depth as u64) << 8
        | (piece.label.path as u64) << 16
        | (piece.power as u64) << 24
        | (piece.square as u64) << 32;
    mix(packed ^ keys.piece_salt[side]) ^ freeze_key(keys, side, piece.label, piece.freeze)
}

/// A 64-bit finaliser (from MurmurHash3): every input bit affects every output bit.
#[inline]
const fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
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

    /// Sets a piece of `side`, keeping the hash in step.
    #[inline]
    fn set_piece(&mut self, side: usize, index: usize, piece: Piece) {
        let old = &mut self.armies[side].pieces_mut()[index];
        self.hash ^= piece_key(side, old) ^ piece_key(side, &piece);
        *old = piece;
    }

    /// Rule 7: every opponent piece on `square` goes back by its power (the SINGLE by
    /// `P(c)`), to no less than 0, and is frozen for at least that many turns. Records in
    /// `undo` who was sent back and how frozen they were.
    fn send_back(&mut self, opponent: usize, square: u8, undo: &mut LeronteninUndo) {
        let single_power = self.armies[opponent].single_power();
        for index in 0..self.armies[opponent].pieces().len() {
            let piece = self.armies[opponent].pieces()[index];
            if piece.square == square {
                undo.sent_back |= 1 << index;
                undo.sent_back_freezes |= (piece.freeze as u128) << (3 * index);
                let distance = if piece.label.is_single() {
                    single_power
                } else {
                    piece.power
                };
                let thrown = Piece {
                    square: square.saturating_sub(distance),
                    freeze: piece.freeze.max(distance),
                    ..piece
                };
                self.set_piece(opponent, index, thrown);
            }
        }
    }

    /// Rule 6, at the end of a turn: every piece of `side` but those that just acted
    /// (`acted`, a range of indices) thaws by one turn. Returns the set of thawed indices.
    fn thaw(&mut self, side: usize, acted: std::ops::Range<usize>) -> u32 {
        let keys = &*KEYS;
        let mut thawed = 0;
        for (index, piece) in self.armies[side].pieces_mut().iter_mut().enumerate() {
            if piece.freeze > 0 && !acted.contains(&index) {
                thawed |= 1 << index;
                let row = &keys.freeze[side * LABEL_IDS + piece.label.id()];
                self.hash ^= row[piece.freeze as usize] ^ row[piece.freeze as usize - 1];
                piece.freeze -= 1;
            }
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
        for (index, piece) in army.pieces().iter().enumerate() {
            if piece.finished() || piece.freeze > 0 {
                continue;
            }
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
        Lerontenin { core, history }
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

    /// Whether the current state occurs for the third time in the history.
    fn third_occurrence(&self) -> bool {
        // Only states with the same side to move can match: every second one.
        self.history
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == self.core.hash)
            .nth(REPETITION_LIMIT - 1)
            .is_some()
    }
}

impl Game for Lerontenin {
    type Move = LeronteninMove;
    type Undo = LeronteninUndo;

    const VARIANT: Variant = Variant::Lerontenin;

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
        // The same cases as `for_each_action`, counted without branches on the pieces.
        let mut count = 0u32;
        for piece in army.pieces() {
            let free = (!piece.finished() && piece.freeze == 0) as u32;
            let forward = (piece.square + piece.power <= END) as u32;
            let actions = if piece.label.is_single() {
                let power = army.single_power();
                1 + (power != 1 && piece.square + power <= END) as u32
            } else {
                forward + (1 - forward) * (piece.power / 2) as u32
            };
            count += free * actions;
        }
        count.max(1) as u64 // a pass when nothing else is legal
    }

    fn make_move(&mut self, mv: LeronteninMove) -> LeronteninUndo {
        let core = &mut self.core;
        let us = core.side.index();
        let them = core.side.opponent().index();
        let mut undo = LeronteninUndo {
            acted: core.armies[us].pieces()[0],
            thawed: 0,
            sent_back: 0,
            sent_back_freezes: 0,
            descent: core.descent[us],
            result: core.result,
            hash: core.hash,
        };
        let mut descent = 0;
        let acted = match mv {
            LeronteninMove::Forward { piece, steps } => {
                let index = piece as usize;
                let moving = core.armies[us].pieces()[index];
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
                index..index + 1
            }
            LeronteninMove::Divide { piece, smaller } => {
                let index = piece as usize;
                let whole = core.armies[us].pieces()[index];
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
                index..index + 2
            }
            LeronteninMove::Pass => 0..0,
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
        self.core.result = if finished && self.core.armies[us].all_finished() {
            Some(Outcome::Win(Player::BOTH[us]))
        } else if self.core.descent[us] == DESCENT_COMPLETE || self.third_occurrence() {
            Some(Outcome::Draw)
        } else {
            None
        };
        undo
    }

    fn unmake_move(&mut self, mv: LeronteninMove, undo: LeronteninUndo) {
        self.history.pop();
        let core = &mut self.core;
        core.side = core.side.opponent();
        core.ply = core.ply.wrapping_sub(1);
        let us = core.side.index();
        let them = core.side.opponent().index();
        let own = core.armies[us].pieces_mut();
        for index in (0..own.len()).filter(|i| undo.thawed >> i & 1 != 0) {
            own[index].freeze += 1;
        }
        match mv {
            LeronteninMove::Forward { piece, steps } => {
                let destination = undo.acted.square + steps;
                own[piece as usize] = undo.acted;
                if undo.acted.label.is_single() {
                    core.armies[us].single_moves -= 1;
                }
                let opponents = core.armies[them].pieces_mut();
                for index in (0..opponents.len()).filter(|i| undo.sent_back >> i & 1 != 0) {
                    opponents[index].square = destination;
                    opponents[index].freeze = (undo.sent_back_freezes >> (3 * index)) as u8 & 7;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mix_spreads_single_bit_changes() {
        for bit in 0..48 {
            let changed = (mix(0) ^ mix(1 << bit)).count_ones();
            assert!((16..=48).contains(&changed), "bit {bit}: {changed}");
        }
    }
}
