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
//! that exists is whole; reading checks the header and the checksum.

use std::fs::{self, File};
use std::io::{self, Read};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::index::{INDEXER, Material, Men};
use crate::core::Wdl;

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
    packed: Vec<u8>,
    distances: Distances,
}

/// Where a table's distances are.
#[derive(Clone, Debug)]
enum Distances {
    None,
    Memory(Vec<u8>),
    /// Left in the table's file from `offset` on, read one at a time: a set of tables too
    /// large for memory keeps its values there and its distances (four times as large) on
    /// disk.
    File {
        file: Arc<File>,
        offset: u64,
    },
}

impl PartialEq for Distances {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Distances::None, Distances::None) => true,
            (Distances::Memory(a), Distances::Memory(b)) => a == b,
            (Distances::File { file: a, offset: x }, Distances::File { file: b, offset: y }) => {
                Arc::ptr_eq(a, b) && x == y
            }
            _ => false,
        }
    }
}

impl Eq for Distances {}

impl Table {
    /// A table of `entries` entries, all not canonical until set.
    pub fn new(material: Material, entries: u64, with_distances: bool) -> Table {
        Table {
            material,
            entries,
            packed: vec![NONE * 0x55; entries.div_ceil(4) as usize],
            distances: match with_distances {
                true => Distances::Memory(vec![0; entries as usize]),
                false => Distances::None,
            },
        }
    }

    pub fn material(&self) -> Material {
        self.material
    }

    pub fn entries(&self) -> u64 {
        self.entries
    }

    pub fn has_distances(&self) -> bool {
        !matches!(self.distances, Distances::None)
    }

    /// Whether the distances stay in the file, read one at a time.
    pub fn distances_in_file(&self) -> bool {
        matches!(self.distances, Distances::File { .. })
    }

    /// Sets entry `index` (distances are kept only if the table has them).
    pub fn set(&mut self, index: u64, value: Wdl, distance: u8) {
        let (byte, shift) = ((index / 4) as usize, (index % 4) * 2);
        self.packed[byte] = (self.packed[byte] & !(3 << shift)) | ((value as u8) << shift);
        if let Distances::Memory(distances) = &mut self.distances {
            distances[index as usize] = distance;
        }
    }

    /// The value at entry `index`, `None` for an entry that is not canonical.
    #[inline]
    pub fn value_at(&self, index: u64) -> Option<Wdl> {
        let bits = (self.packed[(index / 4) as usize] >> ((index % 4) * 2)) & 3;
        wdl_from_bits(bits)
    }

    /// The distance at entry `index`, if the table keeps distances (and, where they stay
    /// in the file, if the file can be read).
    #[inline]
    pub fn distance_at(&self, index: u64) -> Option<u8> {
        match &self.distances {
            Distances::None => None,
            Distances::Memory(distances) => Some(distances[index as usize]),
            Distances::File { file, offset } => {
                let mut byte = [0u8];
                match file.read_at(&mut byte, offset + index) {
                    Ok(1) => Some(byte[0]),
                    _ => None,
                }
            }
        }
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
        hash.write(&self.packed);
        if let Distances::Memory(distances) = &self.distances {
            hash.write(distances);
        }
        hash.0
    }

    /// Writes the table into `dir` under its file name, whole or not at all.
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        if self.distances_in_file() {
            return Err(io::Error::other(
                "a table whose distances stay in its file is not written again",
            ));
        }
        let mut bytes = Vec::with_capacity(HEADER_BYTES + self.packed.len());
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
        bytes.extend_from_slice(&self.packed);
        if let Distances::Memory(distances) = &self.distances {
            bytes.extend_from_slice(distances);
        }
        let path = Table::path(dir, self.material);
        let partial = path.with_extension("partial");
        fs::write(&partial, &bytes)?;
        fs::rename(&partial, &path)
    }

    /// Reads a material pair's table from `dir`, checking that it is whole and of these
    /// rules. `Ok(None)` when there is no such file.
    pub fn read(dir: &Path, material: Material) -> Result<Option<Table>, String> {
        Table::read_keeping(dir, material, Keep::Memory)
    }

    /// Reads a table as [`Table::read`] does, but keeps only its values: what a solver of
    /// higher levels needs, in a fifth of the memory.
    pub fn read_values(dir: &Path, material: Material) -> Result<Option<Table>, String> {
        Table::read_keeping(dir, material, Keep::Nothing)
    }

    /// Reads a table as [`Table::read`] does, but keeps only its values in memory: its
    /// distances stay in the file and [`Table::distance_at`] reads them one at a time.
    pub fn read_with_distances_in_file(
        dir: &Path,
        material: Material,
    ) -> Result<Option<Table>, String> {
        Table::read_keeping(dir, material, Keep::File)
    }

    /// Reads the file part by part, straight into the table (no copy of the whole file),
    /// checking its header and the checksum of all of it, distances included wherever
    /// they are kept.
    fn read_keeping(dir: &Path, material: Material, keep: Keep) -> Result<Option<Table>, String> {
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
        let offset = (HEADER_BYTES + header.packed_len) as u64;
        let distances = match (header.with_distances, keep) {
            (false, _) => Distances::None,
            (true, Keep::Memory) => {
                let mut distances = vec![0u8; header.entries as usize];
                file.read_exact(&mut distances).map_err(cannot)?;
                hash.write(&distances);
                Distances::Memory(distances)
            }
            (true, Keep::Nothing | Keep::File) => {
                let mut chunk = vec![0u8; 1 << 20];
                loop {
                    let read = file.read(&mut chunk).map_err(cannot)?;
                    if read == 0 {
                        break;
                    }
                    hash.write(&chunk[..read]);
                }
                match keep {
                    Keep::File => Distances::File {
                        file: Arc::new(file),
                        offset,
                    },
                    _ => Distances::None,
                }
            }
        };
        if hash.0 != header.checksum {
            return Err(header.bad("the checksum does not match"));
        }
        Ok(Some(Table {
            material,
            entries: header.entries,
            packed,
            distances,
        }))
    }
}

/// What a read keeps of a table's distances.
#[derive(Clone, Copy)]
enum Keep {
    Nothing,
    Memory,
    File,
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
        // Distances left in the file read the same, one at a time.
        let on_disk = Table::read_with_distances_in_file(&dir, material)
            .unwrap()
            .unwrap();
        assert!(on_disk.distances_in_file());
        assert!(
            (0..entries).all(|i| on_disk.value_at(i) == table.value_at(i)
                && on_disk.distance_at(i) == table.distance_at(i))
        );
        assert!(on_disk.write(&dir).is_err());

        let path = Table::path(&dir, material);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let error = Table::read(&dir, material).unwrap_err();
        assert!(error.contains("checksum"), "{error}");
        let error = Table::read_with_distances_in_file(&dir, material).unwrap_err();
        assert!(error.contains("checksum"), "{error}");
        fs::write(&path, &bytes[..100]).unwrap();
        let error = Table::read(&dir, material).unwrap_err();
        assert!(error.contains("cut short"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
