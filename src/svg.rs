//! A small writer of SVG documents, for the games' pictures: elements with escaped
//! attributes and text, nested by `open` and `close`, every element able to carry an id.
//! The games draw with it in their own `svg.rs`, beside their rules.

use std::fmt::{Display, Write};

/// The colours both sides are drawn in, first player first, in every game.
pub const SIDE_FILL: [&str; 2] = ["#f4f1e8", "#2b2b2b"];
/// The colour of text drawn on each side's pieces.
pub const SIDE_TEXT: [&str; 2] = ["#1d1d1d", "#f4f1e8"];
/// The mark of the last move.
pub const LAST_MOVE: &str = "#e8b10f";

/// An SVG document being written.
pub struct Svg {
    out: String,
    open: Vec<&'static str>,
}

impl Svg {
    /// A document of `width` by `height` user units, with a title for screen readers.
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        let mut svg = Svg {
            out: String::with_capacity(16 * 1024),
            open: Vec::new(),
        };
        svg.out
            .push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        svg.open(
            "svg",
            &[
                ("xmlns", &"http://www.w3.org/2000/svg"),
                ("viewBox", &format!("0 0 {width} {height}")),
                ("width", &width),
                ("height", &height),
                ("font-family", &"sans-serif"),
            ],
        );
        svg.text("title", &[], title);
        svg
    }

    fn start_tag(&mut self, tag: &str, attributes: &[(&str, &dyn Display)]) {
        for _ in 0..self.open.len() {
            self.out.push_str("  ");
        }
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attributes {
            write!(self.out, " {name}=\"{}\"", escape(&value.to_string()))
                .expect("writing to a String");
        }
    }

    /// Opens an element that holds others, until [`Svg::close`].
    pub fn open(&mut self, tag: &'static str, attributes: &[(&str, &dyn Display)]) {
        self.start_tag(tag, attributes);
        self.out.push_str(">\n");
        self.open.push(tag);
    }

    /// Closes the element opened last.
    pub fn close(&mut self) {
        let tag = self.open.pop().expect("an element to close");
        for _ in 0..self.open.len() {
            self.out.push_str("  ");
        }
        writeln!(self.out, "</{tag}>").expect("writing to a String");
    }

    /// An empty element.
    pub fn element(&mut self, tag: &str, attributes: &[(&str, &dyn Display)]) {
        self.start_tag(tag, attributes);
        self.out.push_str("/>\n");
    }

    /// An element holding text.
    pub fn text(&mut self, tag: &str, attributes: &[(&str, &dyn Display)], text: &str) {
        self.start_tag(tag, attributes);
        writeln!(self.out, ">{}</{tag}>", escape(text)).expect("writing to a String");
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        while !self.open.is_empty() {
            self.close();
        }
        self.out
    }
}

/// `text` with the characters XML gives a meaning escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_nest_and_text_is_escaped() {
        let mut svg = Svg::new(10.0, 20.0, "a <b> & 'c'");
        svg.open("g", &[("id", &"group")]);
        svg.element("circle", &[("r", &3), ("class", &"x\"y")]);
        svg.close();
        let text = svg.finish();
        assert!(text.contains("<title>a &lt;b&gt; &amp; &apos;c&apos;</title>"));
        assert!(text.contains("<circle r=\"3\" class=\"x&quot;y\"/>"));
        assert!(text.trim_end().ends_with("</svg>"));
        assert!(text.contains("viewBox=\"0 0 10 20\""));
    }
}
