//! `ternion match` run as a user runs it: self-play in every variant with records replayed by
//! the rules library, engines that misbehave in every way the referee must catch, the
//! sequential test stopping a match, and concurrency that changes nothing but the speed.

use std::path::PathBuf;
use std::process::{Command, Output};

use ternion::arena::record::{ParsedRecord, parse_records};
use ternion::game::{GameText, GameVisitor, Variant};

const TERNION: &str = env!("CARGO_BIN_EXE_ternion");

fn fixture(mode: &str) -> String {
    format!(
        "sh {}/tests/fixtures/misbehaving-engine.sh {mode}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A records file for one test, removed when the test is done with it.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let name = format!("ternion-arena-{}-{name}", std::process::id());
        Scratch(std::env::temp_dir().join(name))
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a utf-8 temporary path")
    }

    fn records(&self) -> Vec<ParsedRecord> {
        let text = std::fs::read_to_string(&self.0).expect("the records were written");
        parse_records(&text).expect("well-formed records")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn run_match(args: &[&str]) -> Output {
    let output = Command::new(TERNION)
        .arg("match")
        .args(args)
        .output()
        .expect("the ternion binary runs");
    assert!(
        output.status.success(),
        "ternion match {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A match of ternion against itself with the given further arguments.
fn self_play(args: &[&str]) -> Output {
    let mut all = vec!["--engine", TERNION, "--engine", TERNION];
    all.extend_from_slice(args);
    run_match(&all)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8 summary")
}

/// The W/D/L numbers of a summary.
fn wdl(summary: &str) -> (u32, u32, u32) {
    let line = summary
        .lines()
        .find(|l| l.starts_with("W/D/L "))
        .unwrap_or_else(|| panic!("no W/D/L line in {summary}"));
    let numbers: Vec<u32> = line["W/D/L ".len()..]
        .split_whitespace()
        .next()
        .expect("the counts")
        .split('/')
        .map(|n| n.parse().expect("a count"))
        .collect();
    (numbers[0], numbers[1], numbers[2])
}

/// Replays a record with the rules library: the opening must lead to the recorded start,
/// the moves to the recorded final position, and a game ended by the rules must have the
/// recorded result there.
struct Replay<'a>(&'a ParsedRecord);

impl GameVisitor for Replay<'_> {
    type Output = ();
    fn visit<G: GameText>(self) {
        let record = self.0;
        let tag = |name: &str| {
            record
                .tag(name)
                .unwrap_or_else(|| panic!("no {name} tag in {record:?}"))
        };
        let mut game = G::start();
        game.play_moves(tag("Opening").split_whitespace())
            .expect("the opening is legal");
        assert_eq!(game.position_string(), tag("Start"));
        game.play_moves(record.moves.iter().map(String::as_str))
            .unwrap_or_else(|(ply, e)| panic!("game {}: ply {ply}: {e}", tag("Game")));
        assert_eq!(game.position_string(), tag("Final"), "game {}", tag("Game"));
        assert_eq!(tag("Plies"), record.moves.len().to_string());
        if tag("Reason") == "rules" {
            assert_eq!(game.outcome(), record.outcome(), "game {}", tag("Game"));
        }
    }
}

#[test]
fn self_play_in_every_variant_finishes_and_the_records_replay() {
    for variant in Variant::ALL {
        let records = Scratch::new(&format!("self-play-{variant}.txt"));
        let output = self_play(&[
            "--variant",
            variant.name(),
            "--games",
            "2",
            "--nodes",
            "300",
            "--openings",
            "2",
            "--records",
            records.path(),
        ]);
        let summary = stdout(&output);
        let (wins, draws, losses) = wdl(&summary);
        assert_eq!(wins + draws + losses, 2, "{summary}");
        assert!(
            summary.contains("every game ended by the rules"),
            "{summary}"
        );
        let parsed = records.records();
        assert_eq!(parsed.len(), 2, "{parsed:?}");
        for record in &parsed {
            assert_eq!(record.tag("Variant"), Some(variant.name()));
            assert_eq!(record.tag("Reason"), Some("rules"));
            variant.dispatch(Replay(record));
        }
        // Both games of a pair start from the same opening, with the colours swapped.
        assert_eq!(parsed[0].tag("Opening"), parsed[1].tag("Opening"));
        assert_eq!(
            parsed[0]
                .tag("Opening")
                .map(|o| o.split_whitespace().count()),
            Some(2)
        );
        // The progress went to stderr, one line per game.
        let progress = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            progress.lines().filter(|l| l.starts_with("game ")).count(),
            2
        );
    }
}

/// `ternion --play random` is a sparring partner for the runner: the search beats it, its
/// moves are legal (the runner checks every one) and its games are not all the same.
#[test]
fn the_search_beats_the_random_mover_in_a_match() {
    let records = Scratch::new("against-random.txt");
    let random = format!("{TERNION} --play random");
    let output = run_match(&[
        "--engine",
        TERNION,
        "--engine",
        &random,
        "--variant",
        "egaraguti",
        "--games",
        "4",
        "--depth",
        "3",
        "--records",
        records.path(),
    ]);
    let summary = stdout(&output);
    assert_eq!(wdl(&summary), (4, 0, 0), "{summary}");
    // Both seats call themselves ternion: their commands tell them apart.
    assert!(
        summary.contains(&format!("({TERNION} --play random)")),
        "{summary}"
    );
    let parsed = records.records();
    for record in &parsed {
        assert_eq!(record.tag("Reason"), Some("rules"));
        Variant::Egaraguti.dispatch(Replay(record));
    }
    // Without openings, only the random mover's draws tell the games apart.
    assert_ne!(parsed[0].moves, parsed[2].moves);
}

#[test]
fn every_kind_of_misbehaviour_loses_with_its_reason_and_the_match_goes_on() {
    // (fixture mode, limits, what the referee must say, {c} standing for the fixture's
    // colour: p2 in game 1, p1 in game 2)
    let cases: [(&str, &[&str], &str); 9] = [
        ("illegal", &["--nodes", "100"], "illegal move by {c}: a1a1"),
        ("garbage", &["--nodes", "100"], "illegal move by {c}: ~~!@#"),
        ("crash", &["--nodes", "100"], "{c} crashed"),
        (
            "hang",
            &["--nodes", "100", "--timeout", "300"],
            "{c} did not answer",
        ),
        ("hang", &["--movetime", "50"], "{c} lost on time"),
        ("slow", &["--tc", "0.2+0"], "{c} lost on time"),
        (
            "none",
            &["--depth", "1"],
            "no move by {c} in a live position",
        ),
        (
            "mute",
            &["--nodes", "100", "--timeout", "300"],
            "{c} failed to start",
        ),
        // A UCI-only engine: the handshake falls back to `uci`, then its moves are judged.
        (
            "uci",
            &["--nodes", "100", "--timeout", "600"],
            "illegal move by {c}: a1a1",
        ),
    ];
    for (mode, limits, reason) in cases {
        let engine = fixture(mode);
        let records = Scratch::new(&format!("misbehaving-{mode}.txt"));
        let mut args = vec![
            "--engine",
            TERNION,
            "--engine",
            &engine,
            "--variant",
            "lielow",
            "--games",
            "2",
            "--records",
            records.path(),
        ];
        args.extend_from_slice(limits);
        let summary = stdout(&run_match(&args));
        assert_eq!(wdl(&summary), (2, 0, 0), "{mode}: {summary}");
        // A mute engine never gives its name: it is known by its command.
        let name = if mode == "mute" {
            engine.clone()
        } else {
            format!("fixture-{mode}")
        };
        for (game, colour) in [(1, "p2"), (2, "p1")] {
            let expected = format!(
                "game {game}: {name} lost: {}",
                reason.replace("{c}", colour)
            );
            assert!(
                summary.lines().any(|l| l.starts_with(&expected)),
                "{mode}: no line starting {expected:?} in\n{summary}"
            );
        }
        let parsed = records.records();
        assert_eq!(parsed.len(), 2, "{mode}");
        assert_eq!(parsed[0].tag("Result"), Some("p1win"), "{mode}");
        assert_eq!(parsed[1].tag("Result"), Some("p2win"), "{mode}");
    }
}

#[test]
fn the_sequential_test_stops_a_decided_match() {
    // Self-play scores about half, far from the 200 Elo that H0 claims at least: H0 is
    // accepted long before the 200 games. Node-limited games repeat exactly, so this ends
    // the same way on every machine.
    let output = self_play(&[
        "--variant",
        "lielow",
        "--games",
        "200",
        "--nodes",
        "200",
        "--openings",
        "4",
        "--sprt",
        "elo0=200 elo1=400 alpha=0.2 beta=0.2",
    ]);
    let summary = stdout(&output);
    let (wins, draws, losses) = wdl(&summary);
    assert!(wins + draws + losses < 200, "{summary}");
    assert!(
        summary
            .lines()
            .any(|l| l.starts_with("SPRT ") && l.ends_with("H0 accepted")),
        "{summary}"
    );
}

#[test]
fn games_played_side_by_side_come_out_as_played_one_by_one() {
    let read = |concurrency: &str| {
        let records = Scratch::new(&format!("concurrency-{concurrency}.txt"));
        self_play(&[
            "--variant",
            "egaraguti",
            "--games",
            "4",
            "--depth",
            "3",
            "--openings",
            "3",
            "--seed",
            "7",
            "--concurrency",
            concurrency,
            "--records",
            records.path(),
        ]);
        let mut parsed = records.records();
        parsed.sort_by_key(|r| r.tag("Game").map(|g| g.parse::<u32>().expect("a number")));
        parsed
    };
    let one_by_one = read("1");
    assert_eq!(one_by_one.len(), 4);
    assert_eq!(read("2"), one_by_one);
}

#[test]
fn bad_command_lines_get_one_line_and_exit_status_2() {
    let two_engines = "--engine x --engine y --variant lielow";
    let cases = [
        "--engine x --variant lielow --nodes 1".to_owned(),
        two_engines.to_owned(),
        "--engine x --engine y --variant chess --nodes 1".to_owned(),
        format!("{two_engines} --nodes 1 --depth 2"),
        format!("{two_engines} --tc fast"),
        format!("{two_engines} --nodes 1 --sprt elo0=5"),
        format!("{two_engines} --nodes 1 --option Hash"),
        format!("{two_engines} --nodes 1 --games 0"),
    ];
    for args in cases {
        let output = Command::new(TERNION)
            .arg("match")
            .args(args.split_whitespace())
            .output()
            .expect("the ternion binary runs");
        let error = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args}: {error}");
        assert_eq!(error.lines().count(), 1, "{args}: {error}");
        assert!(output.stdout.is_empty(), "{args}");
    }
}
