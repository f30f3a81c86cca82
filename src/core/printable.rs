//! Untrusted text made safe to echo on one line: error replies and messages quote what they
//! were given, and whatever they were given must not break a terminal, a log or a GUI's
//! line reader. The one shortener of such text in the engine.

/// The most characters of untrusted text an echo shows.
pub const ECHO_LIMIT: usize = 60;

/// `text` as an echo shows it: cut to [`ECHO_LIMIT`] characters (with `...` when cut) and
/// with every control character (line breaks and escapes included) shown as `?`.
pub fn echo(text: &str) -> String {
    cut(text, ECHO_LIMIT)
}

/// `text` cut to `limit` characters (with `...` when cut), control characters shown as `?`.
pub fn cut(text: &str, limit: usize) -> String {
    let mut shown = visible(&text.chars().take(limit).collect::<String>());
    if text.chars().nth(limit).is_some() {
        shown.push_str("...");
    }
    shown
}

/// `text` whole, every control character (line breaks and escapes included) shown as `?`:
/// for text of any length that came from elsewhere (an engine, a records file) and goes to
/// a terminal or a file.
pub fn visible(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// `n` plies, for people: `1 ply`, `2 plies`, `0 plies`.
pub fn plies(n: impl Into<u64>) -> String {
    match n.into() {
        1 => "1 ply".to_owned(),
        n => format!("{n} plies"),
    }
}

/// `text` quoted in an error message of the text forms: echoed, between single quotes.
pub fn quote(text: &str) -> String {
    format!("'{}'", echo(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoes_are_short_and_printable() {
        assert_eq!(echo("a\u{1b}[2Jb\tc\r\n"), "a?[2Jb?c??");
        assert_eq!(echo(&"é".repeat(70)), format!("{}...", "é".repeat(60)));
        assert_eq!(echo(&"x".repeat(60)), "x".repeat(60));
        assert_eq!(echo("short"), "short");
        assert_eq!(quote("d3d5"), "'d3d5'");
        assert_eq!(
            [0u64, 1, 2].map(plies),
            ["0 plies", "1 ply", "2 plies"].map(str::to_owned)
        );
        assert_eq!(quote("a\nb"), "'a?b'");
        assert_eq!(quote(&"x".repeat(1000)), format!("'{}...'", "x".repeat(60)));
    }
}
