//! The values the daemon's options set, and the bounds they are set within: [`Settings`]
//! (which outlive a change of variant), the defaults and largest values of the options
//! whose bounds are not fixed, the daemon's [`Caps`] below them, and the [`HashPool`] that
//! several daemons of one process share. `options` declares the options that set them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::engine::{EvalChoice, Session, new_session};
use crate::games::{LoadedTables, Variant, strength};
use crate::search::levels::MAX_LEVEL;
use crate::search::mover::Mover;

/// The transposition table's default size, in MiB.
pub const DEFAULT_HASH_MIB: u64 = 16;
/// The largest transposition table where the machine's memory cannot be read, in MiB.
pub const FALLBACK_MAX_HASH_MIB: u64 = 4096;

/// The largest transposition table, in MiB, at every door (protocol and command line): half
/// of the machine's memory (a bound on what a typo can ask for that still lets a big
/// machine use what it has), or [`FALLBACK_MAX_HASH_MIB`] where `/proc/meminfo` cannot be
/// read. Read once.
pub fn max_hash_mib() -> u64 {
    static MAX: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| {
        let total_kib = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| {
                let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            });
        total_kib.map_or(FALLBACK_MAX_HASH_MIB, |kib| (kib / 1024 / 2).max(1))
    })
}
/// The default time kept back from every move for the way to the GUI, in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
pub(super) const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
pub(super) const MAX_MULTIPV: u64 = 64;
/// The most `Contempt`: ten pawns, past which a draw would rank below positions the
/// evaluation calls lost.
pub(super) const MAX_CONTEMPT: u64 = 1000;

/// The most a daemon may take, below the table's bounds: a daemon serving a page of
/// `ternion gui`, one of several on one machine, takes less than one a GUI starts alone.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// The largest `Hash`, in MiB.
    pub hash_mib: u64,
    /// The most `Threads`.
    pub threads: u64,
    /// Whether the options that open a file (`TablePath`, `EvalFile`) may be set: not in a
    /// daemon that serves a page of `ternion gui`, whose server gives it its tables and
    /// whose networks are the built-in ones (a page must not open the files of a path of
    /// its choosing, nor learn from the errors which files exist).
    pub open_files: bool,
    /// The memory several daemons share for their tables above the default `Hash` (the
    /// pages of `ternion gui`): a `Hash` above the default takes its excess from here, and
    /// is refused when the pool has not that much left.
    pub hash_pool: Option<&'static HashPool>,
}

impl Caps {
    /// No caps: the table's bounds alone.
    pub const NONE: Caps = Caps {
        hash_mib: u64::MAX,
        threads: u64::MAX,
        open_files: true,
        hash_pool: None,
    };
}

/// Mebibytes of table that daemons share beyond each one's default `Hash`: what bounds
/// the memory of all of them together, not only of each.
#[derive(Debug)]
pub struct HashPool {
    total_mib: u64,
    taken_mib: AtomicU64,
}

impl HashPool {
    /// A pool of `total_mib`, none of it taken.
    pub const fn new(total_mib: u64) -> HashPool {
        HashPool {
            total_mib,
            taken_mib: AtomicU64::new(0),
        }
    }

    /// The mebibytes of the pool.
    pub fn total_mib(&self) -> u64 {
        self.total_mib
    }

    /// The mebibytes not taken.
    pub fn free_mib(&self) -> u64 {
        self.total_mib - self.taken_mib.load(Ordering::SeqCst)
    }

    /// Takes `mib` if that much is free.
    pub(super) fn take(&self, mib: u64) -> bool {
        self.taken_mib
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |taken| {
                (taken + mib <= self.total_mib).then_some(taken + mib)
            })
            .is_ok()
    }

    /// Gives back `mib` taken before.
    pub fn give_back(&self, mib: u64) {
        self.taken_mib.fetch_sub(mib, Ordering::SeqCst);
    }

    /// What a daemon's table of `hash_mib` takes from a pool.
    pub fn share_of(hash_mib: usize) -> u64 {
        (hash_mib as u64).saturating_sub(DEFAULT_HASH_MIB)
    }
}

/// What the options have set: the daemon's settings, kept across variants.
#[derive(Clone, Debug)]
pub struct Settings {
    pub hash_mib: usize,
    pub threads: usize,
    /// The tables of `TablePath` (each game takes its own, if any).
    pub tables: LoadedTables,
    /// `TablePlay`: where the tables know every move, `go` plays their choice at once.
    pub table_play: bool,
    pub move_overhead: Duration,
    pub multipv: usize,
    /// `Ponder`: `bestmove` may name the expected reply.
    pub ponder: bool,
    /// `Contempt`: how far below zero the engine scores a draw by the rules, in centipawns.
    pub contempt: i32,
    /// `Skill Level`: the strength `go` plays at, unless limited by Elo.
    pub skill_level: u8,
    /// `UCI_LimitStrength` and `UCI_Elo`: when set, `go` plays at the level of the current
    /// variant whose measured Elo is nearest.
    pub limit_strength: bool,
    pub elo: u32,
    /// `UCI_ShowWDL`: `info` lines give the win, draw and loss their score stands for.
    pub show_wdl: bool,
    /// `Seed`: where the movers' draws start when it is set and with every new variant.
    pub seed: u64,
    /// `Use NNUE` and `EvalFile`: what the search evaluates with.
    pub evaluation: EvalChoice,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mib: DEFAULT_HASH_MIB as usize,
            threads: 1,
            tables: LoadedTables::default(),
            table_play: false,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            multipv: 1,
            ponder: false,
            contempt: 0,
            skill_level: MAX_LEVEL,
            limit_strength: false,
            elo: strength::MAX_ELO,
            show_wdl: false,
            seed: 0,
            evaluation: EvalChoice::default(),
        }
    }
}

impl Settings {
    /// A session of `variant` at its start, with these settings' table, threads, tables
    /// and seed.
    pub fn new_session(&self, variant: Variant) -> Box<dyn Session> {
        let mut session = new_session(variant, self.hash_mib);
        session.set_threads(self.threads);
        session.set_tables(&self.tables);
        session.set_evaluation(&self.evaluation);
        session.reseed(self.seed);
        session
    }

    /// The mover of the search in `variant`: the `Skill Level`, or with
    /// `UCI_LimitStrength` the variant's level nearest `UCI_Elo`.
    pub fn search_mover(&self, variant: Variant) -> Mover {
        Mover::at_level(match self.limit_strength {
            true => strength::nearest_level(variant, self.elo),
            false => self.skill_level,
        })
    }
}
