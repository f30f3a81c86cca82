//! The one module allowed `unsafe`: what the engine asks of the operating system's memory
//! beyond what safe Rust offers: the huge-page advice for the transposition table, the
//! filling of a large table on several threads at once, and the read-only mapping of a
//! file (Egara-guti's tables). Every `unsafe` block carries its safety argument.
#![allow(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

/// The smallest page on the systems ternion runs on; `madvise` takes whole pages.
const PAGE: usize = 4096;

/// Offers the whole pages inside `memory` to the kernel for transparent huge pages
/// (Linux's `MADV_HUGEPAGE`), before the memory is first touched: a table probed at random
/// then stops missing the address-translation cache on nearly every probe. A hint only:
/// where the kernel declines (or on another system) nothing changes, and no error is
/// reported, since the memory works the same either way.
pub fn advise_huge_pages<T>(memory: &mut [std::mem::MaybeUninit<T>]) {
    let start = memory.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(memory);
    let first = start.next_multiple_of(PAGE);
    let last = end & !(PAGE - 1);
    if last <= first {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::mm::{Advice, madvise};
        // SAFETY: [first, last) lies inside `memory`, which the caller lends mutably, so
        // no other reference reads or writes it during the call; the range is page-aligned
        // as madvise requires. MADV_HUGEPAGE changes only how the kernel backs the pages,
        // never their contents, so whatever the memory holds (here nothing yet) stays.
        let advised = unsafe { madvise(first as *mut _, last - first, Advice::LinuxHugepage) };
        // A kernel without transparent huge pages says EINVAL: the table works without.
        if let Err(error) = advised {
            log::debug!("no huge pages for the table: {error}");
        }
    }
}

/// `count` values made by `make`, in memory offered for huge pages first, written by
/// `threads` threads at once (Stockfish clears its table so): the first touch of each page
/// costs the kernel its zeroing, and for a table of gigabytes that is seconds, shared.
pub fn filled<T: Send>(count: usize, threads: usize, make: impl Fn() -> T + Sync) -> Vec<T> {
    let mut values = Vec::with_capacity(count);
    advise_huge_pages(values.spare_capacity_mut());
    let spare = &mut values.spare_capacity_mut()[..count];
    let fill = |part: &mut [std::mem::MaybeUninit<T>]| {
        for slot in part {
            slot.write(make());
        }
    };
    if threads <= 1 {
        // On this thread: where there are no others (the web build), and for no cost.
        fill(spare);
    } else {
        let chunk = count.div_ceil(threads).max(1);
        std::thread::scope(|scope| {
            for part in spare.chunks_mut(chunk) {
                let fill = &fill;
                scope.spawn(move || fill(part));
            }
        });
    }
    // SAFETY: every element of the first `count` of the capacity was written, on this
    // thread or on the threads of the scope, which had all ended when `thread::scope`
    // returned (the chunks of `spare` cover it whole); a panic (in `make`, or a thread's,
    // which makes the scope panic) leaves before this line, with the length still 0.
    unsafe { values.set_len(count) };
    values
}

/// A file mapped read-only into memory: its bytes are the kernel's page cache, read on
/// demand and shared by every process that maps the same file, so a set of tables of
/// gigabytes is ready at once and held once on the machine however many engines use it.
///
/// The mapping shows the file as it is on disk. It stays valid as long as the file is not
/// cut shorter in place: a file replaced by a rename (how the tables' build writes them)
/// leaves the mapped one whole until it is unmapped, but a file truncated while mapped makes
/// the next read of the lost pages fail with SIGBUS. The tables are written once, under a
/// temporary name renamed when whole, and never changed after: the docs say not to change
/// a set in place while an engine uses it.
#[cfg(unix)]
pub struct MappedFile {
    /// The mapping's first byte (dangling, never read, for an empty file).
    start: std::ptr::NonNull<u8>,
    len: usize,
}

// SAFETY: the mapping is read-only (PROT_READ) for its whole life and owned by this value
// alone, which hands out only shared slices of it: reading it from several threads at once
// is reading immutable memory, and moving it to another thread moves only the pointer.
#[cfg(unix)]
unsafe impl Send for MappedFile {}
// SAFETY: as for Send: no thread can write through a read-only mapping.
#[cfg(unix)]
unsafe impl Sync for MappedFile {}

#[cfg(unix)]
impl MappedFile {
    /// Maps the whole of `file`, as long as it is now, read-only.
    pub fn map(file: &std::fs::File) -> std::io::Result<MappedFile> {
        let len = usize::try_from(file.metadata()?.len())
            .map_err(|_| std::io::Error::other("a file larger than the address space"))?;
        if len == 0 {
            // mmap refuses an empty range: an empty file is an empty slice.
            return Ok(MappedFile {
                start: std::ptr::NonNull::dangling(),
                len: 0,
            });
        }
        use rustix::mm::{MapFlags, ProtFlags, mmap};
        // SAFETY: a null hint lets the kernel choose where the mapping goes, so it replaces
        // nothing of this process; the range is `len` bytes from offset 0, the file's length
        // now, opened by the caller (for reading: a shared read-only mapping needs no more).
        // The pointer it returns is owned by this value and unmapped once, on drop.
        let start = unsafe {
            mmap(
                std::ptr::null_mut(),
                len,
                ProtFlags::READ,
                MapFlags::SHARED,
                file,
                0,
            )
        }?;
        let start = std::ptr::NonNull::new(start.cast::<u8>())
            .ok_or_else(|| std::io::Error::other("a mapping at address 0"))?;
        Ok(MappedFile { start, len })
    }

    /// The file's bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `start` is the first of `len` readable bytes, mapped until this value
        // drops (which the slice's lifetime, tied to `self`, cannot outlive), and never
        // written while mapped (read-only); for an empty file it is a dangling, aligned
        // pointer with length 0, which a slice allows.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

#[cfg(unix)]
impl Drop for MappedFile {
    fn drop(&mut self) {
        if self.len > 0 {
            // SAFETY: the range is exactly the one mmap returned, still mapped (unmapped
            // only here, once), and no slice of it lives on: they borrow `self`.
            let _ = unsafe { rustix::mm::munmap(self.start.as_ptr().cast(), self.len) };
        }
    }
}

/// Where the file cannot be mapped (not Unix), its bytes read whole into memory: the same
/// bytes, held once per process rather than once per machine.
#[cfg(not(unix))]
pub struct MappedFile {
    bytes: Box<[u8]>,
}

#[cfg(not(unix))]
impl MappedFile {
    /// Reads the whole of `file`, as long as it is now.
    pub fn map(file: &std::fs::File) -> std::io::Result<MappedFile> {
        use std::io::Read;
        let mut bytes = Vec::new();
        (&*file).read_to_end(&mut bytes)?;
        Ok(MappedFile {
            bytes: bytes.into_boxed_slice(),
        })
    }

    /// The file's bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

impl std::fmt::Debug for MappedFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MappedFile({} bytes)", self.bytes().len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapped_file_reads_as_its_bytes() {
        let dir = std::env::temp_dir().join(format!("ternion-map-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for len in [0usize, 1, 4095, 4096, 10_000] {
            let path = dir.join(format!("file-{len}"));
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            std::fs::write(&path, &bytes).unwrap();
            let mapped = MappedFile::map(&std::fs::File::open(&path).unwrap()).unwrap();
            // Replaced by a rename, as the tables' build writes: the mapping keeps the old.
            std::fs::write(dir.join("next"), b"other").unwrap();
            std::fs::rename(dir.join("next"), &path).unwrap();
            let shared = std::sync::Arc::new(mapped);
            let reader = std::sync::Arc::clone(&shared);
            let read = std::thread::spawn(move || reader.bytes().to_vec())
                .join()
                .unwrap();
            assert_eq!(read, bytes, "{len} bytes");
            assert_eq!(shared.bytes(), &bytes[..]);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_table_filled_on_several_threads_is_filled_whole() {
        for (count, threads) in [(0, 1), (1, 4), (1000, 1), (1000, 3), (4097, 7), (5, 16)] {
            let values = filled(count, threads, || 7u32);
            assert_eq!(values.len(), count);
            assert!(values.iter().all(|&v| v == 7), "{count} on {threads}");
        }
    }

    #[test]
    fn advice_on_any_range_is_harmless() {
        for count in [0, 1, 100, 1 << 20] {
            let mut words: Vec<u64> = Vec::with_capacity(count);
            advise_huge_pages(words.spare_capacity_mut());
            words.resize(count, 7);
            assert!(words.iter().all(|&word| word == 7));
        }
    }
}
