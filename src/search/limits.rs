//! What bounds a search (depth, nodes, time, a clock) and the deadlines drawn from it.
//!
//! Time management, with a clock: the time left is spread over the moves the game is
//! expected to last (the game estimates them by its phase; `movestogo` overrides), each
//! move also gets its increment, and every move keeps `move_overhead` for the protocol, the
//! operating system and the GUI.
//!
//! **The reserve.** [`RESERVE_MOVES`] moves' worth of overhead is never planned: the most a
//! move may take is the clock above the reserve, plus its increment, less its overhead. So
//! a move that starts above the reserve never plans to end below it (a long game at a fast
//! increment comes down to it and stays there, each move taking its increment less its
//! overhead), and a move that starts below it (a stall of the machine took it) takes half of
//! that, or the least search, and no more. A stall longer than one move's slack comes off
//! the reserve, not the game, and the increments fill it again. A large overhead (above
//! [`LARGE_OVERHEAD`], 100 ms) keeps a reserve of at most a quarter of the clock and takes
//! at most half of a move's even share: it never leaves every move nothing.
//! Before a time control (`movestogo`), only the moves left before it keep a reserve: the
//! control fills the clock. The overhead is at least `Move Overhead`, and more where the
//! GUI's clock has shown more time gone than the engine measured (see
//! `protocol::lag`): the reserve grows with the lag of the machine it runs on.
//!
//! When the clock cannot afford even the least search for every move ahead, each move takes
//! a fixed fraction of what is left, so that a game outlasting every estimate never empties
//! the clock.

use std::time::Duration;

use crate::core::clock::Instant;

/// The deepest the search goes (quiescence included).
pub const MAX_PLY: usize = 128;

/// The remaining time of the side to move, with its increment and the moves left until the
/// next time control (if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
    /// Moves until the next time control; `None` is sudden death.
    pub moves_to_go: Option<u32>,
    /// The game's estimate of the moves the side to move has left to play, for sudden
    /// death (see `Searchable::expected_moves_left`): given by the engine, which knows the
    /// game, not by the protocol's clock; `None` counts `DEFAULT_EXPECTED_MOVES`.
    pub expected_moves: Option<u32>,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            remaining: Duration::ZERO,
            increment: Duration::ZERO,
            moves_to_go: None,
            expected_moves: None,
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
    /// Time kept on every timed move for the protocol, the operating system and the GUI;
    /// the clock's reserve is `RESERVE_MOVES` of it.
    pub move_overhead: Duration,
    /// When this move's time started: the arrival of `go`, so that the time before the
    /// search thread runs counts too. `None`: the start of the search.
    pub since: Option<Instant>,
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
/// The moves' worth of overhead a clock keeps in reserve (see the module's doc): 300 ms at
/// the default `Move Overhead` of 10 ms, a tenth of a second's clock at 2 s + 20 ms.
pub const RESERVE_MOVES: u32 = 30;

/// An overhead above this is large: beyond any stall of a machine, it is the latency of a
/// GUI across a network or a cautious user's margin. Thirty of it would be more than a
/// short clock holds, and the whole of it more than a move's share, leaving every move
/// nothing: such an overhead keeps a reserve of at most a quarter of the clock, and takes
/// at most half of a move's share (every move still answers its whole overhead before the
/// clock runs out).
pub const LARGE_OVERHEAD: Duration = Duration::from_millis(100);

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
    /// The soft and hard deadlines of one move on this clock, with `overhead` for this move
    /// and the reserve for the next ones.
    fn budget(&self, overhead: Duration) -> (Duration, Duration) {
        let moves = match self.moves_to_go {
            Some(n) => n.clamp(1, 1000),
            None => (self.expected_moves)
                .unwrap_or(DEFAULT_EXPECTED_MOVES)
                .clamp(1, 1000),
        };
        // The least this move may use: the least search while the clock affords it for
        // every move ahead, else a sliver of what is left, so that a game running on past
        // every estimate spends its clock geometrically and never reaches zero (the
        // search's first iteration, a matter of microseconds, completes within its budget
        // of nodes).
        let floor = MINIMUM.min(self.remaining / (4 * moves));
        let reserve = self.reserve(overhead);
        if self.remaining < reserve {
            // Below the reserve (a stall took it): half of what the increment pays beyond
            // the overhead, so that the increments fill the reserve again.
            let hard = (self.increment.saturating_sub(overhead) / 2)
                .min(self.remaining.saturating_sub(overhead))
                .max(floor);
            return ((hard * 3 / 5).max(floor), hard);
        }
        let usable = self.remaining - reserve;
        // The most this move may take: the usable time and its increment, less its
        // overhead, and never more than the clock holds.
        let ceiling = (usable + self.increment)
            .saturating_sub(overhead)
            .min(self.remaining.saturating_sub(overhead))
            .max(floor);
        // An even share of the time left, plus this move's increment, less its overhead
        // (none at all when the overhead alone would empty the clock: then every move
        // takes the floor and no more). The share is of the whole clock, reserve and all:
        // the reserve only bounds a move (the ceiling), so a game that ends before its
        // clock comes down to the reserve thinks as long as it would without one.
        // An overhead above [`LARGE_OVERHEAD`] takes at most half of a move's share: one as
        // large as the share (a second on a ten-second clock) would leave every move
        // nothing.
        let even = self.remaining / moves + self.increment;
        let share = even.saturating_sub(overhead.min((even / 2).max(LARGE_OVERHEAD)));
        // Past the share no new iteration starts; a started one may run on to a few shares
        // (never to more than a third of what is left, all of the usable time at the last
        // move before a control).
        let stretch = if moves == 1 {
            ceiling
        } else {
            (share * 3).min(self.remaining / 3)
        };
        let hard = stretch.min(ceiling).max(floor);
        let soft = (share * 3 / 5).min(hard).max(floor);
        (soft, hard)
    }

    /// The time no move plans: `RESERVE_MOVES` moves' overhead, or before a time control
    /// the overheads of the moves after this one until the control; with an overhead above
    /// `LARGE_OVERHEAD`, at most a quarter of the clock.
    pub fn reserve(&self, overhead: Duration) -> Duration {
        let moves = match self.moves_to_go {
            Some(n) => n.clamp(1, 1000).saturating_sub(1).min(RESERVE_MOVES),
            None => RESERVE_MOVES,
        };
        let reserve = overhead * moves;
        match overhead > LARGE_OVERHEAD {
            true => reserve.min(self.remaining / 4),
            false => reserve,
        }
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
                expected_moves: Some(expected),
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
            expected_moves: Some(100),
        };
        for _ in 0..2_000 {
            let (_, hard) = left.budget(MS(10));
            left.remaining = left.remaining.saturating_sub(hard);
        }
        assert!(left.remaining > Duration::ZERO, "{left:?}");
    }

    #[test]
    fn a_move_never_plans_into_the_reserve() {
        for remaining in (0..=3_000).step_by(23) {
            for increment in [0, 5, 10, 20, 100] {
                for overhead in [1, 10, 30] {
                    let clock = Clock {
                        remaining: MS(remaining),
                        increment: MS(increment),
                        moves_to_go: None,
                        expected_moves: Some(200),
                    };
                    let overhead = MS(overhead);
                    let reserve = clock.reserve(overhead);
                    assert_eq!(reserve, overhead * RESERVE_MOVES);
                    let (soft, hard) = clock.budget(overhead);
                    assert!(soft <= hard, "{clock:?}");
                    let after = clock.remaining + clock.increment;
                    if clock.remaining >= reserve && after >= reserve + overhead {
                        // This move and its overhead leave the reserve whole once the
                        // increment comes (but for the least search).
                        assert!(
                            after + MINIMUM >= hard + overhead + reserve,
                            "{clock:?} {hard:?}"
                        );
                    } else if clock.remaining >= reserve {
                        // Only the overhead, which no plan avoids, comes off the reserve.
                        assert!(hard <= MINIMUM, "{clock:?} {hard:?}");
                    } else {
                        // Below it, half of the increment's slack, or the least search.
                        let slack = clock.increment.saturating_sub(overhead);
                        assert!(hard <= (slack / 2).max(MINIMUM), "{clock:?} {hard:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_large_overhead_leaves_the_moves_time_to_think() {
        // 10 s + 100 ms with 300 or 1,000 ms of overhead, sixty moves: each move thinks a
        // real share (25 ms and more, where a reserve of thirty overheads left 1 ms once the
        // clock fell below it), answers its whole overhead before the clock runs out, and
        // the clock lasts the game when the overhead is a margin and not a real cost.
        for overhead in [300, 1_000] {
            let mut clock = Clock {
                remaining: MS(10_000),
                increment: MS(100),
                moves_to_go: None,
                expected_moves: Some(25),
            };
            assert_eq!(clock.reserve(MS(overhead)), MS(10_000) / 4);
            for n in 0..60 {
                let (soft, hard) = clock.budget(MS(overhead));
                assert!(hard + MS(overhead) <= clock.remaining, "{clock:?} {hard:?}");
                assert!(soft >= MS(25), "move {n}: {clock:?} {soft:?}");
                // A search ends between its two deadlines.
                clock.remaining = clock.remaining - (soft + hard) / 2 + clock.increment;
                clock.expected_moves = clock.expected_moves.map(|m| m.saturating_sub(1).max(10));
            }
            assert!(clock.remaining >= MS(overhead), "{clock:?}");
        }
        // Up to 100 ms the reserve is thirty overheads, whatever the clock.
        let clock = |ms| Clock {
            remaining: MS(ms),
            ..Clock::default()
        };
        assert_eq!(clock(1_000).reserve(MS(100)), MS(3_000));
        assert_eq!(clock(1_000).reserve(MS(101)), MS(250));
        assert_eq!(clock(60_000).reserve(MS(1_000)), MS(15_000));
        assert_eq!(clock(600_000).reserve(MS(1_000)), MS(30_000));
    }

    /// Plays `moves` moves on `clock`, each taking its hard deadline and `lag` beyond it
    /// (`stall` more at every 50th), and returns the least time left after a move (before its
    /// increment) and the time left at the end.
    fn play_out(mut clock: Clock, moves: u32, lag: u64, stall: u64) -> (Duration, Duration) {
        let mut least = clock.remaining;
        for n in 1..=moves {
            let (_, hard) = clock.budget(MS(10));
            let stalled = if n % 50 == 0 { stall } else { 0 };
            clock.remaining = clock.remaining.saturating_sub(hard + MS(lag + stalled));
            least = least.min(clock.remaining);
            clock.remaining += clock.increment;
            clock.expected_moves = clock.expected_moves.map(|m| m.saturating_sub(1).max(10));
        }
        (least, clock.remaining)
    }

    #[test]
    fn the_reserve_holds_through_a_long_game() {
        // Lerontenin's 400 moves a side at 2 s + 20 ms, with the lag the overhead expects:
        // the clock comes down to the reserve and stays there.
        let start = Clock {
            remaining: MS(2_000),
            increment: MS(20),
            moves_to_go: None,
            expected_moves: Some(200),
        };
        let reserve = start.reserve(MS(10));
        let (least, end) = play_out(start, 400, 10, 0);
        assert!(least + start.increment >= reserve, "{least:?}");
        assert!(end >= reserve, "{end:?}");
        // A stall of 150 ms every 50 moves comes off the reserve, and the increments
        // fill it again before the next: it never runs down.
        let (least, end) = play_out(start, 400, 10, 150);
        assert!(least + start.increment + MS(150) >= reserve, "{least:?}");
        assert!(end + MS(150) >= reserve, "{end:?}");
        // A quiet machine's lag (1 ms): the slack goes into the search, not the reserve.
        let (least, _) = play_out(start, 400, 1, 0);
        assert!(least < reserve + MS(100), "{least:?}");
    }

    #[test]
    fn before_a_control_only_its_moves_keep_a_reserve() {
        let clock = |moves_to_go| Clock {
            remaining: MS(10_000),
            increment: Duration::ZERO,
            moves_to_go: Some(moves_to_go),
            expected_moves: Some(200),
        };
        assert_eq!(clock(1).reserve(MS(10)), Duration::ZERO);
        assert_eq!(clock(5).reserve(MS(10)), MS(40));
        assert_eq!(clock(40).reserve(MS(10)), MS(10) * RESERVE_MOVES);
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
