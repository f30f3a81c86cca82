//! The perft suite: every count in tests/data/<variant>.perft, for every variant.
//!
//! The default run checks the counts up to `DEFAULT_NODE_LIMIT` nodes (a few seconds on two
//! cores in a release build); `cargo test --release -- --ignored` checks all of them.

use crate::common;

use common::perft_data::read_cases;
use ternion::games::{Playable, Variant};
use ternion::rules::perft::{divide, perft};

const DEFAULT_NODE_LIMIT: u64 = 250_000_000;

/// Checks every perft count of `G`'s data up to `node_limit` nodes; returns how many.
fn run_cases<G: Playable>(node_limit: u64) -> usize {
    let mut checked = 0;
    for case in read_cases(G::VARIANT) {
        let mut game = match &case.position {
            None => G::start(),
            Some(text) => G::parse_position(text)
                .unwrap_or_else(|e| panic!("{}: position rejected: {e}", case.origin)),
        };
        for &(depth, expected) in &case.counts {
            if expected > node_limit {
                continue;
            }
            let nodes = perft(&mut game, depth);
            assert_eq!(nodes, expected, "{}: perft {depth}", case.origin);
            checked += 1;
        }
        // Divide must split the shallowest count exactly.
        let (depth, expected) = case.counts[0];
        let split: u64 = divide(&mut game, depth).iter().map(|&(_, n)| n).sum();
        assert_eq!(split, expected, "{}: divide {depth}", case.origin);
    }
    checked
}

#[test]
fn perft_counts_up_to_the_default_limit() {
    for variant in Variant::ALL {
        let checked = ternion::with_game!(variant, G => run_cases::<G>(DEFAULT_NODE_LIMIT));
        assert!(checked > 0, "{variant}: no perft count checked");
    }
}

#[test]
#[ignore = "deep perft: minutes of work, run with --ignored"]
fn perft_counts_all() {
    for variant in Variant::ALL {
        ternion::with_game!(variant, G => run_cases::<G>(u64::MAX));
    }
}

#[test]
fn perft_zero_is_one_node_and_divide_matches_perft() {
    fn check<G: Playable>() {
        let mut game = G::start();
        assert_eq!(perft(&mut game, 0), 1);
        let by_move = divide(&mut game, 2);
        assert_eq!(by_move.len() as u64, game.count_moves());
        let total: u64 = by_move.iter().map(|&(_, n)| n).sum();
        assert_eq!(total, perft(&mut game, 2));
        assert_eq!(game, G::start(), "perft must leave the position as it was");
    }
    for variant in Variant::ALL {
        ternion::with_game!(variant, G => check::<G>());
    }
}

#[test]
fn checked_perft_agrees_and_restores_every_node() {
    use ternion::rules::perft::perft_checked;
    fn check<G: Playable>() {
        for case in read_cases(G::VARIANT) {
            let mut game = match &case.position {
                None => G::start(),
                Some(text) => G::parse_position(text).expect("data positions are valid"),
            };
            for &(depth, expected) in case.counts.iter().filter(|c| c.1 <= 2_000_000) {
                let nodes = perft_checked(&mut game, depth);
                assert_eq!(nodes, expected, "{}: perft {depth}", case.origin);
            }
        }
    }
    for variant in Variant::ALL {
        ternion::with_game!(variant, G => check::<G>());
    }
}
