//! The clock through `ternion match`: long games at a fast sudden-death control, two games at
//! once on two cores, and a referee that allows only 10 ms past the clock. The engine must
//! never flag: its time management spreads the clock over the moves each game is expected
//! to last, keeps a reserve of its move overhead that no move plans into, learns the lag
//! the clock shows, and answers from a watchdog thread at the hard deadline when the search
//! thread is starved.
//!
//! The default run plays 20 Lerontenin games (about 650 plies each) and 30 Lielow games at
//! 1 s + 10 ms, and asks only that no flag falls and something is left on every clock: it
//! must pass beside other work (it is run beside two CPU-bound processes). The ignored
//! tests are the timing figures of a quiet machine: 100 games of each at 1 s + 10 ms; 1 s
//! sudden death for Lerontenin's 800 to 1,500 plies, where every millisecond the system
//! adds to a move comes off the clock; and the reserve at 2 s + 20 ms, at least ten
//! increments left on every clock at every move (docs/time.md has the figures beside six
//! busy processes): `cargo test --release --test suite clock:: -- --ignored --nocapture`.

use std::process::Command;

const TERNION: &str = env!("CARGO_BIN_EXE_ternion");

/// Plays `games` self-play games of `variant` on the clock `tc`, and returns the summary.
fn clock_match(variant: &str, games: u32, tc: &str) -> String {
    let games = games.to_string();
    let output = Command::new(TERNION)
        .arg("match")
        .args(crate::common::match_args(
            TERNION,
            TERNION,
            variant,
            &[
                "--games",
                &games,
                "--tc",
                tc,
                "--timemargin",
                "10",
                "--concurrency",
                "2",
                "--openings",
                "4",
            ],
        ))
        .output()
        .expect("the match runs");
    let summary = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{summary}");
    summary
}

/// The least time left on a clock, from the summary.
fn least_time_left(summary: &str) -> u64 {
    summary
        .lines()
        .find_map(|l| l.strip_prefix("least time left on a clock: "))
        .and_then(|rest| rest.strip_suffix(" ms"))
        .and_then(|ms| ms.parse().ok())
        .unwrap_or_else(|| panic!("no least time left in {summary}"))
}

fn assert_no_flag_falls(variant: &str, games: u32, tc: &str) {
    let summary = clock_match(variant, games, tc);
    println!("{variant} at {tc}: {summary}");
    assert!(
        summary.contains("every game ended by the rules"),
        "{variant}: {summary}"
    );
    // Something was kept in reserve on every move.
    assert!(least_time_left(&summary) > 0, "{variant}: {summary}");
}

#[test]
fn long_games_at_a_fast_clock_never_flag() {
    // One after the other: two games at once already fill the two cores.
    assert_no_flag_falls("lerontenin", 20, "1+0.01");
    assert_no_flag_falls("lielow", 30, "1+0.01");
}

#[test]
#[ignore = "a timing figure of an idle machine (about a minute): run with --ignored --nocapture"]
fn sudden_death_at_lerontenin_never_flags() {
    // 1 s for a game of 400 to 750 moves a side, overhead and all.
    assert_no_flag_falls("lerontenin", 6, "1");
}

#[test]
#[ignore = "a timing figure (about 3 minutes): run with --ignored --nocapture"]
fn the_reserve_holds_at_two_seconds_and_twenty_milliseconds() {
    let summary = clock_match("lerontenin", 10, "2+0.02");
    println!("lerontenin at 2+0.02: {summary}");
    assert!(
        summary.contains("every game ended by the rules"),
        "{summary}"
    );
    // Ten increments: the reserve (30 moves' overhead) less what one move may take.
    let least = least_time_left(&summary);
    assert!(least >= 200, "{summary}");
}

#[test]
#[ignore = "the full clock test (about 10 minutes): run with --ignored --nocapture"]
fn a_hundred_games_of_each_never_flag() {
    assert_no_flag_falls("lerontenin", 100, "1+0.01");
    assert_no_flag_falls("lielow", 100, "1+0.01");
}
