//! The conformance suite run on every variant the engine knows.

use crate::common;

use common::conformance::check_random_playouts;
use ternion::games::{Playable, Variant};

/// Seeded random playouts per variant: the suite's properties at every ply of each.
const PLAYOUTS: u64 = 1_000;
/// Longest playout; games that run longer are cut (their positions are still checked).
const MAX_PLIES: usize = 1_000;

fn random_playouts<G: Playable>() -> u64 {
    check_random_playouts::<G>(0x7e51_0000, PLAYOUTS, MAX_PLIES)
}

#[test]
fn every_variant_passes_the_conformance_suite() {
    for variant in Variant::ALL {
        let positions = ternion::with_game!(variant, G => random_playouts::<G>());
        // Each playout checks at least its start position and one position after a move.
        assert!(
            positions >= 2 * PLAYOUTS,
            "{variant}: only {positions} positions checked"
        );
        eprintln!("{variant}: {positions} positions checked");
    }
}

fn feature_names<G: Playable>() -> Vec<String> {
    assert_eq!(G::weights().len(), G::feature_count(), "{}", G::VARIANT);
    (0..G::feature_count()).map(G::feature_name).collect()
}

#[test]
fn every_feature_has_one_weight_and_a_name_of_its_own() {
    for variant in Variant::ALL {
        let names = ternion::with_game!(variant, G => feature_names::<G>());
        let unique: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), names.len(), "{variant}: {names:?}");
        assert!(
            names
                .iter()
                .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')),
            "{variant}: {names:?}"
        );
    }
}
