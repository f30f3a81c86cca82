//! The protocol's answers agree with the rules code: over seeded random games of every
//! variant, `query` replies after `position variant ... moves ...` are compared with what the
//! game itself says.

use std::sync::{Arc, Mutex};

use ternion::core::{Outcome, Player};
use ternion::eval::Evaluator;
use ternion::games::{Playable, Variant};
use ternion::protocol::daemon::{Daemon, Sink};

fn agreement<G: Playable>() -> usize {
    let output = Arc::new(Mutex::new(Vec::<String>::new()));
    let collected = Arc::clone(&output);
    let sink: Sink = Arc::new(move |line| collected.lock().expect("output").push(line));
    let mut daemon = Daemon::new(Variant::Lielow, sink);
    let ask = |daemon: &mut Daemon, line: &str| -> String {
        output.lock().expect("output").clear();
        daemon.handle(line);
        let lines = output.lock().expect("output");
        lines.last().cloned().unwrap_or_default()
    };
    let mut compared = 0;
    for seed in 0..20u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut game = G::start();
        let mut played: Vec<String> = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..rng.usize(1..80) {
            moves.clear();
            game.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.usize(..moves.len())];
            played.push(game.move_string(mv));
            game.make_move(mv);
        }
        let line = format!(
            "position variant {} startpos moves {}",
            G::VARIANT,
            played.join(" ")
        );
        ask(&mut daemon, &line);
        moves.clear();
        game.generate_moves(&mut moves);
        let legal: Vec<String> = moves.iter().map(|&m| game.move_string(m)).collect();
        let expected_moves = if legal.is_empty() {
            "none".to_owned()
        } else {
            legal.join(" ")
        };
        assert_eq!(
            ask(&mut daemon, "query legalmoves"),
            format!("response {expected_moves}")
        );
        let result = match game.outcome() {
            None => "none",
            Some(Outcome::Draw) => "draw",
            Some(Outcome::Win(Player::P1)) => "p1win",
            Some(Outcome::Win(Player::P2)) => "p2win",
        };
        assert_eq!(
            ask(&mut daemon, "query result"),
            format!("response {result}")
        );
        assert_eq!(
            ask(&mut daemon, "query gameover"),
            format!("response {}", game.outcome().is_some())
        );
        assert_eq!(
            ask(&mut daemon, "query p1turn"),
            format!("response {}", game.side_to_move() == Player::P1)
        );
        assert_eq!(
            ask(&mut daemon, "query fen"),
            format!("response {}", game.position_string())
        );
        if let Some(&mv) = moves.first() {
            let text = game.move_string(mv);
            assert_eq!(
                ask(&mut daemon, &format!("query islegal {text}")),
                "response true"
            );
        }
        assert_eq!(
            ask(&mut daemon, "query variant"),
            format!("response {}", G::VARIANT)
        );
        // `eval`: the terms' total is their sum and the hand-written evaluation; the last
        // line is the value the search plays with (the network's, where there is one).
        output.lock().expect("output").clear();
        daemon.handle("eval");
        let lines = output.lock().expect("output").clone();
        let last = lines.last().expect("an eval line");
        match game.outcome() {
            Some(_) => assert!(last.starts_with("Eval: none, the game is over"), "{last}"),
            None => {
                let total_at = (lines.iter())
                    .position(|line| line.starts_with("Terms: "))
                    .expect("a Terms line");
                let terms: i32 = lines[1..total_at]
                    .iter()
                    .map(|line| {
                        let words: Vec<&str> = line.split_whitespace().collect();
                        let [_, value, weight, score] = words[..] else {
                            panic!("a term line: {line}")
                        };
                        let (value, weight, score): (i32, i32, i32) = (
                            value.parse().unwrap(),
                            weight.parse().unwrap(),
                            score.parse().unwrap(),
                        );
                        assert_eq!(value * weight, score, "{line}");
                        score
                    })
                    .sum();
                let evaluation = game.evaluate();
                assert_eq!(terms, evaluation, "{lines:?}");
                assert!(lines[total_at].starts_with(&format!("Terms: {evaluation} for the side")));
                let used = match G::shipped_network() {
                    Some(network) => {
                        let value = game.evaluate_by(&Evaluator::Network(network));
                        assert!(
                            lines[total_at + 1]
                                .starts_with(&format!("Network: {value} for the side")),
                            "{lines:?}"
                        );
                        format!("Eval: {value} for the side to move")
                    }
                    None => format!("Eval: {evaluation} for the side to move"),
                };
                assert!(last.starts_with(&used), "{last}");
            }
        }
        compared += 1;
    }
    compared
}

#[test]
fn query_answers_agree_with_the_rules() {
    for variant in Variant::ALL {
        assert_eq!(
            ternion::with_game!(variant, G => agreement::<G>()),
            20,
            "{variant}"
        );
    }
}
