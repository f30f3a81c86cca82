//! Run-coded streams: the compact form of a table's values or distances, read in place
//! (from a file's mapping) one entry at a time. Beside [`super::file`] at the bottom of the
//! room: it knows symbols and bits, not positions.
//!
//! A stream codes one small symbol per entry, where most entries need none: an entry the
//! probe derives instead of reading ("don't care": a position not canonical, or one whose
//! side to move must capture, which one ply over the lower levels values) takes whatever
//! symbol costs nothing, the one of the run it falls in. What is left are runs of one
//! symbol, long in every level, and the stream stores the runs.
//!
//! The entries are cut into blocks of a power of two, and each block has a record of 16
//! bytes: its code itself where it fits in 127 bits, else where its code starts among the
//! longer blocks' bits. So most probes read one record, in one cache line, and decode a
//! handful of runs from it. A block's code is its first symbol, then for each run its
//! length (Exp-Golomb of order `k`) and the next run's symbol: for values a single bit
//! (the next run holds one of the two other values), for numbers (distances) the number
//! itself in Elias gamma. Each stream takes the block size and the order that trade its
//! length against the share of its entries in blocks too long for their record
//! ([`Planner`]). Bits are read least significant first.
//!
//! A stream is `alphabet (u8) | log2 of the block (u8) | order (u8) | 0 (u8) | blocks
//! (u64) | bytes of the long blocks' bits (u64) | records (16 bytes each) | those bits`,
//! little endian, padded to a multiple of 16 bytes. A record is a 128-bit word: bit 0
//! clear, the code in bits 1 to 127; or bit 0 set, the code's first bit in the long
//! blocks' bits above it. (A table file's header and a stream's head take 64 bytes, so
//! every record of a mapped file sits inside one 64-byte cache line.)

/// What a stream's symbols are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alphabet {
    /// 0, 1 or 2 (a loss, a draw or a win): a run's successor is one of the two others.
    Values = 0,
    /// 0 to 254 (a distance).
    Numbers = 1,
}

/// The symbol of an entry whose symbol is not read: any symbol will do.
pub const DONT_CARE: u8 = u8::MAX;

/// The bytes before a stream's records.
const HEAD_BYTES: usize = 4 + 8 + 8;
/// The bytes of a block's record.
const RECORD_BYTES: usize = 16;
/// The bits of code a record holds.
const INLINE_BITS: u64 = 127;
/// The bytes after the long blocks' bits, so that a 64-bit word can be read at any bit.
const PADDING: usize = 8;
/// The largest Exp-Golomb order tried.
const MOST_ORDER: u8 = 12;
/// The most runs a block of a stream may hold on average: decoding half of them costs
/// about what a read from memory does.
const MOST_RUNS: u64 = 24;
/// The block sizes tried, as powers of two.
const BLOCK_SIZES: std::ops::RangeInclusive<u8> = 6..=14;
/// What a second read is worth in bits an entry unless told otherwise (see
/// [`Planner::plan`]). At 4 the whole game's values take 928 MB and a search's probe on
/// the 11-man set costs 1.85 times the packed one's; at 2, 770 MB and twice
/// (docs/rules/egaraguti.md): the one weight measured that keeps both targets.
pub const READ_WEIGHT: f64 = 4.0;

/// Appends bits to a byte vector, least significant first.
struct BitWriter {
    bytes: Vec<u8>,
    /// Bits pending in `word`, below `used`.
    word: u64,
    used: u32,
    written: u64,
}

impl BitWriter {
    fn new() -> BitWriter {
        BitWriter {
            bytes: Vec::new(),
            word: 0,
            used: 0,
            written: 0,
        }
    }

    /// Writes the `count` low bits of `bits` (at most 32).
    fn write(&mut self, bits: u64, count: u32) {
        debug_assert!(count <= 32);
        self.word |= (bits & ((1u64 << count) - 1)) << self.used;
        self.used += count;
        self.written += u64::from(count);
        while self.used >= 8 {
            self.bytes.push(self.word as u8);
            self.word >>= 8;
            self.used -= 8;
        }
    }

    /// Elias gamma of `q` (at least 1): as many zeros as `q` has bits after its top one,
    /// a one, then those bits.
    fn gamma(&mut self, q: u64) {
        debug_assert!(q >= 1);
        let extra = 63 - q.leading_zeros();
        self.write(0, extra);
        self.write(1, 1);
        self.write(q, extra);
    }

    /// Exp-Golomb of order `k` of `n`.
    fn exp_golomb(&mut self, n: u64, k: u8) {
        self.gamma((n >> k) + 1);
        self.write(n, u32::from(k));
    }

    /// The bytes written, the last one filled with zeros.
    fn finish(mut self) -> Vec<u8> {
        if self.used > 0 {
            self.bytes.push(self.word as u8);
        }
        self.bytes
    }

    /// Appends the first `count` bits of `bytes`.
    fn append(&mut self, bytes: &[u8], mut count: u64) {
        for chunk in bytes.chunks(4) {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            let take = count.min(32) as u32;
            self.write(u64::from(u32::from_le_bytes(word)), take);
            count -= u64::from(take);
        }
    }
}

/// The bits of Exp-Golomb of order `k` of `n`.
fn exp_golomb_bits(n: u64, k: u8) -> u64 {
    let q = (n >> k) + 1;
    2 * u64::from(63 - q.leading_zeros()) + 1 + u64::from(k)
}

/// The runs of one block once its don't-care entries take the symbol of the run they fall
/// in (those before the first stored symbol take that symbol): `(symbol, length)`, the
/// fewest runs there can be.
fn block_runs(symbols: &[u8], runs: &mut Vec<(u8, u32)>) {
    runs.clear();
    let first = symbols.iter().copied().find(|&s| s != DONT_CARE);
    let mut current = first.unwrap_or(0);
    let mut length = 0u32;
    for &symbol in symbols {
        if symbol != DONT_CARE && symbol != current {
            runs.push((current, length));
            current = symbol;
            length = 0;
        }
        length += 1;
    }
    runs.push((current, length));
}

/// The bits of a block's code at each order, from its runs.
fn block_bits(alphabet: Alphabet, runs: &[(u8, u32)], bits: &mut [u64; MOST_ORDER as usize + 1]) {
    let symbols: u64 = match alphabet {
        Alphabet::Values => 2 + runs.len() as u64 - 1,
        Alphabet::Numbers => (runs.iter())
            .map(|&(symbol, _)| exp_golomb_bits(u64::from(symbol), 0))
            .sum(),
    };
    for (k, total) in bits.iter_mut().enumerate() {
        *total = symbols
            + (runs.iter())
                .map(|&(_, length)| exp_golomb_bits(u64::from(length) - 1, k as u8))
                .sum::<u64>();
    }
}

/// What one block size would cost, at each order.
#[derive(Clone, Copy, Default)]
struct Tally {
    blocks: u64,
    entries: u64,
    runs: u64,
    /// The bits of the long blocks' codes, and the entries in long blocks.
    long_bits: [u64; MOST_ORDER as usize + 1],
    long_entries: [u64; MOST_ORDER as usize + 1],
}

/// Chooses a stream's block size and order from all its symbols, fed in order: larger
/// blocks make a shorter stream (fewer records) but more of them too long for their
/// record, and a long block costs a probe a second read.
pub struct Planner {
    alphabet: Alphabet,
    tallies: Vec<Tally>,
    runs: Vec<(u8, u32)>,
}

impl Planner {
    pub fn new(alphabet: Alphabet) -> Planner {
        Planner {
            alphabet,
            tallies: vec![Tally::default(); BLOCK_SIZES.count()],
            runs: Vec::new(),
        }
    }

    /// The entries a chunk fed to [`Planner::add`] must hold (but the last): the largest
    /// block, so that every block size cuts it into whole blocks.
    pub const CHUNK: usize = 1 << *BLOCK_SIZES.end();

    /// Counts the next chunk of symbols.
    pub fn add(&mut self, symbols: &[u8]) {
        let mut bits = [0u64; MOST_ORDER as usize + 1];
        for (log2, tally) in BLOCK_SIZES.zip(&mut self.tallies) {
            for block in symbols.chunks(1 << log2) {
                block_runs(block, &mut self.runs);
                block_bits(self.alphabet, &self.runs, &mut bits);
                tally.blocks += 1;
                tally.entries += block.len() as u64;
                tally.runs += self.runs.len() as u64;
                for (k, &block_bits) in bits.iter().enumerate() {
                    if block_bits > INLINE_BITS {
                        tally.long_bits[k] += block_bits;
                        tally.long_entries[k] += block.len() as u64;
                    }
                }
            }
        }
    }

    /// The block size (as a power of two) and the order that make the least of the
    /// stream's bits an entry plus `weight` times the share of entries in long blocks,
    /// among the sizes whose blocks hold at most `MOST_RUNS` runs on average:
    /// `weight` is what a probe's second read is worth in bits an entry, so one weight
    /// for every stream of a set puts each at the same point of the trade between size
    /// and speed.
    pub fn plan(&self, weight: f64) -> (u8, u8) {
        let mut best: Option<(f64, u8, u8)> = None;
        for (log2, tally) in BLOCK_SIZES.zip(&self.tallies) {
            // A probe decodes half a block's runs on average: blocks of more runs than a
            // read's worth are not tried (but the smallest size always is).
            if tally.runs > MOST_RUNS * tally.blocks && log2 > *BLOCK_SIZES.start() {
                continue;
            }
            let entries = tally.entries.max(1) as f64;
            for k in 0..=MOST_ORDER {
                let bits = (tally.blocks * RECORD_BYTES as u64 * 8 + tally.long_bits[k as usize])
                    as f64
                    / entries;
                let long = tally.long_entries[k as usize] as f64 / entries;
                let cost = bits + weight * long;
                if best.is_none_or(|(c, ..)| cost < c) {
                    best = Some((cost, log2, k));
                }
            }
        }
        let (_, log2, k) = best.expect("sizes to try");
        (log2, k)
    }
}

/// Codes a stream block by block.
pub struct Encoder {
    alphabet: Alphabet,
    block_log2: u8,
    order: u8,
    records: Vec<u8>,
    long: BitWriter,
    runs: Vec<(u8, u32)>,
}

impl Encoder {
    pub fn new(alphabet: Alphabet, block_log2: u8, order: u8) -> Encoder {
        Encoder {
            alphabet,
            block_log2,
            order: order.min(MOST_ORDER),
            records: Vec::new(),
            long: BitWriter::new(),
            runs: Vec::new(),
        }
    }

    /// Codes the next block: one symbol an entry, [`DONT_CARE`] where the probe will not
    /// read it (only the last block may be short).
    pub fn add_block(&mut self, symbols: &[u8]) {
        debug_assert!(symbols.len() <= 1 << self.block_log2);
        block_runs(symbols, &mut self.runs);
        let mut code = BitWriter::new();
        let mut previous = None;
        for &(symbol, length) in &self.runs {
            match (self.alphabet, previous) {
                (Alphabet::Values, None) => code.write(u64::from(symbol), 2),
                (Alphabet::Values, Some(before)) => {
                    code.write(u64::from((symbol + 2 - before) % 3), 1)
                }
                (Alphabet::Numbers, _) => code.gamma(u64::from(symbol) + 1),
            }
            code.exp_golomb(u64::from(length) - 1, self.order);
            previous = Some(symbol);
        }
        let bits = code.written;
        let record: u128 = match bits <= INLINE_BITS {
            true => {
                let mut word = [0u8; RECORD_BYTES];
                let bytes = code.finish();
                word[..bytes.len()].copy_from_slice(&bytes);
                u128::from_le_bytes(word) << 1
            }
            false => {
                let at = u128::from(self.long.written);
                self.long.append(&code.finish(), bits);
                (at << 1) | 1
            }
        };
        self.records.extend_from_slice(&record.to_le_bytes());
    }

    /// The stream: head, records, long blocks' bits, padding.
    pub fn finish(self) -> Vec<u8> {
        let blocks = self.records.len() / RECORD_BYTES;
        let mut long = self.long.finish();
        long.extend_from_slice(&[0; PADDING]);
        let unaligned = HEAD_BYTES + self.records.len() + long.len();
        long.resize(
            long.len() + unaligned.next_multiple_of(RECORD_BYTES) - unaligned,
            0,
        );
        let mut stream = Vec::with_capacity(HEAD_BYTES + self.records.len() + long.len());
        stream.extend_from_slice(&[self.alphabet as u8, self.block_log2, self.order, 0]);
        stream.extend_from_slice(&(blocks as u64).to_le_bytes());
        stream.extend_from_slice(&(long.len() as u64).to_le_bytes());
        stream.extend_from_slice(&self.records);
        stream.extend_from_slice(&long);
        stream
    }
}

/// Codes `symbols` (one per entry) as a stream at the block size and order that
/// [`Planner`] chooses.
pub fn encode(alphabet: Alphabet, symbols: &[u8]) -> Vec<u8> {
    let mut planner = Planner::new(alphabet);
    symbols
        .chunks(Planner::CHUNK)
        .for_each(|chunk| planner.add(chunk));
    let (block_log2, order) = planner.plan(READ_WEIGHT);
    let mut encoder = Encoder::new(alphabet, block_log2, order);
    for block in symbols.chunks(1 << block_log2) {
        encoder.add_block(block);
    }
    encoder.finish()
}

/// Where a stream's parts lie in its bytes, and how it is coded: what a probe needs
/// without parsing the head again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    alphabet: Alphabet,
    block_log2: u8,
    order: u8,
    /// The start of the records, and of the long blocks' bits.
    records: usize,
    long: usize,
    /// The stream's whole length in bytes.
    pub len: usize,
}

impl Layout {
    /// The layout of the stream at the start of `bytes`, which must hold the symbols of
    /// `entries` entries; an error (why, in a few words) when it cannot.
    pub fn read(bytes: &[u8], entries: u64) -> Result<Layout, &'static str> {
        if bytes.len() < HEAD_BYTES {
            return Err("a stream cut short");
        }
        let alphabet = match bytes[0] {
            0 => Alphabet::Values,
            1 => Alphabet::Numbers,
            _ => return Err("a stream of an unknown kind"),
        };
        let (block_log2, order) = (bytes[1], bytes[2]);
        let long = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        let (blocks, long_bytes) = (long(4), long(12));
        if !BLOCK_SIZES.contains(&block_log2)
            || order > MOST_ORDER
            || blocks != entries.div_ceil(1 << block_log2)
        {
            return Err("a stream of the wrong shape");
        }
        let records = HEAD_BYTES;
        let long_start = (records as u64).saturating_add(blocks.saturating_mul(16));
        let len = long_start.saturating_add(long_bytes);
        if long_bytes < PADDING as u64 || len > bytes.len() as u64 {
            return Err("a stream cut short");
        }
        Ok(Layout {
            alphabet,
            block_log2,
            order,
            records,
            long: long_start as usize,
            len: len as usize,
        })
    }

    /// The symbol of entry `index` of the stream `stream` (whose layout this is). A
    /// damaged stream gives a wrong symbol, never a panic or an endless loop.
    #[inline]
    pub fn symbol(&self, stream: &[u8], index: u64) -> u8 {
        let at = self.records + RECORD_BYTES * (index >> self.block_log2) as usize;
        let Some(record) = stream.get(at..at + RECORD_BYTES) else {
            return 0;
        };
        let record = u128::from_le_bytes(record.try_into().unwrap());
        let target = index & ((1u64 << self.block_log2) - 1);
        match record & 1 {
            // Most blocks: the code in the record itself, read in registers.
            0 => self.decode(InlineBits(record >> 1), target),
            _ => self.decode(
                BitReader {
                    bits: &stream[self.long.min(stream.len())..],
                    at: (record >> 1).min(u128::from(u64::MAX)) as u64,
                },
                target,
            ),
        }
    }

    /// The symbol of entry `target` of a block whose code `bits` reads.
    #[inline]
    fn decode(&self, mut bits: impl Bits, target: u64) -> u8 {
        let mut start = 0u64;
        match self.alphabet {
            Alphabet::Values => {
                let mut symbol = bits.read(2) as u8;
                if let Some(found) =
                    bits.values_in_word(self.order, target, &mut symbol, &mut start)
                {
                    return found;
                }
                loop {
                    // A run's length and the bit that names the next run's value, in one.
                    let (length, other) = bits.run(self.order, 1);
                    start = start.saturating_add(length);
                    if target < start {
                        return symbol;
                    }
                    symbol = (symbol % 3 + 1 + other as u8) % 3;
                }
            }
            Alphabet::Numbers => {
                let mut symbol = bits.gamma().saturating_sub(1).min(254) as u8;
                loop {
                    start = start.saturating_add(bits.run(self.order, 0).0);
                    if target < start {
                        return symbol;
                    }
                    symbol = bits.gamma().saturating_sub(1).min(254) as u8;
                }
            }
        }
    }
}

/// A source of bits, least significant first; past the end, zeros. A gamma code past the
/// end (or in a damaged stream) reads as a huge number, which ends a block's decoding at
/// once.
trait Bits {
    /// The next `count` bits (at most 32).
    fn read(&mut self, count: u32) -> u64;

    /// An Elias gamma code.
    fn gamma(&mut self) -> u64;

    #[inline]
    fn exp_golomb(&mut self, k: u8) -> u64 {
        let high = self.gamma() - 1;
        high.saturating_mul(1 << k) | self.read(u32::from(k))
    }

    /// A run's length (an Exp-Golomb code of order `k`, plus one) and the `tail` bits after
    /// it (at most one).
    #[inline]
    fn run(&mut self, k: u8, tail: u32) -> (u64, u64) {
        let length = self.exp_golomb(k).saturating_add(1);
        (length, self.read(tail))
    }

    /// Decodes the runs of values (of order `k`) that lie whole in the next 64 bits, from
    /// `symbol`'s run starting at entry `start`: the symbol of entry `target` if it is
    /// found among them, else `None` with `symbol` and `start` where the runs stopped and
    /// the bits consumed up to there. A fast path where a source has one; none by default.
    #[inline]
    fn values_in_word(
        &mut self,
        _k: u8,
        _target: u64,
        _symbol: &mut u8,
        _start: &mut u64,
    ) -> Option<u8> {
        None
    }
}

/// The bits of a record's code.
struct InlineBits(u128);

impl Bits for InlineBits {
    #[inline]
    fn read(&mut self, count: u32) -> u64 {
        let bits = self.0 as u64 & ((1u64 << count) - 1);
        self.0 >>= count;
        bits
    }

    #[inline]
    fn gamma(&mut self) -> u64 {
        let extra = self.0.trailing_zeros();
        if extra > 28 {
            self.0 = 0;
            return u64::MAX >> 1;
        }
        self.0 >>= extra + 1;
        (1 << extra) | self.read(extra)
    }

    /// The runs in the code's low word decoded with 64-bit operations alone, each run a
    /// count of zeros and one shift: the decode of a block is a chain of runs, each waiting
    /// on the one before, and a 128-bit shift or count costs several steps of it.
    #[inline]
    fn values_in_word(
        &mut self,
        k: u8,
        target: u64,
        symbol: &mut u8,
        start: &mut u64,
    ) -> Option<u8> {
        let k = u32::from(k);
        let (mut word, mut used) = (self.0 as u64, 0u32);
        loop {
            let extra = word.trailing_zeros();
            // The run's zeros, its length's bits and the next value's bit.
            let bits = 2 * extra + k + 2;
            if used + bits >= 64 {
                break;
            }
            let body = word >> (extra + 1);
            let high = ((1 << extra) | (body & ((1 << extra) - 1))) - 1;
            let rest = body >> extra;
            *start += (high << k | (rest & ((1 << k) - 1))) + 1;
            if target < *start {
                return Some(*symbol);
            }
            *symbol = (*symbol % 3 + 1 + ((rest >> k) & 1) as u8) % 3;
            word >>= bits;
            used += bits;
        }
        self.0 >>= used;
        None
    }

    /// [`Bits::run`] in one shift of the code: the length's bits and the tail lie in the
    /// low 64 bits once its leading zeros are passed (at most 28 + 12 + 1 of them), and the
    /// decode of a block is a chain of these, each waiting on the one before.
    #[inline]
    fn run(&mut self, k: u8, tail: u32) -> (u64, u64) {
        let extra = self.0.trailing_zeros();
        if extra > 28 {
            self.0 = 0;
            return (u64::MAX, 0);
        }
        let body = (self.0 >> (extra + 1)) as u64;
        let high = ((1 << extra) | (body & ((1 << extra) - 1))) - 1;
        let rest = body >> extra;
        let length = (high << k | (rest & ((1 << k) - 1))) + 1;
        self.0 >>= 2 * extra + 1 + u32::from(k) + tail;
        (length, (rest >> k) & ((1 << tail) - 1))
    }
}

/// Reads a long block's bits from the stream.
struct BitReader<'a> {
    bits: &'a [u8],
    at: u64,
}

impl BitReader<'_> {
    /// The next 57 bits or more, not consumed.
    #[inline]
    fn peek(&self) -> u64 {
        let byte = (self.at >> 3) as usize;
        match self.bits.get(byte..byte.saturating_add(8)) {
            Some(word) => u64::from_le_bytes(word.try_into().unwrap()) >> (self.at & 7),
            None => 0,
        }
    }
}

impl Bits for BitReader<'_> {
    #[inline]
    fn read(&mut self, count: u32) -> u64 {
        let bits = self.peek() & ((1u64 << count) - 1);
        self.at += u64::from(count);
        bits
    }

    #[inline]
    fn gamma(&mut self) -> u64 {
        let extra = self.peek().trailing_zeros();
        if extra > 28 {
            self.at += 64;
            return u64::MAX >> 1;
        }
        self.at += u64::from(extra) + 1;
        (1 << extra) | self.read(extra)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Symbols in runs of random lengths, with a share of don't-care entries.
    fn symbols(seed: u64, count: usize, alphabet: Alphabet, dont_care: u32) -> Vec<u8> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let most = match alphabet {
            Alphabet::Values => 3,
            Alphabet::Numbers => 60,
        };
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            let symbol = rng.u8(0..most);
            for _ in 0..rng.usize(1..200) {
                out.push(match rng.u32(0..100) < dont_care {
                    true => DONT_CARE,
                    false => symbol,
                });
            }
        }
        out.truncate(count);
        out
    }

    /// Whether `entry` takes the symbol read: its own, or any where it is not read.
    fn accepts(entry: u8, symbol: u8) -> bool {
        entry == DONT_CARE || entry == symbol
    }

    #[test]
    fn every_stored_symbol_comes_back() {
        for (seed, alphabet, dont_care, block_log2) in [
            (1, Alphabet::Values, 0, 10),
            (2, Alphabet::Values, 85, 8),
            (3, Alphabet::Numbers, 50, 12),
            (4, Alphabet::Values, 100, 6),
            (5, Alphabet::Numbers, 0, 14),
        ] {
            for count in [0, 1, 1000, 50_001] {
                let symbols = symbols(seed, count, alphabet, dont_care);
                let stream = encode(alphabet, &symbols);
                let layout = Layout::read(&stream, count as u64).unwrap();
                assert_eq!(layout.len, stream.len());
                assert_eq!(stream.len() % RECORD_BYTES, 0);
                for (index, &entry) in symbols.iter().enumerate() {
                    let read = layout.symbol(&stream, index as u64);
                    assert!(accepts(entry, read), "{index}: {entry} {read}");
                }
                // Every block size and order reads back alike, long blocks or not, the
                // runs in a record's low word and across it.
                for order in [0, 1, 5, MOST_ORDER] {
                    let mut encoder = Encoder::new(alphabet, block_log2, order);
                    symbols
                        .chunks(1 << block_log2)
                        .for_each(|b| encoder.add_block(b));
                    let fixed = encoder.finish();
                    let fixed_layout = Layout::read(&fixed, count as u64).unwrap();
                    for (index, &entry) in symbols.iter().enumerate() {
                        let again = fixed_layout.symbol(&fixed, index as u64);
                        assert!(accepts(entry, again), "{order} {index}: {entry} {again}");
                    }
                }
            }
        }
    }

    #[test]
    fn long_runs_cost_little_and_dont_care_entries_cost_nothing() {
        // A million entries in runs of about a hundred, 85% of them not stored: a small
        // fraction of a bit an entry (the packed form takes two).
        let symbols = symbols(7, 1_000_000, Alphabet::Values, 85);
        let stream = encode(Alphabet::Values, &symbols);
        let bits_an_entry = stream.len() as f64 * 8.0 / symbols.len() as f64;
        assert!(bits_an_entry < 0.15, "{bits_an_entry}");
        // Every entry not stored: one run a block.
        let none = vec![DONT_CARE; 1 << 20];
        let stream = encode(Alphabet::Values, &none);
        assert!(stream.len() < 2 * 1024, "{}", stream.len());
    }

    #[test]
    fn a_damaged_stream_gives_wrong_symbols_but_no_panic() {
        let symbols = symbols(9, 20_000, Alphabet::Numbers, 30);
        let good = encode(Alphabet::Numbers, &symbols);
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..200 {
            let mut stream = good.clone();
            for _ in 0..rng.usize(1..20) {
                let at = rng.usize(HEAD_BYTES..stream.len());
                stream[at] = rng.u8(..);
            }
            let layout = Layout::read(&stream, symbols.len() as u64).unwrap();
            for index in (0..symbols.len() as u64).step_by(97) {
                let _ = layout.symbol(&stream, index);
                let _ = layout.symbol(&stream[..stream.len() / 2], index);
            }
        }
        assert_eq!(
            Layout::read(&good[..HEAD_BYTES + 3], symbols.len() as u64),
            Err("a stream cut short")
        );
        assert_eq!(
            Layout::read(&good, symbols.len() as u64 + 1_000),
            Err("a stream of the wrong shape")
        );
    }
}
