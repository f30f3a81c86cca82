//! The one module allowed `unsafe`: what the engine asks of the operating system's memory
//! beyond what safe Rust offers. Today that is the huge-page advice for the transposition
//! table and the filling of a large table on several threads at once; the read-only file
//! mappings of tables and networks belong here too. Every `unsafe` block carries its
//! safety argument.
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
    let chunk = count.div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        for part in spare.chunks_mut(chunk) {
            let make = &make;
            scope.spawn(move || {
                for slot in part {
                    slot.write(make());
                }
            });
        }
    });
    // SAFETY: `thread::scope` returned, so every thread it started has ended, and together
    // they wrote every element of the first `count` of the capacity (the chunks of
    // `spare` cover it whole); a thread that panicked would have made the scope panic
    // before this line, leaving the length at 0.
    unsafe { values.set_len(count) };
    values
}

#[cfg(test)]
mod tests {
    use super::*;

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
