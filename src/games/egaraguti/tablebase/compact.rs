//! The compact form of a finished set (`tables compact`), and the check that two sets agree
//! on every position (`tables compare`). On top of the room, beside the build.
//!
//! A packed table spends two bits on every entry and a byte on every distance. Most of
//! them need none: an entry that is not canonical is never read, and a position whose
//! side to move must capture (about 85% of the positions from 10 men up) is valued by one
//! ply over its captures into the lower levels, where the set looks it up instead
//! ([`Tablebase::capture_value`]: Syzygy's "don't care" entries, which take whatever
//! symbol continues the run they fall in). A distance is read only where the value is
//! not the men count's verdict and the position has no capture. What remains is coded as runs
//! ([`super::runs`]), in blocks whose size each stream chooses, which a probe decodes in
//! place from the file's mapping.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::file;
use super::index::{INDEXER, MAX_MEN, Material, Men, wdl_by_count};
use super::runs::{Alphabet, DONT_CARE, Encoder, Planner};
use super::set::{Tablebase, men_of};
use super::table::Table;
use crate::core::Player;
use crate::games::egaraguti::{EgaraGuti, can_capture};
use crate::rules::Notation;
use crate::search::{Exact, Limits, Oracle, Searcher};

/// One table's line of the account.
#[derive(Clone, Debug)]
pub struct CompactReport {
    pub material: Material,
    pub entries: u64,
    /// The bytes of the values and of the distances, packed and compact.
    pub packed: (usize, usize),
    pub compact: (usize, usize),
    /// `None` when the compact table was there already.
    pub seconds: Option<f64>,
}

/// Walks a packed table's entries in order and gives each its symbols: the value and the
/// distance a probe reads, or [`DONT_CARE`].
struct Symbols<'a> {
    table: &'a Table,
    verdict: u8,
    next: Option<Men>,
    index: u64,
}

impl<'a> Symbols<'a> {
    fn new(table: &'a Table) -> Symbols<'a> {
        let material = table.material();
        Symbols {
            table,
            verdict: wdl_by_count(material) as u8,
            next: Some(INDEXER.position(material, 0)),
            index: 0,
        }
    }

    /// Fills the symbols of the next `values.len()` entries (as many as `distances`).
    fn fill(&mut self, values: &mut [u8], distances: &mut [u8]) -> Result<(), String> {
        for (value, distance) in values.iter_mut().zip(distances.iter_mut()) {
            let men = self.next.expect("inside the table");
            self.next = INDEXER.next_position(men);
            let stored = self.table.value_at(self.index);
            (*value, *distance) = match stored {
                // A capture: derived by the set, never read.
                Some(_) if can_capture(men.mover, men.other) => (DONT_CARE, DONT_CARE),
                Some(wdl) => {
                    let wdl = wdl as u8;
                    let far = match wdl == self.verdict {
                        true => DONT_CARE,
                        false => self.table.distance_at(self.index).unwrap_or(0),
                    };
                    if far == DONT_CARE && wdl != self.verdict {
                        return Err(format!("{}: a distance too large", self.table.material()));
                    }
                    (wdl, far)
                }
                None => (DONT_CARE, DONT_CARE),
            };
            self.index += 1;
        }
        Ok(())
    }

    /// Calls `take` with the symbols of each chunk of [`Planner::CHUNK`] entries (the last
    /// may be short): a multiple of every block size.
    fn for_each_chunk(table: &Table, mut take: impl FnMut(&[u8], &[u8])) -> Result<(), String> {
        let block = Planner::CHUNK as u64;
        let mut symbols = Symbols::new(table);
        let (mut values, mut distances) = (vec![0u8; block as usize], vec![0u8; block as usize]);
        let mut start = 0;
        while start < table.entries() {
            let len = block.min(table.entries() - start) as usize;
            symbols.fill(&mut values[..len], &mut distances[..len])?;
            take(&values[..len], &distances[..len]);
            start += len as u64;
        }
        Ok(())
    }
}

/// The compact form of a packed table: two passes over its entries, the first to plan
/// each stream's code, the second to write it.
pub fn compact_table(table: &Table, read_weight: f64) -> Result<Table, String> {
    let mut plans = (
        Planner::new(Alphabet::Values),
        Planner::new(Alphabet::Numbers),
    );
    Symbols::for_each_chunk(table, |values, distances| {
        plans.0.add(values);
        plans.1.add(distances);
    })?;
    let ((value_log2, value_order), (distance_log2, distance_order)) =
        (plans.0.plan(read_weight), plans.1.plan(read_weight));
    let mut values_out = Encoder::new(Alphabet::Values, value_log2, value_order);
    let mut distances_out = Encoder::new(Alphabet::Numbers, distance_log2, distance_order);
    Symbols::for_each_chunk(table, |values, distances| {
        values
            .chunks(1 << value_log2)
            .for_each(|block| values_out.add_block(block));
        distances
            .chunks(1 << distance_log2)
            .for_each(|block| distances_out.add_block(block));
    })?;
    Table::compact(
        table.material(),
        table.entries(),
        values_out.finish(),
        table.has_distances().then(|| distances_out.finish()),
    )
}

/// Writes the compact form of every table of the whole packed set in `from` into `to`, on
/// `threads` threads, largest tables first, each stream planned with `read_weight`, what a
/// probe's second read is worth in bits an entry ([`super::runs::READ_WEIGHT`] by default:
/// less makes the set smaller and its probes slower); a table already in `to` is kept (the
/// command resumes). Calls `progress` with each table's line.
pub fn compact_set(
    from: &Path,
    to: &Path,
    threads: usize,
    read_weight: f64,
    progress: &(dyn Fn(&CompactReport) + Sync),
) -> Result<Vec<CompactReport>, String> {
    if from == to {
        return Err("the compact set needs a directory of its own".into());
    }
    let packed = Tablebase::load_all(from)?;
    if packed.is_empty() {
        return Err(format!("no tables in {}", from.display()));
    }
    if let Some(table) = (packed.tables()).find(|t| t.is_compact()) {
        return Err(format!(
            "{} is compact already: compact a packed set",
            file::path(from, table.material()).display()
        ));
    }
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let mut materials: Vec<Material> = packed.tables().map(Table::material).collect();
    materials.sort_by_key(|&m| std::cmp::Reverse(INDEXER.table_size(m)));
    let next = AtomicUsize::new(0);
    let reports = Mutex::new(Vec::new());
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                while let Some(&material) = materials.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let table = packed.get(material).expect("loaded");
                    match compact_one(table, to, read_weight) {
                        Ok(report) => {
                            progress(&report);
                            reports.lock().unwrap().push(report);
                        }
                        Err(error) => {
                            *failure.lock().unwrap() = Some(error);
                            next.store(materials.len(), Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    if let Some(error) = failure.into_inner().unwrap() {
        return Err(error);
    }
    let mut reports = reports.into_inner().unwrap();
    reports.sort_by_key(|r| (r.material.total(), std::cmp::Reverse(r.material.mover)));
    Ok(reports)
}

/// Compacts one table into `to` unless it is there already.
fn compact_one(table: &Table, to: &Path, read_weight: f64) -> Result<CompactReport, String> {
    let material = table.material();
    let started = Instant::now();
    let (compact, seconds) = match Table::map(to, material)? {
        Some(done) if done.is_compact() => (done, None),
        Some(_) => {
            return Err(format!(
                "{} holds a packed table",
                file::path(to, material).display()
            ));
        }
        None => {
            let compact = compact_table(table, read_weight)?;
            compact
                .write(to)
                .map_err(|e| format!("cannot write {}: {e}", file::path(to, material).display()))?;
            (compact, Some(started.elapsed().as_secs_f64()))
        }
    };
    Ok(CompactReport {
        material,
        entries: table.entries(),
        packed: table.sizes(),
        compact: compact.sizes(),
        seconds,
    })
}

/// What a comparison of two sets found in one table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub material: Material,
    /// Canonical positions compared.
    pub positions: u64,
    /// Positions on which the sets disagree, and the first of them (its position string,
    /// the first player to move).
    pub disagreements: u64,
    pub first: Option<String>,
}

/// Compares the whole sets in `a` and `b` (in either form) position by position: the value
/// and distance of every canonical position of every table, as the engine's probes read
/// them (a compact set's captures through its lower levels). On `threads` threads; calls
/// `progress` with each table's comparison.
pub fn compare_sets(
    a: &Path,
    b: &Path,
    threads: usize,
    progress: &mut dyn FnMut(&Comparison),
) -> Result<Vec<Comparison>, String> {
    let (a, b) = (Tablebase::load_all(a)?, Tablebase::load_all(b)?);
    let mut comparisons = Vec::new();
    for total in 2..=2 * MAX_MEN {
        for mover in 1..total {
            let material = Material {
                mover,
                other: total - mover,
            };
            match (a.get(material), b.get(material)) {
                (None, None) => continue,
                (Some(_), Some(_)) => {}
                _ => return Err(format!("only one of the sets has {material}")),
            }
            let comparison = compare_table(&a, &b, material, threads);
            progress(&comparison);
            comparisons.push(comparison);
        }
    }
    Ok(comparisons)
}

/// Compares one table of two sets over ranges of entries shared out between threads.
fn compare_table(a: &Tablebase, b: &Tablebase, material: Material, threads: usize) -> Comparison {
    const RANGE: u64 = 1 << 16;
    let entries = INDEXER.table_size(material);
    let (next, positions, disagreements) =
        (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let first = Mutex::new(None::<(u64, Men)>);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let start = next.fetch_add(RANGE, Ordering::Relaxed);
                    if start >= entries {
                        break;
                    }
                    let (mut seen, mut differ) = (0, 0);
                    let mut men = Some(INDEXER.position(material, start));
                    for index in start..(start + RANGE).min(entries) {
                        let position = men.expect("inside the table");
                        men = INDEXER.next_position(position);
                        if INDEXER.canonical(position) != position {
                            continue;
                        }
                        seen += 1;
                        if a.value_and_distance(position) != b.value_and_distance(position) {
                            differ += 1;
                            let mut first = first.lock().unwrap();
                            if first.is_none_or(|(at, _)| index < at) {
                                *first = Some((index, position));
                            }
                        }
                    }
                    positions.fetch_add(seen, Ordering::Relaxed);
                    disagreements.fetch_add(differ, Ordering::Relaxed);
                }
            });
        }
    });
    Comparison {
        material,
        positions: positions.into_inner(),
        disagreements: disagreements.into_inner(),
        first: first.into_inner().unwrap().map(|(_, men)| {
            EgaraGuti::from_parts([men.mover, men.other], Player::P1, 0, 1).position_string()
        }),
    }
}

/// What probes of one table cost.
#[derive(Clone, Debug)]
pub struct ProbeCost {
    pub material: Material,
    pub probes: u64,
    /// The median over the timed passes, in nanoseconds a probe.
    pub nanoseconds: f64,
}

/// The cost of a probe of each table of the whole set in `dir`: `positions` seeded random
/// positions of its material (men placed at random, about 85% of them with a capture from
/// 10 men up), probed once untimed (the pages in memory) and then in three timed passes,
/// the median kept. Random positions share no pages, unlike a search's: the worst case.
pub fn probe_costs(
    dir: &Path,
    positions: usize,
    seed: u64,
    progress: &mut dyn FnMut(&ProbeCost),
) -> Result<Vec<ProbeCost>, String> {
    let set = Tablebase::load_all(dir)?;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut points: Vec<u32> = (0..crate::games::egaraguti::board::POINTS as u32).collect();
    let mut costs = Vec::new();
    let mut materials: Vec<Material> = set.tables().map(Table::material).collect();
    materials.sort_by_key(|m| (m.total(), std::cmp::Reverse(m.mover)));
    for material in materials {
        let men: Vec<Men> = (0..positions)
            .map(|_| {
                rng.shuffle(&mut points);
                let set = |points: &[u32]| points.iter().fold(0u32, |s, &p| s | 1 << p);
                Men {
                    mover: set(&points[..material.mover]),
                    other: set(&points[material.mover..material.total()]),
                }
            })
            .collect();
        let pass = || {
            set.forget_derived();
            let started = Instant::now();
            let mut sum = 0u64;
            for &position in &men {
                let (value, distance) = set.value_and_distance(position).expect("a whole set");
                sum += value as u64 + u64::from(distance.unwrap_or(0));
            }
            std::hint::black_box(sum);
            started.elapsed().as_secs_f64()
        };
        pass();
        let mut times = [pass(), pass(), pass()];
        times.sort_by(f64::total_cmp);
        let cost = ProbeCost {
            material,
            probes: positions as u64,
            nanoseconds: times[1] * 1e9 / positions.max(1) as f64,
        };
        progress(&cost);
        costs.push(cost);
    }
    Ok(costs)
}

/// The tables as a search's oracle that keeps every position it is asked about.
struct Recording {
    tables: Tablebase,
    probed: Mutex<Vec<EgaraGuti>>,
}

impl Oracle<EgaraGuti> for Recording {
    fn probe(&self, game: &EgaraGuti) -> Option<Exact> {
        self.probed.lock().unwrap().push(game.clone());
        Oracle::probe(&self.tables, game)
    }
}

/// What the probes of a search cost: a search of `game` for `nodes` nodes on one thread with
/// the whole set in `dir` records every position it probes, in order; the probes are then
/// made again in that order, once untimed and three times timed, the median kept (of the
/// positions with a table: those above the set cost a look at an empty slot). The
/// search's own locality (a position's neighbours probed one after another) is kept, and
/// two sets that agree (`tables compare`) see the same probes.
pub fn search_probe_cost(dir: &Path, game: &EgaraGuti, nodes: u64) -> Result<ProbeCost, String> {
    let recording = Arc::new(Recording {
        tables: Tablebase::load_all(dir)?,
        probed: Mutex::new(Vec::new()),
    });
    let mut searcher = Searcher::<EgaraGuti>::new(16);
    searcher.set_oracle(Some(Arc::clone(&recording) as Arc<dyn Oracle<EgaraGuti>>));
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    searcher.search(game, &limits, &AtomicBool::new(false), &mut |_| {});
    drop(searcher);
    let Ok(Recording { tables, probed }) = Arc::try_unwrap(recording) else {
        return Err("the search kept its oracle".into());
    };
    // The probes of positions beyond the set cost a look at an empty slot: left out, so
    // that the figure is what a probe that reads the tables costs.
    let mut probed = probed.into_inner().unwrap();
    probed.retain(|game| tables.get(men_of(game).material()).is_some());
    let pass = || {
        tables.forget_derived();
        let started = Instant::now();
        let known = probed
            .iter()
            .filter(|game| Oracle::probe(&tables, game).is_some())
            .count();
        std::hint::black_box(known);
        started.elapsed().as_secs_f64()
    };
    pass();
    let mut times = [pass(), pass(), pass()];
    times.sort_by(f64::total_cmp);
    Ok(ProbeCost {
        material: men_of(game).material(),
        probes: probed.len() as u64,
        nanoseconds: times[1] * 1e9 / probed.len().max(1) as f64,
    })
}
