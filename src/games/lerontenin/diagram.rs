//! Lerontenin's text diagram for people: one row per piece of each side (label, power,
//! square, freeze, the SINGLE's move count, finished), then the track as a ruler from
//! square 0 to 98 with each side's pieces marked where they stand.

use std::fmt::Write;

use super::Lerontenin;
use super::army::{Army, END, Piece};

const SIDE_NAMES: [&str; 2] = ["Light (p1)", "Dark (p2)"];
/// Characters before the ruler on each line: the side's name.
const MARGIN: usize = 7;

impl Lerontenin {
    /// The diagram: Light's pieces, Dark's pieces, the track.
    pub(super) fn diagram_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (side, army) in self.core.armies.iter().enumerate() {
            let to_move = if self.core.side.index() == side {
                ", to move"
            } else {
                ""
            };
            lines.push(format!(
                "{}{to_move}: square total {}, descent {}/7",
                SIDE_NAMES[side],
                army.pieces().iter().map(|p| p.square as u32).sum::<u32>(),
                self.core.descent[side]
            ));
            lines.push(format!("  {PIECE_HEADER}"));
            for piece in army.pieces() {
                lines.push(format!("  {}", piece_line(army, piece)));
            }
        }
        lines.extend(track(&self.core.armies));
        lines
    }
}

/// The head of the table of a side's pieces.
pub(super) const PIECE_HEADER: &str = "piece    power  square  freeze";

/// A piece's row in the table of its side's pieces: label, power, square, freeze, the
/// SINGLE's moves, finished.
pub(super) fn piece_line(army: &Army, piece: &Piece) -> String {
    let mut line = format!(
        "{:<8} {:>5}  {:>6}  {:>6}",
        piece.label.to_string(),
        piece.power,
        piece.square,
        piece.freeze
    );
    if piece.label.is_single() {
        write!(line, "  moved {} times", army.single_moves).expect("writing to a String");
    }
    if piece.finished() {
        line.push_str("  finished");
    }
    line
}

/// The ruler of squares 0 to 98 and, under it, each side's pieces: the first letter of a
/// piece's label on its square, or how many pieces share the square.
fn track(armies: &[Army; 2]) -> Vec<String> {
    let width = END as usize + 1;
    let mut numbers = vec![' '; width];
    let mut ticks = vec!['-'; width];
    for square in (0..width).step_by(10).chain([END as usize]) {
        ticks[square] = '|';
        // Numbers start at their square, but the last one ends there.
        let text = square.to_string();
        let start = square.min(width - text.len());
        for (offset, digit) in text.chars().enumerate() {
            numbers[start + offset] = digit;
        }
    }
    let mut lines = vec![
        format!("{:MARGIN$}{}", "track", numbers.iter().collect::<String>()),
        format!("{:MARGIN$}{}", "", ticks.iter().collect::<String>()),
    ];
    for (army, name) in armies.iter().zip(["Light", "Dark"]) {
        let mut row = vec!['.'; width];
        let mut count = vec![0u8; width];
        for piece in army.pieces() {
            let square = piece.square as usize;
            count[square] += 1;
            row[square] = match count[square] {
                1 => piece.label.to_string().chars().next().unwrap_or('?'),
                n => char::from_digit(u32::from(n.min(9)), 10).unwrap_or('9'),
            };
        }
        lines.push(format!(
            "{name:MARGIN$}{}",
            row.iter().collect::<String>().trim_end()
        ));
    }
    lines
}
