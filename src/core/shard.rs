//! A part of a long run shared out between processes or machines: part `i` of `n` takes
//! the items (a match's games, a self-play run's games) whose index is `i` mod `n`, each as
//! the whole run would play it, so the parts' outputs together are the whole run's.

/// Part `index` of `count` of a run: the items whose index (from 0) is `index` mod `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `i/n`, with `0 <= i < n`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let shard = text
            .split_once('/')
            .and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)))
            .map(|(index, count)| Shard { index, count });
        match shard {
            Some(shard) if shard.index < shard.count => Ok(shard),
            _ => Err(format!(
                "--shard '{text}' is not i/n with 0 <= i < n (for example 0/4)"
            )),
        }
    }

    /// The index of the `k`-th item of this shard (from 0), if the run of `games` has it.
    pub fn game(self, k: u32, games: u32) -> Option<u32> {
        k.checked_mul(self.count)
            .and_then(|at| at.checked_add(self.index))
            .filter(|&index| index < games)
    }

    /// How many of `games` this shard plays.
    pub fn games(self, games: u32) -> u32 {
        games.saturating_sub(self.index).div_ceil(self.count)
    }
}
