//! One material pair's table: for every entry of the pair's index, the value for the side to
//! move at a 40-ply counter of 0 (win, draw, loss, or none for an entry that is not
//! canonical), in two bits, and optionally the distance: the plies the result needs before
//! the level is left (a capture or a blocked side), which says whether the value still
//! holds at a higher counter. Above the file ([`super::file`]), below the set of tables.
//!
//! A table is either read into memory, its header and checksum checked (what the build and
//! `verify` do), or mapped (`core::memory::MappedFile`), its header and length checked: the
//! values and distances are then the page cache's, ready at once and shared by every
//! process on the machine, and the checksum is left to the build and `verify`, which read
//! every byte anyway.

use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;

use super::file::Form;
use super::file::{self, Fnv, HEADER_BYTES, Header};
use super::index::Material;
use super::runs;
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

/// The two bits of an entry that is not canonical.
const NONE: u8 = 3;

/// One material pair's values, and its distances when they were kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    material: Material,
    entries: u64,
    form: Stored,
}

/// How a table holds its entries: the file's two forms.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Stored {
    Packed {
        /// Four entries a byte, the lowest bits first.
        packed: Bytes,
        /// A byte an entry, where kept.
        distances: Option<Bytes>,
    },
    /// Run-coded streams, which hold only the entries a probe reads.
    Compact {
        values: Coded,
        distances: Option<Coded>,
    },
}

/// A run-coded stream and where its parts lie.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Coded {
    layout: runs::Layout,
    bytes: Bytes,
}

impl Coded {
    #[inline]
    fn symbol(&self, index: u64) -> u8 {
        self.layout.symbol(self.bytes.get(), index)
    }
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
            form: Stored::Packed {
                packed: Bytes::Owned(vec![NONE * 0x55; entries.div_ceil(4) as usize]),
                distances: with_distances.then(|| Bytes::Owned(vec![0; entries as usize])),
            },
        }
    }

    /// The compact form of a table of `entries` entries from its run-coded streams
    /// ([`runs::encode`]); an error when a stream is not one of that many entries.
    pub fn compact(
        material: Material,
        entries: u64,
        values: Vec<u8>,
        distances: Option<Vec<u8>>,
    ) -> Result<Table, String> {
        let coded = |bytes: Vec<u8>| -> Result<Coded, String> {
            let layout = runs::Layout::read(&bytes, entries).map_err(str::to_string)?;
            Ok(Coded {
                layout,
                bytes: Bytes::Owned(bytes),
            })
        };
        Ok(Table {
            material,
            entries,
            form: Stored::Compact {
                values: coded(values)?,
                distances: distances.map(coded).transpose()?,
            },
        })
    }

    pub fn material(&self) -> Material {
        self.material
    }

    pub fn entries(&self) -> u64 {
        self.entries
    }

    pub fn has_distances(&self) -> bool {
        match &self.form {
            Stored::Packed { distances, .. } => distances.is_some(),
            Stored::Compact { distances, .. } => distances.is_some(),
        }
    }

    /// Whether the table is its file's mapping rather than bytes read into memory.
    pub fn is_mapped(&self) -> bool {
        match &self.form {
            Stored::Packed { packed, .. } => matches!(packed, Bytes::Mapped { .. }),
            Stored::Compact { values, .. } => matches!(values.bytes, Bytes::Mapped { .. }),
        }
    }

    /// Whether the table is in the compact form, which stores only the entries whose
    /// position has no capture: the set values the others from the lower levels.
    pub fn is_compact(&self) -> bool {
        matches!(self.form, Stored::Compact { .. })
    }

    /// Sets entry `index` of a packed table (distances are kept only if the table has
    /// them); a mapped table is copied into memory first. A compact table is made whole
    /// by [`Table::compact`] and never changes.
    pub fn set(&mut self, index: u64, value: Wdl, distance: u8) {
        let Stored::Packed { packed, distances } = &mut self.form else {
            panic!("a compact table is never changed");
        };
        let (byte, shift) = ((index / 4) as usize, (index % 4) * 2);
        let packed = packed.make_mut();
        packed[byte] = (packed[byte] & !(3 << shift)) | ((value as u8) << shift);
        if let Some(distances) = distances {
            distances.make_mut()[index as usize] = distance;
        }
    }

    /// The value at entry `index`. Packed: `None` for an entry that is not canonical. A
    /// compact table answers for every entry, but only the value of a canonical entry whose
    /// position has no capture is its own (the others' are whatever coded shortest).
    #[inline]
    pub fn value_at(&self, index: u64) -> Option<Wdl> {
        match &self.form {
            Stored::Packed { packed, .. } => {
                let bits = (packed.get()[(index / 4) as usize] >> ((index % 4) * 2)) & 3;
                wdl_from_bits(bits)
            }
            // A damaged stream may give a symbol beyond the values: read as a draw, never
            // a panic (`tables compare` checks every position).
            Stored::Compact { values, .. } => {
                Some(wdl_from_bits(values.symbol(index).min(2)).unwrap_or(Wdl::Draw))
            }
        }
    }

    /// The distance at entry `index`, if the table keeps distances (in a compact table,
    /// only that of an entry whose value is not the men count's verdict and whose position
    /// has no capture is its own).
    #[inline]
    pub fn distance_at(&self, index: u64) -> Option<u8> {
        match &self.form {
            Stored::Packed { distances, .. } => distances
                .as_ref()
                .map(|distances| distances.get()[index as usize]),
            Stored::Compact { distances, .. } => {
                distances.as_ref().map(|distances| distances.symbol(index))
            }
        }
    }

    /// Writes the table into `dir` under its file name, whole or not at all.
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        let (form, values, distances) = match &self.form {
            Stored::Packed { packed, distances } => (
                Form::Packed,
                packed.get(),
                distances.as_ref().map(Bytes::get),
            ),
            Stored::Compact { values, distances } => (
                Form::Compact,
                values.bytes.get(),
                distances.as_ref().map(|coded| coded.bytes.get()),
            ),
        };
        file::write(dir, self.material, self.entries, form, values, distances)
    }

    /// The bytes the table's values and distances take.
    pub fn sizes(&self) -> (usize, usize) {
        match &self.form {
            Stored::Packed { packed, distances } => (
                packed.get().len(),
                distances.as_ref().map_or(0, |d| d.get().len()),
            ),
            Stored::Compact { values, distances } => (
                values.bytes.get().len(),
                distances.as_ref().map_or(0, |d| d.bytes.get().len()),
            ),
        }
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
        let path = file::path(dir, material);
        let cannot = |e: io::Error| file::cannot_read(&path, e);
        let Some(file) = file::open(&path)? else {
            return Ok(None);
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
        let form = match header.form {
            Form::Packed => Stored::Packed {
                packed: part(HEADER_BYTES, header.packed_len),
                distances: header
                    .with_distances
                    .then(|| part(HEADER_BYTES + header.packed_len, header.entries as usize)),
            },
            Form::Compact => {
                // The streams one after the other, filling the file exactly.
                let mut start = HEADER_BYTES;
                let mut stream = || -> Result<Coded, String> {
                    let layout = runs::Layout::read(&bytes[start..], header.entries)
                        .map_err(|why| header.bad(why))?;
                    let coded = Coded {
                        layout,
                        bytes: part(start, layout.len),
                    };
                    start += layout.len;
                    Ok(coded)
                };
                let values = stream()?;
                let distances = header.with_distances.then(&mut stream).transpose()?;
                if start != bytes.len() {
                    return Err(header.bad("cut short or too long"));
                }
                Stored::Compact { values, distances }
            }
        };
        Ok(Some(Table {
            material,
            entries: header.entries,
            form,
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
        let path = file::path(dir, material);
        let cannot = |e: io::Error| file::cannot_read(&path, e);
        let Some(mut file) = file::open(&path)? else {
            return Ok(None);
        };
        let length = file.metadata().map_err(cannot)?.len();
        let mut head = vec![0u8; HEADER_BYTES.min(length as usize)];
        file.read_exact(&mut head).map_err(cannot)?;
        let header = Header::read(&path, material, &head, length)?;
        if header.form == Form::Compact {
            return Err(header.bad(
                "it is compact, for probes only: the build and verify read the packed tables",
            ));
        }
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
                file::read_in_chunks(&mut file, |chunk| hash.write(chunk)).map_err(cannot)?;
                None
            }
        };
        if hash.0 != header.checksum {
            return Err(header.bad("the checksum does not match"));
        }
        Ok(Some(Table {
            material,
            entries: header.entries,
            form: Stored::Packed {
                packed: Bytes::Owned(packed),
                distances,
            },
        }))
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::super::index::INDEXER;
    use super::*;

    #[test]
    fn a_table_survives_the_disk_and_a_damaged_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("ternion-table-{}", std::process::id()));
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

        let path = file::path(&dir, material);
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
