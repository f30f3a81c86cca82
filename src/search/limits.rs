//! What bounds a search (depth, nodes, time, a clock) and the deadlines drawn from it.

use std::time::Duration;

/// The remaining time of the side to move, with its increment and the moves left until the
/// next time control (if any).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// Limits of one search. Several limits: the first one reached stops it. No limit at all
/// (or `infinite`) searches until stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    pub infinite: bool,
    /// Time kept in reserve on every timed move, for the protocol and the operating system.
    pub move_overhead: Duration,
}

/// The deadlines of a search: past `soft` no new iteration starts; at `hard` the search
/// stops at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// Moves left to plan for when the clock does not say.
const DEFAULT_MOVES_TO_GO: u32 = 30;
/// The least a timed search may use, so that even a flagging side answers with a move.
const MINIMUM: Duration = Duration::from_millis(1);

impl Limits {
    /// The deadlines for these limits (measured from the start of the search).
    pub fn deadlines(&self) -> Deadlines {
        if self.infinite {
            return Deadlines {
                soft: None,
                hard: None,
            };
        }
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(movetime) = self.movetime {
            let budget = movetime.saturating_sub(self.move_overhead).max(MINIMUM);
            soft = Some(budget);
            hard = Some(budget);
        }
        if let Some(clock) = self.clock {
            let available = clock
                .remaining
                .saturating_sub(self.move_overhead)
                .max(MINIMUM);
            let moves = clock
                .moves_to_go
                .unwrap_or(DEFAULT_MOVES_TO_GO)
                .clamp(1, 100);
            // Plan an even share of the time left plus most of the increment; stop early
            // when an iteration ends past it, and never use more than a third of what is left
            // (all of it when this is the last move before the time control).
            let share = available / moves + clock.increment * 3 / 4;
            let cap = if moves == 1 { available } else { available / 3 };
            let planned = share.min(cap).max(MINIMUM);
            soft = Some(
                soft.map_or(planned / 2, |s| s.min(planned / 2))
                    .max(MINIMUM),
            );
            hard = Some(hard.map_or(planned, |h| h.min(planned)));
        }
        Deadlines { soft, hard }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn movetime_keeps_the_overhead() {
        let limits = Limits {
            movetime: Some(MS(100)),
            move_overhead: MS(10),
            ..Limits::default()
        };
        assert_eq!(limits.deadlines().hard, Some(MS(90)));
        let tiny = Limits {
            movetime: Some(MS(5)),
            move_overhead: MS(10),
            ..Limits::default()
        };
        assert_eq!(tiny.deadlines().hard, Some(MS(1)));
    }

    #[test]
    fn a_clock_never_spends_more_than_it_has() {
        for remaining in [0, 5, 50, 1_000, 60_000] {
            for moves_to_go in [None, Some(1), Some(40)] {
                let limits = Limits {
                    clock: Some(Clock {
                        remaining: MS(remaining),
                        increment: MS(100),
                        moves_to_go,
                    }),
                    move_overhead: MS(10),
                    ..Limits::default()
                };
                let d = limits.deadlines();
                let (soft, hard) = (d.soft.unwrap(), d.hard.unwrap());
                assert!(soft <= hard);
                assert!(
                    hard <= MS(remaining.saturating_sub(10).max(1)),
                    "{remaining}"
                );
            }
        }
    }

    #[test]
    fn no_time_limit_no_deadline() {
        assert_eq!(Limits::default().deadlines().hard, None);
        let infinite = Limits {
            infinite: true,
            movetime: Some(MS(5)),
            ..Limits::default()
        };
        assert_eq!(infinite.deadlines().hard, None);
    }
}
