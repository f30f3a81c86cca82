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
//! The entries are cut into blocks of a fixed power of two; each block starts at a bit
//! offset kept in a table of 32-bit offsets, so a probe decodes one block from its start,
//! never more. A block is its first symbol, then for each run its length (Exp-Golomb of
//! order `k`, the order that makes the level's stream shortest) and the next run's symbol:
//! for values a single bit (the next run holds one of the two other values), for numbers
//! (distances) the number itself in Elias gamma. Bits are read least significant first
//! from unaligned 64-bit words, and the stream ends in eight bytes of padding so that a
//! word can always be read whole.
//!
//! A stream is `alphabet (u8) | log2 of the block (u8) | order (u8) | 0 (u8) | blocks
//! (u64) | bytes of bits (u64) | offsets (u32 each) | bits`, little endian.

/// What a stream's symbols are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alphabet {
    /// 0, 1 or 2 (a loss, a draw or a win): a run's successor is one of the two others.
    Values = 0,
    /// 0 to 255 (a distance).
    Numbers = 1,
}

/// The symbol of an entry whose symbol is not stored (no number is ever this large).
pub const DONT_CARE: u8 = u8::MAX;

/// The bytes before a stream's offsets.
const HEAD_BYTES: usize = 4 + 8 + 8;
/// The bytes after a stream's bits, so that a 64-bit word can be read at any bit.
const PADDING: usize = 8;
/// The largest Exp-Golomb order tried.
const MOST_ORDER: u8 = 12;

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

    fn finish(mut self) -> Vec<u8> {
        if self.used > 0 {
            self.bytes.push(self.word as u8);
        }
        self.bytes.extend_from_slice(&[0; PADDING]);
        self.bytes
    }
}

/// The bits of Exp-Golomb of order `k` of `n`.
fn exp_golomb_bits(n: u64, k: u8) -> u64 {
    let q = (n >> k) + 1;
    2 * u64::from(63 - q.leading_zeros()) + 1 + u64::from(k)
}

/// The runs of one block once its don't-care entries take the symbol of the run they fall
/// in (those before the first stored symbol take that symbol): `(symbol, length)`.
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

/// Chooses a stream's Exp-Golomb order from its blocks: the one that makes the run lengths
/// shortest.
pub struct OrderChooser {
    block_log2: u8,
    /// The bits of the run lengths at each order.
    cost: [u64; MOST_ORDER as usize + 1],
    runs: Vec<(u8, u32)>,
}

impl OrderChooser {
    pub fn new(block_log2: u8) -> OrderChooser {
        OrderChooser {
            block_log2,
            cost: [0; MOST_ORDER as usize + 1],
            runs: Vec::new(),
        }
    }

    /// Counts one block (the last may be short).
    pub fn add_block(&mut self, symbols: &[u8]) {
        debug_assert!(symbols.len() <= 1 << self.block_log2);
        block_runs(symbols, &mut self.runs);
        for &(_, length) in &self.runs {
            for (k, total) in self.cost.iter_mut().enumerate() {
                *total += exp_golomb_bits(u64::from(length) - 1, k as u8);
            }
        }
    }

    pub fn best(&self) -> u8 {
        (0..=MOST_ORDER)
            .min_by_key(|&k| self.cost[k as usize])
            .expect("orders to try")
    }
}

/// Codes a stream block by block.
pub struct Encoder {
    alphabet: Alphabet,
    block_log2: u8,
    order: u8,
    offsets: Vec<u32>,
    bits: BitWriter,
    runs: Vec<(u8, u32)>,
}

impl Encoder {
    pub fn new(alphabet: Alphabet, block_log2: u8, order: u8) -> Encoder {
        Encoder {
            alphabet,
            block_log2,
            order: order.min(MOST_ORDER),
            offsets: Vec::new(),
            bits: BitWriter::new(),
            runs: Vec::new(),
        }
    }

    /// Codes the next block: one symbol an entry, [`DONT_CARE`] where the probe will not
    /// read it (only the last block may be short). An error when the stream grows too
    /// long for its 32-bit offsets (4 Gib).
    pub fn add_block(&mut self, symbols: &[u8]) -> Result<(), String> {
        debug_assert!(symbols.len() <= 1 << self.block_log2);
        let offset = u32::try_from(self.bits.written)
            .map_err(|_| "a table's stream is too long for its 32-bit offsets".to_string())?;
        self.offsets.push(offset);
        block_runs(symbols, &mut self.runs);
        let mut previous = None;
        for &(symbol, length) in &self.runs {
            match (self.alphabet, previous) {
                (Alphabet::Values, None) => self.bits.write(u64::from(symbol), 2),
                (Alphabet::Values, Some(before)) => {
                    self.bits.write(u64::from((symbol + 2 - before) % 3), 1)
                }
                (Alphabet::Numbers, _) => self.bits.gamma(u64::from(symbol) + 1),
            }
            self.bits.exp_golomb(u64::from(length) - 1, self.order);
            previous = Some(symbol);
        }
        Ok(())
    }

    /// The stream: head, offsets, bits.
    pub fn finish(self) -> Vec<u8> {
        let blocks = self.offsets.len();
        let bits = self.bits.finish();
        let mut stream = Vec::with_capacity(HEAD_BYTES + 4 * blocks + bits.len());
        stream.extend_from_slice(&[self.alphabet as u8, self.block_log2, self.order, 0]);
        stream.extend_from_slice(&(blocks as u64).to_le_bytes());
        stream.extend_from_slice(&(bits.len() as u64).to_le_bytes());
        for offset in self.offsets {
            stream.extend_from_slice(&offset.to_le_bytes());
        }
        stream.extend_from_slice(&bits);
        stream
    }
}

/// Codes `symbols` (one per entry) as a stream of blocks of `1 << block_log2` entries, at
/// the order that makes it shortest.
pub fn encode(alphabet: Alphabet, block_log2: u8, symbols: &[u8]) -> Result<Vec<u8>, String> {
    let block = 1usize << block_log2;
    let mut chooser = OrderChooser::new(block_log2);
    symbols.chunks(block).for_each(|b| chooser.add_block(b));
    let mut encoder = Encoder::new(alphabet, block_log2, chooser.best());
    for chunk in symbols.chunks(block) {
        encoder.add_block(chunk)?;
    }
    Ok(encoder.finish())
}

/// Where a stream's parts lie in its bytes, and how it is coded: what a probe needs
/// without parsing the head again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    alphabet: Alphabet,
    block_log2: u8,
    order: u8,
    /// The start of the offsets, and of the bits.
    offsets: usize,
    bits: usize,
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
        let (blocks, bit_bytes) = (long(4), long(12));
        if block_log2 > 24 || order > MOST_ORDER || blocks != entries.div_ceil(1 << block_log2) {
            return Err("a stream of the wrong shape");
        }
        let offsets = HEAD_BYTES;
        let bits = offsets as u64 + 4 * blocks;
        let len = bits + bit_bytes;
        if bit_bytes < PADDING as u64 || len > bytes.len() as u64 {
            return Err("a stream cut short");
        }
        Ok(Layout {
            alphabet,
            block_log2,
            order,
            offsets,
            bits: bits as usize,
            len: len as usize,
        })
    }

    /// The symbol of entry `index` of the stream `stream` (whose layout this is). A
    /// damaged stream gives a wrong symbol, never a panic or an endless loop.
    #[inline]
    pub fn symbol(&self, stream: &[u8], index: u64) -> u8 {
        let block = (index >> self.block_log2) as usize;
        let at = self.offsets + 4 * block;
        let offset = match stream.get(at..at + 4) {
            Some(word) => u32::from_le_bytes(word.try_into().unwrap()),
            None => return 0,
        };
        let mut reader = BitReader {
            bits: &stream[self.bits.min(stream.len())..],
            at: u64::from(offset),
        };
        let target = index & ((1u64 << self.block_log2) - 1);
        let mut symbol = match self.alphabet {
            Alphabet::Values => reader.read(2) as u8,
            Alphabet::Numbers => reader.gamma().saturating_sub(1).min(254) as u8,
        };
        let mut start = 0u64;
        loop {
            let length = reader.exp_golomb(self.order).saturating_add(1);
            start = start.saturating_add(length);
            if target < start {
                return symbol;
            }
            symbol = match self.alphabet {
                Alphabet::Values => (symbol % 3 + 1 + reader.read(1) as u8) % 3,
                Alphabet::Numbers => reader.gamma().saturating_sub(1).min(254) as u8,
            };
        }
    }
}

/// Reads bits least significant first; past the end it reads zeros.
struct BitReader<'a> {
    bits: &'a [u8],
    at: u64,
}

impl BitReader<'_> {
    /// The next 57 bits or more, not consumed.
    #[inline]
    fn peek(&self) -> u64 {
        let byte = (self.at >> 3) as usize;
        match self.bits.get(byte..byte + 8) {
            Some(word) => u64::from_le_bytes(word.try_into().unwrap()) >> (self.at & 7),
            None => 0,
        }
    }

    /// The next `count` bits (at most 32).
    #[inline]
    fn read(&mut self, count: u32) -> u64 {
        let bits = self.peek() & ((1u64 << count) - 1);
        self.at += u64::from(count);
        bits
    }

    /// An Elias gamma code. Past the end (or in a damaged stream) a huge number, which
    /// ends a block's decoding at once.
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

    #[inline]
    fn exp_golomb(&mut self, k: u8) -> u64 {
        let high = self.gamma() - 1;
        high.saturating_mul(1 << k) | self.read(u32::from(k))
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

    #[test]
    fn every_stored_symbol_comes_back() {
        for (seed, alphabet, dont_care, block_log2) in [
            (1, Alphabet::Values, 0, 10),
            (2, Alphabet::Values, 85, 10),
            (3, Alphabet::Numbers, 50, 12),
            (4, Alphabet::Values, 100, 6),
            (5, Alphabet::Numbers, 0, 0),
        ] {
            for count in [0, 1, 1000, 50_001] {
                let symbols = symbols(seed, count, alphabet, dont_care);
                let stream = encode(alphabet, block_log2, &symbols).unwrap();
                let layout = Layout::read(&stream, count as u64).unwrap();
                assert_eq!(layout.len, stream.len());
                for (index, &symbol) in symbols.iter().enumerate() {
                    if symbol != DONT_CARE {
                        assert_eq!(layout.symbol(&stream, index as u64), symbol, "{index}");
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
        let stream = encode(Alphabet::Values, 10, &symbols).unwrap();
        let bits_an_entry = stream.len() as f64 * 8.0 / symbols.len() as f64;
        assert!(bits_an_entry < 0.15, "{bits_an_entry}");
        // Every entry not stored: one run a block.
        let none = vec![DONT_CARE; 1 << 20];
        let stream = encode(Alphabet::Values, 10, &none).unwrap();
        assert!(stream.len() < 8 * 1024, "{}", stream.len());
    }

    #[test]
    fn a_damaged_stream_gives_wrong_symbols_but_no_panic() {
        let symbols = symbols(9, 20_000, Alphabet::Numbers, 30);
        let good = encode(Alphabet::Numbers, 8, &symbols).unwrap();
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
