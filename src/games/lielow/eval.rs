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

use super::geometry::Geometry;
use super::weights::BoardWeights;
use super::{Lielow, LielowMove};
use crate::core::{BitSet, Player};
use crate::eval::{Evaluate, FeatureSink};

/// Where each group of features starts, for a board of side `n`.
pub(super) struct Layout {
    n: usize,
}

impl Layout {
    pub(super) const fn of(n: usize) -> Self {
        Layout { n }
    }

    /// Stacks of height `h` (1..=n).
    const fn height(&self, h: usize) -> usize {
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
    const fn square(&self, class: usize) -> usize {
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
    fn class(&self, square: usize, player: Player) -> usize {
        let n = self.n;
        let (file, rank) = (square % n, square / n);
        let file = file.min(n - 1 - file);
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
        let us = self.side;
        sink.add(Self::LAYOUT.tempo(), 1);
        self.side_features(us, 1, sink);
        self.side_features(us.opponent(), -1, sink);
    }
}

impl<G: Geometry> Lielow<G> {
    pub(super) const LAYOUT: Layout = Layout::of(G::N);

    /// Adds `player`'s own features, counted `sign` times (1 for the side to move).
    fn side_features<S: FeatureSink + ?Sized>(&self, player: Player, sign: i32, sink: &mut S) {
        let layout = &Self::LAYOUT;
        let moves = G::move_tables();
        let own = self.stacks[player.index()];
        let enemy = self.stacks[player.opponent().index()];
        let mut mobility = 0;
        let mut attacked = G::Bits::EMPTY;
        for square in own.squares() {
            let height = self.height[square] as usize;
            sink.add(layout.height(height), sign);
            let class = layout.class(square, player);
            if class > 0 {
                sink.add(layout.square(class), sign);
            }
            let reach = moves.reach[height][square];
            mobility += (reach & !own).count() + moves.can_leave[height].has(square) as u32;
            attacked |= reach & enemy;
        }
        sink.add(layout.mobility(), sign * mobility as i32);
        // Threats count apart for the two sides: the side to move can take at once.
        let threats = attacked.count() as i32;
        match sign {
            1 => sink.add(layout.threats_made(), threats),
            _ => sink.add(layout.threats_faced(), threats),
        }
        match self.king(player) {
            Some(king) => {
                sink.add(
                    layout.king_attackers(),
                    sign * self.king_attackers(player, king) as i32,
                );
                let n = G::N;
                let (file, rank) = (king % n, king / n);
                let edge = file.min(rank).min(n - 1 - file).min(n - 1 - rank);
                sink.add(layout.king_edge(), sign * edge as i32);
            }
            None => sink.add(layout.no_king(), sign),
        }
    }

    /// How many enemy stacks could land on `player`'s king, on `king`, next move. Reach is
    /// symmetric: a stack of height h on s reaches k exactly when k's height-h reach
    /// contains s.
    fn king_attackers(&self, player: Player, king: usize) -> u32 {
        let enemy = self.stacks[player.opponent().index()];
        let moves = G::move_tables();
        (1..=G::N)
            .map(|h| (enemy & self.by_height[h] & moves.reach[h][king]).count())
            .sum()
    }

    pub(super) fn captures(&self, mv: LielowMove) -> bool {
        mv.to().is_some_and(|to| self.height[to] != 0)
    }
}
