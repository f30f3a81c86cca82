//! The search with an oracle of exact values: a known result reached by two lines of
//! different lengths (a transposition) must be scored by the line that reaches it, so that
//! the shorter forced win is the one played.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ternion::core::{Outcome, Player, Wdl};
use ternion::eval::{Evaluate, FeatureSink};
use ternion::rules::Rules;
use ternion::search::score::ORACLE_WIN;
use ternion::search::{Exact, Limits, Oracle, Score, Searchable, Searcher};

/// A small game on a fixed graph, by node:
///
/// ```text
/// 0 root (p1) --long--> 1 --> 2 --> 3 --> 4 N (p1) --> 6 T (p2, lost in 9) --> 7 end
///             --short-> 5 --------------> 4 N
/// ```
///
/// Both root moves lead to N, the long one in four plies, the short one in two; N's only
/// move leads to T, which the oracle knows as lost for its side to move. The long move is
/// generated first, so the search meets N on the long line first.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Graph {
    path: Vec<u8>,
}

const EDGES: [&[u8]; 8] = [&[1, 5], &[2], &[3], &[4], &[6], &[4], &[7], &[]];
const PLIES_FROM_ROOT: [usize; 8] = [0, 1, 2, 3, 4, 1, 5, 6];
/// The plies from T to the end of its lost game, by the oracle.
const T_DISTANCE: u8 = 9;

impl Graph {
    fn node(&self) -> u8 {
        self.path.last().copied().unwrap_or(0)
    }
}

impl Rules for Graph {
    type Move = u8;
    type Undo = ();
    type Changes = ();

    fn start() -> Self {
        Graph { path: Vec::new() }
    }
    fn side_to_move(&self) -> Player {
        // Every way to a node is as long as another, but for two plies: the side is fixed.
        Player::BOTH[PLIES_FROM_ROOT[self.node() as usize] % 2]
    }
    fn generate_moves(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(EDGES[self.node() as usize]);
    }
    fn make_move(&mut self, mv: u8) {
        self.path.push(mv);
    }
    fn changes(&self, _: u8, _: &()) {}

    fn unmake_move(&mut self, _: u8, _: ()) {
        self.path.pop();
    }
    fn outcome(&self) -> Option<Outcome> {
        EDGES[self.node() as usize]
            .is_empty()
            .then_some(Outcome::Draw)
    }
    /// The node alone: the two ways to N are one position.
    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }
    fn hash_from_scratch(&self) -> u64 {
        0x9e37_79b9_7f4a_7c15 ^ u64::from(self.node())
    }
}

impl Evaluate for Graph {
    type State = ();

    fn feature_count() -> usize {
        0
    }
    fn feature_name(_: usize) -> String {
        unreachable!("the graph has no features")
    }
    fn weights() -> &'static [i32] {
        &[]
    }
    fn features<S: FeatureSink + ?Sized>(&self, _: &mut S) {}
}

impl Searchable for Graph {}

/// Knows T: lost for its side to move, `T_DISTANCE` plies from the end.
struct KnowsT;

impl Oracle<Graph> for KnowsT {
    fn probe(&self, game: &Graph) -> Option<Exact> {
        (game.node() == 6).then_some(Exact {
            wdl: Wdl::Loss,
            distance: T_DISTANCE,
        })
    }
}

#[test]
fn a_known_win_reached_by_a_transposition_is_scored_from_where_it_is_reached() {
    for depth in 3..=8 {
        let mut searcher = Searcher::<Graph>::new(1);
        searcher.set_oracle(Some(Arc::new(KnowsT)));
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let result = searcher.search(
            &Graph::start(),
            &limits,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        // The short line reaches T at ply 3: a win 3 + 9 plies away.
        let plies = PLIES_FROM_ROOT[6] as i32 - 2 + i32::from(T_DISTANCE);
        assert_eq!(
            (result.best, result.score),
            (Some(5), Score::Centipawns(ORACLE_WIN - plies)),
            "depth {depth}"
        );
    }
}
