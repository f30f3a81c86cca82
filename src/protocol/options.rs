//! The daemon's options, each declared once: its name, kind, default and bounds. The
//! listing after `ugi`, the reading of a `setoption` value and `help` all read this table;
//! what setting an option does is the daemon's (`Daemon::set_option`, by [`OptionId`]).
//! The command line reads its `--hash` and `--threads` through the same table
//! ([`read_spin`]), so that every door takes the same values; the one limit that is no
//! option, the deepest perft, is here too.

use crate::games::{Variant, strength};
use crate::search::levels::MAX_LEVEL;
use crate::search::max_threads;

/// The transposition table's default size, in MiB.
pub const DEFAULT_HASH_MIB: u64 = 16;
/// The largest transposition table, in MiB, at every door (protocol and command line).
pub const MAX_HASH_MIB: u64 = 4096;
/// The default time kept back from every move for the way to the GUI, in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// The deepest perft count, `go perft` and `ternion perft` alike.
pub const MAX_PERFT_DEPTH: u32 = 64;
const MAX_MULTIPV: u64 = 64;

/// The most a daemon may take, below the table's bounds: a daemon serving a page of
/// `ternion gui`, one of several on one machine, takes less than one a GUI starts alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// The largest `Hash`, in MiB.
    pub hash_mib: u64,
    /// The most `Threads`.
    pub threads: u64,
}

impl Caps {
    /// No caps: the table's bounds alone.
    pub const NONE: Caps = Caps {
        hash_mib: u64::MAX,
        threads: u64::MAX,
    };

    /// The cap on option `id`, if it has one.
    fn of(&self, id: OptionId) -> u64 {
        match id {
            OptionId::Hash => self.hash_mib,
            OptionId::Threads => self.threads,
            _ => u64::MAX,
        }
    }
}

/// Which option: what the daemon matches on to apply a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    Variant,
    Hash,
    ClearHash,
    MoveOverhead,
    Threads,
    MultiPv,
    Ponder,
    TablePath,
    SkillLevel,
    LimitStrength,
    Elo,
    Seed,
}

/// What values an option takes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// One of the variants' names; the default is the first variant.
    Variants,
    /// A whole number from `min` to `max()` (a bound some options learn at run time).
    Spin {
        default: u64,
        min: u64,
        max: fn() -> u64,
    },
    /// `true` or `false`.
    Check { default: bool },
    /// No value: setting it acts.
    Button,
    /// Any text; `<empty>` (the default) or nothing for none.
    Text,
}

/// One option as the table declares it.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    pub id: OptionId,
    /// The name as listed; `setoption` matches it in any case.
    pub name: &'static str,
    pub kind: Kind,
}

/// A `setoption` value read by its option's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    Number(u64),
    Flag(bool),
    /// A variant's name or a text, as given.
    Text(&'a str),
    /// A button's press.
    Press,
}

fn max_hash() -> u64 {
    MAX_HASH_MIB
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

/// Every option, in the order `ugi` lists them.
pub const OPTIONS: [OptionSpec; 12] = [
    OptionSpec {
        id: OptionId::Variant,
        name: "UCI_Variant",
        kind: Kind::Variants,
    },
    OptionSpec {
        id: OptionId::Hash,
        name: "Hash",
        kind: Kind::Spin {
            default: DEFAULT_HASH_MIB,
            min: 1,
            max: max_hash,
        },
    },
    OptionSpec {
        id: OptionId::ClearHash,
        name: "ClearHash",
        kind: Kind::Button,
    },
    OptionSpec {
        id: OptionId::MoveOverhead,
        name: "MoveOverhead",
        kind: Kind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: max_move_overhead,
        },
    },
    OptionSpec {
        id: OptionId::Threads,
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: max_search_threads,
        },
    },
    OptionSpec {
        id: OptionId::MultiPv,
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: max_multipv,
        },
    },
    OptionSpec {
        id: OptionId::Ponder,
        name: "Ponder",
        kind: Kind::Check { default: false },
    },
    OptionSpec {
        id: OptionId::TablePath,
        name: "TablePath",
        kind: Kind::Text,
    },
    OptionSpec {
        id: OptionId::SkillLevel,
        name: "Skill Level",
        kind: Kind::Spin {
            default: MAX_LEVEL as u64,
            min: 0,
            max: max_skill_level,
        },
    },
    OptionSpec {
        id: OptionId::LimitStrength,
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
    },
    OptionSpec {
        id: OptionId::Elo,
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: strength::MAX_ELO as u64,
            min: strength::MIN_ELO as u64,
            max: max_elo,
        },
    },
    OptionSpec {
        id: OptionId::Seed,
        name: "Seed",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: max_seed,
        },
    },
];

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
            Kind::Spin { max, .. } => Some(max().min(caps.of(self.id))),
            _ => None,
        }
    }

    /// The `option name ...` line of the listing, under `caps`.
    pub fn listing(&self, caps: Caps) -> String {
        let head = format!("option name {}", self.name);
        match self.kind {
            Kind::Variants => {
                let values: Vec<String> = Variant::ALL.iter().map(|v| format!("var {v}")).collect();
                format!(
                    "{head} type combo default {} {}",
                    Variant::ALL[0],
                    values.join(" ")
                )
            }
            Kind::Spin { default, min, .. } => {
                let max = self.max(caps).expect("a spin");
                let default = default.min(max);
                format!("{head} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("{head} type check default {default}"),
            Kind::Button => format!("{head} type button"),
            Kind::Text => format!("{head} type string default <empty>"),
        }
    }

    /// `value` read as this option's kind, under `caps`; `None` when it does not fit (a
    /// button takes any value, and ignores it).
    pub fn read<'a>(&self, value: &'a str, caps: Caps) -> Option<Value<'a>> {
        match self.kind {
            Kind::Variants | Kind::Text => Some(Value::Text(value)),
            Kind::Spin { min, .. } => {
                let max = self.max(caps).expect("a spin");
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                    .map(Value::Number)
            }
            Kind::Check { .. } => match value {
                "true" => Some(Value::Flag(true)),
                "false" => Some(Value::Flag(false)),
                _ => None,
            },
            Kind::Button => Some(Value::Press),
        }
    }
}

/// `text` read as the value of the spin option `name`, as `setoption` would read it; the
/// error says what the option takes.
pub fn read_spin(name: &str, text: &str) -> Result<u64, String> {
    let option = find(name).unwrap_or_else(|| panic!("{name} is no option"));
    match (option.read(text, Caps::NONE), option.kind) {
        (Some(Value::Number(n)), _) => Ok(n),
        (_, Kind::Spin { min, max, .. }) => Err(format!(
            "{name} takes a whole number from {min} to {}, not '{}'",
            max(),
            crate::printable::echo(text)
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

    impl OptionSpec {
        fn read_uncapped<'a>(&self, value: &'a str) -> Option<Value<'a>> {
            self.read(value, Caps::NONE)
        }
    }

    #[test]
    fn caps_bound_the_listing_and_the_values() {
        let caps = Caps {
            hash_mib: 64,
            threads: 2,
        };
        let hash = find("Hash").unwrap();
        assert_eq!(
            hash.listing(caps),
            "option name Hash type spin default 16 min 1 max 64"
        );
        assert_eq!(hash.read("64", caps), Some(Value::Number(64)));
        assert_eq!(hash.read("4096", caps), None);
        assert_eq!(find("Threads").unwrap().read("3", caps), None);
        assert_eq!(
            find("MultiPV").unwrap().read("64", caps),
            Some(Value::Number(64))
        );
    }

    #[test]
    fn names_are_found_in_any_case_and_values_by_kind() {
        let hash = find("hASH").expect("Hash");
        assert_eq!(hash.id, OptionId::Hash);
        assert_eq!(hash.read_uncapped("32"), Some(Value::Number(32)));
        for bad in ["0", "4097", "-1", "x", "", " 3"] {
            assert_eq!(hash.read_uncapped(bad), None, "{bad:?}");
        }
        let ponder = find("ponder").expect("Ponder");
        assert_eq!(ponder.read_uncapped("true"), Some(Value::Flag(true)));
        assert_eq!(ponder.read_uncapped("yes"), None);
        assert_eq!(
            find("ClearHash").unwrap().read_uncapped("anything"),
            Some(Value::Press)
        );
        assert!(find("NoSuchOption").is_none());
        assert_eq!(find("Clear Hash").map(|o| o.id), Some(OptionId::ClearHash));
        assert_eq!(
            find("Move Overhead").map(|o| o.id),
            Some(OptionId::MoveOverhead)
        );
    }

    #[test]
    fn the_command_line_reads_spins_by_the_table() {
        assert_eq!(read_spin("Hash", "4096"), Ok(4096));
        assert_eq!(
            read_spin("Hash", "0"),
            Err("Hash takes a whole number from 1 to 4096, not '0'".into())
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
                "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
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
