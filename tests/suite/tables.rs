//! Egara-guti's exact tables from the outside: the build, its resumption and its shards,
//! the probe, the protocol's `TablePath`, and agreement with the proofs of the search.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use common::engine::Engine;
use ternion::core::Player;
use ternion::core::Wdl;
use ternion::games::egaraguti::EgaraGuti;
use ternion::games::egaraguti::board::{POINTS, RANKS_TOP_DOWN};
use ternion::games::egaraguti::tablebase::index::Material;
use ternion::games::egaraguti::tablebase::table::Table;
use ternion::games::egaraguti::tablebase::{Residence, Tablebase};
use ternion::protocol::command::{Command as Protocol, GoCommand, PositionCommand};
use ternion::protocol::reply::Reply;
use ternion::rules::Notation;
use ternion::rules::Rules;
use ternion::search::{Limits, Oracle, Score, Searcher};
use ternion::tune::exact::label::relabel_all;

/// The most men of the tables the tests build: every level solves in well under a second.
const MEN: &str = "6";

fn ternion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ternion"))
        .args(args)
        .output()
        .expect("the ternion binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8 output")
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a path in UTF-8")
}

/// A fresh directory for one test.
fn fresh_dir(name: &str) -> PathBuf {
    // Under target/, so that the shared tables left at the end are not scattered in /tmp.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tables-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn build(dir: &Path, men: &str, more: &[&str]) -> Output {
    let mut args = vec![
        "tables",
        "build",
        "egaraguti",
        "--men",
        men,
        "--dir",
        dir.to_str().unwrap(),
        "--distances",
    ];
    args.extend_from_slice(more);
    ternion(&args)
}

/// The tables of up to 6 men with distances, built once for all the tests here.
fn tables_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = fresh_dir("shared");
        let output = build(&dir, MEN, &["--threads", "2"]);
        assert!(output.status.success(), "{}", text(&output.stderr));
        dir
    })
}

/// The table files of `dir`, by name, with their bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .filter(|(name, _)| name.ends_with(".egt"))
        .collect();
    files.sort();
    files
}

#[test]
fn a_build_reports_each_level_and_the_figures() {
    let dir = fresh_dir("report");
    let output = build(&dir, "4", &[]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let progress = text(&output.stderr);
    // Levels 1v1, 2v1, 2v2, 3v1: one line each, fewest men first.
    let levels: Vec<&str> = progress
        .lines()
        .map(|l| l.split(':').next().unwrap())
        .collect();
    assert_eq!(levels, ["1v1", "2v1", "2v2", "3v1"], "{progress}");
    assert!(progress.contains("win/draw/loss"), "{progress}");
    let summary = text(&output.stdout);
    assert!(summary.starts_with("4 levels, 4 solved now: "), "{summary}");
    // Levels this small give no estimate of the time left: they solve far faster a
    // position than large ones.
    assert!(!progress.contains("about"), "{progress}");
    // Both ways round for unequal men: 6 tables.
    assert_eq!(files(&dir).len(), 6);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resumed_build_equals_one_run_through() {
    let whole = files(tables_dir());
    let dir = fresh_dir("resumed");
    assert!(build(&dir, "4", &[]).status.success());
    // An interrupted run: a level half written (one of its two tables) and a temporary
    // file left behind.
    std::fs::remove_file(dir.join("egaraguti-1v3.egt")).unwrap();
    std::fs::write(dir.join("egaraguti-2v3.partial"), b"cut short").unwrap();
    let output = build(&dir, MEN, &[]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let progress = text(&output.stderr);
    assert!(progress.contains("2v2: built already"), "{progress}");
    assert!(!progress.contains("3v1: built already"), "{progress}");
    assert_eq!(files(&dir), whole);
    // Built again, nothing is solved, and the summary says so.
    let again = build(&dir, MEN, &[]);
    let summary = text(&again.stdout);
    assert!(
        summary.starts_with("nothing to build: the ") && !summary.contains("-0.0"),
        "{summary}"
    );
    assert!(
        !text(&again.stderr).contains("left"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(files(&dir), whole);
    // A damaged table stops the build with the way on.
    std::fs::write(dir.join("egaraguti-2v2.egt"), b"ternEGT\0 but nothing more").unwrap();
    let damaged = build(&dir, MEN, &[]);
    assert_eq!(damaged.status.code(), Some(2));
    let error = text(&damaged.stderr);
    assert!(
        error.contains("egaraguti-2v2.egt is not a usable table")
            && error.contains("delete it and run the build again"),
        "{error}"
    );
    std::fs::remove_file(dir.join("egaraguti-2v2.egt")).unwrap();
    assert!(build(&dir, MEN, &[]).status.success());
    assert_eq!(files(&dir), whole);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn builds_on_any_number_of_threads_give_the_same_bytes_and_sums() {
    let sums = |dir: &Path| {
        let output = ternion(&[
            "tables",
            "sums",
            "egaraguti",
            "--dir",
            dir.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{}", text(&output.stderr));
        text(&output.stdout)
    };
    let shared = sums(tables_dir());
    // One line a file, fewest men first, as sha256sum writes them.
    let names: Vec<&str> = shared.lines().map(|l| &l[66..]).collect();
    assert_eq!(names.len(), files(tables_dir()).len());
    assert_eq!(
        &names[..3],
        [
            "egaraguti-1v1.egt",
            "egaraguti-2v1.egt",
            "egaraguti-1v2.egt"
        ]
    );
    assert!(shared.lines().all(|l| l.len() > 66
        && l[..64].bytes().all(|b| b.is_ascii_hexdigit())
        && &l[64..66] == "  "));
    for threads in ["1", "3"] {
        let dir = fresh_dir(&format!("threads-{threads}"));
        let output = build(&dir, "5", &["--threads", threads]);
        assert!(output.status.success(), "{}", text(&output.stderr));
        let own = sums(&dir);
        assert!(
            shared.starts_with(&own),
            "{threads} threads:\n{own}\nagainst\n{shared}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
    let empty = fresh_dir("sums-empty");
    let output = ternion(&[
        "tables",
        "sums",
        "egaraguti",
        "--dir",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("no tables in"));
    std::fs::remove_dir_all(&empty).unwrap();
}

#[test]
fn shards_of_the_top_level_add_up_to_the_whole() {
    let whole = files(tables_dir());
    let dir = fresh_dir("shards");
    // Without the lower tables a shard refuses to start.
    let output = build(&dir, MEN, &["--shard", "1/2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("build fewer men first"));
    assert!(build(&dir, "5", &[]).status.success());
    for shard in ["0/2", "1/2"] {
        let output = build(&dir, MEN, &["--shard", shard]);
        assert!(output.status.success(), "{}", text(&output.stderr));
    }
    assert_eq!(files(&dir), whole);
    for bad in ["2/2", "1", "a/b"] {
        let output = build(&dir, MEN, &["--shard", bad]);
        assert_eq!(output.status.code(), Some(2), "{bad}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn probe(fen: &str, moves: &[&str]) -> Output {
    let mut args = vec![
        "tables",
        "probe",
        "egaraguti",
        "--fen",
        fen,
        "--dir",
        tables_dir().to_str().unwrap(),
    ];
    if !moves.is_empty() {
        args.push("--moves");
        args.extend_from_slice(moves);
    }
    ternion(&args)
}

#[test]
fn the_probe_answers_the_rules_test_facts() {
    // Test fact 8: White's one capture takes all three black men.
    let output = probe("5/3/3/w/b1b/1b1/5 w 0 1", &[]);
    assert_eq!(
        text(&output.stdout),
        "win for the side to move, decided within 1 ply\n"
    );
    // The same position with the colours swapped and turned upside down.
    let output = probe("5/1w1/w1w/b/3/3/5 b 0 1", &[]);
    assert_eq!(
        text(&output.stdout),
        "win for the side to move, decided within 1 ply\n"
    );
    // After the capture the game is over.
    let output = probe("5/3/3/w/b1b/1b1/5 w 0 1", &["e4c2g2e4"]);
    assert_eq!(
        text(&output.stdout),
        "loss for the side to move: the game is over\n"
    );
    // Two men against one, the single man to move and no capture for it: the count wins.
    let output = probe("5/3/3/1/3/1w1/b3w b 0 1", &[]);
    assert!(text(&output.stdout).starts_with("loss for the side to move"));
}

#[test]
fn the_probe_refuses_what_it_cannot_answer() {
    let dir = tables_dir().to_str().unwrap();
    let cases: [&[&str]; 4] = [
        &["tables", "probe", "lielow", "--dir", dir],
        &["tables", "probe", "egaraguti", "--dir", dir],
        &[
            "tables",
            "probe",
            "egaraguti",
            "--fen",
            "5/3/3/x/3/3/5 w",
            "--dir",
            dir,
        ],
        &[
            "tables",
            "probe",
            "egaraguti",
            "--fen",
            "5/3/3/1/3/1w1/b3w b",
            "--dir",
            "/no/such/dir",
        ],
    ];
    for args in cases {
        let output = ternion(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = text(&output.stderr);
        assert_eq!(error.lines().count(), 1, "{error}");
        assert!(error.starts_with("ternion: "), "{error}");
    }
    // A directory that is not there is named as such.
    let error = text(&ternion(cases[3]).stderr);
    assert_eq!(error, "ternion: no directory /no/such/dir\n");
}

/// A position string of Egara-guti from the men of each side.
fn fen(white: u32, black: u32, black_to_move: bool) -> String {
    let ranks: Vec<String> = RANKS_TOP_DOWN
        .iter()
        .map(|rank| {
            let mut out = String::new();
            let mut empty = 0;
            for point in rank.clone() {
                let man = if white & (1 << point) != 0 {
                    Some('w')
                } else if black & (1 << point) != 0 {
                    Some('b')
                } else {
                    None
                };
                match man {
                    Some(c) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    format!(
        "{} {}",
        ranks.join("/"),
        if black_to_move { 'b' } else { 'w' }
    )
}

/// A random position of `white` and `black` men that is not over, Black to move or White.
fn random_position(rng: &mut fastrand::Rng, white: usize, black: usize) -> EgaraGuti {
    loop {
        let mut points: Vec<usize> = (0..POINTS).collect();
        rng.shuffle(&mut points);
        let set = |points: &[usize]| points.iter().fold(0u32, |s, &p| s | 1 << p);
        let text = fen(
            set(&points[..white]),
            set(&points[white..white + black]),
            rng.bool(),
        );
        let game = EgaraGuti::parse_position(&text).expect("a legal position");
        if game.outcome().is_none() {
            return game;
        }
    }
}

#[test]
fn every_win_the_search_proves_the_tables_know() {
    let tables = Tablebase::load_all(tables_dir()).unwrap();
    // Every table of 6 men or fewer: 1v1; 2v1 1v2; ...; 3v3 4v2 2v4 5v1 1v5.
    assert_eq!(tables.len(), 15);
    let mut rng = fastrand::Rng::with_seed(19);
    let mut searcher = Searcher::<EgaraGuti>::new(16);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    let mut proofs = 0;
    for round in 0..1000 {
        let (white, black) = [
            (1, 1),
            (2, 1),
            (1, 2),
            (2, 2),
            (3, 2),
            (2, 3),
            (3, 3),
            (4, 2),
        ][round % 8];
        let game = random_position(&mut rng, white, black);
        let probe = tables
            .probe(&game)
            .expect("every table up to 6 men is there");
        assert!(probe.exact, "at counter 0 the value is exact");
        let result = searcher.search(&game, &limits, &stop, &mut |_| {});
        if let Score::Mate(plies) = result.score {
            proofs += 1;
            let proven = if plies > 0 { Wdl::Win } else { Wdl::Loss };
            assert_eq!(probe.value, proven, "{}", game.position_string());
            // The tables' distance to the deciding capture is never longer than the win
            // the search found (that capture ends the level, if not yet the game).
            assert!(
                probe.distance.unwrap() as i32 <= plies.abs(),
                "{}",
                game.position_string()
            );
        }
    }
    assert!(
        proofs >= 60,
        "only {proofs} proofs: the test tests too little"
    );
}

/// `go depth <depth>`.
fn go_depth(depth: u32) -> Protocol {
    Protocol::Go(GoCommand {
        depth: Some(depth),
        ..GoCommand::default()
    })
}

#[test]
fn the_search_plays_the_tables_best_move_through_the_protocol() {
    // Three men each; White to move wins, its deciding capture 14 plies away.
    let start = "5/1b1/b2/1/3/1w1/w1b1w w 0 1";
    assert_eq!(
        text(&probe(start, &[]).stdout),
        "win for the side to move, decided within 14 plies\n"
    );
    let mut engine = Engine::start(&[]);
    engine.send("setoption name UCI_Variant value egaraguti");
    engine.send(&format!(
        "setoption name TablePath value {}",
        tables_dir().display()
    ));
    engine.send("setoption name TablePath value /no/such/dir");
    let error = engine.lines_until("info string error");
    assert!(
        error
            .last()
            .unwrap()
            .starts_with("info string error bad-option-value: TablePath /no/such/dir"),
        "{error:?}"
    );
    // A damaged table and an empty directory are refused too; the tables set before stay.
    let damaged = fresh_dir("damaged");
    std::fs::write(
        damaged.join("egaraguti-1v1.egt"),
        b"ternEGT\0 but nothing more",
    )
    .unwrap();
    let empty = fresh_dir("empty");
    for (dir, reason) in [
        (&damaged, "not a usable table"),
        (&empty, "no tables there"),
    ] {
        engine.send(&format!("setoption name TablePath value {}", dir.display()));
        let error = engine.lines_until("info string error");
        assert!(error.last().unwrap().contains(reason), "{error:?}");
    }
    std::fs::remove_dir_all(&damaged).unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
    let mut moves: Vec<String> = Vec::new();
    // Play the winning side's moves from the engine and check each keeps the win and
    // comes one ply nearer the capture; the defender's from the tables too.
    for ply in 0..6 {
        engine.command(&Protocol::Position(PositionCommand {
            variant: None,
            fen: Some(start.to_owned()),
            moves: moves.clone(),
        }));
        engine.command(&go_depth(3));
        let replies = engine.replies_until(Reply::is_best_move);
        let hits = replies.iter().rev().find_map(|reply| match reply {
            Reply::Info(info) if info.depth.is_some() => info.tbhits,
            _ => None,
        });
        assert!(hits.is_some_and(|hits| hits > 0), "{replies:?}");
        let Some(Reply::BestMove {
            best: Some(best), ..
        }) = replies.last()
        else {
            panic!("no move in {replies:?}");
        };
        moves.push(best.clone());
        let played: Vec<&str> = moves.iter().map(String::as_str).collect();
        let answer = text(&probe(start, &played).stdout);
        let expected = if ply % 2 == 0 { "loss" } else { "win" };
        assert!(
            answer.starts_with(&format!(
                "{expected} for the side to move, decided within {} plies",
                13 - ply
            )),
            "after {played:?}: {answer}"
        );
    }
    engine.send("setoption name TablePath value <empty>");
    engine.send(&format!("position fen {start}"));
    engine.command(&go_depth(3));
    let replies = engine.replies_until(Reply::is_best_move);
    assert!(
        replies
            .iter()
            .all(|reply| !matches!(reply, Reply::Info(info) if info.tbhits.is_some())),
        "{replies:?}"
    );
    engine.quit();
}

#[test]
fn relabelling_gives_solved_positions_the_tables_result() {
    let reference = Tablebase::load_all(tables_dir()).unwrap();
    let mut rng = fastrand::Rng::with_seed(23);
    let mut data = String::new();
    let mut expected = Vec::new();
    for round in 0..200 {
        // 4+4 men have no table here: those lines keep their game's result.
        let (white, black) = [(1, 2), (3, 3), (2, 4), (4, 4)][round % 4];
        let game = random_position(&mut rng, white, black);
        let position = game.position_string();
        let played = ["0", "0.5", "1"][round % 3];
        data.push_str(&format!("{played} {position}\n"));
        let truth = (white + black <= 6).then(|| {
            let value = reference.probe(&game).unwrap().value;
            let for_first = if game.side_to_move() == Player::P1 {
                value
            } else {
                value.flipped()
            };
            match for_first {
                Wdl::Win => "1",
                Wdl::Draw => "0.5",
                Wdl::Loss => "0",
            }
        });
        expected.push(format!("{} {position}", truth.unwrap_or(played)));
    }
    let mut tables = Tablebase::new(tables_dir());
    let (relabelled, count) = relabel_all(&mut tables, "data", &data).unwrap();
    assert_eq!(relabelled.lines().collect::<Vec<_>>(), expected);
    assert_eq!((count.lines, count.solved), (200, 150));
    let changed = data
        .lines()
        .zip(&expected)
        .filter(|(before, after)| before != after)
        .count();
    assert_eq!(count.changed, changed);
    assert!(changed > 50, "the wrong results were put right: {changed}");
    // Not data: refused with the line.
    let error = relabel_all(&mut tables, "x.txt", "draw 5/3/3/1/3/1w1/b3w b 0 1").unwrap_err();
    assert!(error.starts_with("x.txt:1: not a result: draw"), "{error}");
}

#[test]
fn tune_fits_to_the_tables_results() {
    let dir = fresh_dir("tune-data");
    let data = dir.join("data.txt");
    let mut rng = fastrand::Rng::with_seed(5);
    // Every game "drawn": only the tables say who wins.
    let lines: String = (0..400)
        .map(|i| {
            let (white, black) = [(1, 2), (2, 1), (2, 3), (3, 2)][i % 4];
            format!(
                "0.5 {}\n",
                random_position(&mut rng, white, black).position_string()
            )
        })
        .collect();
    std::fs::write(&data, lines).unwrap();
    let data = data.to_str().unwrap();
    let tables = tables_dir().to_str().unwrap();
    let args = [
        "tune",
        "egaraguti",
        "--data",
        data,
        "--iterations",
        "50",
        "--tables",
        tables,
    ];
    let output = ternion(&args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("400 of 400 positions solved by the tables"),
        "{stderr}"
    );
    assert!(text(&output.stdout).contains("pub const WEIGHTS"));
    // Only Egara-guti has tables.
    let output = ternion(&["tune", "lielow", "--data", data, "--tables", tables]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("has no tables"));
}

#[test]
fn tune_reads_what_selfplay_and_tables_data_write() {
    // The files the commands write, with the search's score after ` ; `, not lines made for
    // the test: the tables relabel them and the fit reads them.
    let dir = fresh_dir("tune-written");
    let labelled = dir.join("labelled.txt");
    let played = dir.join("played.txt");
    let tables = path_str(tables_dir());
    let output = ternion(&[
        "tables",
        "data",
        "egaraguti",
        "--dir",
        tables,
        "--positions",
        "20",
        "--out",
        path_str(&labelled),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let output = ternion(&[
        "selfplay",
        "egaraguti",
        "--games",
        "2",
        "--nodes",
        "200",
        "--out",
        path_str(&played),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    for file in [&labelled, &played] {
        let written = std::fs::read_to_string(file).unwrap();
        assert!(
            written.lines().all(|line| line.contains(" ; ")),
            "{written}"
        );
        let output = ternion(&[
            "tune",
            "egaraguti",
            "--data",
            path_str(file),
            "--iterations",
            "5",
            "--tables",
            tables,
        ]);
        let error = text(&output.stderr);
        assert!(output.status.success(), "{}: {error}", file.display());
        assert!(error.contains("positions solved by the tables"), "{error}");
        assert!(text(&output.stdout).contains("pub const WEIGHTS"));
    }
}

#[test]
fn verify_finds_the_tables_right_and_a_changed_entry_wrong() {
    let verify_with = |dir: &Path, how: &[&str]| {
        let mut args = vec![
            "tables",
            "verify",
            "egaraguti",
            "--dir",
            dir.to_str().unwrap(),
        ];
        args.extend_from_slice(how);
        ternion(&args)
    };
    let verify = |dir: &Path| verify_with(dir, &["--samples", "100000"]);
    let everything = |dir: &Path| verify_with(dir, &["--all", "--threads", "3"]);
    let output = verify(tables_dir());
    let report = text(&output.stdout);
    assert!(output.status.success(), "{report}{}", text(&output.stderr));
    // Every level up to 6 men, each position checked (the tables are small).
    assert_eq!(
        report.lines().filter(|l| l.contains(" checked (")).count(),
        9,
        "{report}"
    );
    assert!(report.ends_with(" 0 disagreements\n"), "{report}");
    // The check of every position, shared out between threads, checks every canonical
    // entry of every table.
    let output = everything(tables_dir());
    let all = text(&output.stdout);
    assert!(output.status.success(), "{all}{}", text(&output.stderr));
    let canonical: u64 = std::fs::read_dir(tables_dir())
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let (mover, other) = name
                .strip_prefix("egaraguti-")?
                .strip_suffix(".egt")?
                .split_once('v')?;
            let material = Material {
                mover: mover.parse().ok()?,
                other: other.parse().ok()?,
            };
            let table = Table::read(tables_dir(), material).unwrap().unwrap();
            Some(
                (0..table.entries())
                    .filter(|&i| table.value_at(i).is_some())
                    .count() as u64,
            )
        })
        .sum();
    assert!(
        all.ends_with(&format!(
            "9 levels, {canonical} positions checked, 0 disagreements\n"
        )),
        "{canonical}: {all}"
    );
    // From a number of men on: the three levels of 6 men alone, every position of each.
    let output = verify_with(tables_dir(), &["--all", "--from-men", "6"]);
    let from_six = text(&output.stdout);
    assert!(output.status.success(), "{from_six}");
    let levels: Vec<&str> = from_six
        .lines()
        .filter(|l| l.contains(" checked ("))
        .collect();
    assert_eq!(levels.len(), 3, "{from_six}");
    for level in ["3v3", "4v2", "5v1"] {
        assert!(
            levels.iter().any(|l| l.starts_with(&format!("{level}: "))),
            "{from_six}"
        );
    }
    // The docs' table of the check, from both runs: a row a level (the levels of 6 men,
    // checked twice, keep their last line), and the whole set's count in the last row.
    let dir = fresh_dir("verify-table");
    let runs = [("all.txt", &all), ("from-six.txt", &from_six)].map(|(name, output)| {
        let file = dir.join(name);
        std::fs::write(&file, output).unwrap();
        file
    });
    let output = std::process::Command::new(format!(
        "{}/scripts/egaraguti-verify.sh",
        env!("CARGO_MANIFEST_DIR")
    ))
    .args(&runs)
    .output()
    .expect("the script runs");
    let table = text(&output.stdout);
    assert!(output.status.success(), "{table}{}", text(&output.stderr));
    let rows: Vec<&str> = table.lines().skip(2).collect();
    assert_eq!(rows.len(), 10, "{table}");
    assert!(rows.iter().any(|r| r.starts_with("| 3+3 | ")), "{table}");
    let with_commas = canonical
        .to_string()
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|digits| std::str::from_utf8(digits).unwrap())
        .collect::<Vec<_>>()
        .join(",");
    assert!(
        rows[9].starts_with(&format!("| all 9 levels | {with_commas} | 0 | ")),
        "{with_commas}: {table}"
    );
    for bad in [
        &["--all", "--samples", "5"][..],
        &["--threads", "2"],
        &["--all", "--threads", "0"],
        &["--from-men", "1"],
    ] {
        assert_eq!(
            verify_with(tables_dir(), bad).status.code(),
            Some(2),
            "{bad:?}"
        );
    }

    // One entry changed, and the file written whole again (a good checksum): the check
    // of the rules, not the checksum, must catch it.
    let dir = fresh_dir("verify-changed");
    for (name, bytes) in files(tables_dir()) {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    // The side behind, to move, wins by force in 3 plies or more (no capture at once).
    let material = Material { mover: 2, other: 3 };
    let mut table = Table::read(&dir, material).unwrap().unwrap();
    let index = (0..table.entries())
        .find(|&i| {
            table.value_at(i) == Some(Wdl::Win) && table.distance_at(i).is_some_and(|d| d >= 3)
        })
        .expect("a forced win of the side behind among 2v3");
    table.set(index, Wdl::Draw, 0);
    table.write(&dir).unwrap();
    let output = verify(&dir);
    let report = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{report}");
    let level = report
        .lines()
        .find(|l| l.starts_with("3v2: "))
        .unwrap_or_default();
    assert!(!level.contains(" 0 disagreements"), "{report}");
    assert!(report.contains("stored draw in 0"), "{report}");
    let output = everything(&dir);
    let all = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{all}");
    assert!(all.contains("stored draw in 0"), "{all}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_set_with_a_hole_is_refused_at_every_door() {
    // A small build with its 3v3 level deleted (a forgotten shard of the top level) and,
    // in a second copy, a lower table deleted too.
    let holed = fresh_dir("holed");
    for (name, bytes) in files(tables_dir()) {
        std::fs::write(holed.join(name), bytes).unwrap();
    }
    std::fs::remove_file(holed.join("egaraguti-3v3.egt")).unwrap();
    let deeper = fresh_dir("holed-deeper");
    for (name, bytes) in files(&holed) {
        std::fs::write(deeper.join(name), bytes).unwrap();
    }
    std::fs::remove_file(deeper.join("egaraguti-1v2.egt")).unwrap();
    let files_dir = fresh_dir("holed-inputs");
    let (record_file, data_file) = (files_dir.join("records.txt"), files_dir.join("data.txt"));
    let fen = "5/3/3/w/b1b/1b1/5 w 0 1";
    std::fs::write(&record_file, records(&[(fen, "e4c2g2e4", "p1win")])).unwrap();
    std::fs::write(&data_file, format!("1 {fen}\n")).unwrap();
    for (dir, named) in [
        (&holed, "3v3 missing (1 table)"),
        (&deeper, "1v2, 3v3 missing (2 tables)"),
    ] {
        let dir_text = dir.to_str().unwrap();
        let doors: [Vec<&str>; 5] = [
            vec!["tables", "verify", "egaraguti", "--dir", dir_text],
            vec![
                "tables",
                "line",
                "egaraguti",
                "--fen",
                fen,
                "--dir",
                dir_text,
            ],
            vec![
                "tables",
                "audit",
                "egaraguti",
                "--dir",
                dir_text,
                "--records",
                record_file.to_str().unwrap(),
                "--player",
                "with tables",
            ],
            vec![
                "analyze",
                "egaraguti",
                "--fen",
                fen,
                "--depth",
                "2",
                "--tables",
                dir_text,
            ],
            vec![
                "tune",
                "egaraguti",
                "--data",
                data_file.to_str().unwrap(),
                "--tables",
                dir_text,
            ],
        ];
        for args in doors {
            let output = ternion(&args);
            let error = text(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {error}");
            assert!(
                error.contains(&format!("have a hole: {named}")) && error.lines().count() == 1,
                "{args:?}: {error}"
            );
            assert!(text(&output.stdout).is_empty(), "{args:?}");
        }
    }
    // The protocol refuses the set with the same line and keeps the tables it had.
    let mut engine = Engine::start(&[]);
    engine.send("setoption name UCI_Variant value egaraguti");
    engine.send(&format!(
        "setoption name TablePath value {}",
        tables_dir().display()
    ));
    engine.send(&format!(
        "setoption name TablePath value {}",
        holed.display()
    ));
    let error = engine.lines_until("info string error");
    assert!(
        error.last().unwrap().contains("have a hole: 3v3 missing"),
        "{error:?}"
    );
    engine.send("position fen 5/1b1/b2/1/3/1w1/w1b1w w 0 1");
    engine.command(&go_depth(3));
    let replies = engine.replies_until(Reply::is_best_move);
    assert!(
        replies
            .iter()
            .any(|reply| matches!(reply, Reply::Info(info) if info.tbhits.is_some_and(|h| h > 0))),
        "the whole set stays after the refusal: {replies:?}"
    );
    engine.quit();
    for dir in [holed, deeper, files_dir] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn mapped_tables_probe_and_search_as_tables_read_into_memory() {
    let in_memory = Tablebase::load_all_keeping(tables_dir(), Residence::Memory).unwrap();
    let mapped = Tablebase::load_all_keeping(tables_dir(), Residence::Mapped).unwrap();
    let mut rng = fastrand::Rng::with_seed(23);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let searcher = |home: Residence| {
        let mut searcher = Searcher::<EgaraGuti>::new(4);
        let tables = Tablebase::load_all_keeping(tables_dir(), home).unwrap();
        let oracle: Arc<dyn Oracle<EgaraGuti>> = Arc::new(tables);
        searcher.set_oracle(Some(oracle));
        searcher
    };
    let (mut first, mut second) = (searcher(Residence::Memory), searcher(Residence::Mapped));
    for round in 0..300 {
        let (white, black) = [(2, 2), (3, 2), (2, 3), (3, 3), (4, 2)][round % 5];
        let game = random_position(&mut rng, white, black);
        assert_eq!(
            in_memory.probe(&game),
            mapped.probe(&game),
            "{}",
            game.position_string()
        );
        if round % 10 == 0 {
            let a = first.search(&game, &limits, &stop, &mut |_| {});
            let b = second.search(&game, &limits, &stop, &mut |_| {});
            assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
        }
    }
}

#[test]
fn the_line_values_every_move_and_plays_to_the_result_the_probe_gives() {
    let dir = tables_dir().to_str().unwrap();
    // Test fact 8: White's one capture takes all three black men and wins at once.
    let output = ternion(&[
        "tables",
        "line",
        "egaraguti",
        "--fen",
        "5/3/3/w/b1b/1b1/5 w 0 1",
        "--dir",
        dir,
    ]);
    let out = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "win for the side to move, decided within 1 ply");
    assert_eq!(lines[1], "move e4c2g2e4 win in 1 ply", "{out}");
    assert_eq!(lines[lines.len() - 2], "line e4c2g2e4");
    assert_eq!(lines[lines.len() - 1], "result p1win after 1 ply");
    // A finished game: line says what probe says, then an empty line and its result.
    let over = [
        "--fen",
        "5/3/3/w/b1b/1b1/5 w 0 1",
        "--moves",
        "e4c2g2e4",
        "--dir",
        dir,
    ];
    let probed = text(&ternion(&[&["tables", "probe", "egaraguti"][..], &over].concat()).stdout);
    let output = ternion(&[&["tables", "line", "egaraguti"][..], &over].concat());
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        format!("{probed}line \nresult p1win after 0 plies\n")
    );
    // A table not there is named alike by both.
    let empty = fresh_dir("no-tables-here");
    std::fs::write(empty.join("readme"), "not a table").unwrap();
    let missing = [
        "--fen",
        "5/3/3/w/b1b/1b1/5 w 0 1",
        "--dir",
        empty.to_str().unwrap(),
    ];
    let errors: Vec<String> = ["probe", "line"]
        .map(|command| {
            text(&ternion(&[&["tables", command, "egaraguti"][..], &missing].concat()).stderr)
        })
        .to_vec();
    assert_eq!(errors[0], errors[1]);
    // Seeded positions of up to 6 men: the line ends as the probe says for the side to
    // move, and every legal move is listed.
    let mut rng = fastrand::Rng::with_seed(11);
    for (white, black) in [(3, 3), (2, 3), (4, 2)] {
        for _ in 0..3 {
            let game = random_position(&mut rng, white, black);
            let fen = game.position_string();
            let value = text(&probe(&fen, &[]).stdout);
            let value = value.split(' ').next().unwrap().to_owned();
            let output = ternion(&["tables", "line", "egaraguti", "--fen", &fen, "--dir", dir]);
            let out = text(&output.stdout);
            assert!(output.status.success(), "{fen}: {}", text(&output.stderr));
            let moves = out.lines().filter(|l| l.starts_with("move ")).count();
            assert_eq!(moves, common::legal_move_strings(&game).len(), "{out}");
            let result = out.lines().last().unwrap().split(' ').nth(1).unwrap();
            let mover = if game.side_to_move() == Player::P1 {
                "p1win"
            } else {
                "p2win"
            };
            let expected = match value.as_str() {
                "win" => mover.to_owned(),
                "draw" => "draw".to_owned(),
                _ => if mover == "p1win" { "p2win" } else { "p1win" }.to_owned(),
            };
            assert_eq!(result, expected, "{fen}\n{out}");
        }
    }
}

/// A records file of one game per (start, moves, result), the audited player as P1.
fn records(games: &[(&str, &str, &str)]) -> String {
    let mut text = String::new();
    for (number, (start, moves, result)) in games.iter().enumerate() {
        text.push_str(&format!(
            "[Game \"{}\"]\n[Variant \"egaraguti\"]\n[P1 \"ternion (with tables)\"]\n[P2 \"ternion (without)\"]\n[Opening \"\"]\n[Start \"{start}\"]\n[Result \"{result}\"]\n[Reason \"rules\"]\n[Final \"-\"]\n[Plies \"0\"]\n{moves}\n\n",
            number + 1
        ));
    }
    text
}

#[test]
fn the_audit_passes_perfect_play_and_names_a_move_that_gives_value_away() {
    let dir = tables_dir().to_str().unwrap();
    let file = fresh_dir("audit").join("records.txt");
    let audit = |text: &str| {
        std::fs::write(&file, text).unwrap();
        ternion(&[
            "tables",
            "audit",
            "egaraguti",
            "--dir",
            dir,
            "--records",
            file.to_str().unwrap(),
            "--player",
            "with tables",
        ])
    };
    // Test fact 8: the one capture wins at once.
    let output = audit(&records(&[(
        "5/3/3/w/b1b/1b1/5 w 0 1",
        "e4c2g2e4",
        "p1win",
    )]));
    let out = text(&output.stdout);
    assert!(output.status.success(), "{out}{}", text(&output.stderr));
    assert!(
        out.starts_with("game 1: p1 started win, won the game; 1 moves checked, 0 unknown\n"),
        "{out}"
    );
    assert!(
        out.contains("1 games, W/D/L 1/0/0 for the audited player; from won starts 1/0/0"),
        "{out}"
    );
    // Records of another game are named as such.
    let lielow = records(&[("5/3/3/w/b1b/1b1/5 w 0 1", "e4c2g2e4", "p1win")])
        .replace("[Variant \"egaraguti\"]", "[Variant \"lielow\"]");
    let output = audit(&lielow);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("game 1: a game of lielow, not egaraguti"),
        "{}",
        text(&output.stderr)
    );
    // A position where some first move is worse than the best: playing it is named.
    let mut rng = fastrand::Rng::with_seed(5);
    let (fen, worse, best, worst) = loop {
        let game = random_position(&mut rng, 3, 3);
        if game.side_to_move() != Player::P1 {
            continue; // the audited player is P1: its move first
        }
        let fen = game.position_string();
        let line =
            text(&ternion(&["tables", "line", "egaraguti", "--fen", &fen, "--dir", dir]).stdout);
        let values: Vec<(String, String)> = line
            .lines()
            .filter_map(|l| l.strip_prefix("move "))
            .map(|l| {
                let mut words = l.split(' ');
                (
                    words.next().unwrap().to_owned(),
                    words.next().unwrap().to_owned(),
                )
            })
            .collect();
        let rank = |v: &str| {
            ["loss", "draw", "win"]
                .iter()
                .position(|w| *w == v)
                .unwrap()
        };
        let best = values.iter().map(|(_, v)| rank(v)).max().unwrap();
        if let Some((mv, v)) = values.iter().find(|(_, v)| rank(v) < best) {
            break (fen, mv.clone(), ["loss", "draw", "win"][best], v.clone());
        }
    };
    let output = audit(&records(&[(&fen, &worse, "p2win")]));
    let out = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{out}");
    assert_eq!(
        text(&output.stderr),
        "ternion: the audited player gave value away\n"
    );
    assert!(
        out.contains(&format!("; ply 1 {worse} {worst} where {best} was there")),
        "{out}"
    );
    assert!(out.contains("1 gave value away"), "{out}");
}

/// `query tables` against `tables line`: the position's value, and every legal move with
/// its value and distance, best first; `TablePlay` plays the tables' first move at once,
/// but not in analysis; without tables, or in another game, the answer is `none`.
#[test]
fn the_protocol_shows_each_moves_value_and_plays_from_the_tables() {
    let start = "5/1b1/b2/1/3/1w1/w1b1w w 0 1";
    let dir = tables_dir().to_str().unwrap();
    let line =
        text(&ternion(&["tables", "line", "egaraguti", "--dir", dir, "--fen", start]).stdout);
    let expected: Vec<String> = (line.lines())
        .filter_map(|l| l.strip_prefix("move "))
        .map(|l| {
            l.replace(" in ", " ")
                .replace(" plies", "")
                .replace(" ply", "")
        })
        .collect();
    let first = line.lines().find_map(|l| l.strip_prefix("line ")).unwrap();
    let first = first.split(' ').next().unwrap();
    let mut engine = Engine::start(&[]);
    engine.send("setoption name UCI_Variant value egaraguti");
    engine.send(&format!("position fen {start}"));
    engine.send("query tables");
    assert_eq!(
        engine.lines_until("response").last().unwrap(),
        "response none"
    );
    engine.send(&format!(
        "setoption name TablePath value {}",
        tables_dir().display()
    ));
    engine.send("query tables");
    let answer = engine.lines_until("response").pop().unwrap();
    let words: Vec<&str> = answer.split(' ').collect();
    assert_eq!(&words[..3], ["response", "win", "14"], "{answer}");
    let shown: Vec<String> = words[3..].chunks(3).map(|m| m.join(" ")).collect();
    let mut sorted = shown.clone();
    sorted.sort();
    let mut given = expected.clone();
    given.sort();
    assert_eq!(sorted, given, "{answer}\n{line}");
    assert!(shown[0].starts_with(&format!("{first} win ")), "{answer}");
    let rank = |m: &String| match m.split(' ').nth(1) {
        Some("win") => 2,
        Some("draw") => 1,
        _ => 0,
    };
    assert!(
        shown.windows(2).all(|p| rank(&p[0]) >= rank(&p[1])),
        "{answer}"
    );

    // Played from the tables: no search, the tables' first move.
    engine.send("setoption name TablePlay value true");
    engine.command(&go_depth(6));
    let replies = engine.lines_until("bestmove");
    assert_eq!(replies.last().unwrap(), &format!("bestmove {first}"));
    let info = replies
        .iter()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(
        info.contains(" nodes 0 ") && info.contains(" tbhits 1 "),
        "{info}"
    );
    // Analysis searches even so.
    engine.send("go infinite");
    engine.lines_until("info depth 2 ");
    engine.send("stop");
    engine.lines_until("bestmove");
    // Another game has no tables to show.
    engine.send("setoption name UCI_Variant value lielow");
    engine.send("query tables");
    assert_eq!(
        engine.lines_until("response").last().unwrap(),
        "response none"
    );
    engine.quit();
}

#[test]
fn a_network_taught_by_the_tables_keeps_values_the_terms_give_away() {
    let dir = tables_dir();
    let scratch = fresh_dir("teach");
    let data = scratch.join("data.txt");
    let output = ternion(&[
        "tables",
        "data",
        "egaraguti",
        "--dir",
        path_str(dir),
        "--positions",
        "2000",
        "--seed",
        "1",
        "--out",
        path_str(&data),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let lines = std::fs::read_to_string(&data).unwrap();
    // Every level of the set, 2,000 positions each, labelled from the first player's side.
    let levels = text(&output.stderr)
        .lines()
        .filter(|l| l.contains(": 2000 positions"))
        .count();
    assert_eq!(levels, 9, "{}", text(&output.stderr));
    assert_eq!(lines.lines().count(), 9 * 2000);
    assert!(
        lines
            .lines()
            .all(|l| ["1 ", "0.5 ", "0 "].iter().any(|r| l.starts_with(r)))
    );

    let network = scratch.join("taught.nnue");
    let output = ternion(&[
        "train",
        "egaraguti",
        "--data",
        path_str(&data),
        "--out",
        path_str(&network),
        "--hidden",
        "16",
        "--epochs",
        "8",
        "--batch",
        "256",
        "--hold-out-block",
        "512",
        "--scale",
        "400",
        "--threads",
        "1",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stderr).contains("scale K = 400"),
        "{}",
        text(&output.stderr)
    );

    let output = ternion(&[
        "tables",
        "one-ply",
        "egaraguti",
        "--dir",
        path_str(dir),
        "--positions",
        "500",
        "--seed",
        "2",
        "--eval-file",
        path_str(&network),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    let all: Vec<f64> = (out.lines().find(|l| l.trim_start().starts_with("all ")))
        .expect("a total row")
        .split_whitespace()
        .skip(3)
        .map(|share| share.parse().unwrap())
        .collect();
    // The share of positions where some move gives the value away whose one-ply choice
    // keeps it: the network, taught by these tables, well above the hand-written terms.
    let (terms, taught) = (all[0], all[1]);
    assert!(
        taught >= terms + 10.0,
        "terms {terms}%, network {taught}%\n{out}"
    );

    // Another game's network is refused with one line.
    let foreign = ternion(&[
        "tables",
        "one-ply",
        "egaraguti",
        "--dir",
        path_str(dir),
        "--eval-file",
        "src/games/lielow/lielow.nnue",
    ]);
    assert!(!foreign.status.success());
    assert!(text(&foreign.stderr).contains("a network of lielow, not of egaraguti"));
    std::fs::remove_dir_all(&scratch).ok();
}

/// The positions a comparison's last line says it compared.
fn compared_in(out: &str) -> u64 {
    let last = out.lines().last().unwrap_or_default();
    last.split(' ')
        .nth(2)
        .and_then(|n| n.parse().ok())
        .expect(out)
}

/// The total bytes of the table files in `dir`.
fn bytes_of(dir: &Path) -> usize {
    files(dir).iter().map(|(_, bytes)| bytes.len()).sum()
}

#[test]
fn a_compact_set_answers_every_position_as_the_packed_one() {
    let packed = tables_dir();
    let compact = fresh_dir("compact");
    let output = ternion(&[
        "tables",
        "compact",
        "egaraguti",
        "--dir",
        path_str(packed),
        "--out",
        path_str(&compact),
        "--threads",
        "2",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    let total = out.lines().last().unwrap();
    assert!(total.starts_with("all 15 tables, "), "{out}");
    assert_eq!(text(&output.stderr).lines().count(), 15);
    // Far smaller, though these small levels capture less often than the large ones.
    let (before, after) = (bytes_of(packed), bytes_of(&compact));
    assert!(after * 5 < before, "{after} bytes against {before}");

    // Every canonical position of every table, compared by the command.
    let compare_with = |with: &Path, more: &[&str]| {
        let mut args = vec![
            "tables",
            "compare",
            "egaraguti",
            "--dir",
            path_str(packed),
            "--with",
            path_str(with),
        ];
        args.extend_from_slice(more);
        ternion(&args)
    };
    let compare = |with: &Path| compare_with(with, &["--threads", "2"]);
    let output = compare(&compact);
    let out = text(&output.stdout);
    assert!(output.status.success(), "{out}{}", text(&output.stderr));
    assert_eq!(out.lines().count(), 16, "{out}");
    assert!(
        out.lines().all(|l| l.contains(", 0 disagreements")),
        "{out}"
    );
    let compared = compared_in(&out);
    // As many as the packed tables' canonical entries (those with a value).
    let positions: u64 = Tablebase::load_all(packed)
        .unwrap()
        .tables()
        .map(|t| {
            (0..t.entries())
                .filter(|&i| t.value_at(i).is_some())
                .count() as u64
        })
        .sum();
    assert_eq!(compared, positions, "{out}");

    // From a number of men on: the levels of 6 men alone (3v3, 4v2, 2v4, 5v1, 1v5).
    let output = compare_with(&compact, &["--from-men", "6"]);
    let out = text(&output.stdout);
    assert!(output.status.success(), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("5 tables, "),
        "{out}"
    );

    // The stored entries alone: the positions without a capture, fewer than all, and the
    // same in both forms.
    let output = compare_with(&compact, &["--stored"]);
    let out = text(&output.stdout);
    assert!(output.status.success(), "{out}");
    let stored = compared_in(&out);
    assert!(
        stored > 0 && stored < positions / 2,
        "{stored} of {positions}"
    );

    // Named tables alone, each once, fewest men first whatever the order they are given in.
    let output = compare_with(&compact, &["--table", "2v4", "--table", "3v2"]);
    let out = text(&output.stdout);
    assert!(output.status.success(), "{out}");
    let names: Vec<&str> = out.lines().map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(names[..2], ["3v2", "2v4"], "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("2 tables, "),
        "{out}"
    );
    // A table the sets lack, or a name that is no table, is refused with one line.
    for (table, error) in [
        ("4v3", "4v3 is not in both sets"),
        ("12v1", "'12v1' is not a table"),
        ("3+3", "'3+3' is not a table"),
    ] {
        let output = compare_with(&compact, &["--table", table]);
        assert!(!output.status.success(), "{table}");
        assert!(output.stdout.is_empty(), "{table}");
        assert!(
            text(&output.stderr).contains(error),
            "{}",
            text(&output.stderr)
        );
    }

    // The engine's probes and searches read the same through either form.
    let (a, b) = (
        Tablebase::load_all(packed).unwrap(),
        Tablebase::load_all(&compact).unwrap(),
    );
    assert!(b.tables().all(|t| t.is_compact() && t.is_mapped()));
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let searcher = |dir: &Path| {
        let mut searcher = Searcher::<EgaraGuti>::new(4);
        let oracle: Arc<dyn Oracle<EgaraGuti>> = Arc::new(Tablebase::load_all(dir).unwrap());
        searcher.set_oracle(Some(oracle));
        searcher
    };
    let (mut first, mut second) = (searcher(packed), searcher(&compact));
    let mut rng = fastrand::Rng::with_seed(29);
    for round in 0..300 {
        let (white, black) = [(2, 2), (3, 2), (2, 3), (3, 3), (4, 2)][round % 5];
        let game = random_position(&mut rng, white, black);
        let fen = game.position_string();
        assert_eq!(a.probe(&game), b.probe(&game), "{fen}");
        if round % 10 == 0 {
            let x = first.search(&game, &limits, &stop, &mut |_| {});
            let y = second.search(&game, &limits, &stop, &mut |_| {});
            assert_eq!(
                (x.best, x.score, x.nodes),
                (y.best, y.score, y.nodes),
                "{fen}"
            );
            let line = |dir: &Path| {
                text(
                    &ternion(&[
                        "tables",
                        "line",
                        "egaraguti",
                        "--fen",
                        &fen,
                        "--dir",
                        path_str(dir),
                    ])
                    .stdout,
                )
            };
            assert_eq!(line(packed), line(&compact), "{fen}");
        }
    }

    // Both forms time alike: a line a table and the mean; a search's probes replayed.
    let bench = |dir: &Path, more: &[&str]| {
        let mut args = vec!["tables", "bench", "egaraguti", "--dir", path_str(dir)];
        args.extend_from_slice(more);
        ternion(&args)
    };
    for dir in [packed, compact.as_path()] {
        let output = bench(dir, &["--positions", "2000"]);
        let out = text(&output.stdout);
        assert!(output.status.success(), "{}", text(&output.stderr));
        assert_eq!(out.lines().count(), 16, "{out}");
        assert!(
            out.lines().last().unwrap().starts_with("15 tables, "),
            "{out}"
        );
        let fen = "5/3/1w1/1/3/ww1/bb1bb b 0 1";
        let output = bench(dir, &["--search-nodes", "20000", "--fen", fen]);
        let out = text(&output.stdout);
        assert!(output.status.success(), "{}", text(&output.stderr));
        let probes: u64 = out.split(' ').nth(5).unwrap().parse().unwrap();
        assert!(
            out.starts_with("a search of 20000 nodes: ") && probes > 0,
            "{out}"
        );
    }
    let output = bench(packed, &["--search-nodes", "10", "--fen", "nonsense"]);
    assert!(
        text(&output.stderr).starts_with("ternion: bad position"),
        "{}",
        text(&output.stderr)
    );

    // A compact set is for probes: the build's checks read the packed one.
    let output = ternion(&["tables", "verify", "egaraguti", "--dir", path_str(&compact)]);
    let error = text(&output.stderr);
    assert!(!output.status.success());
    assert!(error.contains("it is compact, for probes only"), "{error}");
    assert_eq!(error.lines().count(), 1, "{error}");
    let again = fresh_dir("compact-again");
    let output = ternion(&[
        "tables",
        "compact",
        "egaraguti",
        "--dir",
        path_str(&compact),
        "--out",
        path_str(&again),
    ]);
    assert!(
        text(&output.stderr).contains("is compact already"),
        "{}",
        text(&output.stderr)
    );

    // A damaged stream is found by the comparison; a file cut short is refused.
    let damaged = fresh_dir("compact-damaged");
    for (name, bytes) in files(&compact) {
        std::fs::write(damaged.join(name), bytes).unwrap();
    }
    let largest = damaged.join("egaraguti-3v3.egt");
    let mut bytes = std::fs::read(&largest).unwrap();
    let length = bytes.len();
    for at in (length / 8..length * 7 / 8).step_by(length / 20) {
        bytes[at] ^= 0x5a;
    }
    std::fs::write(&largest, &bytes).unwrap();
    for more in [&["--threads", "2"][..], &["--stored", "--table", "3v3"]] {
        let output = compare_with(&damaged, more);
        // A comparison that ran and found a fault: 1, not the 2 of bad input.
        assert_eq!(output.status.code(), Some(1), "{more:?}");
        assert!(
            text(&output.stderr).contains("the sets disagree on"),
            "{}",
            text(&output.stderr)
        );
    }
    std::fs::write(&largest, &bytes[..length - 3]).unwrap();
    let output = compare(&damaged);
    let error = text(&output.stderr);
    assert!(!output.status.success());
    assert!(
        error.contains("egaraguti-3v3.egt is not a usable table"),
        "{error}"
    );
}

#[test]
fn show_wdl_gives_the_tables_exact_value_of_each_line() {
    // A drawn position and a won one of a few men: with the tables, every line's first move
    // has its exact value, whatever the score says.
    let reference = Tablebase::load_all(tables_dir()).unwrap();
    let mut rng = fastrand::Rng::with_seed(31);
    let mut found = Vec::new();
    for wanted in [Wdl::Draw, Wdl::Win] {
        let game = loop {
            let game = random_position(&mut rng, 3, 3);
            if game.outcome().is_none() && reference.probe(&game).unwrap().value == wanted {
                break game;
            }
        };
        found.push((game, wanted));
    }
    let mut engine = Engine::start(&[]);
    engine.send("setoption name UCI_Variant value egaraguti");
    engine.send("setoption name UCI_ShowWDL value true");
    engine.send(&format!(
        "setoption name TablePath value {}",
        tables_dir().display()
    ));
    for (game, value) in found {
        engine.send(&format!("position fen {}", game.position_string()));
        engine.command(&go_depth(2));
        let replies = engine.replies_until(Reply::is_best_move);
        let best = match value {
            Wdl::Draw => [0, 1000, 0],
            _ => [1000, 0, 0],
        };
        // The best line is worth the position's value; every line says it exactly.
        let lines: Vec<[u32; 3]> = replies
            .iter()
            .filter_map(|reply| match reply {
                Reply::Info(info) if info.depth.is_some() => info.wdl,
                _ => None,
            })
            .collect();
        assert_eq!(lines.last(), Some(&best), "{value:?}: {replies:?}");
    }
    engine.quit();
}
