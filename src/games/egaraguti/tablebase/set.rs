//! The set of a directory's tables ([`Tablebase`]): which levels it holds and whether they
//! are whole from the bottom, how it holds them (mapped, or read for a build), and what a
//! probe of a position answers ([`Probe`]). Above the single table ([`super::table`]) and
//! the levels of material ([`super::material`]); below everything that uses a set: the
//! solver, the build, the checks, the lines and the search's oracle.

use std::path::{Path, PathBuf};

use super::cache::CaptureCache;
use super::index::{INDEXER, MAX_MEN, Material, Men, wdl_by_count};
use super::material;
use super::table::Table;
use crate::core::Wdl;
use crate::games::egaraguti::{EgaraGuti, QUIET_PLY_LIMIT, can_capture, for_each_capture_chain};
use crate::rules::Rules;

/// The places of the tables in a set: one for each material pair of 1 to 11 men a side.
const SLOTS: usize = MAX_MEN * MAX_MEN;

/// The place of a material pair's table in a set.
#[inline]
fn slot(material: Material) -> usize {
    (material.mover - 1) * MAX_MEN + material.other - 1
}

/// A game's men, the side to move's first: what indexes its position in the tables.
pub fn men_of(game: &EgaraGuti) -> Men {
    let side = game.side_to_move();
    Men {
        mover: game.men(side),
        other: game.men(side.opponent()),
    }
}

/// The tables of a directory that have been loaded.
#[derive(Debug)]
pub struct Tablebase {
    dir: PathBuf,
    /// The tables by material, `slot(material)`: a plain array, since the search looks a
    /// table up at every node.
    tables: Vec<Option<Table>>,
    /// How the set holds the tables it loads.
    residence: Residence,
    /// The capture values derived lately from compact tables.
    derived: CaptureCache,
}

/// How a set holds its tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Residence {
    /// Each file mapped, its header and length checked: ready at once whatever the set's
    /// size, and shared through the page cache by every process that maps it. What the
    /// engine and the tools that look positions up use.
    Mapped,
    /// Read into memory, header and checksum checked.
    Memory,
    /// The values alone read into memory, header and checksum checked: the lower levels a
    /// build solves from, in a fifth of the memory.
    Values,
}

/// What the tables say of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The value for the side to move with the 40-ply counter at 0.
    pub value: Wdl,
    /// The plies the result needs before the next capture or block, where stored (0: the
    /// men count's verdict, which holds at any counter).
    pub distance: Option<u8>,
    /// Whether `value` is the position's value at its own counter: always at counter 0, and
    /// above 0 where the stored distance fits in the plies left.
    pub exact: bool,
}

impl Default for Tablebase {
    /// An empty set with no directory: tables come by [`Tablebase::insert`].
    fn default() -> Self {
        Tablebase::new(Path::new(""))
    }
}

impl Tablebase {
    /// An empty set that maps its tables from `dir` as they are asked for.
    pub fn new(dir: &Path) -> Tablebase {
        Tablebase {
            dir: dir.to_path_buf(),
            tables: (0..SLOTS).map(|_| None).collect(),
            residence: Residence::Mapped,
            derived: CaptureCache::default(),
        }
    }

    /// An empty set that reads the values alone from `dir`, for a build.
    pub fn values_from(dir: &Path) -> Tablebase {
        Tablebase {
            residence: Residence::Values,
            ..Tablebase::new(dir)
        }
    }

    /// Every table file of `dir`, mapped (files of other names are ignored). A set with a
    /// hole (`levels`) is refused, the missing tables named.
    pub fn load_all(dir: &Path) -> Result<Tablebase, String> {
        Tablebase::load_all_keeping(dir, Residence::Mapped)
    }

    /// Every table file of `dir`, held as `residence` says. A set with a hole (`levels`)
    /// is refused, the missing tables named.
    pub fn load_all_keeping(dir: &Path, residence: Residence) -> Result<Tablebase, String> {
        let mut set = Tablebase {
            residence,
            ..Tablebase::new(dir)
        };
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        material::refuse_holes(dir)?;
        for mover in 1..=MAX_MEN {
            for other in 1..=MAX_MEN {
                set.load(Material { mover, other })?;
            }
        }
        Ok(set)
    }

    /// The directory the set loads from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Loads a material pair's table from the directory unless it is loaded; `Ok(false)`
    /// when there is no such file.
    pub fn load(&mut self, material: Material) -> Result<bool, String> {
        if self.get(material).is_some() {
            return Ok(true);
        }
        let read = match self.residence {
            Residence::Mapped => Table::map(&self.dir, material)?,
            Residence::Memory => Table::read(&self.dir, material)?,
            Residence::Values => Table::read_values(&self.dir, material)?,
        };
        match read {
            Some(table) => {
                self.insert(table);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Adds a table just solved.
    pub fn insert(&mut self, table: Table) {
        let slot = slot(table.material());
        self.tables[slot] = Some(table);
    }

    /// Drops the tables not in `keep`, to bound the memory of a long build.
    pub fn retain(&mut self, keep: &[Material]) {
        for table in &mut self.tables {
            if table
                .as_ref()
                .is_some_and(|t| !keep.contains(&t.material()))
            {
                *table = None;
            }
        }
    }

    pub fn get(&self, material: Material) -> Option<&Table> {
        if material.is_tabled() {
            self.tables[slot(material)].as_ref()
        } else {
            None
        }
    }

    /// The tables loaded.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.iter().flatten()
    }

    /// How many tables are loaded.
    pub fn len(&self) -> usize {
        self.tables.iter().flatten().count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of a position for the side to move at counter 0: a side without men has
    /// lost; `None` when its table (or, from a compact table, a table its captures lead
    /// to) is not loaded.
    #[inline]
    pub fn value(&self, men: Men) -> Option<Wdl> {
        self.value_within(men, Wdl::Loss, Wdl::Win)
    }

    /// Forgets the capture values derived so far (a measure of probes starts cold).
    pub fn forget_derived(&self) {
        self.derived.clear();
    }

    /// The value for the side to move of a position where it must capture: its best
    /// capture chain's, one ply over the lower levels (where a compact table stores
    /// nothing). `None` when a table a capture leads to is not loaded.
    pub fn capture_value(&self, men: Men) -> Option<Wdl> {
        if let Some(value) = self.derived.get(men) {
            return Some(value);
        }
        let value = self.capture_within(men, Wdl::Loss, Wdl::Win)?;
        self.derived.put(men, value);
        Some(value)
    }

    /// [`Tablebase::value`] as an alpha-beta search over the captures of compact tables
    /// sees it (Syzygy's probe does the same): exact when it lies between `alpha` and
    /// `beta`, else at or beyond the bound it fails (fail-soft), which is all a capture
    /// above needs to know to drop it.
    #[inline]
    fn value_within(&self, men: Men, alpha: Wdl, beta: Wdl) -> Option<Wdl> {
        if men.mover == 0 {
            return Some(Wdl::Loss);
        }
        if men.other == 0 {
            return Some(Wdl::Win);
        }
        let table = self.get(men.material())?;
        match table.is_compact() && can_capture(men.mover, men.other) {
            // Left out of a compact table: derived by one ply over the lower levels.
            true => self.capture_within(men, alpha, beta),
            false => table.value_at(INDEXER.index(men)),
        }
    }

    /// The best capture's value as [`Tablebase::value_within`] bounds it.
    fn capture_within(&self, men: Men, alpha: Wdl, beta: Wdl) -> Option<Wdl> {
        let (mut best, mut missing) = (Wdl::Loss, false);
        for_each_capture_chain(men.mover, men.other, |chain| {
            // At the bound (a win, at the most) the other chains need no look.
            if missing || best >= beta {
                return;
            }
            let after = Men {
                mover: men.other & !chain.captured(),
                other: men.mover ^ (1 << chain.from()) ^ (1 << chain.to()),
            };
            let window = (beta.flipped(), alpha.max(best).flipped());
            match self.value_within(after, window.0, window.1) {
                Some(value) => best = best.max(value.flipped()),
                None => missing = true,
            }
        });
        (!missing).then_some(best)
    }

    /// The value of a position for the side to move at counter 0 and its distance, where
    /// the set keeps distances (0 for the men count's verdict, which holds at any counter;
    /// 1 for a capture that decides otherwise): what a probe reads, in either form of
    /// table. `None` when a table it needs is not loaded.
    #[inline]
    pub fn value_and_distance(&self, men: Men) -> Option<(Wdl, Option<u8>)> {
        if men.mover == 0 || men.other == 0 {
            return Some((self.value(men)?, None));
        }
        let table = self.get(men.material())?;
        let verdict = wdl_by_count(men.material());
        let derived = table.is_compact() && can_capture(men.mover, men.other);
        // A derived value needs no index: its position's own entry is never read.
        let index = || INDEXER.index(men);
        let value = match derived {
            true => self.capture_value(men)?,
            false => table.value_at(index())?,
        };
        let distance = match table.has_distances() {
            false => None,
            // The verdict is stored at distance 0: it needs no read (of a page of the
            // distances, which may still be on the disk).
            true if value == verdict => Some(0),
            // What the packed tables store for a capture, which a compact table leaves
            // out: the deciding capture is the next ply.
            true if derived => Some(1),
            true => table.distance_at(index()),
        };
        Some((value, distance))
    }

    /// What the tables say of a game's position, if its table is loaded. The game's own
    /// end (a side without men or moves, the 40-ply rule) is for the caller to check first.
    pub fn probe(&self, game: &EgaraGuti) -> Option<Probe> {
        let men = men_of(game);
        let (value, distance) = self.value_and_distance(men)?;
        let plies_left = QUIET_PLY_LIMIT.saturating_sub(game.quiet_plies());
        let exact = game.quiet_plies() == 0
            || value == wdl_by_count(men.material())
            || distance.is_some_and(|d| u32::from(d) <= plies_left);
        Some(Probe {
            value,
            distance,
            exact,
        })
    }
}
