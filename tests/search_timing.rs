//! Timing figures of the search, for people rather than for the default run (these machines
//! are too noisy for wall-clock assertions):
//!
//! `cargo test --release --test search_timing -- --ignored --nocapture`
//!
//! prints the stop latency (from setting the stop flag to the search returning) and the
//! deadline overrun of `movetime` searches, over 100 searches each, as median and maximum.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use ternion::games::{Playable, Variant};
use ternion::search::{Limits, Searcher};

const SEARCHES: usize = 100;

fn summary(mut samples: Vec<Duration>) -> String {
    samples.sort();
    format!(
        "median {:.2} ms, max {:.2} ms",
        samples[samples.len() / 2].as_secs_f64() * 1e3,
        samples[samples.len() - 1].as_secs_f64() * 1e3
    )
}

struct Timing;

impl Timing {
    fn visit<G: Playable>(self) -> (String, String) {
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
}

#[test]
#[ignore = "timing figures: run with --ignored --nocapture"]
fn stop_latency_and_deadline_overrun() {
    for variant in Variant::ALL {
        let (latency, overrun) = ternion::with_game!(variant, G => Timing.visit::<G>());
        println!("{variant}: stop latency {latency}; overrun of movetime - overhead {overrun}");
    }
}
