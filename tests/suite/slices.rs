//! The daemon whose work runs in slices on its own thread (the web build's): the same
//! lines as on threads, limits counted across slices, and a `stop` answered at the end of
//! the slice it comes in.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ternion::games::Variant;
use ternion::protocol::daemon::{Daemon, Sink};

/// A daemon of `variant` (in slices if `sliced`) and the lines it writes.
fn daemon(variant: Variant, sliced: bool) -> (Daemon, Arc<Mutex<Vec<String>>>) {
    let output = Arc::new(Mutex::new(Vec::new()));
    let collected = Arc::clone(&output);
    let sink: Sink = Arc::new(move |line| collected.lock().unwrap().push(line));
    let daemon = Daemon::new(variant, sink);
    let daemon = if sliced { daemon.in_slices() } else { daemon };
    (daemon, output)
}

/// The lines written so far, taken.
fn take(output: &Mutex<Vec<String>>) -> Vec<String> {
    std::mem::take(&mut *output.lock().unwrap())
}

/// `line` with the figures that vary from run to run (time, nps) masked.
fn masked(line: &str) -> String {
    let mut words: Vec<&str> = line.split(' ').collect();
    for index in 1..words.len() {
        if matches!(words[index - 1], "time" | "nps") {
            words[index] = "*";
        }
    }
    words.join(" ")
}

/// Steps the daemon in slices of `budget` until its work is done; the number of steps.
fn step_to_the_end(daemon: &mut Daemon, budget: Duration) -> usize {
    let mut steps = 1;
    while daemon.step(budget) {
        steps += 1;
        assert!(steps < 1_000_000, "the search never ends");
    }
    steps
}

/// The nodes of the last `info depth` line of `lines`.
fn last_nodes(lines: &[String]) -> u64 {
    let last = (lines.iter().rev())
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line in {lines:?}"));
    figure(last, "nodes")
}

/// The value after `word` in `line`.
fn figure(line: &str, word: &str) -> u64 {
    let mut words = line.split(' ');
    words.by_ref().find(|w| *w == word);
    words
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {word} in {line}"))
}

#[test]
fn a_search_in_one_long_slice_says_what_it_says_on_a_thread() {
    for variant in Variant::ALL {
        let session = [
            "uginewgame",
            "position startpos",
            "go depth 5",
            "go nodes 3000",
        ];
        let (mut threaded, on_thread) = daemon(variant, false);
        let (mut sliced, in_slices) = daemon(variant, true);
        for line in session {
            threaded.handle(line);
            threaded.wait_idle();
            sliced.handle(line);
            step_to_the_end(&mut sliced, Duration::from_secs(3600));
        }
        let expected: Vec<String> = take(&on_thread).iter().map(|l| masked(l)).collect();
        let got: Vec<String> = take(&in_slices).iter().map(|l| masked(l)).collect();
        assert_eq!(got, expected, "{variant}");
        assert_eq!(
            expected
                .iter()
                .filter(|l| l.starts_with("bestmove"))
                .count(),
            2
        );
    }
}

#[test]
fn a_search_cut_into_many_slices_goes_deeper_iteration_by_iteration_to_its_limit() {
    let (mut daemon, output) = daemon(Variant::Lielow, true);
    daemon.handle("position startpos moves d2d3 e7e6");
    daemon.handle("go depth 7");
    let steps = step_to_the_end(&mut daemon, Duration::ZERO);
    let lines = take(&output);
    assert!(steps > 7, "{steps} steps: {lines:?}");
    let depths: Vec<u64> = (lines.iter())
        .filter(|l| l.starts_with("info depth"))
        .map(|l| figure(l, "depth"))
        .collect();
    // Each iteration once, in order; the last line may be told again with the whole effort.
    let mut distinct = depths.clone();
    distinct.dedup();
    assert_eq!(distinct, (1..=7).collect::<Vec<_>>(), "{lines:?}");
    let nodes: Vec<u64> = (lines.iter())
        .filter(|l| l.starts_with("info depth"))
        .map(|l| figure(l, "nodes"))
        .collect();
    assert!(
        nodes.windows(2).all(|w| w[0] <= w[1]),
        "nodes count on: {nodes:?}"
    );
    let best = lines.last().unwrap();
    let pv = lines.iter().rev().find(|l| l.contains(" pv ")).unwrap();
    let first = pv.split(" pv ").nth(1).unwrap().split(' ').next().unwrap();
    assert_eq!(best, &format!("bestmove {first}"), "{lines:?}");
}

#[test]
fn a_node_limit_counts_every_slice() {
    let (mut daemon, output) = daemon(Variant::Lielow9, true);
    daemon.handle("go nodes 40000");
    step_to_the_end(&mut daemon, Duration::ZERO);
    let lines = take(&output);
    let nodes = last_nodes(&lines);
    let poll = ternion::search::POLL_INTERVAL;
    assert!(
        (40_000..=40_000 + poll).contains(&nodes),
        "{nodes}: {lines:?}"
    );
    assert!(lines.last().unwrap().starts_with("bestmove "));
}

#[test]
fn stop_during_an_endless_search_is_answered_before_the_next_slice() {
    for variant in Variant::ALL {
        let (mut daemon, output) = daemon(variant, true);
        daemon.handle("go infinite");
        for _ in 0..5 {
            assert!(
                daemon.step(Duration::from_millis(2)),
                "an endless search goes on"
            );
        }
        assert!(daemon.busy());
        assert!(!take(&output).iter().any(|l| l.starts_with("bestmove")));
        // `stop` gives the best move at once: no slice is searched after it.
        daemon.handle("stop");
        assert!(!daemon.busy());
        let lines = take(&output);
        assert!(
            lines.last().unwrap().starts_with("bestmove "),
            "{variant}: {lines:?}"
        );
        assert!(
            !daemon.step(Duration::from_millis(2)),
            "nothing left to step"
        );
        assert!(take(&output).is_empty());
        // A search done before its `stop` (a shallow `go infinite depth`) holds its move.
        daemon.handle("go infinite depth 2");
        step_a_while(&mut daemon, 20);
        let held = take(&output);
        assert!(!held.iter().any(|l| l.starts_with("bestmove")), "{held:?}");
        daemon.handle("stop");
        assert!(take(&output).last().unwrap().starts_with("bestmove "));
    }
}

/// Steps the daemon `steps` times, in slices of a millisecond.
fn step_a_while(daemon: &mut Daemon, steps: usize) {
    for _ in 0..steps {
        daemon.step(Duration::from_millis(1));
    }
}

#[test]
fn a_ponder_search_answers_after_its_ponderhit_and_a_new_go_ends_the_last() {
    let (mut daemon, output) = daemon(Variant::Lielow, true);
    daemon.handle("setoption name Ponder value true");
    daemon.handle("position startpos moves d2d3 e7e6");
    daemon.handle("go ponder p1time 60000 p2time 60000");
    step_a_while(&mut daemon, 20);
    assert!(!take(&output).iter().any(|l| l.starts_with("bestmove")));
    daemon.handle("ponderhit");
    step_to_the_end(&mut daemon, Duration::from_millis(5));
    assert!(take(&output).last().unwrap().starts_with("bestmove "));
    // A `go` while a search runs ends it first: its best move comes before the new lines.
    daemon.handle("go infinite");
    step_a_while(&mut daemon, 3);
    daemon.handle("go depth 1");
    let lines = take(&output);
    let first_answer = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(
        lines[first_answer + 1..]
            .iter()
            .all(|l| !l.starts_with("bestmove"))
    );
    step_to_the_end(&mut daemon, Duration::from_millis(5));
    assert!(take(&output).last().unwrap().starts_with("bestmove "));
}

#[test]
fn work_that_is_not_a_search_runs_whole_and_a_finished_game_answers_at_once() {
    let (mut daemon, output) = daemon(Variant::Egaraguti, true);
    daemon.handle("go perft 3");
    assert!(!daemon.busy());
    let lines = take(&output);
    assert!(
        lines.last().unwrap().starts_with("Nodes searched"),
        "{lines:?}"
    );
    let (mut lielow, output) = self::daemon(Variant::Lielow, true);
    // The spec's fact: d3d5 takes the Red king and wins.
    lielow.handle("position fen 8/8/8/3r2*4/8/3b2*4/8/8 b moves d3d5");
    lielow.handle("go infinite");
    assert!(!lielow.busy());
    assert_eq!(take(&output).last().unwrap(), "bestmove (none)");
    // Levels choose their move in one step, as the baselines do.
    lielow.handle("position startpos");
    lielow.handle("setoption name Skill Level value 3");
    lielow.handle("go movetime 100000");
    assert!(!lielow.step(Duration::ZERO), "a level chooses in one step");
    assert!(take(&output).last().unwrap().starts_with("bestmove "));
}

/// The nodes of the last line of `go depth <depth>` from `position`, by a daemon on a
/// thread or stepped in slices of one poll of the clock each (a slice given no time ends
/// at its first look at the clock: the same nodes every run).
fn nodes_to_depth(variant: Variant, position: &str, depth: u32, sliced: bool) -> u64 {
    let (mut daemon, output) = daemon(variant, sliced);
    daemon.handle(position);
    daemon.handle(&format!("go depth {depth}"));
    if sliced {
        step_to_the_end(&mut daemon, Duration::ZERO);
    } else {
        daemon.wait_idle();
    }
    last_nodes(&take(&output))
}

#[test]
fn slices_go_on_where_the_last_one_stopped_rather_than_search_again() {
    // Each slice is given no time: it ends at its first look at the clock (about a thousand
    // nodes), or, after a slice that got no further, once it has searched twice that
    // slice's nodes, up to 65,536. An iteration is cut hundreds of times, at the root and
    // below it. Going on from the root moves searched, in the same window, the search costs
    // 2.04, 1.03, 1.06 and 1.03 times its nodes on a thread here; searching each slice's
    // iteration again from its first root move, Lielow's never reached its depth in a
    // million slices. (Without the cap of 65,536 Lielow's cost 1.46 times, but a slice of
    // the web edition then ran to 164 ms, past what a `stop` may wait.)
    for (variant, position, depth) in [
        (Variant::Lielow, "position startpos moves d2d3 e7e6", 8),
        (Variant::Lielow9, "position startpos moves c1c2", 7),
        (Variant::Egaraguti, "position startpos", 9),
        (Variant::Lerontenin, "position startpos", 9),
    ] {
        let on_a_thread = nodes_to_depth(variant, position, depth, false);
        let in_slices = nodes_to_depth(variant, position, depth, true);
        let ratio = in_slices as f64 / on_a_thread as f64;
        assert!(
            ratio < 2.5,
            "{variant}: {in_slices} nodes in slices, {on_a_thread} on a thread"
        );
    }
}
