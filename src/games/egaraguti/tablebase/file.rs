//! The table file: its name, its header, its checksum, and the one way it is written. The
//! bottom of the tables' room: it knows bytes and paths, not what the values mean.
//!
//! A file is a header (magic, rules and index versions, the material, the number of
//! entries, whether distances follow, an FNV-1a checksum of the payload), then the payload
//! in one of two forms, which the magic names:
//!
//! - packed: the values (four entries a byte), then the distances (a byte an entry), what
//!   the build writes and reads back;
//! - compact: the values, then the distances, each a run-coded stream
//!   ([`super::runs`]) that stores only the entries a probe reads, what `tables compact`
//!   writes for the probes of a finished set.
//!
//! Both forms have the same name, so a directory holds one set in either. A file is
//! written to a temporary name and renamed, so a file that exists is whole.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::index::{INDEXER, Material};

/// The version of the rules the tables are computed for: bump it when a rule changes.
pub const RULES_VERSION: u32 = 1;
/// The version of the index layout.
pub const INDEX_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"ternEGT\0";
const COMPACT_MAGIC: &[u8; 8] = b"ternEGC\0";

/// The two forms of a table file's payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Two bits a value, a byte a distance.
    Packed,
    /// Run-coded streams of the entries a probe reads.
    Compact,
}

impl Form {
    fn magic(self) -> &'static [u8; 8] {
        match self {
            Form::Packed => MAGIC,
            Form::Compact => COMPACT_MAGIC,
        }
    }
}
/// The header's length: magic, four words, the entries, the distances flag, the checksum.
pub const HEADER_BYTES: usize = 8 + 4 + 4 + 4 + 4 + 8 + 4 + 8;

/// A material pair's file name in a table directory.
pub fn file_name(material: Material) -> String {
    format!("egaraguti-{}v{}.egt", material.mover, material.other)
}

/// The path of a material pair's table in `dir`.
pub fn path(dir: &Path, material: Material) -> PathBuf {
    dir.join(file_name(material))
}

/// The one line that says a file at `path` cannot be read.
pub fn cannot_read(path: &Path, error: io::Error) -> String {
    format!("cannot read {}: {error}", path.display())
}

/// Opens the file at `path`: `Ok(None)` when there is none.
pub fn open(path: &Path) -> Result<Option<File>, String> {
    match crate::core::files::open_regular(path) {
        Ok(file) => Ok(Some(file)),
        // A link to nothing is there, but unreadable: said so, not taken for no table.
        Err(e)
            if e.kind() == io::ErrorKind::NotFound
                && fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()) =>
        {
            Err(format!(
                "cannot read {}: a symbolic link that leads nowhere",
                path.display()
            ))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(cannot_read(path, e)),
    }
}

/// What a table file's header says, checked against the material it should hold and the
/// file's length.
pub struct Header {
    path: PathBuf,
    pub form: Form,
    pub entries: u64,
    pub with_distances: bool,
    pub checksum: u64,
    /// The bytes of the packed values, which the distances follow (packed form only).
    pub packed_len: usize,
}

impl Header {
    /// The header at the start of `bytes`, of a file at `path` of `length` bytes that
    /// should hold `material`'s table.
    pub fn read(
        path: &Path,
        material: Material,
        bytes: &[u8],
        length: u64,
    ) -> Result<Header, String> {
        let bad = |why: &str| format!("{} is not a usable table: {why}", path.display());
        let form = match bytes.get(..8) {
            _ if bytes.len() < HEADER_BYTES => return Err(bad("no table header")),
            Some(magic) if magic == MAGIC => Form::Packed,
            Some(magic) if magic == COMPACT_MAGIC => Form::Compact,
            _ => return Err(bad("no table header")),
        };
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let long = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        if word(8) != RULES_VERSION || word(12) != INDEX_VERSION {
            return Err(bad("made for other rules or another index"));
        }
        if (word(16) as usize, word(20) as usize) != (material.mover, material.other) {
            return Err(bad("made for other material"));
        }
        let entries = long(24);
        if entries != INDEXER.table_size(material) {
            return Err(bad("the wrong number of entries"));
        }
        // A flag no writer writes is a damaged header, not a yes.
        let with_distances = match word(32) {
            0 => false,
            1 => true,
            _ => return Err(bad("a damaged header")),
        };
        let packed_len = entries.div_ceil(4) as usize;
        let expected =
            HEADER_BYTES + packed_len + if with_distances { entries as usize } else { 0 };
        // A compact file's length is its streams', which the table reads.
        if form == Form::Packed && length != expected as u64 {
            return Err(bad("cut short or too long"));
        }
        Ok(Header {
            path: path.to_path_buf(),
            form,
            entries,
            with_distances,
            checksum: long(36),
            packed_len,
        })
    }

    /// The one line that refuses this file for `why`.
    pub fn bad(&self, why: &str) -> String {
        format!("{} is not a usable table: {why}", self.path.display())
    }
}

/// Writes `material`'s table of `entries` entries into `dir` in `form`, whole or not at
/// all: the header, the values, the distances if kept.
pub fn write(
    dir: &Path,
    material: Material,
    entries: u64,
    form: Form,
    values: &[u8],
    distances: Option<&[u8]>,
) -> io::Result<()> {
    let payload: Vec<&[u8]> = std::iter::once(values).chain(distances).collect();
    let mut checksum = Fnv::default();
    payload.iter().for_each(|part| checksum.write(part));
    let length: usize = payload.iter().map(|part| part.len()).sum();
    let mut bytes = Vec::with_capacity(HEADER_BYTES + length);
    bytes.extend_from_slice(form.magic());
    for word in [
        RULES_VERSION,
        INDEX_VERSION,
        material.mover as u32,
        material.other as u32,
    ] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.extend_from_slice(&entries.to_le_bytes());
    bytes.extend_from_slice(&(distances.is_some() as u32).to_le_bytes());
    bytes.extend_from_slice(&checksum.0.to_le_bytes());
    payload
        .iter()
        .for_each(|part| bytes.extend_from_slice(part));
    crate::core::output::write_whole(&path(dir, material), &bytes)
}

/// Reads the rest of `file` a mebibyte at a time, handing each piece to `take`: a file of
/// gigabytes is checked without being held whole.
pub fn read_in_chunks(file: &mut File, mut take: impl FnMut(&[u8])) -> io::Result<()> {
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        let read = file.read(&mut chunk)?;
        if read == 0 {
            return Ok(());
        }
        take(&chunk[..read]);
    }
}

/// The SHA-256 of the table file of `material` in `dir`, in hexadecimal (`Ok(None)` when
/// there is no such file): the published sums say whether a build gave the same bytes.
pub fn file_sha256(dir: &Path, material: Material) -> Result<Option<String>, String> {
    use sha2::{Digest, Sha256};
    let path = path(dir, material);
    let Some(mut file) = open(&path)? else {
        return Ok(None);
    };
    let mut hasher = Sha256::new();
    read_in_chunks(&mut file, |chunk| hasher.update(chunk)).map_err(|e| cannot_read(&path, e))?;
    let digest = hasher.finalize();
    Ok(Some(
        digest.iter().map(|byte| format!("{byte:02x}")).collect(),
    ))
}

/// FNV-1a, 64 bits: a checksum against cut or damaged files, not against tampering.
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_sum_is_its_sha256() {
        let dir = std::env::temp_dir().join(format!("ternion-sum-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let material = Material { mover: 1, other: 1 };
        // The standard's test vector: "abc".
        fs::write(path(&dir, material), b"abc").unwrap();
        assert_eq!(
            file_sha256(&dir, material).unwrap().as_deref(),
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
        assert_eq!(
            file_sha256(&dir, Material { mover: 2, other: 1 }).unwrap(),
            None
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
