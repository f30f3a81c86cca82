//! Generic perft (the number of leaf nodes of the legal move tree to a fixed depth) and
//! divide (the same count split by root move).
//!
//! The last ply is bulk-counted with [`Rules::count_moves`], which games implement without
//! building the moves. In debug builds every make/unmake pair is checked to restore the
//! state and its hash bit for bit, so any perft run in a debug build is also an undo test;
//! [`perft_checked`] does the same checks in every build, at every ply, without bulk
//! counting.

use std::sync::atomic::{AtomicBool, Ordering};

use super::Rules;

/// A stop flag that is never set, for counts that run to the end.
static NEVER: AtomicBool = AtomicBool::new(false);

/// Counts the leaf nodes of the legal move tree of `game` to `depth` plies.
///
/// A finished game has no moves, so it contributes no leaves below itself.
pub fn perft<G: Rules>(game: &mut G, depth: u32) -> u64 {
    let mut buffers = move_buffers::<G>(depth);
    count::<G, { cfg!(debug_assertions) }>(game, depth, &mut buffers, &NEVER)
}

/// Perft that checks, after every make and unmake, that the incremental hash equals the
/// from-scratch hash and that unmake restored the state exactly; it also checks that
/// `count_moves` agrees with `generate_moves` at every node. Panics on the first mismatch.
pub fn perft_checked<G: Rules>(game: &mut G, depth: u32) -> u64 {
    let mut buffers = move_buffers::<G>(depth);
    count::<G, true>(game, depth, &mut buffers, &NEVER)
}

/// The perft count below each legal root move, in move generation order.
pub fn divide<G: Rules>(game: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    divide_until(game, depth, &NEVER)
}

/// [`divide`] that ends early once `stop` is set: it then returns the root moves counted
/// in full before the stop, and leaves out the rest. The flag is read at every node three
/// or more plies above the leaves, so a stop is obeyed well within a millisecond.
pub fn divide_until<G: Rules>(game: &mut G, depth: u32, stop: &AtomicBool) -> Vec<(G::Move, u64)> {
    let mut counts = Vec::new();
    divide_each(game, depth, stop, |mv, nodes| {
        counts.push((mv, nodes));
        true
    });
    counts
}

/// [`divide_until`] that hands each root move's count to `counted` as soon as it is done
/// (a command line prints it at once: a count of hours shows its progress, and a reader
/// that has had enough stops it); `counted` returning `false` ends the count there.
pub fn divide_each<G: Rules>(
    game: &mut G,
    depth: u32,
    stop: &AtomicBool,
    mut counted: impl FnMut(G::Move, u64) -> bool,
) {
    let mut root_moves = Vec::new();
    game.generate_moves(&mut root_moves);
    let mut buffers = move_buffers::<G>(depth);
    for mv in root_moves {
        let nodes = if depth <= 1 {
            1
        } else {
            let undo = game.make_move(mv);
            let nodes = count::<G, { cfg!(debug_assertions) }>(game, depth - 1, &mut buffers, stop);
            game.unmake_move(mv, undo);
            nodes
        };
        if stop.load(Ordering::Relaxed) || !counted(mv, nodes) {
            break;
        }
    }
}

/// One reusable move list per ply, allocated once per perft call.
fn move_buffers<G: Rules>(depth: u32) -> Vec<Vec<G::Move>> {
    (0..depth).map(|_| Vec::with_capacity(256)).collect()
}

fn count<G: Rules, const CHECK: bool>(
    game: &mut G,
    depth: u32,
    buffers: &mut [Vec<G::Move>],
    stop: &AtomicBool,
) -> u64 {
    match depth {
        0 => 1,
        1 if !CHECK => game.count_moves(),
        // The flag is read three or more plies above the leaves: often enough for a prompt
        // stop, and out of the way of the bulk counting. The caller drops the count.
        _ if depth >= 3 && stop.load(Ordering::Relaxed) => 0,
        _ => {
            let (moves, deeper) = buffers
                .split_first_mut()
                .expect("one buffer per remaining ply");
            moves.clear();
            game.generate_moves(moves);
            if CHECK {
                assert_eq!(game.count_moves(), moves.len() as u64, "count_moves");
            }
            let mut nodes = 0;
            for &mv in moves.iter() {
                let before = CHECK.then(|| game.clone());
                let undo = game.make_move(mv);
                if CHECK {
                    assert_eq!(game.hash(), game.hash_from_scratch(), "hash after {mv:?}");
                }
                nodes += count::<G, CHECK>(game, depth - 1, deeper, stop);
                game.unmake_move(mv, undo);
                if let Some(before) = before {
                    assert_eq!(*game, before, "unmake of {mv:?} did not restore the state");
                }
            }
            nodes
        }
    }
}
