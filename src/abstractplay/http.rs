//! The bot endpoint's HTTP: one request per connection, its head read with `httparse` and
//! its body read whole as its `Content-Length` says (at most [`MAX_BODY`]: a longer one is
//! refused before a byte of it is read), its head within [`HEAD_TIME`] and the whole within
//! [`REQUEST_TIME`]; then one answer and the connection closed.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::payload::MAX_BODY;

/// The longest request head read; a longer one is refused.
const MAX_HEAD: usize = 16 * 1024;
/// How many headers a request may carry.
const MAX_HEADERS: usize = 64;
/// How long a client may take to send its whole request.
pub const REQUEST_TIME: Duration = Duration::from_secs(10);
/// How long a client may take to send the head of its request: a webhook comes whole from
/// the reverse proxy (or from AbstractPlay) at once, and a client that trickles its head
/// holds one of the endpoint's few slots.
pub const HEAD_TIME: Duration = Duration::from_secs(2);

/// A request as read off the connection.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct RawRequest {
    pub method: String,
    pub path: String,
    pub timestamp: Option<String>,
    pub nonce: Option<String>,
    pub signature: Option<String>,
    /// `X-Forwarded-For`, as a reverse proxy sets it: for the log alone (anyone can send
    /// it; nothing is decided by it).
    pub forwarded_for: Option<String>,
    /// The body, byte for byte as sent (the signature covers it).
    pub body: Vec<u8>,
}

/// Why a request could not be read: the status to answer and a reason for the log.
#[derive(Debug, PartialEq, Eq)]
pub struct Unreadable {
    pub status: u16,
    pub reason: &'static str,
}

const fn unreadable(status: u16, reason: &'static str) -> Unreadable {
    Unreadable { status, reason }
}

/// The head's facts, once it is whole.
struct Head {
    request: RawRequest,
    length: usize,
    /// The head's length in bytes: what follows it is the body's start.
    size: usize,
}

/// Reads the head in `bytes`, if it is whole.
fn parse_head(bytes: &[u8]) -> Result<Option<Head>, Unreadable> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    let size = match parsed.parse(bytes) {
        Ok(httparse::Status::Complete(size)) => size,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => return Err(unreadable(431, "too many headers")),
        Err(_) => return Err(unreadable(400, "not an HTTP/1 request")),
    };
    let (Some(method), Some(path)) = (parsed.method, parsed.path) else {
        return Err(unreadable(400, "not an HTTP/1 request"));
    };
    let mut request = RawRequest {
        method: method.to_owned(),
        path: path.to_owned(),
        ..RawRequest::default()
    };
    let mut length = None;
    for header in parsed.headers.iter() {
        let name = header.name.to_ascii_lowercase();
        let value = std::str::from_utf8(header.value)
            .map_err(|_| unreadable(400, "a header that is not text"))?
            .trim();
        let slot = match name.as_str() {
            "x-signature-timestamp" => &mut request.timestamp,
            "x-signature-nonce" => &mut request.nonce,
            "x-signature" => &mut request.signature,
            "x-forwarded-for" => {
                request.forwarded_for = Some(crate::core::printable::echo(value));
                continue;
            }
            "transfer-encoding" => {
                return Err(unreadable(411, "a chunked body: Content-Length is needed"));
            }
            "content-length" => {
                // Digits alone (RFC 9110: `1*DIGIT`); `parse` would take "+5" as 5.
                let read: usize = Some(value)
                    .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| unreadable(400, "a Content-Length that is no number"))?;
                // Two lengths that differ are how requests get smuggled past proxies.
                if length.is_some_and(|other| other != read) {
                    return Err(unreadable(400, "two Content-Length headers"));
                }
                length = Some(read);
                continue;
            }
            _ => continue,
        };
        // The signature's parts decide whether the request is AbstractPlay's: each once.
        if slot.is_some() {
            return Err(unreadable(400, "a signature header given twice"));
        }
        *slot = Some(value.to_owned());
    }
    let length = length.unwrap_or(0);
    if length > MAX_BODY {
        return Err(unreadable(413, "a body larger than a webhook's"));
    }
    Ok(Some(Head {
        request,
        length,
        size,
    }))
}

/// Reads one request from `stream`: its head within [`HEAD_TIME`], the whole within
/// [`REQUEST_TIME`]. Each read blocks until bytes come: the wait costs no CPU.
pub fn read_request(stream: &mut TcpStream) -> Result<RawRequest, Unreadable> {
    let started = Instant::now();
    let mut bytes = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    let mut head: Option<Head> = None;
    loop {
        if let Some(whole) = &head
            && bytes.len() >= whole.size + whole.length
        {
            let Head {
                mut request,
                length,
                size,
            } = head.take().expect("checked just above");
            request.body = bytes[size..size + length].to_vec();
            return Ok(request);
        }
        let deadline = started
            + match head {
                Some(_) => REQUEST_TIME,
                None => HEAD_TIME,
            };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return Err(unreadable(408, "the request did not come in time"));
        }
        let read = match stream.read(&mut chunk) {
            Ok(0) => return Err(unreadable(400, "the connection closed mid-request")),
            Ok(read) => read,
            Err(_) => return Err(unreadable(408, "the request did not come in time")),
        };
        bytes.extend_from_slice(&chunk[..read]);
        if head.is_none() {
            head = parse_head(&bytes)?;
            if head.is_none() && bytes.len() >= MAX_HEAD {
                return Err(unreadable(431, "a request head too long"));
            }
        }
    }
}

/// Writes an answer of `status` with the JSON `body` and closes the connection.
pub fn respond(stream: TcpStream, status: u16, body: &str) {
    write_answer(stream, status, body, true);
}

/// Answers a `HEAD` request: the head of the answer a `GET` would get, without its body.
pub fn respond_head(stream: TcpStream, status: u16, body: &str) {
    write_answer(stream, status, body, false);
}

fn write_answer(mut stream: TcpStream, status: u16, body: &str, with_body: bool) {
    let reason = match status {
        200 => "OK",
        202 => "Accepted",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "",
    };
    let answer = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n{}",
        body.len(),
        if with_body { body } else { "" }
    );
    let _ = stream.set_write_timeout(Some(REQUEST_TIME));
    let _ = stream
        .write_all(answer.as_bytes())
        .and_then(|()| stream.flush());
    let _ = stream.shutdown(std::net::Shutdown::Write);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any bytes at all: a head, not yet a head, or a refusal with a status, never a
        /// panic; and a head that reads never promises a body beyond a webhook's.
        #[test]
        fn any_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
            match parse_head(&bytes) {
                Ok(Some(head)) => prop_assert!(head.length <= MAX_BODY && head.size <= bytes.len()),
                Ok(None) => {}
                Err(refused) => prop_assert!(matches!(refused.status, 400 | 411 | 413 | 431)),
            }
        }

        /// A request head with random header lines.
        #[test]
        fn random_headers_are_read_or_refused(lines in prop::collection::vec("[ -~]{0,40}", 0..20)) {
            let text = format!("POST /bot HTTP/1.1\r\n{}\r\n\r\n", lines.join("\r\n"));
            match parse_head(text.as_bytes()) {
                Ok(Some(head)) => prop_assert!(head.length <= MAX_BODY),
                Ok(None) => {}
                Err(refused) => prop_assert!(matches!(refused.status, 400 | 411 | 413 | 431)),
            }
        }
    }

    fn head(text: &str) -> Result<Option<(RawRequest, usize)>, Unreadable> {
        parse_head(text.as_bytes()).map(|head| head.map(|h| (h.request, h.length)))
    }

    #[test]
    fn a_signed_post_is_read_with_its_signature_and_length() {
        let (request, length) = head(
            "POST /bot HTTP/1.1\r\nHost: x\r\nX-Signature-Timestamp: 17\r\n\
             x-signature-nonce: n1\r\nX-Signature: c2ln\r\nContent-Length: 12\r\n\r\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(request.method, "POST");
        assert_eq!(request.path, "/bot");
        assert_eq!(request.timestamp.as_deref(), Some("17"));
        assert_eq!(request.nonce.as_deref(), Some("n1"));
        assert_eq!(request.signature.as_deref(), Some("c2ln"));
        assert_eq!(length, 12);
        assert!(matches!(head("POST / HTTP/1.1\r\nHost: x\r\n"), Ok(None)));
    }

    #[test]
    fn what_cannot_be_read_safely_is_refused() {
        let status = |text: &str| head(text).err().map(|e| e.status);
        assert_eq!(
            status("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            Some(411)
        );
        assert_eq!(
            status("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n"),
            Some(400)
        );
        for length in ["-3", "+5", "", " ", "0x5", "5 5", "５"] {
            let head = format!("POST / HTTP/1.1\r\nContent-Length: {length}\r\n\r\n12345");
            assert_eq!(status(&head), Some(400), "{length:?}");
        }
        let huge = format!(
            "POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            MAX_BODY + 1
        );
        assert_eq!(status(&huge), Some(413));
        assert_eq!(
            status("POST / HTTP/1.1\r\nX-Signature: a\r\nX-Signature: b\r\n\r\n"),
            Some(400)
        );
        assert_eq!(status("\x16\x03\x01 hello\r\n\r\n"), Some(400));
    }
}
