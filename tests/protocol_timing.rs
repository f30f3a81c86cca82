//! Latency figures of the protocol daemon, against the real binary, for people rather than
//! for the default run (wall-clock assertions would be noise on these machines):
//!
//! `cargo test --release --test protocol_timing -- --ignored --nocapture`
//!
//! prints, as median and maximum: process start to `ugiok`; `isready` answered during a
//! search; `stop` to `bestmove`; and how far `go movetime 100` goes past 100 ms.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ternion"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads");
    }

    /// Waits for a line starting with `prefix`; returns when it came.
    fn wait_for(&self, prefix: &str) -> Instant {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .expect("a reply");
            if line.starts_with(prefix) {
                return Instant::now();
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        self.child.wait().expect("the engine exits");
    }
}

fn summary(mut samples: Vec<Duration>) -> String {
    samples.sort();
    format!(
        "median {:.2} ms, max {:.2} ms over {}",
        samples[samples.len() / 2].as_secs_f64() * 1e3,
        samples[samples.len() - 1].as_secs_f64() * 1e3,
        samples.len()
    )
}

#[test]
#[ignore = "timing figures: run with --ignored --nocapture"]
fn protocol_latencies() {
    let mut to_ugiok = Vec::new();
    for _ in 0..20 {
        let started = Instant::now();
        let mut engine = Engine::start();
        engine.send("ugi");
        to_ugiok.push(engine.wait_for("ugiok") - started);
        engine.quit();
    }
    println!("start to ugiok: {}", summary(to_ugiok));

    let mut engine = Engine::start();
    let (mut isready, mut stop) = (Vec::new(), Vec::new());
    for _ in 0..100 {
        engine.send("go infinite");
        thread::sleep(Duration::from_millis(5));
        let sent = Instant::now();
        engine.send("isready");
        isready.push(engine.wait_for("readyok") - sent);
        let sent = Instant::now();
        engine.send("stop");
        stop.push(engine.wait_for("bestmove") - sent);
    }
    println!("isready during a search: {}", summary(isready));
    println!("stop to bestmove: {}", summary(stop));

    let mut overrun = Vec::new();
    for _ in 0..100 {
        let sent = Instant::now();
        engine.send("go movetime 100");
        let elapsed = engine.wait_for("bestmove") - sent;
        overrun.push(elapsed.saturating_sub(Duration::from_millis(100)));
    }
    println!("go movetime 100, time past 100 ms: {}", summary(overrun));
    engine.quit();
}
