//! Lerontenin's picture as SVG: the start area (square 0), the track of squares 1 to 97 in
//! rows of ten that turn at each end so the race can be followed, and the end square 98
//! where finished pieces wait; each piece a chip in its side's colour with its label and
//! power, its freeze (`f<n>`, drawn dashed) and the SINGLE's move count (`m<n>`); under the
//! track each side's pieces in a table. Squares are `sq-<n>` (`start` and `end` for 0 and
//! 98), pieces `piece-<light|dark>-<label>`.

use super::army::{END, Piece};
use super::diagram::{PIECE_HEADER, piece_line};
use super::{Lerontenin, LeronteninMove};
use crate::core::Player;
use crate::rules::Picture;
use crate::svg::{SIDE_FILL, SIDE_TEXT, Svg};

const COLUMNS: usize = 10;
const CELL_W: f64 = 102.0;
const CELL_H: f64 = 76.0;
const MARGIN: f64 = 20.0;
const CHIP_W: f64 = 48.0;
const CHIP_H: f64 = 18.0;
/// The height of the start and end areas: a row of chips for each side.
const AREA_H: f64 = 64.0;
const LINE_H: f64 = 16.0;
const SIDE_NAMES: [&str; 2] = ["light", "dark"];
const SIDE_TITLES: [&str; 2] = ["Light (p1)", "Dark (p2)"];
/// The squares of the track proper, between the start and the end.
const TRACK: usize = END as usize - 1;

/// The top-left corner of track square `square` (1..=97): rows of ten, every second row
/// running right to left.
fn cell(square: usize) -> (f64, f64) {
    let (row, place) = ((square - 1) / COLUMNS, (square - 1) % COLUMNS);
    let column = if row % 2 == 0 {
        place
    } else {
        COLUMNS - 1 - place
    };
    (
        MARGIN + column as f64 * CELL_W,
        MARGIN + AREA_H + 10.0 + row as f64 * CELL_H,
    )
}

/// Where the parts of the picture stand, from its width and the most pieces a side has.
struct Layout {
    width: f64,
    height: f64,
    /// The top of the end area.
    end_top: f64,
    /// The top of the tables of the pieces, under the end area.
    panel_top: f64,
}

impl Layout {
    fn new(most_pieces: usize) -> Layout {
        let width = 2.0 * MARGIN + COLUMNS as f64 * CELL_W;
        let rows = TRACK.div_ceil(COLUMNS);
        let track_bottom = MARGIN + AREA_H + 10.0 + rows as f64 * CELL_H;
        let end_top = track_bottom + 10.0;
        let panel_top = end_top + AREA_H + 20.0;
        let height = panel_top + (most_pieces + 3) as f64 * LINE_H + MARGIN;
        Layout {
            width,
            height,
            end_top,
            panel_top,
        }
    }
}

impl Lerontenin {
    pub(super) fn svg_picture(&self) -> String {
        let most_pieces = Player::BOTH
            .iter()
            .map(|&p| self.army(p).pieces().len())
            .max()
            .unwrap_or(0);
        let layout = Layout::new(most_pieces);
        let (width, height) = (layout.width, layout.height);
        let mut svg = Svg::new(width, height, "Lerontenin");
        svg.element(
            "rect",
            &[("width", &width), ("height", &height), ("fill", &"#e6e1d3")],
        );
        draw_areas_and_track(&mut svg, &layout);
        // The pieces: in a cell, each side's chips in turn, two to a row.
        svg.open("g", &[("id", &"pieces")]);
        let mut in_cell = vec![0usize; END as usize + 1];
        for player in Player::BOTH {
            let army = self.army(player);
            let side = player.index();
            let mut in_area = 0usize;
            for piece in army.pieces() {
                let square = piece.square as usize;
                let (x, y) = if square == 0 || square == END as usize {
                    let top = if square == 0 { MARGIN } else { layout.end_top };
                    let place = in_area;
                    in_area += 1;
                    (
                        MARGIN + 4.0 + place as f64 * (CHIP_W + 4.0),
                        top + 18.0 + side as f64 * (CHIP_H + 6.0),
                    )
                } else {
                    let (x, y) = cell(square);
                    let place = in_cell[square];
                    in_cell[square] += 1;
                    (
                        x + 3.0 + (place % 2) as f64 * (CHIP_W + 2.0),
                        y + 14.0 + (place / 2) as f64 * (CHIP_H + 2.0),
                    )
                };
                let moves = piece.label.is_single().then_some(army.single_moves);
                chip(&mut svg, side, piece, moves, x, y);
            }
        }
        svg.close();
        for player in Player::BOTH {
            self.draw_piece_table(&mut svg, &layout, player);
        }
        svg.finish()
    }

    /// `player`'s pieces in a table under the board, the first player's on the left.
    fn draw_piece_table(&self, svg: &mut Svg, layout: &Layout, player: Player) {
        let side = player.index();
        let army = self.army(player);
        let x = MARGIN + side as f64 * layout.width / 2.0;
        let to_move = if self.core.side == player {
            ", to move"
        } else {
            ""
        };
        let mut y = layout.panel_top;
        let line = |svg: &mut Svg, y: f64, text: &str, bold: bool| {
            svg.text(
                "text",
                &[
                    ("x", &x),
                    ("y", &y),
                    ("font-size", &12),
                    ("font-family", &"monospace"),
                    ("xml:space", &"preserve"),
                    ("font-weight", &if bold { "bold" } else { "normal" }),
                ],
                text,
            );
        };
        line(
            svg,
            y,
            &format!(
                "{}{to_move}: square total {}",
                SIDE_TITLES[side],
                army.square_total()
            ),
            true,
        );
        y += LINE_H;
        line(svg, y, PIECE_HEADER, true);
        for piece in army.pieces() {
            y += LINE_H;
            line(svg, y, &piece_line(army, piece), false);
        }
    }
}

/// The start and end areas, then the track's squares with their numbers.
fn draw_areas_and_track(svg: &mut Svg, layout: &Layout) {
    for (id, top, label) in [
        ("start", MARGIN, "start (square 0)"),
        ("end", layout.end_top, "end (square 98): finished"),
    ] {
        svg.element(
            "rect",
            &[
                ("id", &id),
                ("class", &"square"),
                ("x", &MARGIN),
                ("y", &top),
                ("width", &(COLUMNS as f64 * CELL_W)),
                ("height", &AREA_H),
                ("fill", &"#d4cbb3"),
                ("stroke", &"#8a7f66"),
            ],
        );
        svg.text(
            "text",
            &[
                ("x", &(MARGIN + 4.0)),
                ("y", &(top + 12.0)),
                ("font-size", &11),
                ("fill", &"#5a523f"),
            ],
            label,
        );
    }
    svg.open("g", &[("id", &"track")]);
    for square in 1..=TRACK {
        let (x, y) = cell(square);
        let fill = if square % 10 == 0 {
            "#efe7d2"
        } else {
            "#f7f2e4"
        };
        svg.element(
            "rect",
            &[
                ("id", &format!("sq-{square}")),
                ("class", &"square"),
                ("x", &x),
                ("y", &y),
                ("width", &CELL_W),
                ("height", &CELL_H),
                ("fill", &fill),
                ("stroke", &"#8a7f66"),
            ],
        );
        svg.text(
            "text",
            &[
                ("x", &(x + 3.0)),
                ("y", &(y + 11.0)),
                ("font-size", &10),
                ("fill", &"#8a7f66"),
            ],
            &square.to_string(),
        );
    }
    svg.close();
}

impl Picture for Lerontenin {
    fn diagram(&self) -> Vec<String> {
        self.diagram_lines()
    }

    /// The track has no room for a move's path: the pieces' squares and freezes show it.
    fn svg(&self, _last: Option<LeronteninMove>) -> String {
        self.svg_picture()
    }
}

/// One piece's chip at (`x`, `y`): label and power, `f<n>` while frozen (outline dashed),
/// `m<n>` for the SINGLE's moves.
fn chip(svg: &mut Svg, side: usize, piece: &Piece, single_moves: Option<u32>, x: f64, y: f64) {
    svg.open(
        "g",
        &[
            ("id", &format!("piece-{}-{}", SIDE_NAMES[side], piece.label)),
            ("class", &format!("piece {}", SIDE_NAMES[side])),
        ],
    );
    svg.element(
        "rect",
        &[
            ("x", &x),
            ("y", &y),
            ("width", &CHIP_W),
            ("height", &CHIP_H),
            ("rx", &4),
            ("fill", &SIDE_FILL[side]),
            ("stroke", &"#1d1d1d"),
            (
                "stroke-dasharray",
                &if piece.freeze > 0 { "3 2" } else { "none" },
            ),
        ],
    );
    let mut detail = piece.power.to_string();
    if piece.freeze > 0 {
        detail.push_str(&format!(" f{}", piece.freeze));
    }
    if let Some(moves) = single_moves {
        detail.push_str(&format!(" m{moves}"));
    }
    for (text, at, anchor, size) in [
        (piece.label.to_string(), x + 3.0, "start", 13),
        (detail, x + CHIP_W - 3.0, "end", 8),
    ] {
        svg.text(
            "text",
            &[
                ("x", &at),
                ("y", &(y + CHIP_H - 4.0)),
                ("font-size", &size),
                ("text-anchor", &anchor),
                ("fill", &SIDE_TEXT[side]),
            ],
            &text,
        );
    }
    svg.close();
}
