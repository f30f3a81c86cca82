//! Strength levels through the protocol: a level set reaches the search, weakened levels
//! play legal moves from the lines they searched, the same seed repeats their choices, and
//! a low level really is weaker than the full engine.

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use ternion::games::{Playable, Variant};
use ternion::protocol::daemon::{Daemon, Sink};

/// A daemon of `variant` and the lines it writes.
fn daemon(variant: Variant) -> (Daemon, Arc<Mutex<Vec<String>>>) {
    let output = Arc::new(Mutex::new(Vec::new()));
    let collected = Arc::clone(&output);
    let sink: Sink = Arc::new(move |line: String| collected.lock().expect("output").push(line));
    (Daemon::new(variant, sink), output)
}

/// Runs `go` on the daemon and returns the lines it wrote for it.
fn search(daemon: &mut Daemon, output: &Mutex<Vec<String>>, go: &str) -> Vec<String> {
    output.lock().expect("output").clear();
    daemon.handle(go);
    while daemon.busy() {
        thread::sleep(Duration::from_millis(1));
    }
    output.lock().expect("output").clone()
}

/// Seeded random positions of `G` a few plies from the start, as `position` commands, each
/// with its legal moves.
fn positions<G: Playable>(count: usize, seed: u64) -> Vec<(String, Vec<String>)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut game = G::start();
        let mut played = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..rng.usize(2..12) {
            moves.clear();
            game.generate_moves(&mut moves);
            let mv = moves[rng.usize(..moves.len())];
            let mut next = game.clone();
            next.make_move(mv);
            if next.outcome().is_some() {
                break;
            }
            played.push(game.move_string(mv));
            game = next;
        }
        moves.clear();
        game.generate_moves(&mut moves);
        if moves.len() > 1 {
            let legal = moves.iter().map(|&mv| game.move_string(mv)).collect();
            out.push((
                format!("position startpos moves {}", played.join(" ")),
                legal,
            ));
        }
    }
    out
}

/// The best moves of a daemon at `level` with `seed` over `positions`, each checked legal
/// and taken from a searched line, the search no deeper than the level allows.
fn choices(
    variant: Variant,
    level: u8,
    seed: u64,
    positions: &[(String, Vec<String>)],
) -> Vec<String> {
    let (mut daemon, output) = daemon(variant);
    daemon.handle(&format!("setoption name Skill Level value {level}"));
    daemon.handle(&format!("setoption name Seed value {seed}"));
    let deepest = 1 + u32::from(level) / 2;
    let mut chosen = Vec::new();
    for (position, legal) in positions {
        daemon.handle(position);
        let lines = search(&mut daemon, &output, "go depth 6");
        let best = lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("no bestmove in {lines:?}"))
            .to_owned();
        assert!(legal.contains(&best), "{position}: {best} is not legal");
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        let depth = |l: &str| -> u32 { l.split(' ').nth(2).unwrap().parse().unwrap() };
        assert!(infos.iter().all(|l| depth(l) <= deepest), "{infos:?}");
        let first_lines = infos.iter().filter(|l| depth(l) == 1).count();
        assert_eq!(first_lines, legal.len().min(4), "{infos:?}");
        assert!(
            infos.iter().any(|l| l.contains(&format!(" pv {best}"))),
            "{best} is none of the lines {infos:?}"
        );
        chosen.push(best);
    }
    chosen
}

#[test]
fn a_weakened_level_plays_one_of_its_lines_and_the_seed_repeats_it() {
    for variant in Variant::ALL {
        ternion::with_game!(variant, G => {
            let positions = positions::<G>(12, 41 + variant as u64);
            let first = choices(variant, 2, 5, &positions);
            assert_eq!(first, choices(variant, 2, 5, &positions), "{variant}: seed 5 twice");
            // Another seed gives other draws: somewhere another choice, at the weakest level.
            let weakest = |seed| choices(variant, 0, seed, &positions);
            assert!(
                (6..12).any(|seed| weakest(seed) != weakest(5)),
                "{variant}: every seed chose the same"
            );
        });
    }
}

#[test]
fn level_zero_loses_to_the_full_engine() {
    // Lielow and Egara-guti: the full engine at depth 3 against level 0, from random
    // openings with both colours, wins nearly everything.
    for variant in ["lielow", "egaraguti"] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_ternion"))
            .args([
                "match",
                "--engine",
                env!("CARGO_BIN_EXE_ternion"),
                "--engine",
                env!("CARGO_BIN_EXE_ternion"),
                "--option",
                "2:Skill Level=0",
                "--variant",
                variant,
                "--depth",
                "3",
                "--games",
                "10",
                "--openings",
                "2",
                "--seed",
                "17",
                "--concurrency",
                "2",
            ])
            .output()
            .expect("the match runs");
        let summary = String::from_utf8_lossy(&output.stdout);
        let wdl = summary
            .lines()
            .find_map(|l| l.strip_prefix("W/D/L "))
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or_else(|| panic!("{summary}"));
        let wins: u32 = wdl.split('/').next().unwrap().parse().unwrap();
        assert!(
            wins >= 8,
            "{variant}: the full engine won only {wdl}\n{summary}"
        );
    }
}
