//! A network's file: what it is for, its shape, its weights, and a checksum, so that a
//! file of another game, of another shape or damaged is refused with one clear line.
//!
//! Little-endian throughout:
//!
//! ```text
//! magic     8 bytes   "ternNNUE"
//! version   u16       1
//! variant   u8 length, then the variant's name (UTF-8)
//! inputs    u32
//! hidden    u32
//! base      u8        0: the output alone; 1: added to the hand-written evaluation
//! weights   i16 x inputs*hidden, i16 x hidden (bias), i16 x 2*hidden (output), i32 (bias)
//! checksum  u64       FNV-1a of every byte before it
//! ```

use std::io::Read;
use std::path::Path;

use super::Network;
use crate::core::printable::echo;

/// The largest network file read: far above any network's size, so that a path to
/// something endless (a device, a pipe) is refused, not read for ever.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

const MAGIC: &[u8; 8] = b"ternNNUE";
const VERSION: u16 = 2;

/// FNV-1a, 64 bits: enough to tell a damaged file from a whole one.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The bytes of `network`'s file for `variant`.
pub fn to_bytes(network: &Network, variant: &str) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(variant.len() as u8);
    out.extend_from_slice(variant.as_bytes());
    out.extend_from_slice(&(network.inputs as u32).to_le_bytes());
    out.extend_from_slice(&(network.hidden as u32).to_le_bytes());
    out.push(u8::from(network.on_terms));
    for weights in [
        &network.input_weights,
        &network.input_bias,
        &network.output_weights,
    ] {
        for weight in weights {
            out.extend_from_slice(&weight.to_le_bytes());
        }
    }
    out.extend_from_slice(&network.output_bias.to_le_bytes());
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads a file's bytes as a network of `variant`; the error is one line for people.
pub fn from_bytes(bytes: &[u8], variant: &str) -> Result<Network, String> {
    let body_len = bytes
        .len()
        .checked_sub(8)
        .ok_or("not a network file: too short")?;
    if !bytes.starts_with(MAGIC) {
        return Err("not a network file of ternion".into());
    }
    let (body, sum) = bytes.split_at(body_len);
    if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err("a damaged network file: its checksum does not match".into());
    }
    let mut reader = Reader {
        bytes: &body[MAGIC.len()..],
    };
    let version = u16::from_le_bytes(reader.take()?);
    if version != VERSION {
        return Err(format!(
            "a network file of version {version}, not {VERSION}"
        ));
    }
    let [name_len] = reader.take::<1>()?;
    let name = reader.slice(usize::from(name_len))?;
    let name = std::str::from_utf8(name).map_err(|_| "a network file with a bad variant name")?;
    if name != variant {
        return Err(format!("a network of {}, not of {variant}", echo(name)));
    }
    let inputs = u32::from_le_bytes(reader.take()?) as usize;
    let hidden = u32::from_le_bytes(reader.take()?) as usize;
    let on_terms = match reader.take::<1>()? {
        [0] => false,
        [1] => true,
        [other] => return Err(format!("a network file of an unknown base {other}")),
    };
    let count = inputs
        .checked_mul(hidden)
        .filter(|&n| n <= reader.bytes.len() / 2)
        .ok_or("a network file shorter than its shape")?;
    let input_weights = reader.weights(count)?;
    let input_bias = reader.weights(hidden)?;
    let output_weights = reader.weights(2 * hidden)?;
    let output_bias = i32::from_le_bytes(reader.take()?);
    if !reader.bytes.is_empty() {
        return Err("a network file longer than its shape".into());
    }
    Network::new(
        inputs,
        hidden,
        input_weights,
        input_bias,
        output_weights,
        output_bias,
    )
    .map(|network| network.with_terms(on_terms))
    .map_err(|error| format!("a network file of a bad shape: {}", error.0))
}

/// Reads the network file at `path` for `variant`, whose inputs must number `inputs`; the
/// error is one line for people.
pub fn load(path: &Path, variant: &str, inputs: usize) -> Result<Network, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open it: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "not a network file: longer than {} MiB",
            MAX_FILE_BYTES >> 20
        ));
    }
    let network = from_bytes(&bytes, variant)?;
    if network.inputs() != inputs {
        return Err(format!(
            "a network of {} inputs, not of {variant}'s {inputs}",
            network.inputs()
        ));
    }
    Ok(network)
}

/// Reads a file's fields in turn.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn slice(&mut self, n: usize) -> Result<&'a [u8], String> {
        if n > self.bytes.len() {
            return Err("a network file shorter than its shape".into());
        }
        let (taken, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(taken)
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        Ok(self.slice(N)?.try_into().expect("N bytes"))
    }

    fn weights(&mut self, count: usize) -> Result<Vec<i16>, String> {
        let bytes = self.slice(count * 2)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_network;
    use super::*;

    #[test]
    fn a_network_reads_back_as_written() {
        for on_terms in [false, true] {
            let network = random_network(30, 16, 7).with_terms(on_terms);
            let bytes = to_bytes(&network, "lielow");
            assert_eq!(from_bytes(&bytes, "lielow"), Ok(network));
        }
    }

    #[test]
    fn foreign_damaged_and_cut_files_are_refused_with_one_line() {
        let network = random_network(30, 16, 7);
        let bytes = to_bytes(&network, "lielow");
        let refused = |bytes: &[u8], why: &str| {
            let error = from_bytes(bytes, "lielow").expect_err(why);
            assert!(error.contains(why), "{error}");
            assert!(!error.contains('\n'));
        };
        refused(
            &to_bytes(&network, "lielow9"),
            "a network of lielow9, not of lielow",
        );
        let mut damaged = bytes.clone();
        damaged[40] ^= 1;
        refused(&damaged, "checksum");
        refused(&bytes[..bytes.len() - 3], "");
        refused(b"short", "too short");
        refused(b"not a network file at all", "not a network file");
        // A whole file whose shape does not fit its weights (its checksum made right).
        let mut cut = bytes[..bytes.len() - 8 - 2].to_vec();
        let sum = checksum(&cut);
        cut.extend_from_slice(&sum.to_le_bytes());
        refused(&cut, "shorter than its shape");
    }
}
