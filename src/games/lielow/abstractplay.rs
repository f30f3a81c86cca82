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
    // both boards: tests/suite/abstractplay/notation.rs.

    /// Each move kind in AbstractPlay's notation, with the position it is played in (its
    /// string, 8x8 or 9x9) and ternion's spelling: written one way, read the other.
    const TABLE: [(&str, &str, &str); 15] = [
        // From the starts: a step, a step back, a diagonal, a stack borne off the edge.
        (START8, "a2a3", "a2-a3"),
        (START8, "b2a1", "b2-a1"),
        (START8, "h2g3", "h2-g3"),
        (START8, "a2off", "a2-off"),
        (START9, "i3i4", "i3-i4"),
        (START9, "i1off", "i1-off"),
        (START9, "e3e2", "e3-e2"),
        // The king: its capture of the king, its quiet moves, borne off, on both boards.
        (KINGS8, "d3d5", "d3xd5"),
        (KINGS8, "d3f1", "d3-f1"),
        (KINGS8, "d3b5", "d3-b5"),
        (KING_AT_EDGE8, "a2off", "a2-off"),
        (KINGS9, "e3e5", "e3xe5"),
        (KINGS9, "e3c1", "e3-c1"),
        // Beside the king on 9x9: a stack of one borne off, and a step.
        (KINGS9, "a2off", "a2-off"),
        (KINGS9, "a2b3", "a2-b3"),
    ];
    const START8: &str = "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b";
    const START9: &str =
        "r1r1r1r1r1r1r1r1r1/9/r1r1r1r1r1r1r1r1r1/9/9/9/b1b1b1b1b1b1b1b1b1/9/b1b1b1b1b1b1b1b1b1 b";
    const KINGS8: &str = "8/8/8/3r2*4/8/3b2*4/8/8 b";
    const KING_AT_EDGE8: &str = "8/8/8/3r2*4/8/8/b2*7/8 b";
    const KINGS9: &str = "9/9/9/9/4r2*4/9/4b2*4/b18/9 b";

    fn both_ways<G: Geometry>(position: &str, ours: &str, theirs: &str) {
        let game = Lielow::<G>::parse_position(position).unwrap();
        assert_eq!(game.side_to_move(), Player::P1);
        let mv = game.parse_move(ours).unwrap();
        assert_eq!(to_abstractplay(&game, mv), theirs, "{position}");
        assert_eq!(from_abstractplay(&game, theirs), Ok(mv), "{position}");
    }

    #[test]
    fn moves_of_every_kind_on_both_boards() {
        for (position, ours, theirs) in TABLE {
            match position.split('/').count() {
                9 => both_ways::<crate::games::lielow::geometry::Board9>(position, ours, theirs),
                _ => both_ways::<crate::games::lielow::geometry::Board8>(position, ours, theirs),
            }
        }
        assert_eq!(Lielow8::start().position_string(), START8);
        assert_eq!(Lielow9::start().position_string(), START9);
        // The wrong separator, a move not legal here, and what is no move at all.
        let king = Lielow8::parse_position(KINGS8).unwrap();
        for bad in [
            "d3-d5", "d3xf1", "d3-d4", "d3d5", "", "x", "d3-", "-off", "d3xoff",
        ] {
            assert!(from_abstractplay(&king, bad).is_err(), "{bad}");
        }
    }
}
