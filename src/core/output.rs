//! The files the engine writes on a user's word (a network, records, self-play data, a
//! picture, tables): only a new path or a regular file, and never one of the command's own
//! inputs.
//!
//! A path may name a device (`/dev/full`, `/dev/null`), a FIFO, a directory or a symbolic
//! link. Creating a file there must not replace the node (a rename over `/dev/null` makes
//! it a regular file for every program on the machine), and must not block (a FIFO without
//! a reader) or truncate what the command is still to read (`--data X --out X`). Every
//! command that writes a file goes through here; each refusal is one line, given before
//! any work is done.

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

pub use super::platform::kind_name;
use super::platform::same_node;

/// Whether `a` and `b` name the same existing file or directory, whatever their spelling
/// (`dir`, `./dir/`, a link to it).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => same_node(&a, &b),
        _ => false,
    }
}

fn refused(why: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, why)
}

/// Refuses `found` (the node a path leads to) unless it is a regular file that is none of
/// `inputs`.
fn check_node(found: &Metadata, inputs: &[&Path]) -> io::Result<()> {
    if !found.file_type().is_file() {
        return Err(refused(format!(
            "not a regular file but {}",
            kind_name(found.file_type())
        )));
    }
    let is_input = |input: &&&Path| {
        std::fs::metadata(input).is_ok_and(|input_meta| same_node(found, &input_meta))
    };
    if let Some(input) = inputs.iter().find(is_input) {
        return Err(refused(format!(
            "it is also this command's input {}",
            input.display()
        )));
    }
    Ok(())
}

/// The path a file for `path` is really written at: `path` itself when nothing is there
/// yet, the file a symbolic link leads to, refused when what is there is not a regular file
/// or is one of `inputs`. A link that leads nowhere is refused too: what it would create
/// is not what the user named.
pub fn target(path: &Path, inputs: &[&Path]) -> io::Result<PathBuf> {
    let here = match std::fs::symlink_metadata(path) {
        Ok(here) => here,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(path.to_owned()),
        Err(e) => return Err(e),
    };
    if path.file_name().is_none() {
        return Err(refused("not a file's name".into()));
    }
    if !here.file_type().is_symlink() {
        check_node(&here, inputs)?;
        return Ok(path.to_owned());
    }
    let real = std::fs::canonicalize(path)
        .map_err(|e| refused(format!("a symbolic link that leads nowhere readable ({e})")))?;
    check_node(&std::fs::metadata(&real)?, inputs)?;
    Ok(real)
}

/// Opens `path` for writing, created when missing, truncated (or appended to, with
/// `append`) only once it is known to be a regular file that is none of `inputs`. The
/// opening itself never blocks and never takes a terminal as the controlling one.
fn open(path: &Path, inputs: &[&Path], append: bool) -> io::Result<File> {
    let path = target(path, inputs)?;
    let file = super::platform::open_without_blocking(
        OpenOptions::new().write(true).create(true).append(append),
        &path,
    )?;
    // Between the look and the opening the node may have changed: the open file is what
    // counts, and nothing has been written or cut yet.
    check_node(&file.metadata()?, inputs)?;
    super::platform::opened_blocking(&file, append)?;
    if !append {
        file.set_len(0)?;
    }
    Ok(file)
}

/// Creates (or empties) the regular file at `path` for writing; see [`target`] for what is
/// refused.
pub fn create(path: &Path, inputs: &[&Path]) -> io::Result<File> {
    open(path, inputs, false)
}

/// Opens the regular file at `path` to append to it, created when missing.
pub fn append(path: &Path, inputs: &[&Path]) -> io::Result<File> {
    open(path, inputs, true)
}

/// The name of the file beside `path` that its bytes are written to before they take
/// `path`'s name.
fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(".partial");
    path.with_file_name(name)
}

/// A file written whole or not at all: the bytes go to a file beside the target, which
/// then takes the target's name, so that a run stopped half-way never leaves half a file
/// where the last one was. A run that fails (or is dropped before [`Whole::commit`])
/// leaves nothing behind.
pub struct Whole {
    target: PathBuf,
    partial: PathBuf,
    file: Option<File>,
}

impl Whole {
    /// Checks that `path` can take the file, before the work that makes its bytes: the
    /// target (see [`target`]) and the partial file beside it are both created now.
    pub fn prepare(path: &Path, inputs: &[&Path]) -> io::Result<Whole> {
        let target = target(path, inputs)?;
        let partial = partial_path(&target);
        let file = create(&partial, inputs)?;
        Ok(Whole {
            target,
            partial,
            file: Some(file),
        })
    }

    /// Writes `bytes` and gives the file its name.
    pub fn commit(mut self, bytes: &[u8]) -> io::Result<()> {
        use std::io::Write;
        let mut file = self.file.take().expect("a file until committed");
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        // The target may have been replaced since it was checked: it is checked again
        // right before it is replaced.
        target(&self.target, &[])?;
        std::fs::rename(&self.partial, &self.target)
    }
}

impl Drop for Whole {
    fn drop(&mut self) {
        // After the rename there is nothing here.
        let _ = std::fs::remove_file(&self.partial);
    }
}

/// Writes `bytes` whole or not at all at `path` (see [`Whole`]).
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    Whole::prepare(path, &[])?.commit(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scratch::Scratch;
    use std::io::Write;

    #[test]
    fn a_new_path_and_a_regular_file_are_written() {
        let scratch = Scratch::new("output-regular");
        let path = scratch.path("out");
        create(&path, &[]).unwrap().write_all(b"first\n").unwrap();
        append(&path, &[]).unwrap().write_all(b"second\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first\nsecond\n");
        create(&path, &[]).unwrap().write_all(b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        write_whole(&path, b"whole").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"whole");
        assert!(!partial_path(&path).exists());
    }

    #[test]
    fn devices_fifos_and_directories_are_refused_and_left_as_they_are() {
        let scratch = Scratch::new("output-nodes");
        let fifo = scratch.path("fifo");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, rustix::fs::Mode::RWXU).unwrap();
        for (path, kind) in [
            (Path::new("/dev/null"), "a character device"),
            (fifo.as_path(), "a FIFO"),
            (scratch.dir(), "a directory"),
        ] {
            let before = std::fs::symlink_metadata(path).unwrap();
            for error in [
                create(path, &[]).unwrap_err(),
                append(path, &[]).unwrap_err(),
                write_whole(path, b"bytes").unwrap_err(),
            ] {
                assert_eq!(error.to_string(), format!("not a regular file but {kind}"));
            }
            let after = std::fs::symlink_metadata(path).unwrap();
            assert!(same_node(&before, &after) && before.file_type() == after.file_type());
        }
        // A link to a device is refused as the device is; the link stays.
        let link = scratch.path("link");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        assert!(write_whole(&link, b"x").is_err());
        assert!(create(&link, &[]).is_err());
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert!(!partial_path(&link).exists());
    }

    #[test]
    fn a_link_to_a_regular_file_writes_the_file_and_stays_a_link() {
        let scratch = Scratch::new("output-link");
        let real = scratch.path("real");
        std::fs::write(&real, b"old").unwrap();
        let link = scratch.path("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_whole(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        // A link that leads nowhere is refused: it would create a file elsewhere.
        let dangling = scratch.path("dangling");
        std::os::unix::fs::symlink(scratch.path("nowhere"), &dangling).unwrap();
        assert!(create(&dangling, &[]).is_err());
        assert!(!scratch.path("nowhere").exists());
    }

    #[test]
    fn an_input_is_never_the_output() {
        let scratch = Scratch::new("output-input");
        let data = scratch.path("data");
        std::fs::write(&data, b"keep").unwrap();
        let other = scratch.path("./data");
        for error in [
            create(&other, &[&data]).unwrap_err(),
            append(&other, &[&data]).unwrap_err(),
            Whole::prepare(&other, &[&data]).err().unwrap(),
        ] {
            assert!(
                error.to_string().contains("also this command's input"),
                "{error}"
            );
        }
        assert_eq!(std::fs::read(&data).unwrap(), b"keep");
        assert!(same_file(scratch.dir(), &scratch.path(".")));
        assert!(!same_file(&data, &scratch.path("missing")));
    }

    #[test]
    fn a_whole_file_dropped_before_its_commit_leaves_the_old_one() {
        let scratch = Scratch::new("output-whole");
        let path = scratch.path("net");
        std::fs::write(&path, b"old").unwrap();
        let whole = Whole::prepare(&path, &[]).unwrap();
        assert!(partial_path(&path).exists());
        drop(whole);
        assert!(!partial_path(&path).exists());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
    }
}
