//! Egara-guti's text diagram for people: the 23 points drawn to scale on their 11 lines,
//! White's men as `W`, Black's as `B`, empty points as `+`, with the file letters below and
//! the rank numbers beside.

use super::EgaraGuti;
use super::board::{LINES, NAMES};
use crate::core::Player;

/// Board units to characters: wide and tall enough that the line between the nearest
/// points (one unit apart, diagonally) still has a character of its own.
const COLUMNS_PER_UNIT: usize = 4;
const ROWS_PER_UNIT: usize = 2;
/// The board spans 0..=8 units each way.
const UNITS: usize = 8;
/// Characters before the drawing on each line: the rank number.
const MARGIN: usize = 4;

/// A point's board coordinates, read from its name: the file letter's place in the
/// alphabet is x (a, c, d, e, f, g, i: 0, 2, 3, 4, 5, 6, 8); rank 1..7 is y = 0, 2, 3, 4,
/// 5, 6, 8.
fn coordinates(point: usize) -> (usize, usize) {
    let name = NAMES[point].as_bytes();
    let x = (name[0] - b'a') as usize;
    let y = match name[1] - b'0' {
        1 => 0,
        7 => 8,
        rank => rank as usize,
    };
    (x, y)
}

/// Where a point is drawn: (column, row), row 0 at the top (Black's base).
fn cell(point: usize) -> (usize, usize) {
    let (x, y) = coordinates(point);
    (MARGIN + x * COLUMNS_PER_UNIT, (UNITS - y) * ROWS_PER_UNIT)
}

impl EgaraGuti {
    /// The diagram, Black's base at the top.
    pub(super) fn diagram_lines(&self) -> Vec<String> {
        let width = MARGIN + UNITS * COLUMNS_PER_UNIT + 1;
        let height = UNITS * ROWS_PER_UNIT + 1;
        let mut grid = vec![vec![' '; width]; height];
        // The lines first, segment by segment between neighbours on each line.
        for line in LINES {
            for pair in line.windows(2) {
                let ((c0, r0), (c1, r1)) = (cell(pair[0] as usize), cell(pair[1] as usize));
                let steps = (c1.abs_diff(c0)).max(r1.abs_diff(r0));
                let mark = match (c0 == c1, r0 == r1, (c1 > c0) == (r1 < r0)) {
                    (true, _, _) => '|',
                    (_, true, _) => '-',
                    (_, _, true) => '/',
                    _ => '\\',
                };
                for step in 1..steps {
                    let at = |from: usize, to: usize| {
                        (from as isize
                            + (to as isize - from as isize) * step as isize / steps as isize)
                            as usize
                    };
                    let (c, r) = (at(c0, c1), at(r0, r1));
                    // A diagonal only where it passes exactly through a character.
                    let exact = (c1.abs_diff(c0) * step) % steps == 0
                        && (r1.abs_diff(r0) * step) % steps == 0;
                    if exact && grid[r][c] == ' ' {
                        grid[r][c] = mark;
                    }
                }
            }
        }
        // Then the points, with their men, the rank numbers beside them and the file
        // letters below.
        let mut files = vec![' '; width];
        for (point, name) in NAMES.iter().enumerate() {
            let (c, r) = cell(point);
            grid[r][c] = match self.man_at(point) {
                Some(Player::P1) => 'W',
                Some(Player::P2) => 'B',
                None => '+',
            };
            let [file, rank] = [name.as_bytes()[0], name.as_bytes()[1]];
            grid[r][1] = rank as char;
            files[c] = file as char;
        }
        let mut lines: Vec<String> = grid
            .into_iter()
            .map(|row| row.into_iter().collect::<String>().trim_end().to_owned())
            .collect();
        lines.push(files.into_iter().collect::<String>().trim_end().to_owned());
        lines.push(format!(
            "{:MARGIN$}W: white (p1), B: black (p2), +: an empty point",
            ""
        ));
        lines
    }

    fn man_at(&self, point: usize) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|player| self.men(*player) & (1 << point) != 0)
    }
}
