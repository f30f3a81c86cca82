//! Lielow moves in AbstractPlay's notation, as its rules (`AbstractPlay/gameslib`,
//! `src/games/lielow.ts`) write and read them, both ways.
//!
//! AbstractPlay names the squares as ternion does (files `a`.., ranks `1`.. from the first
//! player's side, on 8x8 and on 9x9 alike, with the same start), and writes a move with a
//! separator: `a2-a3` to an empty square, `a2xb3` onto an enemy stack, `a2-off` for a stack
//! borne off the board. ternion writes those `a2a3`, `a2b3` and `a2off`.

use super::geometry::Geometry;
use super::text::square_name;
use super::{Lielow, LielowMove};
use crate::rules::{Notation, Rules};

/// `mv` (legal in `game`) as AbstractPlay writes it.
pub fn to_abstractplay<G: Geometry>(game: &Lielow<G>, mv: LielowMove) -> String {
    let from = square_name(mv.from(), G::N);
    match mv.to() {
        None => format!("{from}-off"),
        Some(to) => {
            let mover = game.side_to_move();
            let capture = game
                .stack_at(to)
                .is_some_and(|(owner, _, _)| owner != mover);
            let separator = if capture { 'x' } else { '-' };
            format!("{from}{separator}{}", square_name(to, G::N))
        }
    }
}

/// The legal move of `game` that AbstractPlay writes as `text`; the error says why there is
/// none (not AbstractPlay's notation, not legal here, or written with the wrong separator).
pub fn from_abstractplay<G: Geometry>(game: &Lielow<G>, text: &str) -> Result<LielowMove, String> {
    let at = text.find(['-', 'x']).ok_or_else(|| {
        format!("'{text}' is not an AbstractPlay Lielow move (a2-a3, a2xb3, a2-off)")
    })?;
    let (from, to) = (&text[..at], &text[at + 1..]);
    let ours = format!("{from}{to}");
    let mv = game
        .parse_move(&ours)
        .map_err(|e| format!("'{text}' is not legal here: {e}"))?;
    let written = to_abstractplay(game, mv);
    if written != text {
        return Err(format!("'{text}' is written '{written}' here"));
    }
    Ok(mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Player;
    use crate::games::lielow::{Lielow8, Lielow9};

    /// AbstractPlay's own move list, as its `moves()` makes it: every stack of the side to
    /// move, in each of the eight directions, its height far: an empty square `-`, an
    /// enemy stack `x`, a friendly one nothing; and `<cell>-off` once for a stack that some
    /// direction takes off the board.
    fn abstractplay_moves<G: Geometry>(game: &Lielow<G>) -> Vec<String> {
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
                let from_name = square_name(square, G::N);
                match game.stack_at(to) {
                    None => moves.push(format!("{from_name}-{}", square_name(to, G::N))),
                    Some((other, _, _)) if other != me => {
                        moves.push(format!("{from_name}x{}", square_name(to, G::N)))
                    }
                    Some(_) => {}
                }
            }
            if offable {
                moves.push(format!("{}-off", square_name(square, G::N)));
            }
        }
        moves.sort();
        moves
    }

    /// Over seeded random games, every legal move written in AbstractPlay's notation is
    /// one of AbstractPlay's own moves and the sets are equal, and each reads back.
    fn agrees_with_abstractplay<G: Geometry>() {
        let mut rng = fastrand::Rng::with_seed(71);
        let mut checked = 0;
        for _ in 0..200 {
            let mut game = Lielow::<G>::start();
            while game.outcome().is_none() {
                let mut legal = Vec::new();
                game.generate_moves(&mut legal);
                let mut written: Vec<String> =
                    legal.iter().map(|&mv| to_abstractplay(&game, mv)).collect();
                for (&mv, text) in legal.iter().zip(&written) {
                    assert_eq!(from_abstractplay(&game, text), Ok(mv), "{text}");
                }
                written.sort();
                assert_eq!(
                    written,
                    abstractplay_moves(&game),
                    "{}",
                    game.position_string()
                );
                checked += legal.len();
                game.make_move(legal[rng.usize(..legal.len())]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn every_legal_move_is_one_of_abstractplays_and_reads_back() {
        agrees_with_abstractplay::<crate::games::lielow::geometry::Board8>();
        agrees_with_abstractplay::<crate::games::lielow::geometry::Board9>();
    }

    #[test]
    fn moves_of_every_kind_on_both_boards() {
        // From the start of 8x8: a step, a step back, the stack borne off at the edge.
        let start = Lielow8::start();
        for (ours, theirs) in [("a2a3", "a2-a3"), ("b2a1", "b2-a1"), ("a2off", "a2-off")] {
            let mv = start.parse_move(ours).unwrap();
            assert_eq!(to_abstractplay(&start, mv), theirs);
            assert_eq!(from_abstractplay(&start, theirs), Ok(mv));
        }
        // A capture, and a move of the king, on 8x8 and on 9x9.
        let king = Lielow8::parse_position("8/8/8/3r2*4/8/3b2*4/8/8 b").unwrap();
        assert_eq!(king.side_to_move(), Player::P1);
        let take = king.parse_move("d3d5").unwrap();
        assert_eq!(to_abstractplay(&king, take), "d3xd5");
        assert_eq!(from_abstractplay(&king, "d3xd5"), Ok(take));
        assert_eq!(
            to_abstractplay(&king, king.parse_move("d3f1").unwrap()),
            "d3-f1"
        );
        let nine = Lielow9::start();
        let mv = nine.parse_move("i3i4").unwrap();
        assert_eq!(to_abstractplay(&nine, mv), "i3-i4");
        assert_eq!(
            from_abstractplay(&nine, "i1-off").map(|m| nine.move_string(m)),
            Ok("i1off".into())
        );
        // The wrong separator, a move not legal here, and what is no move at all.
        for bad in ["d3-d5", "d3xf1", "d3-d4", "d3d5", "", "x", "d3-", "-off"] {
            assert!(from_abstractplay(&king, bad).is_err(), "{bad}");
        }
    }
}
