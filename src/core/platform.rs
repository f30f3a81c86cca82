//! What differs between operating systems, in one place: how a file is opened without
//! blocking, what kind of node a path names, whether two nodes are one file, how an
//! engine's command line becomes a process, and how its process group ends.
//!
//! On Unix (Linux, macOS) these are the system's own calls. Elsewhere (Windows) they are
//! the standard library's plain forms, each fallback saying what it gives up: there no
//! FIFO can block an opening, an engine's command is split into words rather than run by a
//! shell, and ending an engine ends that process alone (what it started may outlive it).

use std::fs::{File, FileType, Metadata, OpenOptions};
use std::io;
use std::path::Path;

/// Opens `path` with `options`, without blocking (a FIFO without a peer would block on
/// Unix) and without taking a terminal as the controlling one; [`opened_blocking`] makes
/// the file read and write as any other once it is known to be a regular file.
pub fn open_without_blocking(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
        options.custom_flags(flags.bits() as i32);
    }
    options.open(path)
}

/// Clears what [`open_without_blocking`] set (and sets appending again, with `append`: the
/// flags are cleared together on Unix).
pub fn opened_blocking(file: &File, append: bool) -> io::Result<()> {
    #[cfg(unix)]
    {
        use rustix::fs::{OFlags, fcntl_setfl};
        fcntl_setfl(
            file,
            if append {
                OFlags::APPEND
            } else {
                OFlags::empty()
            },
        )?;
    }
    #[cfg(not(unix))]
    let _ = (file, append);
    Ok(())
}

/// What a node is, in words.
pub fn kind_name(kind: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() {
            return "a character device";
        } else if kind.is_block_device() {
            return "a block device";
        } else if kind.is_fifo() {
            return "a FIFO";
        } else if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// Whether two nodes are the same file: the same device and inode on Unix; elsewhere the
/// same length and the same creation and modification times (the standard library gives
/// no file identity there), which at worst refuses a write that was safe.
pub fn same_node(a: &Metadata, b: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        let times = |m: &Metadata| (m.created().ok(), m.modified().ok());
        a.len() == b.len() && times(a) == times(b) && times(a).1.is_some()
    }
}

/// The process for an engine's command line. On Unix it runs under `sh -c` (arguments and
/// quotes as on a shell line) in a process group of its own, so that what it starts can be
/// ended with it; elsewhere the line is split into words (double quotes keep spaces) and
/// run directly.
pub fn engine_command(line: &str) -> std::process::Command {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let mut command = std::process::Command::new("sh");
        command
            .arg("-c")
            .arg(format!("exec {line}"))
            .process_group(0);
        command
    }
    #[cfg(not(unix))]
    {
        let words = split_words(line);
        let mut command = std::process::Command::new(words.first().map_or("", String::as_str));
        command.args(words.iter().skip(1));
        command
    }
}

/// Sends SIGKILL to the process group `leader` leads (Unix); elsewhere nothing (the caller
/// kills the process itself).
pub fn kill_group(leader: u32) {
    #[cfg(unix)]
    if let Some(group) = rustix::process::Pid::from_raw(leader as i32) {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = leader;
}

/// `line` split at spaces outside double quotes, the quotes removed.
#[cfg_attr(unix, allow(dead_code))] // Unix hands the line to a shell
fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, started) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_line_splits_at_spaces_outside_quotes() {
        assert_eq!(
            split_words(r#"  engine --eval "my net.nnue" -x "" "#),
            ["engine", "--eval", "my net.nnue", "-x", ""]
        );
        assert!(split_words("   ").is_empty());
    }

    #[test]
    fn a_file_is_itself_and_not_its_neighbour() {
        let dir = std::env::temp_dir().join(format!("ternion-platform-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::fs::write(&a, b"a").unwrap();
        std::fs::write(&b, b"b").unwrap();
        let meta = |p: &Path| std::fs::metadata(p).unwrap();
        assert!(same_node(&meta(&a), &meta(&a)));
        assert!(!same_node(&meta(&a), &meta(&b)));
        assert_eq!(kind_name(meta(&a).file_type()), "a regular file");
        assert_eq!(kind_name(meta(&dir).file_type()), "a directory");
        std::fs::remove_dir_all(&dir).ok();
    }
}
