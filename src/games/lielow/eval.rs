//! Lielow's static evaluation, as a weighted sum of features, and its notion of a tactical
//! move.
//!
//! Features, each as (side to move) minus (opponent) unless said otherwise:
//! - stacks by height (one feature per height 1..=n): a stack is a piece that can capture,
//!   and height is reach;
//! - mobility: the number of legal moves;
//! - king attackers: enemy stacks that could land on the king's square next move (the king
//!   is lost to such a capture);
//! - tempo: 1 for the side to move;
//! - no king: a side with no crowned stack (no unique tallest stack yet);
//! - king edge distance: how far the king stands from the nearest edge;
//! - threats, for each side apart: enemy stacks the side to move can capture now, and its
//!   own stacks the opponent could capture if it were its turn;
//! - squares: a stack on each square, with the board folded left to right and seen from
//!   each player's own side, so that both players' tables are the same. The corner a1 has
//!   no feature of its own: it is the square the others are measured from (with one feature
//!   for every square, the squares' sum would equal the heights' sum, and a fit could move
//!   weight from one to the other for ever).
//!
//! Crown prospects are left to the search: the crown follows the uniquely tallest stack, so
//! the height features already reward growing one. The weights are in `weights.rs`.
//!
//! The stacks' part (each stack's height and square weights, summed per player) is kept in
//! the evaluation's state, [`LielowState`]: the search keeps it up to date from what each
//! move changed, so a position is evaluated without looking up every stack again. The same
//! state holds the network's accumulator when the search evaluates with a network (its
//! inputs are in `inputs.rs`).
//!
//! The evaluation is never lazy: skipping the rest where the stacks' part stands far above
//! beta was measured to save at most about 2% of the time, the rest spreading too wide
//! (docs/experiments.md).

use std::sync::Arc;

use super::geometry::{Geometry, MAX_SIDE, MAX_SQUARES};
use super::inputs;
use super::weights::BoardWeights;
use super::{Lielow, LielowChanges, LielowMove, StackOn};
use crate::core::{BitSet, Player};
use crate::eval::network::{Accumulator, Network};
use crate::eval::{EvalState, Evaluate, Evaluator, FeatureSink, accumulator_for, network_or_terms};

/// Each player's sum of its stacks' weights (height and square), by [`Player::index`].
pub type StackValues = [i32; 2];

/// The evaluation's state: the stacks' sums of the terms, and the network's accumulator
/// (empty when the search evaluates with the terms).
#[derive(Debug, PartialEq, Eq)]
pub struct LielowState {
    stacks: StackValues,
    accumulator: Accumulator,
}

/// Cloned into a kept state, the copy reuses the accumulator's room (the search's null
/// move copies a state at every try).
impl Clone for LielowState {
    fn clone(&self) -> Self {
        LielowState {
            stacks: self.stacks,
            accumulator: self.accumulator.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.stacks = source.stacks;
        self.accumulator.clone_from(&source.accumulator);
    }
}

/// Where each group of features starts, for a board of side `n`.
#[derive(Clone, Copy)]
pub(super) struct Layout {
    n: usize,
}

impl Layout {
    pub(super) const fn of(n: usize) -> Self {
        Layout { n }
    }

    /// Stacks of height `h` (1..=n).
    pub(super) const fn height(&self, h: usize) -> usize {
        h - 1
    }
    const fn mobility(&self) -> usize {
        self.n
    }
    const fn king_attackers(&self) -> usize {
        self.n + 1
    }
    const fn tempo(&self) -> usize {
        self.n + 2
    }
    const fn no_king(&self) -> usize {
        self.n + 3
    }
    const fn king_edge(&self) -> usize {
        self.n + 4
    }
    const fn threats_made(&self) -> usize {
        self.n + 5
    }
    const fn threats_faced(&self) -> usize {
        self.n + 6
    }
    /// A stack on square class `class` (folded file, relative rank), from class 1 (class
    /// 0, the corner a1, is the reference and has no feature).
    pub(super) const fn square(&self, class: usize) -> usize {
        self.n + 6 + class
    }

    /// The number of square classes: half the files (rounded up) times the ranks.
    const fn square_classes(&self) -> usize {
        self.n.div_ceil(2) * self.n
    }

    pub(super) const fn count(&self) -> usize {
        self.square(self.square_classes())
    }

    /// The class of `square` as `player` sees it: the file folded onto the left half, the
    /// rank counted from the player's own side.
    #[inline]
    pub(super) const fn class(&self, square: usize, player: Player) -> usize {
        let n = self.n;
        let (file, rank) = (square % n, square / n);
        let file = if file < n - 1 - file {
            file
        } else {
            n - 1 - file
        };
        let rank = match player {
            Player::P1 => rank,
            Player::P2 => n - 1 - rank,
        };
        rank * n.div_ceil(2) + file
    }

    pub(super) fn name(&self, index: usize) -> String {
        let n = self.n;
        match index {
            i if i < n => format!("height_{}", i + 1),
            i if i == self.mobility() => "mobility".into(),
            i if i == self.king_attackers() => "king_attackers".into(),
            i if i == self.tempo() => "tempo".into(),
            i if i == self.no_king() => "no_king".into(),
            i if i == self.king_edge() => "king_edge".into(),
            i if i == self.threats_made() => "threats_made".into(),
            i if i == self.threats_faced() => "threats_faced".into(),
            i => {
                let class = i - self.square(1) + 1;
                let (rank, file) = (class / n.div_ceil(2), class % n.div_ceil(2));
                format!("square_{}{}", (b'a' + file as u8) as char, rank + 1)
            }
        }
    }
}

impl<G: Geometry + BoardWeights> Evaluate for Lielow<G> {
    type State = LielowState;

    const INPUTS: usize = inputs::input_count(G::N);

    fn inputs(&self, perspective: Player, on: impl FnMut(usize)) {
        self.network_inputs(perspective, on);
    }

    fn mirrored_input(input: usize) -> usize {
        inputs::mirrored_input(G::N, input)
    }

    /// By the stacks left of the start's (8 a side on 8x8, 18 on 9x9), in quarters: an
    /// opening crowded with stacks of one, a middle game of merged stacks, an ending of a
    /// few tall ones and the hunt for a king weigh their inputs differently.
    const OUTPUT_BUCKETS: usize = 4;

    #[inline]
    fn output_bucket(&self) -> usize {
        let left = (self.stacks[0].count() + self.stacks[1].count()) as usize;
        let start = Self::start_stacks();
        (left.max(1) - 1) * Self::OUTPUT_BUCKETS / start
    }

    fn shipped_network() -> Option<Arc<Network>> {
        G::shipped_network()
    }

    fn feature_count() -> usize {
        Self::LAYOUT.count()
    }

    fn feature_name(index: usize) -> String {
        Self::LAYOUT.name(index)
    }

    fn weights() -> &'static [i32] {
        G::WEIGHTS
    }

    fn features<S: FeatureSink + ?Sized>(&self, sink: &mut S) {
        let layout = &Self::LAYOUT;
        sink.add(layout.tempo(), 1);
        for (player, sign) in [(self.side, 1), (self.side.opponent(), -1)] {
            let counts = self.side_counts(player, |height, square| {
                sink.add(layout.height(height), sign);
                let class = layout.class(square, player);
                if class > 0 {
                    sink.add(layout.square(class), sign);
                }
            });
            sink.add(layout.mobility(), sign * counts.mobility);
            // Threats count apart for the two sides: the side to move can take at once.
            match sign {
                1 => sink.add(layout.threats_made(), counts.threats),
                _ => sink.add(layout.threats_faced(), counts.threats),
            }
            match counts.king {
                Some(king) => {
                    sink.add(layout.king_attackers(), sign * king.attackers);
                    sink.add(layout.king_edge(), sign * king.edge);
                }
                None => sink.add(layout.no_king(), sign),
            }
        }
    }

    /// The features' weighted sum, the stacks' part worked out afresh.
    fn evaluate(&self) -> i32 {
        self.terms(&self.state(&Evaluator::Terms).stacks)
    }
}

/// The stacks' piece-square sums (updated from a move's changes) and the network's
/// accumulator (updated from the handful of inputs a move turns on and off).
impl<G: Geometry + BoardWeights> EvalState<Lielow<G>> for LielowState {
    fn fresh(game: &Lielow<G>, evaluator: &Evaluator) -> LielowState {
        let mut stacks = [0; 2];
        for player in Player::BOTH {
            for square in game.stacks[player.index()].squares() {
                stacks[player.index()] +=
                    Lielow::<G>::stack_value(player, game.height[square], square as u8);
            }
        }
        let accumulator = accumulator_for(game, evaluator);
        LielowState {
            stacks,
            accumulator,
        }
    }

    #[inline]
    fn update(
        game: &Lielow<G>,
        evaluator: &Evaluator,
        parent: &LielowState,
        changes: LielowChanges,
        child: &mut LielowState,
    ) {
        let value =
            |stack: StackOn| Lielow::<G>::stack_value(stack.player, stack.height, stack.square);
        let stacks = &mut child.stacks;
        *stacks = parent.stacks;
        stacks[changes.left.player.index()] -= value(changes.left);
        if let Some(captured) = changes.captured {
            stacks[captured.player.index()] -= value(captured);
        }
        if let Some(entered) = changes.entered {
            stacks[entered.player.index()] += value(entered);
        }
        if let Some(network) = evaluator.network() {
            // A move turns a handful of inputs on and off (a stack and a king at most on,
            // two stacks and a king off, a perspective): never worth a recompute.
            for perspective in Player::BOTH {
                let (mut on, mut off) = ([0usize; 4], [0usize; 4]);
                let (mut ons, mut offs) = (0, 0);
                game.changed_inputs(&changes, perspective, |input, turned_on| match turned_on {
                    true => (on[ons], ons) = (input, ons + 1),
                    false => (off[offs], offs) = (input, offs + 1),
                });
                network.apply(
                    &parent.accumulator,
                    &mut child.accumulator,
                    perspective,
                    &on[..ons],
                    &off[..offs],
                );
            }
        }
    }

    /// The network's output from the accumulator the search kept (added to the terms' sum
    /// for a network trained on what they miss), or the terms' sum.
    #[inline]
    fn value(game: &Lielow<G>, evaluator: &Evaluator, state: &LielowState) -> i32 {
        network_or_terms(game, evaluator, &state.accumulator, || {
            game.terms(&state.stacks)
        })
    }
}

impl<G: Geometry + BoardWeights> Lielow<G> {
    /// The features' weighted sum: the stacks' heights and squares from the sums the
    /// search keeps, the rest from one walk of the stacks; the same value as the provided
    /// sum (the conformance suite checks it at every position of its playouts), without a
    /// call per feature.
    #[inline]
    fn terms(&self, stacks: &StackValues) -> i32 {
        let layout = &Self::LAYOUT;
        let weights = G::WEIGHTS;
        let mut sum = weights[layout.tempo()];
        for (player, sign) in [(self.side, 1), (self.side.opponent(), -1)] {
            let stacks = stacks[player.index()];
            let counts = self.side_counts(player, |_, _| {});
            let king = match counts.king {
                Some(king) => {
                    weights[layout.king_attackers()] * king.attackers
                        + weights[layout.king_edge()] * king.edge
                }
                None => weights[layout.no_king()],
            };
            // Threats count apart for the two sides, each with its own sign.
            let threats = match sign {
                1 => weights[layout.threats_made()] * counts.threats,
                _ => -weights[layout.threats_faced()] * counts.threats,
            };
            sum += sign * (stacks + weights[layout.mobility()] * counts.mobility + king + threats);
        }
        sum
    }
}

/// Each stack's weight by player, height and square: its height's weight plus its
/// square's, as [`Evaluate::features`] counts them.
type StackWeights = [[[i32; MAX_SQUARES]; MAX_SIDE + 1]; 2];

impl<G: Geometry + BoardWeights> Lielow<G> {
    const STACK_WEIGHTS: &'static StackWeights = &stack_weights(Self::LAYOUT, G::WEIGHTS);

    /// The weight of `player`'s stack of `height` on `square`.
    #[inline]
    fn stack_value(player: Player, height: u8, square: u8) -> i32 {
        Self::STACK_WEIGHTS[player.index()][height as usize][square as usize]
    }
}

const fn stack_weights(layout: Layout, weights: &[i32]) -> StackWeights {
    let mut table = [[[0; MAX_SQUARES]; MAX_SIDE + 1]; 2];
    let players = [Player::P1, Player::P2];
    let mut p = 0;
    while p < players.len() {
        let mut height = 1;
        while height <= layout.n {
            let mut square = 0;
            while square < layout.n * layout.n {
                let class = layout.class(square, players[p]);
                let mut value = weights[layout.height(height)];
                if class > 0 {
                    value += weights[layout.square(class)];
                }
                table[p][height][square] = value;
                square += 1;
            }
            height += 1;
        }
        p += 1;
    }
    table
}

/// One side's counts that are not per stack.
struct SideCounts {
    /// Legal moves, the off move included.
    mobility: i32,
    /// Enemy stacks the side's stacks could land on.
    threats: i32,
    /// Its king's, if it has one.
    king: Option<KingCounts>,
}

struct KingCounts {
    /// Enemy stacks that could land on the king next move.
    attackers: i32,
    /// How far the king stands from the nearest edge.
    edge: i32,
}

impl<G: Geometry> Lielow<G> {
    pub(super) const LAYOUT: Layout = Layout::of(G::N);

    /// `player`'s counts, calling `each_stack` with the height and square of each of its
    /// stacks (for the features of the stack itself).
    #[inline]
    fn side_counts(&self, player: Player, mut each_stack: impl FnMut(usize, usize)) -> SideCounts {
        let moves = G::move_tables();
        let own = self.stacks[player.index()];
        let enemy = self.stacks[player.opponent().index()];
        let mut mobility = 0;
        let mut attacked = G::Bits::EMPTY;
        for square in own.squares() {
            let height = self.height[square] as usize;
            each_stack(height, square);
            let reach = moves.reach[height][square];
            mobility += (reach & !own).count() + moves.can_leave(height, square) as u32;
            attacked |= reach & enemy;
        }
        SideCounts {
            mobility: mobility as i32,
            threats: attacked.count() as i32,
            king: self.king(player).map(|king| KingCounts {
                attackers: self.king_attackers(player, king) as i32,
                edge: moves.edge_distance[king] as i32,
            }),
        }
    }

    /// How many enemy stacks could land on `player`'s king, on `king`, next move. Reach is
    /// symmetric: a stack of height h on s reaches k exactly when k's height-h reach
    /// contains s.
    fn king_attackers(&self, player: Player, king: usize) -> u32 {
        let enemy = self.stacks[player.opponent().index()];
        let moves = G::move_tables();
        // Each stack has one height, so the sets are disjoint: count their union once.
        let mut attackers = G::Bits::EMPTY;
        for h in 1..=G::N {
            attackers |= enemy & self.by_height[h] & moves.reach[h][king];
        }
        attackers.count()
    }

    pub(super) fn captures(&self, mv: LielowMove) -> bool {
        mv.to().is_some_and(|to| self.height[to] != 0)
    }
}
