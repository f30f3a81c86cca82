//! Lielow's text diagram for people: the grid with file letters and rank numbers, each
//! stack as its owner's letter and its height, the crowned stack marked with `*`.

use super::Lielow;
use super::geometry::Geometry;
use crate::core::Player;

impl<G: Geometry> Lielow<G> {
    /// The diagram, top rank first; `letters` names each player's stacks.
    pub(super) fn diagram_lines(&self, letters: [char; 2]) -> Vec<String> {
        let n = G::N;
        // Each square is `{:>3}` of its stack (or `.`) and a crown mark: ` b3*`, `  .`.
        let files = || {
            let letters: String = (0..n)
                .map(|file| format!("{:>3} ", (b'a' + file as u8) as char))
                .collect();
            format!("    {}", letters.trim_end())
        };
        let mut lines = vec![files()];
        for rank in (0..n).rev() {
            let mut line = format!("{:>3} ", rank + 1);
            for file in 0..n {
                let (body, crown) = match self.stack_at(rank * n + file) {
                    None => (".".to_owned(), ' '),
                    Some((player, height, crowned)) => (
                        format!("{}{height}", letters[player.index()]),
                        if crowned { '*' } else { ' ' },
                    ),
                };
                line.push_str(&format!("{body:>3}{crown}"));
            }
            line.push_str(&format!(" {}", rank + 1));
            lines.push(line);
        }
        lines.push(files());
        let name = |player: Player| match player {
            Player::P1 => "blue (p1)",
            Player::P2 => "red (p2)",
        };
        lines.push(format!(
            "    {}: {}, {}: {}, * = crowned (king)",
            letters[0],
            name(Player::P1),
            letters[1],
            name(Player::P2)
        ));
        lines
    }
}
