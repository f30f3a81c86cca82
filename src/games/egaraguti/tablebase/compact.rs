//! The compact form of a finished set (`tables compact`). On top of the room, beside the
//! build; [`super::compare`] checks it against the packed set.
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

use crate::core::clock::Instant;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::file;
use super::index::{INDEXER, Material, Men, wdl_by_count};
use super::runs::{Alphabet, DONT_CARE, Encoder, Planner};
use super::set::Tablebase;
use super::table::Table;
use crate::games::egaraguti::can_capture;

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
    if from == to || crate::core::output::same_file(from, to) {
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
