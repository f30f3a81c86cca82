//! A network's file: what it is for, its shape, its weights, and a checksum, so that a
//! file of another game, of another shape or damaged is refused with one clear line.
//!
//! Little-endian throughout:
//!
//! ```text
//! magic     8 bytes   "ternNNUE"
//! version   u16       6
//! variant   u8 length, then the variant's name (UTF-8)
//! layout    u16       the version of the variant's input layout (the game's INPUT_LAYOUT)
//! quant     i32 x 4   QA, QB, Q2 and SCALE, as the file was quantised
//! inputs    u32
//! hidden    u32
//! layer 2   u32       its units, 0 for none
//! buckets   u32       the output layer's copies: 1, or the game's output buckets
//! base      u8        0: the output alone; 1: added to the hand-written evaluation
//! activation u8        0: the clipped ReLU; 1: squared (SCReLU)
//! weights   i16 x inputs*hidden, i16 x hidden (bias),
//!           with a second layer: i16 x units*2*hidden, i32 x units (bias),
//!           for each bucket: i16 x (units, or 2*hidden without a second layer) (output),
//!           then for each bucket: i32 (bias)
//! checksum  u64       FNV-1a of every byte before it
//! ```
//!
//! A file whose layout is not the game's, or that was quantised with other constants than
//! this engine's, or whose buckets the game does not have, is refused: its numbers would
//! be read as something else, silently. Version 5 (the clipped ReLU), version 4 (and one
//! output layer), version 3 (nor a layout, nor a quantisation) and version 2 (nor the
//! second layer's fields) are read too: their inputs are the first layout of each game and
//! their constants the ones this engine still has, so they read as they were written.

use std::io::Read;
use std::path::Path;

use super::{Activation, Layer2, MAX_BIAS, MAX_WEIGHT, Network, Q2, QA, QB, SCALE};
use crate::core::printable::echo;
use crate::eval::Evaluate;

/// The largest network file read: far above any network's size, so that a path to
/// something endless (a device, a pipe) is refused, not read for ever.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

const MAGIC: &[u8; 8] = b"ternNNUE";
const VERSION: u16 = 6;
/// The version before the activation was written (the clipped ReLU's), still read.
const VERSION_CLIPPED: u16 = 5;
/// The version before the output buckets, still read.
const VERSION_ONE_BUCKET: u16 = 4;
/// The version before the layout and the quantisation were written, still read.
const VERSION_UNLABELLED: u16 = 3;
/// The version before the second layer, still read.
const VERSION_ONE_LAYER: u16 = 2;
/// The input layout of every file before version 4: each game's first.
const FIRST_LAYOUT: u16 = 1;
/// The quantisation this engine reads, in the file's order.
const QUANTISATION: [i32; 4] = [QA, QB, Q2, SCALE];

/// What a network file is for: the variant, and the version of the layout of its inputs
/// (a game raises it when an input changes meaning, so that older files are refused, not
/// misread).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetworkKind<'a> {
    pub variant: &'a str,
    pub layout: u16,
    /// The game's output buckets: a file has one output layer or this many.
    pub buckets: usize,
}

impl<'a> NetworkKind<'a> {
    /// A network of `G`, whose variant is called `variant`.
    pub fn of<G: Evaluate>(variant: &'a str) -> Self {
        NetworkKind {
            variant,
            layout: G::INPUT_LAYOUT,
            buckets: G::OUTPUT_BUCKETS,
        }
    }
}

/// FNV-1a, 64 bits: enough to tell a damaged file from a whole one.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The bytes of `network`'s file, a network of `kind`.
pub fn to_bytes(network: &Network, kind: NetworkKind) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(kind.variant.len() as u8);
    out.extend_from_slice(kind.variant.as_bytes());
    out.extend_from_slice(&kind.layout.to_le_bytes());
    for constant in QUANTISATION {
        out.extend_from_slice(&constant.to_le_bytes());
    }
    out.extend_from_slice(&(network.inputs as u32).to_le_bytes());
    out.extend_from_slice(&(network.hidden as u32).to_le_bytes());
    let units = network.layer2.as_ref().map_or(0, |layer2| layer2.units);
    out.extend_from_slice(&(units as u32).to_le_bytes());
    out.extend_from_slice(&(network.buckets as u32).to_le_bytes());
    out.push(u8::from(network.on_terms));
    out.push(network.activation.code());
    put_i16s(&mut out, &network.input_weights);
    put_i16s(&mut out, &network.input_bias);
    if let Some(layer2) = &network.layer2 {
        put_i16s(&mut out, &layer2.weights);
        for bias in &layer2.bias {
            out.extend_from_slice(&bias.to_le_bytes());
        }
    }
    put_i16s(&mut out, &network.output_weights);
    for bias in &network.output_bias {
        out.extend_from_slice(&bias.to_le_bytes());
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Appends `values`, little-endian.
fn put_i16s(out: &mut Vec<u8>, values: &[i16]) {
    for value in values {
        out.extend_from_slice(&value.to_le_bytes());
    }
}

/// A network built into the binary (`include_bytes!`), of `kind`.
pub fn built_in(bytes: &[u8], kind: NetworkKind) -> std::sync::Arc<Network> {
    // Checked by each game's tests: a file built in that does not read is a build's fault.
    std::sync::Arc::new(from_bytes(bytes, kind).expect("a built-in network reads as one"))
}

/// Reads a file's bytes as a network of `kind`; the error is one line for people.
pub fn from_bytes(bytes: &[u8], kind: NetworkKind) -> Result<Network, String> {
    let variant = kind.variant;
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
    if !(VERSION_ONE_LAYER..=VERSION).contains(&version) {
        return Err(format!(
            "a network file of version {version}, not {VERSION_ONE_LAYER} to {VERSION}"
        ));
    }
    let [name_len] = reader.take::<1>()?;
    let name = reader.slice(usize::from(name_len))?;
    let name = std::str::from_utf8(name).map_err(|_| "a network file with a bad variant name")?;
    if name != variant {
        return Err(format!("a network of {}, not of {variant}", echo(name)));
    }
    read_labels(&mut reader, version, kind)?;
    let Shape {
        inputs,
        hidden,
        units,
        buckets,
        on_terms,
        activation,
    } = read_shape(&mut reader, version, kind)?;
    let count = inputs
        .checked_mul(hidden)
        .filter(|&n| n <= reader.bytes.len() / 2)
        .ok_or("a network file shorter than its shape")?;
    let input_weights = reader.weights(count)?;
    let input_bias = reader.weights(hidden)?;
    let layer2 = match units {
        0 => None,
        units => {
            let count = units
                .checked_mul(2 * hidden)
                .filter(|&n| n <= reader.bytes.len() / 2)
                .ok_or("a network file shorter than its shape")?;
            let weights = reader.weights(count)?;
            let bias = (0..units)
                .map(|_| reader.take().map(i32::from_le_bytes))
                .collect::<Result<Vec<i32>, String>>()?;
            Some(Layer2 {
                units,
                weights,
                bias,
            })
        }
    };
    let per_bucket = if units > 0 { units } else { 2 * hidden };
    let output_weights = reader.weights(buckets * per_bucket)?;
    let output_bias = (0..buckets)
        .map(|_| reader.take().map(i32::from_le_bytes))
        .collect::<Result<Vec<i32>, String>>()?;
    if !reader.bytes.is_empty() {
        return Err("a network file longer than its shape".into());
    }
    let bad_shape =
        |error: super::ShapeError| format!("a network file of a bad shape: {}", error.0);
    let network = Network::new(
        inputs,
        hidden,
        input_weights,
        input_bias,
        vec![0; 2 * hidden],
        0,
    );
    match layer2 {
        None => network,
        Some(layer2) => network.and_then(|network| network.with_layer2(layer2, vec![0; units])),
    }
    .and_then(|network| network.with_buckets(buckets, output_weights, output_bias))
    .and_then(|network| network.with_activation(activation))
    .map(|network| network.with_terms(on_terms))
    .map_err(bad_shape)
    .and_then(values_a_trainer_writes)
}

/// What a file's header says of its network's shape.
struct Shape {
    inputs: usize,
    hidden: usize,
    /// The second layer's units, 0 for none.
    units: usize,
    buckets: usize,
    on_terms: bool,
    activation: Activation,
}

/// Reads the shape from a header of `version`, and refuses buckets `kind` does not have.
fn read_shape(reader: &mut Reader, version: u16, kind: NetworkKind) -> Result<Shape, String> {
    let inputs = u32::from_le_bytes(reader.take()?) as usize;
    let hidden = u32::from_le_bytes(reader.take()?) as usize;
    let units = match version {
        VERSION_ONE_LAYER => 0,
        _ => u32::from_le_bytes(reader.take()?) as usize,
    };
    let buckets = match version {
        VERSION | VERSION_CLIPPED => u32::from_le_bytes(reader.take()?) as usize,
        _ => 1,
    };
    if buckets != 1 && buckets != kind.buckets {
        return Err(format!(
            "a network of {buckets} output buckets, where {} has {}",
            kind.variant,
            match kind.buckets {
                1 => "none".to_string(),
                n => format!("1 or {n}"),
            }
        ));
    }
    let on_terms = match reader.take::<1>()? {
        [0] => false,
        [1] => true,
        [other] => return Err(format!("a network file of an unknown base {other}")),
    };
    let activation = match version {
        VERSION => {
            let [code] = reader.take::<1>()?;
            Activation::from_code(code)
                .ok_or_else(|| format!("a network file of an unknown activation {code}"))?
        }
        _ => Activation::ClippedRelu,
    };
    Ok(Shape {
        inputs,
        hidden,
        units,
        buckets,
        on_terms,
        activation,
    })
}

/// Reads a version 4, 5 or 6 file's input layout and quantisation, and refuses what this engine
/// would misread; older files carry neither and are of the first layout.
fn read_labels(reader: &mut Reader, version: u16, kind: NetworkKind) -> Result<(), String> {
    let (layout, quantisation) = match version {
        VERSION | VERSION_CLIPPED | VERSION_ONE_BUCKET => {
            let layout = u16::from_le_bytes(reader.take()?);
            let mut quantisation = [0; 4];
            for constant in &mut quantisation {
                *constant = i32::from_le_bytes(reader.take()?);
            }
            (layout, quantisation)
        }
        VERSION_UNLABELLED | VERSION_ONE_LAYER => (FIRST_LAYOUT, QUANTISATION),
        _ => unreachable!("the version is checked before"),
    };
    if layout != kind.layout {
        return Err(format!(
            "a network of input layout {layout} of {}, not {}: trained on other inputs",
            kind.variant, kind.layout
        ));
    }
    if quantisation != QUANTISATION {
        let [qa, qb, q2, scale] = quantisation;
        return Err(format!(
            "a network quantised with QA {qa}, QB {qb}, Q2 {q2}, SCALE {scale}, not this \
             engine's {QA}, {QB}, {Q2}, {SCALE}"
        ));
    }
    Ok(())
}

/// `network`, if its values are ones the trainer writes. A checksum proves a file whole, not
/// sane: larger values would wrap the accumulator or swamp the search's scores.
fn values_a_trainer_writes(network: Network) -> Result<Network, String> {
    let layer2 = network.layer2.as_ref();
    let weights_fit = (network.input_weights.iter())
        .chain(&network.input_bias)
        .chain(&network.output_weights)
        .chain(layer2.iter().flat_map(|layer2| &layer2.weights))
        .all(|weight| weight.unsigned_abs() <= MAX_WEIGHT as u16);
    let biases_fit = (network.output_bias.iter())
        .chain(layer2.iter().flat_map(|layer2| &layer2.bias))
        .all(|bias| bias.unsigned_abs() <= MAX_BIAS as u32);
    match weights_fit && biases_fit {
        true => Ok(network),
        false => Err(format!(
            "a network file with values no trainer writes (weights beyond +-{MAX_WEIGHT}, or \
             biases beyond +-{MAX_BIAS})"
        )),
    }
}

/// Reads the network file at `path`, a network of `kind` whose inputs must number
/// `inputs`; the error is one line for people.
pub fn load(path: &Path, kind: NetworkKind, inputs: usize) -> Result<Network, String> {
    let variant = kind.variant;
    // Only a regular file: a FIFO or a device would block the daemon or never end.
    let file =
        crate::core::files::open_regular(path).map_err(|e| format!("cannot open it: {e}"))?;
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
    let network = from_bytes(&bytes, kind)?;
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
    use super::super::tests::{random_network, with_random_buckets};
    use super::*;

    /// A network of `variant`, of the first input layout.
    fn kind(variant: &str) -> NetworkKind<'_> {
        NetworkKind {
            variant,
            layout: FIRST_LAYOUT,
            buckets: 1,
        }
    }

    /// `bytes` with their checksum made right.
    fn summed(mut bytes: Vec<u8>) -> Vec<u8> {
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    #[test]
    fn a_network_reads_back_as_written() {
        for on_terms in [false, true] {
            let network = random_network(30, 16, 7).with_terms(on_terms);
            let bytes = to_bytes(&network, kind("lielow"));
            assert_eq!(from_bytes(&bytes, kind("lielow")), Ok(network));
        }
    }

    #[test]
    fn a_network_with_a_second_layer_reads_back_as_written() {
        let mut rng = fastrand::Rng::with_seed(3);
        let layer2 = Layer2 {
            units: 8,
            weights: (0..8 * 32).map(|_| rng.i16(-300..=300)).collect(),
            bias: (0..8).map(|_| rng.i32(-20_000..=20_000)).collect(),
        };
        let output_weights = (0..8).map(|_| rng.i16(-400..=400)).collect();
        let network = random_network(30, 16, 7)
            .with_layer2(layer2, output_weights)
            .unwrap()
            .with_terms(true);
        let bytes = to_bytes(&network, kind("lerontenin"));
        assert_eq!(from_bytes(&bytes, kind("lerontenin")), Ok(network));
        // Cut inside the second layer, its checksum made right: refused.
        let mut cut = bytes[..bytes.len() - 8 - 20].to_vec();
        let sum = checksum(&cut);
        cut.extend_from_slice(&sum.to_le_bytes());
        assert!(from_bytes(&cut, kind("lerontenin")).is_err());
    }

    #[test]
    fn a_network_with_output_buckets_reads_back_as_written_and_only_for_its_game() {
        let network = with_random_buckets(random_network(30, 16, 7), 4, 8);
        let four_buckets = NetworkKind {
            buckets: 4,
            ..kind("lielow")
        };
        let bytes = to_bytes(&network, four_buckets);
        assert_eq!(from_bytes(&bytes, four_buckets), Ok(network.clone()));
        // A game of other buckets, or of none, refuses it with one line.
        for buckets in [1, 3] {
            let other = NetworkKind {
                buckets,
                ..kind("lielow")
            };
            let error = from_bytes(&bytes, other).unwrap_err();
            assert!(error.contains("a network of 4 output buckets"), "{error}");
        }
        // One output layer reads for any game.
        let one = random_network(30, 16, 7);
        assert_eq!(
            from_bytes(&to_bytes(&one, four_buckets), four_buckets),
            Ok(one)
        );
    }

    #[test]
    fn a_network_of_squared_activations_reads_back_as_written() {
        let network = random_network(30, 16, 7)
            .with_activation(Activation::SquaredClippedRelu)
            .unwrap();
        let bytes = to_bytes(&network, kind("lielow"));
        let read = from_bytes(&bytes, kind("lielow")).unwrap();
        assert_eq!(read.activation(), Activation::SquaredClippedRelu);
        assert_eq!(read, network);
        // An activation this engine does not know: refused with one line.
        let at = MAGIC.len() + 2 + 1 + "lielow".len() + 35;
        let mut unknown = bytes[..bytes.len() - 8].to_vec();
        assert_eq!(unknown[at], 1);
        unknown[at] = 7;
        let error = from_bytes(&summed(unknown), kind("lielow")).unwrap_err();
        assert_eq!(error, "a network file of an unknown activation 7");
    }

    #[test]
    fn files_of_versions_five_four_three_and_two_read_as_they_were_written() {
        let network = random_network(30, 16, 7).with_terms(true);
        let six = to_bytes(&network, kind("lielow"));
        let name_end = MAGIC.len() + 2 + 1 + "lielow".len();
        // Version 5: no activation's field after the base (the layout, the quantisation,
        // the inputs, the units, the second layer's, the buckets and the base: 35 bytes).
        let mut five = six[..name_end + 35].to_vec();
        five.extend_from_slice(&six[name_end + 36..six.len() - 8]);
        five[MAGIC.len()..MAGIC.len() + 2].copy_from_slice(&VERSION_CLIPPED.to_le_bytes());
        let five = summed(five);
        assert_eq!(from_bytes(&five, kind("lielow")), Ok(network.clone()));
        // Version 4: no buckets' field after the second layer's units (the layout, the
        // quantisation, the inputs, the units and the second layer's: 30 bytes before it).
        let mut four = five[..name_end + 30].to_vec();
        four.extend_from_slice(&five[name_end + 34..five.len() - 8]);
        four[MAGIC.len()..MAGIC.len() + 2].copy_from_slice(&VERSION_ONE_BUCKET.to_le_bytes());
        let four = summed(four);
        assert_eq!(from_bytes(&four, kind("lielow")), Ok(network.clone()));
        // Version 3: no layout, no quantisation (18 bytes).
        let mut three = four[..name_end].to_vec();
        three.extend_from_slice(&four[name_end + 18..four.len() - 8]);
        three[MAGIC.len()..MAGIC.len() + 2].copy_from_slice(&VERSION_UNLABELLED.to_le_bytes());
        assert_eq!(
            from_bytes(&summed(three.clone()), kind("lielow")),
            Ok(network.clone())
        );
        // Version 2: nor the second layer's field after the hidden units.
        let mut two = three[..name_end + 8].to_vec();
        two.extend_from_slice(&three[name_end + 12..]);
        two[MAGIC.len()..MAGIC.len() + 2].copy_from_slice(&VERSION_ONE_LAYER.to_le_bytes());
        assert_eq!(from_bytes(&summed(two), kind("lielow")), Ok(network));
        // A game whose inputs moved on refuses them.
        let later = NetworkKind {
            layout: FIRST_LAYOUT + 1,
            ..kind("lielow")
        };
        let error = from_bytes(&summed(three), later).unwrap_err();
        assert!(error.contains("input layout 1 of lielow, not 2"), "{error}");
    }

    #[test]
    fn another_layout_or_quantisation_is_refused_with_one_line() {
        let network = random_network(30, 16, 7);
        let bytes = to_bytes(&network, kind("lielow"));
        let later = NetworkKind {
            layout: 2,
            ..kind("lielow")
        };
        let error = from_bytes(&bytes, later).unwrap_err();
        assert_eq!(
            error,
            "a network of input layout 1 of lielow, not 2: trained on other inputs"
        );
        // QB written as 128: the file's output layer would read twice too strong.
        let at = MAGIC.len() + 2 + 1 + "lielow".len() + 2 + 4;
        let mut other = bytes[..bytes.len() - 8].to_vec();
        other[at..at + 4].copy_from_slice(&128i32.to_le_bytes());
        let error = from_bytes(&summed(other), kind("lielow")).unwrap_err();
        assert!(error.contains("quantised with QA 255, QB 128"), "{error}");
        assert!(!error.contains('\n'));
    }

    #[test]
    fn foreign_damaged_and_cut_files_are_refused_with_one_line() {
        let network = random_network(30, 16, 7);
        let bytes = to_bytes(&network, kind("lielow"));
        let refused = |bytes: &[u8], why: &str| {
            let error = from_bytes(bytes, kind("lielow")).expect_err(why);
            assert!(error.contains(why), "{error}");
            assert!(!error.contains('\n'));
        };
        refused(
            &to_bytes(&network, kind("lielow9")),
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

    #[test]
    fn values_no_trainer_writes_are_refused() {
        let network = random_network(30, 16, 7);
        let refused = |network: &Network| {
            let error = from_bytes(&to_bytes(network, kind("lielow")), kind("lielow")).unwrap_err();
            assert!(error.contains("values no trainer writes"), "{error}");
        };
        for bias in [i32::MAX, i32::MIN, MAX_BIAS + 1, -MAX_BIAS - 1] {
            refused(&Network {
                output_bias: vec![bias],
                ..network.clone()
            });
        }
        for (layer, at) in [(0, 5), (1, 3), (2, 17)] {
            for weight in [MAX_WEIGHT + 1, -MAX_WEIGHT - 1, i16::MIN] {
                let mut bad = network.clone();
                match layer {
                    0 => bad.input_weights[at] = weight,
                    1 => bad.input_bias[at] = weight,
                    _ => bad.output_weights[at] = weight,
                }
                refused(&bad);
            }
        }
        // The second layer's too.
        let layer2 = |weight: i16, bias: i32| Layer2 {
            units: 1,
            weights: vec![weight; 32],
            bias: vec![bias],
        };
        let with = |layer2| network.clone().with_layer2(layer2, vec![1]).unwrap();
        assert!(
            from_bytes(
                &to_bytes(&with(layer2(MAX_WEIGHT, MAX_BIAS)), kind("x")),
                kind("x")
            )
            .is_ok()
        );
        refused(&with(layer2(MAX_WEIGHT + 1, 0)));
        refused(&with(layer2(0, -MAX_BIAS - 1)));
    }

    #[test]
    fn the_trainers_largest_values_fit() {
        use super::super::{Q2, QA, QB, WEIGHT_CLIP};
        let largest = |scale: i32| (WEIGHT_CLIP * scale as f32).round() as i32;
        assert_eq!(i32::from(MAX_WEIGHT), largest(QA.max(QB).max(Q2)));
        assert_eq!(MAX_BIAS, largest(QA * QB.max(Q2)) + 1);
    }
}
