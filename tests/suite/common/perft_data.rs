//! Reader of the perft data files in tests/data/<variant>.perft.
//!
//! Format: one position a line, `<position string or startpos>; <depth> <nodes>; ...`;
//! `#` starts a comment line; blank lines are skipped.

use std::path::PathBuf;

use ternion::games::Variant;

/// One line of a perft data file.
pub struct PerftCase {
    /// Where the case comes from, `file:line`, for failure messages.
    pub origin: String,
    /// `None` for the start position.
    pub position: Option<String>,
    /// (depth, expected node count) pairs.
    pub counts: Vec<(u32, u64)>,
}

/// Reads the data file of `variant`; a malformed line panics with its origin.
pub fn read_cases(variant: Variant) -> Vec<PerftCase> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(format!("{}.perft", variant.name()));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let origin = format!("{}.perft:{}", variant.name(), index + 1);
        let mut fields = line.split(';').map(str::trim);
        let position = match fields.next() {
            Some("startpos") => None,
            Some(text) => Some(text.to_owned()),
            None => unreachable!("split yields at least one field"),
        };
        let counts: Vec<(u32, u64)> = fields
            .map(|field| {
                let (depth, nodes) = field
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("{origin}: bad field {field:?}"));
                let depth = depth.parse().unwrap_or_else(|e| panic!("{origin}: {e}"));
                let nodes = nodes.parse().unwrap_or_else(|e| panic!("{origin}: {e}"));
                (depth, nodes)
            })
            .collect();
        assert!(!counts.is_empty(), "{origin}: no counts");
        cases.push(PerftCase {
            origin,
            position,
            counts,
        });
    }
    cases
}
