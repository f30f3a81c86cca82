//! The schedule of a match: which games a shard plays, the opening of each pair of games,
//! and who sits where.
//!
//! Game `2k` and game `2k + 1` share opening `k` (random plies drawn from the seed) with the
//! colours swapped; the first engine plays p1 in even games (counted from 0; the records
//! number games from 1). A match can be split into shards (`i/n`: the games whose index is
//! `i` mod `n`), each with the very openings, colours and numbers the whole match gives
//! those games, and the shards' records merged back into the summary of the whole match.

use crate::core::Player;
pub use crate::core::Shard;
use crate::games::Playable;

/// The colour the first engine plays in game `index` (from 0): p1 in even games.
pub fn first_engine_colour(index: u32) -> Player {
    Player::BOTH[index as usize % 2]
}

/// What sits at each colour, `[p1's, p2's]`, when the first engine plays `first_as`, given
/// what belongs to each engine, `[first's, second's]` (or the reverse mapping, which is the
/// same swap).
pub fn seated<T>(first_as: Player, by_engine: [T; 2]) -> [T; 2] {
    let [first, second] = by_engine;
    match first_as {
        Player::P1 => [first, second],
        Player::P2 => [second, first],
    }
}

/// Opening `pair`: `plies` random legal moves from `start`, drawn from the seed, avoiding
/// openings that end the game. The same seed, pair and start always give the same opening.
/// Where every try of that many plies ends the game, the longest line of the tries that
/// leaves it in play is the opening: shorter than asked (the match's summary counts them).
pub fn opening<G: Playable>(seed: u64, pair: u32, plies: u32, start: &G) -> Vec<String> {
    const ATTEMPTS: u32 = 100;
    let mut rng =
        fastrand::Rng::with_seed(seed ^ (u64::from(pair) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut moves = Vec::new();
    let mut longest: Vec<String> = Vec::new();
    for _ in 0..ATTEMPTS {
        let mut game = start.clone();
        let mut line = Vec::new();
        while line.len() < plies as usize && game.outcome().is_none() {
            moves.clear();
            game.generate_moves(&mut moves);
            let mv = moves[rng.usize(..moves.len())];
            line.push(game.move_string(mv));
            game.make_move(mv);
        }
        if game.outcome().is_none() {
            return line;
        }
        // The line but its last move, which ended the game.
        line.pop();
        if line.len() > longest.len() {
            longest = line;
        }
    }
    longest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lielow::Lielow8;
    use crate::rules::{Notation, Rules};

    #[test]
    fn an_opening_too_long_to_play_is_cut_to_the_longest_playable() {
        let start = Lielow8::start();
        // 64 random plies end most Lielow games (2 of 8 openings found no line that long).
        let openings: Vec<Vec<String>> = (0..8).map(|pair| opening(1, pair, 64, &start)).collect();
        assert!(openings.iter().any(|line| line.len() == 64));
        let short: Vec<&Vec<String>> = openings.iter().filter(|line| line.len() < 64).collect();
        assert!(
            !short.is_empty(),
            "the seed no longer finds a short opening"
        );
        for line in short {
            // Cut, not dropped: a long prefix of the tries, still in play.
            assert!(line.len() > 8, "{}", line.len());
            let mut game = start.clone();
            game.play_moves(line.iter().map(String::as_str)).unwrap();
            assert!(game.outcome().is_none());
        }
        // The same seed gives the same openings.
        assert_eq!(opening(1, 3, 64, &start), openings[3]);
    }
}
