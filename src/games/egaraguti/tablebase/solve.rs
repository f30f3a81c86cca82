//! The retrograde solver of one material level.
//!
//! A level is a material pair and its swap (the men of the side to move and of the other
//! side, either way round), which steps lead into each other; captures leave the level for
//! one with fewer men, whose tables must be solved already. See `docs/rules/egaraguti.md`
//! for why the 40-ply counter and repetition leave a level's values well defined.
//!
//! Inside a level, with `k` plies left before the 40-ply rule counts the men:
//!
//! - a side with no move has lost, whatever `k` is (rule 7 comes first);
//! - with `k = 0` every other position gets the men count's verdict, its *default*;
//! - a position with a capture must take one, and is worth its best capture, looked up in
//!   the lower level at counter 0, as soon as `k >= 1`;
//! - any other position is worth its best step against the values at `k - 1`.
//!
//! So a position's value is its default unless a side can force, within `k` plies, a capture
//! or a block better for it than the default. That is a reachability game, solved by
//! breadth-first search backwards from the captures and blocks, which gives each position
//! the fewest plies the forcing side needs: the value at `k` is then known for every `k`.
//!
//! - With equal men (default: a draw) the labels are "the mover wins" and "the mover loses":
//!   a position is won when a step leads to a lost one, lost when every step leads to a won
//!   one.
//! - With unequal men (default: the side ahead wins) only the side behind has something to
//!   force: the labels are "the side behind gets at least a draw" and "the side behind
//!   wins"; at its own turn one step into the label is enough, at the other side's turn every
//!   step must lead into it.
//!
//! The search never stops at 40: distances beyond it are the positions where the 40-ply
//! rule changes the result, and they are counted.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::time::Instant;

use super::Tablebase;
use super::index::{INDEXER, Material, Men};
use super::store::Table;
use crate::core::BitSet;
use crate::core::Wdl;
use crate::games::egaraguti::board::{ALL_POINTS, NEIGHBOURS};
use crate::games::egaraguti::{QUIET_PLY_LIMIT, for_each_capture_chain};

/// Plies a level may take before the 40-ply rule counts the men.
const LIMIT: u8 = QUIET_PLY_LIMIT as u8;
/// No label reached (yet).
const UNREACHED: u8 = u8::MAX;

/// An entry's class, from the classification pass.
const NOT_CANONICAL: u8 = 0;
const BLOCKED: u8 = 1;
const QUIET: u8 = 2;
/// A position with a capture: this plus the value of its best capture.
const CAPTURE: u8 = 4;

/// What solving one level found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelReport {
    /// Positions solved (canonical entries).
    pub positions: u64,
    /// Each part's positions by value for the side to move: wins, draws, losses.
    pub values: Vec<(Material, [u64; 3])>,
    /// The longest forced result within the 40 plies, in plies.
    pub longest: u8,
    /// Positions whose forced result takes more than 40 plies: the 40-ply rule changes them.
    pub beyond_limit: u64,
    /// The longest forced result with no limit (0 when none is beyond it).
    pub longest_beyond: u8,
    pub seconds: f64,
}

/// The levels of the pairs with `total` men, each as its pair with the larger (or equal)
/// men to move first.
pub fn levels_of_total(total: usize) -> Vec<Material> {
    (total.div_ceil(2)..total)
        .map(|mover| Material {
            mover,
            other: total - mover,
        })
        .filter(|m| m.is_tabled())
        .collect()
}

/// The material pairs a level's captures lead to, which must be solved first.
pub fn lower_materials(level: Material) -> Vec<Material> {
    let mut lower = Vec::new();
    for material in parts(level) {
        // The capturer's men stay; the other side, now to move, has lost at least one man.
        for left in 1..material.other {
            lower.push(Material {
                mover: left,
                other: material.mover,
            });
        }
    }
    lower
}

/// The pairs of a level: one if both sides have as many men, else both ways round.
pub fn parts(level: Material) -> Vec<Material> {
    if level.mover == level.other {
        vec![level]
    } else {
        vec![level, level.swapped()]
    }
}

/// The level's entries as one range: each part's table follows the one before.
struct Level {
    parts: Vec<Material>,
    offsets: Vec<usize>,
    class: Vec<u8>,
    /// The fewest plies to each of the two labels (see the module docs). Atomic so that
    /// the threads of one layer can label positions; a layer writes only its own distance,
    /// which no check of that layer reads.
    distance: [Vec<AtomicU8>; 2],
}

impl Level {
    #[inline]
    fn id(&self, men: Men) -> usize {
        let part = (men.material() != self.parts[0]) as usize;
        self.offsets[part] + INDEXER.index(men) as usize
    }

    #[inline]
    fn part_of(&self, id: usize) -> usize {
        (self.parts.len() > 1 && id >= self.offsets[1]) as usize
    }

    fn position(&self, id: usize) -> Men {
        let part = self.part_of(id);
        INDEXER.position(self.parts[part], (id - self.offsets[part]) as u64)
    }

    fn mover_is_ahead(&self, id: usize) -> bool {
        let material = self.parts[self.part_of(id)];
        material.mover > material.other
    }
}

/// Calls `visit` with the position after each step of the side to move (capture-free
/// positions only: where a capture exists, steps are not moves).
#[inline]
pub(super) fn for_each_step(men: Men, mut visit: impl FnMut(Men)) {
    let empty = ALL_POINTS & !(men.mover | men.other);
    for from in men.mover.squares() {
        for to in (NEIGHBOURS[from] & empty).squares() {
            visit(Men {
                mover: men.other,
                other: men.mover ^ (1 << from) ^ (1 << to),
            });
        }
    }
}

/// Calls `visit` with every position whose side to move could have stepped into `men`.
/// Whether that position is quiet (no capture, so the step was a legal move) is for the
/// caller to check.
#[inline]
fn for_each_unstep(men: Men, mut visit: impl FnMut(Men)) {
    let empty = ALL_POINTS & !(men.mover | men.other);
    for to in men.other.squares() {
        for from in (NEIGHBOURS[to] & empty).squares() {
            visit(Men {
                mover: men.other ^ (1 << from) ^ (1 << to),
                other: men.mover,
            });
        }
    }
}

/// The value for the side to move of its best capture, looked up in the lower levels
/// (which must be loaded); `None` when it has no capture.
pub(super) fn best_capture(men: Men, lower: &Tablebase) -> Option<Wdl> {
    let mut best: Option<Wdl> = None;
    for_each_capture_chain(men.mover, men.other, |chain| {
        let moved = men.mover ^ (1 << chain.from()) ^ (1 << chain.to());
        let after = Men {
            mover: men.other & !chain.captured(),
            other: moved,
        };
        let value = lower
            .value(after)
            .expect("the lower tables are loaded")
            .flipped();
        best = best.max(Some(value));
    });
    best
}

/// Whether the side to move has a step (where it has no capture, whether it can move).
pub(super) fn can_step(men: Men) -> bool {
    let empty = ALL_POINTS & !(men.mover | men.other);
    men.mover.squares().any(|p| NEIGHBOURS[p] & empty != 0)
}

/// A position's class: blocked, quiet, or a capture with the value of its best capture.
fn classify(men: Men, lower: &Tablebase) -> u8 {
    match best_capture(men, lower) {
        Some(value) => CAPTURE + value as u8,
        None if can_step(men) => QUIET,
        None => BLOCKED,
    }
}

/// Classifies the entries `start..` of a part's table into `out`.
fn classify_range(material: Material, start: u64, out: &mut [u8], lower: &Tablebase) {
    for (i, class) in out.iter_mut().enumerate() {
        let men = INDEXER.position(material, start + i as u64);
        *class = if INDEXER.canonical(men) == men {
            classify(men, lower)
        } else {
            NOT_CANONICAL
        };
    }
}

/// Solves the level of `level` (with its swap) on `threads` threads, from the lower tables
/// in `lower`. Returns the level's tables, one per part.
pub fn solve_level(
    level: Material,
    lower: &Tablebase,
    threads: usize,
    with_distances: bool,
) -> Result<(Vec<Table>, LevelReport), String> {
    let started = Instant::now();
    if let Some(missing) = lower_materials(level)
        .into_iter()
        .find(|&m| lower.get(m).is_none())
    {
        return Err(format!(
            "the table {} is needed first to solve {level}",
            Table::file_name(missing)
        ));
    }
    let parts = parts(level);
    let mut offsets = vec![0];
    for part in &parts {
        offsets.push(offsets.last().unwrap() + INDEXER.table_size(*part) as usize);
    }
    let entries = offsets.pop().unwrap();
    let mut class = vec![0u8; entries];
    classify_all(&parts, &mut class, lower, threads.max(1));
    let mut level_state = Level {
        parts,
        offsets,
        class,
        distance: [unreached(entries), unreached(entries)],
    };
    propagate(&mut level_state, level.mover == level.other, threads.max(1));
    let (tables, mut report) = tables_of(&level_state, level.mover == level.other, with_distances);
    report.seconds = started.elapsed().as_secs_f64();
    Ok((tables, report))
}

fn unreached(entries: usize) -> Vec<AtomicU8> {
    (0..entries).map(|_| AtomicU8::new(UNREACHED)).collect()
}

/// The classification pass, split over threads by ranges of entries.
fn classify_all(parts: &[Material], class: &mut [u8], lower: &Tablebase, threads: usize) {
    let chunk = class.len().div_ceil(threads * 8).max(1 << 12);
    let mut work: Vec<(Material, u64, &mut [u8])> = Vec::new();
    let mut rest = class;
    for &material in parts {
        let (mut table, tail) = rest.split_at_mut(INDEXER.table_size(material) as usize);
        rest = tail;
        let mut start = 0u64;
        while !table.is_empty() {
            let (piece, more) = table.split_at_mut(chunk.min(table.len()));
            let length = piece.len() as u64;
            work.push((material, start, piece));
            start += length;
            table = more;
        }
    }
    let queue = std::sync::Mutex::new(work);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop();
                    let Some((material, start, out)) = next else {
                        break;
                    };
                    classify_range(material, start, out, lower);
                }
            });
        }
    });
}

/// Seeds the labels at the captures and blocks, then searches backwards, a layer of
/// distance at a time, each layer shared out between `threads` threads. A layer is found
/// by scanning the distances themselves (the entries at the layer's distance), so the
/// search needs no memory beyond them, whatever the level's size.
fn propagate(level: &mut Level, equal: bool, threads: usize) {
    // Labels: with equal men, 0 = the mover wins, 1 = the mover loses; with unequal men,
    // 0 = the side behind gets at least a draw, 1 = the side behind wins.
    let mut seeds = [0u64; 2];
    for id in 0..level.class.len() {
        let class = level.class[id];
        let ahead = level.mover_is_ahead(id);
        let mut seed = |label: usize, distance: u8| {
            *level.distance[label][id].get_mut() = distance;
            seeds[distance as usize] += 1;
        };
        match class {
            NOT_CANONICAL | QUIET => {}
            BLOCKED if equal => seed(1, 0),
            BLOCKED => {
                if ahead {
                    seed(0, 0);
                    seed(1, 0);
                }
            }
            capture => {
                let value = [Wdl::Loss, Wdl::Draw, Wdl::Win][(capture - CAPTURE) as usize];
                if equal {
                    match value {
                        Wdl::Win => seed(0, 1),
                        Wdl::Loss => seed(1, 1),
                        Wdl::Draw => {}
                    }
                } else {
                    let behind = if ahead { value.flipped() } else { value };
                    if behind >= Wdl::Draw {
                        seed(0, 1);
                    }
                    if behind == Wdl::Win {
                        seed(1, 1);
                    }
                }
            }
        }
    }
    let level = &*level;
    // The sizes of the layer at `distance` and of the one after it.
    let (mut layer, mut next) = (seeds[0], seeds[1]);
    let mut distance = 0u8;
    while (layer > 0 || next > 0) && distance < UNREACHED - 1 {
        let found = if layer > 0 {
            scan_layer(level, equal, distance, threads)
        } else {
            0
        };
        (layer, next) = (next + found, 0);
        distance += 1;
    }
}

/// Labels the positions one step before the entries at `distance`, at `distance + 1`, on
/// `threads` threads taking ranges of entries in turn. Returns how many it labelled.
fn scan_layer(level: &Level, equal: bool, distance: u8, threads: usize) -> u64 {
    const CHUNK: usize = 1 << 14;
    let entries = level.class.len();
    let next_chunk = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut found = 0;
                    loop {
                        let start = next_chunk.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= entries {
                            return found;
                        }
                        for id in start..(start + CHUNK).min(entries) {
                            for label in 0..2u8 {
                                let at = level.distance[label as usize][id].load(Ordering::Relaxed);
                                if at == distance {
                                    found += label_steps_into(level, equal, id, label, distance);
                                }
                            }
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a layer's thread does not panic"))
            .sum()
    })
}

/// Labels the positions that step into entry `id`, which has `label` at `distance`, where
/// that step gives them a label. Returns how many it labelled.
fn label_steps_into(level: &Level, equal: bool, id: usize, label: u8, distance: u8) -> u64 {
    let mut found = 0;
    for_each_unstep(level.position(id), |before| {
        let before_id = level.id(before);
        if level.class[before_id] != QUIET {
            return;
        }
        // Which label the step gives `before`, and whether every step of `before` must
        // give it.
        let (label_before, every_step) = if equal {
            (1 - label, label == 0)
        } else {
            (label, level.mover_is_ahead(before_id))
        };
        let known = &level.distance[label_before as usize][before_id];
        if known.load(Ordering::Relaxed) != UNREACHED {
            return;
        }
        if every_step {
            let reached = &level.distance[label as usize];
            // Once one step is found not labelled yet, the rest need no look (and no
            // index, the costly part): most positions reached are not ready.
            let mut all = true;
            for_each_step(before, |after| {
                all = all && reached[level.id(after)].load(Ordering::Relaxed) <= distance;
            });
            if !all {
                return;
            }
        }
        // Two threads may reach the same position: the one that labels it counts it.
        if known
            .compare_exchange(
                UNREACHED,
                distance + 1,
                Ordering::Relaxed,
                Ordering::Relaxed,
            )
            .is_ok()
        {
            found += 1;
        }
    });
    found
}

/// The level's values at counter 0 from the labels' distances, as tables, with the figures.
fn tables_of(level: &Level, equal: bool, with_distances: bool) -> (Vec<Table>, LevelReport) {
    let mut report = LevelReport::default();
    let mut tables = Vec::new();
    let within = |d: u8| d <= LIMIT;
    let reached = |d: u8| d != UNREACHED;
    for (part, &material) in level.parts.iter().enumerate() {
        let size = INDEXER.table_size(material);
        let mut table = Table::new(material, size, with_distances);
        let ahead = material.mover > material.other;
        let mut counts = [0u64; 3];
        for index in 0..size {
            let id = level.offsets[part] + index as usize;
            if level.class[id] == NOT_CANONICAL {
                continue;
            }
            let (first, second) = (
                level.distance[0][id].load(Ordering::Relaxed),
                level.distance[1][id].load(Ordering::Relaxed),
            );
            // The value and distance within the limit, and the value with no limit.
            let ((value, distance), unlimited) = if equal {
                let pick = |ok: &dyn Fn(u8) -> bool| {
                    if ok(first) {
                        (Wdl::Win, first)
                    } else if ok(second) {
                        (Wdl::Loss, second)
                    } else {
                        (Wdl::Draw, 0)
                    }
                };
                (pick(&within), pick(&reached))
            } else {
                let pick = |ok: &dyn Fn(u8) -> bool| {
                    let (behind, d) = if ok(second) {
                        (Wdl::Win, second)
                    } else if ok(first) {
                        (Wdl::Draw, first)
                    } else {
                        (Wdl::Loss, 0)
                    };
                    (if ahead { behind.flipped() } else { behind }, d)
                };
                (pick(&within), pick(&reached))
            };
            table.set(index, value, distance);
            report.positions += 1;
            counts[2 - value as usize] += 1;
            report.longest = report.longest.max(distance);
            if unlimited.0 != value {
                report.beyond_limit += 1;
                report.longest_beyond = report.longest_beyond.max(unlimited.1);
            }
        }
        report.values.push((material, counts));
        tables.push(table);
    }
    (tables, report)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::store::wdl_by_count;
    use super::*;
    use crate::core::{Outcome, Player};
    use crate::games::egaraguti::EgaraGuti;
    use crate::rules::Rules;

    /// Every level of at most `men` men, solved in memory, with distances.
    fn solve_up_to(men: usize) -> Tablebase {
        let mut tables = Tablebase::default();
        for total in 2..=men {
            for level in levels_of_total(total) {
                let (solved, _) = solve_level(level, &tables, 2, true).unwrap();
                for table in solved {
                    tables.insert(table);
                }
            }
        }
        tables
    }

    /// The canonical positions of a material pair.
    fn positions(material: Material) -> Vec<Men> {
        (0..INDEXER.table_size(material))
            .map(|i| INDEXER.position(material, i))
            .filter(|&men| INDEXER.canonical(men) == men)
            .collect()
    }

    /// The values of a level at every number of plies left, 0 to 40, by the plain
    /// recursion of the module docs, one whole sweep per ply.
    fn values_by_sweeps(level: Material, lower: &Tablebase) -> HashMap<Men, Vec<Wdl>> {
        let all: Vec<Men> = parts(level).into_iter().flat_map(positions).collect();
        let mut values: HashMap<Men, Vec<Wdl>> = HashMap::new();
        for &men in &all {
            let mut blocked = true;
            for_each_step(men, |_| blocked = false);
            let mut capture = false;
            for_each_capture_chain(men.mover, men.other, |_| capture = true);
            let start = if blocked && !capture {
                Wdl::Loss
            } else {
                wdl_by_count(men.material())
            };
            values.insert(men, vec![start]);
        }
        for k in 1..=LIMIT as usize {
            let mut next = Vec::with_capacity(all.len());
            for &men in &all {
                let mut best: Option<Wdl> = None;
                for_each_capture_chain(men.mover, men.other, |chain| {
                    let after = Men {
                        mover: men.other & !chain.captured(),
                        other: men.mover ^ (1 << chain.from()) ^ (1 << chain.to()),
                    };
                    best = best.max(Some(lower.value(after).unwrap().flipped()));
                });
                if best.is_none() {
                    for_each_step(men, |after| {
                        let value = values[&INDEXER.canonical(after)][k - 1];
                        best = best.max(Some(value.flipped()));
                    });
                }
                next.push(best.unwrap_or(Wdl::Loss));
            }
            for (men, value) in all.iter().zip(next) {
                values.get_mut(men).unwrap().push(value);
            }
        }
        values
    }

    #[test]
    fn the_backward_search_agrees_with_the_plain_recursion_at_every_counter() {
        let tables = solve_up_to(5);
        for total in 2..=5 {
            for level in levels_of_total(total) {
                for (men, by_sweeps) in values_by_sweeps(level, &tables) {
                    let table = tables.get(men.material()).unwrap();
                    let index = INDEXER.index(men);
                    let value = table.value_at(index).unwrap();
                    let distance = table.distance_at(index).unwrap() as usize;
                    assert_eq!(value, by_sweeps[LIMIT as usize], "{men:?}");
                    // The value holds from its distance on, and not one ply sooner.
                    assert!(by_sweeps[distance..].iter().all(|&v| v == value), "{men:?}");
                    if distance > 0 {
                        assert_ne!(by_sweeps[distance - 1], value, "{men:?}");
                    } else {
                        assert!(by_sweeps.iter().all(|&v| v == value), "{men:?}");
                    }
                }
            }
        }
    }

    /// The value for the side to move by full minimax over the game itself (its history,
    /// counter and end rules), up to the first capture, whose result the tables give.
    fn by_the_rules(game: &mut EgaraGuti, lower: &Tablebase) -> Wdl {
        let side = game.side_to_move();
        if let Some(outcome) = game.outcome() {
            return match outcome {
                Outcome::Draw => Wdl::Draw,
                Outcome::Win(winner) if winner == side => Wdl::Win,
                Outcome::Win(_) => Wdl::Loss,
            };
        }
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        let mut best = Wdl::Loss;
        for mv in moves {
            let undo = game.make_move(mv);
            let value = if mv.captured() != 0 && game.outcome().is_none() {
                let next = game.side_to_move();
                lower
                    .value(Men {
                        mover: game.men(next),
                        other: game.men(next.opponent()),
                    })
                    .unwrap()
            } else {
                by_the_rules(game, lower)
            };
            game.unmake_move(mv, undo);
            best = best.max(value.flipped());
            if best == Wdl::Win {
                break;
            }
        }
        best
    }

    #[test]
    fn the_game_itself_agrees_near_the_forty_ply_limit() {
        let tables = solve_up_to(4);
        for (total, deepest) in [(2, 9), (3, 5), (4, 3)] {
            for level in levels_of_total(total) {
                let values = values_by_sweeps(level, &tables);
                for (men, by_sweeps) in &values {
                    for (plies_left, &expected) in by_sweeps.iter().enumerate().take(deepest + 1) {
                        // Black to move, so that the colours are swapped as well.
                        let counter = QUIET_PLY_LIMIT - plies_left as u32;
                        let mut game =
                            EgaraGuti::from_parts([men.other, men.mover], Player::P2, counter, 1);
                        assert_eq!(
                            by_the_rules(&mut game, &tables),
                            expected,
                            "{men:?} with {plies_left} plies left"
                        );
                    }
                }
            }
        }
    }
}
