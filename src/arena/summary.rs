//! The result of a match from the first engine's point of view: accounted game by game
//! as the match runs, or from the records of a match (or of its shards), and written for
//! people.

use std::time::Duration;

use crate::core::clock::Instant;

use super::record::{GameRecord, ParsedRecord, Termination};
use super::schedule::{first_engine_colour, seated};
use super::stats::{Sprt, SprtState, Tally};
use crate::core::printable::plies;
use crate::core::{Outcome, Player};
use crate::protocol::format::result_word;

/// What a worker reports for each game.
pub(super) struct Played {
    pub record: GameRecord,
    /// The colour the first engine had.
    pub first_engine_as: Player,
    pub names: [String; 2],
    pub least_time_left: Option<Duration>,
    /// Its opening is shorter than the plies asked: every random line that long ended the
    /// game.
    pub short_opening: bool,
}

/// A game that ended other than by the rules: which engine failed and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub game: u32,
    /// 0 for the first engine, 1 for the second.
    pub engine: usize,
    pub termination: Termination,
}

/// The result of a match, from the first engine's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    pub names: [String; 2],
    pub tally: Tally,
    /// The first engine's results when it played p1, and when it played p2.
    pub by_colour: [Tally; 2],
    pub failures: Vec<Failure>,
    pub total_plies: u64,
    /// With a clock: the least time any engine had left after a move (before its increment).
    pub least_time_left: Option<Duration>,
    /// The games whose opening is shorter than the plies asked.
    pub short_openings: u32,
    pub sprt: Option<SprtState>,
}

impl MatchSummary {
    /// A summary of no game yet, between engines called `names`.
    pub(super) fn new(names: [String; 2]) -> Self {
        MatchSummary {
            names,
            tally: Tally::default(),
            by_colour: [Tally::default(); 2],
            failures: Vec::new(),
            total_plies: 0,
            least_time_left: None,
            short_openings: 0,
            sprt: None,
        }
    }

    /// Adds one game.
    pub(super) fn account(&mut self, played: &Played) {
        let record = &played.record;
        let first = played.first_engine_as;
        let colour = &mut self.by_colour[first.index()];
        for tally in [&mut self.tally, colour] {
            match record.outcome {
                Outcome::Win(winner) if winner == first => tally.wins += 1,
                Outcome::Win(_) => tally.losses += 1,
                Outcome::Draw => tally.draws += 1,
            }
        }
        self.total_plies += (record.opening.len() + record.moves.len()) as u64;
        self.short_openings += u32::from(played.short_opening);
        if let Some(left) = played.least_time_left {
            let least = self.least_time_left.get_or_insert(left);
            *least = (*least).min(left);
        }
        if let Some(culprit) = record.termination.culprit() {
            self.failures.push(Failure {
                game: record.number,
                engine: if culprit == first { 0 } else { 1 },
                termination: record.termination.clone(),
            });
        }
    }

    /// The state of the match: games done of those to play, score, Elo, time taken and
    /// left.
    pub(super) fn status_line(&self, to_play: u32, started: Instant) -> String {
        format!(
            "{} of {to_play} games, {}, {}",
            self.tally.games(),
            self.standing(),
            self.time_taken(to_play, started)
        )
    }

    /// The line of a game just accounted: its result, then the match's state.
    pub(super) fn game_line(&self, record: &GameRecord, to_play: u32, started: Instant) -> String {
        let mut line = format!(
            "game {} ({} of {to_play} done): {} - {}: {} ({}), {} | {}",
            record.number,
            self.tally.games(),
            record.players[0],
            record.players[1],
            result_word(Some(record.outcome)),
            record.termination,
            plies((record.opening.len() + record.moves.len()) as u64),
            self.standing(),
        );
        if let Some(sprt) = &self.sprt {
            line.push_str(&format!(" | {sprt}"));
        }
        line.push_str(" | ");
        line.push_str(&self.time_taken(to_play, started));
        line
    }

    /// W/D/L, the score and the Elo so far.
    fn standing(&self) -> String {
        let mut text = format!("{} score {}", self.tally, percent(self.tally.score()));
        if let Some(elo) = self.tally.elo() {
            text.push_str(&format!(" Elo {elo}"));
        }
        text
    }

    /// `<elapsed> elapsed, about <left> left` for a match of `to_play` games started at
    /// `started` (no estimate before the first game or after the last).
    fn time_taken(&self, to_play: u32, started: Instant) -> String {
        let done = self.tally.games();
        let elapsed = started.elapsed();
        let mut text = format!("{} elapsed", clock_time(elapsed));
        if done > 0 && done < to_play {
            let left = elapsed.mul_f64(f64::from(to_play - done) / f64::from(done));
            text.push_str(&format!(", about {} left", clock_time(left)));
        }
        text
    }

    /// Plies per game, openings included.
    pub fn average_length(&self) -> f64 {
        self.total_plies as f64 / self.tally.games().max(1) as f64
    }

    /// The summary for people, several lines.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let tally = &self.tally;
        let line = |out: &mut String, text: String| {
            out.push_str(&text);
            out.push('\n');
        };
        line(
            &mut out,
            format!(
                "{} vs {}: {} games",
                self.names[0],
                self.names[1],
                tally.games()
            ),
        );
        line(
            &mut out,
            format!(
                "W/D/L {}/{}/{}  score {}  draws {}",
                tally.wins,
                tally.draws,
                tally.losses,
                percent(tally.score()),
                percent(tally.draw_ratio())
            ),
        );
        if let Some(elo) = tally.elo() {
            line(&mut out, format!("Elo {elo} (95%)"));
        }
        for (colour, tally) in ["p1", "p2"].iter().zip(&self.by_colour) {
            line(
                &mut out,
                format!(
                    "as {colour}: W/D/L {}/{}/{}  score {}",
                    tally.wins,
                    tally.draws,
                    tally.losses,
                    percent(tally.score())
                ),
            );
        }
        line(
            &mut out,
            format!(
                "average length {:.1} plies (openings included)",
                self.average_length()
            ),
        );
        if let Some(least) = self.least_time_left {
            line(
                &mut out,
                format!("least time left on a clock: {} ms", least.as_millis()),
            );
        }
        if self.short_openings > 0 {
            line(
                &mut out,
                format!(
                    "{} games opened with fewer random plies than asked: every random line \
                     that long ended the game, so the longest that did not was played",
                    self.short_openings
                ),
            );
        }
        if let Some(sprt) = &self.sprt {
            line(&mut out, format!("SPRT {sprt}"));
        }
        if self.failures.is_empty() {
            line(&mut out, "every game ended by the rules".to_owned());
        }
        for failure in &self.failures {
            line(
                &mut out,
                format!(
                    "game {}: {} lost: {}",
                    failure.game, self.names[failure.engine], failure.termination
                ),
            );
        }
        out
    }
}

/// A duration as `h:mm:ss` or `m:ss`.
fn clock_time(duration: Duration) -> String {
    let seconds = duration.as_secs();
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

fn percent(share: Option<f64>) -> String {
    share.map_or("-".to_owned(), |s| format!("{:.1}%", s * 100.0))
}

/// The summary of a match from its records: one file, or the shards of a match merged. The
/// first engine is the one that plays p1 in game 1 (and in every odd-numbered game), as in a
/// match; `sprt` gives the state of the sequential test. The clock margins are not in the
/// records, so the summary has none.
pub fn summarize_records(
    records: &[ParsedRecord],
    sprt: Option<Sprt>,
) -> Result<MatchSummary, String> {
    let mut games = records
        .iter()
        .map(ParsedRecord::to_game_record)
        .collect::<Result<Vec<_>, _>>()?;
    games.sort_by_key(|game| game.number);
    if let Some(pair) = games.windows(2).find(|w| w[0].number == w[1].number) {
        return Err(format!("game {} is recorded twice", pair[0].number));
    }
    if let Some(game) = games.iter().find(|game| game.variant != games[0].variant) {
        return Err(format!(
            "game {} is {}, game {} is {}: not one match",
            games[0].number, games[0].variant, game.number, game.variant
        ));
    }
    let mut summary = MatchSummary::new([String::new(), String::new()]);
    for record in games {
        let Some(index) = record.number.checked_sub(1) else {
            return Err("game 0 in the records: games are numbered from 1".to_owned());
        };
        let first_engine_as = first_engine_colour(index);
        // The colours' names, seated back by engine.
        let names = seated(first_engine_as, record.players.clone());
        if summary.tally.games() == 0 {
            summary.names = names.clone();
        }
        let played = Played {
            record,
            first_engine_as,
            names,
            least_time_left: None,
            short_opening: false,
        };
        summary.account(&played);
    }
    summary.sprt = sprt.map(|sprt| sprt.state(&summary.tally));
    Ok(summary)
}
