//! Latency figures of the protocol daemon, against the real binary, for people rather than
//! for the default run (wall-clock assertions would be noise on these machines):
//!
//! `cargo test --release --test protocol_timing -- --ignored --nocapture`
//!
//! prints, as median and maximum: process start to `ugiok`; `isready` answered during a
//! search; `stop` to `bestmove`, and `stop` to the last line of `go perft` and `bench`; and
//! how far `go movetime 100` goes past 100 ms. The search figures are given for 1 thread,
//! one per core and two per core (every core busy, and more threads than cores).

mod common;

use std::thread;
use std::time::{Duration, Instant};

use common::engine::Engine;

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
        let mut engine = Engine::start(&[]);
        engine.send("ugi");
        to_ugiok.push(engine.wait_for("ugiok") - started);
        engine.quit();
    }
    println!("start to ugiok: {}", summary(to_ugiok));

    let mut engine = Engine::start(&[]);
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    for threads in [1, cores, 2 * cores] {
        search_latencies(&mut engine, threads);
    }
    engine.send("setoption name Threads value 1");

    for (work, last) in [("go perft 12", "Nodes searched"), ("bench 30", "")] {
        let mut stopped = Vec::new();
        for _ in 0..100 {
            engine.send(work);
            thread::sleep(Duration::from_millis(5));
            let sent = Instant::now();
            engine.send("stop");
            let done = if last.is_empty() {
                // The bench's last line is "<N> nodes <M> nps".
                loop {
                    let line = engine.next_line();
                    if line.ends_with(" nps") && !line.starts_with("info") {
                        break Instant::now();
                    }
                }
            } else {
                engine.wait_for(last)
            };
            stopped.push(done - sent);
        }
        println!("stop to the end of {work}: {}", summary(stopped));
    }

    engine.quit();
}

/// `isready` and `stop` during a search, and the overrun of `go movetime 100`, on
/// `threads` search threads.
fn search_latencies(engine: &mut Engine, threads: usize) {
    engine.send(&format!("setoption name Threads value {threads}"));
    let (mut isready, mut stop) = (Vec::new(), Vec::new());
    for _ in 0..1_000 {
        engine.send("go infinite");
        thread::sleep(Duration::from_millis(5));
        let sent = Instant::now();
        engine.send("isready");
        isready.push(engine.wait_for("readyok") - sent);
        let sent = Instant::now();
        engine.send("stop");
        stop.push(engine.wait_for("bestmove") - sent);
    }
    println!(
        "{threads} threads: isready during a search: {}",
        summary(isready)
    );
    println!("{threads} threads: stop to bestmove: {}", summary(stop));
    let mut overrun = Vec::new();
    for _ in 0..100 {
        let sent = Instant::now();
        engine.send("go movetime 100");
        let elapsed = engine.wait_for("bestmove") - sent;
        overrun.push(elapsed.saturating_sub(Duration::from_millis(100)));
    }
    println!(
        "{threads} threads: go movetime 100, time past 100 ms: {}",
        summary(overrun)
    );
}
