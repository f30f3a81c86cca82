//! The test facts of the Lerontenin rules, positions of our own for every rule, and hostile
//! text input.

use crate::common;

use common::{
    assert_moves_refused, assert_positions_refused, legal_move_strings, play, position, sorted,
};
use ternion::core::{MoveError, Outcome, Player};
use ternion::games::lerontenin::Lerontenin;
use ternion::rules::Notation;
use ternion::rules::Rules;

const START: &str = "L S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 0/0 0";
const FRESH: &str = "S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0";

fn after(before: &str, moves: &str) -> Lerontenin {
    let mut game: Lerontenin = position(before);
    play(&mut game, moves);
    game
}

fn moves_of(text: &str) -> Vec<String> {
    legal_move_strings(&position::<Lerontenin>(text))
}

/// The army field of `player` in the position string.
fn army_text(game: &Lerontenin, player: Player) -> String {
    let text = game.position_string();
    text.split(' ')
        .nth(1 + player.index())
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn fact_1_2_the_start() {
    let start = Lerontenin::start();
    assert_eq!(start.position_string(), START);
    assert_eq!(position::<Lerontenin>(START), start);
    assert_eq!(
        legal_move_strings(&start),
        sorted("S-1 S-7 D-2 T-3 Q-4 P-5 X-6 H-7")
    );
}

#[test]
fn fact_3_a_hep_sent_back_by_a_hep() {
    let game = after(START, "H-7 H-7");
    assert_eq!(
        game.position_string(),
        "L S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0+7 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@7+7 1/1 2"
    );
    assert_eq!(
        legal_move_strings(&game),
        sorted("S-1 S-7 D-2 T-3 Q-4 P-5 X-6")
    );
    // S-7 lands on Dark's HEP and throws it back to 0.
    let game = after(&game.position_string(), "S-7");
    assert_eq!(
        army_text(&game, Player::P2),
        "S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0+7"
    );
}

#[test]
fn fact_4_a_single_sent_back_by_its_own_step() {
    let game = after(START, "S-1 S-1");
    assert_eq!(
        game.position_string(),
        "L S@0+1#1,D@0,T@0,Q@0,P@0,X@0,H@0 S@1+1#1,D@0,T@0,Q@0,P@0,X@0,H@0 0/0 2"
    );
    assert_eq!(legal_move_strings(&game), sorted("D-2 T-3 Q-4 P-5 X-6 H-7"));
}

#[test]
fn fact_5_the_descending_sequence_draws() {
    let moves = "H-7 S-1 X-6 D-2 P-5 T-3 Q-4 Q-4 T-3 P-5 D-2 X-6 S-1";
    let mut game = Lerontenin::start();
    let all: Vec<&str> = moves.split(' ').collect();
    play(&mut game, &all[..12].join(" "));
    assert_eq!(game.outcome(), None);
    assert_eq!(game.descent(Player::P1), 6);
    play(&mut game, all[12]);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert_eq!(game.descent(Player::P1), 7);
    assert_eq!(game.count_moves(), 0);
    assert_eq!(game.parse_move("D-4"), Err(MoveError::GameOver));
}

#[test]
fn fact_6_a_stuck_triple_divides() {
    let text = "L S@0#0,D@0,T@96,Q@0,P@0,X@0,H@0 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 0/0 0";
    assert_eq!(moves_of(text), sorted("S-1 S-7 D-2 T/1+2 Q-4 P-5 X-6 H-7"));
    let game = after(text, "T/1+2");
    assert_eq!(
        army_text(&game, Player::P1),
        "S@0#0,D@0,Ta=1@95+1,Tb=2@94+2,Q@0,P@0,X@0,H@0"
    );
}

#[test]
fn fact_7_every_split_of_every_stuck_piece() {
    let text = format!("L S@0#0,D@0,T@0,Q@0,P@95,X@96,H@0 {FRESH} 0/0 0");
    let moves = moves_of(&text);
    assert_eq!(moves.len(), 11);
    let divisions: Vec<&String> = moves.iter().filter(|m| m.contains('/')).collect();
    assert_eq!(
        divisions,
        sorted("P/1+4 P/2+3 X/1+5 X/2+4 X/3+3")
            .iter()
            .collect::<Vec<_>>()
    );
}

#[test]
fn fact_8_the_single_steps() {
    let single = |army: &str| format!("L {army},D@0,T@0,Q@0,P@0,X@0,H@0 {FRESH} 0/0 0");
    let singles = |text: &str| -> Vec<String> {
        moves_of(text)
            .into_iter()
            .filter(|m| m.starts_with("S-"))
            .collect()
    };
    assert_eq!(singles(&single("S@40#6")), sorted("S-41 S-46"));
    assert_eq!(singles(&single("S@93#5")), sorted("S-94 S-98"));
    assert_eq!(singles(&single("S@95#5")), sorted("S-96"));
    // P(c) = 1 gives one move, not two equal ones.
    assert_eq!(singles(&single("S@10#1")), sorted("S-11"));
    assert_eq!(singles(&single("S@10#8")), sorted("S-11"));
}

#[test]
fn a_capture_sends_back_every_enemy_piece_on_the_square() {
    let text = "L S@0#0,D@0,T@7,Q@10,P@0,X@0,H@0 S@0#0,D@10,T@10+1,Q@0,P@0,X@0,H@0 0/0 0";
    let game = after(text, "T-10");
    // Dark's DOUBLE goes back 2, its TRIPLE 3; Light's own QUAD on 10 is untouched.
    assert_eq!(
        army_text(&game, Player::P2),
        "S@0#0,D@8+2,T@7+3,Q@0,P@0,X@0,H@0"
    );
    assert_eq!(
        army_text(&game, Player::P1),
        "S@0#0,D@0,T@10+3,Q@10,P@0,X@0,H@0"
    );
}

#[test]
fn a_send_back_stops_at_zero_and_keeps_a_longer_freeze() {
    let text = "L S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@5+1 0/0 0";
    let game = after(text, "P-5");
    assert_eq!(
        army_text(&game, Player::P2),
        "S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0+7"
    );
    // A freeze longer than the throw stays.
    let text = "L S@0#0,D@0,T@4,Q@0,P@0,X@0,H@0 S@0#0,D@7+5,T@0,Q@0,P@0,X@0,H@0 0/0 0";
    let game = after(text, "T-7");
    assert_eq!(
        army_text(&game, Player::P2),
        "S@0#0,D@5+5,T@0,Q@0,P@0,X@0,H@0"
    );
}

#[test]
fn a_single_is_sent_back_by_its_variable_power() {
    // Dark's SINGLE has moved 3 times: P(3) = 3.
    let text = "L S@0#0,D@0,T@0,Q@0,P@4,X@0,H@0 S@9#3,D@0,T@0,Q@0,P@0,X@0,H@0 0/0 0";
    let game = after(text, "P-9");
    assert_eq!(
        army_text(&game, Player::P2),
        "S@6+3#3,D@0,T@0,Q@0,P@0,X@0,H@0"
    );
    // With 7 moves made, P(7) = 7: thrown from 5 to 0.
    let text = "L S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 S@5#7,D@0,T@0,Q@0,P@0,X@0,H@0 0/0 0";
    let game = after(text, "P-5");
    assert_eq!(
        army_text(&game, Player::P2),
        "S@0+7#7,D@0,T@0,Q@0,P@0,X@0,H@0"
    );
}

#[test]
fn fragments_divide_again() {
    let text = format!("L S@0#0,D@0,T@0,Q@0,P@0,Xa=2@97,Xb=4@95,H@0 {FRESH} 0/0 7");
    let moves = moves_of(&text);
    let divisions: Vec<&String> = moves.iter().filter(|m| m.contains('/')).collect();
    assert_eq!(
        divisions,
        sorted("Xa/1+1 Xb/1+3 Xb/2+2").iter().collect::<Vec<_>>()
    );
    let game = after(&text, "Xb/1+3");
    assert_eq!(
        army_text(&game, Player::P1),
        "S@0#0,D@0,T@0,Q@0,P@0,Xa=2@97,Xba=1@94+1,Xbb=3@92+3,H@0"
    );
    // A power-1 fragment moves one square and never divides.
    let game = after(&game.position_string(), "H-7 Xa/1+1");
    assert_eq!(
        army_text(&game, Player::P1),
        "S@0#0,D@0,T@0,Q@0,P@0,Xaa=1@96+1,Xab=1@96+1,Xba=1@94,Xbb=3@92+2,H@0"
    );
    let game = after(&game.position_string(), "S-1 Xba-95");
    assert!(army_text(&game, Player::P1).contains("Xba=1@95+1"));
}

#[test]
fn a_pass_only_when_nothing_else_is_legal() {
    let text = "L S@98#10,D@98,T@98,Q@98,P@98,X@98,H@90+3 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 0/0 9";
    assert_eq!(moves_of(text), ["pass"]);
    let game = after(text, "pass");
    assert!(army_text(&game, Player::P1).ends_with("H@90+2"));
    assert_eq!(after(text, "0000"), game);
    let error = Lerontenin::start().parse_move("pass").unwrap_err();
    assert!(error.to_string().contains("only when nothing else"));
}

#[test]
fn finishing_the_last_piece_wins() {
    let text = format!("L S@97#3,D@98,T@98,Q@98,P@98,X@98,H@98 {FRESH} 0/0 300");
    assert_eq!(moves_of(&text), ["S-98"]);
    let game = after(&text, "S-98");
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(game.square_total(Player::P1), 7 * 98);
    // Pieces on 98 cannot be captured: a DOUBLE landing there sends nothing back.
    let text = "D S@98#3,D@98,T@98,Q@98,P@98,X@98,H@90 S@0#0,D@96,T@0,Q@0,P@0,X@0,H@0 0/0 1";
    let game = after(text, "D-98");
    assert_eq!(
        army_text(&game, Player::P1),
        "S@98#3,D@98,T@98,Q@98,P@98,X@98,H@90"
    );
}

#[test]
fn the_descending_sequence_broken_by_another_move() {
    let text = format!("L S@10#2,D@20,T@30,Q@40,P@50,X@60,H@70 {FRESH} 6/0 24");
    // S next would draw; D instead resets the counter.
    assert_eq!(after(&text, "S-11").outcome(), Some(Outcome::Draw));
    assert_eq!(after(&text, "S-12").outcome(), Some(Outcome::Draw));
    let game = after(&text, "D-22");
    assert_eq!(game.outcome(), None);
    assert_eq!(game.descent(Player::P1), 0);
    // H restarts the sequence at 1 whatever the counter was.
    assert_eq!(after(&text, "H-77").descent(Player::P1), 1);
    // A fragment of the HEP is not the original HEP.
    let text = format!("L S@0#0,D@0,T@0,Q@0,P@0,X@0,Ha=1@90,Hb=6@80 {FRESH} 0/0 50");
    assert_eq!(after(&text, "Hb-86").descent(Player::P1), 0);
    // The opponent's counter is left alone.
    let game = after(START, "H-7 X-6");
    assert_eq!((game.descent(Player::P1), game.descent(Player::P2)), (1, 0));
}

#[test]
fn a_threefold_repetition_is_decided_by_the_square_totals() {
    // Only the two DOUBLEs can move; they throw each other back every ten plies. Dark's
    // stands two squares further on when the cycle closes: Dark wins.
    let text = "L S@98#0,D@10,T@98,Q@98,P@98,X@98,H@98 S@98#0,D@12,T@98,Q@98,P@98,X@98,H@98 0/0 0";
    let cycle = "D-12 pass pass pass pass D-12 pass pass pass pass";
    let mut game: Lerontenin = position(text);
    play(&mut game, cycle);
    assert_eq!(
        game.position_string(),
        text.replace(" 0/0 0", " 0/0 10"),
        "one cycle brings the start back"
    );
    let plies: Vec<&str> = cycle.split(' ').collect();
    play(&mut game, &plies[..9].join(" "));
    assert_eq!(game.outcome(), None, "second time round, one ply short");
    play(&mut game, plies[9]);
    assert_eq!(
        game.square_total(Player::P2),
        game.square_total(Player::P1) + 2
    );
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::P2)));
    assert!(common::legal_move_strings(&game).is_empty());
    // The search scores a cycle as the rule decides it, from the side to move's view.
    assert_eq!(game.repetition_outcome(), Outcome::Win(Player::P2));
}

/// The value of `game` with perfect play by both sides, for the side to move: 1 won, 0 drawn,
/// -1 lost. Only for end games of a few pieces, whose moves are nearly all forced: every line
/// ends in a finish or a threefold repetition (decided by the square totals) within a few
/// hundred plies.
fn solved_value(game: &mut Lerontenin) -> i32 {
    match game.outcome() {
        Some(Outcome::Draw) => return 0,
        Some(Outcome::Win(winner)) => return if winner == game.side_to_move() { 1 } else { -1 },
        None => {}
    }
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    let mut best = -1;
    for mv in moves {
        let undo = game.make_move(mv);
        best = best.max(-solved_value(game));
        game.unmake_move(mv, undo);
        if best == 1 {
            break;
        }
    }
    best
}

/// The duel of equal pieces (docs/rules/lerontenin.md): with everything else home, two lone
/// HEXes. Under rule 14's square totals no duel is drawn: the two throw each other back, and
/// whoever stands in front when the cycle closes wins; so the one that makes the last hit of
/// the cycle wins, and it is the one that thaws (or moves) first when they stand one step
/// apart.
#[test]
fn the_duel_of_two_lone_hexes() {
    let home = "S@98#0,D@98,T@98,Q@98,P@98";
    // (Light's HEX, Dark's HEX, Light to move) -> Light's result.
    let duels = [
        (
            "X@90",
            "X@84",
            1,
            "one step ahead, moving first: away and home",
        ),
        (
            "X@90+1",
            "X@84",
            1,
            "one step ahead; the one behind thaws first and hits, but the cycle closes with \
             Light in front",
        ),
        (
            "X@90+1",
            "X@78",
            1,
            "two steps ahead: out of reach whatever the timing",
        ),
        ("X@48+1", "X@42", 1, "the same anywhere on the track"),
        (
            "X@84",
            "X@84",
            -1,
            "on one square: whoever must step out first is hit, and is behind at the end",
        ),
        (
            "X@84",
            "X@90+1",
            1,
            "behind and thawing first: it hits and stays in front",
        ),
        ("X@84+1", "X@90", -1, "behind and thawing last: lost"),
    ];
    for (light, dark, expected, why) in duels {
        let text = format!("L {home},{light},H@98 {home},{dark},H@98 0/0 0");
        let mut game: Lerontenin = position(&text);
        assert_eq!(
            solved_value(&mut game),
            expected,
            "{light} vs {dark}: {why}"
        );
    }
}

#[test]
fn square_totals_for_the_referee() {
    let game = after(START, "H-7 D-2 X-6");
    assert_eq!(game.square_total(Player::P1), 13);
    assert_eq!(game.square_total(Player::P2), 2);
    assert_eq!(Lerontenin::start().square_total(Player::P1), 0);
}

#[test]
fn hostile_position_strings_are_rejected_with_a_reason() {
    let with_light = |army: &str| format!("L {army} {FRESH} 0/0 0");
    let long = format!("{START} {}", "x".repeat(100_000));
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "empty"),
        ("L".into(), "1 fields given"),
        (format!("L {FRESH} {FRESH} 0/0"), "4 fields given"),
        (format!("{START} 1"), "unexpected text"),
        (long, "unexpected text"),
        (format!("W {FRESH} {FRESH} 0/0 0"), "'L' or 'D'"),
        (
            with_light("S@0#0,D@0,T@0,Q@0,P@0,X@0,Z@0"),
            "unknown label 'Z'",
        ),
        (
            with_light("S@0#0,D@0,Tc=1@0,Q@0,P@0,X@0,H@0"),
            "unknown label 'Tc'",
        ),
        (
            with_light("S@0#0,D@0,Ta@95,Tb=2@94,Q@0,P@0,X@0,H@0"),
            "needs '=power'",
        ),
        (
            with_light("S@0#0,D@0,Ta=1@95,Tb=1@94,Q@0,P@0,X@0,H@0"),
            "add up to 2, not 3",
        ),
        (
            with_light("S@0#0,D@0,Ta=2@95,Tb=1@94,Q@0,P@0,X@0,H@0"),
            "the 'a' part is the smaller",
        ),
        (
            with_light("S@0#0,D@0,Tb=2@94,Ta=1@95,Q@0,P@0,X@0,H@0"),
            "expected T or its parts",
        ),
        (
            with_light("S@0#0,D@0,Ta=1@95,Q@0,P@0,X@0,H@0"),
            "expected Tb or its parts",
        ),
        (with_light("S@0#0,D@0,T@0,Q@0,P@0,X@0,H@99"), "beyond 98"),
        (with_light("S@0#0,D@0,T@0,Q@0,P@0,X@0,H@999"), "too large"),
        (
            with_light("S@0,D@0,T@0,Q@0,P@0,X@0,H@0"),
            "needs '#<count>'",
        ),
        (
            with_light("S@0#0,D@0#1,T@0,Q@0,P@0,X@0,H@0"),
            "only the SINGLE",
        ),
        (
            with_light("S@0#0,D@0,D@0,T@0,Q@0,P@0,X@0,H@0"),
            "expected T or its parts",
        ),
        (
            with_light("S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0,H@0"),
            "out of place or duplicated",
        ),
        (
            with_light("S@0#0,D@0,T@0,Q@0,P@0,X@0"),
            "H (or its parts) is missing",
        ),
        (
            with_light("D@0,S@0#0,T@0,Q@0,P@0,X@0,H@0"),
            "expected S or its parts",
        ),
        (
            with_light("Sa=1@0,Sb=1@0,D@0,T@0,Q@0,P@0,X@0,H@0"),
            "expected S or its parts",
        ),
        (
            with_light("S@0#0,D=2@0,T@0,Q@0,P@0,X@0,H@0"),
            "only fragments",
        ),
        (with_light("S@0#0,D@0+0,T@0,Q@0,P@0,X@0,H@0"), "no '+0'"),
        (with_light("S@0#0,D@0+8,T@0,Q@0,P@0,X@0,H@0"), "above 7"),
        (
            with_light("S@0#0,D@0,Ta=0@0,Tb=3@0,Q@0,P@0,X@0,H@0"),
            "not 1..7",
        ),
        (
            with_light("S@0#0,D@0,T@-1,Q@0,P@0,X@0,H@0"),
            "must be a number",
        ),
        (
            with_light("S@0#99999999999,D@0,T@0,Q@0,P@0,X@0,H@0"),
            "too large",
        ),
        (
            with_light("S@0#0,D,T@0,Q@0,P@0,X@0,H@0"),
            "missing '@<square>'",
        ),
        (
            with_light("S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0,"),
            "missing '@<square>'",
        ),
        (
            with_light("S@0#0,D@é,T@0,Q@0,P@0,X@0,H@0"),
            "must be a number",
        ),
        (
            with_light("S@0#0,D@0,T@0,Q@0,P@0,X@0,Hé@0"),
            "unknown label",
        ),
        (format!("L {FRESH} {FRESH} 0-0 0"), "<light>/<dark>"),
        (format!("L {FRESH} {FRESH} 8/0 0"), "above 7"),
        (format!("L {FRESH} {FRESH} 0/0 x"), "must be a number"),
        (format!("L {FRESH} {FRESH} 0/0 -1"), "must be a number"),
        (
            "L S@98#0,D@98,T@98,Q@98,P@98,X@98,H@98 S@98#0,D@98,T@98,Q@98,P@98,X@98,H@98 0/0 0"
                .into(),
            "both armies have finished",
        ),
    ];
    let cases: Vec<(&str, &str)> = cases.iter().map(|(t, r)| (t.as_str(), *r)).collect();
    assert_positions_refused::<Lerontenin>(&cases);
    // Reachability is not checked: an odd but well-formed position is accepted.
    assert!(Lerontenin::parse_position(&with_light("S@98#0,D@0,T@0,Q@0,P@0,X@0,H@0")).is_ok());
}

#[test]
fn hostile_moves_are_rejected_with_a_reason() {
    let text = "L S@0#0,D@0+2,T@0,Q@98,P@95,X@0,H@0 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@0 0/0 4";
    let game: Lerontenin = position(text);
    let long = "H-7".repeat(10_000);
    let cases: Vec<(&str, &str)> = vec![
        ("H-8", "H cannot reach 8: it moves exactly 7"),
        ("S-3", "S cannot reach 3: it moves exactly 1 or 7"),
        ("D-2", "D is frozen for 2 more turn(s)"),
        ("Q-99", "Q has finished"),
        ("Q-98", "Q has finished"),
        ("P-100", "P cannot reach 100"),
        ("P-256", "not a Lerontenin move"),
        ("P-98", "P cannot reach 98"),
        ("Ta-3", "Light has no piece Ta"),
        ("T/1+2", "only a stuck piece"),
        ("P/2+2", "only a stuck piece"),
        ("P/3+2", "only a stuck piece"),
        ("P/0+5", "only a stuck piece"),
        ("pass", "only when nothing else"),
        ("0000", "only when nothing else"),
        ("Z-1", "not a Lerontenin move"),
        ("h-7", "not a Lerontenin move"),
        ("H-07", "not a Lerontenin move"),
        ("H-+7", "not a Lerontenin move"),
        ("H7", "not a Lerontenin move"),
        ("H--7", "not a Lerontenin move"),
        ("P/1-4", "not a Lerontenin move"),
        ("P/1+4+", "not a Lerontenin move"),
        ("Pass", "not a Lerontenin move"),
        ("H-7 ", "not a Lerontenin move"),
        ("H-é", "not a Lerontenin move"),
        (&long, "not a Lerontenin move"),
    ];
    assert_moves_refused(&game, &cases);
    assert!(game.parse_move("P/1+4").is_ok());
    assert!(game.parse_move("S-7").is_ok());
}

#[test]
fn a_flag_fall_is_judged_by_the_square_totals_once_a_piece_is_home() {
    // Nobody on 98: the side whose flag fell loses, however far it got.
    let far_ahead: Lerontenin =
        position("L S@50#5,D@60,T@60,Q@60,P@60,X@60,H@63 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@7 0/0 40");
    assert_eq!(far_ahead.flag_fall(Player::P1), Outcome::Win(Player::P2));
    assert_eq!(far_ahead.flag_fall(Player::P2), Outcome::Win(Player::P1));
    // A piece on 98: the larger square total wins, whoever flagged. Light 98 + 6 = 104,
    // Dark 7 * 14 = 98.
    let light_home: Lerontenin =
        position("D S@0#0,D@0,T@0,Q@0,P@0,X@6,H@98 S@14#2,D@14,T@14,Q@14,P@14,X@14,H@14 0/0 40");
    assert_eq!(light_home.square_total(Player::P1), 104);
    assert_eq!(light_home.square_total(Player::P2), 98);
    assert_eq!(light_home.flag_fall(Player::P1), Outcome::Win(Player::P1));
    assert_eq!(light_home.flag_fall(Player::P2), Outcome::Win(Player::P1));
    // Equal totals draw.
    let level: Lerontenin =
        position("L S@0#0,D@0,T@0,Q@0,P@0,X@0,H@98 S@0#0,D@0,T@0,Q@0,P@0,X@0,H@98 0/0 40");
    assert_eq!(level.flag_fall(Player::P2), Outcome::Draw);
}
