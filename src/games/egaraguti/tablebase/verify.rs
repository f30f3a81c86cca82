//! An independent check of built tables: for sampled positions, the stored value and
//! distance must follow from one ply of the rules over what the tables store for the
//! positions after it (the retrograde equation), with captures looked up in the lower
//! levels. It shares the rules with the solver (move generation, the index, the lookup of a
//! capture's value in the lower levels) but none of its search: a table the solver got wrong, or a file damaged after its checksum was written,
//! disagrees here.
//!
//! The equation, with `k` plies left before the 40-ply rule counts the men (a table stores
//! the value at `k = 40`, counter 0, and the plies its side needs to force it):
//!
//! - a side with no move has lost, at distance 0;
//! - a position with a capture is worth its best capture (the lower level's value, since
//!   a capture sets the counter back to 0), at distance 1 unless that is the men count's
//!   verdict (then 0);
//! - any other position is worth its best step against the values at `k = 39`: a step's
//!   position is worth its stored value where that needs at most 39 plies, else less.
//!
//! With unequal men a table keeps one distance of two (the side behind winning, or getting
//! a draw): where the other is needed, the check holds the stored figures to the bounds the
//! stored ones allow, so that it never reports a disagreement the tables do not have.

use crate::core::clock::Instant;
use std::path::Path;

use super::file;
use super::index::wdl_by_count;
use super::index::{INDEXER, Material, Men};
use super::material::{levels_of_total, lower_materials, parts, refuse_holes};
use super::men::{best_capture, can_step, for_each_step};
use super::set::Tablebase;
use super::table::Table;
use crate::core::{Player, Wdl};
use crate::games::egaraguti::{EgaraGuti, QUIET_PLY_LIMIT};
use crate::rules::Notation;

/// The plies a step's position has left.
const AFTER_STEP: u32 = QUIET_PLY_LIMIT - 1;

/// What the check of one level found.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelCheck {
    pub level: Material,
    /// Positions checked.
    pub checked: u64,
    /// Of them, those whose value the positions after them decide exactly (the others are
    /// held to bounds: see the module docs).
    pub exact: u64,
    /// The first few disagreements, as lines for people; `disagreements` counts them all.
    pub examples: Vec<String>,
    pub disagreements: u64,
    /// The check's time, the reading of the files left out.
    pub seconds: f64,
}

/// What a sampled position should store, as far as its successors tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Expected {
    /// The least and the most the value can be (equal when the successors decide it).
    value: (Wdl, Wdl),
    /// The least and the most the distance can be.
    distance: (u32, u32),
}

impl Expected {
    fn exactly(value: Wdl, distance: u32) -> Self {
        Expected {
            value: (value, value),
            distance: (distance, distance),
        }
    }

    fn admits(&self, value: Wdl, distance: u8) -> bool {
        let distance = u32::from(distance);
        (self.value.0..=self.value.1).contains(&value)
            && (self.distance.0..=self.distance.1).contains(&distance)
    }
}

/// Which positions a check looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// `samples` positions a table part, drawn from `seed` (all of a part with no more
    /// than twice that many entries).
    Sampled { samples: u64, seed: u64 },
    /// Every position of every part, shared out between `threads` threads.
    All { threads: usize },
}

/// Checks every level of the tables in `dir` whose men are within `men` (levels of at most
/// 22 men, as many as there are: a long check stopped part way goes on from a level, and
/// the levels of one number of men can be checked apart, on another machine), the
/// positions `coverage` says, calling `progress` with each level's result. A file that is
/// not whole or not a table is an error, and so is a set with a hole.
pub fn verify(
    dir: &Path,
    coverage: Coverage,
    men: std::ops::RangeInclusive<usize>,
    progress: &mut dyn FnMut(&LevelCheck),
) -> Result<Vec<LevelCheck>, String> {
    if !dir.is_dir() {
        return Err(format!("no directory {}", dir.display()));
    }
    refuse_holes(dir)?;
    let mut lower = Tablebase::values_from(dir);
    let mut checks = Vec::new();
    let mut rng = match coverage {
        Coverage::Sampled { seed, .. } => fastrand::Rng::with_seed(seed),
        Coverage::All { .. } => fastrand::Rng::with_seed(0),
    };
    for total in (*men.start()).max(2)..=(*men.end()).min(2 * super::index::MAX_MEN) {
        for level in levels_of_total(total) {
            // Every file is read whole, its header and checksum checked, even where the
            // other part of its level is missing.
            let mut tables = Vec::new();
            for material in parts(level) {
                tables.extend(Table::read(dir, material)?);
            }
            if tables.len() < parts(level).len() {
                continue;
            }
            if let Some(table) = tables.iter().find(|t| !t.has_distances()) {
                return Err(format!(
                    "{} has no distances: the check needs a build with --distances",
                    file::file_name(table.material())
                ));
            }
            for material in lower_materials(level) {
                if !lower.load(material)? {
                    return Err(format!(
                        "{} is missing: {level} cannot be checked without it",
                        file::file_name(material)
                    ));
                }
            }
            let started = Instant::now();
            let mut check = LevelCheck {
                level,
                checked: 0,
                exact: 0,
                examples: Vec::new(),
                disagreements: 0,
                seconds: 0.0,
            };
            for table in &tables {
                let indices: Box<dyn Iterator<Item = u64> + Send> = match coverage {
                    Coverage::Sampled { samples, .. } => sampled(table, samples, &mut rng),
                    Coverage::All { threads } => {
                        check_all(table, &tables, &lower, threads, &mut check);
                        continue;
                    }
                };
                check_indices(table, &tables, &lower, indices, &mut check);
            }
            check.seconds = started.elapsed().as_secs_f64();
            progress(&check);
            checks.push(check);
        }
    }
    Ok(checks)
}

/// The most disagreements a check writes out as examples (it counts them all).
const EXAMPLES: usize = 5;

/// The canonical entries of `table` a sample of `samples` looks at: the first ones of a
/// small table, else random ones (more than enough draws that `samples` are canonical).
fn sampled(
    table: &Table,
    samples: u64,
    rng: &mut fastrand::Rng,
) -> Box<dyn Iterator<Item = u64> + Send> {
    let size = table.entries();
    let indices: Vec<u64> = match size <= samples.saturating_mul(2) {
        true => (0..size).collect(),
        false => (0..samples * 4).map(|_| rng.u64(..size)).collect(),
    };
    let canonical: Vec<u64> = (indices.into_iter())
        .filter(|&index| table.value_at(index).is_some())
        .take(samples as usize)
        .collect();
    Box::new(canonical.into_iter())
}

/// Checks every entry of `table` on `threads` threads, each a run of the entries, and adds
/// what they found to `check` in the runs' order (so the examples are the first ones).
fn check_all(
    table: &Table,
    tables: &[Table],
    lower: &Tablebase,
    threads: usize,
    check: &mut LevelCheck,
) {
    let size = table.entries();
    let runs = (threads.max(1) as u64 * 16).min(size.max(1));
    let run = size.div_ceil(runs);
    let next = std::sync::atomic::AtomicU64::new(0);
    let found: Vec<std::sync::Mutex<Option<LevelCheck>>> =
        (0..runs).map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if k >= runs {
                        break;
                    }
                    let mut part = LevelCheck {
                        level: check.level,
                        checked: 0,
                        exact: 0,
                        examples: Vec::new(),
                        disagreements: 0,
                        seconds: 0.0,
                    };
                    let indices = Box::new(k * run..((k + 1) * run).min(size));
                    check_indices(table, tables, lower, indices, &mut part);
                    *found[k as usize]
                        .lock()
                        .expect("no thread panics holding it") = Some(part);
                }
            });
        }
    });
    for part in found
        .into_iter()
        .flat_map(|part| part.into_inner().ok().flatten())
    {
        check.checked += part.checked;
        check.exact += part.exact;
        check.disagreements += part.disagreements;
        let room = EXAMPLES - check.examples.len().min(EXAMPLES);
        check.examples.extend(part.examples.into_iter().take(room));
    }
}

/// Checks the entries `indices` of `table` (a part of the level whose parts are `tables`)
/// that are canonical, adding what it finds to `check`.
fn check_indices(
    table: &Table,
    tables: &[Table],
    lower: &Tablebase,
    indices: Box<dyn Iterator<Item = u64> + Send + '_>,
    check: &mut LevelCheck,
) {
    let stored = |men: Men| -> (Wdl, u8) {
        let table = tables
            .iter()
            .find(|t| t.material() == men.material())
            .expect("a part of the level");
        let index = INDEXER.index(men);
        (
            table.value_at(index).expect("a canonical entry"),
            table.distance_at(index).expect("distances"),
        )
    };
    for index in indices {
        let Some(value) = table.value_at(index) else {
            continue;
        };
        let distance = table.distance_at(index).expect("distances");
        let men = INDEXER.position(table.material(), index);
        let expected = expected_of(men, &stored, lower);
        check.checked += 1;
        check.exact += u64::from(expected.value.0 == expected.value.1);
        if !expected.admits(value, distance) {
            check.disagreements += 1;
            if check.examples.len() < EXAMPLES {
                let game = EgaraGuti::from_parts([men.mover, men.other], Player::P1, 0, 1);
                check.examples.push(format!(
                    "{}: stored {} in {distance}, the positions after it say {}..{} in {}..{}",
                    game.position_string(),
                    value.name(),
                    expected.value.0.name(),
                    expected.value.1.name(),
                    expected.distance.0,
                    expected.distance.1
                ));
            }
        }
    }
}

/// What `men` (a canonical position of the level) should store, from one ply of the rules
/// over what `stored` gives its steps and `lower` its captures.
fn expected_of(men: Men, stored: &dyn Fn(Men) -> (Wdl, u8), lower: &Tablebase) -> Expected {
    let default = wdl_by_count(men.material());
    // A capture is compulsory: the best one decides.
    if let Some(value) = best_capture(men, lower) {
        return Expected::exactly(value, u32::from(value != default));
    }
    if !can_step(men) {
        return Expected::exactly(Wdl::Loss, 0);
    }
    let mut steps = Vec::new();
    for_each_step(men, |after| steps.push(after));
    let after: Vec<Successor> = steps
        .into_iter()
        .map(|after| Successor::of(after, stored(after)))
        .collect();
    // The value: the mover's best over the steps' values, as bounds.
    let value = (
        after
            .iter()
            .map(|s| s.value.1.flipped())
            .max()
            .expect("a step"),
        after
            .iter()
            .map(|s| s.value.0.flipped())
            .max()
            .expect("a step"),
    );
    if value.0 != value.1 || value.0 == default {
        // Undecided by the successors, or the men count's verdict: its distance is 0 when
        // the verdict, and within the limit in any case.
        let distance = if value.1 == default && value.0 == default {
            (0, 0)
        } else {
            (0, QUIET_PLY_LIMIT)
        };
        return Expected { value, distance };
    }
    Expected {
        value,
        distance: forcing_distance(men, value.0, &after),
    }
}

/// A step's position, as far as its stored figures tell at `AFTER_STEP` plies left.
struct Successor {
    /// The least and the most its value can be there, for its side to move.
    value: (Wdl, Wdl),
    /// Its stored value and distance.
    stored: (Wdl, u8),
    default: Wdl,
}

impl Successor {
    fn of(men: Men, stored: (Wdl, u8)) -> Successor {
        let material = men.material();
        let default = wdl_by_count(material);
        let equal = material.mover == material.other;
        let (value, distance) = stored;
        let value = if value == default || u32::from(distance) <= AFTER_STEP {
            (value, value)
        } else if equal || value == Wdl::Draw {
            // A result one ply too far: the men count's verdict instead (with unequal men
            // a draw forced too late is the side behind losing).
            (default, default)
        } else {
            // The side behind winning, one ply too far: a draw or the men count's verdict
            // for it there, as its draw distance (not stored) allows.
            (default.min(Wdl::Draw), default.max(Wdl::Draw))
        };
        Successor {
            value,
            stored,
            default,
        }
    }

    /// Bounds of the plies its side behind needs to get at least a draw (unequal men),
    /// `None` when it cannot within the limit.
    fn draw_distance(&self) -> Option<(u32, u32)> {
        let (value, distance) = self.stored;
        let distance = u32::from(distance);
        match () {
            _ if value == self.default => None,
            _ if value == Wdl::Draw => Some((distance, distance)),
            // The side behind wins: it gets a draw no later than that.
            _ => Some((0, distance)),
        }
    }
}

/// The bounds of the plies the side that forces `value` (not the men count's verdict)
/// needs from `men`, given its steps.
fn forcing_distance(men: Men, value: Wdl, after: &[Successor]) -> (u32, u32) {
    let material = men.material();
    let equal = material.mover == material.other;
    let within = |d: u32| d <= AFTER_STEP;
    let one_more = |(low, high): (u32, u32)| (low.saturating_add(1), high.saturating_add(1));
    if equal {
        // The mover wins by one step into a loss; loses when every step is a win.
        let distances = after.iter().filter_map(|s| {
            let (v, d) = s.stored;
            let d = u32::from(d);
            (within(d) && v == value.flipped() && v != Wdl::Draw).then_some(d)
        });
        let d = if value == Wdl::Win {
            distances.min()
        } else {
            distances.max()
        };
        return one_more(d.map_or((0, 0), |d| (d, d)));
    }
    let mover_ahead = material.mover > material.other;
    // In the side behind's words: it wins, or it gets a draw.
    let behind_wins = if mover_ahead {
        value == Wdl::Loss
    } else {
        value == Wdl::Win
    };
    let bounds: Vec<(u32, u32)> = after
        .iter()
        .filter_map(|s| {
            if behind_wins {
                let (v, d) = s.stored;
                let d = u32::from(d);
                (v != s.default && v != Wdl::Draw && within(d)).then_some((d, d))
            } else {
                s.draw_distance().filter(|&(low, _)| within(low))
            }
        })
        .collect();
    let pick = if mover_ahead {
        // The side ahead moves: every step must lead into the label.
        bounds
            .iter()
            .fold((0, 0), |(l, h), &(low, high)| (l.max(low), h.max(high)))
    } else {
        // The side behind moves: one step is enough, the quickest.
        bounds
            .iter()
            .fold((u32::MAX, u32::MAX), |(l, h), &(low, high)| {
                (l.min(low), h.min(high))
            })
    };
    let (low, high) = one_more(pick);
    (low, high.min(QUIET_PLY_LIMIT))
}
