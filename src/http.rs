//! The one HTTP door of the servers beside the engine (`ternion gui` and `ternion
//! abstractplay`): one request per connection, its head read with `httparse` within a
//! deadline and a size cap, its body read whole as its `Content-Length` says (a longer one
//! refused before a byte of it is read), then one answer with its reason phrase and the
//! connection closed. Each server keeps only its routes, its own headers and how it admits
//! connections; every read here blocks until bytes come, so a slow client costs a sleeping
//! thread and no CPU.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// How many headers a request may carry; more are refused `431`.
pub const MAX_HEADERS: usize = 64;

/// What a server takes of a request.
#[derive(Clone, Copy, Debug)]
pub struct Door {
    /// The longest request head; a longer one is refused `431`.
    pub max_head: usize,
    /// The longest body; a longer `Content-Length` is refused `413` unread.
    pub max_body: usize,
    /// How long a client may take to send the head.
    pub head_time: Duration,
    /// How long a client may take to send the whole request.
    pub request_time: Duration,
    /// The headers (in lower case) the server decides by, each refused `400` when given
    /// twice: with two, which one a proxy or a browser meant is anybody's guess.
    pub single_headers: &'static [&'static str],
}

/// A request as read off the connection.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// The request target as sent (with its query, if any).
    pub path: String,
    /// Every header: its name in lower case, its value trimmed.
    pub headers: Vec<(String, String)>,
    /// The body, byte for byte as sent.
    pub body: Vec<u8>,
    /// Every byte read: the head, then the body (a WebSocket handshake reads the head
    /// again from these).
    pub read: Vec<u8>,
}

impl Request {
    /// The value of header `name` (in lower case), if it came.
    pub fn header(&self, name: &str) -> Option<&str> {
        (self.headers.iter())
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a request was not read: the status to answer and a reason for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused {
    pub status: u16,
    pub reason: &'static str,
}

const fn refused(status: u16, reason: &'static str) -> Refused {
    Refused { status, reason }
}

/// A whole head: the request without its body, the body's length, and the head's own
/// length in bytes (what follows it is the body's start).
#[derive(Debug)]
pub struct Head {
    pub request: Request,
    pub body_length: usize,
    pub size: usize,
}

/// Reads the head in `bytes`, if it is whole yet (`None`: wait for more).
pub fn parse_head(bytes: &[u8], door: &Door) -> Result<Option<Head>, Refused> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    let size = match parsed.parse(bytes) {
        Ok(httparse::Status::Complete(size)) => size,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => return Err(refused(431, "too many headers")),
        Err(_) => return Err(refused(400, "not an HTTP/1 request")),
    };
    let (Some(method), Some(path)) = (parsed.method, parsed.path) else {
        return Err(refused(400, "not an HTTP/1 request"));
    };
    let mut request = Request {
        method: method.to_owned(),
        path: path.to_owned(),
        ..Request::default()
    };
    let mut length = None;
    for header in parsed.headers.iter() {
        let name = header.name.to_ascii_lowercase();
        let value = std::str::from_utf8(header.value)
            .map_err(|_| refused(400, "a header that is not text"))?
            .trim();
        match name.as_str() {
            "transfer-encoding" => {
                return Err(refused(411, "a chunked body: Content-Length is needed"));
            }
            "content-length" => {
                // Digits alone (RFC 9110: `1*DIGIT`); `parse` would take "+5" as 5.
                let read: usize = Some(value)
                    .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|v| v.parse().ok())
                    .ok_or(refused(400, "a Content-Length that is no number"))?;
                // Two lengths that differ are how requests get smuggled past proxies.
                if length.is_some_and(|other| other != read) {
                    return Err(refused(400, "two Content-Length headers"));
                }
                length = Some(read);
            }
            name if door.single_headers.contains(&name) && request.header(name).is_some() => {
                return Err(refused(400, "a header given twice"));
            }
            _ => {}
        }
        request.headers.push((name, value.to_owned()));
    }
    let body_length = length.unwrap_or(0);
    if body_length > door.max_body {
        return Err(refused(413, "a body larger than this server takes"));
    }
    Ok(Some(Head {
        request,
        body_length,
        size,
    }))
}

/// Reads one request from `stream`: its head within the door's head time, the whole within
/// its request time.
pub fn read_request(stream: &mut TcpStream, door: &Door) -> Result<Request, Refused> {
    let started = Instant::now();
    let mut bytes = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    let mut head: Option<Head> = None;
    loop {
        if let Some(whole) = &head
            && bytes.len() >= whole.size + whole.body_length
        {
            let Head {
                mut request,
                body_length,
                size,
            } = head.take().expect("checked just above");
            request.body = bytes[size..size + body_length].to_vec();
            request.read = bytes;
            return Ok(request);
        }
        let deadline = started
            + match head {
                Some(_) => door.request_time,
                None => door.head_time,
            };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return Err(refused(408, "the request did not come in time"));
        }
        let read = match stream.read(&mut chunk) {
            Ok(0) => return Err(refused(400, "the connection closed mid-request")),
            Ok(read) => read,
            Err(_) => return Err(refused(408, "the request did not come in time")),
        };
        bytes.extend_from_slice(&chunk[..read]);
        if head.is_none() {
            head = parse_head(&bytes, door)?;
            if head.is_none() && bytes.len() >= door.max_head {
                return Err(refused(431, "a request head too long"));
            }
        }
    }
}

/// The reason phrase of a status this door answers.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        426 => "Upgrade Required",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// One answer.
#[derive(Clone, Copy, Debug)]
pub struct Answer<'a> {
    pub status: u16,
    pub content_type: &'a str,
    pub body: &'a str,
    /// The server's own headers, each line ending in `\r\n`.
    pub headers: &'a str,
    /// A `HEAD` request: the head of the answer a `GET` would get, without its body.
    pub head_only: bool,
    /// After an error answer, how long to read what the client sent beyond its head
    /// before closing: closing on unread bytes resets the connection and can lose the
    /// answer. `None` closes at once.
    pub linger: Option<Duration>,
}

/// Writes `answer` on `stream` (within `write_time`) and closes the connection.
pub fn respond(mut stream: TcpStream, answer: &Answer<'_>, write_time: Duration) {
    let status = answer.status;
    let text = format!(
        "HTTP/1.1 {status} {}\r\n{}Content-Type: {}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n{}",
        reason(status),
        answer.headers,
        answer.content_type,
        answer.body.len(),
        if answer.head_only { "" } else { answer.body }
    );
    let _ = stream.set_write_timeout(Some(write_time));
    let _ = stream
        .write_all(text.as_bytes())
        .and_then(|()| stream.flush());
    let _ = stream.shutdown(Shutdown::Write);
    if let Some(linger) = answer.linger.filter(|_| !(200..300).contains(&status)) {
        drain(&mut stream, linger);
    }
}

/// Reads and drops what the client still sends, for at most `linger` and 128 KiB in all:
/// a client that never stops sending is cut all the same.
fn drain(stream: &mut TcpStream, linger: Duration) {
    let until = Instant::now() + linger;
    let mut drained = [0u8; 4096];
    let mut total = 0;
    while total < 128 * 1024 {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut drained) {
            Ok(0) | Err(_) => break,
            Ok(n) => total += n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const DOOR: Door = Door {
        max_head: 16 * 1024,
        max_body: 1000,
        head_time: Duration::from_secs(2),
        request_time: Duration::from_secs(10),
        single_headers: &["host", "x-signature"],
    };

    proptest! {
        /// Any bytes at all: a head, not yet a head, or a refusal with a status, never a
        /// panic; and a head that reads never promises a body beyond the door's.
        #[test]
        fn any_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
            match parse_head(&bytes, &DOOR) {
                Ok(Some(head)) => prop_assert!(head.body_length <= DOOR.max_body && head.size <= bytes.len()),
                Ok(None) => {}
                Err(refused) => prop_assert!(matches!(refused.status, 400 | 411 | 413 | 431)),
            }
        }

        /// A request head with random header lines.
        #[test]
        fn random_headers_are_read_or_refused(lines in prop::collection::vec("[ -~]{0,40}", 0..20)) {
            let text = format!("POST /bot HTTP/1.1\r\n{}\r\n\r\n", lines.join("\r\n"));
            match parse_head(text.as_bytes(), &DOOR) {
                Ok(Some(head)) => prop_assert!(head.body_length <= DOOR.max_body),
                Ok(None) => {}
                Err(refused) => prop_assert!(matches!(refused.status, 400 | 411 | 413 | 431)),
            }
        }
    }

    fn status(text: &str) -> Option<u16> {
        parse_head(text.as_bytes(), &DOOR).err().map(|e| e.status)
    }

    #[test]
    fn a_head_is_read_with_its_headers_and_length() {
        let head = parse_head(
            b"POST /bot?x=1 HTTP/1.1\r\nHost: x\r\nX-Signature: c2ln\r\nContent-Length: 12\r\n\r\n",
            &DOOR,
        )
        .unwrap()
        .unwrap();
        assert_eq!(head.request.method, "POST");
        assert_eq!(head.request.path, "/bot?x=1");
        assert_eq!(head.request.header("x-signature"), Some("c2ln"));
        assert_eq!(head.request.header("host"), Some("x"));
        assert_eq!(head.body_length, 12);
        assert!(matches!(
            parse_head(b"POST / HTTP/1.1\r\nHost: x\r\n", &DOOR),
            Ok(None)
        ));
    }

    #[test]
    fn what_cannot_be_read_safely_is_refused() {
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
        assert_eq!(
            status("POST / HTTP/1.1\r\nContent-Length: 1001\r\n\r\n"),
            Some(413)
        );
        assert_eq!(
            status("POST / HTTP/1.1\r\nX-Signature: a\r\nX-Signature: b\r\n\r\n"),
            Some(400)
        );
        assert_eq!(
            status("GET / HTTP/1.1\r\nHost: a\r\nHOST: b\r\n\r\n"),
            Some(400)
        );
        // A header the door does not decide by may come twice.
        assert_eq!(
            status("GET / HTTP/1.1\r\nAccept: a\r\nAccept: b\r\n\r\n"),
            None
        );
        assert_eq!(status("\x16\x03\x01 hello\r\n\r\n"), Some(400));
        let many: String = (0..70).map(|i| format!("X-{i}: y\r\n")).collect();
        assert_eq!(status(&format!("GET / HTTP/1.1\r\n{many}\r\n")), Some(431));
    }

    #[test]
    fn every_status_answered_has_its_reason() {
        for status in [
            200, 202, 400, 401, 403, 404, 405, 408, 409, 411, 413, 426, 431, 503,
        ] {
            assert!(!reason(status).is_empty(), "{status}");
        }
    }
}
