//! The `ternion` binary's subcommands, run as a user would run them.

use std::process::{Command, Output};

fn ternion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ternion"))
        .args(args)
        .output()
        .expect("the ternion binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("utf-8 output")
}

#[test]
fn perft_prints_the_count_and_the_speed() {
    let output = ternion(&["perft", "lielow", "2"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0], "Nodes searched: 2116");
    let fields: Vec<&str> = lines[1].split(' ').collect();
    assert_eq!(fields.len(), 4, "{text}");
    assert_eq!((fields[0], fields[2]), ("time", "nps"));
    assert!(fields[1].parse::<u64>().is_ok() && fields[3].parse::<u64>().is_ok());
}

#[test]
fn divide_lists_each_move_then_the_total() {
    let output = ternion(&[
        "perft",
        "lielow",
        "2",
        "--fen",
        "8/8/8/3r2*4/8/3b2*4/8/8 b",
        "--divide",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    let mut moves: Vec<&str> = lines[..8].to_vec();
    moves.sort();
    assert_eq!(
        moves,
        [
            "d3b1: 8", "d3b3: 8", "d3b5: 8", "d3d1: 8", "d3d5: 0", "d3f1: 8", "d3f3: 8", "d3f5: 8"
        ]
    );
    assert_eq!(lines[8], "");
    assert_eq!(lines[9], "Nodes searched: 56");
    assert!(lines[10].starts_with("time "));
}

#[test]
fn moves_are_played_before_counting() {
    // Several moves in one argument or in several.
    for args in [
        vec!["perft", "lielow9", "1", "--moves", "a3a4 a7a6"],
        vec!["perft", "lielow9", "1", "--moves", "a3a4", "a7a6"],
    ] {
        let output = ternion(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stdout(&output);
        let first = text.lines().next().unwrap_or_default();
        assert!(first.starts_with("Nodes searched: "), "{text}");
    }
}

#[test]
fn bad_input_gives_one_line_on_stderr_and_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "chess", "1"], "unknown variant 'chess'"),
        (&["perft", "lielow", "x"], "invalid value 'x'"),
        (&["perft", "lielow", "-1"], ""),
        (
            &["perft", "lielow", "99999999999999999999"],
            "invalid value",
        ),
        (&["perft", "lielow", "1", "--fen", "8/8 b"], "bad position"),
        (
            &["perft", "lielow9", "1", "--fen", "8/8/8/8/8/8/8/b1*7 b"],
            "9x9",
        ),
        (
            &["perft", "lielow", "1", "--moves", "d2d3", "d2d3"],
            "bad move at ply 2",
        ),
        (
            &["perft", "lielow", "1", "--moves", "zz"],
            "bad move at ply 1",
        ),
        (&["perft"], "<VARIANT>"),
        (
            &["perft", "lielow"],
            "required arguments were not provided: <DEPTH>",
        ),
        (&["perft", "lielow", "65"], "65 is not in 0..=64"),
        (
            &["analyze", "lielow", "--depth", "200"],
            "200 is not in 0..=127",
        ),
        // The protocol's bounds of Hash and Threads hold on the command line too.
        (
            &["analyze", "lielow", "--depth", "2", "--threads", "0"],
            "Threads takes a whole number from 1 to",
        ),
        (
            &["analyze", "lielow", "--depth", "2", "--threads", "1000"],
            "Threads takes a whole number from 1 to",
        ),
        (
            &["analyze", "lielow", "--depth", "1", "--hash", "0"],
            "Hash takes a whole number from 1 to ",
        ),
        (
            &[
                "analyze",
                "lielow",
                "--depth",
                "1",
                "--hash",
                "999999999999",
            ],
            "Hash takes a whole number from 1 to ",
        ),
        (&["bench", "--threads", "0"], "Threads takes a whole number"),
        (&["bench", "0"], "0 is not in 1..=64"),
        (&["bench", "65"], "65 is not in 1..=64"),
        (&["stats"], "<RECORDS>"),
        (&["stats", "/nonexistent/records.txt"], "cannot read"),
        (&["frobnicate"], ""),
        // The variant is --variant's: an option that names another would forfeit every game.
        (
            &[
                "match",
                "--engine",
                "ternion",
                "--engine",
                "ternion",
                "--variant",
                "lielow",
                "--games",
                "2",
                "--nodes",
                "10",
                "--option",
                "2:uci_variant=egaraguti",
            ],
            "the variant of every game is --variant's",
        ),
    ];
    for (args, reason) in cases {
        let output = ternion(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stdout(&output).is_empty(), "{args:?}");
        let message = stderr(&output);
        assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
        assert!(message.contains(reason), "{args:?}: {message}");
    }
}

#[test]
fn help_documents_every_subcommand_and_option() {
    let output = ternion(&["--help"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains("perft"));
    let output = ternion(&["perft", "--help"]);
    assert!(output.status.success());
    let text = stdout(&output);
    for word in ["--fen", "--moves", "--divide", "lielow9", "Nodes searched"] {
        assert!(text.contains(word), "perft --help lacks {word}");
    }
}

#[test]
fn a_flag_after_the_moves_is_still_a_flag() {
    let output = ternion(&["perft", "lielow", "1", "--moves", "d2d3", "--divide"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let divided = text
        .lines()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"));
    assert_eq!(divided.count(), 46);
    assert!(text.contains("Nodes searched: 46"));
}

#[test]
fn help_takes_help_flags_too() {
    for args in [
        &["help", "--help"][..],
        &["help", "-h"],
        &["help", "match", "--help"],
    ] {
        let output = ternion(args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(stdout(&output).contains("Usage: ternion"), "{args:?}");
    }
}

#[test]
fn analyze_at_depth_0_searches_one_ply_as_go_depth_0_does() {
    let output = ternion(&["analyze", "lielow", "--depth", "0"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let infos: Vec<&str> = text.lines().filter(|l| l.starts_with("info")).collect();
    assert_eq!(infos.len(), 1, "{text}");
    assert!(infos[0].starts_with("info depth 1 "), "{text}");
}

#[test]
fn analyze_prints_info_lines_then_the_best_move() {
    let output = ternion(&[
        "analyze",
        "lielow",
        "--fen",
        "8/8/8/3r2*4/8/3b2*4/8/8 b",
        "--depth",
        "3",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"bestmove d3d5"));
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info depth "))
    );
    assert!(text.contains("score mate 1 "), "{text}");
    // A finished game has no best move.
    let output = ternion(&[
        "analyze",
        "lielow",
        "--fen",
        "8/8/8/8/8/8/8/b1*7 r",
        "--depth",
        "2",
    ]);
    assert!(stdout(&output).ends_with("bestmove (none)\n"));
}

#[test]
fn analyze_answers_a_finished_game_as_the_protocol_does() {
    // Blue has captured the Red king: the game is over.
    let output = ternion(&[
        "analyze",
        "lielow",
        "--fen",
        "8/8/8/3b2*4/8/8/8/8 r",
        "--depth",
        "3",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "info string gameover p1win\nbestmove (none)\n"
    );
}

#[test]
fn the_package_says_which_compiler_it_needs() {
    // An old toolchain is told by cargo, not by a syntax error in the code.
    assert!(!env!("CARGO_PKG_RUST_VERSION").is_empty());
}

#[test]
fn analyze_needs_a_limit() {
    let output = ternion(&["analyze", "egaraguti"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output).lines().count(), 1);
}

/// The node count of `ternion bench` at its own depths. It changes only when the search's
/// behaviour does: a change that moves it on purpose updates it here, in the same commit,
/// says why and gives `Bench: N` in its message (a pure speed-up keeps it). Its history is
/// in docs/experiments.md ("The bench signature's history"); CONTRIBUTING.md has the rule.
const BENCH_SIGNATURE: u64 = 3_949_985;

#[test]
fn the_bench_signature_is_pinned() {
    let output = ternion(&["bench"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let nodes = text
        .lines()
        .last()
        .and_then(|line| line.split(' ').next())
        .and_then(|n| n.parse::<u64>().ok());
    assert_eq!(nodes, Some(BENCH_SIGNATURE), "{text}");
}

#[test]
fn bench_ends_with_its_signature() {
    let output = ternion(&["bench", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    let last: Vec<&str> = lines[8].split(' ').collect();
    assert_eq!(
        (last.len(), last[1], last[3]),
        (4, "nodes", "nps"),
        "{text}"
    );
    assert!(last[0].parse::<u64>().is_ok_and(|n| n > 0));
    // The same signature again.
    assert_eq!(
        stdout(&ternion(&["bench", "2"]))
            .lines()
            .nth(8)
            .map(|l| l.split(' ').next().map(str::to_owned)),
        Some(Some(last[0].to_owned()))
    );
}

#[test]
fn bench_and_analyze_run_on_several_threads() {
    let output = ternion(&["bench", "3", "--threads", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let last = text.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(
        (words.len(), words[1], words[3]),
        (4, "nodes", "nps"),
        "{text}"
    );
    assert!(words[0].parse::<u64>().is_ok_and(|n| n > 0), "{text}");
    let output = ternion(&[
        "analyze",
        "lielow",
        "--fen",
        "8/2r1r1r13/2r3*2r2r21/r17/8/4b2b22/1b11b12b1b1/4b4*3 b",
        "--depth",
        "5",
        "--threads",
        "3",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.ends_with("bestmove e3c3\n"), "{text}");
    assert!(text.contains("score mate 2 "), "{text}");
}

#[test]
fn a_reader_that_goes_away_ends_bench_without_a_panic() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ternion"))
        .arg("bench")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a first line");
    assert!(first.starts_with("1 lielow depth 6 time "), "{first}");
    // The reader is gone (as `| head -1` goes), long before the bench's last line.
    let status = child.wait().expect("bench ends");
    let mut errors = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut errors)
        .expect("stderr read");
    assert!(!errors.contains("panicked"), "{errors}");
    assert_eq!(status.code(), Some(0), "{errors}");
}

/// Runs the protocol with `input` on stdin and returns (stdout, exit status).
fn serve(args: &[&str], input: &str) -> (String, Option<i32>) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ternion"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("the engine reads");
    let output = child.wait_with_output().expect("the engine exits");
    (stdout(&output), output.status.code())
}

#[test]
fn no_subcommand_serves_the_protocol_and_variant_preselects() {
    let (out, status) = serve(&["--variant", "egaraguti"], "query variant\nquery fen\n");
    assert_eq!(status, Some(0));
    assert_eq!(
        out,
        "response egaraguti\nresponse bbbbb/bbb/bbb/1/www/www/wwwww w 0 1\n"
    );
    let output = ternion(&["--variant", "chess"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("unknown variant 'chess'"));
}

/// The one best move a baseline (`args` has the `--play`) gives for `input`, which ends
/// with a `go`.
fn baseline_move(args: &[&str], input: &str) -> String {
    let (out, status) = serve(args, input);
    assert_eq!(status, Some(0), "{out}");
    assert!(
        !out.contains("info depth"),
        "a baseline sends no search lines: {out}"
    );
    let best: Vec<&str> = out
        .lines()
        .filter_map(|line| line.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best.len(), 1, "{out}");
    best[0].to_owned()
}

#[test]
fn the_baseline_movers_answer_go_at_once() {
    let (out, _) = serve(&["--variant", "lerontenin"], "query legalmoves\n");
    let legal: Vec<&str> = out.trim_end().split(' ').skip(1).collect();
    let random = baseline_move(
        &["--variant", "lerontenin", "--play", "random"],
        "position startpos\ngo depth 30\n",
    );
    assert!(
        legal.contains(&random.as_str()),
        "{random} is not one of {legal:?}"
    );

    // The greedy mover takes the king in one; game over still gets `bestmove (none)`.
    let king = "position fen 8/8/8/3r2*4/8/3b2*4/8/8 b";
    assert_eq!(
        baseline_move(&["--play", "greedy"], &format!("{king}\ngo movetime 10\n")),
        "d3d5"
    );
    assert_eq!(
        baseline_move(&["--play", "greedy"], &format!("{king} moves d3d5\ngo\n")),
        "(none)"
    );

    // Every baseline keeps to `searchmoves`: the greedy mover leaves the king alone when
    // told to, the random one draws among the moves given only.
    for play in ["greedy", "greedy:50", "random"] {
        let answer = baseline_move(
            &["--play", play],
            &format!("{king}\ngo movetime 10 searchmoves d3f1\n"),
        );
        assert_eq!(answer, "d3f1", "{play}");
    }
    for seed in 0..20 {
        let answer = baseline_move(
            &["--play", "random"],
            &format!("setoption name Seed value {seed}\ngo movetime 10 searchmoves a2a3 h2h3\n"),
        );
        assert!(["a2a3", "h2h3"].contains(&answer.as_str()), "{answer}");
    }

    // `go infinite` and a bare `go` still wait for `stop`, `go ponder` for `ponderhit`.
    for (play, input) in [
        ("random", "go infinite\nisready\nstop\n"),
        ("random", "go\nisready\nstop\n"),
        (
            "greedy",
            "go ponder p1time 1000 p2time 1000\nisready\nponderhit\n",
        ),
    ] {
        let (out, _) = serve(&["--play", play], input);
        let ready = out.find("readyok").expect("readyok");
        assert!(out.find("bestmove").expect("bestmove") > ready, "{out}");
    }

    let output = ternion(&["--play", "best"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("invalid value 'best'"));
}

#[test]
fn the_mixed_mover_plays_the_greedy_move_as_often_as_asked() {
    // 200 answers in one position where the greedy move, taking the king, is one of few.
    let king = "position fen 8/8/8/3r2*4/8/3b2*4/8/8 b\n";
    let takes = |play: &str| {
        let (out, _) = serve(
            &["--play", play],
            &format!("{king}{}", "go\nstop\n".repeat(200)),
        );
        assert_eq!(out.matches("bestmove ").count(), 200, "{out}");
        out.matches("bestmove d3d5").count()
    };
    let (rarely, half, mostly) = (takes("greedy:1"), takes("greedy:50"), takes("greedy:99"));
    assert!(rarely < half && half < mostly, "{rarely} {half} {mostly}");
    assert!(
        (100..=170).contains(&half),
        "about half greedy, the rest random: {half}"
    );
    assert!(mostly >= 195, "{mostly}");
    for bad in ["greedy:0", "greedy:100"] {
        let output = ternion(&["--play", bad]);
        assert_eq!(output.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn a_level_named_on_the_command_line_plays_whatever_the_options_say() {
    // Level 0 of Lielow: one ply, its eight best lines, even with the Skill Level at the top.
    let (out, status) = serve(
        &["--play", "level:0"],
        "setoption name Skill Level value 20\ngo depth 6\n",
    );
    assert_eq!(status, Some(0));
    let infos: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 8, "{out}");
    assert!(
        infos.iter().all(|l| l.starts_with("info depth 1 ")),
        "{out}"
    );
    assert!(out.contains(" multipv 8 "), "{out}");
    for bad in ["level:20", "level:x"] {
        let output = ternion(&["--play", bad]);
        assert_eq!(output.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn quit_during_a_search_exits_at_once_with_status_0() {
    // The search would run for ever; `quit` (and the end of input) must end it.
    let (out, status) = serve(&[], "go infinite\nisready\nquit\n");
    assert_eq!(status, Some(0));
    assert!(out.contains("readyok\n"), "{out}");
    assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
    let (out, status) = serve(&[], "go infinite\n");
    assert_eq!(status, Some(0));
    assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
}

#[test]
fn a_search_that_may_not_end_gets_a_warning_first() {
    // Depth 100 with nothing else to bound it: warned, and here it ends at once anyway
    // (a king capture in one is a proven result).
    let output = ternion(&[
        "analyze",
        "lielow",
        "--fen",
        "8/8/8/3r2*4/8/3b2*4/8/8 b",
        "--depth",
        "100",
    ]);
    assert!(output.status.success());
    assert!(
        stderr(&output).contains("warning: a search to depth 100 may run for hours"),
        "{}",
        stderr(&output)
    );
    assert!(stdout(&output).contains("bestmove d3d5"));
    // Bounded by nodes: no warning.
    let output = ternion(&["analyze", "lielow", "--depth", "100", "--nodes", "1000"]);
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
}

#[test]
fn input_nobody_answers_for_waits_in_bounded_memory() {
    use std::io::Write;
    use std::process::Stdio;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::time::Duration;
    // Every line asks for a long answer that nobody reads: once stdout's pipe is full, the
    // engine's writes block, and its reading must block soon after, not queue the input.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ternion"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let written = Arc::new(AtomicU64::new(0));
    let flooding = Arc::new(AtomicBool::new(true));
    let (count, going) = (Arc::clone(&written), Arc::clone(&flooding));
    let writer = std::thread::spawn(move || {
        let block = "query svg\n".repeat(1000);
        while going.load(Ordering::Relaxed) && stdin.write_all(block.as_bytes()).is_ok() {
            count.fetch_add(block.len() as u64, Ordering::Relaxed);
        }
    });
    // The flood goes on until the engine stops taking it (a second without progress) or
    // until it has taken far more than it may hold.
    const LIMIT: u64 = 64 << 20;
    let mut last = u64::MAX;
    while written.load(Ordering::Relaxed) != last && written.load(Ordering::Relaxed) < LIMIT {
        last = written.load(Ordering::Relaxed);
        std::thread::sleep(Duration::from_secs(1));
    }
    let taken = written.load(Ordering::Relaxed);
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("the peak resident size");
    if taken >= 16 << 20 || peak_kib >= 128 << 10 {
        let _ = child.kill();
        let _ = child.wait();
        panic!("{taken} bytes of input taken, {peak_kib} KiB resident at the peak");
    }
    // The pipes, the reader's buffer and READ_AHEAD lines of ten bytes: far under 16 MiB
    // taken. The engine answers again once its output is read, then ends with its input.
    flooding.store(false, Ordering::Relaxed);
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    writer.join().unwrap();
    assert!(child.wait().expect("the engine exits").success());
    assert!(reader.join().unwrap().unwrap() > 0);
}

#[test]
fn a_go_with_no_limit_of_the_side_to_move_says_it_waits_for_stop() {
    // p1 to move: each of these sets no limit of p1's, so each searches until `stop`, as in
    // Stockfish, and says so first.
    let endless = [
        "go p2time 1000",
        "go btime 1000",
        "go winc 1000",
        "go p2inc 50",
        "go movestogo 5",
    ];
    let mut input = String::new();
    for go in endless {
        input.push_str(&format!("{go}\nisready\nstop\n"));
    }
    // A limit of the side to move, or no clock word at all: no warning.
    input.push_str(
        "go p1time 200 p2time 1000\ngo depth 1 p2inc 50\ngo infinite p2time 5\nstop\nquit\n",
    );
    let (out, status) = serve(&[], &input);
    assert_eq!(status, Some(0));
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("info depth"))
        .collect();
    let warnings: Vec<&&str> = lines.iter().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), endless.len(), "{out}");
    for (warning, go) in warnings.iter().zip(endless) {
        assert!(warning.starts_with("info string warning: go "), "{warning}");
        assert!(warning.ends_with("sets no limit for p1, the side to move: searching until stop"));
        let word = go.split(' ').nth(1).unwrap();
        let spelled = match word {
            "btime" => "p2time",
            "winc" => "p1inc",
            other => other,
        };
        assert!(warning.contains(spelled), "{warning} for {go}");
    }
    // Each endless search answers only after `stop`: after the `readyok` that came before.
    for block in lines
        .split(|l| l.contains("warning"))
        .skip(1)
        .take(endless.len())
    {
        assert_eq!(&block[..2], ["readyok", block[1]], "{block:?}");
        assert!(block[1].starts_with("bestmove "), "{block:?}");
    }
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        8
    );
}

#[test]
fn commands_end_when_their_reader_goes_and_go_on_without_stderr() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    /// Waits for `child` to end by itself, for at most a minute (a count of these depths
    /// takes hours): its status, or `None` if it had to be killed.
    fn ends(mut child: std::process::Child) -> Option<i32> {
        let patience = Instant::now() + Duration::from_secs(60);
        while Instant::now() < patience {
            if let Some(status) = child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
        None
    }
    // stdout's reader gone before a byte is written: the long count and search end.
    for args in [
        &["perft", "lielow", "12"][..],
        &["analyze", "lielow", "--depth", "100"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ternion"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        assert_eq!(ends(child), Some(0), "{args:?}");
    }
    // stderr closed: the progress lines are lost, the work is done.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-no-stderr");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    let data = data.to_str().unwrap();
    for args in [
        &[
            "selfplay", "lielow", "--games", "2", "--nodes", "100", "--out", data,
        ][..],
        &["tune", "lielow", "--data", data, "--iterations", "5"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ternion"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        assert_eq!(ends(child), Some(0), "{args:?}");
    }
    assert!(std::fs::read_to_string(data).unwrap().lines().count() > 5);
}

#[test]
fn perft_divide_writes_each_moves_count_as_it_is_done_and_stops_when_nobody_reads() {
    use std::io::BufRead;
    // Depth 7 takes minutes: the first move's count comes long before, and a reader that
    // stops after it ends the count.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ternion"))
        .args(["perft", "lielow", "7", "--divide"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let (mv, count) = first.trim().split_once(": ").expect("<move>: <count>");
    assert!(
        mv.len() >= 4 && count.parse::<u64>().unwrap() > 100_000,
        "{first}"
    );
    // The pipe is closed: the count ends at its next move, not minutes later.
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed().as_secs() < 600,
            "the count ran on for nobody"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn the_last_info_before_bestmove_tells_the_whole_search_as_ugi_asks() {
    // A node-limited search ends inside an iteration: its last line is told again with
    // every node searched (UGI 1.0: "one final info ... containing nodes, time, and nps").
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ternion"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    use std::io::Write;
    writeln!(stdin, "ugi\nposition startpos\ngo nodes 30000").unwrap();
    let mut infos = Vec::new();
    for line in std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap())) {
        let line = line.unwrap();
        if line.starts_with("bestmove") {
            break;
        }
        if line.starts_with("info depth") {
            infos.push(line);
        }
    }
    writeln!(stdin, "quit").unwrap();
    let _ = child.wait();
    let field = |line: &str, name: &str| -> u64 {
        let words: Vec<&str> = line.split(' ').collect();
        let at = words.iter().position(|w| *w == name).expect(name);
        words[at + 1].parse().unwrap()
    };
    let [.., before, last] = infos.as_slice() else {
        panic!("fewer than two info lines: {infos:?}")
    };
    assert!(field(last, "nodes") >= 30_000, "{last}");
    assert!(
        field(before, "nodes") < field(last, "nodes"),
        "{before} / {last}"
    );
    assert_eq!(field(before, "depth"), field(last, "depth"));
    let pv = |line: &str| line.split(" pv ").nth(1).map(str::to_owned);
    assert_eq!(pv(before), pv(last), "the same line, told again");
}
