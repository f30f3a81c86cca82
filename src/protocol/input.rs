//! Reading protocol lines from an untrusted stream: one line at a time, never holding more
//! than a bounded line in memory, and skipping a byte-order mark at the start.

use std::io::{self, BufRead};

/// The longest line the daemon reads (the end of line not counted): far beyond any real
/// command (a `position ... moves` line of a 1,000-ply game is about 6 KB).
pub const MAX_LINE: usize = 1 << 20;

/// The UTF-8 byte-order mark some editors and front ends put before the first line.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// What one read gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// A line, without its end of line (invalid UTF-8 read with replacement characters).
    Line(String),
    /// A line longer than the limit: it was read to its end and dropped.
    TooLong,
    /// The end of the input.
    End,
}

/// Lines of at most `limit` bytes from `inner`.
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    buffer: Vec<u8>,
    at_start: bool,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R, limit: usize) -> Self {
        LineReader {
            inner,
            limit,
            buffer: Vec::new(),
            at_start: true,
        }
    }

    /// The next line. A line over the limit is consumed chunk by chunk and never held
    /// whole; a last line without an end of line still counts.
    pub fn next_line(&mut self) -> io::Result<Read> {
        self.buffer.clear();
        let mut too_long = false;
        let mut seen_any = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(bytes) => bytes,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                if !seen_any {
                    return Ok(Read::End);
                }
                break;
            }
            seen_any = true;
            let (take, ends) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (available.len(), false),
            };
            if !too_long {
                // `\r\n` ends a line too: allow for the two bytes of the end of line.
                if self.buffer.len() + take > self.limit + 2 {
                    too_long = true;
                    self.buffer = Vec::new();
                } else {
                    self.buffer.extend_from_slice(&available[..take]);
                }
            }
            self.inner.consume(take);
            if ends {
                break;
            }
        }
        if too_long {
            self.at_start = false;
            return Ok(Read::TooLong);
        }
        let mut line: &[u8] = &self.buffer;
        if std::mem::take(&mut self.at_start) {
            line = line.strip_prefix(BOM).unwrap_or(line);
        }
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > self.limit {
            return Ok(Read::TooLong);
        }
        Ok(Read::Line(String::from_utf8_lossy(line).into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8], limit: usize) -> Vec<Read> {
        // A small buffer, so that lines arrive in many chunks.
        let mut reader = LineReader::new(io::BufReader::with_capacity(4, input), limit);
        let mut reads = Vec::new();
        loop {
            let read = reader.next_line().expect("reading from memory");
            if read == Read::End {
                return reads;
            }
            reads.push(read);
        }
    }

    fn line(text: &str) -> Read {
        Read::Line(text.to_owned())
    }

    #[test]
    fn lines_end_with_either_end_of_line_or_the_input() {
        assert_eq!(
            read_all(b"ugi\r\nisready\n\nquit", 100),
            [line("ugi"), line("isready"), line(""), line("quit")]
        );
        assert_eq!(read_all(b"", 100), []);
    }

    #[test]
    fn a_byte_order_mark_is_skipped_at_the_start_only() {
        assert_eq!(
            read_all(b"\xEF\xBB\xBFuci\n\xEF\xBB\xBFuci\n", 100),
            [line("uci"), line("\u{feff}uci")]
        );
    }

    #[test]
    fn an_overlong_line_is_dropped_and_the_next_one_read() {
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\nisready\n");
        input.extend(vec![b'y'; 11]);
        assert_eq!(
            read_all(&input, 10),
            [Read::TooLong, line("isready"), Read::TooLong]
        );
        assert_eq!(read_all(b"0123456789\r\n", 10), [line("0123456789")]);
        assert_eq!(read_all(b"0123456789x\n", 10), [Read::TooLong]);
    }

    #[test]
    fn bad_utf8_is_replaced() {
        assert_eq!(read_all(b"go \xFF\n", 10), [line("go \u{fffd}")]);
    }
}
