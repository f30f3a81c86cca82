//! The referee: plays one game between two engine processes and judges every move with the
//! rules library, never with the engines' word.
//!
//! Each turn the engine to move gets the whole game as `position startpos moves ...` (so it
//! sees the history that repetition rules need) and a `go` with its limits. Its answer must
//! parse and be legal here; the game ends when the library's `outcome()` says so. An
//! illegal or unparsable move, `bestmove (none)` in a live position, a crash, silence past
//! the deadline or a fallen flag loses the game for that engine; a flag fall is scored by the
//! game's own rule ([`Rules::flag_fall`](crate::rules::Rules::flag_fall), which for Lerontenin compares square totals).

use std::time::Duration;

use super::process::{EngineError, EngineProcess};
use super::record::Termination;
use crate::core::{Outcome, Player};
use crate::games::Playable;
use crate::protocol::command::{Command, GoCommand, PositionCommand};

/// The limits of every move of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock per side: time for the game plus an increment per move.
    Clock { base: Duration, increment: Duration },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed search depth per move.
    Depth(u32),
    /// A fixed node count per move.
    Nodes(u64),
}

/// How long the referee waits for what it is owed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Patience {
    /// Slack past a clock or a fixed move time before the flag falls (pipes and scheduling).
    pub time_margin: Duration,
    /// The wait for a `bestmove` under a depth or node limit, and for `readyok`.
    pub answer_timeout: Duration,
}

/// How a game came out, before it is written up as a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub outcome: Outcome,
    pub termination: Termination,
    /// The engines' moves, in canonical notation.
    pub moves: Vec<String>,
    pub final_position: String,
    /// With a clock: the least time any engine had left after a move of this game (before
    /// its increment), the margin of safety its time management kept.
    pub least_time_left: Option<Duration>,
    /// The `bestmove` lines each colour sent that answered no `go`, ignored.
    pub stale_answers: [u32; 2],
}

/// Where a game's engines start: a position string (`None`: the variant's start) and the
/// opening's moves from it, which the engines are sent before the game's own.
#[derive(Clone, Copy, Debug)]
pub struct Origin<'a> {
    pub fen: Option<&'a str>,
    pub opening: &'a [String],
}

/// Plays one game from `game` (the position after the opening, reached as `from` says).
/// `engines[0]` plays p1.
pub fn play<G: Playable>(
    mut game: G,
    from: Origin<'_>,
    engines: [&mut EngineProcess; 2],
    limits: TimeControl,
    patience: Patience,
) -> Verdict {
    let mut log = GameLog::default();
    let [p1, p2] = engines;
    let stale_before = [p1.stale_answers, p2.stale_answers];
    let (outcome, termination) = referee(
        &mut game,
        from,
        [&mut *p1, &mut *p2],
        limits,
        patience,
        &mut log,
    );
    let stale = [p1.stale_answers, p2.stale_answers];
    Verdict {
        stale_answers: [0, 1].map(|colour| stale[colour] - stale_before[colour]),
        outcome,
        termination,
        moves: log.moves,
        final_position: game.position_string(),
        least_time_left: log.least_time_left,
    }
}

/// What a game leaves besides its result: the moves, and the least time left on a clock.
#[derive(Default)]
struct GameLog {
    moves: Vec<String>,
    least_time_left: Option<Duration>,
}

/// The moves of the game, each refereed, until it ends: how and why.
fn referee<G: Playable>(
    game: &mut G,
    from: Origin<'_>,
    engines: [&mut EngineProcess; 2],
    limits: TimeControl,
    patience: Patience,
    log: &mut GameLog,
) -> (Outcome, Termination) {
    let mut clocks = [Duration::ZERO; 2];
    if let TimeControl::Clock { base, .. } = limits {
        clocks = [base; 2];
    }
    let [p1, p2] = engines;
    let mut engines = [p1, p2];
    for player in Player::BOTH {
        let engine = &mut engines[player.index()];
        let ready = engine
            .send(&Command::NewGame)
            .and_then(|()| engine.ping(patience.answer_timeout));
        if let Err(error) = ready {
            return (Outcome::Win(player.opponent()), failure(error, player));
        }
    }
    loop {
        if let Some(outcome) = game.outcome() {
            return (outcome, Termination::Rules);
        }
        let side = game.side_to_move();
        let engine = &mut engines[side.index()];
        let position = position_command(from, &log.moves);
        let (go, deadline) = go_command(limits, &clocks, side, patience);
        // `isready` before every `go`: a `bestmove` still on its way from the engine's last
        // move answered no `go`, and it comes before `readyok`, so it is counted stale there
        // and never taken for this move's answer (a look at what has arrived cannot tell it
        // from one still in the pipe). The clock starts at `go`.
        let ready = engine
            .send(&position)
            .and_then(|()| engine.ping(patience.answer_timeout));
        if let Err(error) = ready {
            return (Outcome::Win(side.opponent()), failure(error, side));
        }
        let answer = engine.best_move(&go, deadline);
        let (text, used) = match answer {
            Ok(answer) => answer,
            Err(EngineError::TimedOut) if is_timed(limits) => {
                return (game.flag_fall(side), Termination::FlagFall { by: side });
            }
            Err(error) => return (Outcome::Win(side.opponent()), failure(error, side)),
        };
        if overran(
            limits,
            &mut clocks[side.index()],
            used,
            patience.time_margin,
        ) {
            return (game.flag_fall(side), Termination::FlagFall { by: side });
        }
        if let TimeControl::Clock { increment, .. } = limits {
            let left = clocks[side.index()].saturating_sub(increment);
            let least = log.least_time_left.get_or_insert(left);
            *least = (*least).min(left);
        }
        if text == "(none)" {
            return (
                Outcome::Win(side.opponent()),
                Termination::NoMove { by: side },
            );
        }
        match game.parse_move(&text) {
            Ok(mv) => {
                log.moves.push(game.move_string(mv));
                game.make_move(mv);
            }
            Err(error) => {
                let shown = crate::core::printable::cut(&text, 40);
                let termination = Termination::IllegalMove {
                    by: side,
                    text: format!("{shown} ({error})"),
                };
                return (Outcome::Win(side.opponent()), termination);
            }
        }
    }
}

/// How an engine that did not answer `by`'s move loses the game: a crash or a hang.
pub(super) fn failure(error: EngineError, by: Player) -> Termination {
    match error {
        EngineError::Crashed => Termination::Crash { by },
        EngineError::TimedOut => Termination::Hang { by },
    }
}

fn is_timed(limits: TimeControl) -> bool {
    matches!(limits, TimeControl::Clock { .. } | TimeControl::MoveTime(_))
}

/// The whole game so far as one `position` line.
fn position_command(from: Origin<'_>, moves: &[String]) -> Command {
    Command::Position(PositionCommand {
        variant: None,
        fen: from.fen.map(str::to_owned),
        moves: from.opening.iter().chain(moves).cloned().collect(),
    })
}

/// The `go` for `side` and how long to wait for its answer.
fn go_command(
    limits: TimeControl,
    clocks: &[Duration; 2],
    side: Player,
    patience: Patience,
) -> (Command, Duration) {
    let ms = |time: Duration| time.as_millis() as u64;
    let (go, deadline) = match limits {
        TimeControl::Clock { increment, .. } => (
            GoCommand {
                p1time: Some(ms(clocks[0])),
                p2time: Some(ms(clocks[1])),
                p1inc: Some(ms(increment)),
                p2inc: Some(ms(increment)),
                ..GoCommand::default()
            },
            clocks[side.index()] + patience.time_margin,
        ),
        TimeControl::MoveTime(time) => (
            GoCommand {
                movetime: Some(ms(time)),
                ..GoCommand::default()
            },
            time + patience.time_margin,
        ),
        TimeControl::Depth(depth) => (
            GoCommand {
                depth: Some(depth),
                ..GoCommand::default()
            },
            patience.answer_timeout,
        ),
        TimeControl::Nodes(nodes) => (
            GoCommand {
                nodes: Some(nodes),
                ..GoCommand::default()
            },
            patience.answer_timeout,
        ),
    };
    (Command::Go(go), deadline)
}

/// Charges `used` to the clock; whether the flag fell (past the margin).
fn overran(limits: TimeControl, clock: &mut Duration, used: Duration, margin: Duration) -> bool {
    match limits {
        TimeControl::Clock { increment, .. } => {
            if used > *clock + margin {
                return true;
            }
            *clock = clock.saturating_sub(used) + increment;
            false
        }
        TimeControl::MoveTime(time) => used > time + margin,
        TimeControl::Depth(_) | TimeControl::Nodes(_) => false,
    }
}

/// Reads a time control: `<seconds>+<increment seconds>` or `<seconds>`.
pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |part: &str| {
        part.parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("tc: '{text}' is not <seconds>[+<increment>]"))
    };
    let (base, increment) = (seconds(base)?, seconds(increment)?);
    if base.is_zero() && increment.is_zero() {
        return Err(format!("tc: '{text}' leaves no time"));
    }
    Ok(TimeControl::Clock { base, increment })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_read_in_seconds() {
        assert_eq!(
            parse_clock("10+0.1"),
            Ok(TimeControl::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            })
        );
        assert_eq!(
            parse_clock("2.5"),
            Ok(TimeControl::Clock {
                base: Duration::from_millis(2500),
                increment: Duration::ZERO
            })
        );
        for bad in ["", "x", "1+", "-1+1", "0+0", "1e99", "NaN", "5+inf"] {
            assert!(parse_clock(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_clock_takes_the_time_used_and_gives_the_increment() {
        let limits = parse_clock("1+0.1").expect("valid");
        let margin = Duration::from_millis(50);
        let mut clock = Duration::from_secs(1);
        assert!(!overran(
            limits,
            &mut clock,
            Duration::from_millis(300),
            margin
        ));
        assert_eq!(clock, Duration::from_millis(800));
        assert!(!overran(
            limits,
            &mut clock,
            Duration::from_millis(840),
            margin
        ));
        assert_eq!(clock, Duration::from_millis(100));
        assert!(overran(
            limits,
            &mut clock,
            Duration::from_millis(151),
            margin
        ));
        let fixed = TimeControl::MoveTime(Duration::from_millis(100));
        assert!(!overran(
            fixed,
            &mut clock,
            Duration::from_millis(150),
            margin
        ));
        assert!(overran(
            fixed,
            &mut clock,
            Duration::from_millis(151),
            margin
        ));
    }

    #[test]
    fn the_position_line_carries_the_whole_game() {
        let start = |opening| Origin { fen: None, opening };
        assert_eq!(
            position_command(start(&[]), &[]).to_string(),
            "position startpos"
        );
        let opening = ["a".to_owned()];
        let moves = ["b".to_owned(), "c".to_owned()];
        assert_eq!(
            position_command(start(&opening), &moves).to_string(),
            "position startpos moves a b c"
        );
        let from = Origin {
            fen: Some("5/3/3/1/3/3/5 w 0 1"),
            opening: &opening,
        };
        assert_eq!(
            position_command(from, &moves).to_string(),
            "position fen 5/3/3/1/3/3/5 w 0 1 moves a b c"
        );
        let clock = TimeControl::Clock {
            base: Duration::from_secs(1),
            increment: Duration::from_millis(10),
        };
        let clocks = [Duration::from_millis(900), Duration::from_millis(800)];
        let patience = Patience {
            time_margin: Duration::from_millis(10),
            answer_timeout: Duration::from_secs(1),
        };
        let (go, _) = go_command(clock, &clocks, Player::P1, patience);
        assert_eq!(go.to_string(), "go p1time 900 p2time 800 p1inc 10 p2inc 10");
        let (go, _) = go_command(TimeControl::Nodes(5000), &clocks, Player::P2, patience);
        assert_eq!(go.to_string(), "go nodes 5000");
    }
}
