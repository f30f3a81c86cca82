//! `ternion perft`: perft and divide from the command line, for any variant.

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Args;
use ternion::games::Playable;
use ternion::rules::perft::{divide_each, perft};

use ternion::protocol::command::MAX_PERFT_DEPTH;
use ternion::protocol::format::{perft_move, perft_speed, perft_total};

use super::position::PositionArgs;

/// Counts expected to take longer than this get a warning first.
const PATIENCE_SECONDS: f64 = 60.0;
/// Probing depths stop once one takes this long: the next would take a few branching
/// factors more.
const PROBE_SECONDS: f64 = 0.005;

#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Depth in plies (at most 64).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT_DEPTH as i64))]
    depth: u32,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    super::end_when_stdout_closes();
    let counted = ternion::with_game!(args.position.variant()?, G => count::<G>(args));
    match counted {
        // A reader that stopped reading (`| head`) is no error of ours.
        Err(Failure::Write(error)) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(Failure::Write(error)) => Err(format!("cannot write the result: {error}")),
        Err(Failure::Input(message)) => Err(message),
        Ok(()) => Ok(()),
    }
}

/// Why the command failed: bad input, or stdout refused the output.
enum Failure {
    Input(String),
    Write(io::Error),
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        Failure::Write(error)
    }
}

/// Counts the position of `args` as `G`, printing as it goes.
fn count<G: Playable>(args: &PerftArgs) -> Result<(), Failure> {
    let mut game: G = args.position.position().map_err(Failure::Input)?;
    if let Some(seconds) = estimate_seconds(&mut game, args.depth)
        && seconds > PATIENCE_SECONDS
    {
        super::warn(&format!(
            "perft to depth {} may take about {} on this machine; it runs until done or \
             interrupted",
            args.depth,
            human_duration(seconds)
        ));
    }

    let started = Instant::now();
    let mut out = io::stdout().lock();
    let nodes = if args.divide && args.depth > 0 {
        // Each move's count is written and flushed as soon as it is done; a reader that
        // went away (`| head -1`) ends the count at the next move.
        let (mut total, mut written) = (0, Ok(()));
        let root = game.clone();
        divide_each(
            &mut game,
            args.depth,
            &AtomicBool::new(false),
            |mv, count| {
                total += count;
                written = writeln!(out, "{}", perft_move(&root.move_string(mv), count))
                    .and_then(|()| out.flush());
                written.is_ok()
            },
        );
        written?;
        writeln!(out)?;
        total
    } else {
        perft(&mut game, args.depth)
    };
    let elapsed = started.elapsed();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "{}", perft_total(nodes))?;
    writeln!(out, "{}", perft_speed(elapsed, nps))?;
    Ok(())
}

/// How long a count to `depth` should take, from the times of shallower counts and the
/// growth from one depth to the next; `None` when the count is quick anyway.
fn estimate_seconds<G: Playable>(game: &mut G, depth: u32) -> Option<f64> {
    let mut times = Vec::new();
    for probe in 1..depth {
        let started = Instant::now();
        perft(game, probe);
        let seconds = started.elapsed().as_secs_f64();
        times.push(seconds);
        if seconds > PROBE_SECONDS {
            break;
        }
    }
    let (&last, before) = times.split_last()?;
    let &previous = before.last()?;
    let growth = (last / previous.max(1e-9)).max(1.0);
    Some(last * growth.powi((depth - times.len() as u32) as i32))
}

/// Seconds for people: seconds, minutes, hours, days or years.
fn human_duration(seconds: f64) -> String {
    const UNITS: [(&str, f64); 5] = [
        ("years", 365.25 * 86_400.0),
        ("days", 86_400.0),
        ("hours", 3_600.0),
        ("minutes", 60.0),
        ("seconds", 1.0),
    ];
    let (name, size) = UNITS
        .iter()
        .find(|(_, size)| seconds >= *size)
        .copied()
        .unwrap_or(UNITS[4]);
    let amount = seconds / size;
    if amount >= 1e6 {
        format!("{amount:.1e} {name}")
    } else {
        format!("{amount:.0} {name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(human_duration(0.2), "0 seconds");
        assert_eq!(human_duration(90.0), "2 minutes");
        assert_eq!(human_duration(7_200.0), "2 hours");
        assert_eq!(human_duration(9.0 * 86_400.0), "9 days");
        assert_eq!(human_duration(4.1e15), "1.3e8 years");
    }

    #[test]
    fn a_deep_count_is_estimated_from_shallow_ones() {
        let mut game = <ternion::games::lielow::Lielow8 as ternion::rules::Rules>::start();
        let days = estimate_seconds(&mut game, 12).expect("an estimate") / 86_400.0;
        assert!(days > 1.0, "lielow to depth 12 in {days} days?");
        assert_eq!(estimate_seconds(&mut game, 1), None);
    }
}
