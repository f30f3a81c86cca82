//! ternion's Lielow moves written as AbstractPlay writes them, against AbstractPlay's own
//! move list (`rules`): the same moves, the same strings, and each string read back.

use proptest::prelude::*;
use ternion::games::lielow::Lielow;
use ternion::games::lielow::abstractplay::{from_abstractplay, to_abstractplay};
use ternion::games::lielow::geometry::{Board8, Board9, Geometry};
use ternion::rules::{Notation, Rules};

use super::rules::abstractplay_moves;

/// The kinds of move a game showed, as AbstractPlay writes them.
#[derive(Default, Debug)]
struct Kinds {
    steps: usize,
    captures: usize,
    borne_off: usize,
    king_moves: usize,
}

/// Checks `game`'s legal moves against AbstractPlay's list: equal sets, each string read
/// back to its move; counts their kinds.
fn agrees<G: Geometry>(game: &Lielow<G>, kinds: &mut Kinds) {
    let mut legal = Vec::new();
    game.generate_moves(&mut legal);
    let mut written: Vec<String> = legal.iter().map(|&mv| to_abstractplay(game, mv)).collect();
    for (&mv, text) in legal.iter().zip(&written) {
        assert_eq!(from_abstractplay(game, text), Ok(mv), "{text}");
        match text {
            t if t.ends_with("-off") => kinds.borne_off += 1,
            t if t.contains('x') => kinds.captures += 1,
            _ => kinds.steps += 1,
        }
        if game.stack_at(mv.from()).is_some_and(|(_, _, king)| king) {
            kinds.king_moves += 1;
        }
    }
    written.sort();
    assert_eq!(
        written,
        abstractplay_moves(game),
        "{}",
        game.position_string()
    );
}

/// Over 200 seeded random games, every position's moves agree with AbstractPlay's, and
/// every kind of move was seen.
fn agrees_over_random_games<G: Geometry>() {
    let mut rng = fastrand::Rng::with_seed(71);
    let mut kinds = Kinds::default();
    for _ in 0..200 {
        let mut game = Lielow::<G>::start();
        while game.outcome().is_none() {
            agrees(&game, &mut kinds);
            let mut legal = Vec::new();
            game.generate_moves(&mut legal);
            game.make_move(legal[rng.usize(..legal.len())]);
        }
        // A finished game has no moves, in AbstractPlay's list too once the king is gone.
        let mut legal = Vec::new();
        game.generate_moves(&mut legal);
        assert!(legal.is_empty());
    }
    assert!(
        kinds.steps > 1000
            && kinds.captures > 100
            && kinds.borne_off > 100
            && kinds.king_moves > 100,
        "{kinds:?}"
    );
}

#[test]
fn every_legal_move_is_one_of_abstractplays_and_reads_back_on_8x8() {
    agrees_over_random_games::<Board8>();
}

#[test]
fn every_legal_move_is_one_of_abstractplays_and_reads_back_on_9x9() {
    agrees_over_random_games::<Board9>();
}

/// The game after the moves `picks` choose (each an index into the legal moves, taken
/// modulo their number), stopping where the game ends.
fn after_picks<G: Geometry>(picks: &[usize]) -> Lielow<G> {
    let mut game = Lielow::<G>::start();
    for &pick in picks {
        let mut legal = Vec::new();
        game.generate_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        game.make_move(legal[pick % legal.len()]);
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_legal_move_round_trips(picks in prop::collection::vec(any::<usize>(), 0..120), nine in any::<bool>()) {
        let mut kinds = Kinds::default();
        match nine {
            true => agrees(&after_picks::<Board9>(&picks), &mut kinds),
            false => agrees(&after_picks::<Board8>(&picks), &mut kinds),
        }
    }
}

/// Writes 300 seeded random games of each size, and every position's moves in
/// AbstractPlay's notation, into the directory `AP_GAMESLIB_DUMP` names, for
/// `scripts/abstractplay/gameslib/lists.ts` to compare with AbstractPlay's own code (see
/// its README).
#[test]
#[ignore = "writes files for a check with AbstractPlay's own code; set AP_GAMESLIB_DUMP"]
fn dump_games_for_abstractplays_own_code() {
    use std::fmt::Write as _;
    let dir = std::env::var_os("AP_GAMESLIB_DUMP").expect("AP_GAMESLIB_DUMP: a directory");
    let dir = std::path::Path::new(&dir);
    let (mut games, mut lists) = (String::new(), String::new());
    fn dump<G: Geometry>(tag: &str, seed: u64, games: &mut String, lists: &mut String) {
        let mut rng = fastrand::Rng::with_seed(seed);
        for index in 0..300 {
            let (mut game, mut moves) = (Lielow::<G>::start(), Vec::new());
            loop {
                let mut legal = Vec::new();
                game.generate_moves(&mut legal);
                let mut written: Vec<String> =
                    legal.iter().map(|&mv| to_abstractplay(&game, mv)).collect();
                written.sort();
                writeln!(lists, "{tag}{index} {} {}", moves.len(), written.join(",")).unwrap();
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.usize(..legal.len())];
                moves.push(to_abstractplay(&game, mv));
                game.make_move(mv);
            }
            let variant = if G::N == 9 { "size-9" } else { "-" };
            writeln!(games, "{variant} {}", moves.join(" ")).unwrap();
        }
    }
    dump::<Board8>("e", 1, &mut games, &mut lists);
    dump::<Board9>("n", 2, &mut games, &mut lists);
    std::fs::write(dir.join("games.txt"), games).unwrap();
    std::fs::write(dir.join("lists-ternion.txt"), lists).unwrap();
}
