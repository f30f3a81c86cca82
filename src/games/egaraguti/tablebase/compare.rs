//! The check that two sets agree on every position (`tables compare`): the compact form
//! against the packed one it was made from, or two builds. On top of the room.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::index::{INDEXER, MAX_MEN, Material, Men};
use super::set::Tablebase;
use crate::core::Player;
use crate::games::egaraguti::{EgaraGuti, can_capture};
use crate::rules::Notation;

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

/// Which positions a comparison reads.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// The tables of this many men or more: a long comparison goes on where one stopped.
    pub from_men: usize,
    /// Only these tables, when it names any: a comparison shared out, or resumed table by
    /// table.
    pub tables: Vec<Material>,
    /// Only the positions without a capture, the entries a compact table stores: its
    /// coding checked in a single pass over its runs, without the look into the lower
    /// levels that each capture's value costs (most of a full comparison's time).
    pub stored_only: bool,
}

/// Compares the whole sets in `a` and `b` (in either form) position by position: the value
/// and distance of every canonical position of every table that `selection` takes, as the
/// engine's probes read them (a compact set's captures through its lower levels). On
/// `threads` threads; calls `progress` with each table's comparison.
pub fn compare_sets(
    a: &Path,
    b: &Path,
    threads: usize,
    selection: &Selection,
    progress: &mut dyn FnMut(&Comparison),
) -> Result<Vec<Comparison>, String> {
    let (a, b) = (Tablebase::load_all(a)?, Tablebase::load_all(b)?);
    let only = &selection.tables;
    if let Some(absent) = only
        .iter()
        .find(|&&m| a.get(m).is_none() || b.get(m).is_none())
    {
        return Err(format!("{absent} is not in both sets"));
    }
    let mut comparisons = Vec::new();
    for total in selection.from_men.max(2)..=2 * MAX_MEN {
        for mover in 1..total {
            let material = Material {
                mover,
                other: total - mover,
            };
            if !only.is_empty() && !only.contains(&material) {
                continue;
            }
            match (a.get(material), b.get(material)) {
                (None, None) => continue,
                (Some(_), Some(_)) => {}
                _ => return Err(format!("only one of the sets has {material}")),
            }
            let comparison = compare_table(&a, &b, material, threads, selection.stored_only);
            progress(&comparison);
            comparisons.push(comparison);
        }
    }
    Ok(comparisons)
}

/// Compares one table of two sets over ranges of entries shared out between threads.
/// With `stored_only`, the positions with a capture are passed over.
fn compare_table(
    a: &Tablebase,
    b: &Tablebase,
    material: Material,
    threads: usize,
    stored_only: bool,
) -> Comparison {
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
                        if INDEXER.canonical(position) != position
                            || stored_only && can_capture(position.mover, position.other)
                        {
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
