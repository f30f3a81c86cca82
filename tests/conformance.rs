//! The conformance suite run on every variant the engine knows.

mod common;

use common::conformance::check_random_playouts;
use ternion::game::{GameText, GameVisitor, Variant};

/// Seeded random playouts per variant: the suite's properties at every ply of each.
const PLAYOUTS: u64 = 1_000;
/// Longest playout; games that run longer are cut (their positions are still checked).
const MAX_PLIES: usize = 1_000;

struct RandomPlayouts;

impl GameVisitor for RandomPlayouts {
    type Output = u64;
    fn visit<G: GameText>(self) -> u64 {
        check_random_playouts::<G>(0x7e51_0000, PLAYOUTS, MAX_PLIES)
    }
}

#[test]
fn every_variant_passes_the_conformance_suite() {
    for variant in Variant::ALL {
        let positions = variant.dispatch(RandomPlayouts);
        // Each playout checks at least its start position and one position after a move.
        assert!(
            positions >= 2 * PLAYOUTS,
            "{variant}: only {positions} positions checked"
        );
        eprintln!("{variant}: {positions} positions checked");
    }
}
