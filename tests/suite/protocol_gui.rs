//! The protocol as GUIs, analysis front ends and arenas drive it: bursts of commands while a
//! search runs, a failing search, a reader that goes away, oversized lines, a byte-order
//! mark, pondering with a ponder move. Against the real binary where the process matters,
//! in-process where a fault must be injected.

use crate::common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use common::engine::Engine;
use ternion::games::{Playable, Variant};
use ternion::protocol::daemon::{Daemon, Sink};
use ternion::rules::{Notation, Rules};

/// Tries per variant of the burst test.
const BURSTS: usize = 250;

/// What runs when the burst arrives.
const RUNNING: [&str; 4] = [
    "go infinite",
    "go p1time 60000 p2time 60000",
    "go perft 30",
    "bench 30",
];

/// A seeded random line of play from the start, and the game after it (never finished).
fn random_line<G: Playable>(rng: &mut fastrand::Rng) -> (Vec<String>, G) {
    let mut game = G::start();
    let mut played = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..rng.usize(..30) {
        moves.clear();
        game.generate_moves(&mut moves);
        let mut next = game.clone();
        let Some(&mv) = moves.get(rng.usize(..moves.len().max(1))) else {
            break;
        };
        next.make_move(mv);
        if next.outcome().is_some() {
            break;
        }
        played.push(game.move_string(mv));
        game = next;
    }
    (played, game)
}

/// Starts some work, then writes `stop`, `position ...` and `go depth 1` in one write,
/// `bursts` times: the work ends with its own last line, and the `go` gets exactly one
/// `bestmove`, legal in the position it was asked about.
fn bursts<G: Playable>(engine: &mut Engine, bursts: usize) {
    let mut rng = fastrand::Rng::with_seed(0xb0_5757 + G::VARIANT as u64);
    for attempt in 0..bursts {
        let seen = format!("{} burst {attempt}", G::VARIANT);
        let (before, _) = random_line::<G>(&mut rng);
        let (after, game) = random_line::<G>(&mut rng);
        let running = RUNNING[attempt % RUNNING.len()];
        engine.send(&format!(
            "position variant {} startpos moves {}",
            G::VARIANT,
            before.join(" ")
        ));
        engine.send(running);
        if rng.bool() {
            thread::sleep(Duration::from_millis(rng.u64(..4)));
        }
        engine.write(&format!(
            "stop\nposition startpos moves {}\ngo depth 1\n",
            after.join(" ")
        ));
        // A search answers too; `go perft` and `bench` end with their own last line.
        let expected = if running.starts_with("go perft") || running.starts_with("bench") {
            1
        } else {
            2
        };
        let mut lines = Vec::new();
        for _ in 0..expected {
            lines.extend(engine.lines_until("bestmove "));
        }
        // Nothing more comes: the next thing out is the answer to `isready`.
        engine.send("isready");
        lines.extend(engine.lines_until("readyok"));
        let answers: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .collect();
        assert_eq!(answers.len(), expected, "{seen}: {lines:?}");
        let best = answers[expected - 1]["bestmove ".len()..].to_owned();
        assert!(
            game.parse_move(&best).is_ok(),
            "{seen}: {best} is not legal after {after:?}"
        );
        if running.starts_with("go perft") {
            assert!(
                lines.iter().any(|l| l.starts_with("Nodes searched: ")),
                "{seen}"
            );
        }
        if running.starts_with("bench") {
            assert!(lines.iter().any(|l| l.ends_with(" nps")), "{seen}");
        }
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "{seen}: {lines:?}"
        );
    }
}

#[test]
fn stop_position_go_in_one_burst_answers_every_go_for_its_position() {
    let mut engine = Engine::start(&[]);
    for variant in Variant::ALL {
        ternion::with_game!(variant, G => bursts::<G>(&mut engine, BURSTS));
    }
    engine.quit();
}

/// The same bursts with helper threads searching beside the main one: every `go` still gets
/// exactly one `bestmove`, none lost, none doubled, none late.
#[test]
fn bursts_with_two_search_threads_answer_every_go_once() {
    let mut engine = Engine::start(&[]);
    engine.send("setoption name Threads value 2");
    for variant in Variant::ALL {
        ternion::with_game!(variant, G => bursts::<G>(&mut engine, BURSTS / 2));
    }
    engine.quit();
}

#[test]
fn stop_and_quit_end_a_search_with_every_thread_busy() {
    let mut engine = Engine::start(&[]);
    // More threads than cores where the option allows it: every core busy, and more.
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    engine.send(&format!(
        "setoption name Threads value {}",
        (2 * cores).min(4)
    ));
    for variant in Variant::ALL {
        engine.send(&format!("position variant {variant} startpos"));
        engine.send("go infinite");
        engine.wait_for("info depth 3 ");
        // The threads are at work: questions are answered at once, the search goes on.
        engine.send("isready");
        engine.wait_for("readyok");
        engine.send("stop");
        let answer = engine.lines_until("bestmove ");
        assert_ne!(answer.last().unwrap(), "bestmove (none)", "{variant}");
        assert!(
            !answer.iter().any(|line| line.contains("error")),
            "{variant}: {answer:?}"
        );
        engine.send("isready");
        let after = engine.lines_until("readyok");
        assert!(
            !after.iter().any(|line| line.starts_with("bestmove")),
            "{variant}: {after:?}"
        );
    }
    engine.send("go infinite");
    engine.wait_for("info depth 2 ");
    engine.send("quit");
    assert_eq!(engine.exits_within(Duration::from_secs(5)), Some(0));
}

#[test]
fn a_panicking_search_still_answers_and_the_daemon_goes_on() {
    // With helpers too: they are stopped and waited for as the main thread's search fails.
    for threads in [1, 2] {
        a_panicking_search_on_threads(threads);
    }
}

/// An in-process daemon whose output is collected, and whose output panics once, on the
/// search's thread, right after the first `info` line: a fault in the middle of a search.
fn daemon_with_a_fault() -> (Daemon, Arc<Mutex<Vec<String>>>) {
    let output = Arc::new(Mutex::new(Vec::new()));
    let collected = Arc::clone(&output);
    let armed = AtomicBool::new(true);
    let sink: Sink = Arc::new(move |line: String| {
        let first_info = line.starts_with("info depth 1 ");
        collected.lock().expect("the output").push(line);
        if first_info && armed.swap(false, Ordering::Relaxed) {
            panic!("injected fault after the first info line");
        }
    });
    (Daemon::new(Variant::Lielow, sink), output)
}

fn a_panicking_search_on_threads(threads: usize) {
    let (mut daemon, output) = daemon_with_a_fault();
    daemon.handle(&format!("setoption name Threads value {threads}"));
    daemon.handle("position startpos moves d2d3");
    daemon.handle("go depth 6");
    daemon.handle("isready");
    daemon.wait_idle();
    let lines = output.lock().expect("the output").clone();
    let internal = lines
        .iter()
        .position(|l| l.starts_with("info string error internal: injected fault"))
        .unwrap_or_else(|| panic!("no internal error in {lines:?}"));
    let first_info = lines
        .iter()
        .position(|l| l.starts_with("info depth 1 "))
        .expect("the first info line");
    assert!(first_info < internal);
    // The best move found so far: the first iteration's.
    let pv_move = lines[first_info].split(" pv ").nth(1).expect("a pv");
    let pv_move = pv_move.split(' ').next().expect("a move");
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers, [&format!("bestmove {pv_move}")]);
    // The next search runs normally, on the same (recovered) searcher.
    output.lock().expect("the output").clear();
    daemon.handle("go depth 3");
    daemon.wait_idle();
    let lines = output.lock().expect("the output").clone();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1
    );
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
}

/// The engine with nobody reading its output, and the first `input` written to it.
fn unread_engine(input: &str) -> std::process::Child {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_ternion"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    drop(child.stdout.take());
    let stdin = child.stdin.as_mut().expect("stdin");
    // Once the engine has gone, writing fails: that is the point.
    let _ = stdin.write_all(input.as_bytes());
    child
}

fn exits_within(child: &mut std::process::Child, limit: Duration) -> Option<i32> {
    let started = std::time::Instant::now();
    while started.elapsed() < limit {
        if let Some(status) = child.try_wait().expect("the engine's status") {
            return status.code();
        }
        thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    None
}

#[test]
fn a_closed_stdout_ends_the_daemon() {
    // A search that would run for ever, with nobody to read it: exit 0, not 100% CPU.
    let mut searching = unread_engine("go infinite\n");
    assert_eq!(
        exits_within(&mut searching, Duration::from_secs(20)),
        Some(0)
    );
    // `yes isready | ternion | head -1`: a flood of input whose answers nobody reads.
    let mut flooded = unread_engine(&"isready\n".repeat(100_000));
    assert_eq!(exits_within(&mut flooded, Duration::from_secs(20)), Some(0));
}

#[test]
fn a_ten_megabyte_line_is_refused_and_the_next_line_read() {
    let mut engine = Engine::start(&[]);
    let mut text = "x".repeat(10 << 20);
    text.push_str("\nisready\n");
    engine.write(&text);
    assert_eq!(
        engine.next_line(),
        "info string error line-too-long: a line of more than 1048576 bytes was skipped"
    );
    assert_eq!(engine.next_line(), "readyok");
    engine.quit();
}

#[test]
fn a_byte_order_mark_before_the_handshake_is_skipped() {
    let mut engine = Engine::start(&[]);
    engine.write("\u{feff}uci\n");
    let lines = engine.lines_until("uciok");
    assert!(lines[0].starts_with("id name ternion"), "{lines:?}");
    engine.quit();
}

#[test]
fn with_ponder_on_bestmove_names_the_expected_reply() {
    let mut engine = Engine::start(&[]);
    engine.send("setoption name Ponder value true");
    engine.send("position startpos");
    engine.send("go depth 4");
    let answer = engine.lines_until("bestmove").pop().expect("a bestmove");
    let words: Vec<&str> = answer.split(' ').collect();
    assert_eq!((words.len(), words[2]), (4, "ponder"), "{answer}");
    let mut game = ternion::games::lielow::Lielow8::start();
    let best = game.parse_move(words[1]).expect("a legal best move");
    game.make_move(best);
    assert!(game.parse_move(words[3]).is_ok(), "{answer}");
    // Off again: exactly two tokens, as arenas read them.
    engine.send("setoption name Ponder value false");
    engine.send("go depth 4");
    let answer = engine.lines_until("bestmove").pop().expect("a bestmove");
    assert_eq!(answer.split(' ').count(), 2, "{answer}");
    engine.quit();
}

#[test]
fn a_daemon_is_busy_until_its_last_line_is_out() {
    // A sink slow to take a work's last line (a pipe the reader drains late): whoever
    // waits for `busy` to turn false must find that line already given, for a search and
    // for work that is not one. A flag set just before the line went out lost this race
    // on a loaded machine; the slow sink makes it lose every time.
    let output = Arc::new(Mutex::new(Vec::new()));
    let collected = Arc::clone(&output);
    let sink: Sink = Arc::new(move |line: String| {
        if line.starts_with("bestmove") || line.starts_with("Nodes searched") {
            thread::sleep(Duration::from_millis(50));
        }
        collected.lock().expect("the output").push(line);
    });
    let mut daemon = Daemon::new(Variant::Lielow, sink);
    for (work, last) in [
        ("go depth 2", "bestmove "),
        ("go perft 2", "Nodes searched"),
    ] {
        output.lock().expect("the output").clear();
        daemon.handle(work);
        while daemon.busy() {
            thread::sleep(Duration::from_millis(1));
        }
        let lines = output.lock().expect("the output").clone();
        assert!(
            lines.last().is_some_and(|l| l.starts_with(last)),
            "{work}: busy turned false before the last line: {lines:?}"
        );
    }
}
