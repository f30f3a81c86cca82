//! The flags a running search shares with whoever started it: stop, ponder, answered, the
//! wait of a best move that is due only after `stop` or `ponderhit`, and the watchdog's
//! wait for the hard deadline.
//!
//! The search reads the atomics at its polls; the threads that wait (the one that holds
//! the best move back, the watchdog) sleep on a condition variable that
//! [`SearchFlags::stop`], [`SearchFlags::ponderhit`] and [`SearchFlags::answered`] wake, so
//! they follow them at once without a busy wait.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use crate::core::clock::Instant;

use crate::search::{Control, RootMove, RootReports};

/// The flags shared with a search thread. Clones share the same flags.
#[derive(Clone, Debug, Default)]
pub struct SearchFlags {
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
    /// The best move was given.
    answered: Arc<AtomicBool>,
    /// Wait for `stop` before giving the best move (`go infinite`).
    wait_for_stop: bool,
    /// Woken whenever `stop` or `pondering` changes.
    changed: Arc<(Mutex<()>, Condvar)>,
}

impl SearchFlags {
    /// Flags of a search that answers as soon as it is done (`wait_for_stop` false) or only
    /// after `stop`, and that starts pondering or not.
    pub fn new(wait_for_stop: bool, pondering: bool) -> Self {
        SearchFlags {
            wait_for_stop,
            pondering: Arc::new(AtomicBool::new(pondering)),
            ..SearchFlags::default()
        }
    }

    /// Ends the search at once (its best move still follows).
    pub fn stop(&self) {
        self.set(&self.stop, true);
    }

    /// The pondered move was played: the clock starts, and the best move may follow.
    pub fn ponderhit(&self) {
        self.set(&self.pondering, false);
    }

    /// The best move was given: the watchdog may rest.
    pub fn answered(&self) {
        self.set(&self.answered, true);
    }

    fn set(&self, flag: &AtomicBool, value: bool) {
        let (lock, changed) = &*self.changed;
        let _guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
        flag.store(value, Ordering::Relaxed);
        changed.notify_all();
    }

    /// The stop flag, as the search polls it.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The ponder flag, as the search polls it.
    pub fn pondering_flag(&self) -> &AtomicBool {
        &self.pondering
    }

    /// What the search is told while it runs: these flags, and `report` for each root move
    /// it starts on once it has run for [`CURRMOVE_AFTER`](super::CURRMOVE_AFTER).
    pub fn control<'a, M>(&'a self, report: &'a dyn Fn(RootMove<M>)) -> Control<'a, M> {
        Control {
            stop: &self.stop,
            pondering: &self.pondering,
            root_moves: Some(RootReports {
                after: super::CURRMOVE_AFTER,
                report,
            }),
            slice: None,
        }
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Blocks until the best move may be given: at once, unless the search was to wait for
    /// `stop` (`go infinite`) or is still pondering, in which case until `stop` (or, when
    /// pondering, `ponderhit`).
    pub fn wait_for_release(&self) {
        let (lock, changed) = &*self.changed;
        let mut guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
        while !self.released() {
            guard = changed.wait(guard).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Whether the best move may be given now: what [`SearchFlags::wait_for_release`]
    /// waits for, for a caller that cannot wait (a search in slices).
    pub fn released(&self) -> bool {
        !(self.wait_for_stop || self.pondering.load(Ordering::Relaxed)) || self.is_stopped()
    }

    /// The watchdog's wait: blocks until the best move is given (`false`) or the hard
    /// deadline has passed (`true`): `hard` after `since`, or after the `ponderhit` of a
    /// search that started pondering.
    pub fn wait_for_deadline(&self, since: Instant, hard: Duration) -> bool {
        let (lock, changed) = &*self.changed;
        let mut guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
        let mut deadline = (!self.pondering.load(Ordering::Relaxed)).then_some(since + hard);
        loop {
            if self.answered.load(Ordering::Relaxed) {
                return false;
            }
            match deadline {
                None if !self.pondering.load(Ordering::Relaxed) => {
                    deadline = Some(Instant::now() + hard);
                }
                None => guard = changed.wait(guard).unwrap_or_else(PoisonError::into_inner),
                Some(at) => {
                    let now = Instant::now();
                    if now >= at {
                        return true;
                    }
                    guard = (changed.wait_timeout(guard, at - now))
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;
    use std::time::Duration;

    #[test]
    fn a_held_answer_is_released_by_stop_or_ponderhit() {
        for release in [SearchFlags::stop, SearchFlags::ponderhit] {
            let flags = SearchFlags::new(false, true);
            let waiter = {
                let flags = flags.clone();
                thread::spawn(move || flags.wait_for_release())
            };
            thread::sleep(Duration::from_millis(20));
            assert!(!waiter.is_finished(), "released before the signal");
            release(&flags);
            waiter.join().expect("the waiter");
        }
        // `go infinite` waits for stop alone: a ponderhit does not release it.
        let flags = SearchFlags::new(true, false);
        flags.ponderhit();
        let waiter = {
            let flags = flags.clone();
            thread::spawn(move || flags.wait_for_release())
        };
        thread::sleep(Duration::from_millis(20));
        assert!(!waiter.is_finished());
        flags.stop();
        waiter.join().expect("the waiter");
    }

    #[test]
    fn the_watchdog_waits_for_the_deadline_or_the_answer() {
        let long = Duration::from_secs(3_600);
        // Past its deadline: due at once.
        let flags = SearchFlags::new(false, false);
        assert!(flags.wait_for_deadline(Instant::now(), Duration::ZERO));
        // Answered before a deadline an hour away: not due, and woken at once.
        let waiter = {
            let flags = flags.clone();
            thread::spawn(move || flags.wait_for_deadline(Instant::now(), long))
        };
        thread::sleep(Duration::from_millis(20));
        assert!(!waiter.is_finished());
        flags.answered();
        assert!(!waiter.join().expect("the watchdog"));
        // Pondering: no deadline until the ponderhit, then it counts from there.
        let flags = SearchFlags::new(false, true);
        let waiter = {
            let flags = flags.clone();
            thread::spawn(move || flags.wait_for_deadline(Instant::now(), Duration::ZERO))
        };
        thread::sleep(Duration::from_millis(20));
        assert!(!waiter.is_finished(), "due while pondering");
        flags.ponderhit();
        assert!(waiter.join().expect("the watchdog"));
    }
}
