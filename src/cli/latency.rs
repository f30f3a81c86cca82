//! `ternion bench --latency`: how fast the engine answers, as figures for people (these
//! machines are too noisy for wall-clock limits in tests).
//!
//! In-process, per variant: the stop latency of the search (from setting the stop flag to
//! the search returning) and the overrun of `movetime` searches. Through the protocol, with
//! this binary as a child process: start to `ugiok`; `isready` answered during a search,
//! `stop` to `bestmove` and the time `go movetime 300` takes to answer, on one thread, one
//! per core and two per core; `stop` to the last line of `go perft` and `bench`. Each figure is the
//! median and the maximum of its samples.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use ternion::arena::process::{EngineError, EngineProcess};
use ternion::games::{Playable, Variant};
use ternion::protocol::command::{Command, GoCommand};
use ternion::protocol::reply::Reply;
use ternion::search::{Limits, Searcher};

/// Searches per in-process figure.
const SEARCHES: usize = 100;
/// The move time of the protocol's figure: the answer is due within it, as the caller
/// measures.
const MOVETIME_MS: u64 = 300;
/// How long any answer may take before the measurement gives up.
const PATIENCE: Duration = Duration::from_secs(30);

/// Prints every figure; `Err` when the engine as a child process failed.
pub fn run() -> Result<(), String> {
    let mut out = io::stdout().lock();
    let mut say = |line: String| {
        let _ = writeln!(out, "{line}");
    };
    for variant in Variant::ALL {
        let (stop, overrun) = ternion::with_game!(variant, G => search_figures::<G>());
        say(format!(
            "{variant}: stop latency {stop}; overrun of movetime - overhead {overrun}"
        ));
    }
    protocol_figures(&mut say).map_err(|error| format!("the engine failed: {error:?}"))
}

/// The median and maximum of `samples`, in milliseconds.
fn summary(mut samples: Vec<Duration>) -> String {
    samples.sort();
    format!(
        "median {:.2} ms, max {:.2} ms over {}",
        samples[samples.len() / 2].as_secs_f64() * 1e3,
        samples[samples.len() - 1].as_secs_f64() * 1e3,
        samples.len()
    )
}

/// The stop latency and the `movetime` overrun of `G`'s search from the start.
fn search_figures<G: Playable>() -> (String, String) {
    let game = G::start();
    let mut searcher = Searcher::<G>::new(16);
    let mut latencies = Vec::new();
    for i in 0..SEARCHES {
        let stop = AtomicBool::new(false);
        let (position, searcher, flag) = (game.clone(), &mut searcher, &stop);
        let latency = thread::scope(|scope| {
            let search = scope.spawn(move || {
                let limits = Limits {
                    infinite: true,
                    ..Limits::default()
                };
                searcher.search(&position, &limits, flag, &mut |_| {});
                Instant::now()
            });
            thread::sleep(Duration::from_millis(5 + i as u64 % 20));
            let stopped = Instant::now();
            stop.store(true, Ordering::Relaxed);
            search.join().expect("the search ends") - stopped
        });
        latencies.push(latency);
    }
    let mut overruns = Vec::new();
    for i in 0..SEARCHES {
        let movetime = Duration::from_millis(10 + i as u64 % 40);
        let overhead = Duration::from_millis(10);
        let limits = Limits {
            movetime: Some(movetime),
            move_overhead: overhead,
            ..Limits::default()
        };
        let started = Instant::now();
        searcher.search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
        overruns.push(started.elapsed().saturating_sub(movetime - overhead));
    }
    (summary(latencies), summary(overruns))
}

/// The figures through the protocol, with this binary as a child process.
fn protocol_figures(say: &mut dyn FnMut(String)) -> Result<(), EngineError> {
    let me = std::env::current_exe().map_err(|_| EngineError::Crashed)?;
    let command = format!("'{}'", me.display().to_string().replace('\'', r"'\''"));
    let start = || EngineProcess::start(&command, PATIENCE).map_err(|_| EngineError::Crashed);
    let mut to_ugiok = Vec::new();
    for _ in 0..20 {
        let started = Instant::now();
        let engine = start()?;
        to_ugiok.push(started.elapsed());
        engine.quit();
    }
    say(format!("start to ugiok: {}", summary(to_ugiok)));

    let mut engine = start()?;
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    for threads in [1, cores, 2 * cores] {
        search_latencies(&mut engine, threads, say)?;
    }
    engine.set_option("Threads", "1")?;
    // The last line of each: perft's "Nodes searched: <N>", the bench's "<N> nodes <M> nps".
    let perft_total =
        |reply: &Reply| matches!(reply, Reply::Other(line) if line.starts_with("Nodes searched"));
    let bench_total = |reply: &Reply| matches!(reply, Reply::Other(line) if line.ends_with(" nps"));
    for (work, last) in [
        (
            Command::GoPerft(12),
            &perft_total as &dyn Fn(&Reply) -> bool,
        ),
        (Command::Bench(Some(30)), &bench_total),
    ] {
        let mut stopped = Vec::new();
        for _ in 0..100 {
            engine.send(&work)?;
            thread::sleep(Duration::from_millis(5));
            let sent = Instant::now();
            engine.send(&Command::Stop)?;
            engine.reply_where(last, PATIENCE)?;
            stopped.push(sent.elapsed());
        }
        say(format!("stop to the end of {work}: {}", summary(stopped)));
    }
    engine.quit();
    Ok(())
}

/// `isready` and `stop` during a search, and the overrun of `go movetime 100`, on
/// `threads` search threads.
fn search_latencies(
    engine: &mut EngineProcess,
    threads: usize,
    say: &mut dyn FnMut(String),
) -> Result<(), EngineError> {
    engine.set_option("Threads", &threads.to_string())?;
    let (mut isready, mut stop) = (Vec::new(), Vec::new());
    for _ in 0..1_000 {
        engine.send(&Command::Go(GoCommand {
            infinite: true,
            ..GoCommand::default()
        }))?;
        thread::sleep(Duration::from_millis(5));
        let sent = Instant::now();
        engine.send(&Command::IsReady)?;
        engine.reply_where(|reply| *reply == Reply::ReadyOk, PATIENCE)?;
        isready.push(sent.elapsed());
        let sent = Instant::now();
        engine.send(&Command::Stop)?;
        engine.reply_where(Reply::is_best_move, PATIENCE)?;
        stop.push(sent.elapsed());
    }
    say(format!(
        "{threads} threads: isready during a search: {}",
        summary(isready)
    ));
    say(format!(
        "{threads} threads: stop to bestmove: {}",
        summary(stop)
    ));
    let mut answered = Vec::new();
    for _ in 0..100 {
        let go = Command::Go(GoCommand {
            movetime: Some(MOVETIME_MS),
            ..GoCommand::default()
        });
        let (_, took) = engine.best_move(&go, PATIENCE)?;
        answered.push(took);
    }
    say(format!(
        "{threads} threads: go movetime {MOVETIME_MS}, answered after (at most \
         {MOVETIME_MS} ms is on time): {}",
        summary(answered)
    ));
    Ok(())
}
