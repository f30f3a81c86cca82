//! The runtime choice of game: the variants by their protocol names.

use std::fmt;
use std::str::FromStr;

use crate::core::quote;

/// A game the engine plays, by its protocol name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Lielow on 8x8.
    Lielow,
    /// Lielow on 9x9.
    Lielow9,
    /// Egara-guti on its 23-point board.
    Egaraguti,
    /// Lerontenin, the race along 98 squares.
    Lerontenin,
}

impl Variant {
    /// Every variant, in the order the protocol lists them.
    pub const ALL: [Variant; 4] = [
        Variant::Lielow,
        Variant::Lielow9,
        Variant::Egaraguti,
        Variant::Lerontenin,
    ];

    /// The protocol name (`lielow`, `lielow9`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Lielow => "lielow",
            Variant::Lielow9 => "lielow9",
            Variant::Egaraguti => "egaraguti",
            Variant::Lerontenin => "lerontenin",
        }
    }

    /// The space-separated list of names, for error messages and help texts.
    pub fn names() -> String {
        Variant::ALL.map(Variant::name).join(" ")
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a name that is no variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant {} (known: {})",
            quote(&self.0),
            Variant::names()
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Variant names are matched case-insensitively, as protocol option values are.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|variant| variant.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownVariant(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for variant in Variant::ALL {
            assert_eq!(variant.name().parse::<Variant>(), Ok(variant));
        }
        assert_eq!("LIELOW9".parse::<Variant>(), Ok(Variant::Lielow9));
        assert!("chess".parse::<Variant>().is_err());
        assert!("".parse::<Variant>().is_err());
    }
}
