//! One policy for choosing the move to play: the full search, a weakened level, or a
//! baseline (the random and the greedy mover). The search itself stays one search; this is
//! what is done with it.
//!
//! The command line's `--play` names a mover (`search`, `random`, `greedy`, `greedy:P`,
//! `level:N`); the protocol's `Skill Level` and `UCI_Elo` choose a level. Whatever draws a
//! mover makes come from a generator the caller seeds, so that a match can be played again
//! move for move.

use std::fmt;
use std::str::FromStr;

use super::baseline;
use super::levels::{Level, Levels, MAX_LEVEL};
use super::report::Info;
use super::request::SearchRequest;
use super::score::Score;
use super::searchable::Searchable;
use super::threads::Searcher;

/// How the engine picks its move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mover {
    /// The search's best move, within the limits of `go`.
    #[default]
    Full,
    /// Level 0 to 19 of the game's table: a narrower search, and a move drawn among its
    /// best lines.
    Level(u8),
    /// Any legal move, uniformly at random.
    Random,
    /// The greedy move (a winning move if there is one, else the move after which the
    /// static evaluation is best for the mover; ties broken at random) with this chance in
    /// percent, from 1 to 100, else a random move: the rungs between the random and the
    /// greedy mover on a ladder of strengths.
    Greedy { percent: u8 },
}

/// What a mover that searches is given: the team, what `go` asked, and the game's levels.
pub struct Request<'a, G: Searchable> {
    pub searcher: &'a mut Searcher<G>,
    /// The search `go` asked for.
    pub search: SearchRequest<'a, G::Move>,
    /// The game's table of levels 0 to 19.
    pub levels: &'static Levels,
    /// The full engine plays the oracle's choice where the oracle knows every move.
    pub tables_first: bool,
}

impl<G: Searchable> Request<'_, G> {
    /// The search `go` asked for, from `root`, reporting every completed iteration.
    fn search(
        self,
        root: &G,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> super::SearchResult<G::Move> {
        self.searcher.search_with(root, &self.search, on_info)
    }
}

impl Mover {
    /// The names on the command line.
    pub const NAMES: [&'static str; 5] = [
        "search",
        "random",
        "greedy",
        "greedy:<percent>",
        "level:<0-19>",
    ];

    /// The mover of `Skill Level` `level`: the full engine at [`MAX_LEVEL`] and above.
    pub fn at_level(level: u8) -> Mover {
        match level {
            level if level < MAX_LEVEL => Mover::Level(level),
            _ => Mover::Full,
        }
    }

    /// Whether this mover searches (the full engine or a level), as opposed to a baseline.
    pub fn searches(self) -> bool {
        matches!(self, Mover::Full | Mover::Level(_))
    }

    /// The line this mover plays from `root`: the move first, then, when known, the reply
    /// it expects; empty only when the game is over. A mover that searches reports every
    /// completed iteration to `on_info`; the baselines report nothing.
    pub fn choose<G: Searchable>(
        self,
        root: &G,
        request: Request<'_, G>,
        rng: &mut fastrand::Rng,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> Vec<G::Move> {
        let baseline = match self {
            Mover::Full => {
                let chosen = (request.tables_first)
                    .then(|| request.searcher.oracle()?.choose(root))
                    .flatten();
                if let Some(chosen) = chosen {
                    on_info(&Info::of_oracle(chosen));
                    return vec![chosen.mv];
                }
                return request.search(root, on_info).pv;
            }
            Mover::Level(level) => {
                let level = request.levels[usize::from(level.min(MAX_LEVEL - 1))];
                return play_level(&level, root, request, rng, on_info);
            }
            // The baselines too keep to `go searchmoves`.
            Mover::Random => baseline::random_among::<G>(&baseline_moves(root, &request), rng),
            Mover::Greedy { percent: 100.. } => {
                baseline::greedy_among(root, &baseline_moves(root, &request), rng)
            }
            Mover::Greedy { percent } => {
                baseline::mixed_among(root, &baseline_moves(root, &request), percent, rng)
            }
        };
        baseline.into_iter().collect()
    }
}

/// The moves a baseline picks among: `go searchmoves` (legal, as the session checked
/// them), else every legal move.
fn baseline_moves<G: Searchable>(root: &G, request: &Request<'_, G>) -> Vec<G::Move> {
    let mut moves = request.search.options.only.clone();
    if moves.is_empty() {
        root.generate_moves(&mut moves);
    }
    moves
}

/// The line `level` plays: a search narrowed to the level's depth and nodes, over at
/// least its number of root lines, and one line of the deepest iteration drawn by
/// [`Level::pick`].
fn play_level<G: Searchable>(
    level: &Level,
    root: &G,
    request: Request<'_, G>,
    rng: &mut fastrand::Rng,
    on_info: &mut dyn FnMut(&Info<G::Move>),
) -> Vec<G::Move> {
    let mut request = request;
    let search = &mut request.search;
    search.limits = level.narrow(&search.limits);
    search.options.multipv = level.lines(search.options.multipv.max(1));
    // The lines of the deepest iteration that found as many as any before it (the node
    // budget may stop an iteration after its first lines).
    let mut lines: Vec<(Score, Vec<G::Move>)> = Vec::new();
    let mut deeper: Vec<(Score, Vec<G::Move>)> = Vec::new();
    let mut deeper_depth = 0;
    let result = request.search(root, &mut |info| {
        if !info.pv.is_empty() {
            if info.depth != deeper_depth {
                if deeper.len() >= lines.len() {
                    lines = std::mem::take(&mut deeper);
                }
                deeper.clear();
                deeper_depth = info.depth;
            }
            deeper.push((info.score, info.pv.clone()));
        }
        on_info(info);
    });
    if deeper.len() >= lines.len() {
        lines = deeper;
    }
    let firsts: Vec<(Score, usize)> = (0..lines.len())
        .map(|index| (lines[index].0, index))
        .collect();
    match level.pick(&firsts, rng) {
        Some(index) => lines.swap_remove(index).1,
        None => result.pv,
    }
}

impl FromStr for Mover {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if let Some(percent) = text.strip_prefix("greedy:") {
            return match percent.parse::<u8>() {
                Ok(percent @ 1..=99) => Ok(Mover::Greedy { percent }),
                _ => Err(format!(
                    "'{text}': the greedy move's chance is a percentage from 1 to 99"
                )),
            };
        }
        if let Some(level) = text.strip_prefix("level:") {
            return match level.parse::<u8>() {
                Ok(level) if level < MAX_LEVEL => Ok(Mover::Level(level)),
                _ => Err(format!(
                    "'{text}': a level is a whole number from 0 to {}",
                    MAX_LEVEL - 1
                )),
            };
        }
        match text {
            "search" => Ok(Mover::Full),
            "random" => Ok(Mover::Random),
            "greedy" => Ok(Mover::Greedy { percent: 100 }),
            _ => Err(format!(
                "unknown way to play '{text}' (expected one of: {})",
                Mover::NAMES.join(", ")
            )),
        }
    }
}

impl fmt::Display for Mover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mover::Full => f.write_str("search"),
            Mover::Level(level) => write!(f, "level:{level}"),
            Mover::Random => f.write_str("random"),
            Mover::Greedy { percent: 100.. } => f.write_str("greedy"),
            Mover::Greedy { percent } => write!(f, "greedy:{percent}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_round_trip() {
        for name in [
            "search",
            "random",
            "greedy",
            "greedy:1",
            "greedy:50",
            "greedy:99",
            "level:0",
            "level:19",
        ] {
            assert_eq!(
                name.parse::<Mover>().map(|mover| mover.to_string()),
                Ok(name.into())
            );
        }
        assert_eq!(
            "best".parse::<Mover>(),
            Err("unknown way to play 'best' (expected one of: search, random, greedy, greedy:<percent>, level:<0-19>)".into())
        );
        for bad in [
            "greedy:0",
            "greedy:100",
            "greedy:",
            "greedy:x",
            "level:20",
            "level:",
            "level:-1",
        ] {
            assert!(bad.parse::<Mover>().is_err(), "{bad}");
        }
    }

    #[test]
    fn levels_below_the_top_are_weakened_and_the_top_is_the_full_engine() {
        assert_eq!(Mover::at_level(0), Mover::Level(0));
        assert_eq!(Mover::at_level(19), Mover::Level(19));
        assert_eq!(Mover::at_level(20), Mover::Full);
        assert_eq!(Mover::at_level(200), Mover::Full);
        assert!(Mover::Full.searches() && Mover::Level(3).searches());
        assert!(!Mover::Random.searches() && !Mover::Greedy { percent: 50 }.searches());
    }
}
