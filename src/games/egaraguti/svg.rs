//! Egara-guti's picture as SVG: the 23 points on their 11 lines to scale (the coordinates
//! of the point names), each point named, the men as discs in their side's colour, the
//! last move's path drawn over them. Points are `pt-<name>`, men `man-<name>`.

use super::board::{LINES, NAMES, POINTS};
use super::{EgaraGuti, EgaraMove};
use crate::core::{BitSet, Player};
use crate::rules::Picture;
use crate::svg::{LAST_MOVE, SIDE_FILL, SIDE_TEXT, Svg};

/// User units per unit of the board's coordinates (x 0..8, y 0..8).
const UNIT: f64 = 60.0;
const MARGIN: f64 = 40.0;
const SIDE_NAMES: [&str; 2] = ["white", "black"];

/// Where point `p` is drawn: its name's coordinates, rank 1 at the bottom.
fn place(point: usize) -> (f64, f64) {
    let name = NAMES[point].as_bytes();
    let x = f64::from(name[0] - b'a');
    let y = match name[1] - b'0' {
        1 => 0.0,
        7 => 8.0,
        rank => f64::from(rank),
    };
    (MARGIN + x * UNIT, MARGIN + (8.0 - y) * UNIT)
}

/// The `points` attribute of a polyline through `points`.
fn polyline_through(points: impl Iterator<Item = usize>) -> String {
    let points: Vec<String> = points
        .map(|p| {
            let (x, y) = place(p);
            format!("{x},{y}")
        })
        .collect();
    points.join(" ")
}

impl EgaraGuti {
    pub(super) fn svg_picture(&self, last: Option<EgaraMove>) -> String {
        let size = 2.0 * MARGIN + 8.0 * UNIT;
        let mut svg = Svg::new(size, size, "Egara-guti");
        svg.element(
            "rect",
            &[("width", &size), ("height", &size), ("fill", &"#e9dcc0")],
        );
        draw_board(&mut svg);
        if let Some(mv) = last {
            svg.element(
                "polyline",
                &[
                    ("id", &"last-move"),
                    ("points", &polyline_through(mv.points())),
                    ("fill", &"none"),
                    ("stroke", &LAST_MOVE),
                    ("stroke-width", &8),
                    ("stroke-linecap", &"round"),
                    ("stroke-linejoin", &"round"),
                    ("opacity", &0.8),
                ],
            );
        }
        svg.open("g", &[("id", &"men")]);
        for player in Player::BOTH {
            let side = player.index();
            for point in self.men(player).squares().filter(|&p| p < POINTS) {
                let (x, y) = place(point);
                svg.element(
                    "circle",
                    &[
                        ("id", &format!("man-{}", NAMES[point])),
                        ("class", &format!("man {}", SIDE_NAMES[side])),
                        ("cx", &x),
                        ("cy", &y),
                        ("r", &20),
                        ("fill", &SIDE_FILL[side]),
                        ("stroke", &SIDE_TEXT[0]),
                        ("stroke-width", &2),
                    ],
                );
            }
        }
        svg.close();
        svg.finish()
    }
}

/// The board without its men: the lines, then each point with its name.
fn draw_board(svg: &mut Svg) {
    svg.open(
        "g",
        &[
            ("id", &"lines"),
            ("stroke", &"#6b5a3e"),
            ("stroke-width", &3),
        ],
    );
    for line in LINES {
        svg.element(
            "polyline",
            &[
                (
                    "points",
                    &polyline_through(line.iter().map(|&p| p as usize)),
                ),
                ("fill", &"none"),
            ],
        );
    }
    svg.close();
    svg.open("g", &[("id", &"points")]);
    for (point, name) in NAMES.iter().enumerate() {
        let (x, y) = place(point);
        svg.element(
            "circle",
            &[
                ("id", &format!("pt-{name}")),
                ("class", &"point"),
                ("cx", &x),
                ("cy", &y),
                ("r", &7),
                ("fill", &"#6b5a3e"),
            ],
        );
        svg.text(
            "text",
            &[
                ("x", &(x + 17.0)),
                ("y", &(y + 30.0)),
                ("font-size", &12),
                ("fill", &"#6b5a3e"),
            ],
            name,
        );
    }
    svg.close();
}

impl Picture for EgaraGuti {
    fn diagram(&self) -> Vec<String> {
        self.diagram_lines()
    }

    fn svg(&self, last: Option<EgaraMove>) -> String {
        self.svg_picture(last)
    }
}
