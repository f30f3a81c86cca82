//! Egara-guti: an Alquerque-family war game on the 23-point board of two triangles.
//!
//! This module owns the game state and its rules: steps, compulsory capture chains (a whole
//! chain is one move), the end by capture of all men or by having no move, and the decidable
//! "no more captures" end after 40 quiet plies or a threefold repetition. Beside it: the
//! board tables in [`board`], the text forms in `text`, the pictures in `diagram` and
//! `svg`, the evaluation in `eval` with its `weights` and its network's `inputs`, the search
//! hints in `hints`, the strength levels in `levels`, and the exact tables in [`tablebase`],
//! which the search asks as an oracle.
//!
//! The men of each side are a `u32` bit set over the 23 points. The repetition history lives
//! in the state (the hash of every position since the one the game started from), so
//! [`Rules::outcome`] is a pure function of the state and make/unmake keep it exact.

pub mod board;
mod diagram;
mod eval;
mod hints;
mod inputs;
mod levels;
mod line_space;
mod svg;
pub mod tablebase;
mod text;
mod weights;

use std::sync::LazyLock;

use self::board::{ALL_POINTS, JUMPABLE, LEAP_TO, NEIGHBOURS, POINTS};
use self::line_space::{ON_LINES, to_lines, to_points};
use crate::core::zobrist::fill_keys;
use crate::core::{BitSet, Outcome, Player};
use crate::rules::Rules;

/// Plies without a capture after which the game ends and the men are counted.
pub const QUIET_PLY_LIMIT: u32 = 40;
/// The occurrence of a position (men and side to move) that ends the game.
const REPETITION_LIMIT: usize = 3;
/// Men per side at the start, and at most.
pub const MEN_PER_SIDE: u32 = 11;

/// A move: a step, or a whole capture chain.
///
/// The path packs the start point and up to 11 landing points, 5 bits each, with the number
/// of landings in the top 4 bits. The captured men are kept beside it so that make and
/// unmake need no table look-up; they follow from the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EgaraMove {
    path: u64,
    captured: u32,
}

impl EgaraMove {
    const POINT_BITS: u32 = 5;
    const LENGTH_SHIFT: u32 = 60;
    const POINT_MASK: u64 = (1 << Self::POINT_BITS) - 1;

    /// A move of the man on `from` that has not gone anywhere yet.
    fn starting_at(from: usize) -> Self {
        EgaraMove {
            path: from as u64,
            captured: 0,
        }
    }

    /// This move extended by a step or leap to `to`, capturing `over` if it is a point.
    #[inline]
    fn then(self, to: usize, over: Option<usize>) -> Self {
        let landings = self.landings();
        let shift = Self::POINT_BITS * (landings as u32 + 1);
        let path = (self.path & !(0xf << Self::LENGTH_SHIFT))
            | ((to as u64) << shift)
            | (((landings + 1) as u64) << Self::LENGTH_SHIFT);
        EgaraMove {
            path,
            captured: self.captured | over.map_or(0, |p| 1 << p),
        }
    }

    /// Number of points after the start: 1 for a step or single capture.
    #[inline]
    pub fn landings(self) -> usize {
        (self.path >> Self::LENGTH_SHIFT) as usize
    }

    /// The `i`-th point of the path; 0 is the start.
    #[inline]
    pub fn point(self, i: usize) -> usize {
        ((self.path >> (Self::POINT_BITS * i as u32)) & Self::POINT_MASK) as usize
    }

    /// The start point, then every landing point.
    pub fn points(self) -> impl Iterator<Item = usize> {
        (0..=self.landings()).map(move |i| self.point(i))
    }

    /// Where the man starts.
    #[inline]
    pub fn from(self) -> usize {
        self.point(0)
    }

    /// Where the man ends.
    #[inline]
    pub fn to(self) -> usize {
        self.point(self.landings())
    }

    /// The captured men as a bit set over the points.
    #[inline]
    pub fn captured(self) -> u32 {
        self.captured
    }
}

/// What `make_move` changed that the move itself does not say.
#[derive(Clone, Copy, Debug)]
pub struct EgaraUndo {
    quiet_plies: u32,
    fullmove: u32,
    limit_reached: bool,
    hash: u64,
}

/// An Egara-guti position with the history its end rules need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EgaraGuti {
    /// The men of each player as bit sets over the points, indexed by [`Player::index`].
    men: [u32; 2],
    side: Player,
    /// Plies since the last capture (or since the position given, plus its counter).
    quiet_plies: u32,
    /// Starts at 1 and grows after each move of the second player (Black).
    fullmove: u32,
    /// The hash of every position since the one the game started from, the current last.
    history: Vec<u64>,
    /// Whether the 40-ply rule or the threefold repetition has ended the game.
    limit_reached: bool,
    hash: u64,
}

/// Zobrist keys: a man of each player on each point, and Black to move.
struct Keys {
    man: [[u64; POINTS]; 2],
    p2_to_move: u64,
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut flat = [0u64; 2 * POINTS + 1];
    fill_keys(0x4567_6172_6167_7574, &mut flat);
    let mut keys = Keys {
        man: [[0; POINTS]; 2],
        p2_to_move: flat[2 * POINTS],
    };
    keys.man[0].copy_from_slice(&flat[..POINTS]);
    keys.man[1].copy_from_slice(&flat[POINTS..2 * POINTS]);
    keys
});

#[inline]
const fn bit(point: usize) -> u32 {
    1 << point
}

impl EgaraGuti {
    /// A position with the given men and counters, its history starting there.
    pub(crate) fn from_parts(men: [u32; 2], side: Player, quiet_plies: u32, fullmove: u32) -> Self {
        let mut game = EgaraGuti {
            men,
            side,
            quiet_plies,
            fullmove,
            history: Vec::with_capacity(256),
            limit_reached: false,
            hash: 0,
        };
        game.hash = game.hash_from_scratch();
        game.history.push(game.hash);
        game.limit_reached = game.quiet_plies >= QUIET_PLY_LIMIT;
        game
    }

    /// The men of `player` as a bit set over the points.
    pub fn men(&self, player: Player) -> u32 {
        self.men[player.index()]
    }

    /// Plies since the last capture.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// The fullmove number.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    #[inline]
    fn empty_points(&self) -> u32 {
        ALL_POINTS & !(self.men[0] | self.men[1])
    }

    /// Whether the current position occurs for the third time since the last capture.
    /// Positions before the last capture had more men, so they cannot match.
    fn third_occurrence(&self) -> bool {
        // A position recurs at the earliest 4 plies later (each side moves away and back),
        // so a third occurrence needs at least 8 quiet plies.
        if self.quiet_plies < 8 {
            return false;
        }
        let window = (self.quiet_plies as usize + 1).min(self.history.len());
        let recent = &self.history[self.history.len() - window..];
        // Only positions with the same side to move can match: every second one.
        recent
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == self.hash)
            .count()
            >= REPETITION_LIMIT
    }

    /// Calls `sink` with every complete capture chain of the side to move.
    #[inline]
    fn for_each_capture<F: FnMut(EgaraMove)>(&self, sink: F) {
        for_each_capture_chain(
            self.men[self.side.index()],
            self.men[self.side.opponent().index()],
            sink,
        );
    }

    /// Whether the side to move can step or capture.
    fn has_move(&self) -> bool {
        let own = self.men[self.side.index()];
        let enemy = self.men[self.side.opponent().index()];
        let empty = self.empty_points();
        own.squares().any(|from| {
            NEIGHBOURS[from] & empty != 0
                || (JUMPABLE[from] & enemy)
                    .squares()
                    .any(|over| empty & bit(LEAP_TO[from][over] as usize) != 0)
        })
    }

    /// The end by counting men, once the 40-ply rule or the repetition applies.
    fn result_by_count(&self) -> Outcome {
        let (p1, p2) = (self.men[0].count_ones(), self.men[1].count_ones());
        match p1.cmp(&p2) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::P1),
            std::cmp::Ordering::Less => Outcome::Win(Player::P2),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// Whether no move can be generated: a side without men, or the count rules.
    #[inline]
    fn no_moves_by_rule(&self) -> bool {
        self.men[0] == 0 || self.men[1] == 0 || self.limit_reached
    }
}

/// Calls `sink` with every complete capture chain of the men `own` against the men `enemy`:
/// the rules' capture generator, shared by the game and its exact tables.
#[inline]
pub(crate) fn for_each_capture_chain<F: FnMut(EgaraMove)>(own: u32, enemy: u32, mut sink: F) {
    let empty = ALL_POINTS & !(own | enemy);
    for from in first_leapers(own, enemy).squares() {
        extend_chain(from, enemy, empty, EgaraMove::starting_at(from), &mut sink);
    }
}

/// Whether the men `own` can capture a man of `enemy` now (a first leap is enough).
#[inline]
pub(crate) fn can_capture(own: u32, enemy: u32) -> bool {
    first_leapers(own, enemy) != 0
}

/// The men of `own` that can leap over a man of `enemy` now: in line space (see
/// [`line_space`]) a man, the enemy beside him and the empty point beyond, either way along
/// a line. Most positions have none, and then no chain is followed at all.
#[inline]
fn first_leapers(own: u32, enemy: u32) -> u32 {
    let (own, enemy) = (to_lines(own), to_lines(enemy));
    let empty = ON_LINES & !(own | enemy);
    let upwards = own & (enemy >> 1) & (empty >> 2);
    let downwards = own & (enemy << 1) & (empty << 2);
    to_points(upwards | downwards)
}

/// Follows every continuation of a capture chain whose man stands on `at`; a chain that can
/// go no further is complete and goes to `sink`. `empty` excludes `at`. Captured men leave at
/// once, so their points may be landed on later in the same chain, and no man can be jumped
/// twice.
#[inline]
fn extend_chain<F: FnMut(EgaraMove)>(
    at: usize,
    enemy: u32,
    empty: u32,
    chain: EgaraMove,
    sink: &mut F,
) {
    let mut extended = false;
    for over in (JUMPABLE[at] & enemy).squares() {
        let to = LEAP_TO[at][over] as usize;
        if empty & bit(to) != 0 {
            extended = true;
            let next_empty = (empty | bit(at) | bit(over)) & !bit(to);
            extend_chain(
                to,
                enemy & !bit(over),
                next_empty,
                chain.then(to, Some(over)),
                sink,
            );
        }
    }
    if !extended && chain.landings() > 0 {
        sink(chain);
    }
}

impl Rules for EgaraGuti {
    type Move = EgaraMove;
    type Undo = EgaraUndo;
    /// Its evaluation keeps nothing from one move to the next.
    type Changes = ();

    fn start() -> Self {
        // White on the bottom triangle (points 0..11), Black on the top one (12..23).
        EgaraGuti::from_parts([0x7ff, 0x7ff << 12], Player::P1, 0, 1)
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.side
    }

    fn generate_moves(&self, out: &mut Vec<EgaraMove>) {
        if self.no_moves_by_rule() {
            return;
        }
        let before = out.len();
        self.for_each_capture(|chain| out.push(chain));
        if out.len() > before {
            return; // capture is compulsory
        }
        let empty = self.empty_points();
        for from in self.men[self.side.index()].squares() {
            for to in (NEIGHBOURS[from] & empty).squares() {
                out.push(EgaraMove::starting_at(from).then(to, None));
            }
        }
    }

    fn count_moves(&self) -> u64 {
        if self.no_moves_by_rule() {
            return 0;
        }
        let mut captures = 0;
        self.for_each_capture(|_| captures += 1);
        if captures > 0 {
            return captures;
        }
        let empty = self.empty_points();
        self.men[self.side.index()]
            .squares()
            .map(|from| (NEIGHBOURS[from] & empty).count_ones() as u64)
            .sum()
    }

    fn make_move(&mut self, mv: EgaraMove) -> EgaraUndo {
        let undo = EgaraUndo {
            quiet_plies: self.quiet_plies,
            fullmove: self.fullmove,
            limit_reached: self.limit_reached,
            hash: self.hash,
        };
        let us = self.side;
        let them = us.opponent();
        let (from, to) = (mv.from(), mv.to());
        let keys = &*KEYS;
        // A chain may end where it started: the two bits and the two keys then cancel.
        self.men[us.index()] ^= bit(from) ^ bit(to);
        self.hash ^= keys.man[us.index()][from] ^ keys.man[us.index()][to];
        if mv.captured != 0 {
            self.men[them.index()] &= !mv.captured;
            for point in mv.captured.squares() {
                self.hash ^= keys.man[them.index()][point];
            }
            self.quiet_plies = 0;
        } else {
            self.quiet_plies += 1;
        }
        if us == Player::P2 {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.hash ^= keys.p2_to_move;
        self.history.push(self.hash);
        self.limit_reached = self.quiet_plies >= QUIET_PLY_LIMIT || self.third_occurrence();
        undo
    }

    fn changes(&self, _: EgaraMove, _: &EgaraUndo) {}

    fn unmake_move(&mut self, mv: EgaraMove, undo: EgaraUndo) {
        let them = self.side;
        let us = them.opponent();
        self.side = us;
        self.men[us.index()] ^= bit(mv.from()) ^ bit(mv.to());
        self.men[them.index()] |= mv.captured;
        self.history.pop();
        self.quiet_plies = undo.quiet_plies;
        self.fullmove = undo.fullmove;
        self.limit_reached = undo.limit_reached;
        self.hash = undo.hash;
    }

    fn outcome(&self) -> Option<Outcome> {
        let us = self.side;
        let them = us.opponent();
        // Rule 7 first: all men captured, or no move on one's turn.
        if self.men[us.index()] == 0 {
            return Some(Outcome::Win(them));
        }
        if self.men[them.index()] == 0 {
            return Some(Outcome::Win(us));
        }
        if !self.has_move() {
            return Some(Outcome::Win(them));
        }
        self.limit_reached.then(|| self.result_by_count())
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    /// Threefold repetition ends the game by counting men, as the 40-ply rule does.
    fn repetition_outcome(&self) -> Outcome {
        self.result_by_count()
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for player in Player::BOTH {
            for point in self.men[player.index()].squares() {
                hash ^= KEYS.man[player.index()][point];
            }
        }
        if self.side == Player::P2 {
            hash ^= KEYS.p2_to_move;
        }
        hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_packs_a_full_chain_of_eleven_leaps() {
        let mut chain = EgaraMove::starting_at(22);
        for i in 0..11 {
            chain = chain.then(i, Some(i + 1));
        }
        assert_eq!(chain.landings(), 11);
        assert_eq!(chain.from(), 22);
        assert_eq!(chain.to(), 10);
        assert_eq!(
            chain.points().collect::<Vec<_>>()[1..],
            (0..11).collect::<Vec<_>>()
        );
        assert_eq!(chain.captured().count_ones(), 11);
    }
}
