//! The conformance suite: properties every game must have, checked over seeded random
//! playouts. It is generic over the game, so each new game gets it by being in
//! `Variant::ALL`.

use std::collections::HashSet;
use std::sync::Arc;

use ternion::core::MoveError;
use ternion::eval::network::Activation;
use ternion::eval::{Evaluator, feature_values, fresh_accumulator, network_or_terms};
use ternion::games::Playable;
use ternion::rules::Rules;
use ternion::rules::perft::perft;
use ternion::search::Searchable;
use ternion::search::score::DISTANCE_BOUND;
use ternion::tune::train::model::{Params, Shape};

/// Plays `playouts` random games from the start position (seeds `seed..seed + playouts`),
/// at most `max_plies` plies each, checking at every ply:
///
/// - the game is over exactly when there is no legal move, and then the move that was
///   legal a ply earlier is refused with `GameOver`;
/// - moves are unique and `count_moves` agrees with `generate_moves`;
/// - every move round-trips through its notation, and notations are unique;
/// - the position string round-trips (same string, same hash);
/// - after every move the incremental hash equals the from-scratch hash, and unmake
///   restores the exact state;
/// - in a game with null-move pruning, the null move passes the turn (hash included) and
///   its unmake restores the exact state;
/// - the outcome is a pure function of the state (a clone agrees), and the game gives a
///   reason for its end exactly when it is over;
/// - while the game is in play, the evaluation is the weighted sum of the features the
///   tuner reads, with the weights the game plays with, and far from the scores of
///   results; read from the evaluation's state kept move by move, as the search keeps
///   it, it is the same;
/// - the evaluation's state, updated from what each move changed, equals the state
///   worked out from nothing: with the terms, and in a game with a network, with a
///   seeded random one of 32 units (its accumulator kept move by move equals a full
///   recompute), whose value read from the kept state is the value worked out afresh;
/// - the tactical generator gives the generated moves that are tactical, in their order.
///
/// Returns the number of positions checked. Failures name the seed and ply.
pub fn check_random_playouts<G: Playable>(seed: u64, playouts: u64, max_plies: usize) -> u64 {
    let mut checked = 0;
    // Positions where the network's value is not the terms': a check that the network is
    // played at all.
    let mut network_differs = 0;
    let mut moves = Vec::new();
    for game_seed in seed..seed + playouts {
        let mut rng = fastrand::Rng::with_seed(game_seed);
        let mut game = G::start();
        let evaluators = evaluators::<G>(game_seed);
        let mut states: Vec<G::State> = evaluators.iter().map(|e| game.state(e)).collect();
        let mut last_move: Option<String> = None;
        for ply in 0..max_plies {
            let at = format!("{} seed {game_seed} ply {ply}", G::VARIANT);
            moves.clear();
            game.generate_moves(&mut moves);
            check_position(&game, &moves, &at);
            check_mirror(&game, &moves, ply, &at);
            for (evaluator, state) in evaluators.iter().zip(&states) {
                let by = match evaluator {
                    Evaluator::Terms => "terms",
                    Evaluator::Network(_) => "network",
                };
                assert_eq!(
                    state,
                    &game.state(evaluator),
                    "{at}: the evaluation's state ({by})"
                );
                if game.outcome().is_some() {
                    continue;
                }
                // The network's own value, from an accumulator worked out from nothing: a
                // game whose state forgot its network fails here.
                let fresh = match evaluator {
                    Evaluator::Terms => game.evaluate(),
                    Evaluator::Network(network) => network_or_terms(
                        &game,
                        evaluator,
                        &fresh_accumulator(&game, network),
                        || game.evaluate(),
                    ),
                };
                assert_eq!(
                    game.evaluate_with(evaluator, state),
                    fresh,
                    "{at}: evaluation from the kept state ({by})"
                );
                network_differs += usize::from(by == "network" && fresh != game.evaluate());
            }
            checked += 1;
            if moves.is_empty() {
                if let Some(text) = &last_move {
                    assert_eq!(game.parse_move(text), Err(MoveError::GameOver), "{at}");
                }
                break;
            }
            check_null_move(&mut game, &at);
            let mv = moves[rng.usize(..moves.len())];
            check_make_unmake(&mut game, mv, &at);
            last_move = Some(game.move_string(mv));
            let undo = game.make_move(mv);
            for (evaluator, state) in evaluators.iter().zip(&mut states) {
                let parent = state.clone();
                game.update(evaluator, &parent, game.changes(mv, &undo), state);
            }
        }
    }
    assert!(
        G::INPUTS == 0 || network_differs > 0,
        "{}: a network's value is the terms' everywhere",
        G::VARIANT
    );
    checked
}

/// In a game that mirrors ([`Rules::mirrored`]): the mirror's mirror is the position; the
/// mirror's hash is its own from scratch; its legal moves are the mirrors of the
/// position's, its perft to depth 2 (every eighth ply) the same; its outcome, evaluation
/// and output bucket are the position's, and from each perspective its inputs on are the
/// mirrors of the position's. Mirrored training data relies on each.
fn check_mirror<G: Playable>(game: &G, moves: &[G::Move], ply: usize, at: &str) {
    let Some(mirror) = game.mirrored() else {
        return;
    };
    assert_eq!(
        mirror.mirrored().as_ref(),
        Some(game),
        "{at}: mirrored twice"
    );
    assert_eq!(
        mirror.hash(),
        mirror.hash_from_scratch(),
        "{at}: mirror's hash"
    );
    assert_eq!(mirror.outcome(), game.outcome(), "{at}: mirror's outcome");
    assert_eq!(mirror.side_to_move(), game.side_to_move(), "{at}");
    let mut theirs = Vec::new();
    mirror.generate_moves(&mut theirs);
    let theirs: HashSet<G::Move> = theirs.into_iter().collect();
    let ours: HashSet<G::Move> = moves.iter().map(|&mv| game.mirrored_move(mv)).collect();
    assert_eq!(ours, theirs, "{at}: the mirror's moves");
    if ply.is_multiple_of(8) {
        assert_eq!(
            perft(&mut mirror.clone(), 2),
            perft(&mut game.clone(), 2),
            "{at}: the mirror's perft 2"
        );
    }
    assert_eq!(mirror.output_bucket(), game.output_bucket(), "{at}: bucket");
    if game.outcome().is_none() {
        assert_eq!(
            mirror.evaluate(),
            game.evaluate(),
            "{at}: mirror's evaluation"
        );
    }
    for perspective in [game.side_to_move(), game.side_to_move().opponent()] {
        let mut ours = Vec::new();
        game.inputs(perspective, |input| ours.push(G::mirrored_input(input)));
        let mut theirs = Vec::new();
        mirror.inputs(perspective, |input| theirs.push(input));
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(ours, theirs, "{at}: the mirror's inputs");
    }
}

/// The evaluators to keep states for: the terms, and in a game with a network a seeded
/// random one of 32 units (a size the accumulator's update has a fixed-length loop for),
/// one of squared activations, and one with the game's output buckets if it has them
/// (each bucket's layer its own).
fn evaluators<G: Playable>(seed: u64) -> Vec<Evaluator> {
    let mut evaluators = vec![Evaluator::Terms];
    if G::INPUTS > 0 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut shape = Shape::plain(G::INPUTS, 32);
        let network = Params::random(shape, &mut rng).quantise();
        evaluators.push(Evaluator::Network(Arc::new(network)));
        let squared = Shape {
            activation: Activation::SquaredClippedRelu,
            ..shape
        };
        let network = Params::random(squared, &mut rng).quantise();
        evaluators.push(Evaluator::Network(Arc::new(network)));
        if G::OUTPUT_BUCKETS > 1 {
            shape.buckets = G::OUTPUT_BUCKETS;
            let mut params = Params::random(shape, &mut rng);
            (params.output_weights.iter_mut()).for_each(|w| *w += rng.f32() - 0.5);
            evaluators.push(Evaluator::Network(Arc::new(params.quantise())));
        }
    }
    evaluators
}

fn check_position<G: Playable>(game: &G, moves: &[G::Move], at: &str) {
    assert_eq!(
        game.hash(),
        game.hash_from_scratch(),
        "{at}: incremental hash"
    );
    assert!(
        game.output_bucket() < G::OUTPUT_BUCKETS,
        "{at}: output bucket {} of {}",
        game.output_bucket(),
        G::OUTPUT_BUCKETS
    );
    assert_eq!(
        game.outcome().is_some(),
        moves.is_empty(),
        "{at}: the game must be over exactly when there is no legal move ({:?})",
        game.outcome()
    );
    assert_eq!(game.clone().outcome(), game.outcome(), "{at}: outcome");
    assert_eq!(
        game.ending().is_some(),
        game.outcome().is_some(),
        "{at}: a reason exactly when the game is over ({:?})",
        game.ending()
    );
    if game.outcome().is_none() {
        let features = feature_values(game);
        assert_eq!(
            features.len(),
            G::weights().len(),
            "{at}: one weight a feature"
        );
        let sum: i32 = features.iter().zip(G::weights()).map(|(f, w)| f * w).sum();
        assert_eq!(game.evaluate(), sum, "{at}: evaluation of {features:?}");
        // Scores beyond the bound are results a number of plies away (the transposition
        // table moves them by ply): an evaluation must never look like one.
        assert!(sum.abs() < DISTANCE_BOUND / 2, "{at}: evaluation {sum}");
    }
    assert_eq!(game.count_moves(), moves.len() as u64, "{at}: count_moves");
    // The tactical generator appends to the buffer (here holding a move already) the
    // generated moves that are tactical, in their order.
    let mut tactical: Vec<G::Move> = moves.iter().copied().take(1).collect();
    let kept = tactical.len();
    game.generate_tactical_moves(&mut tactical);
    let filtered: Vec<G::Move> = moves
        .iter()
        .copied()
        .filter(|&mv| game.is_tactical(mv))
        .collect();
    assert_eq!(tactical[kept..], filtered[..], "{at}: tactical moves");

    let unique: HashSet<_> = moves.iter().collect();
    assert_eq!(
        unique.len(),
        moves.len(),
        "{at}: duplicate moves in {moves:?}"
    );

    let mut notations = HashSet::new();
    for &mv in moves {
        let text = game.move_string(mv);
        assert_eq!(
            game.parse_move(&text),
            Ok(mv),
            "{at}: move {text} round trip"
        );
        assert!(
            notations.insert(text.clone()),
            "{at}: notation {text} twice"
        );
    }

    let text = game.position_string();
    let reread = G::parse_position(&text)
        .unwrap_or_else(|e| panic!("{at}: own position string {text:?} rejected: {e}"));
    assert_eq!(
        reread.position_string(),
        text,
        "{at}: position string round trip"
    );
    assert_eq!(
        reread.hash(),
        game.hash(),
        "{at}: hash of the re-read position"
    );
    if game.outcome().is_none() {
        assert_eq!(
            reread.outcome(),
            None,
            "{at}: re-read position {text:?} is over"
        );
    }
}

fn check_make_unmake<G: Rules>(game: &mut G, mv: G::Move, at: &str) {
    let before = game.clone();
    let undo = game.make_move(mv);
    assert_eq!(
        game.hash(),
        game.hash_from_scratch(),
        "{at}: hash after {mv:?}"
    );
    assert_eq!(
        game.side_to_move(),
        before.side_to_move().opponent(),
        "{at}: turns alternate after {mv:?}"
    );
    if game.outcome().is_some() {
        let mut after = Vec::new();
        game.generate_moves(&mut after);
        assert!(after.is_empty(), "{at}: moves after the end");
    }
    game.unmake_move(mv, undo);
    assert_eq!(
        *game, before,
        "{at}: unmake of {mv:?} did not restore the state"
    );
}

fn check_null_move<G: Searchable>(game: &mut G, at: &str) {
    if !G::NULL_MOVE_PRUNING {
        return;
    }
    let before = game.clone();
    game.make_null_move();
    assert_eq!(
        game.side_to_move(),
        before.side_to_move().opponent(),
        "{at}: a null move passes the turn"
    );
    assert_eq!(
        game.hash(),
        game.hash_from_scratch(),
        "{at}: hash after a null move"
    );
    assert_ne!(
        game.hash(),
        before.hash(),
        "{at}: a null move changes the hash"
    );
    game.unmake_null_move();
    assert_eq!(*game, before, "{at}: unmake of a null move");
}
