//! The daemon's options, each declared once, in one row: its name, kind, default, bounds
//! and what setting it does. The listing after `ugi`, the reading of a `setoption` value,
//! its effect and `help` all read this table. The options' values live in [`Settings`],
//! which outlive a change of variant; a row's effect changes the settings and the session
//! they apply to. The command line reads its `--hash` and `--threads` through the same
//! table ([`read_spin`]), so that every door takes the same values; the one limit that is
//! no option, the deepest perft, is here too.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::format;
use crate::core::printable::echo;
use crate::engine::{NetworkFile, Session};
use crate::eval::Evaluate;
use crate::eval::network::file::{self, NetworkKind};
use crate::games::{LoadedTables, Variant, strength};
use crate::search::levels::MAX_LEVEL;
use crate::search::max_threads;

pub use super::settings::{
    Caps, DEFAULT_HASH_MIB, DEFAULT_MOVE_OVERHEAD_MS, FALLBACK_MAX_HASH_MIB, HashPool, Settings,
    max_hash_mib,
};
use super::settings::{MAX_CONTEMPT, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV};

/// What a change of option acts on: the settings, and the session they apply to, under
/// the daemon's caps.
pub struct Target<'a> {
    pub settings: &'a mut Settings,
    pub session: &'a mut Box<dyn Session>,
    pub caps: Caps,
}

/// Why a value was not taken (or only in part): the `<kind>` and `<detail>` of the error
/// line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub kind: &'static str,
    pub detail: String,
}

impl Refusal {
    fn bad_value(detail: String) -> Refusal {
        Refusal {
            kind: "bad-option-value",
            detail,
        }
    }
}

/// What values an option takes, and what setting a value does.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// One of the variants' names; the default is the first variant.
    Variants {
        on_change: fn(Target<'_>, Variant) -> Result<Option<String>, Refusal>,
    },
    /// A whole number from `min` to `max()` (a bound some options learn at run time).
    Spin {
        default: u64,
        min: u64,
        max: fn() -> u64,
        on_change: fn(Target<'_>, u64) -> Result<Option<String>, Refusal>,
    },
    /// `true` or `false`.
    Check {
        default: bool,
        on_change: fn(Target<'_>, bool),
    },
    /// No value: setting it acts.
    Button { on_change: fn(Target<'_>) },
    /// Any text; `<empty>` (the default) or nothing for none.
    Text {
        on_change: fn(Target<'_>, &str) -> Result<Option<String>, Refusal>,
    },
}

/// One option as the table declares it.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The name as listed; `setoption` matches it in any case.
    pub name: &'static str,
    pub kind: Kind,
    /// The daemon's cap on a spin option's value, if it has one.
    pub cap: Option<fn(&Caps) -> u64>,
}

fn max_hash() -> u64 {
    max_hash_mib()
}

fn max_move_overhead() -> u64 {
    MAX_MOVE_OVERHEAD_MS
}

fn max_search_threads() -> u64 {
    max_threads() as u64
}

fn max_multipv() -> u64 {
    MAX_MULTIPV
}

fn max_contempt() -> u64 {
    MAX_CONTEMPT
}

fn max_skill_level() -> u64 {
    u64::from(MAX_LEVEL)
}

fn max_elo() -> u64 {
    u64::from(strength::MAX_ELO)
}

/// The largest seed: what a GUI's 32-bit spin box holds.
fn max_seed() -> u64 {
    i32::MAX as u64
}

/// A spin option's effect that only stores its value.
macro_rules! store {
    ($field:ident as $type:ty) => {
        |target: Target<'_>, value: u64| {
            target.settings.$field = value as $type;
            Ok(None)
        }
    };
}

/// Every option, in the order `ugi` lists them.
pub const OPTIONS: [OptionSpec; 17] = [
    OptionSpec {
        name: "UCI_Variant",
        kind: Kind::Variants {
            on_change: set_variant,
        },
        cap: None,
    },
    OptionSpec {
        name: "Hash",
        kind: Kind::Spin {
            default: DEFAULT_HASH_MIB,
            min: 1,
            max: max_hash,
            on_change: |target, mib| {
                if let Some(pool) = target.caps.hash_pool {
                    let (had, wants) = (
                        HashPool::share_of(target.settings.hash_mib),
                        HashPool::share_of(mib as usize),
                    );
                    if wants > had && !pool.take(wants - had) {
                        return Err(Refusal::bad_value(format!(
                            "Hash {mib} (the pages share {} MiB above {DEFAULT_HASH_MIB} MiB each, {} MiB of it free)",
                            pool.total_mib(),
                            pool.free_mib()
                        )));
                    }
                    pool.give_back(had.saturating_sub(wants));
                }
                target.settings.hash_mib = mib as usize;
                target.session.resize_hash(mib as usize);
                Ok(None)
            },
        },
        cap: Some(|caps| caps.hash_mib),
    },
    OptionSpec {
        name: "ClearHash",
        kind: Kind::Button {
            on_change: |target| target.session.clear_hash(),
        },
        cap: None,
    },
    OptionSpec {
        name: "MoveOverhead",
        kind: Kind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: max_move_overhead,
            on_change: |target, ms| {
                target.settings.move_overhead = Duration::from_millis(ms);
                Ok(None)
            },
        },
        cap: None,
    },
    OptionSpec {
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: max_search_threads,
            on_change: set_threads,
        },
        cap: Some(|caps| caps.threads),
    },
    OptionSpec {
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: max_multipv,
            on_change: store!(multipv as usize),
        },
        cap: None,
    },
    OptionSpec {
        name: "Ponder",
        kind: Kind::Check {
            default: false,
            on_change: |target, on| target.settings.ponder = on,
        },
        cap: None,
    },
    OptionSpec {
        name: "Contempt",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: max_contempt,
            on_change: store!(contempt as i32),
        },
        cap: None,
    },
    OptionSpec {
        name: "TablePath",
        kind: Kind::Text {
            on_change: set_table_path,
        },
        cap: None,
    },
    OptionSpec {
        name: "TablePlay",
        kind: Kind::Check {
            default: false,
            on_change: |target, on| target.settings.table_play = on,
        },
        cap: None,
    },
    OptionSpec {
        name: "Skill Level",
        kind: Kind::Spin {
            default: MAX_LEVEL as u64,
            min: 0,
            max: max_skill_level,
            on_change: store!(skill_level as u8),
        },
        cap: None,
    },
    OptionSpec {
        name: "UCI_LimitStrength",
        kind: Kind::Check {
            default: false,
            on_change: |target, on| target.settings.limit_strength = on,
        },
        cap: None,
    },
    OptionSpec {
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: strength::MAX_ELO as u64,
            min: strength::MIN_ELO as u64,
            max: max_elo,
            on_change: store!(elo as u32),
        },
        cap: None,
    },
    OptionSpec {
        name: "UCI_ShowWDL",
        kind: Kind::Check {
            default: false,
            on_change: |target, on| target.settings.show_wdl = on,
        },
        cap: None,
    },
    OptionSpec {
        name: "Use NNUE",
        kind: Kind::Check {
            default: true,
            on_change: |target, on| {
                target.settings.evaluation.use_network = on;
                target.session.set_evaluation(&target.settings.evaluation);
            },
        },
        cap: None,
    },
    OptionSpec {
        name: "EvalFile",
        kind: Kind::Text {
            on_change: set_eval_file,
        },
        cap: None,
    },
    OptionSpec {
        name: "Seed",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: max_seed,
            on_change: |target, seed| {
                target.settings.seed = seed;
                target.session.reseed(seed);
                Ok(None)
            },
        },
        cap: None,
    },
];

/// `UCI_Variant`: a new session of the variant, at its start, with the same settings.
fn set_variant(target: Target<'_>, variant: Variant) -> Result<Option<String>, Refusal> {
    // Free the old table before the new session makes its own.
    target.session.resize_hash(0);
    *target.session = target.settings.new_session(variant);
    Ok(Some(format::variant_set(variant, &target.session.fen())))
}

/// `Threads`: as many search threads as the system lets start.
fn set_threads(target: Target<'_>, threads: u64) -> Result<Option<String>, Refusal> {
    let threads = threads as usize;
    target.settings.threads = target.session.set_threads(threads);
    match target.settings.threads < threads {
        true => Err(Refusal {
            kind: "internal",
            detail: format!(
                "only {} search threads could start",
                target.settings.threads
            ),
        }),
        false => Ok(None),
    }
}

/// `TablePath`: loads every table of `path` (none for `<empty>` or nothing); a directory
/// that cannot be read, or holds no tables, changes nothing.
fn set_table_path(target: Target<'_>, path: &str) -> Result<Option<String>, Refusal> {
    if !target.caps.open_files {
        return Err(Refusal::bad_value(
            "TablePath: this daemon opens no files (a page's engine: any tables are its server's)"
                .into(),
        ));
    }
    let path = path.trim();
    let tables = if path.is_empty() || path == "<empty>" {
        LoadedTables::default()
    } else {
        match LoadedTables::load(Path::new(path)) {
            Ok(tables) if !tables.is_empty() => tables,
            Ok(_) => {
                return Err(Refusal::bad_value(format!(
                    "TablePath {} (no tables there)",
                    echo(path)
                )));
            }
            Err(reason) => {
                return Err(Refusal::bad_value(format!(
                    "TablePath {}: {reason}",
                    echo(path)
                )));
            }
        }
    };
    target.settings.tables = tables;
    target.session.set_tables(&target.settings.tables);
    Ok(None)
}

/// `EvalFile`: loads the network file at `path` for the current variant, in place of the
/// one built in (`<empty>` or nothing: the one built in again). A file that is not a network
/// of this variant (another game's, another shape, damaged) changes nothing.
fn set_eval_file(target: Target<'_>, path: &str) -> Result<Option<String>, Refusal> {
    let path = path.trim();
    let variant = target.session.variant();
    if path.is_empty() || path == "<empty>" {
        target.settings.evaluation.file = None;
        target.session.set_evaluation(&target.settings.evaluation);
        let built_in = crate::with_game!(variant, G => G::shipped_network().is_some());
        return Ok(Some(format::network_unloaded(variant, built_in)));
    }
    if !target.caps.open_files {
        return Err(Refusal::bad_value(
            "EvalFile: this daemon opens no files (a page's engine): it plays the built-in networks"
                .into(),
        ));
    }
    let name = variant.to_string();
    let (inputs, kind) = crate::with_game!(variant, G => (G::INPUTS, NetworkKind::of::<G>(&name)));
    if inputs == 0 {
        return Err(Refusal::bad_value(format!(
            "EvalFile {}: {variant} has no network",
            echo(path)
        )));
    }
    let network = file::load(Path::new(path), kind, inputs)
        .map_err(|reason| Refusal::bad_value(format!("EvalFile {}: {reason}", echo(path))))?;
    let said = format::network_loaded(variant, &echo(path), &network);
    target.settings.evaluation.file = Some(NetworkFile {
        variant,
        name: echo(path),
        network: Arc::new(network),
    });
    target.session.set_evaluation(&target.settings.evaluation);
    Ok(Some(said))
}

/// The option called `name`, in any case and with or without spaces between its words
/// (Stockfish spells `Clear Hash`, the spec `ClearHash`).
pub fn find(name: &str) -> Option<&'static OptionSpec> {
    let words = |name: &str| -> String { name.split(' ').collect() };
    let name = words(name);
    OPTIONS
        .iter()
        .find(|option| words(option.name).eq_ignore_ascii_case(&name))
}

impl OptionSpec {
    /// The largest value of a spin option under `caps`.
    pub fn max(&self, caps: Caps) -> Option<u64> {
        match self.kind {
            Kind::Spin { max, .. } => Some(max().min(self.cap.map_or(u64::MAX, |cap| cap(&caps)))),
            _ => None,
        }
    }

    /// The `option name ...` line of the listing, under `caps`.
    pub fn listing(&self, caps: Caps) -> String {
        let head = format!("option name {}", self.name);
        match self.kind {
            Kind::Variants { .. } => {
                let values: Vec<String> = Variant::ALL.iter().map(|v| format!("var {v}")).collect();
                format!(
                    "{head} type combo default {} {}",
                    Variant::ALL[0],
                    values.join(" ")
                )
            }
            Kind::Spin { default, min, .. } => {
                let max = self.max(caps).unwrap_or(default);
                let default = default.min(max);
                format!("{head} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default, .. } => format!("{head} type check default {default}"),
            Kind::Button { .. } => format!("{head} type button"),
            Kind::Text { .. } => format!("{head} type string default <empty>"),
        }
    }

    /// `text` read as a spin option's number under `caps`; `None` when it does not fit or
    /// this is no spin option.
    fn number(&self, text: &str, caps: Caps) -> Option<u64> {
        let (Kind::Spin { min, .. }, Some(max)) = (self.kind, self.max(caps)) else {
            return None;
        };
        text.parse::<u64>().ok().filter(|n| (min..=max).contains(n))
    }

    /// Whether `text` is a value this option takes under `caps` (a button takes any value,
    /// and ignores it).
    pub fn accepts(&self, text: &str, caps: Caps) -> bool {
        match self.kind {
            Kind::Variants { .. } => text.parse::<Variant>().is_ok(),
            Kind::Spin { .. } => self.number(text, caps).is_some(),
            Kind::Check { .. } => matches!(text, "true" | "false"),
            Kind::Button { .. } | Kind::Text { .. } => true,
        }
    }

    /// Sets this option, called `name` by the command, to `text` under `caps`: its effect
    /// on `target`, and what to say of it. A value it does not take changes nothing.
    pub fn set(
        &self,
        target: Target<'_>,
        name: &str,
        text: &str,
    ) -> Result<Option<String>, Refusal> {
        let caps = target.caps;
        if !self.accepts(text, caps) {
            return Err(self.refusal(name, text, caps));
        }
        match self.kind {
            Kind::Variants { on_change } => match text.parse::<Variant>() {
                Ok(variant) => on_change(target, variant),
                Err(_) => Err(self.refusal(name, text, caps)),
            },
            Kind::Spin { on_change, .. } => match self.number(text, caps) {
                Some(n) => on_change(target, n),
                None => Err(self.refusal(name, text, caps)),
            },
            Kind::Check { on_change, .. } => {
                on_change(target, text == "true");
                Ok(None)
            }
            Kind::Button { on_change } => {
                on_change(target);
                Ok(None)
            }
            Kind::Text { on_change } => on_change(target, text),
        }
    }

    /// Why `text` is not taken by this option, called `name`: a variant that does not
    /// exist, a value the table takes but `caps` do not (saying where the cap is), or a
    /// value the table does not take.
    fn refusal(&self, name: &str, text: &str, caps: Caps) -> Refusal {
        if let Kind::Variants { .. } = self.kind {
            return Refusal {
                kind: "bad-variant",
                detail: echo(text),
            };
        }
        let taken_uncapped = self.accepts(text, Caps::NONE);
        let (name, text) = (echo(name), echo(text));
        match taken_uncapped {
            true => Refusal::bad_value(format!(
                "{name} {text} (this daemon takes at most {})",
                self.max(caps).unwrap_or_default()
            )),
            false => Refusal::bad_value(format!("{name} {text}")),
        }
    }
}

/// `text` read as the value of the spin option `name`, as `setoption` would read it; the
/// error says what the option takes.
pub fn read_spin(name: &str, text: &str) -> Result<u64, String> {
    let option = find(name).unwrap_or_else(|| panic!("{name} is no option"));
    match (option.number(text, Caps::NONE), option.kind) {
        (Some(n), _) => Ok(n),
        (None, Kind::Spin { min, max, .. }) => Err(format!(
            "{name} takes a whole number from {min} to {}, not '{}'",
            max(),
            echo(text)
        )),
        _ => panic!("{name} is no spin option"),
    }
}

/// The option names for `help`, as one list.
pub fn names() -> String {
    OPTIONS.map(|option| option.name).join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mover::Mover;

    #[test]
    fn caps_bound_the_listing_and_the_values() {
        let caps = Caps {
            hash_pool: None,
            hash_mib: 64,
            threads: 2,
            open_files: true,
        };
        let hash = find("Hash").unwrap();
        assert_eq!(
            hash.listing(caps),
            "option name Hash type spin default 16 min 1 max 64"
        );
        assert!(hash.accepts("64", caps));
        assert!(!hash.accepts("4096", caps));
        assert!(hash.accepts(&max_hash_mib().to_string(), Caps::NONE));
        assert!(!hash.accepts(&(max_hash_mib() + 1).to_string(), Caps::NONE));
        assert_eq!(
            hash.refusal("hash", "4096", caps),
            Refusal::bad_value("hash 4096 (this daemon takes at most 64)".into())
        );
        assert!(!find("Threads").unwrap().accepts("3", caps));
        assert!(find("MultiPV").unwrap().accepts("64", caps));
    }

    #[test]
    fn names_are_found_in_any_case_and_values_by_kind() {
        let hash = find("hASH").expect("Hash");
        assert_eq!(hash.name, "Hash");
        assert!(hash.accepts("32", Caps::NONE));
        let above = (max_hash_mib() + 1).to_string();
        for bad in ["0", &above, "-1", "x", "", " 3"] {
            assert!(!hash.accepts(bad, Caps::NONE), "{bad:?}");
            assert_eq!(
                hash.refusal("Hash", bad, Caps::NONE).detail,
                format!("Hash {}", echo(bad))
            );
        }
        let ponder = find("ponder").expect("Ponder");
        assert!(ponder.accepts("true", Caps::NONE) && ponder.accepts("false", Caps::NONE));
        assert!(!ponder.accepts("yes", Caps::NONE));
        assert!(find("ClearHash").unwrap().accepts("anything", Caps::NONE));
        let variant = find("uci_variant").unwrap();
        assert!(variant.accepts("lielow9", Caps::NONE));
        assert_eq!(
            variant.refusal("UCI_Variant", "chess", Caps::NONE).kind,
            "bad-variant"
        );
        assert!(find("NoSuchOption").is_none());
        assert_eq!(find("Clear Hash").map(|o| o.name), Some("ClearHash"));
        assert_eq!(find("Move Overhead").map(|o| o.name), Some("MoveOverhead"));
    }

    #[test]
    fn each_row_owns_its_effect() {
        let mut settings = Settings::default();
        let mut session = settings.new_session(Variant::Lielow);
        let mut set = |name: &str, text: &str| {
            let target = Target {
                settings: &mut settings,
                session: &mut session,
                caps: Caps::NONE,
            };
            find(name).unwrap().set(target, name, text)
        };
        assert_eq!(set("Hash", "1"), Ok(None));
        assert_eq!(set("MultiPV", "3"), Ok(None));
        assert_eq!(set("Skill Level", "4"), Ok(None));
        assert_eq!(set("UCI_Elo", &strength::MIN_ELO.to_string()), Ok(None));
        assert_eq!(set("UCI_LimitStrength", "true"), Ok(None));
        assert_eq!(set("Ponder", "true"), Ok(None));
        assert_eq!(set("MoveOverhead", "70"), Ok(None));
        assert_eq!(set("Seed", "9"), Ok(None));
        assert!(set("MultiPV", "0").is_err());
        assert_eq!(
            set("TablePath", "/no/such/dir").map_err(|refusal| refusal.kind),
            Err("bad-option-value")
        );
        let said = set("UCI_Variant", "egaraguti").unwrap().unwrap();
        assert!(said.starts_with("info string variant egaraguti"), "{said}");
        assert_eq!(session.variant(), Variant::Egaraguti);
        assert_eq!(
            (
                settings.hash_mib,
                settings.multipv,
                settings.skill_level,
                settings.seed
            ),
            (1, 3, 4, 9)
        );
        assert!(settings.ponder && settings.limit_strength);
        assert_eq!(settings.move_overhead, Duration::from_millis(70));
        assert_eq!(settings.elo, strength::MIN_ELO);
        // A level by Elo: the weakest level of the variant played now.
        assert_eq!(settings.search_mover(Variant::Egaraguti), Mover::Level(0));
        settings.limit_strength = false;
        assert_eq!(settings.search_mover(Variant::Egaraguti), Mover::Level(4));
    }

    #[test]
    fn the_command_line_reads_spins_by_the_table() {
        assert_eq!(read_spin("Hash", "4096"), Ok(4096));
        assert!(max_hash_mib() >= 1);
        assert_eq!(
            read_spin("Hash", "0"),
            Err(format!(
                "Hash takes a whole number from 1 to {}, not '0'",
                max_hash_mib()
            ))
        );
        assert!(read_spin("Hash", "99999999").is_err());
        let most = max_threads() as u64;
        assert_eq!(read_spin("Threads", &most.to_string()), Ok(most));
        assert!(read_spin("Threads", &(most + 1).to_string()).is_err());
    }

    #[test]
    fn the_listing_reads_the_table() {
        assert_eq!(
            find("Hash").unwrap().listing(Caps::NONE),
            format!(
                "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {}",
                max_hash_mib()
            )
        );
        assert_eq!(
            find("MoveOverhead").unwrap().listing(Caps::NONE),
            format!(
                "option name MoveOverhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max 5000"
            )
        );
        assert_eq!(
            find("UCI_Variant").unwrap().listing(Caps::NONE),
            "option name UCI_Variant type combo default lielow var lielow var lielow9 var egaraguti var lerontenin"
        );
    }
}
