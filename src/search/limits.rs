//! What bounds a search (depth, nodes, time, a clock) and the deadlines drawn from it.
//!
//! Time management, with a clock: the time left is spread over the moves the game is
//! expected to last (the game estimates them by its phase; `movestogo` overrides), each
//! move also gets its increment, and every move keeps `move_overhead` in reserve for the
//! protocol and the operating system. The hard deadline never takes the clock below what
//! the next moves need, so a long game at a fast control never flags. When the clock cannot
//! afford even the minimum search for every move ahead, each move takes a fixed fraction of
//! what is left, so that a game outlasting every estimate never empties the clock.

use std::time::Duration;

/// The remaining time of the side to move, with its increment and the moves left until the
/// next time control (if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
    /// Moves until the next time control; `None` is sudden death.
    pub moves_to_go: Option<u32>,
    /// The game's estimate of the moves the side to move has left to play, for sudden
    /// death (see `Searchable::expected_moves_left`).
    pub expected_moves: u32,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            remaining: Duration::ZERO,
            increment: Duration::ZERO,
            moves_to_go: None,
            expected_moves: DEFAULT_EXPECTED_MOVES,
        }
    }
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
    /// Stop once a win in at most this many moves of the side to move is proven.
    pub mate: Option<u32>,
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

/// Moves left to plan for when neither the clock nor the game says.
pub const DEFAULT_EXPECTED_MOVES: u32 = 30;
/// The least a timed search may use, so that even a flagging side answers with a move.
const MINIMUM: Duration = Duration::from_millis(1);
/// The next moves whose needs the hard deadline keeps in reserve.
const PROTECTED_MOVES: u32 = 20;

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
            let (clock_soft, clock_hard) = clock.budget(self.move_overhead);
            soft = Some(soft.map_or(clock_soft, |s| s.min(clock_soft)));
            hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
        }
        Deadlines { soft, hard }
    }
}

impl Clock {
    /// The soft and hard deadlines of one move on this clock, keeping `overhead` in reserve
    /// for this move and for each of the next ones.
    fn budget(&self, overhead: Duration) -> (Duration, Duration) {
        let moves = match self.moves_to_go {
            Some(n) => n.clamp(1, 1000),
            None => self.expected_moves.clamp(1, 1000),
        };
        // The least this move may use: the minimum search while the clock affords it for
        // every move ahead, else a sliver of what is left, so that a game running on past
        // every estimate spends its clock geometrically and never reaches zero (the
        // search's first iteration, a matter of microseconds, always completes).
        let floor = MINIMUM.min(self.remaining / (4 * moves));
        // What the next moves need beyond their increments: each costs at least its
        // overhead and the least search.
        let per_move_need = (overhead + floor).saturating_sub(self.increment);
        let future_need = per_move_need * (moves - 1).min(PROTECTED_MOVES);
        // The most this move may take: all but this move's overhead and the next moves'
        // needs (at the last move before the control, all but the overhead).
        let ceiling = self
            .remaining
            .saturating_sub(overhead + future_need)
            .max(floor);
        // An even share of the time left, plus this move's increment, less its overhead
        // (none at all when the overheads alone would empty the clock: then every move
        // takes the floor and no more).
        let share = (self.remaining / moves + self.increment).saturating_sub(overhead);
        // Past the share no new iteration starts; a started one may run on to a few shares
        // (never to more than a third of what is left, all of it at the last move).
        let stretch = if moves == 1 {
            ceiling
        } else {
            (share * 3).min(self.remaining / 3)
        };
        let hard = stretch.min(ceiling).max(floor);
        let soft = (share * 3 / 5).min(hard).max(floor);
        (soft, hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    fn clock(remaining: u64, increment: u64, moves_to_go: Option<u32>, expected: u32) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining: MS(remaining),
                increment: MS(increment),
                moves_to_go,
                expected_moves: expected,
            }),
            move_overhead: MS(10),
            ..Limits::default()
        }
    }

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
            for increment in [0, 5, 100] {
                for moves_to_go in [None, Some(1), Some(40)] {
                    let d = clock(remaining, increment, moves_to_go, DEFAULT_EXPECTED_MOVES)
                        .deadlines();
                    let (soft, hard) = (d.soft.unwrap(), d.hard.unwrap());
                    assert!(soft <= hard);
                    assert!(
                        hard <= MS(remaining.saturating_sub(10).max(1)),
                        "{remaining} {increment} {moves_to_go:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_clock_is_spread_over_the_expected_moves() {
        // A long game gets a smaller share than a short one from the same clock.
        let long = clock(60_000, 0, None, 300).deadlines().soft.unwrap();
        let short = clock(60_000, 0, None, 20).deadlines().soft.unwrap();
        assert!(long * 10 < short, "{long:?} {short:?}");
        // movestogo overrides the game's estimate; the last move may use nearly all.
        assert_eq!(
            clock(60_000, 0, Some(1), 300).deadlines().hard,
            Some(MS(59_990))
        );
    }

    #[test]
    fn the_next_moves_keep_what_they_need() {
        // 100 ms left, no increment, 10 ms overhead, a long game ahead: this move leaves
        // at least 20 moves' worth of overhead and minimum search on the clock.
        let hard = clock(300, 0, None, 300).deadlines().hard.unwrap();
        assert!(hard <= MS(300 - 10 - 19 * 11), "{hard:?}");
        // With an increment that pays for the overhead, only this move's overhead is kept.
        let hard = clock(300, 20, None, 300).deadlines().hard.unwrap();
        assert!(hard > MS(0) && hard <= MS(100), "{hard:?}");
    }

    #[test]
    fn a_flagging_clock_spends_a_sliver_of_what_is_left() {
        // 3 ms for 100 moves: this one may spend a four-hundredth of it.
        let d = clock(3, 0, None, 100).deadlines();
        assert_eq!((d.soft, d.hard), (Some(MS(3) / 400), Some(MS(3) / 400)));
        // While the clock affords the minimum search for every move, that is the floor.
        let d = clock(1_000, 0, None, 200).deadlines();
        assert_eq!((d.soft, d.hard), (Some(MINIMUM), Some(MINIMUM)));
        // A game that runs on past every estimate, 2,000 moves on a clock planned for
        // 100, never empties it.
        let mut left = Clock {
            remaining: MS(1_000),
            increment: Duration::ZERO,
            moves_to_go: None,
            expected_moves: 100,
        };
        for _ in 0..2_000 {
            let (_, hard) = left.budget(MS(10));
            left.remaining = left.remaining.saturating_sub(hard);
        }
        assert!(left.remaining > Duration::ZERO, "{left:?}");
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
