//! The one answer of a search. Every event of a search passes through its [`Answer`] until
//! the best move, and the best move is given exactly once: by the search, or at the hard
//! deadline by a watchdog thread that slept until then.
//!
//! Why a watchdog: the search looks at its deadline only while it runs, and on a loaded
//! machine a thread starved of the CPU may run again tens of milliseconds late, past the
//! clock. A thread that slept until the deadline is woken by the scheduler promptly (a
//! sleeper goes before the busy threads), gives the best move the search knows (the best
//! line of its last completed iteration, or before one completes the first legal move),
//! and stops the search. Whatever the search says after that is dropped, so `bestmove`
//! stays the last line of every `go`.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::{Event, Listener, SearchFlags};

/// How long past the hard deadline the watchdog lets a running search answer for itself
/// (a search that runs notices its deadline within microseconds; only a starved one needs
/// the watchdog).
const GRACE: Duration = Duration::from_millis(2);

/// The gate of one search's events, and the best move it knows.
pub(super) struct Answer {
    listener: Listener,
    flags: SearchFlags,
    /// The move of last resort: the first legal move (`None` once the game is over).
    fallback: Option<String>,
    /// Whether the best move may carry the expected reply.
    ponder_move: bool,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    given: bool,
    /// The best line of the last completed iteration, in notation.
    line: Vec<String>,
}

impl Answer {
    pub(super) fn new(
        listener: Listener,
        flags: SearchFlags,
        fallback: Option<String>,
        ponder_move: bool,
    ) -> Self {
        Answer {
            listener,
            flags,
            fallback,
            ponder_move,
            state: Mutex::new(State::default()),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Passes the search's `event` on, unless the best move was given already; keeps each
    /// iteration's best line as the best move known.
    pub(super) fn pass(&self, event: Event) {
        let mut state = self.state();
        if state.given {
            return;
        }
        match &event {
            Event::Info(info) if info.multipv.unwrap_or(1) == 1 && !info.pv.is_empty() => {
                state.line.clone_from(&info.pv);
            }
            Event::BestMove { .. } => state.given = true,
            _ => {}
        }
        (self.listener)(event);
        if state.given {
            self.flags.answered();
        }
    }

    /// Whether an iteration has completed: the best move known is the search's.
    fn knows_a_line(&self) -> bool {
        !self.state().line.is_empty()
    }

    /// Gives the best move known, unless the best move was given already.
    fn give_known(&self) {
        let mut state = self.state();
        if state.given {
            return;
        }
        state.given = true;
        let mut line = state.line.iter().cloned();
        let best = line.next().or_else(|| self.fallback.clone());
        let ponder = line.next().filter(|_| self.ponder_move);
        (self.listener)(Event::BestMove { best, ponder });
        self.flags.answered();
    }
}

/// Starts the watchdog of a search whose hard deadline is `hard` after `since` (after the
/// `ponderhit`, if it ponders), with `overhead` kept for the protocol: past the deadline, if
/// the search has not answered, the watchdog gives the best line's move and stops the
/// search. A search that has not completed even its first iteration (a matter of
/// microseconds, when its thread runs) is waited for until half the overhead is gone too,
/// the last moment to answer on time, before the first legal move answers for it. The
/// watchdog ends as soon as the search answers.
pub(super) fn watch(answer: Arc<Answer>, since: Instant, hard: Duration, overhead: Duration) {
    thread::spawn(move || {
        let flags = &answer.flags;
        if !flags.wait_for_deadline(since, hard + GRACE) {
            return;
        }
        let last_moment = (overhead / 2).saturating_sub(GRACE);
        if answer.knows_a_line() || flags.wait_for_deadline(Instant::now(), last_moment) {
            flags.stop();
            answer.give_known();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Info, Score};

    fn info(pv: &[&str], multipv: Option<u32>) -> Event {
        Event::Info(Info {
            depth: 1,
            seldepth: 1,
            score: Score::Centipawns(0),
            nodes: 1,
            nps: 1,
            time: Duration::ZERO,
            hashfull: 0,
            tbhits: None,
            multipv,
            pv: pv.iter().map(|mv| mv.to_string()).collect(),
        })
    }

    fn recording() -> (Listener, Arc<Mutex<Vec<Event>>>) {
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&events);
        (
            Arc::new(move |event| sink.lock().unwrap().push(event)),
            events,
        )
    }

    #[test]
    fn the_first_best_move_is_the_last_event() {
        let (listener, events) = recording();
        let answer = Answer::new(listener, SearchFlags::default(), Some("a1".into()), true);
        answer.pass(info(&["b2", "c3"], None));
        answer.pass(info(&["d4"], Some(2)));
        answer.give_known();
        // The search's own answer and lines come too late: dropped.
        answer.pass(info(&["e5"], None));
        answer.pass(Event::BestMove {
            best: Some("e5".into()),
            ponder: None,
        });
        let events = events.lock().unwrap();
        assert_eq!(events.len(), 3, "{events:?}");
        assert_eq!(
            events[2],
            Event::BestMove {
                best: Some("b2".into()),
                ponder: Some("c3".into())
            }
        );
    }

    #[test]
    fn before_any_iteration_the_first_legal_move_answers() {
        let (listener, events) = recording();
        let flags = SearchFlags::new(false, false);
        let answer = Arc::new(Answer::new(
            listener,
            flags.clone(),
            Some("a1".into()),
            false,
        ));
        // The search never runs: the watchdog answers at the last moment and stops it.
        watch(
            Arc::clone(&answer),
            Instant::now(),
            Duration::ZERO,
            Duration::ZERO,
        );
        flags.wait_for_deadline(Instant::now(), Duration::from_secs(3_600));
        assert!(flags.is_stopped());
        let events = events.lock().unwrap();
        assert_eq!(
            *events,
            [Event::BestMove {
                best: Some("a1".into()),
                ponder: None
            }]
        );
    }
}
