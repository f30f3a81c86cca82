//! The lag of the machine and the GUI, learned from the clock.
//!
//! Each timed `go` tells the time left on the engine's clock. Set against the time the
//! engine measured for its own last move (from the arrival of `go` to the `bestmove` it
//! wrote), it tells how much more the GUI's clock counted: the time the lines spent in
//! pipes, the scheduler's delays, the GUI's own. The learned lag widens at once to any
//! larger figure and narrows back slowly (an eighth of the gap a move), and the daemon plans
//! every timed move with the larger of it and `Move Overhead`: the right overhead on a
//! loaded machine and on a quiet one, with no setting to tune.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::core::clock::Instant;

use crate::core::Player;

/// The most lag learned: past it the machine is too slow to play this clock by any plan,
/// and one freak stall must not make every move of the game a token one.
pub const MAX_LAG: Duration = Duration::from_millis(500);

/// How fast the learned lag narrows: by this fraction of the gap a move.
const NARROW_BY: u32 = 8;

/// A timed move the engine was asked for, to be set against the next clock.
#[derive(Clone, Debug)]
struct Asked {
    side: Player,
    remaining: Duration,
    increment: Duration,
    received: Instant,
    /// When the engine wrote its answer (set by whoever writes it).
    answered: Arc<OnceLock<Instant>>,
}

/// What has been learned of the lag, and the timed move in flight.
#[derive(Debug, Default)]
pub struct LagMeter {
    learned: Duration,
    asked: Option<Asked>,
}

/// The clock of a `go`, as the lag meter needs it.
#[derive(Clone, Copy, Debug)]
pub struct ClockReport {
    pub side: Player,
    pub remaining: Duration,
    pub increment: Duration,
}

impl LagMeter {
    /// The lag learned so far.
    pub fn learned(&self) -> Duration {
        self.learned
    }

    /// Forgets the move in flight (a new game: its clock does not follow the last one).
    /// What was learned of the machine stays.
    pub fn new_game(&mut self) {
        self.asked = None;
    }

    /// A `go` arrived at `received` with `clock` (`None`: no clock, or a search the clock
    /// does not run for yet, such as `go ponder`). Learns from the last timed move if this
    /// clock follows it, and returns where the answer's time is to be written.
    pub fn go(&mut self, clock: Option<ClockReport>, received: Instant) -> Arc<OnceLock<Instant>> {
        if let (Some(asked), Some(now)) = (self.asked.take(), clock)
            && let Some(lag) = lag_between(&asked, now)
        {
            self.learn(lag);
        }
        let answered = Arc::new(OnceLock::new());
        self.asked = clock.map(|clock| Asked {
            side: clock.side,
            remaining: clock.remaining,
            increment: clock.increment,
            received,
            answered: Arc::clone(&answered),
        });
        answered
    }

    fn learn(&mut self, lag: Duration) {
        let lag = lag.min(MAX_LAG);
        self.learned = match lag > self.learned {
            true => lag,
            false => self.learned - (self.learned - lag) / NARROW_BY,
        };
    }
}

/// The time the GUI's clock counted beyond what the engine measured for `asked`, if `now`
/// is the same side's clock one move later (not a new game, nor a new time control: those
/// show more time than the last move left).
fn lag_between(asked: &Asked, now: ClockReport) -> Option<Duration> {
    let answered = *asked.answered.get()?;
    let engine = answered.saturating_duration_since(asked.received);
    let refilled = asked.remaining + asked.increment;
    if now.side != asked.side || now.remaining > refilled {
        return None;
    }
    let counted = refilled - now.remaining;
    Some(counted.saturating_sub(engine))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    fn clock(side: Player, remaining: u64, increment: u64) -> Option<ClockReport> {
        Some(ClockReport {
            side,
            remaining: MS(remaining),
            increment: MS(increment),
        })
    }

    /// One timed move: asked at `remaining`, answered after `engine` ms by the engine's
    /// measure.
    fn ask(meter: &mut LagMeter, remaining: u64, engine: u64, received: Instant) {
        let answered = meter.go(clock(Player::P1, remaining, 20), received);
        answered.set(received + MS(engine)).unwrap();
    }

    #[test]
    fn the_lag_widens_at_once_and_narrows_slowly() {
        let mut meter = LagMeter::default();
        let start = Instant::now();
        // The engine took 50 ms, the GUI's clock counted 80 (1,000 + 20 - 940).
        ask(&mut meter, 1_000, 50, start);
        ask(&mut meter, 940, 50, start);
        assert_eq!(meter.learned(), MS(30));
        // The GUI counts what the engine counted: the lag narrows by an eighth a move.
        ask(&mut meter, 910, 50, start);
        assert_eq!(meter.learned(), MS(30) - MS(30) / 8);
        let mut last = meter.learned();
        for remaining in (0..20).map(|n| 880 - 30 * n) {
            ask(&mut meter, remaining, 50, start);
            assert!(meter.learned() < last);
            last = meter.learned();
        }
        assert!(meter.learned() < MS(3), "{:?}", meter.learned());
        // A worse stall widens it again at once, up to the cap.
        let mut meter = LagMeter::default();
        ask(&mut meter, 60_000, 50, start);
        ask(&mut meter, 50_000, 50, start);
        assert_eq!(meter.learned(), MAX_LAG);
    }

    #[test]
    fn only_a_clock_that_follows_the_last_move_teaches() {
        let start = Instant::now();
        let mut meter = LagMeter::default();
        // A new game (more time than the last move left), the other side's clock, a `go`
        // without a clock in between, a move never answered: nothing learned.
        ask(&mut meter, 1_000, 50, start);
        ask(&mut meter, 2_000, 50, start);
        meter.go(clock(Player::P2, 500, 20), start);
        meter.go(clock(Player::P2, 400, 20), start);
        ask(&mut meter, 1_000, 50, start);
        meter.go(None, start);
        ask(&mut meter, 500, 50, start);
        meter.new_game();
        ask(&mut meter, 100, 50, start);
        assert_eq!(meter.learned(), Duration::ZERO);
        // The GUI counted less than the engine (its clock is coarser): no lag, not less.
        ask(&mut meter, 90, 50, start);
        assert_eq!(meter.learned(), Duration::ZERO);
    }
}
