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

use crate::core::clock::Instant;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

use super::file;
use super::index::{INDEXER, MAX_MEN, Material, Men};
use super::material::{lower_materials, parts};
use super::men::{can_step, for_each_step, for_each_unstep, has_capture};
use super::set::Tablebase;
use super::table::Table;
use crate::core::Wdl;
use crate::games::egaraguti::board::MOST_NEIGHBOURS;
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

/// The level's entries as one range: each part's table follows the one before.
struct Level {
    parts: Vec<Material>,
    offsets: Vec<usize>,
    entries: Vec<Entry>,
}

/// One position of a level: its class and the fewest plies to each of the two labels (see
/// the module docs), side by side, so that a look at a position costs one cache miss, not
/// three (the solver's time goes in those misses).
struct Entry {
    class: u8,
    /// Atomic so that the threads of one layer can label positions; a layer writes only
    /// its own distance, which no check of that layer reads.
    distance: [AtomicU8; 2],
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

    #[inline]
    fn distance(&self, label: u8, id: usize) -> &AtomicU8 {
        &self.entries[id].distance[label as usize]
    }
}

/// The class of a position that is canonical, from the value of its best capture if it has
/// one.
fn class_of(best_capture: Option<Wdl>, men: Men) -> u8 {
    match best_capture {
        Some(value) => CAPTURE + value as u8,
        None if can_step(men) => QUIET,
        None => BLOCKED,
    }
}

/// Positions classified together: their captures' lookups into the lower tables are
/// gathered first and read in one pass, where the reads (cache misses into tables of
/// hundreds of megabytes, most of the pass's time) overlap instead of waiting in turn.
const CLASSIFY_BATCH: usize = 256;

/// Classifies the entries `start..` of a part's table into `out`.
fn classify_range(material: Material, start: u64, out: &mut [Entry], lower: &Tablebase) {
    // (the entry in the batch, the table, the index); a capture of the last man needs no
    // table and goes straight to `best`.
    let mut lookups: Vec<(usize, &Table, u64)> = Vec::with_capacity(CLASSIFY_BATCH * 4);
    // The entries in order, each position from the one before (unranking each costs more).
    let mut next = Some(INDEXER.position(material, start));
    for batch in out.chunks_mut(CLASSIFY_BATCH) {
        let mut positions = [None::<Men>; CLASSIFY_BATCH];
        let mut best = [None::<Wdl>; CLASSIFY_BATCH];
        lookups.clear();
        for k in 0..batch.len() {
            let men = next.expect("the range is inside the table");
            next = INDEXER.next_position(men);
            if INDEXER.canonical(men) != men {
                continue;
            }
            positions[k] = Some(men);
            for_each_capture_chain(men.mover, men.other, |chain| {
                let after = Men {
                    mover: men.other & !chain.captured(),
                    other: men.mover ^ (1 << chain.from()) ^ (1 << chain.to()),
                };
                if after.mover == 0 {
                    best[k] = Some(Wdl::Win);
                } else {
                    let table = lower
                        .get(after.material())
                        .expect("the lower tables are loaded");
                    lookups.push((k, table, INDEXER.index(after)));
                }
            });
        }
        for &(k, table, index) in &lookups {
            let value = table
                .value_at(index)
                .expect("a canonical entry always has a value")
                .flipped();
            best[k] = best[k].max(Some(value));
        }
        for (k, entry) in batch.iter_mut().enumerate() {
            entry.class = match positions[k] {
                Some(men) => class_of(best[k], men),
                None => NOT_CANONICAL,
            };
        }
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
            file::file_name(missing)
        ));
    }
    let parts = parts(level);
    let mut offsets = vec![0];
    for part in &parts {
        offsets.push(offsets.last().unwrap() + INDEXER.table_size(*part) as usize);
    }
    let entries = offsets.pop().unwrap();
    let mut level_state = Level {
        entries: (0..entries)
            .map(|_| Entry {
                class: NOT_CANONICAL,
                distance: [AtomicU8::new(UNREACHED), AtomicU8::new(UNREACHED)],
            })
            .collect(),
        parts,
        offsets,
    };
    classify_all(
        &level_state.parts,
        &mut level_state.entries,
        lower,
        threads.max(1),
    );
    propagate(&mut level_state, level.mover == level.other, threads.max(1));
    let (tables, mut report) = tables_of(&level_state, level.mover == level.other, with_distances);
    report.seconds = started.elapsed().as_secs_f64();
    Ok((tables, report))
}

/// The classification pass, split over threads by ranges of entries.
fn classify_all(parts: &[Material], entries: &mut [Entry], lower: &Tablebase, threads: usize) {
    let chunk = entries.len().div_ceil(threads * 8).max(1 << 12);
    let mut work: Vec<(Material, u64, &mut [Entry])> = Vec::new();
    let mut rest = entries;
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
    for id in 0..level.entries.len() {
        let class = level.entries[id].class;
        let ahead = level.mover_is_ahead(id);
        let mut seed = |label: usize, distance: u8| {
            *level.entries[id].distance[label].get_mut() = distance;
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
    let entries = level.entries.len();
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
                                let at = level.distance(label, id).load(Ordering::Relaxed);
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

/// The most positions a step can come from: every man of the side that stepped, from any
/// of its neighbours.
const MOST_UNSTEPS: usize = MAX_MEN * MOST_NEIGHBOURS;
/// The most steps of one position: every man to any of its neighbours.
const MOST_STEPS: usize = MOST_UNSTEPS;
/// The children whose labels are read together in the check that every step of a position
/// leads into a label: a few at a time keeps the reads overlapping, and the check stops at
/// the first group with a child not labelled yet (most positions reached are not ready),
/// before the indexes of the rest are computed.
const STEP_GROUP: usize = 4;

/// Labels the positions that step into entry `id`, which has `label` at `distance`, where
/// that step gives them a label. Returns how many it labelled.
///
/// The predecessors' indexes are computed first and their entries read in one pass, so that
/// the reads, cache misses into gigabytes, overlap.
fn label_steps_into(level: &Level, equal: bool, id: usize, label: u8, distance: u8) -> u64 {
    let mut befores = [Men { mover: 0, other: 0 }; MOST_UNSTEPS];
    let mut before_ids = [0usize; MOST_UNSTEPS];
    let mut count = 0;
    for_each_unstep(level.position(id), |before| {
        // A position with a capture cannot step, so no step of it leads here: most
        // predecessors are such (five in six), and this look costs far less than their
        // index and entry.
        if has_capture(before) {
            return;
        }
        befores[count] = before;
        before_ids[count] = level.id(before);
        count += 1;
    });
    if count == 0 {
        return 0;
    }
    // Every predecessor is in the same part (the other side to move), so the label a step
    // gives and whether every step must give it are the same for all of them.
    let (label_before, every_step) = if equal {
        (1 - label, label == 0)
    } else {
        (label, level.mover_is_ahead(before_ids[0]))
    };
    let mut open = [false; MOST_UNSTEPS];
    for (open, &before_id) in open.iter_mut().zip(&before_ids[..count]) {
        let entry = &level.entries[before_id];
        // `&`, not `&&`: a branch on the first miss would hold up the reads after it.
        *open = (entry.class == QUIET)
            & (entry.distance[label_before as usize].load(Ordering::Relaxed) == UNREACHED);
    }
    let mut found = 0;
    for k in 0..count {
        if !open[k] || (every_step && !every_step_labelled(level, befores[k], label, distance)) {
            continue;
        }
        // Two threads may reach the same position: the one that labels it counts it.
        let labelled = level
            .distance(label_before, before_ids[k])
            .compare_exchange(
                UNREACHED,
                distance + 1,
                Ordering::Relaxed,
                Ordering::Relaxed,
            )
            .is_ok();
        found += labelled as u64;
    }
    found
}

/// Whether every step of `before` leads to a position with `label` at `distance` or less.
fn every_step_labelled(level: &Level, before: Men, label: u8, distance: u8) -> bool {
    let mut afters = [Men { mover: 0, other: 0 }; MOST_STEPS];
    let mut count = 0;
    for_each_step(before, |after| {
        afters[count] = after;
        count += 1;
    });
    afters[..count].chunks(STEP_GROUP).all(|group| {
        let mut ids = [0usize; STEP_GROUP];
        for (id, &after) in ids.iter_mut().zip(group) {
            *id = level.id(after);
        }
        ids[..group.len()]
            .iter()
            .all(|&id| level.distance(label, id).load(Ordering::Relaxed) <= distance)
    })
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
            if level.entries[id].class == NOT_CANONICAL {
                continue;
            }
            let (first, second) = (
                level.distance(0, id).load(Ordering::Relaxed),
                level.distance(1, id).load(Ordering::Relaxed),
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

/// Every level of at most `men` men, solved in memory, with distances: the tables of the
/// unit tests.
#[cfg(test)]
pub(crate) fn solve_up_to(men: usize) -> Tablebase {
    use super::material::levels_of_total;
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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::index::wdl_by_count;
    use super::super::material::levels_of_total;
    use super::*;
    use crate::core::{Outcome, Player};
    use crate::games::egaraguti::EgaraGuti;
    use crate::rules::Rules;

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
