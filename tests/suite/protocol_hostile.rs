//! Thousands of seeded random and malformed protocol lines, in-process: the daemon must never
//! panic, must answer `isready` after every line, must keep its position when a line is
//! rejected (whether a search runs or not), and must print nothing but protocol lines, with
//! exactly one `bestmove` per `go`.

use std::sync::{Arc, Mutex};

use ternion::games::Variant;
use ternion::protocol::command::Command;
use ternion::protocol::daemon::{Daemon, Sink};

const LINES: usize = 3_000;

/// A daemon whose output is collected.
struct Harness {
    daemon: Daemon,
    output: Arc<Mutex<Vec<String>>>,
    /// The `go` commands sent (each owes one `bestmove`).
    goes: usize,
}

impl Harness {
    fn new() -> Self {
        let output = Arc::new(Mutex::new(Vec::new()));
        let collected = Arc::clone(&output);
        let sink: Sink = Arc::new(move |line| collected.lock().expect("the output").push(line));
        Harness {
            daemon: Daemon::new(Variant::Lielow, sink),
            output,
            goes: 0,
        }
    }

    /// Sends a line; returns what it printed so far (searches may add more later).
    fn send(&mut self, line: &str) -> Vec<String> {
        if let Ok(Command::Go(_)) = Command::parse(line) {
            self.goes += 1;
        }
        let before = self.output.lock().expect("the output").len();
        assert!(self.daemon.handle(line), "{line:?} ended the daemon");
        self.output.lock().expect("the output")[before..].to_vec()
    }

    fn fen(&mut self) -> String {
        let reply = self.send("query fen");
        reply
            .iter()
            .rev()
            .find_map(|l| l.strip_prefix("response "))
            .expect("a response")
            .to_owned()
    }
}

/// Whether `line` is something the protocol may print.
fn protocol_line(line: &str) -> bool {
    const PREFIXES: [&str; 16] = [
        "id name ",
        "id author ",
        "option name ",
        "ugiok",
        "uciok",
        "readyok",
        "info ",
        "bestmove ",
        "response ",
        "  ",
        "Variant: ",
        "Fen: ",
        "Side to move: ",
        "Legal moves: ",
        "Result: ",
        "Nodes searched: ",
    ];
    let perft_line = line
        .split_once(": ")
        .is_some_and(|(mv, n)| !mv.contains(' ') && n.parse::<u64>().is_ok());
    line.is_empty() || perft_line || PREFIXES.iter().any(|p| line.starts_with(p))
}

fn random_line(rng: &mut fastrand::Rng) -> String {
    let words = [
        "ugi",
        "uci",
        "isready",
        "setoption",
        "name",
        "value",
        "uginewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "variant",
        "go",
        "perft",
        "stop",
        "query",
        "d",
        "help",
        "depth",
        "nodes",
        "movetime",
        "infinite",
        "ponder",
        "ponderhit",
        "mate",
        "searchmoves",
        "MultiPV",
        "Ponder",
        "Threads",
        "true",
        "wtime",
        "btime",
        "p1time",
        "islegal",
        "legalmoves",
        "gameover",
        "result",
        "Hash",
        "UCI_Variant",
        "lielow",
        "lielow9",
        "egaraguti",
        "lerontenin",
        "d2d3",
        "e3e4",
        "H-7",
        "a1off",
        "0000",
        "pass",
        "-1",
        "0",
        "1",
        "2",
        "99999999999999999999999",
        "é",
        "\u{0}",
        "\t",
        "8/8",
        "b",
        "w",
    ];
    match rng.u8(..12) {
        // Pure garbage, sometimes very long.
        0 => (0..rng.usize(..40)).map(|_| rng.char(..)).collect(),
        1 if rng.u8(..20) == 0 => "x".repeat(1 << 20),
        // Random word salad from the protocol's own words.
        2..=5 => (0..rng.usize(1..8))
            .map(|_| words[rng.usize(..words.len())])
            .collect::<Vec<_>>()
            .join(" "),
        // Well-formed commands with random arguments.
        6 => format!(
            "position startpos moves {}",
            (0..rng.usize(..4))
                .map(|_| words[rng.usize(..words.len())])
                .collect::<Vec<_>>()
                .join(" ")
        ),
        7 => format!("position fen {}", words[rng.usize(..words.len())]),
        8 => format!(
            "setoption name {} value {}",
            [
                "Hash",
                "UCI_Variant",
                "MoveOverhead",
                "ClearHash",
                "Bogus",
                "MultiPV",
                "Ponder",
                "Threads"
            ][rng.usize(..8)],
            words[rng.usize(..words.len())]
        ),
        9 => [
            "go depth 1",
            "go nodes 300",
            "go movetime 2",
            "go infinite",
            "go ponder movetime 5",
            "ponderhit",
            "go mate 1 depth 3",
            "go searchmoves d2d3 b2c3 e5e3 H-7 depth 2",
            "go depth 2 sideways",
            "stop",
        ][rng.usize(..10)]
        .to_owned(),
        10 => format!("query {}", words[rng.usize(..words.len())]),
        _ => ["isready", "d", "query fen", "go perft 1", "uginewgame"][rng.usize(..5)].to_owned(),
    }
}

#[test]
fn hostile_input_never_breaks_the_daemon() {
    let mut harness = Harness::new();
    let mut rng = fastrand::Rng::with_seed(0x0605_711e);
    let mut busy_steps = 0;
    for step in 0..LINES {
        let line = random_line(&mut rng);
        if line.trim_start().starts_with("quit") {
            continue;
        }
        let shown: String = line.chars().take(60).collect();
        // Positions are answered at once, a search running or not: every step is checked.
        let busy = harness.daemon.busy();
        busy_steps += usize::from(busy);
        let before = harness.fen();
        let reply = harness.send(&line);
        let rejected = reply.iter().any(|l| {
            l.starts_with("info string error")
                && !l.contains("illegal-move")
                && !l.contains("bad-arguments: go")
        });
        // A rejected line changes nothing.
        if rejected {
            assert_eq!(
                harness.fen(),
                before,
                "step {step}: {shown:?} changed the position"
            );
        }
        // Background work (a search, perft) may print around it, but `readyok` must come.
        let ready = harness.send("isready");
        assert!(
            ready.iter().any(|l| l == "readyok"),
            "step {step}: {shown:?}"
        );
        if step % 50 == 0 {
            harness.send("stop");
            harness.daemon.stop_search();
        }
    }
    harness.daemon.stop_search();
    let output = harness.output.lock().expect("the output");
    for line in output.iter() {
        assert!(
            protocol_line(line),
            "not a protocol line: {:?}",
            line.chars().take(80).collect::<String>()
        );
    }
    // Every search that started ended with exactly one best move.
    let searches = output.iter().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(searches, harness.goes, "bestmoves for the go commands");
    assert!(searches > 10, "only {searches} searches ran");
    assert!(
        busy_steps > 100,
        "only {busy_steps} steps ran during a search"
    );
    assert!(
        !output
            .iter()
            .any(|l| l.starts_with("info string error internal")),
        "a search failed"
    );
}
