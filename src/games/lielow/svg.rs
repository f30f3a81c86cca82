//! Lielow's picture as SVG: the grid with its coordinates, each stack a disc in its
//! owner's colour with its height, the crowned stacks ringed, the last move's squares
//! marked. Squares are `sq-<name>`, stacks `stack-<name>`.

use super::geometry::Geometry;
use super::text::{LETTERS, square_name};
use super::{Lielow, LielowMove};
use crate::core::Player;
use crate::rules::Picture;
use crate::svg::{LAST_MOVE, SIDE_FILL, SIDE_TEXT, Svg};

const CELL: f64 = 60.0;
const MARGIN: f64 = 30.0;
const SIDE_NAMES: [&str; 2] = ["blue", "red"];
/// Lielow's players are Blue and Red: the discs take those colours, not the shared ones.
const STACK_FILL: [&str; 2] = ["#2f6fc2", "#c8402f"];

impl<G: Geometry> Lielow<G> {
    pub(super) fn svg_picture(&self, last: Option<LielowMove>) -> String {
        let n = G::N;
        let size = 2.0 * MARGIN + n as f64 * CELL;
        let mut svg = Svg::new(size, size, &format!("Lielow {n}x{n}"));
        let marked =
            |square: usize| last.is_some_and(|mv| mv.from() == square || mv.to() == Some(square));
        svg.open("g", &[("id", &"board")]);
        for square in 0..n * n {
            draw_square(&mut svg, n, square, marked(square));
        }
        draw_coordinates(&mut svg, n);
        svg.close();
        svg.open("g", &[("id", &"stacks")]);
        for square in 0..n * n {
            if let Some(stack) = self.stack_at(square) {
                draw_stack(&mut svg, n, square, stack);
            }
        }
        svg.close();
        svg.finish()
    }
}

/// The top-left corner of a square of an `n` by `n` board, rank 1 at the bottom.
fn corner(n: usize, square: usize) -> (f64, f64) {
    let (file, rank) = (square % n, square / n);
    (
        MARGIN + file as f64 * CELL,
        MARGIN + (n - 1 - rank) as f64 * CELL,
    )
}

/// A square, framed when the last move left or reached it.
fn draw_square(svg: &mut Svg, n: usize, square: usize, marked: bool) {
    let (x, y) = corner(n, square);
    let light = (square % n + square / n) % 2 == 1;
    let fill = if light { "#efe3c8" } else { "#d8c49c" };
    svg.element(
        "rect",
        &[
            ("id", &format!("sq-{}", square_name(square, n))),
            ("class", &"square"),
            ("x", &x),
            ("y", &y),
            ("width", &CELL),
            ("height", &CELL),
            ("fill", &fill),
        ],
    );
    if marked {
        // A frame, so that a crown ring on the square stays visible.
        svg.element(
            "rect",
            &[
                ("class", &"last-move"),
                ("x", &(x + 3.0)),
                ("y", &(y + 3.0)),
                ("width", &(CELL - 6.0)),
                ("height", &(CELL - 6.0)),
                ("fill", &"none"),
                ("stroke", &LAST_MOVE),
                ("stroke-width", &5),
            ],
        );
    }
}

/// The files' letters above and below the board, the ranks' numbers on either side.
fn draw_coordinates(svg: &mut Svg, n: usize) {
    let size = 2.0 * MARGIN + n as f64 * CELL;
    let label = |text: String, x: f64, y: f64, svg: &mut Svg| {
        svg.text(
            "text",
            &[
                ("x", &x),
                ("y", &y),
                ("font-size", &14),
                ("text-anchor", &"middle"),
                ("dominant-baseline", &"middle"),
                ("fill", &"#555"),
            ],
            &text,
        );
    };
    for i in 0..n {
        let middle = MARGIN + (i as f64 + 0.5) * CELL;
        let file = ((b'a' + i as u8) as char).to_string();
        label(file.clone(), middle, MARGIN / 2.0, svg);
        label(file, middle, size - MARGIN / 2.0, svg);
        let rank = (n - i).to_string();
        label(rank.clone(), MARGIN / 2.0, middle, svg);
        label(rank, size - MARGIN / 2.0, middle, svg);
    }
}

/// A stack on `square`: a disc in its owner's colour with its height, ringed if crowned.
fn draw_stack(
    svg: &mut Svg,
    n: usize,
    square: usize,
    (player, height, crowned): (Player, u8, bool),
) {
    let (x, y) = corner(n, square);
    let (cx, cy) = (x + CELL / 2.0, y + CELL / 2.0);
    let side = player.index();
    svg.open(
        "g",
        &[
            ("id", &format!("stack-{}", square_name(square, n))),
            ("class", &format!("stack {}", SIDE_NAMES[side])),
        ],
    );
    if crowned {
        svg.element(
            "circle",
            &[
                ("class", &"crown"),
                ("cx", &cx),
                ("cy", &cy),
                ("r", &27),
                ("fill", &"none"),
                ("stroke", &"#d9a400"),
                ("stroke-width", &4),
            ],
        );
    }
    svg.element(
        "circle",
        &[
            ("cx", &cx),
            ("cy", &cy),
            ("r", &22),
            ("fill", &STACK_FILL[side]),
            ("stroke", &SIDE_FILL[1]),
            ("stroke-width", &1.5),
        ],
    );
    svg.text(
        "text",
        &[
            ("x", &cx),
            ("y", &cy),
            ("font-size", &20),
            ("font-weight", &"bold"),
            ("text-anchor", &"middle"),
            ("dominant-baseline", &"central"),
            ("fill", &SIDE_TEXT[1]),
        ],
        &height.to_string(),
    );
    svg.close();
}

impl<G: Geometry> Picture for Lielow<G> {
    fn diagram(&self) -> Vec<String> {
        self.diagram_lines(LETTERS)
    }

    fn svg(&self, last: Option<LielowMove>) -> String {
        self.svg_picture(last)
    }
}
