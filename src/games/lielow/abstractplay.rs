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

    // Every legal move against AbstractPlay's own move list, over seeded random games on
    // both boards: tests/abstractplay/notation.rs.

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
