//! Generic perft (the number of leaf nodes of the legal move tree to a fixed depth) and
//! divide (the same count split by root move).
//!
//! The last ply is bulk-counted with [`Game::count_moves`], which games implement without
//! building the moves. In debug builds every make/unmake pair is checked to restore the
//! state and its hash bit for bit, so any perft run in a debug build is also an undo test.

use super::Game;

/// Counts the leaf nodes of the legal move tree of `game` to `depth` plies.
///
/// A finished game has no moves, so it contributes no leaves below itself.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    let mut buffers = move_buffers::<G>(depth);
    count(game, depth, &mut buffers)
}

/// The perft count below each legal root move, in move generation order.
pub fn divide<G: Game>(game: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut root_moves = Vec::new();
    game.generate_moves(&mut root_moves);
    let mut buffers = move_buffers::<G>(depth);
    root_moves
        .into_iter()
        .map(|mv| {
            let nodes = if depth <= 1 {
                1
            } else {
                let undo = game.make_move(mv);
                let nodes = count(game, depth - 1, &mut buffers);
                game.unmake_move(mv, undo);
                nodes
            };
            (mv, nodes)
        })
        .collect()
}

/// One reusable move list per ply, allocated once per perft call.
fn move_buffers<G: Game>(depth: u32) -> Vec<Vec<G::Move>> {
    (0..depth).map(|_| Vec::with_capacity(256)).collect()
}

fn count<G: Game>(game: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves(),
        _ => {
            let (moves, deeper) = buffers
                .split_first_mut()
                .expect("one buffer per remaining ply");
            moves.clear();
            game.generate_moves(moves);
            let mut nodes = 0;
            for &mv in moves.iter() {
                #[cfg(debug_assertions)]
                let before = game.clone();
                let undo = game.make_move(mv);
                debug_assert_eq!(game.hash(), game.hash_from_scratch(), "hash after {mv:?}");
                nodes += count(game, depth - 1, deeper);
                game.unmake_move(mv, undo);
                #[cfg(debug_assertions)]
                assert_eq!(*game, before, "unmake of {mv:?} did not restore the state");
            }
            nodes
        }
    }
}
