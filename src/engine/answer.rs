//! The one answer of a search. Every event of a search passes through its [`Answer`] until
//! the best move, and the best move is given exactly once: by the search, or at the hard
//! deadline by a watchdog thread that slept until then.
//!
//! Why a watchdog: the search looks at its deadline only while it runs, and on a loaded
//! machine a thread starved of the CPU may run again tens of milliseconds late, past the
//! clock. A thread that slept until the deadline is woken by the scheduler promptly (a
//! sleeper goes before the busy threads), gives the best move the search knows (the best
//! line of its last completed iteration, or before one completes the move that looks best
//! one ply ahead, with an `info` line of depth 0 and the static evaluation, as every answer
//! has one), and stops the search. Whatever the search says after that is dropped, so `bestmove` stays
//! the last line of every `go`.
//!
//! Even a watchdog wakes late on a loaded machine, and writing the line takes its turn.
//! How late each answer came past its hard deadline is learned ([`Lateness`]), and the
//! session plans the next searches with it on top of the overhead: the answer is written by
//! the deadline the caller counts.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::Duration;

use crate::core::clock::Instant;

use super::event::{Event, Listener};
use super::flags::SearchFlags;
use crate::search::Info;

/// How long past the hard deadline a search that runs is given to answer for itself: it
/// looks at the stop flag every thousand nodes or so, and its answer may be better than
/// the watchdog's (a new best root move of the iteration it was in).
const GRACE: Duration = Duration::from_millis(2);

/// The most lateness learned: past it the machine is too slow for any plan.
const MAX_LATENESS: Duration = Duration::from_millis(100);

/// How late a session's answers came past their hard deadlines: widened at once to a later
/// answer, narrowed by an eighth of the gap at each answer on time.
#[derive(Debug, Default)]
pub(super) struct Lateness(Mutex<Duration>);

impl Lateness {
    pub(super) fn learned(&self) -> Duration {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn learn(&self, late: Duration) {
        let late = late.min(MAX_LATENESS);
        let mut learned = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *learned = match late > *learned {
            true => late,
            false => *learned - (*learned - late) / 8,
        };
    }
}

/// The gate of one search's events, and the best move it knows.
pub(super) struct Answer {
    listener: Listener,
    flags: SearchFlags,
    /// The move of last resort, the one that looks best one ply ahead, reported unsearched
    /// (`None` once the game is over).
    fallback: Option<Info<String>>,
    /// Whether the best move may carry the expected reply.
    ponder_move: bool,
    /// The hard deadline, where it is known when the search starts (not while pondering),
    /// and where how late the answer came is learned.
    deadline: Option<(Instant, Arc<Lateness>)>,
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
        fallback: Option<Info<String>>,
        ponder_move: bool,
        deadline: Option<(Instant, Arc<Lateness>)>,
    ) -> Self {
        Answer {
            listener,
            flags,
            fallback,
            ponder_move,
            deadline,
            state: Mutex::new(State::default()),
        }
    }

    /// The best move is out: how late it came is learned, and the watchdog may rest.
    fn answered(&self) {
        if let Some((deadline, lateness)) = &self.deadline {
            lateness.learn(Instant::now().saturating_duration_since(*deadline));
        }
        self.flags.answered();
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
            self.answered();
        }
    }

    /// Whether an iteration has completed: the best move known is the search's.
    fn knows_a_line(&self) -> bool {
        !self.state().line.is_empty()
    }

    /// Gives the best move known, unless the best move was given already; `since` is
    /// when the move's time started.
    fn give_known(&self, since: Instant) {
        let mut state = self.state();
        if state.given {
            return;
        }
        state.given = true;
        if state.line.is_empty()
            && let Some(fallback) = &self.fallback
        {
            let info = Info {
                time: since.elapsed(),
                ..fallback.clone()
            };
            state.line.clone_from(&info.pv);
            (self.listener)(Event::Info(info));
        }
        let mut line = state.line.iter().cloned();
        let best = line.next();
        let ponder = line.next().filter(|_| self.ponder_move);
        (self.listener)(Event::BestMove { best, ponder });
        self.answered();
    }
}

/// Starts the watchdog of a search whose hard deadline is `hard` after `since` (after the
/// `ponderhit`, if it ponders), with `overhead` kept for the protocol: at the deadline it
/// stops the search, and if the search has not answered within [`GRACE`], it gives the
/// best line's move itself. A search that has not completed even its first iteration (a matter of
/// microseconds, when its thread runs) is waited for until half the overhead is gone too,
/// the last moment to answer on time, before the move of last resort answers for it. The
/// watchdog ends as soon as the search answers.
pub(super) fn watch(answer: Arc<Answer>, since: Instant, hard: Duration, overhead: Duration) {
    thread::spawn(move || {
        let flags = &answer.flags;
        if !flags.wait_for_deadline(since, hard) {
            return;
        }
        // A search that runs stops at once and answers within the grace.
        flags.stop();
        if !flags.wait_for_deadline(Instant::now(), GRACE) {
            return;
        }
        let last_moment = (overhead / 2).saturating_sub(GRACE);
        if answer.knows_a_line() || flags.wait_for_deadline(Instant::now(), last_moment) {
            answer.give_known(since);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Score;

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

    fn fallback(mv: &str) -> Option<Info<String>> {
        Some(Info::unsearched(mv.to_owned(), 7))
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
        let answer = Answer::new(listener, SearchFlags::default(), fallback("a1"), true, None);
        answer.pass(info(&["b2", "c3"], None));
        answer.pass(info(&["d4"], Some(2)));
        answer.give_known(Instant::now());
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
        let lateness = Arc::new(Lateness::default());
        let deadline = Some((Instant::now(), Arc::clone(&lateness)));
        let answer = Arc::new(Answer::new(
            listener,
            flags.clone(),
            fallback("a1"),
            false,
            deadline,
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
        assert!(
            lateness.learned() > Duration::ZERO,
            "its lateness is learned"
        );
        let events = events.lock().unwrap();
        assert_eq!(events.len(), 2, "{events:?}");
        // An `info` line first, as before every answer: depth 0, the static evaluation.
        assert!(
            matches!(&events[0], Event::Info(info) if info.depth == 0 && info.pv == ["a1"]),
            "{events:?}"
        );
        assert_eq!(
            events[1],
            Event::BestMove {
                best: Some("a1".into()),
                ponder: None
            }
        );
    }

    #[test]
    fn lateness_widens_at_once_and_narrows_slowly() {
        let lateness = Lateness::default();
        let ms = Duration::from_millis;
        lateness.learn(ms(16));
        assert_eq!(lateness.learned(), ms(16));
        lateness.learn(Duration::ZERO);
        assert_eq!(lateness.learned(), ms(14));
        lateness.learn(ms(20));
        assert_eq!(lateness.learned(), ms(20));
        lateness.learn(ms(10_000));
        assert_eq!(lateness.learned(), MAX_LATENESS);
    }
}
