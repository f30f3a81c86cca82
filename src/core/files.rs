//! The files a user names, opened with care: only regular files, told apart without
//! blocking before a byte is read, and text read a bounded line at a time.
//!
//! A path may name a FIFO (whose opening blocks until a writer comes, and whose reading may
//! never end), a terminal, `/dev/stdin` or `/dev/zero` (endless bytes with no end of line).
//! Every file the engine reads on a user's word (a network, self-play data, a table set,
//! records) goes through here, so that such a path gets one clear line and the engine goes
//! on.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// The longest line of a text file the engine reads (data, records, starts): the daemon's
/// and the match runner's limit, far beyond any real line (a record of a 2,000-ply game is
/// about 16 KB).
pub const MAX_TEXT_LINE: usize = 1 << 20;

/// Opens the file at `path` for reading if it is a regular file. The opening does not block
/// (a FIFO without a writer would), and anything else (a FIFO, a device, a directory) is
/// refused with `InvalidInput` before it is read.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = super::platform::open_without_blocking(OpenOptions::new().read(true), path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "not a regular file but {}",
                super::platform::kind_name(kind)
            ),
        ));
    }
    // A regular file never blocks; the flag is cleared anyway, so that the file reads as
    // any other.
    super::platform::opened_blocking(&file, false)?;
    Ok(file)
}

/// The bytes of the regular file at `path`, if it holds at most `limit`; the error is one
/// line for people.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let file = open_regular(path).map_err(|e| cannot_read(path, e))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot_read(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "cannot read {}: longer than {limit} bytes",
            path.display()
        ));
    }
    Ok(bytes)
}

/// The text of the regular file at `path`, every line of it at most [`MAX_TEXT_LINE`]
/// bytes (bytes that are not UTF-8 read as replacement characters); the error is one line
/// for people, naming the line that is too long.
pub fn read_text(path: &Path) -> Result<String, String> {
    let file = open_regular(path).map_err(|e| cannot_read(path, e))?;
    read_lines(BufReader::new(file), MAX_TEXT_LINE)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Every line of `reader`, none longer than `limit` bytes (the end of line not counted).
fn read_lines(mut reader: impl BufRead, limit: usize) -> Result<String, String> {
    let mut text = String::new();
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        // The end of line comes on top of the limit, and one byte more tells a line too
        // long from one that fits.
        let read = (&mut reader)
            .take(limit as u64 + 2)
            .read_until(b'\n', &mut line)
            .map_err(|e| e.to_string())?;
        if read == 0 {
            break;
        }
        let body = line.strip_suffix(b"\n").unwrap_or(&line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        if body.len() > limit {
            return Err(format!("line {number} is longer than {limit} bytes"));
        }
        text.push_str(&String::from_utf8_lossy(body));
        text.push('\n');
    }
    Ok(text)
}

/// The one line that says the file at `path` cannot be read.
pub fn cannot_read(path: &Path, error: io::Error) -> String {
    format!("cannot read {}: {error}", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scratch::Scratch;
    use std::io::Cursor;

    #[test]
    fn only_regular_files_are_opened() {
        let scratch = Scratch::new("files-regular");
        let path = scratch.path("regular");
        std::fs::write(&path, b"one\ntwo\n").unwrap();
        assert_eq!(read_text(&path).unwrap(), "one\ntwo\n");
        assert_eq!(read_regular(&path, 8).unwrap(), b"one\ntwo\n");
        assert!(
            read_regular(&path, 7)
                .unwrap_err()
                .contains("longer than 7 bytes")
        );
        // A directory, a device, endless bytes: refused before a byte is read.
        for other in [
            path.parent().unwrap(),
            Path::new("/dev/zero"),
            Path::new("/dev/null"),
        ] {
            let error = read_text(other).unwrap_err();
            assert!(error.contains("not a regular file"), "{error}");
        }
        let error = read_text(&scratch.path("missing")).unwrap_err();
        assert!(error.starts_with("cannot read "), "{error}");
    }

    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let scratch = Scratch::new("files-fifo");
        let path = scratch.path("fifo");
        rustix::fs::mkfifoat(rustix::fs::CWD, &path, rustix::fs::Mode::RWXU).unwrap();
        // No writer ever comes: a blocking open would wait here for good.
        let error = open_regular(&path).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn a_line_too_long_is_named() {
        let text = read_lines(Cursor::new("abc\r\ndefg\nhi"), 4).unwrap();
        assert_eq!(text, "abc\ndefg\nhi\n");
        let error = read_lines(Cursor::new("abc\nabcde\n"), 4).unwrap_err();
        assert_eq!(error, "line 2 is longer than 4 bytes");
        // Endless bytes with no end of line stop at the limit.
        let error = read_lines(BufReader::new(io::repeat(0).take(1 << 30)), 1 << 10).unwrap_err();
        assert_eq!(error, "line 1 is longer than 1024 bytes");
    }
}
