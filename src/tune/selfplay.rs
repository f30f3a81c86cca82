//! Self-play data: fast games of the engine against itself, from random openings, written
//! as quiet positions labelled with the game's result, for the tuner.
//!
//! Each game starts with a few random plies (a different opening for every game, by seed),
//! then both sides search a fixed number of nodes a move, varied by up to a quarter either
//! way so that the same position is not always answered the same way. A position is kept
//! when it is quiet: the move the search chose is not a capture (quiescence would have
//! resolved a capture) and its score proves nothing yet. Every kept position gets the result
//! of its game. Games run on several threads, each with its own searcher, and are written
//! in the order they finish.
//!
//! Output, one position a line: `<result> <position string> ; <score>`, both from the
//! first player's side: the result `1` a win, `0` a loss, `0.5` a draw, and the score the
//! search gave the position, in centipawns (what a network's training blends with the
//! result). A run may be split into shards (`i/n`: the games whose number leaves `i` when
//! divided by `n`), each game still drawn from its number, so that the shards together
//! are the whole run.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use crate::core::clock::Instant;

use crate::core::Shard;
use crate::core::{Outcome, Player};
use crate::eval::Evaluator;

use crate::games::{Playable, Variant};
use crate::search::{Limits, Score, Searcher};

/// Scores at least this large (in centipawns) are treated as decided: such positions
/// teach the evaluation nothing.
const DECIDED_CP: i32 = 3000;
/// The table of each self-play thread, in MiB.
const HASH_MIB: usize = 8;

/// What to play.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    pub variant: Variant,
    pub games: u64,
    /// Nodes a move, before the variation of up to a quarter either way.
    pub nodes: u64,
    /// Random plies before the engine takes over.
    pub openings: u32,
    /// A game longer than this is stopped and counted a draw.
    pub max_plies: usize,
    pub seed: u64,
    pub concurrency: usize,
    /// The part of the run to play ([`Shard::WHOLE`]: all of it).
    pub shard: Shard,
    /// What the games are searched with (`None`: what the game ships, its network if it
    /// has one): a generation's data is played by the engine with the last network.
    pub evaluator: Option<Evaluator>,
}

impl SelfplayConfig {
    /// The games this run plays: its shard's share of `games`.
    pub fn games_to_play(&self) -> u64 {
        u64::from(self.shard.games(self.games_numbered()))
    }

    /// The games numbered in the whole run (the shard's are among them).
    fn games_numbered(&self) -> u32 {
        u32::try_from(self.games).unwrap_or(u32::MAX)
    }
}

/// What a self-play run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelfplayTotals {
    pub games: u64,
    pub positions: u64,
    /// Games stopped at the ply limit.
    pub cut: u64,
}

/// One game: its kept positions with their scores from the first player's side, and its
/// result (`None` if stopped from outside).
struct Played {
    positions: Vec<(String, i32)>,
    result: Option<Outcome>,
    /// Stopped at the ply limit, and so counted a draw.
    cut: bool,
}

/// Plays the games, writing positions to `out` and a progress line now and then to
/// `progress`; ends early, with what was written, once `stop` is set.
pub fn run_selfplay(
    config: &SelfplayConfig,
    out: &mut dyn Write,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(String),
) -> Result<SelfplayTotals, String> {
    crate::with_game!(config.variant, G => selfplay::<G>(config, out, stop, progress))
}

/// [`run_selfplay`] on the game type `G`.
fn selfplay<G: Playable>(
    config: &SelfplayConfig,
    out: &mut dyn Write,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(String),
) -> Result<SelfplayTotals, String> {
    let next_game = AtomicU64::new(0);
    let started = Instant::now();
    let mut totals = SelfplayTotals::default();
    let mut last_report = Instant::now();
    thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Played>();
        for _ in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let next_game = &next_game;
            scope.spawn(move || {
                let mut searcher = Searcher::<G>::new(HASH_MIB);
                if let Some(evaluator) = &config.evaluator {
                    searcher.set_evaluator(evaluator.clone());
                }
                loop {
                    let nth = next_game.fetch_add(1, Ordering::Relaxed);
                    let index = u32::try_from(nth)
                        .ok()
                        .and_then(|nth| config.shard.game(nth, config.games_numbered()));
                    let Some(index) = index.filter(|_| !stop.load(Ordering::Relaxed)) else {
                        break;
                    };
                    let played = play_game::<G>(config, u64::from(index), &mut searcher, stop);
                    if sender.send(played).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for played in receiver {
            let result = match played.result {
                Some(Outcome::Win(Player::P1)) => "1",
                Some(Outcome::Win(Player::P2)) => "0",
                Some(Outcome::Draw) => "0.5",
                // Stopped from outside half-way: no result to teach.
                None => continue,
            };
            totals.games += 1;
            totals.cut += played.cut as u64;
            for (position, score) in &played.positions {
                if writeln!(out, "{result} {position} ; {score}").is_err() {
                    stop.store(true, Ordering::Relaxed);
                    return Err("cannot write the positions".to_owned());
                }
            }
            totals.positions += played.positions.len() as u64;
            if last_report.elapsed() >= Duration::from_secs(2)
                || totals.games == config.games_to_play()
            {
                last_report = Instant::now();
                (progress)(progress_line(config, &totals, started.elapsed()));
            }
        }
        Ok(())
    })?;
    out.flush()
        .map_err(|error| format!("cannot write the positions: {error}"))?;
    Ok(totals)
}

fn progress_line(config: &SelfplayConfig, totals: &SelfplayTotals, elapsed: Duration) -> String {
    let per_hour = totals.games as f64 / elapsed.as_secs_f64().max(1e-3) * 3600.0;
    let to_play = config.games_to_play();
    let left = to_play.saturating_sub(totals.games) as f64 / per_hour.max(1e-9) * 3600.0;
    format!(
        "{} of {} games, {} positions, {:.0} games an hour, about {}:{:02} left",
        totals.games,
        to_play,
        totals.positions,
        per_hour,
        left as u64 / 60,
        left as u64 % 60
    )
}

/// Plays game `index` of the run: its opening from the run's seed and the index.
fn play_game<G: Playable>(
    config: &SelfplayConfig,
    index: u64,
    searcher: &mut Searcher<G>,
    stop: &AtomicBool,
) -> Played {
    let mut rng = fastrand::Rng::with_seed(config.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index);
    let mut game = G::start();
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    searcher.clear();
    for _ in 0..config.openings {
        moves.clear();
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.make_move(moves[rng.usize(..moves.len())]);
    }
    let mut plies = config.openings as usize;
    while game.outcome().is_none() {
        if plies >= config.max_plies {
            return Played {
                positions,
                result: Some(Outcome::Draw),
                cut: true,
            };
        }
        let spread = config.nodes / 4;
        let nodes = config.nodes - spread + rng.u64(..=2 * spread);
        let limits = Limits {
            nodes: Some(nodes.max(1)),
            ..Limits::default()
        };
        let found = searcher.search(&game, &limits, stop, &mut |_| {});
        if stop.load(Ordering::Relaxed) {
            return Played {
                positions,
                result: None,
                cut: false,
            };
        }
        let Some(best) = found.best else { break };
        if let Score::Centipawns(cp) = found.score
            && cp.abs() < DECIDED_CP
            && !game.is_tactical(best)
        {
            let for_p1 = match game.side_to_move() {
                Player::P1 => cp,
                Player::P2 => -cp,
            };
            positions.push((game.position_string(), for_p1));
        }
        game.make_move(best);
        plies += 1;
    }
    Played {
        positions,
        result: game.outcome(),
        cut: false,
    }
}
