//! The search: values on toy games checked by plain minimax, forced wins in every game,
//! legality, determinism, the stop flag, and strength against simple players.

use crate::common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use common::position;
use ternion::core::{Outcome, Player};
use ternion::eval::{Evaluate, FeatureSink};
use ternion::games::egaraguti::EgaraGuti;
use ternion::games::lerontenin::Lerontenin;
use ternion::games::lielow::{Lielow8, Lielow9};
use ternion::games::{Playable, Variant};
use ternion::rules::{Notation, Rules};
use ternion::search::baseline;
use ternion::search::{
    Control, Info, Limits, RootMove, RootOptions, RootReports, Score, SearchRequest, SearchResult,
    Searchable, Searcher,
};

fn search_depth<G: Searchable>(game: &G, depth: u32) -> SearchResult<G::Move> {
    search_depth_on_threads(game, depth, 1)
}

fn search_depth_on_threads<G: Searchable>(
    game: &G,
    depth: u32,
    threads: usize,
) -> SearchResult<G::Move> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut searcher = Searcher::<G>::new(4);
    assert_eq!(searcher.set_threads(threads), threads);
    searcher.search(game, &limits, &AtomicBool::new(false), &mut |_| {})
}

// ---------------------------------------------------------------------------------------
// A toy game: a fixed tree with values at its leaves.

/// A node of a complete tree of `BRANCHING`^`HEIGHT` leaves, by its path from the root.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tree {
    path: Vec<u8>,
    seed: u64,
}

const BRANCHING: u8 = 3;
const HEIGHT: usize = 5;

impl Tree {
    /// A pseudo-random value for any node, fixed by the tree's seed and the path.
    fn value(&self) -> i32 {
        let mut x = self.seed;
        for &step in &self.path {
            x = (x ^ step as u64 ^ 0x9e37).wrapping_mul(0x2545_f491_4f6c_dd1d);
        }
        ((x >> 40) % 201) as i32 - 100
    }
}

impl Rules for Tree {
    type Move = u8;
    type Undo = ();
    type Changes = ();

    fn start() -> Self {
        Tree {
            path: Vec::new(),
            seed: 1,
        }
    }
    fn side_to_move(&self) -> Player {
        Player::BOTH[self.path.len() % 2]
    }
    fn generate_moves(&self, out: &mut Vec<u8>) {
        if self.path.len() < HEIGHT {
            out.extend(0..BRANCHING);
        }
    }
    fn make_move(&mut self, mv: u8) {
        self.path.push(mv);
    }
    fn changes(&self, _: u8, _: &()) {}

    fn unmake_move(&mut self, _: u8, _: ()) {
        self.path.pop();
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }
    fn hash_from_scratch(&self) -> u64 {
        self.path.iter().fold(self.seed, |h, &s| {
            h.wrapping_mul(31).wrapping_add(s as u64 + 1)
        })
    }
}

/// One feature: leaves have their value; inner nodes a noisy guess, to mislead move
/// ordering.
impl Evaluate for Tree {
    type State = ();

    fn feature_count() -> usize {
        1
    }
    fn feature_name(_: usize) -> String {
        "value".into()
    }
    fn weights() -> &'static [i32] {
        &[1]
    }
    fn features<S: FeatureSink + ?Sized>(&self, sink: &mut S) {
        sink.add(0, self.value());
    }
}

impl Searchable for Tree {}

/// Plain negamax over the whole tree.
fn minimax(tree: &mut Tree) -> i32 {
    if tree.path.len() == HEIGHT {
        return tree.value();
    }
    (0..BRANCHING)
        .map(|mv| {
            tree.make_move(mv);
            let value = -minimax(tree);
            tree.unmake_move(mv, ());
            value
        })
        .max()
        .expect("inner nodes have moves")
}

#[test]
fn the_search_finds_the_minimax_value_of_random_trees() {
    for seed in 1..=40 {
        let tree = Tree {
            path: Vec::new(),
            seed,
        };
        let expected = minimax(&mut tree.clone());
        let result = search_depth(&tree, HEIGHT as u32);
        assert_eq!(result.score, Score::Centipawns(expected), "seed {seed}");
        assert_eq!(result.depth, HEIGHT as u32);
        // The principal variation reaches a leaf of that value.
        let mut leaf = tree.clone();
        for &mv in &result.pv {
            leaf.make_move(mv);
        }
        assert_eq!(leaf.path.len(), HEIGHT, "seed {seed}: pv {:?}", result.pv);
        let sign = if HEIGHT.is_multiple_of(2) { 1 } else { -1 };
        assert_eq!(sign * leaf.value(), expected, "seed {seed}");
    }
}

// ---------------------------------------------------------------------------------------
// A small solved game: tic-tac-toe is a draw.

#[derive(Clone, Debug, PartialEq, Eq)]
struct TicTacToe {
    cells: [Option<Player>; 9],
    side: Player,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    fn from(cells: &str, side: Player) -> Self {
        let mut game = TicTacToe::start();
        for (i, c) in cells.chars().enumerate() {
            game.cells[i] = match c {
                'x' => Some(Player::P1),
                'o' => Some(Player::P2),
                _ => None,
            };
        }
        game.side = side;
        game
    }
}

impl Rules for TicTacToe {
    type Move = u8;
    type Undo = ();
    type Changes = ();

    fn start() -> Self {
        TicTacToe {
            cells: [None; 9],
            side: Player::P1,
        }
    }
    fn side_to_move(&self) -> Player {
        self.side
    }
    fn generate_moves(&self, out: &mut Vec<u8>) {
        if self.outcome().is_none() {
            out.extend((0..9u8).filter(|&i| self.cells[i as usize].is_none()));
        }
    }
    fn make_move(&mut self, mv: u8) {
        self.cells[mv as usize] = Some(self.side);
        self.side = self.side.opponent();
    }
    fn changes(&self, _: u8, _: &()) {}

    fn unmake_move(&mut self, mv: u8, _: ()) {
        self.cells[mv as usize] = None;
        self.side = self.side.opponent();
    }
    fn outcome(&self) -> Option<Outcome> {
        for line in LINES {
            if let Some(p) = self.cells[line[0]]
                && line.iter().all(|&i| self.cells[i] == Some(p))
            {
                return Some(Outcome::Win(p));
            }
        }
        self.cells
            .iter()
            .all(Option::is_some)
            .then_some(Outcome::Draw)
    }
    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }
    fn hash_from_scratch(&self) -> u64 {
        let cells = self
            .cells
            .iter()
            .fold(0u64, |h, c| h * 3 + c.map_or(0, |p| p.index() as u64 + 1));
        cells * 2 + self.side.index() as u64
    }
}

/// No feature: every position is even until the search sees its end.
impl Evaluate for TicTacToe {
    type State = ();

    fn feature_count() -> usize {
        0
    }
    fn feature_name(_: usize) -> String {
        unreachable!("tic-tac-toe has no features")
    }
    fn weights() -> &'static [i32] {
        &[]
    }
    fn features<S: FeatureSink + ?Sized>(&self, _: &mut S) {}
}

impl Searchable for TicTacToe {}

#[test]
fn tic_tac_toe_is_a_draw_and_wins_are_found() {
    let result = search_depth(&TicTacToe::start(), 9);
    assert_eq!(result.score, Score::Centipawns(0));
    // X to move completes the top row: a win in one ply.
    let game = TicTacToe::from("xx.oo....", Player::P1);
    let result = search_depth(&game, 9);
    assert_eq!((result.best, result.score), (Some(2), Score::Mate(1)));
    // O to move cannot stop both threats of X (centre and corner fork): lost in 2 plies.
    let game = TicTacToe::from("x.x.o...x", Player::P2);
    assert_eq!(search_depth(&game, 9).score, Score::Mate(-2));
}

// ---------------------------------------------------------------------------------------
// Forced wins in the real games.

/// Whether the side to move can force a win within `plies` plies (plain search, no tricks).
fn forced_win<G: Searchable>(game: &mut G, plies: u32) -> bool {
    let me = game.side_to_move();
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    moves.into_iter().any(|mv| {
        let undo = game.make_move(mv);
        let wins = match game.outcome() {
            Some(Outcome::Win(p)) => p == me,
            Some(Outcome::Draw) => false,
            None if plies >= 3 => {
                let mut replies = Vec::new();
                game.generate_moves(&mut replies);
                replies.into_iter().all(|reply| {
                    let back = game.make_move(reply);
                    let wins = game.outcome() == Some(Outcome::Win(me))
                        || (game.outcome().is_none() && forced_win(game, plies - 2));
                    game.unmake_move(reply, back);
                    wins
                })
            }
            None => false,
        };
        game.unmake_move(mv, undo);
        wins
    })
}

/// The search finds the win in `plies` with one of the `best` moves, on one thread and on
/// several (whose helpers search other depths and share the table).
fn assert_wins<G: Playable>(text: &str, depth: u32, plies: i32, best: &[&str]) {
    let game: G = position(text);
    for threads in [1, 2, 4] {
        let result = search_depth_on_threads(&game, depth, threads);
        assert_eq!(
            result.score,
            Score::Mate(plies),
            "{text}, {threads} threads"
        );
        let chosen = game.move_string(result.best.expect("a move"));
        assert!(
            best.contains(&chosen.as_str()),
            "{text}, {threads} threads: {chosen}"
        );
    }
    assert!(forced_win(&mut game.clone(), plies as u32), "{text}");
    if plies > 1 {
        assert!(
            !forced_win(&mut game.clone(), plies as u32 - 2),
            "{text}: a faster win"
        );
    }
}

#[test]
fn lielow_king_capture_in_one_and_a_forced_win_in_three() {
    assert_wins::<Lielow8>("8/8/8/3r2*4/8/3b2*4/8/8 b", 4, 1, &["d3d5"]);
    assert_wins::<Lielow8>(
        "8/2r1r1r13/2r3*2r2r21/r17/8/4b2b22/1b11b12b1b1/4b4*3 b",
        5,
        3,
        &["e3c3"],
    );
}

#[test]
fn egaraguti_a_chain_that_wins() {
    assert_wins::<EgaraGuti>("5/3/3/w/b1b/1b1/5 w 0 1", 4, 1, &["e4c2g2e4", "e4g2c2e4"]);
}

#[test]
fn lerontenin_the_finish() {
    assert_wins::<Lerontenin>(
        "L S@97#3,D@98,T@98,Q@98,P@98,X@98,H@98 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 0/0 300",
        3,
        1,
        &["S-98"],
    );
}

/// Near the end of the Lerontenin track many pieces can land on one another, and the
/// pieces thrown back can land again: an unbounded capture search branched out into
/// millions of nodes here before depth 5 finished. It must stay a small search.
#[test]
fn send_back_chains_do_not_blow_up_the_quiescence_search() {
    let game: Lerontenin = position(
        "D S@92#40,D@80,Ta=1@91,Tb=2@94,Q@88,Paa=1@94,Pab=1@97+1,Pb=3@98,X@72+1,H@98 \
         S@98#28,D@78,Ta=1@95+1,Tb=2@94,Qa=2@98,Qb=2@98,Paa=1@93,Pab=1@91,Pb=3@89+2,\
         Xa=2@98,Xba=2@98,Xbb=2@90+1,H@98 0/0 513",
    );
    let limits = Limits {
        depth: Some(8),
        nodes: Some(1_000_000),
        ..Limits::default()
    };
    let result =
        Searcher::<Lerontenin>::new(4).search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
    assert_eq!(
        result.depth, 8,
        "stopped by the node limit after {} nodes",
        result.nodes
    );
}

#[test]
fn a_lost_position_is_reported_as_a_loss() {
    // Blue's only move takes his own king off the board.
    let game: Lielow8 = position("7r1*/8/8/8/3b6*4/8/8/8 b");
    let result = search_depth(&game, 3);
    assert_eq!(result.score, Score::Mate(-1));
    assert_eq!(
        game.move_string(result.best.expect("the only move")),
        "d4off"
    );
}

// ---------------------------------------------------------------------------------------
// Legality, determinism, stopping.

fn legal_over_random_positions<G: Playable>() -> usize {
    let mut searched = 0;
    for seed in 0..30u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut game = G::start();
        let mut moves = Vec::new();
        for _ in 0..rng.usize(0..60) {
            moves.clear();
            game.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.make_move(moves[rng.usize(..moves.len())]);
        }
        moves.clear();
        game.generate_moves(&mut moves);
        let limits = Limits {
            depth: Some(4),
            nodes: Some(3_000),
            ..Limits::default()
        };
        let result =
            Searcher::<G>::new(1).search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
        match result.best {
            Some(mv) => assert!(moves.contains(&mv), "seed {seed}: illegal {mv:?}"),
            None => assert!(moves.is_empty() && game.outcome().is_some()),
        }
        searched += 1;
    }
    searched
}

#[test]
fn the_best_move_is_always_legal() {
    for variant in Variant::ALL {
        assert_eq!(
            ternion::with_game!(variant, G => legal_over_random_positions::<G>()),
            30,
            "{variant}"
        );
    }
}

#[test]
fn node_limited_searches_repeat_exactly() {
    fn twice<G: Playable>() {
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let run = || {
            let mut infos = Vec::new();
            let result = Searcher::<G>::new(8).search(
                &G::start(),
                &limits,
                &AtomicBool::new(false),
                &mut |info| infos.push((info.depth, info.nodes, info.score)),
            );
            (result.best, result.nodes, result.score, infos)
        };
        assert_eq!(run(), run(), "{}", G::VARIANT);
    }
    for variant in Variant::ALL {
        ternion::with_game!(variant, G => twice::<G>());
    }
    let first = ternion::bench::run(Some(3), 1, &mut |_| {});
    let second = ternion::bench::run(Some(3), 1, &mut |_| {});
    assert_eq!(first.nodes, second.nodes);
}

#[test]
fn a_stop_ends_an_infinite_search_with_a_legal_move() {
    let stop = AtomicBool::new(false);
    let game = Lielow9::start();
    let result = thread::scope(|scope| {
        let search = scope.spawn(|| {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            Searcher::<Lielow9>::new(8).search(&game, &limits, &stop, &mut |_| {})
        });
        thread::sleep(Duration::from_millis(50));
        stop.store(true, Ordering::Relaxed);
        search.join().expect("the search thread ends")
    });
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    assert!(moves.contains(&result.best.expect("a move")));
}

use ternion::search::POLL_INTERVAL;

#[test]
fn a_node_limit_holds_for_the_whole_team_of_threads() {
    fn budget<G: Playable>() {
        let limit = 100_000;
        for threads in [2, 3] {
            let mut searcher = Searcher::<G>::new(8);
            assert_eq!(searcher.set_threads(threads), threads);
            let limits = Limits {
                nodes: Some(limit),
                ..Limits::default()
            };
            let mut reported = 0;
            let result =
                searcher.search(&G::start(), &limits, &AtomicBool::new(false), &mut |info| {
                    reported = info.nodes
                });
            let seen = format!("{}, {threads} threads", G::VARIANT);
            // Every thread counts the others' nodes as they last published them, once a
            // poll interval: the team ends within the budget and one interval each.
            assert!(result.nodes >= limit, "{seen}: {} nodes", result.nodes);
            assert!(
                result.nodes <= limit + threads as u64 * POLL_INTERVAL,
                "{seen}: {} nodes",
                result.nodes
            );
            assert!(reported <= result.nodes, "{seen}: reported {reported}");
            let mut moves = Vec::new();
            G::start().generate_moves(&mut moves);
            assert!(moves.contains(&result.best.expect("a move")), "{seen}");
        }
    }
    for variant in Variant::ALL {
        ternion::with_game!(variant, G => budget::<G>());
    }
}

#[test]
fn a_stop_ends_a_search_on_several_threads_with_a_legal_move() {
    for threads in [2, 4] {
        let stop = AtomicBool::new(false);
        let game = Lielow8::start();
        let mut searcher = Searcher::<Lielow8>::new(8);
        searcher.set_threads(threads);
        let result = thread::scope(|scope| {
            let search = scope.spawn(|| {
                let limits = Limits {
                    infinite: true,
                    ..Limits::default()
                };
                let result = searcher.search(&game, &limits, &stop, &mut |_| {});
                // The team can search again at once: every helper has answered.
                let again =
                    searcher.search(&game, &to_depth(2), &AtomicBool::new(false), &mut |_| {});
                (result, again)
            });
            thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
            search.join().expect("the search thread ends")
        });
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        assert!(
            moves.contains(&result.0.best.expect("a move")),
            "{threads} threads"
        );
        assert_eq!(result.1.depth, 2, "{threads} threads");
    }
}

#[test]
fn threads_can_be_set_again_and_the_search_goes_on() {
    let game = EgaraGuti::start();
    let mut searcher = Searcher::<EgaraGuti>::new(4);
    for threads in [3, 1, 2, 2, 1] {
        assert_eq!(searcher.set_threads(threads), threads);
        assert_eq!(searcher.threads(), threads);
        let result = searcher.search(&game, &to_depth(6), &AtomicBool::new(false), &mut |_| {});
        assert!(
            result.depth >= 6,
            "{threads} threads: depth {}",
            result.depth
        );
        searcher.clear();
        searcher.resize(2);
    }
    // One thread again: as deterministic as a searcher that never had more.
    let fresh = search_depth(&game, 7);
    let mut used = Searcher::<EgaraGuti>::new(4);
    used.set_threads(2);
    used.set_threads(1);
    let again = used.search(&game, &to_depth(7), &AtomicBool::new(false), &mut |_| {});
    assert_eq!(
        (again.nodes, again.best, again.score),
        (fresh.nodes, fresh.best, fresh.score)
    );
}

#[test]
fn one_legal_move_is_played_at_once() {
    let game: Lielow8 = position("7r1*/8/8/8/3b6*4/8/8/8 b");
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut infos = 0;
    let result =
        Searcher::<Lielow8>::new(1)
            .search(&game, &limits, &AtomicBool::new(false), &mut |_| infos += 1);
    assert_eq!(game.move_string(result.best.expect("a move")), "d4off");
    assert_eq!((result.nodes, infos), (0, 1));
}

// ---------------------------------------------------------------------------------------
// Strength, in-process and seeded.

/// Who picks the moves in a strength game.
#[derive(Clone, Copy, Debug)]
enum Player2 {
    /// The search to a fixed depth.
    Search(u32),
    /// The search with a fixed time per move, in milliseconds.
    Timed(u64),
    Random,
    Greedy,
}

fn choose<G: Searchable>(
    game: &G,
    who: Player2,
    rng: &mut fastrand::Rng,
    searcher: &mut Searcher<G>,
) -> G::Move {
    let searched = |searcher: &mut Searcher<G>, limits: Limits| {
        searcher
            .search(game, &limits, &AtomicBool::new(false), &mut |_| {})
            .best
    };
    let picked = match who {
        Player2::Random => baseline::random_move(game, rng),
        Player2::Greedy => baseline::greedy_move(game, rng),
        Player2::Search(depth) => searched(
            searcher,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
        ),
        Player2::Timed(ms) => searched(
            searcher,
            Limits {
                movetime: Some(Duration::from_millis(ms)),
                ..Limits::default()
            },
        ),
    };
    picked.expect("a move in a game in play")
}

/// The wins, draws and losses of the first player of a strength match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Tally {
    fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The share of the points, a draw counting half.
    fn score(self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }
}

/// Random plies from the start before a strength match's players take over: a search is
/// deterministic, so a match from the start position alone measures a handful of lines,
/// not play.
const OPENING_PLIES: usize = 2;

/// `plies` random legal moves from the start, drawn from `seed`, none ending the game.
fn random_opening<G: Playable>(seed: u64, plies: usize) -> G {
    let mut rng = fastrand::Rng::with_seed(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x6f70_656e);
    let mut moves = Vec::new();
    loop {
        let mut game = G::start();
        for _ in 0..plies {
            moves.clear();
            game.generate_moves(&mut moves);
            let mv = moves[rng.usize(..moves.len())];
            game.make_move(mv);
            if game.outcome().is_some() {
                break;
            }
        }
        if game.outcome().is_none() {
            return game;
        }
    }
}

/// Plays `games` games of `first` against `second`; returns the tally of `first`. Games
/// `2k` and `2k + 1` start from the same seeded random opening of `OPENING_PLIES` plies,
/// with `first` on one side and then the other; each game's baseline draws are seeded by
/// its number. A game unfinished after `max_plies` counts as a draw.
fn match_up<G: Playable>(first: Player2, second: Player2, games: u64, max_plies: usize) -> Tally {
    let mut tally = Tally::default();
    let mut searchers = [Searcher::<G>::new(4), Searcher::<G>::new(4)];
    for seed in 0..games {
        let mut rng = fastrand::Rng::with_seed(seed);
        let first_side = Player::BOTH[seed as usize % 2];
        let mut game = random_opening::<G>(seed / 2, OPENING_PLIES);
        for _ in 0..max_plies {
            if game.outcome().is_some() {
                break;
            }
            let (who, searcher) = if game.side_to_move() == first_side {
                (first, &mut searchers[0])
            } else {
                (second, &mut searchers[1])
            };
            let mv = choose(&game, who, &mut rng, searcher);
            game.make_move(mv);
        }
        match game.outcome() {
            Some(Outcome::Win(p)) if p == first_side => tally.wins += 1,
            Some(Outcome::Win(_)) => tally.losses += 1,
            _ => tally.draws += 1,
        }
    }
    tally
}

fn against_random<G: Playable>() -> Tally {
    match_up::<G>(Player2::Search(3), Player2::Random, 20, 3_000)
}

fn against_greedy<G: Playable>() -> Tally {
    match_up::<G>(Player2::Search(3), Player2::Greedy, 20, 3_000)
}

#[test]
fn the_search_beats_a_random_mover_every_game() {
    for variant in [Variant::Lielow, Variant::Lielow9, Variant::Egaraguti] {
        let tally = ternion::with_game!(variant, G => against_random::<G>());
        assert_eq!(tally.wins, 20, "{variant}: {tally:?}");
    }
}

#[test]
fn the_search_beats_a_greedy_player_clearly() {
    for variant in [Variant::Lielow, Variant::Lielow9, Variant::Egaraguti] {
        let tally = ternion::with_game!(variant, G => against_greedy::<G>());
        assert!(
            tally.wins >= 14 && tally.losses <= 3,
            "{variant}: {tally:?}"
        );
    }
}

// Lerontenin's strength, 200 games at depth 3 against each baseline, from 100 seeded 2-ply
// openings each played with both colours. Most games end in a cycle of equal pieces
// throwing each other back, decided by the square totals (rule 14), or in a race that one
// side finishes first. The tests hold the targets, 95% and 75%, which the network built
// in meets (generation 2: 96.0% against the random mover, 88.0% against the greedy one;
// generation 1 made 89.8% and 66.8%, the hand-written terms 85.5% and 58.0%).
// docs/rules/lerontenin.md and docs/networks.md give the figures.

const LERONTENIN_GAMES: u64 = 200;
/// About twice the longest of 2,300 games played while measuring (1,974 plies).
const LERONTENIN_PLIES: usize = 4_000;

fn lerontenin_at_depth_3_against(opponent: Player2) -> Tally {
    match_up::<Lerontenin>(
        Player2::Search(3),
        opponent,
        LERONTENIN_GAMES,
        LERONTENIN_PLIES,
    )
}

#[test]
fn the_search_scores_95_percent_against_a_random_mover_at_lerontenin() {
    let tally = lerontenin_at_depth_3_against(Player2::Random);
    assert!(tally.score() >= 0.95, "{tally:?}");
}

#[test]
fn the_search_scores_75_percent_against_a_greedy_player_at_lerontenin() {
    let tally = lerontenin_at_depth_3_against(Player2::Greedy);
    assert!(tally.score() >= 0.75, "{tally:?}");
}

/// More time searches deeper and should win more: 50 ms a move against depth 3.
#[test]
#[ignore = "about an hour of play: run with --ignored --nocapture"]
fn more_time_outplays_depth_3_at_lerontenin() {
    let tally = match_up::<Lerontenin>(
        Player2::Timed(50),
        Player2::Search(3),
        LERONTENIN_GAMES,
        LERONTENIN_PLIES,
    );
    println!(
        "movetime 50 vs depth 3: {tally:?}, score {:.1}%",
        100.0 * tally.score()
    );
    assert!(tally.wins > tally.losses, "{tally:?}");
}

// ---------------------------------------------------------------------------------------
// Root options and the words of `go`: several lines, a choice of root moves, mate, ponder.

/// Searches with root options, collecting every info line.
fn search_lines<G: Searchable>(
    game: &G,
    limits: &Limits,
    options: &RootOptions<G::Move>,
) -> (SearchResult<G::Move>, Vec<Info<G::Move>>) {
    let (stop, pondering) = (AtomicBool::new(false), AtomicBool::new(false));
    let control = Control::new(&stop, &pondering);
    let mut infos = Vec::new();
    let request = SearchRequest {
        limits: *limits,
        options: options.clone(),
        control,
    };
    let result =
        Searcher::<G>::new(4).search_with(game, &request, &mut |info| infos.push(info.clone()));
    (result, infos)
}

fn to_depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

#[test]
fn multipv_gives_the_best_moves_each_with_its_line() {
    multipv_lines_from_the_start::<Lielow8>();
    multipv_lines_from_the_start::<EgaraGuti>();
}

/// Three lines at depth 4 (Egara-guti has only three moves at the start).
fn multipv_lines_from_the_start<G: Searchable>() {
    let game = G::start();
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    let options = RootOptions {
        only: Vec::new(),
        multipv: 3,
        ..RootOptions::default()
    };
    let (result, infos) = search_lines(&game, &to_depth(4), &options);
    let last: Vec<&Info<_>> = infos.iter().filter(|i| i.depth == 4).collect();
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        [Some(1), Some(2), Some(3)]
    );
    // Distinct legal first moves, best first; the result is the first line's.
    let firsts: Vec<_> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts.iter().all(|mv| moves.contains(mv)));
    assert_eq!(
        firsts
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len(),
        3
    );
    let scores: Vec<Score> = last.iter().map(|i| i.score).collect();
    let raw = |s: &Score| match s {
        Score::Centipawns(cp) => *cp,
        Score::Mate(_) => panic!("no mate from the start"),
    };
    assert!(
        scores.windows(2).all(|w| raw(&w[0]) >= raw(&w[1])),
        "{scores:?}"
    );
    assert_eq!((result.best, result.score), (Some(firsts[0]), scores[0]));
    // Where the search is exact (Egara-guti turns late move reductions off), the best line
    // is as good as what a single-line search finds. With reductions, what a line is worth
    // depends on the history gathered by the searches before it, so the two may differ.
    if !G::REDUCE_LATE_MOVES {
        assert_eq!(search_depth(&game, 4).score, scores[0]);
    }
}

#[test]
fn searchmoves_keeps_the_search_to_the_moves_given() {
    // d3d5 captures the king at once; searched without it, the search must not play it.
    let game: Lielow8 = position("8/8/8/3r2*4/8/3b2*4/8/8 b");
    let allowed: Vec<_> = ["d3b1", "d3f3"]
        .iter()
        .map(|m| game.parse_move(m).expect("legal"))
        .collect();
    let options = RootOptions {
        only: allowed.clone(),
        ..RootOptions::default()
    };
    let (result, infos) = search_lines(&game, &to_depth(4), &options);
    assert!(allowed.contains(&result.best.expect("a move")));
    assert!(infos.iter().all(|i| allowed.contains(&i.pv[0])));
    assert_ne!(result.score, Score::Mate(1));
    // Only illegal moves given: every move is searched.
    let other: Lielow8 = position("8/8/8/3r2*4/8/3b3*4/8/8 b");
    let mut theirs = Vec::new();
    other.generate_moves(&mut theirs);
    let foreign = RootOptions {
        only: theirs
            .into_iter()
            .filter(|mv| !allowed.contains(mv))
            .filter(|&mv| game.parse_move(&other.move_string(mv)).is_err())
            .collect(),
        ..RootOptions::default()
    };
    let (result, _) = search_lines(&game, &to_depth(3), &foreign);
    assert_eq!(result.score, Score::Mate(1));
}

#[test]
fn a_mate_limit_stops_the_search_once_the_mate_is_proven() {
    // A win in 3 plies (2 moves), seen at depth 2 thanks to the quiescence search but proven
    // for good only at depth 3: `mate 2` stops as soon as it is seen, `mate 1` goes on.
    let game: Lielow8 = position("8/2r1r1r13/2r3*2r2r21/r17/8/4b2b22/1b11b12b1b1/4b4*3 b");
    let limits = |mate| Limits {
        depth: Some(7),
        mate,
        ..Limits::default()
    };
    let depth_reached = |mate| {
        let (result, _) = search_lines(&game, &limits(mate), &RootOptions::default());
        assert_eq!(result.score, Score::Mate(3));
        result.depth
    };
    assert_eq!(depth_reached(None), 3);
    assert_eq!(depth_reached(Some(2)), 2);
    assert_eq!(depth_reached(Some(1)), 3);
}

#[test]
fn a_pondering_search_keeps_no_deadline_until_ponderhit() {
    let game = Lielow9::start();
    let limits = Limits {
        movetime: Some(Duration::from_millis(20)),
        ..Limits::default()
    };
    let (stop, pondering) = (AtomicBool::new(false), AtomicBool::new(true));
    let started = std::time::Instant::now();
    let result = thread::scope(|scope| {
        let search = scope.spawn(|| {
            let control = Control::new(&stop, &pondering);
            let request = SearchRequest {
                limits,
                options: RootOptions::default(),
                control,
            };
            Searcher::<Lielow9>::new(4).search_with(&game, &request, &mut |_| {})
        });
        // Far past the move time, the search still runs: it ponders.
        thread::sleep(Duration::from_millis(200));
        assert!(
            !search.is_finished(),
            "a pondering search kept its deadline"
        );
        pondering.store(false, Ordering::Relaxed);
        search.join().expect("the search")
    });
    // After the ponderhit, the 20 ms move time ends it (well before any stop).
    assert!(result.best.is_some());
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(!stop.load(Ordering::Relaxed));
}

fn estimates<G: Playable>() -> (u32, u32) {
    let start = G::start().expected_moves_left();
    let mut later = 0;
    for seed in 0..10 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut game = G::start();
        let mut moves = Vec::new();
        let mut history = Vec::new();
        while game.outcome().is_none() && history.len() < 2_000 {
            moves.clear();
            game.generate_moves(&mut moves);
            let mv = moves[rng.usize(..moves.len())];
            history.push(game.clone());
            game.make_move(mv);
        }
        if let Some(middle) = history.get(history.len() / 2) {
            later = later.max(middle.expected_moves_left());
        }
    }
    (start, later)
}

#[test]
fn each_game_estimates_the_moves_left_for_the_clock() {
    // Self-play at 1 s + 10 ms: Lielow games last about 45 plies, Egara-guti about 50,
    // Lerontenin 800 to 1,200 (also at 1 s a game); the estimate is per side.
    for (variant, range) in [
        (Variant::Lielow, 15..=30),
        (Variant::Lielow9, 15..=40),
        (Variant::Egaraguti, 15..=35),
        (Variant::Lerontenin, 500..=700),
    ] {
        let (start, later) = ternion::with_game!(variant, G => estimates::<G>());
        assert!(range.contains(&start), "{variant}: {start} from the start");
        // The estimate follows the game's progress: material in Lielow and Egara-guti (so
        // a half-way position without captures keeps it), the race in Lerontenin.
        assert!(
            later <= start,
            "{variant}: {later} half-way, {start} from the start"
        );
        if variant == Variant::Lerontenin {
            assert!(
                later < start * 3 / 4,
                "{variant}: {later} half-way, {start} at first"
            );
        }
        assert!(later >= 8, "{variant}: {later}");
    }
}

#[test]
fn a_search_with_nothing_to_choose_reports_its_own_seldepth() {
    let game = Lielow8::start();
    let mut searcher = Searcher::<Lielow8>::new(1);
    let stop = AtomicBool::new(false);
    let not_pondering = AtomicBool::new(false);
    let control = Control::new(&stop, &not_pondering);
    let deep = searcher.search(&game, &to_depth(6), &stop, &mut |_| {});
    assert!(deep.depth == 6);
    // One root move allowed: nothing is searched, and nothing of the search before shows.
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    let only = RootOptions {
        only: vec![moves[0]],
        ..RootOptions::default()
    };
    let mut infos = Vec::new();
    let request = SearchRequest {
        limits: to_depth(6),
        options: only,
        control,
    };
    searcher.search_with(&game, &request, &mut |info| {
        infos.push((info.depth, info.seldepth))
    });
    assert_eq!(infos, [(1, 1)]);
}

#[test]
fn a_long_search_reports_each_root_move_it_starts_on() {
    let game = Lielow8::start();
    let mut legal = Vec::new();
    game.generate_moves(&mut legal);
    let stop = AtomicBool::new(false);
    let not_pondering = AtomicBool::new(false);
    let seen = std::sync::Mutex::new(Vec::new());
    let report = |root_move: RootMove<_>| seen.lock().unwrap().push(root_move);
    let control = Control {
        root_moves: Some(RootReports {
            after: Duration::ZERO,
            report: &report,
        }),
        ..Control::new(&stop, &not_pondering)
    };
    let mut searcher = Searcher::<Lielow8>::new(1);
    let request = SearchRequest {
        limits: to_depth(3),
        options: RootOptions::default(),
        control,
    };
    searcher.search_with(&game, &request, &mut |_| {});
    let seen = seen.into_inner().unwrap();
    // Every iteration goes through every root move, numbered from 1 in its order.
    for depth in 1..=3 {
        let moves: Vec<_> = seen.iter().filter(|r| r.depth == depth).collect();
        assert_eq!(moves.len(), legal.len(), "depth {depth}");
        assert!(moves.iter().enumerate().all(|(i, r)| r.number == i + 1));
        assert!(moves.iter().all(|r| legal.contains(&r.mv)));
    }
    // Not before the time given: a short search says nothing of its root moves.
    let quiet = std::sync::Mutex::new(0);
    let count = |_: RootMove<_>| *quiet.lock().unwrap() += 1;
    let control = Control {
        root_moves: Some(RootReports {
            after: Duration::from_secs(3600),
            report: &count,
        }),
        ..Control::new(&stop, &not_pondering)
    };
    let request = SearchRequest {
        limits: to_depth(3),
        options: RootOptions::default(),
        control,
    };
    searcher.search_with(&game, &request, &mut |_| {});
    assert_eq!(quiet.into_inner().unwrap(), 0);
}

/// Lerontenin with the first player one move from the end of its descending sequence:
/// any move of its S draws at once, and its other pieces are free to move. `side` is the
/// side to move: "L" the first player, "D" the second.
fn on_the_descending_sequence(side: &str) -> Lerontenin {
    position(&format!(
        "{side} S@0#0,D@2,T@3,Q@4,P@5,X@6,H@7 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 6/0 12"
    ))
}

fn with_contempt(contempt: i32) -> RootOptions<<Lerontenin as Rules>::Move> {
    RootOptions {
        contempt,
        ..RootOptions::default()
    }
}

#[test]
fn contempt_scores_a_draw_by_the_rules_below_zero_for_the_root_side() {
    let game = on_the_descending_sequence("L");
    let draw = game.parse_move("S-1").expect("legal");
    for contempt in [0, 150] {
        let only_the_draw = RootOptions {
            only: vec![draw],
            ..with_contempt(contempt)
        };
        let (result, _) = search_lines(&game, &to_depth(3), &only_the_draw);
        assert_eq!(result.score, Score::Centipawns(-contempt));
    }
    // With all the contempt there is, any other move is better than the draw.
    let (result, _) = search_lines(&game, &to_depth(3), &with_contempt(1000));
    assert_ne!(result.best, Some(draw));
    assert!(
        matches!(result.score, Score::Centipawns(cp) if cp > -1000),
        "{:?}",
        result.score
    );
}

#[test]
fn contempt_makes_the_draw_the_opponent_can_take_its_best_line() {
    // The other side to move at the root: whatever it plays, the first player can draw,
    // and to the root's side that draw is worth minus the contempt, to its opponent plus.
    let game = on_the_descending_sequence("D");
    assert_eq!(game.side_to_move(), Player::P2);
    let (result, _) = search_lines(&game, &to_depth(3), &with_contempt(1000));
    assert_eq!(result.score, Score::Centipawns(-1000));
    let (result, _) = search_lines(&game, &to_depth(3), &with_contempt(150));
    assert!(
        matches!(result.score, Score::Centipawns(cp) if cp <= -150),
        "{:?}",
        result.score
    );
}
