//! The lines `ternion selfplay` writes, read back: `<result> <position>`, then ` ; <score>`
//! when the search's score was kept (older files have none). Both the result and the score
//! are from the first player's side: the result `1` a win, `0` a loss, `0.5` a draw, the
//! score in centipawns.

use crate::games::Playable;

/// One line of self-play data.
#[derive(Clone, Debug)]
pub struct Labelled<G> {
    pub game: G,
    /// The game's result for the first player: 1 a win, 0 a loss, 0.5 a draw.
    pub result: f64,
    /// The search's score of the position for the first player, in centipawns, if kept.
    pub score: Option<i32>,
}

/// Reads one line; the error says what is wrong with it, for `<file>:<line>: ...`.
pub fn parse_line<G: Playable>(line: &str) -> Result<Labelled<G>, String> {
    let (result, rest) = line.split_once(' ').ok_or("expected <result> <position>")?;
    let (position, score) = match rest.rsplit_once(" ; ") {
        Some((position, score)) => match score.trim().parse::<i32>() {
            Ok(score) => (position, Some(score)),
            Err(_) => return Err(format!("bad score {score:?} (centipawns)")),
        },
        None => (rest, None),
    };
    let result = match result {
        "1" => 1.0,
        "0" => 0.0,
        "0.5" => 0.5,
        other => return Err(format!("bad result {other:?} (1, 0 or 0.5)")),
    };
    let game = G::parse_position(position).map_err(|e| format!("bad position: {e}"))?;
    Ok(Labelled {
        game,
        result,
        score,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lielow::Lielow8;
    use crate::rules::{Notation, Rules};

    #[test]
    fn lines_with_and_without_a_score_are_read() {
        let start = Lielow8::start().position_string();
        let read = parse_line::<Lielow8>(&format!("0.5 {start} ; -37")).unwrap();
        assert_eq!((read.result, read.score), (0.5, Some(-37)));
        assert_eq!(read.game, Lielow8::start());
        let read = parse_line::<Lielow8>(&format!("1 {start}")).unwrap();
        assert_eq!((read.result, read.score), (1.0, None));
        for bad in [
            format!("2 {start}"),
            format!("1 {start} ; much"),
            "1 nonsense".to_string(),
            "1".to_string(),
        ] {
            assert!(parse_line::<Lielow8>(&bad).is_err(), "{bad}");
        }
    }
}
