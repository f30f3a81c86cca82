//! A training's state after a whole epoch, kept in a file so that a training stopped at
//! any moment (a session's end, a killed process, a lost machine with the file copied
//! off) goes on from its last whole epoch and ends with the network it would have made
//! unstopped, byte for byte.
//!
//! The state is everything the next epoch reads: the weights, Adam's moments and steps,
//! the step size, the random generator's state (the next epoch's order of positions), the
//! best epoch's weights and loss, and every epoch's figures. Beside it the file holds what
//! it belongs to: the training's settings (every one that changes its course; not the
//! epochs, so a finished training can be given more, nor the threads, which change
//! nothing) and a digest of its labelled data. A checkpoint of another training is refused
//! with the first setting that differs. The file ends with a digest of its own bytes, and
//! is written whole or not at all (`core::output::Whole`).

use sha2::{Digest, Sha256};

use super::model::{Adam, Params, Shape};
use super::samples::Samples;
use super::{Epoch, TrainConfig};

/// The file's first bytes, with its version.
const MAGIC: &[u8; 8] = b"TNTRCK01";

/// A training's state after `epochs.len()` epochs.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The settings line of [`settings`].
    pub settings: String,
    /// The digest of the labelled data ([`data_digest`]).
    pub data: [u8; 32],
    /// The step size of the next epoch.
    pub rate: f32,
    /// The random generator's state before the next epoch.
    pub random: u64,
    /// The validation loss of the starting weights.
    pub start_loss: f64,
    pub params: Params,
    pub adam: Adam,
    /// The best epoch so far: its validation loss, weights and number.
    pub best: (f64, Params, u32),
    pub epochs: Vec<Epoch>,
}

/// The settings that decide a training's course, as one line of `name=value` words (a
/// fitted scale is the data's, whose digest is kept beside them).
pub fn settings(config: &TrainConfig) -> String {
    format!(
        "variant={} hidden={} layer2={} activation={} output-buckets={} batch={} rate={} \
         decay={} blend={} scale={} seed={} on-terms={} hold-out-block={} mirror={}",
        config.variant,
        config.hidden,
        config.layer2,
        config.activation.name(),
        config.output_buckets,
        config.batch,
        config.rate,
        config.decay,
        config.blend,
        config.scale.map_or("fitted".into(), |k| format!("{k}")),
        config.seed,
        config.on_terms,
        config.hold_out_block,
        config.mirror,
    )
}

/// A digest of labelled positions: their inputs, targets, offsets and buckets, in order.
pub fn data_digest(sets: &[&Samples]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    for set in sets {
        set.digest_into(&mut hasher);
    }
    hasher.finalize().into()
}

impl Checkpoint {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        put_u64(&mut out, self.settings.len() as u64);
        out.extend_from_slice(self.settings.as_bytes());
        out.extend_from_slice(&self.data);
        out.extend_from_slice(&self.rate.to_le_bytes());
        put_u64(&mut out, self.random);
        out.extend_from_slice(&self.start_loss.to_le_bytes());
        put_u64(&mut out, self.epochs.len() as u64);
        for epoch in &self.epochs {
            for figure in [
                epoch.training_loss,
                epoch.validation_loss,
                epoch.positions_per_second,
            ] {
                out.extend_from_slice(&figure.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.best.0.to_le_bytes());
        put_u64(&mut out, u64::from(self.best.2));
        put_u64(&mut out, self.adam.steps().max(0) as u64);
        let (first, second) = self.adam.moments();
        let arrays = [
            self.params.to_vec(),
            self.best.1.to_vec(),
            first.to_vec(),
            second.to_vec(),
        ];
        for array in &arrays {
            put_u64(&mut out, array.len() as u64);
            for value in array {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        let digest = Sha256::digest(&out);
        out.extend_from_slice(&digest);
        out
    }

    /// Reads a checkpoint of a training of `shape` whose settings are `settings` and whose
    /// data's digest is `data`; `Err` says why it cannot go on from it, in one line.
    pub fn from_bytes(
        bytes: &[u8],
        shape: Shape,
        settings: &str,
        data: &[u8; 32],
    ) -> Result<Checkpoint, String> {
        let body_len = bytes
            .len()
            .checked_sub(32)
            .ok_or("it is too short to be a checkpoint")?;
        let (body, digest) = bytes.split_at(body_len);
        if !body.starts_with(MAGIC) {
            return Err("it is not a training checkpoint of this version".into());
        }
        if Sha256::digest(body).as_slice() != digest {
            return Err("it is damaged (its digest does not match its bytes)".into());
        }
        let mut reader = Reader(&body[MAGIC.len()..]);
        let length = reader.u64()? as usize;
        let own_settings = String::from_utf8(reader.take(length)?.to_vec())
            .map_err(|_| "its settings are not text")?;
        if own_settings != settings {
            return Err(differing_setting(&own_settings, settings));
        }
        if reader.take(32)? != data {
            return Err("it was trained on other data (or other labels of it)".into());
        }
        let rate = f32::from_le_bytes(reader.array()?);
        let random = reader.u64()?;
        let start_loss = f64::from_le_bytes(reader.array()?);
        let count = reader.u64()?;
        let mut epochs = Vec::new();
        for number in 1..=count {
            let mut figure = || reader.array().map(f64::from_le_bytes);
            epochs.push(Epoch {
                number: u32::try_from(number).map_err(|_| "too many epochs")?,
                training_loss: figure()?,
                validation_loss: figure()?,
                positions_per_second: figure()?,
            });
        }
        let best_loss = f64::from_le_bytes(reader.array()?);
        let best_epoch = u32::try_from(reader.u64()?).map_err(|_| "a bad best epoch")?;
        let steps = i32::try_from(reader.u64()?).map_err(|_| "too many steps")?;
        let mut arrays = Vec::new();
        for _ in 0..4 {
            let length = reader.u64()? as usize;
            let bytes = reader.take(length.checked_mul(4).ok_or("a bad length")?)?;
            let values: Vec<f32> = bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            arrays.push(values);
        }
        if !reader.0.is_empty() {
            return Err("it has bytes after its last array".into());
        }
        let [params, best, first, second]: [Vec<f32>; 4] =
            arrays.try_into().expect("four arrays read");
        let weights = |values: Vec<f32>| {
            Params::from_vec(shape, values).ok_or("its weights are of another shape")
        };
        Ok(Checkpoint {
            settings: own_settings,
            data: *data,
            rate,
            random,
            start_loss,
            params: weights(params)?,
            adam: Adam::from_moments(first, second, steps, shape)
                .ok_or("its moments are of another shape")?,
            best: (best_loss, weights(best)?, best_epoch),
            epochs,
        })
    }
}

/// Says which setting differs between a checkpoint's and a training's.
fn differing_setting(checkpoint: &str, training: &str) -> String {
    let difference = checkpoint
        .split(' ')
        .zip(training.split(' '))
        .find(|(a, b)| a != b);
    match difference {
        Some((was, is)) => format!("it is of another training ({was}, here {is})"),
        None => "it is of another training".into(),
    }
}

fn put_u64(out: &mut Vec<u8>, value: u64) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// Reads a checkpoint's fields in order.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize) -> Result<&'a [u8], String> {
        if count > self.0.len() {
            return Err("it ends early".into());
        }
        let (taken, rest) = self.0.split_at(count);
        self.0 = rest;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        Ok(self.take(N)?.try_into().expect("N bytes taken"))
    }

    fn u64(&mut self) -> Result<u64, String> {
        self.array().map(u64::from_le_bytes)
    }
}
