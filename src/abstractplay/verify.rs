//! AbstractPlay's signatures on the webhooks it sends a bot.
//!
//! Every `POST` carries `X-Signature-Timestamp` (Unix seconds), `X-Signature-Nonce` (a
//! one-time string) and `X-Signature` (base64): AbstractPlay's Ed25519 signature of
//! `<timestamp>.<nonce>.<raw body>`. A request is taken only when its timestamp is within
//! five minutes of this machine's clock, its signature holds for AbstractPlay's public key,
//! and its nonce was not seen before; anything else is refused with its reason, and
//! changes nothing. The nonces are kept only as long as their timestamps could pass, and
//! never more than [`MAX_NONCES`] of them: a flood of signed requests is refused rather
//! than allowed to grow the memory.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use ed25519_dalek::{Signature, VerifyingKey};

/// How far a request's timestamp may be from this machine's clock, either way.
pub const MAX_AGE_SECONDS: u64 = 5 * 60;
/// Where AbstractPlay publishes the key it signs with.
pub const PUBLISHED_KEY_URL: &str = "https://play.abstractplay.com/ap-public-key.txt";
/// The key AbstractPlay's reference verifier falls back on when the published one cannot
/// be fetched.
pub const EMBEDDED_KEY: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINBTbzcpb7MaQM3TIFzsS8YmPqqT2y+/fJgevp20lzLm";
/// The environment variable that may hold the key, as in the reference verifier.
pub const KEY_VARIABLE: &str = "AP_BOT_PUBLIC_KEY";
/// The most nonces remembered at once.
pub const MAX_NONCES: usize = 100_000;

/// Why a webhook was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A signature header is missing or empty.
    MissingHeaders,
    /// The timestamp is not a whole number of seconds.
    BadTimestamp,
    /// The timestamp is more than five minutes from this machine's clock.
    Expired,
    /// The signature is not base64 of 64 bytes, or does not hold.
    BadSignature,
    /// The nonce was seen before.
    Replayed,
    /// Too many nonces are remembered to take another now.
    Busy,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refusal::MissingHeaders => "a signature header is missing",
            Refusal::BadTimestamp => "the signature's timestamp is not a number of seconds",
            Refusal::Expired => "the signature's timestamp is more than five minutes away",
            Refusal::BadSignature => "the signature does not hold",
            Refusal::Replayed => "the nonce was seen before",
            Refusal::Busy => "too many nonces to remember another",
        })
    }
}

/// The three signature headers of a request, as sent.
#[derive(Clone, Copy, Debug)]
pub struct SignatureHeaders<'a> {
    pub timestamp: Option<&'a str>,
    pub nonce: Option<&'a str>,
    pub signature: Option<&'a str>,
}

/// Checks webhooks against AbstractPlay's public key, remembering the nonces it took.
pub struct Verifier {
    key: VerifyingKey,
    seen: Mutex<Nonces>,
}

/// The nonces taken, each with its timestamp, oldest first.
#[derive(Default)]
struct Nonces {
    by_nonce: HashMap<String, u64>,
    order: VecDeque<(u64, String)>,
}

impl Verifier {
    /// A verifier for `key`.
    pub fn new(key: VerifyingKey) -> Verifier {
        Verifier {
            key,
            seen: Mutex::new(Nonces::default()),
        }
    }

    /// A verifier for the key in `text`: an OpenSSH public key line (`ssh-ed25519 AAAA...`,
    /// as AbstractPlay publishes it), the same in an RFC 4716 file (`---- BEGIN SSH2 PUBLIC
    /// KEY ----`), or the key's 32 bytes in base64.
    pub fn from_key_text(text: &str) -> Result<Verifier, String> {
        parse_public_key(text).map(Verifier::new)
    }

    /// Checks one request at `now` (Unix seconds): its headers and its raw `body`. Taken,
    /// its nonce is remembered; refused, nothing changes.
    pub fn verify(
        &self,
        headers: SignatureHeaders<'_>,
        body: &[u8],
        now: u64,
    ) -> Result<(), Refusal> {
        let (Some(timestamp), Some(nonce), Some(signature)) = (
            present(headers.timestamp),
            present(headers.nonce),
            present(headers.signature),
        ) else {
            return Err(Refusal::MissingHeaders);
        };
        let when: u64 = timestamp
            .trim()
            .parse()
            .map_err(|_| Refusal::BadTimestamp)?;
        if when.abs_diff(now) > MAX_AGE_SECONDS {
            return Err(Refusal::Expired);
        }
        let bytes = BASE64
            .decode(signature.trim())
            .map_err(|_| Refusal::BadSignature)?;
        let signature = Signature::from_slice(&bytes).map_err(|_| Refusal::BadSignature)?;
        let mut signed = Vec::with_capacity(timestamp.len() + nonce.len() + body.len() + 2);
        signed.extend_from_slice(timestamp.as_bytes());
        signed.push(b'.');
        signed.extend_from_slice(nonce.as_bytes());
        signed.push(b'.');
        signed.extend_from_slice(body);
        self.key
            .verify_strict(&signed, &signature)
            .map_err(|_| Refusal::BadSignature)?;
        // Only a request that holds may take a nonce: a forged one cannot spend them.
        let mut seen = self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        seen.forget_before(now.saturating_sub(2 * MAX_AGE_SECONDS));
        if seen.by_nonce.contains_key(nonce) {
            return Err(Refusal::Replayed);
        }
        if seen.by_nonce.len() >= MAX_NONCES {
            return Err(Refusal::Busy);
        }
        seen.by_nonce.insert(nonce.to_owned(), when);
        seen.order.push_back((when, nonce.to_owned()));
        Ok(())
    }
}

/// A header's value unless it is missing or blank.
fn present(value: Option<&str>) -> Option<&str> {
    value.filter(|v| !v.trim().is_empty())
}

impl Nonces {
    /// Forgets the nonces taken before `cutoff`, whose timestamps can no longer pass.
    fn forget_before(&mut self, cutoff: u64) {
        while let Some((when, _)) = self.order.front() {
            if *when >= cutoff {
                break;
            }
            if let Some((_, nonce)) = self.order.pop_front() {
                self.by_nonce.remove(&nonce);
            }
        }
    }
}

/// The DER of an Ed25519 SubjectPublicKeyInfo (RFC 8410) before its 32 key bytes: what a
/// PEM `-----BEGIN PUBLIC KEY-----` holds.
const SPKI_PREFIX: [u8; 12] = [
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
];

/// The Ed25519 key of `text`, in every form AbstractPlay's reference verifier reads
/// (`lib/botVerify.ts`): an OpenSSH line, RFC 4716 text, the base64 of either (as an
/// environment variable may hold it), a PEM public key, or the 32 bytes in base64; wrapped
/// in quotes or not, with any line endings.
fn parse_public_key(text: &str) -> Result<VerifyingKey, String> {
    let text = strip_quotes(text);
    let is_text_form =
        |t: &str| t.contains("ssh-") || t.contains("---- BEGIN") || t.contains("-----BEGIN");
    if !is_text_form(text) {
        let joined: String = text.split_whitespace().collect();
        let decoded = BASE64
            .decode(&joined)
            .ok()
            .and_then(|b| String::from_utf8(b).ok());
        if let Some(decoded) = decoded.filter(|d| is_text_form(d)) {
            return parse_key_form(decoded.trim());
        }
    }
    parse_key_form(text)
}

/// `text` without one pair of quotes around it.
fn strip_quotes(text: &str) -> &str {
    let text = text.trim();
    for quote in ['"', '\''] {
        if let Some(inner) = text.strip_prefix(quote).and_then(|t| t.strip_suffix(quote)) {
            return inner.trim();
        }
    }
    text
}

/// [`parse_public_key`] once the text is the key's own form.
fn parse_key_form(text: &str) -> Result<VerifyingKey, String> {
    let body: String = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#') && !line.starts_with("----"))
        .filter(|line| !line.contains(':'))
        .collect::<Vec<_>>()
        .join("");
    let blob = body
        .strip_prefix("ssh-ed25519")
        .map_or(body.as_str(), str::trim);
    // An OpenSSH line may end with a comment after the key.
    let blob = blob.split_whitespace().next().unwrap_or_default();
    let bytes = BASE64
        .decode(blob)
        .map_err(|e| format!("not a public key in base64: {e}"))?;
    let key: [u8; 32] = match bytes.len() {
        32 => bytes.try_into().expect("32 bytes"),
        44 if bytes.starts_with(&SPKI_PREFIX) => bytes[12..].try_into().expect("32 bytes"),
        _ => ssh_key_bytes(&bytes).ok_or("not an Ed25519 public key")?,
    };
    VerifyingKey::from_bytes(&key).map_err(|e| format!("not an Ed25519 public key: {e}"))
}

/// The 32 key bytes of an SSH wire-format Ed25519 key: the string `ssh-ed25519`, then the
/// key, each with its length in four bytes before it.
fn ssh_key_bytes(blob: &[u8]) -> Option<[u8; 32]> {
    let read = |at: usize| -> Option<(&[u8], usize)> {
        let length = u32::from_be_bytes(blob.get(at..at + 4)?.try_into().ok()?) as usize;
        Some((blob.get(at + 4..at + 4 + length)?, at + 4 + length))
    };
    let (kind, next) = read(0)?;
    let (key, end) = read(next)?;
    (kind == b"ssh-ed25519" && end == blob.len()).then(|| key.try_into().ok())?
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    const PUBLISHED: &str = EMBEDDED_KEY;

    fn test_key() -> SigningKey {
        SigningKey::from_bytes(&[7; 32])
    }

    /// The headers of `body` signed by `key` at `timestamp` with `nonce`.
    fn signed(key: &SigningKey, timestamp: u64, nonce: &str, body: &[u8]) -> (String, String) {
        let mut message = format!("{timestamp}.{nonce}.").into_bytes();
        message.extend_from_slice(body);
        (
            timestamp.to_string(),
            BASE64.encode(key.sign(&message).to_bytes()),
        )
    }

    fn headers<'a>(timestamp: &'a str, nonce: &'a str, signature: &'a str) -> SignatureHeaders<'a> {
        SignatureHeaders {
            timestamp: Some(timestamp),
            nonce: Some(nonce),
            signature: Some(signature),
        }
    }

    #[test]
    fn the_published_key_reads_in_each_form() {
        let key = parse_public_key(PUBLISHED).unwrap();
        let ssh2 = format!(
            "---- BEGIN SSH2 PUBLIC KEY ----\nComment: \"ap\"\n{}\n---- END SSH2 PUBLIC KEY ----\n",
            PUBLISHED.trim_start_matches("ssh-ed25519 ")
        );
        assert_eq!(parse_public_key(&ssh2).unwrap(), key);
        assert_eq!(
            parse_public_key(&format!("{PUBLISHED} ap@host")).unwrap(),
            key
        );
        let raw = BASE64.encode(key.to_bytes());
        assert_eq!(parse_public_key(&raw).unwrap(), key);
        // The base64 of the OpenSSH line and of the RFC 4716 text, as an environment
        // variable may hold them; quoted; with Windows line endings.
        assert_eq!(parse_public_key(&BASE64.encode(PUBLISHED)).unwrap(), key);
        assert_eq!(parse_public_key(&BASE64.encode(&ssh2)).unwrap(), key);
        assert_eq!(parse_public_key(&format!("\"{PUBLISHED}\"")).unwrap(), key);
        assert_eq!(
            parse_public_key(&format!("'{}'", ssh2.replace('\n', "\r\n"))).unwrap(),
            key
        );
        // PEM: the SubjectPublicKeyInfo of RFC 8410, as `openssl pkey -pubout` writes it.
        let mut der = SPKI_PREFIX.to_vec();
        der.extend_from_slice(&key.to_bytes());
        let pem = format!(
            "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----\n",
            BASE64.encode(&der)
        );
        assert_eq!(parse_public_key(&pem).unwrap(), key);
        // The key of a known PEM file: the RFC 8410 example.
        let rfc8410 = "-----BEGIN PUBLIC KEY-----\n\
                       MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n\
                       -----END PUBLIC KEY-----";
        let expected = "19bf44096984cdfe8541bac167dc3b96c85086aa30b6b6cb0c5c38ad703166e1";
        let read = parse_public_key(rfc8410).unwrap().to_bytes();
        let hex: String = read.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, expected);
        for bad in [
            "",
            "ssh-ed25519 AAAA",
            "not base64 !",
            "ssh-rsa AAAAB3NzaC1yc2EAAAADAQAB",
        ] {
            assert!(parse_public_key(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_signed_request_is_taken_once_and_anything_else_refused() {
        let key = test_key();
        let verifier = Verifier::new(key.verifying_key());
        let body = br#"{"verb":"move","metaGame":"lielow"}"#;
        let now = 1_800_000_000;
        let (timestamp, signature) = signed(&key, now - 10, "n1", body);
        let good = headers(&timestamp, "n1", &signature);
        assert_eq!(verifier.verify(good, body, now), Ok(()));
        // The same request again: its nonce was taken.
        assert_eq!(verifier.verify(good, body, now), Err(Refusal::Replayed));
        // Another body, another nonce, or another key under the same signature.
        let (timestamp, signature) = signed(&key, now, "n2", body);
        assert_eq!(
            verifier.verify(headers(&timestamp, "n2", &signature), b"{}", now),
            Err(Refusal::BadSignature)
        );
        assert_eq!(
            verifier.verify(headers(&timestamp, "n3", &signature), body, now),
            Err(Refusal::BadSignature)
        );
        let other = Verifier::from_key_text(PUBLISHED).unwrap();
        assert_eq!(
            other.verify(headers(&timestamp, "n2", &signature), body, now),
            Err(Refusal::BadSignature)
        );
        // A forged request spent no nonce: the real one still passes.
        assert_eq!(
            verifier.verify(headers(&timestamp, "n2", &signature), body, now),
            Ok(())
        );
        // Too old, too far ahead, not a number, missing, not base64.
        for (when, refusal) in [(now - 301, Refusal::Expired), (now + 301, Refusal::Expired)] {
            let (timestamp, signature) = signed(&key, when, "n4", body);
            assert_eq!(
                verifier.verify(headers(&timestamp, "n4", &signature), body, now),
                Err(refusal)
            );
        }
        assert_eq!(
            verifier.verify(headers("soon", "n5", "AAAA"), body, now),
            Err(Refusal::BadTimestamp)
        );
        let missing = SignatureHeaders {
            timestamp: Some("1"),
            nonce: None,
            signature: Some("x"),
        };
        assert_eq!(
            verifier.verify(missing, body, now),
            Err(Refusal::MissingHeaders)
        );
        assert_eq!(
            verifier.verify(headers(&now.to_string(), "n6", "%%%"), body, now),
            Err(Refusal::BadSignature)
        );
    }

    #[test]
    fn nonces_are_forgotten_once_they_cannot_pass_and_never_grow_past_the_bound() {
        let key = test_key();
        let verifier = Verifier::new(key.verifying_key());
        let body = b"{}";
        let start = 1_800_000_000;
        for i in 0..1_000u64 {
            let now = start + i;
            let nonce = format!("n{i}");
            let (timestamp, signature) = signed(&key, now, &nonce, body);
            assert_eq!(
                verifier.verify(headers(&timestamp, &nonce, &signature), body, now),
                Ok(())
            );
        }
        // Ten minutes on, the first nonces are gone; a thousand seconds of them never
        // held more than the window's worth.
        let seen = verifier.seen.lock().unwrap().by_nonce.len();
        assert!(seen <= 2 * MAX_AGE_SECONDS as usize + 1, "{seen}");
    }
}
