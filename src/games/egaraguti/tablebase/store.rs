//! One material pair's table in memory and on disk.
//!
//! A table holds, for every entry of the pair's index, the value for the side to move at a
//! 40-ply counter of 0 (win, draw, loss, or none for an entry that is not canonical), in two
//! bits, and optionally the distance: the plies the result needs before the level is left (a
//! capture or a blocked side), which says whether the value still holds at a higher counter.
//!
//! The file is a header (magic, rules and index versions, the material, the number of
//! entries, whether distances follow, an FNV-1a checksum of the payload), then the packed
//! values, then the distances. It is written to a temporary name and renamed, so a file
//! that exists is whole. A table is either read into memory, its header and checksum
//! checked (what the build and `verify` do), or mapped (`core::memory::MappedFile`), its
//! header and length checked: the values and distances are then the page cache's, ready
//! at once and shared by every process on the machine, and the checksum is left to the
//! build and `verify`, which read every byte anyway.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::index::{INDEXER, Material, Men};
use crate::core::Wdl;
use crate::core::memory::MappedFile;

/// A value's two bits in a table.
#[inline]
fn wdl_from_bits(bits: u8) -> Option<Wdl> {
    match bits {
        0 => Some(Wdl::Loss),
        1 => Some(Wdl::Draw),
        2 => Some(Wdl::Win),
        _ => None,
    }
}

/// The result by counting men, the verdict of the 40-ply rule and of repetition.
pub fn wdl_by_count(material: Material) -> Wdl {
    match material.mover.cmp(&material.other) {
        std::cmp::Ordering::Greater => Wdl::Win,
        std::cmp::Ordering::Equal => Wdl::Draw,
        std::cmp::Ordering::Less => Wdl::Loss,
    }
}

/// The two bits of an entry that is not canonical.
const NONE: u8 = 3;

/// The version of the rules the tables are computed for: bump it when a rule changes.
pub const RULES_VERSION: u32 = 1;
/// The version of the index layout.
pub const INDEX_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"ternEGT\0";
const HEADER_BYTES: usize = 8 + 4 + 4 + 4 + 4 + 8 + 4 + 8;

/// One material pair's values, and its distances when they were kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    material: Material,
    entries: u64,
    /// Four entries a byte, the lowest bits first.
    packed: Bytes,
    /// A byte an entry, where kept.
    distances: Option<Bytes>,
}

/// A table's bytes: its own, or a part of its file's mapping.
#[derive(Clone, Debug)]
enum Bytes {
    Owned(Vec<u8>),
    Mapped {
        file: Arc<MappedFile>,
        start: usize,
        len: usize,
    },
}

impl Bytes {
    #[inline]
    fn get(&self) -> &[u8] {
        match self {
            Bytes::Owned(bytes) => bytes,
            Bytes::Mapped { file, start, len } => &file.bytes()[*start..*start + *len],
        }
    }

    /// The bytes to change: a mapped part is copied first (the file never changes).
    fn make_mut(&mut self) -> &mut Vec<u8> {
        if let Bytes::Mapped { .. } = self {
            *self = Bytes::Owned(self.get().to_vec());
        }
        match self {
            Bytes::Owned(bytes) => bytes,
            Bytes::Mapped { .. } => unreachable!("copied just above"),
        }
    }
}

/// Bytes are equal when they hold the same, wherever they are.
impl PartialEq for Bytes {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl Eq for Bytes {}

impl Table {
    /// A table of `entries` entries, all not canonical until set.
    pub fn new(material: Material, entries: u64, with_distances: bool) -> Table {
        Table {
            material,
            entries,
            packed: Bytes::Owned(vec![NONE * 0x55; entries.div_ceil(4) as usize]),
            distances: with_distances.then(|| Bytes::Owned(vec![0; entries as usize])),
        }
    }

    pub fn material(&self) -> Material {
        self.material
    }

    pub fn entries(&self) -> u64 {
        self.entries
    }

    pub fn has_distances(&self) -> bool {
        self.distances.is_some()
    }

    /// Whether the table is its file's mapping rather than bytes read into memory.
    pub fn is_mapped(&self) -> bool {
        matches!(self.packed, Bytes::Mapped { .. })
    }

    /// Sets entry `index` (distances are kept only if the table has them); a mapped table
    /// is copied into memory first.
    pub fn set(&mut self, index: u64, value: Wdl, distance: u8) {
        let (byte, shift) = ((index / 4) as usize, (index % 4) * 2);
        let packed = self.packed.make_mut();
        packed[byte] = (packed[byte] & !(3 << shift)) | ((value as u8) << shift);
        if let Some(distances) = &mut self.distances {
            distances.make_mut()[index as usize] = distance;
        }
    }

    /// The value at entry `index`, `None` for an entry that is not canonical.
    #[inline]
    pub fn value_at(&self, index: u64) -> Option<Wdl> {
        let bits = (self.packed.get()[(index / 4) as usize] >> ((index % 4) * 2)) & 3;
        wdl_from_bits(bits)
    }

    /// The distance at entry `index`, if the table keeps distances.
    #[inline]
    pub fn distance_at(&self, index: u64) -> Option<u8> {
        self.distances
            .as_ref()
            .map(|distances| distances.get()[index as usize])
    }

    /// The value of a position of this table's material for the side to move.
    #[inline]
    pub fn value(&self, men: Men) -> Wdl {
        debug_assert_eq!(men.material(), self.material);
        self.value_at(INDEXER.index(men))
            .expect("a canonical entry always has a value")
    }

    /// The table's file name in a table directory.
    pub fn file_name(material: Material) -> String {
        format!("egaraguti-{}v{}.egt", material.mover, material.other)
    }

    /// The path of a material pair's table in `dir`.
    pub fn path(dir: &Path, material: Material) -> PathBuf {
        dir.join(Table::file_name(material))
    }

    fn payload_checksum(&self) -> u64 {
        let mut hash = Fnv::default();
        hash.write(self.packed.get());
        if let Some(distances) = &self.distances {
            hash.write(distances.get());
        }
        hash.0
    }

    /// Writes the table into `dir` under its file name, whole or not at all.
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(HEADER_BYTES + self.packed.get().len());
        bytes.extend_from_slice(MAGIC);
        for word in [
            RULES_VERSION,
            INDEX_VERSION,
            self.material.mover as u32,
            self.material.other as u32,
        ] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes.extend_from_slice(&self.entries.to_le_bytes());
        bytes.extend_from_slice(&(self.has_distances() as u32).to_le_bytes());
        bytes.extend_from_slice(&self.payload_checksum().to_le_bytes());
        bytes.extend_from_slice(self.packed.get());
        if let Some(distances) = &self.distances {
            bytes.extend_from_slice(distances.get());
        }
        let path = Table::path(dir, self.material);
        let partial = path.with_extension("partial");
        fs::write(&partial, &bytes)?;
        fs::rename(&partial, &path)
    }

    /// Reads a material pair's table from `dir`, checking that it is whole and of these
    /// rules. `Ok(None)` when there is no such file.
    pub fn read(dir: &Path, material: Material) -> Result<Option<Table>, String> {
        Table::read_keeping(dir, material, true)
    }

    /// Reads a table as [`Table::read`] does, but keeps only its values: what a solver of
    /// higher levels needs, in a fifth of the memory.
    pub fn read_values(dir: &Path, material: Material) -> Result<Option<Table>, String> {
        Table::read_keeping(dir, material, false)
    }

    /// Maps a material pair's table in `dir` (`Ok(None)` when there is no such file),
    /// checking its header and its length but not its checksum: the load of a set of any
    /// size takes a moment, and its pages are read from the disk as probes first need
    /// them.
    pub fn map(dir: &Path, material: Material) -> Result<Option<Table>, String> {
        let path = Table::path(dir, material);
        let cannot = |e: io::Error| format!("cannot read {}: {e}", path.display());
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(cannot(e)),
        };
        let mapped = Arc::new(MappedFile::map(&file).map_err(cannot)?);
        let bytes = mapped.bytes();
        let head = &bytes[..HEADER_BYTES.min(bytes.len())];
        let header = Header::read(&path, material, head, bytes.len() as u64)?;
        let part = |start: usize, len: usize| Bytes::Mapped {
            file: Arc::clone(&mapped),
            start,
            len,
        };
        Ok(Some(Table {
            material,
            entries: header.entries,
            packed: part(HEADER_BYTES, header.packed_len),
            distances: header
                .with_distances
                .then(|| part(HEADER_BYTES + header.packed_len, header.entries as usize)),
        }))
    }

    /// Reads the file part by part, straight into the table (no copy of the whole file),
    /// checking its header and the checksum of all of it, distances included whether they
    /// are kept or not.
    fn read_keeping(
        dir: &Path,
        material: Material,
        keep_distances: bool,
    ) -> Result<Option<Table>, String> {
        let path = Table::path(dir, material);
        let cannot = |e: io::Error| format!("cannot read {}: {e}", path.display());
        let mut file = match File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(cannot(e)),
        };
        let length = file.metadata().map_err(cannot)?.len();
        let mut head = vec![0u8; HEADER_BYTES.min(length as usize)];
        file.read_exact(&mut head).map_err(cannot)?;
        let header = Header::read(&path, material, &head, length)?;
        let mut packed = vec![0u8; header.packed_len];
        file.read_exact(&mut packed).map_err(cannot)?;
        let mut hash = Fnv::default();
        hash.write(&packed);
        let distances = match (header.with_distances, keep_distances) {
            (false, _) => None,
            (true, true) => {
                let mut distances = vec![0u8; header.entries as usize];
                file.read_exact(&mut distances).map_err(cannot)?;
                hash.write(&distances);
                Some(Bytes::Owned(distances))
            }
            (true, false) => {
                read_in_chunks(&mut file, |chunk| hash.write(chunk)).map_err(cannot)?;
                None
            }
        };
        if hash.0 != header.checksum {
            return Err(header.bad("the checksum does not match"));
        }
        Ok(Some(Table {
            material,
            entries: header.entries,
            packed: Bytes::Owned(packed),
            distances,
        }))
    }
}

/// Reads the rest of `file` a mebibyte at a time, handing each piece to `take`: a file of
/// gigabytes is checked without being held whole.
fn read_in_chunks(file: &mut File, mut take: impl FnMut(&[u8])) -> io::Result<()> {
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
    let path = Table::path(dir, material);
    let cannot = |e: io::Error| format!("cannot read {}: {e}", path.display());
    let mut file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(cannot(e)),
    };
    let mut hasher = Sha256::new();
    read_in_chunks(&mut file, |chunk| hasher.update(chunk)).map_err(cannot)?;
    let digest = hasher.finalize();
    Ok(Some(
        digest.iter().map(|byte| format!("{byte:02x}")).collect(),
    ))
}

/// A table file's header, checked against the material it should hold and the file's
/// length.
struct Header {
    path: PathBuf,
    entries: u64,
    with_distances: bool,
    checksum: u64,
    packed_len: usize,
}

impl Header {
    fn read(path: &Path, material: Material, bytes: &[u8], length: u64) -> Result<Header, String> {
        let bad = |why: &str| format!("{} is not a usable table: {why}", path.display());
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(bad("no table header"));
        }
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
        let with_distances = word(32) != 0;
        let packed_len = entries.div_ceil(4) as usize;
        let expected =
            HEADER_BYTES + packed_len + if with_distances { entries as usize } else { 0 };
        if length != expected as u64 {
            return Err(bad("cut short or too long"));
        }
        Ok(Header {
            path: path.to_path_buf(),
            entries,
            with_distances,
            checksum: long(36),
            packed_len,
        })
    }

    fn bad(&self, why: &str) -> String {
        format!("{} is not a usable table: {why}", self.path.display())
    }
}

/// FNV-1a, 64 bits: a checksum against cut or damaged files, not against tampering.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
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
        fs::write(Table::path(&dir, material), b"abc").unwrap();
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

    #[test]
    fn a_table_survives_the_disk_and_a_damaged_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("ternion-store-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let material = Material { mover: 2, other: 1 };
        let entries = INDEXER.table_size(material);
        let mut table = Table::new(material, entries, true);
        for index in 0..entries {
            let value = [Wdl::Loss, Wdl::Draw, Wdl::Win][(index % 3) as usize];
            table.set(index, value, (index % 41) as u8);
        }
        table.write(&dir).unwrap();
        let values = Table::read_values(&dir, material).unwrap().unwrap();
        assert!(!values.has_distances());
        assert!((0..entries).all(|i| values.value_at(i) == table.value_at(i)));
        assert_eq!(Table::read(&dir, material).unwrap(), Some(table.clone()));
        assert_eq!(Table::read(&dir, material.swapped()).unwrap(), None);
        // Mapped, the same table, and a copy made in memory when changed.
        let mut mapped = Table::map(&dir, material).unwrap().unwrap();
        assert!(mapped.is_mapped());
        assert_eq!(mapped, table);
        assert_eq!(Table::map(&dir, material.swapped()).unwrap(), None);
        let entry = entries / 2;
        mapped.set(entry, Wdl::Win, 40);
        assert!(!mapped.is_mapped());
        assert_eq!(
            (mapped.value_at(entry), mapped.distance_at(entry)),
            (Some(Wdl::Win), Some(40))
        );
        assert_eq!(Table::map(&dir, material).unwrap(), Some(table.clone()));

        let path = Table::path(&dir, material);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let error = Table::read(&dir, material).unwrap_err();
        assert!(error.contains("checksum"), "{error}");
        // A map checks the header and the length, not the checksum (the build and verify do).
        assert!(Table::map(&dir, material).unwrap().is_some());
        fs::write(&path, &bytes[..100]).unwrap();
        let error = Table::read(&dir, material).unwrap_err();
        assert!(error.contains("cut short"), "{error}");
        let error = Table::map(&dir, material).unwrap_err();
        assert!(error.contains("cut short"), "{error}");
        fs::write(&path, b"").unwrap();
        let error = Table::map(&dir, material).unwrap_err();
        assert!(error.contains("no table header"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
