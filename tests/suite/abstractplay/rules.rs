//! AbstractPlay's Lielow moves, as its rules make them (`AbstractPlay/gameslib`,
//! `src/games/lielow.ts`, `moves()`), restated here on a ternion position: the referee's
//! list that every move the bot posts must be in, and the list the stand-in picks its own
//! moves from.

use ternion::games::lielow::Lielow;
use ternion::games::lielow::geometry::Geometry;
use ternion::rules::Rules;

/// The name of square `index` on a board of side `n`, as AbstractPlay writes it (files `a`..,
/// ranks `1`.. from the first player's side).
fn cell(index: usize, n: usize) -> String {
    format!("{}{}", (b'a' + (index % n) as u8) as char, index / n + 1)
}

/// AbstractPlay's move list, as its `moves()` makes it: every stack of the side to move, in
/// each of the eight directions, its height far: an empty square `-`, an enemy stack `x`, a
/// friendly one nothing; and `<cell>-off` once for a stack that some direction takes off
/// the board. Sorted. None once the game is over (a king captured or borne off).
pub fn abstractplay_moves<G: Geometry>(game: &Lielow<G>) -> Vec<String> {
    if game.outcome().is_some() {
        return Vec::new();
    }
    let n = G::N as i32;
    let me = game.side_to_move();
    let mut moves = Vec::new();
    for square in 0..G::N * G::N {
        let Some((owner, height, _)) = game.stack_at(square) else {
            continue;
        };
        if owner != me {
            continue;
        }
        let (file, rank) = ((square % G::N) as i32, (square / G::N) as i32);
        let mut offable = false;
        for (df, dr) in [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            let (f, r) = (file + df * height as i32, rank + dr * height as i32);
            if !(0..n).contains(&f) || !(0..n).contains(&r) {
                offable = true;
                continue;
            }
            let to = (r * n + f) as usize;
            let from = cell(square, G::N);
            match game.stack_at(to) {
                None => moves.push(format!("{from}-{}", cell(to, G::N))),
                Some((other, _, _)) if other != me => {
                    moves.push(format!("{from}x{}", cell(to, G::N)))
                }
                Some(_) => {}
            }
        }
        if offable {
            moves.push(format!("{}-off", cell(square, G::N)));
        }
    }
    moves.sort();
    moves
}
